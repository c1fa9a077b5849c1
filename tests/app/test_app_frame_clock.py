"""A frame's moment in the video, in Russian, has a decimal comma like every other number beside it («t = +1,09 с ·
кадр 106 · 00:04,240»), on the page and in the report the judge hands on; in English a decimal point."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from appcheck import goto, renders, sample_game_in_russian
from test_app_words import _html_text, page_texts

from stopframe_app.words import clock

RU_CLOCK, EN_CLOCK = re.compile(r"\b\d\d:\d\d,\d{3}\b"), re.compile(r"\b\d\d:\d\d\.\d{3}\b")


@pytest.mark.parametrize(("lang", "written"), [("ru", "02:33,360"), ("en", "02:33.360")])
def test_the_clock_is_written_as_the_reader_writes_numbers(lang: str, written: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOPFRAME_LANG", lang)
    assert clock(153.36) == written and clock(4.24)[:3] == "00:"


def test_frame_captions_in_russian_have_a_decimal_comma(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = sample_game_in_russian(monkeypatch)
    renders(at)
    page = "\n".join(page_texts(at))
    assert "кадр 106 · 00:04,240" in page  # a finding's key frame on the Vote audit page
    assert not EN_CLOCK.search(page), EN_CLOCK.findall(page)
    goto(at, "Выгрузки")
    at.button(key="save_exports").click().run()
    renders(at)
    report = _html_text(next((data / "exports").glob("sample_game-*/sample_game.review.html")).read_text())
    assert RU_CLOCK.search(report) and not EN_CLOCK.search(report), EN_CLOCK.findall(report)
