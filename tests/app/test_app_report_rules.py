"""The reports a judge hands on name the rulebook the game was reviewed under: a judge who picks another rule
profile in the sidebar than the protocol's own gets a review report and an appeal's case file whose findings cite
that profile's clauses, and whose head names that profile (as the sidebar does), never the protocol's code."""

from __future__ import annotations

from pathlib import Path

import pytest
from appcheck import goto, renders, sample_game_in_russian
from samplegame import SAMPLE_OBSERVATIONS
from test_app_words import _html_text

from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec

SPEC = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
MAFCLUB = "Регламент: Спортивные правила клуба ACTORS MAFIA CLUB · mafclub"


def test_the_report_and_the_case_file_name_the_rules_the_judge_picked(data: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    at = sample_game_in_russian(monkeypatch)
    at.sidebar.selectbox(key="profile_pick").set_value("mafclub").run()  # the protocol says rfm
    goto(at, "Выгрузки")
    at.button(key="save_exports").click().run()
    renders(at)
    report = _html_text(next((data / "exports").glob("sample_game-*/sample_game.review.html")).read_text())
    assert "mafclub 2.4.5" in report  # its findings cite the picked rulebook ...
    assert MAFCLUB in report and "Регламент: rfm" not in report  # ... and its head names it

    goto(at, "Апелляции")
    at.text_input(key="appeal_who").set_value("место 8")
    at.button(key="appeal_open").click().run()
    renders(at)
    case_id = at.selectbox(key="appeal_case").value
    from review.cases.appeal_store import AppealStore
    from review.cases.store import Store
    from stopframe_app.game import complete_spec, load_game, run_audit
    from stopframe_app.views.appeals import report_html

    game = load_game(complete_spec(GameSpec(SPEC.protocol, observations=SPEC.observations, profile="mafclub")))
    game.audit = run_audit(game)
    case_file = _html_text(report_html(game, AppealStore(Store(data / "stopframe.sqlite")).case(case_id)))
    assert "mafclub 2.4.5" in case_file
    assert MAFCLUB in case_file and "Регламент: rfm" not in case_file
