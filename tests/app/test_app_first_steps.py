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

