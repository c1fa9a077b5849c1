"""The Training page as a trainer and a trainee reading Russian meet it: a quiz set saved without the trainer's name
or a title says which box to fill (the name is the sidebar's), the marked answer's sentences each begin with a
capital, and the progress chart gives the score as the page does, in per cent, never 0.5 with an English point."""

from __future__ import annotations

import json
import re
from pathlib import Path

from appcheck import renders, shown
from streamlit.testing.v1 import AppTest

from contract import i18n

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _training(judge: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["lang"] = "ru"
    at.session_state["judge"] = judge
    at.session_state["view"] = "Training"
    with i18n.using("ru"):
        return at.run()


def _said_under_save(at: AppTest) -> list[str]:
    with i18n.using("ru"):
        at.radio(key="training_mode").set_value("Trainer").run()
        at.button(key="trainer_save").click().run()
    return [shown(e.value) for e in at.error]


def test_a_quiz_set_saved_without_a_name_or_title_says_which_box_to_fill(data: Path) -> None:
    assert _said_under_save(_training("")) == [
        "Сначала введите своё имя (слева, в поле «Ваше имя»): набор заданий записывается с именем тренера."]
    assert _said_under_save(_training("Тренер")) == ["Сначала дайте набору название (поле «Название набора»)."]


def test_a_marked_answer_reads_as_sentences_and_the_progress_is_in_per_cent(data: Path) -> None:
    at = _training("Стажёр")
    with i18n.using("ru"):
        at.button(key="quiz_start").click().run()
        next(b for b in at.button if b.key and b.key.endswith("_submit")).click().run()
        renders(at)
        count = next(shown(m.value) for m in at.markdown if "Число голосов:" in shown(m.value))
        at.radio(key="training_mode").set_value("Trainer").run()
    assert not re.search(r"\. [а-яё]", count), count
    [spec] = [json.loads(e.proto.spec) for e in at.main if "spec" in str(getattr(e, "proto", ""))[:10]]
    assert spec["encoding"]["y"]["axis"]["format"] == ".0%", spec["encoding"]["y"]
    assert [t.get("format") for t in spec["encoding"]["tooltip"] if t["field"] == "score"] == [".0%"]
