"""The app in a real browser: `streamlit run app.py` served on 127.0.0.1 and loaded in headless Chromium.

Asserts that each page renders without a Streamlit exception box. Screenshots go to a temporary folder
(never into the repository); set STOPFRAME_SCREENSHOTS=DIR to keep them there, e.g. for the README's
figures. Needs Debian's chromium (skipped only where /usr/bin/chromium is absent); Playwright drives it
(executable_path), else the chromium CLI's --screenshot is used for the first page only.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from review.audit.calibration import shipped
from stopframe_app.game import (
    SAMPLE_PROTOCOL,
    GameSpec,
    complete_spec,
    load_game,
    run_audit,
    video_fingerprint,
)
from stopframe_app.views.votes import ranked

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium" if Path("/usr/bin/chromium").is_file() else None
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--no-first-run", "--disable-sync", "--disable-dev-shm-usage"]
ERROR_MARKERS = ("Traceback (most recent call last)", "StreamlitAPIException", "This could not be shown",
                 "streamlit.errors")

pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium (/usr/bin/chromium) "
                                                     "is not installed")]


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: $STOPFRAME_SCREENSHOTS if set, else a temporary folder."""
    chosen = os.environ.get("STOPFRAME_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _game_args(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The bundled sample with its committed observations (so findings show) when they match the video;
    the sample alone otherwise; the app tests' small game until the sample exists."""
    fixture = REPO / "sample_videos" / "game" / "sample_game.observations.json"
    if SAMPLE_PROTOCOL.is_file():
        current = json.loads(fixture.read_text()).get("x_video_fingerprint") == video_fingerprint(
            SAMPLE_PROTOCOL.with_name("sample_game.mp4"))
        return ["--", str(SAMPLE_PROTOCOL), "--observations", str(fixture)] if current else []
    spec = importlib.util.spec_from_file_location("make_game", REPO / "tests" / "fixtures" / "app" / "make_game.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return ["--", str(mod.make_game(tmp_path_factory.mktemp("game")))]


@contextmanager
def serving(args: list[str], tmp_path_factory: pytest.TempPathFactory, data: Path | None = None) -> Iterator[str]:
    """`streamlit run app.py ARGS` on a free local port with a data folder of its own (`data`, where the test reads
    the store back); its URL while it runs."""
    port = _free_port()
    folder = data if data is not None else tmp_path_factory.mktemp("data")
    env = {**os.environ, "STOPFRAME_DATA": str(folder), "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
           "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false", *args]
    log = tmp_path_factory.mktemp("log") / "streamlit.log"
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    pytest.fail(f"streamlit did not start: {log.read_text()[-2000:]}")
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    args = _game_args(tmp_path_factory)
    with serving(args, tmp_path_factory) as url:
        yield url, args


def _late_vote_row(args: list[str]) -> int | None:
    """Where the first late vote sits in the preselected round's findings table, if the game has one."""
    if not args:
        return None
    spec = GameSpec(args[1], observations=args[3] if len(args) > 3 else None)
    game = load_game(complete_spec(spec))
    report = run_audit(game)
    day1 = [f for f in (report.findings if report is not None else ()) if f.day == 1 and f.round == 1]
    shown = ranked(day1, shipped().default_threshold)  # as the page lists them: most confident first
    return next((i for i, f in enumerate(shown) if f.kind == "late_vote"), None)


def _wait_rendered(page: object, header: str) -> str:
    """Wait until the page's header shows and Streamlit has stopped running the script; return the page text."""
    page.wait_for_selector(f"text={header}", timeout=60_000)  # type: ignore[attr-defined]
    page.wait_for_function(  # type: ignore[attr-defined]
        """() => { const app = document.querySelector('[data-testid="stApp"]');
                   return app && app.getAttribute('data-test-script-state') === 'notRunning'
                          && !document.querySelector('[data-testid="stSkeleton"]'); }""", timeout=90_000)
    page.wait_for_timeout(1500)  # type: ignore[attr-defined]  # images decode after the script has finished
    return page.inner_text("body")  # type: ignore[attr-defined]


def test_app_renders_in_chromium(app_url: tuple[str, list[str]], shots: Path) -> None:
    app_url, args = app_url
    screenshot = shots / "screenshot.png"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _cli_screenshot(app_url, screenshot)
        return
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS[1:], headless=True)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 1500})
            page.goto(app_url)
            text = _wait_rendered(page, "Vote audit")
            assert not [m for m in ERROR_MARKERS if m in text], text[:3000]
            assert page.locator('[data-testid="stException"]').count() == 0
            row = _late_vote_row(args)
            if row is not None:  # one click on the findings table: the late vote's card and frame
                grid = page.locator('[data-testid="stDataFrame"]').last.bounding_box()
                page.mouse.click(grid["x"] + 12, grid["y"] + 35 * (row + 1) + 17)
                text = _wait_rendered(page, "late vote — seat 9")
                assert page.get_by_text("Step through it in the frame viewer").count() == 1
                page.mouse.wheel(0, 450)
                page.wait_for_timeout(500)
            page.screenshot(path=str(screenshot), full_page=False)
            for name, header in (("Timeline & frames", "Timeline and frames"), ("Seat calibration", "Seat calibration"),
                                 ("Exports", "Exports"), ("Appeals", "Appeals"), ("Training", "Training")):
                page.get_by_text(name, exact=True).first.click()
                text = _wait_rendered(page, header)
                assert not [m for m in ERROR_MARKERS if m in text], f"{name}: {text[:3000]}"
                assert page.locator('[data-testid="stException"]').count() == 0, name
                if name == "Training":  # a trainee starts the quiz: the first vote's frames and the answer form
                    page.get_by_label("Trainee").fill("Ada")
                    page.get_by_label("Trainee").press("Enter")
                    page.wait_for_timeout(800)
                    page.get_by_text("Start the quiz", exact=True).click()
                    text = _wait_rendered(page, "Question 1 of")
                    assert not [m for m in ERROR_MARKERS if m in text], text[:3000]
                if name in ("Timeline & frames", "Appeals", "Training"):
                    shot = "screenshot_" + name.split()[0].lower() + ".png"
                    page.screenshot(path=str(screenshot.with_name(shot)), full_page=True)
        finally:
            browser.close()


def _cli_screenshot(url: str, screenshot: Path) -> None:
    """Without Playwright: chromium's own --screenshot after a virtual-time budget (first page only)."""
    profile = screenshot.parent / ".chromium-profile"
    try:
        subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--window-size=1440,1100",
                        "--virtual-time-budget=20000", f"--screenshot={screenshot}", url],
                       check=True, timeout=90, capture_output=True)
        dom = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=20000",
                              "--dump-dom", url], check=True, timeout=90, capture_output=True, text=True).stdout
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    assert screenshot.stat().st_size > 10_000
    assert "stException" not in dom and not [m for m in ERROR_MARKERS if m in dom]
