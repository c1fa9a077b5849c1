"""A newcomer's way from the sample game the app opens on to a game of their own."""

from __future__ import annotations

from pathlib import Path

import pytest
from appcheck import renders, sample_game_in_russian


def test_the_sample_game_shows_the_way_to_the_paper_sheet_in_russian(monkeypatch: pytest.MonkeyPatch,
                                                                      data: Path) -> None:
    at = sample_game_in_russian(monkeypatch)
    renders(at)
    note = " ".join(i.value for i in at.info)
    assert "учебная игра" in note and "«Протокол»" in note and "«Открыть игру»" in note
    at.button(key="sample_to_sheet").click().run()
    renders(at)
    assert at.sidebar.radio(key="view").value == "Protocol"
    assert not any("учебная игра" in i.value for i in at.info)  # the sheet's own page, not the note again
    at.sidebar.radio(key="view").set_value("Vote audit").run()
    at.button(key="sample_to_open").click().run()
    assert at.sidebar.radio(key="view").value == "Open a game"



def test_a_reload_keeps_the_judges_name_and_language(data: Path) -> None:
    """The name is recorded with each decision: a reload (a new session) must not leave it empty, or the judge
    types it again before every confirmation; the language the judge chose comes back with it."""
    from streamlit.testing.v1 import AppTest

    app = str(Path(__file__).resolve().parents[2] / "app.py")
    first = AppTest.from_file(app, default_timeout=60).run()
    first.sidebar.text_input(key="judge").input("Мария Судейская").run()
    first.sidebar.radio(key="lang").set_value("en").run()
    renders(first)
    again = AppTest.from_file(app, default_timeout=60).run()
    renders(again)
    assert again.sidebar.text_input(key="judge").value == "Мария Судейская"
    assert again.session_state["lang"] == "en" and again.header[0].value == "Vote audit"
