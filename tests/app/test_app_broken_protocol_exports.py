"""A protocol with a broken field (a nomination whose target is `**x** <b>y</b>`, not a seat) opened in Russian:
the Exports page says why no corrected file is made — the protocol's format, with the page that lists each problem
and what to do — not «while a confirmed finding cannot go into them» (the judge confirmed nothing) nor the command
line's `stopframe validate`; the field's text shows as written, never as Markdown or HTML."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from appcheck import goto, shown
from streamlit.testing.v1 import AppTest

from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec

APP = str(Path(__file__).resolve().parents[2] / "app.py")
MARKUP = "**x** <b>y</b>"


def _broken_game(folder: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    data = json.loads(SAMPLE_PROTOCOL.read_text(encoding="utf-8"))
    nomination = next(e for e in data["events"] if e["type"] == "nomination")
    nomination["target"] = MARKUP
    path = folder / "broken.protocol.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setenv("STOPFRAME_LANG", "ru")
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["game_spec"] = GameSpec(str(path))
    at.session_state["judge"] = "Судья"
    at.session_state["lang"] = "ru"
    return at.run()


def test_exports_of_a_protocol_with_a_broken_field_name_the_format_and_what_to_do(
        data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = goto(_broken_game(tmp_path, monkeypatch), "Exports")
    assert not at.exception
    [said] = [shown(e.value) for e in at.error]
    assert said == ("Исправленного протокола и файлов клубов не будет: формат протокола broken.protocol.json нарушен "
                    "(1 проблема); на странице «Проверка голосований» каждая указана с её местом. Исправьте их в файле "
                    "и откройте его снова.")
    at.button(key="save_exports").click().run()
    assert any(shown(e.value).startswith("Не сохранено: формат протокола broken.protocol.json нарушен")
               for e in at.error), [e.value for e in at.error]
    assert not (data / "exports").exists() or not [p for p in (data / "exports").rglob("*") if p.is_file()]


def test_the_broken_field_shows_as_written_on_the_vote_audit(data: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    at = goto(_broken_game(tmp_path, monkeypatch), "Vote audit")
    listed = [m.value for m in at.markdown if "x" in shown(m.value) and "<b>" in shown(m.value)]
    assert listed and all(r"\*\*x\*\*" in m and r"\<b\>" in m for m in listed), listed
