"""A file the judge uploads that cannot be read is named as the judge chose it («notes.json: …»), never by the
place the app keeps uploads in its data folder (…/uploads/3e62…/notes.json), on Open a game and on the Protocol
page. Uploads only happen in a browser: Debian's Chromium driven by Playwright, the app served in Russian as in
tests/app/test_app_browser.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_app_browser import CHROMIUM, FLAGS, _wait_rendered, serving

pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium (/usr/bin/chromium) "
                                                     "is not installed")]

WAIT = 120_000  # ms: a loaded machine renders a page in seconds; this only bounds a hang


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("STOPFRAME_LANG", "ru")
        with serving([], tmp_path_factory) as served:
            yield served


def _alerts(page: object) -> list[str]:
    return [a.inner_text() for a in page.locator("[data-testid='stAlert']").all()]  # type: ignore[attr-defined]


def _to(page: object, name: str, header: str) -> None:
    page.locator("[data-testid='stSidebar']").get_by_text(name, exact=True).click()  # type: ignore[attr-defined]
    _wait_rendered(page, header)


def _uploaded(page: object) -> None:
    """Wait until the file chosen is uploaded (its name shown under the box and the run it started done): a click
    before that finds no upload on a loaded machine."""
    _wait_rendered(page, "notes.json")


def test_an_upload_that_is_not_json_is_named_as_the_judge_chose_it(url: str, tmp_path: Path) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    notes = tmp_path / "notes.json"
    notes.write_text("**x** <b>y</b>", encoding="utf-8")
    said = "notes.json: протокол — некорректный JSON: строка 1, столбец 1: ожидалось значение."
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS[1:], headless=True)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 2000})
            page.set_default_timeout(WAIT)
            page.goto(url)
            _wait_rendered(page, "Проверка голосований")
            _to(page, "Открыть игру", "Открыть загруженные файлы")
            page.locator("[data-testid='stFileUploader'] input[type=file]").first.set_input_files(str(notes))
            _uploaded(page)
            page.get_by_role("button", name="Открыть загруженные файлы").click()
            _wait_rendered(page, "Не открыто")
            assert f"Не открыто: {said} Открытая ранее игра остаётся открытой." in _alerts(page)

            _to(page, "Протокол", "Бланк протокола")
            page.get_by_text("протокол Stopframe", exact=True).click()
            _wait_rendered(page, "Начать с этого протокола")
            page.locator("[data-testid='stMain'] [data-testid='stFileUploader'] input[type=file]").first.set_input_files(
                str(notes))
            _uploaded(page)
            page.get_by_role("button", name="Начать с этого протокола").click()
            _wait_rendered(page, "ожидалось значение")
            assert said in _alerts(page)
            assert "uploads" not in page.inner_text("body")
        finally:
            browser.close()
