"""How long a judge takes to copy one day of the paper sheet into the Protocol page, keyboard only.

    python3 bench/sheet_entry.py [--keys-per-second 4] [--repeat 3]

The app runs on the bundled sample game (`streamlit run app.py`, its own data folder under a temporary
directory); headless Chromium opens the Protocol page, starts an empty sheet and types the sample's day 1 and
night 1 as a judge copies them from paper: focus the day's first box once, then each box's text and Tab
(the day's fouls, the nominations, the vote round's counts, who left, the fouls in the vote; the night's
shooting, the two checks, the best move, the night's fouls). Keys are typed at `--keys-per-second` (a
practised judge reading a sheet; 0 types as fast as the browser takes them) and every box waits for the page
to finish saving it before the pen moves on, as a judge would.

Printed: the keys the day needs, the page's wait per box (Tab to saved: median and longest), and the whole
entry's wall time per pass. Nothing is kept; needs Debian's chromium and Playwright.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample_videos" / "game" / "sample_game.protocol.json"
CHROMIUM = "/usr/bin/chromium"
# The sample game's day 1 and night 1 as the paper sheet holds them, box by box in the page's Tab order.
DAY_ONE = ["", "2:6 5:3 9:8", "6:5 3:1 8:4", "6", ""]
NIGHT_ONE = ["10", "4+", "9+", "2 9 3", ""]
SETTLED = """() => document.querySelector('[data-testid="stApp"]')
                   ?.getAttribute('data-test-script-state') === 'notRunning'"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(data: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {**os.environ, "STOPFRAME_DATA": str(data), "STOPFRAME_LANG": "en", "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
           "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false", "--", str(SAMPLE)]
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit("streamlit did not start within 90 s")


def _one_pass(browser: object, url: str, delay_ms: float) -> tuple[float, list[float]]:
    """(the entry's wall seconds, each box's wait from Tab to saved) for one empty sheet."""
    page = browser.new_page(viewport={"width": 1440, "height": 1500})  # type: ignore[attr-defined]
    page.goto(url)
    page.wait_for_selector("text=Vote audit", timeout=90_000)
    page.wait_for_function(SETTLED, timeout=90_000)
    page.get_by_text("Protocol", exact=True).first.click()
    page.wait_for_function(SETTLED, timeout=90_000)
    page.wait_for_selector("text=Start a sheet", timeout=90_000)
    page.wait_for_timeout(500)
    choice = page.get_by_text("an empty sheet", exact=True).first
    if not choice.is_visible():  # a sheet of an earlier pass is open: its start panel is folded
        page.get_by_text("Start a sheet", exact=True).first.click()
        choice.wait_for(state="visible", timeout=30_000)
    choice.click()  # start from: an empty sheet
    page.wait_for_function(SETTLED, timeout=90_000)
    page.get_by_text("Start an empty sheet", exact=True).click()
    page.wait_for_selector("text=Nominations (who:whom, in order)", timeout=90_000)
    page.wait_for_function(SETTLED, timeout=90_000)
    waits: list[float] = []
    start = time.perf_counter()
    page.get_by_label(re.compile(r"^In the day")).first.focus()
    for text in [*DAY_ONE, *NIGHT_ONE]:
        if text:
            page.keyboard.type(text, delay=delay_ms)
        tab = time.perf_counter()
        page.keyboard.press("Tab")
        page.wait_for_timeout(50)  # the rerun the box's leaving starts
        page.wait_for_function(SETTLED, timeout=60_000)
        waits.append(time.perf_counter() - tab)
    wall = time.perf_counter() - start
    assert page.locator('[data-testid="stException"]').count() == 0
    page.close()
    return wall, waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keys-per-second", type=float, default=4.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    keys = sum(len(t) + 1 for t in [*DAY_ONE, *NIGHT_ONE]) + 1  # each box's text and its Tab, the one focus
    delay = 1000.0 / args.keys_per_second if args.keys_per_second > 0 else 0.0
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = _serve(Path(tmp))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
                passes = [_one_pass(browser, url, delay) for _ in range(args.repeat)]
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    waits = [w for _wall, box_waits in passes for w in box_waits]
    print(f"| figure | value |\n|---|---|\n| keys for day 1 and night 1 (10 boxes) | {keys} |")
    print(f"| typing pace | {args.keys_per_second:g} keys/s |")
    print(f"| page's wait per box, Tab to saved: median / longest | {statistics.median(waits):.2f} s / "
          f"{max(waits):.2f} s |")
    print(f"| whole entry, wall (each pass) | {', '.join(f'{wall:.1f} s' for wall, _ in passes)} |")


if __name__ == "__main__":
    main()
