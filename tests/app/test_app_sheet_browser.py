"""The Protocol page in a real browser: a judge types a box, presses Tab and goes on typing in the next box of the
day; each box is saved as it is left (its problem shows beside it with the clause), and a reload of the page
finds both boxes as typed. Same server and Chromium as tests/app/test_app_browser.py."""

from __future__ import annotations

import pytest
from test_app_browser import CHROMIUM, FLAGS, _wait_rendered, app_url  # noqa: F401 - app_url is the server fixture

pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium (/usr/bin/chromium) "
                                                     "is not installed")]


def _to_the_sheet(page: object) -> None:
    page.get_by_text("Protocol", exact=True).first.click()  # type: ignore[attr-defined]
    _wait_rendered(page, "Protocol sheet")


def test_tab_moves_down_the_day_and_every_box_survives_a_reload(app_url: tuple[str, list[str]]) -> None:  # noqa: F811
    playwright = pytest.importorskip("playwright.sync_api")
    url, _args = app_url
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS[1:], headless=True)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 1500})
            page.goto(url)
            _wait_rendered(page, "Vote audit")
            _to_the_sheet(page)
            page.get_by_text("Start an empty sheet", exact=True).click()
            _wait_rendered(page, "Nominations (who:whom, in order)")
            page.get_by_label("Nominations (who:whom, in order)").click()
            page.keyboard.type("2:6 5:3 9:8")
            page.keyboard.press("Tab")  # the pen moves down: the first vote round is the next box
            page.keyboard.type("6:5 3:1 8:3")
            page.keyboard.press("Tab")
            text = _wait_rendered(page, "rfm 4.4.10")
            assert "silent players" in text
            page.reload()
            _wait_rendered(page, "Vote audit")
            _to_the_sheet(page)
            assert page.get_by_label("Nominations (who:whom, in order)").input_value() == "2:6 5:3 9:8"
            assert page.get_by_label("Vote, round 1 (candidate:count, voters after /)").input_value() == "6:5 3:1 8:3"
            assert page.locator('[data-testid="stException"]').count() == 0
        finally:
            browser.close()
