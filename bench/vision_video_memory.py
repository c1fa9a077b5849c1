"""Peak memory while streaming a long video: it must stay flat however long the file is.

Writes a long 1280x720 H.264 clip (a still table with a changing barcode, so it encodes fast),
then iterates over all of it and over scattered windows, and records the peak RSS after the
first 250 frames, after all frames, and after random seeks. Run by hand:

    python3 bench/vision_video_memory.py [--minutes 5]
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fixtures.vision.make_clips import read_barcode, write_clip  # noqa: E402

from vision.video import open_video  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_mb() -> float:
    """Current resident memory (the peak since start would hide the encoder's own peak)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--clip", type=Path, help="reuse this clip (written there if missing)")
    args = parser.parse_args()
    n = int(args.minutes * 60 * 25)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.clip or Path(tmp) / "long.mp4"
        if not path.exists():
            t0 = time.perf_counter()
            write_clip(path, n, fps=25, gop=50, width=1280, height=720)
            print(f"wrote {n} frames 1280x720 ({path.stat().st_size / 1e6:.1f} MB) in {time.perf_counter() - t0:.1f} s")
        with open_video(path) as video:
            n = video.meta.frame_count
            base = rss_mb()
            early = most = 0.0
            t0 = time.perf_counter()
            for i, frame in enumerate(video.iter_window(0.0, None)):
                if i % 50 == 0:
                    most = max(most, rss_mb())
                if i == 250:
                    early = most
                if i % 1000 == 0:
                    assert read_barcode(frame.image) == frame.index
            decode_s = time.perf_counter() - t0
            rng = random.Random(1)
            seeks = 0.0
            for k in range(200):
                i = rng.randrange(n)
                assert read_barcode(video.frame_at(i)) == i
                if k % 10 == 0:
                    seeks = max(seeks, rss_mb())
        print(f"decoded all {n} frames in {decode_s:.1f} s ({n / decode_s:.0f} fps)")
        print(f"RSS: opened {base:.0f} MB; highest over the first 250 frames {early:.0f} MB, over all {n} frames "
              f"{most:.0f} MB; during 200 random seeks (frame cache <= 192 MB) {seeks:.0f} MB; "
              f"process peak {peak_mb():.0f} MB")


if __name__ == "__main__":
    main()
