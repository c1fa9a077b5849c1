"""A judge fills in the new appeal's form, goes to the frame viewer for the frame to attach and comes back: the
form still holds what was typed (who appeals, their seat, the claim, the times). Streamlit forgets a box it did not
draw on the page shown, so the form came back empty."""

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
