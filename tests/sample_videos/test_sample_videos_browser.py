"""The committed sample clips play in Chromium.

Serves the game video and every clip under sample_videos/clips/ from a tmp folder over 127.0.0.1 (file:// may block
media), loads each into a muted <video> in headless Debian chromium driven by Playwright, and asserts that it plays
past 0.5 s without a media error at the frame width its NAME.seats.json records, and that a seek to 2.0 s completes.
"""

from __future__ import annotations

import functools
import http.server
import io
import json
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright  # a test dependency (pyproject's [test] extra)

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium" if Path("/usr/bin/chromium").is_file() else None  # Debian's; CI installs it
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--no-first-run", "--disable-sync", "--disable-dev-shm-usage", "--autoplay-policy=no-user-gesture-required"]
CLIPS = sorted([REPO / "sample_videos" / "game" / "sample_game.mp4",
                *(REPO / "sample_videos" / "clips").glob("*.mp4")])
H264 = 'video/mp4; codecs="avc1.640028"'  # H.264 High profile (libx264 in sample_videos/writer.py)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium (/usr/bin/chromium) is not installed"),
]

PAGE = """<!doctype html><html><body>
<video id="v" muted playsinline preload="auto" width="320"></video>
</body></html>"""

# Resolves with what the <video> reports once it has played past 0.5 s, or once it errors or stalls.
PLAY_JS = """async (src) => {
  const v = document.getElementById('v');
  v.src = src;
  const state = () => ({time: v.currentTime, width: v.videoWidth, height: v.videoHeight,
                        error: v.error && {code: v.error.code, message: v.error.message}});
  try { await v.play(); } catch (e) { return {...state(), playError: String(e)}; }
  const t0 = performance.now();
  while (v.currentTime <= 0.5 && !v.error && performance.now() - t0 < 8000) {
    await new Promise(r => setTimeout(r, 50));
  }
  return state();
}"""

SEEK_JS = """async () => {
  const v = document.getElementById('v');
  v.pause();
  const seeked = new Promise(r => v.addEventListener('seeked', () => r(true), {once: true}));
  const timeout = new Promise(r => setTimeout(() => r(false), 8000));
  v.currentTime = 2.0;
  const ok = await Promise.race([seeked, timeout]);
  return {seeked: ok, time: v.currentTime, seekable: v.seekable.length ? v.seekable.end(0) : 0,
          error: v.error && v.error.code};
}"""


class _RangeHandler(http.server.SimpleHTTPRequestHandler):
    """SimpleHTTPRequestHandler plus single byte-range requests, which a <video> needs to be seekable."""

    def send_head(self):  # type: ignore[no-untyped-def]
        match = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", "").strip())
        path = Path(self.translate_path(self.path))
        if not match or not path.is_file() or match.groups() == ("", ""):
            return super().send_head()
        size = path.stat().st_size
        first, last = match.groups()
        start, end = (int(first), min(int(last or size - 1), size - 1)) if first else (max(0, size - int(last)), size - 1)
        if start >= size or start > end:
            self.send_error(416, "Requested Range Not Satisfiable")
            return None
        with path.open("rb") as f:
            f.seek(start)
            body = f.read(end - start + 1)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def end_headers(self) -> None:
        self.send_header("Accept-Ranges", "bytes")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's signature
        pass


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A loopback-only HTTP server over a tmp folder holding the page and copies of the clips."""
    root = tmp_path_factory.mktemp("clips_www")
    (root / "index.html").write_text(PAGE)
    for clip in CLIPS:
        shutil.copyfile(clip, root / clip.name)
    handler = functools.partial(_RangeHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def page(served: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    profile = tmp_path_factory.mktemp("chromium_profile")
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, headless=True,
                                                        args=FLAGS)
        try:
            pg = context.new_page()
            pg.goto(served + "/index.html")
            yield pg
        finally:
            context.close()


def _expected_width(clip: Path) -> int:
    seats = json.loads(clip.with_name(clip.stem + ".seats.json").read_text())
    return int(seats["frame_size"][0])


def test_there_are_clips_to_play() -> None:
    assert (REPO / "sample_videos" / "game" / "sample_game.mp4") in CLIPS
    assert len(CLIPS) > 1, "no clips under sample_videos/clips/"


@pytest.mark.parametrize("clip", CLIPS, ids=[c.stem for c in CLIPS])
def test_clip_plays_in_chromium(page: object, clip: Path) -> None:
    can_play = page.evaluate(f"document.createElement('video').canPlayType('{H264}')")  # type: ignore[attr-defined]
    version = page.context.browser.version if page.context.browser else "unknown"  # type: ignore[attr-defined]
    state = page.evaluate(PLAY_JS, "/" + clip.name)  # type: ignore[attr-defined]
    codec_note = f"chromium {version}: canPlayType({H264!r}) = {can_play!r}"
    assert not state.get("playError") and state["error"] is None, f"{clip.name} did not play ({codec_note}): {state}"
    assert state["time"] > 0.5, f"{clip.name} stalled at {state['time']:.2f} s ({codec_note})"
    assert state["width"] == _expected_width(clip), f"{clip.name}: videoWidth {state['width']}"
    seek = page.evaluate(SEEK_JS)  # type: ignore[attr-defined]
    assert seek["seeked"] and seek["error"] is None, f"{clip.name}: seek to 2.0 s did not complete: {seek}"
    assert abs(seek["time"] - 2.0) < 0.1, seek
