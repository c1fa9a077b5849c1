"""Frame-step and jump-to-event latency of the judge's frame viewer on a 720p game (targets ≤ 100 / ≤ 300 ms).

    python3 bench/app_latency.py [--seconds 120] [--gop 50]

Renders a 1280x720 H.264 game (GOP of `--gop` frames, like a camera's 2 s) into a temp folder, then times
what the viewer does on the server for each click: decode the frame (vision.video), draw the overlay
(vision.overlay), encode the JPEG that is sent to the browser. Steps: +1, −1, +5, −5, +1 s, −1 s from
positions all over the video; jumps: to every vote window and to random times. Also times one full
AppTest rerun of the Timeline page per step click (the whole script, an upper bound: the browser reruns
only the viewer's fragment). With --browser, the same clicks in headless Chromium, timed inside the page
from the button press to the painted new frame, for the server round trip and for the prefetched strip.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def _make_game(folder: Path, seconds: float, gop: int) -> Path:
    spec = importlib.util.spec_from_file_location("make_game", REPO / "tests" / "fixtures" / "app" / "make_game.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod.make_game(folder, width=1280, height=720, seconds=seconds, gop=gop)


def _summary(name: str, ms: list[float], target: float) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    verdict = "ok" if p95 <= target else "OVER"
    return (f"{name:<28} n={len(ms):4d}  median {statistics.median(ms):6.1f} ms  p95 {p95:6.1f} ms  "
            f"max {ms[-1]:6.1f} ms  (target {target:.0f} ms: {verdict})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--gop", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--browser", action="store_true", help="also time clicks in headless Chromium (Playwright)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["STOPFRAME_DATA"] = str(Path(tmp) / "data")
        t0 = time.perf_counter()
        protocol = _make_game(Path(tmp) / "game", args.seconds, args.gop)
        print(f"rendered a 1280x720 game of {args.seconds:.0f} s, GOP {args.gop}, in {time.perf_counter() - t0:.1f} s")
        from stopframe_app.game import GameSpec, complete_spec, load_game
        from stopframe_app.viewer import draw_frame

        game = load_game(complete_spec(GameSpec(str(protocol))))
        meta = game.video_meta
        last = meta.frame_count - 1
        fps = meta.fps

        def timed(index: int) -> float:
            start = time.perf_counter()
            draw_frame(game, index)
            return (time.perf_counter() - start) * 1000

        steps: dict[str, list[float]] = {}
        for label, delta in (("+1 frame", 1), ("-1 frame", -1), ("+5 frames", 5), ("-5 frames", -5),
                             ("+1 s", round(fps)), ("-1 s", -round(fps))):
            out = []
            for _ in range(12):
                here = rng.randrange(round(fps) * 2, last - round(fps) * 2)
                timed(here)  # the judge is already looking at this frame
                out.append(timed(here + delta))
            steps[label] = out
        # Jumps: every vote window's call, and random far-away times, starting from somewhere else.
        jumps = []
        targets = [w.t for w in game.windows if w.t is not None and w.t < meta.duration]
        targets += [rng.uniform(0, meta.duration - 0.1) for _ in range(30)]
        for t in targets:
            timed(rng.randrange(0, last))
            with_source = game.spec.video
            assert with_source
            from stopframe_app import state

            with state.video(game) as source:
                index = source.index_at(t)
            jumps.append(timed(index))

        print(f"video {meta.width}x{meta.height} @ {fps:g} fps, {meta.frame_count} frames")
        all_steps = [x for v in steps.values() for x in v]
        for label, values in steps.items():
            print(_summary(f"step {label}", values, 100))
        print(_summary("step (all kinds)", all_steps, 100))
        print(_summary("jump to event", jumps, 300))
        _apptest_steps(protocol)
        if args.browser:
            _browser_steps(protocol, Path(tmp) / "data")
    return 0


# In the page: press the button, then wait (per animation frame) until the picture shows a new, decoded frame.
CLICK_TO_PICTURE = """async ([label, sel]) => {
  const button = [...document.querySelectorAll('button')].find(b => b.innerText.trim() === label);
  const old = document.querySelector(sel).src;
  const t0 = performance.now();
  button.click();
  await new Promise(done => { const poll = () => { const i = document.querySelector(sel);
    if (i && i.src !== old && i.complete && i.naturalWidth) done(); else requestAnimationFrame(poll); }; poll(); });
  await new Promise(painted => requestAnimationFrame(() => painted()));  // count the frame that paints it
  return performance.now() - t0;
}"""


def _browser_steps(protocol: Path, data: Path) -> None:
    """Click to picture in headless Chromium: from the button press until the new frame's image has loaded."""
    import shutil
    import socket
    import subprocess
    import urllib.request

    from playwright.sync_api import sync_playwright

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "STOPFRAME_DATA": str(data), "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                             "--server.port", str(port), "--server.address", "127.0.0.1", "--", str(protocol)],
                            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1)
                break
            except OSError:
                time.sleep(0.3)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=shutil.which("chromium"), headless=True,
                                         args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
            page = browser.new_page(viewport={"width": 1440, "height": 1100})
            page.goto(f"http://127.0.0.1:{port}")
            page.get_by_text("Timeline & frames", exact=True).first.click()
            page.wait_for_selector("text=Timeline and frames", timeout=60_000)
            image = '[data-testid="stImage"] img'
            page.wait_for_selector(image, timeout=60_000)
            page.wait_for_timeout(2000)
            results: dict[str, list[float]] = {}
            for label in ["+1"] * 15 + ["+5"] * 5 + ["+1 s"] * 5 + ["−1"] * 5:
                results.setdefault(label, []).append(page.evaluate(CLICK_TO_PICTURE, [label, image]))
            for label, values in results.items():
                print(_summary(f"browser click {label}", values, 100))
            print(_summary("browser click (all)", [x for v in results.values() for x in v], 100))
            # Stepping in the browser: frames ±12 prefetched into the page, stepped without a round trip.
            start = time.perf_counter()
            page.get_by_text("Step in the browser", exact=False).first.click()
            page.frame_locator("iframe").first.locator("img#f").wait_for(timeout=60_000)
            print(f"prefetching the strip of 25 frames: {(time.perf_counter() - start) * 1000:.0f} ms (once per position)")
            strip = next(f for f in page.frames if f != page.main_frame)
            local = [strip.evaluate(CLICK_TO_PICTURE, [label, "img#f"]) for label in ["+1"] * 8 + ["−1"] * 8 + ["+5", "−5"] * 2]
            print(_summary("browser step (prefetched)", local, 100))
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _apptest_steps(protocol: Path) -> None:
    """The whole Streamlit script per click, through AppTest (no browser, no network)."""
    from streamlit.testing.v1 import AppTest

    from stopframe_app.game import GameSpec

    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
    at.session_state["game_spec"] = GameSpec(str(protocol))
    at.run()
    at.sidebar.radio(key="view").set_value("Timeline & frames").run()
    times = []
    for key in ["frames_step_+1"] * 10 + ["frames_step_+1 s"] * 5 + ["frames_step_−5"] * 5:
        start = time.perf_counter()
        at.button(key=key).click().run()
        times.append((time.perf_counter() - start) * 1000)
    print(_summary("AppTest rerun per step", times, 100) + "  [whole page incl. the timeline chart]")


if __name__ == "__main__":
    sys.exit(main())
