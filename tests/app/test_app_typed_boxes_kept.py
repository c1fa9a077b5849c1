"""A judge types into a box, goes to another page and comes back: the box still holds what was typed — the new
appeal's form (left for the frame viewer, for the frame to attach), a finding's reason, a path to open. Streamlit
forgets a box it did not draw on the page shown, so they came back empty."""

from __future__ import annotations

from pathlib import Path

import pytest
from appcheck import goto, sample_game_in_russian


def test_the_new_cases_form_keeps_what_was_typed_across_pages(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = goto(sample_game_in_russian(monkeypatch), "Appeals")
    claim = next(a for a in at.text_area if a.key and a.key.startswith("appeal_claim_"))
    typed = {"appeal_who": "место 4", "appeal_ended": "2026-11-29 21:40", "appeal_filed": "2026-11-29 21:45"}
    for key, text in typed.items():
        at.text_input(key=key).input(text)
    at.selectbox(key="appeal_seat").set_value(4)
    claim.input("Рука места 9 опоздала")
    at.run()
    goto(at, "Timeline & frames")
    goto(at, "Appeals")
    assert not at.exception
    assert {key: at.text_input(key=key).value for key in typed} == typed
    assert at.selectbox(key="appeal_seat").value == 4
    assert at.text_area(key=claim.key).value == "Рука места 9 опоздала"


def test_a_findings_reason_and_the_paths_typed_stay_across_pages(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The card's «Step through it in the frame viewer» leads away from the reason just typed; a path typed on Open a
    game or Tournament is there again after a look at another page."""
    at = sample_game_in_russian(monkeypatch)
    reason = next(b for b in at.text_input if b.key and b.key.endswith("_reason"))
    reason.input("рука видна на кадре 110").run()
    goto(at, "Timeline & frames")
    goto(at, "Vote audit")
    assert at.text_input(key=reason.key).value == "рука видна на кадре 110"
    for page, key in (("Open a game", "path_protocol"), ("Tournament", "tournament_path")):
        goto(at, page)
        at.text_input(key=key).input("/games/table 1").run()
        goto(at, "Vote audit")
        goto(at, page)
        assert at.text_input(key=key).value == "/games/table 1", page
    assert not at.exception


def test_the_protocol_pages_paths_stay_across_pages(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The judge types where the sheet's protocol comes from, looks at the vote audit, and comes back to it."""
    at = goto(sample_game_in_russian(monkeypatch), "Protocol")
    at.radio(key="sheet_start_from").set_value("protocol").run()
    at.text_input(key="sheet_protocol_path").input("/games/стол 1.protocol.json").run()
    goto(at, "Vote audit")
    goto(at, "Protocol")
    assert at.text_input(key="sheet_protocol_path").value == "/games/стол 1.protocol.json"
    assert not at.exception
