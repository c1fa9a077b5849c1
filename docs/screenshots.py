"""The README's pictures, taken from the app as a Russian judge sees it: `python3 docs/screenshots.py [FOLDER]`.

Serves `stopframe app` on the bundled sample game (its committed observations, a data folder of its own) and
photographs, in headless Chromium: the vote audit with the late vote's card open (`screenshot.png`) and the
Protocol page with the sample's sheet (`screenshot_sheet.png`). Needs Debian's chromium and Playwright; writes
only into FOLDER (default: docs/).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GAME = REPO / "sample_videos" / "game"
CHROMIUM = "/usr/bin/chromium"
PORT = 8655
READY = """() => { const app = document.querySelector('[data-testid="stApp"]');
                   return app && app.getAttribute('data-test-script-state') === 'notRunning'
                          && !document.querySelector('[data-testid="stSkeleton"]'); }"""


def _settled(page: object, text: str) -> None:
    """Wait for `text` on the page and for Streamlit to finish the run (images decode a moment later)."""
    page.wait_for_selector(f"text={text}", timeout=120_000)  # type: ignore[attr-defined]
    page.wait_for_function(READY, timeout=120_000)  # type: ignore[attr-defined]
    page.wait_for_timeout(2000)  # type: ignore[attr-defined]


def _late_vote_row() -> int:
    """The late vote's row in day 1's findings table, as the page ranks them."""
    sys.path.insert(0, str(REPO))
    from review.audit.calibration import shipped
    from stopframe_app.game import GameSpec, complete_spec, load_game, run_audit
    from stopframe_app.views.votes import ranked

    spec = GameSpec(str(GAME / "sample_game.protocol.json"), observations=str(GAME / "sample_game.observations.json"))
    report = run_audit(load_game(complete_spec(spec)))
    day1 = [f for f in (report.findings if report is not None else ()) if f.day == 1 and f.round == 1]
    return next(i for i, f in enumerate(ranked(day1, shipped().default_threshold)) if f.kind == "late_vote")


def take(folder: Path) -> None:
    from playwright.sync_api import sync_playwright

    row = _late_vote_row()
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "STOPFRAME_DATA": data, "STOPFRAME_LANG": "ru", "PYTHONPATH": str(REPO)}
        cmd = [sys.executable, "-m", "stopframe_cli", "app", str(GAME / "sample_game.protocol.json"),
               "--observations", str(GAME / "sample_game.observations.json"), "--port", str(PORT)]
        server = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_up(f"http://127.0.0.1:{PORT}/_stcore/health")
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
                page = browser.new_page(viewport={"width": 1440, "height": 1500})
                page.goto(f"http://127.0.0.1:{PORT}")
                _settled(page, "Проверка голосований")
                grid = page.locator('[data-testid="stDataFrame"]').last.bounding_box()
                page.mouse.click(grid["x"] + 12, grid["y"] + 35 * (row + 1) + 17)
                _settled(page, "место 9")
                page.mouse.wheel(0, 600)
                page.wait_for_timeout(800)
                page.screenshot(path=str(folder / "screenshot.png"))
                page.get_by_text("Протокол", exact=True).first.click()
                _settled(page, "Бланк протокола")
                page.get_by_text("протокол Stopframe", exact=True).first.click()
                page.wait_for_timeout(800)
                page.get_by_text("Начать с этого протокола", exact=True).first.click()
                page.set_viewport_size({"width": 1440, "height": 3600})  # the whole sheet laid out, day 1 cut from it
                _settled(page, "День 1")
                day = page.get_by_text("День 1", exact=True).first.bounding_box()
                page.screenshot(path=str(folder / "screenshot_sheet.png"),
                                clip={"x": 0, "y": day["y"] - 30, "width": 1440, "height": 1100})
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=20)


def _wait_up(url: str) -> None:
    deadline = time.time() + 90
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            if time.time() > deadline:
                raise SystemExit(f"{url}: the app did not start") from None
            time.sleep(0.5)


if __name__ == "__main__":
    take(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs")
