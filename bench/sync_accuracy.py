"""Benchmark: `stopframe sync` error on our clips under gain changes, hiss and re-encoding, and on a 60-minute game.

    nice python3 bench/sync_accuracy.py [--quick] [--out bench/out/sync_accuracy.json]

Short pairs: camera A is each bundled clip (sample_videos/clips/*.mp4, the renderer's own files, AAC) and the
sample game (sample_videos/game/sample_game.mp4); camera B is a copy of A's sound started 3.7 s into it (and,
for each clip, one started 2.3 s *before* it), re-encoded and degraded per condition (tests/sync_copies.py).
The truth is the copy's start on A's clock. Reported per condition: pairs, refused, median / 95th-percentile /
largest offset error (ms), the lowest confidence, and the time per pair.

Long pair: a 60-minute game made from the sample game's and the clips' sound, each piece played back at a
random speed between 0.94 and 1.06 (so no stretch repeats another exactly), encoded as AAC; B is a copy from
95.3 s on, 3400 s long, running 100 ppm fast, 6 dB quieter, hissing at 10 dB SNR, in Opus. `stopframe sync`
runs on it in a child process that reports its own CPU time and peak memory (VmHWM). Reported: offset
error at B's start, drift error, the largest error of `b_time` over the overlap, and the error a plain offset
without the drift would leave at the end.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from scipy.signal import resample_poly  # noqa: E402
from sync_copies import camera_copy, write_audio  # noqa: E402

from vision.audio import read_audio  # noqa: E402
from vision.sync import SyncError, sync_files  # noqa: E402

RATE = 16_000
CONDITIONS = {  # name -> (codec, gain dB, SNR dB)
    "aac re-encode": ("aac", 0.0, None),
    "gain -12 dB (aac)": ("aac", -12.0, None),
    "hiss 20 dB SNR (aac)": ("aac", 0.0, 20.0),
    "hiss 10 dB SNR (aac)": ("aac", 0.0, 10.0),
    "hiss 0 dB SNR (aac)": ("aac", 0.0, 0.0),
    "mp3": ("mp3", 0.0, None),
    "opus": ("opus", 0.0, None),
    "mp3, -12 dB, 6 dB SNR": ("mp3", -12.0, 6.0),
    "opus, -12 dB, 0 dB SNR": ("opus", -12.0, 0.0),
}
LONG_S, LONG_START, LONG_LENGTH, LONG_PPM = 3600.0, 95.3, 3400.0, 100.0


def short_pairs(sources: list[Path], work: Path, quick: bool) -> list[dict]:
    rows = []
    conditions = list(CONDITIONS.items())[:: 3 if quick else 1]
    for source in sources:
        track = read_audio(source, rate=RATE)
        starts = [3.7] + ([-2.3] if track.duration < 60 else [])
        for (name, (codec, gain, snr)), start in ((c, s) for c in conditions for s in starts):
            length = min(track.duration - 3.7 - 1.0, 120.0)
            copy = camera_copy(track.samples, RATE, start, length, gain_db=gain, snr_db=snr, seed=len(rows))
            b = write_audio(work / f"b{len(rows)}", copy, RATE, codec)
            truth = track.start + start
            began = time.perf_counter()
            try:
                result = sync_files(source, b)
                row = {"error_ms": (result.offset_s - truth) * 1000, "confidence": result.confidence}
            except SyncError as exc:
                row = {"refused": str(exc)}
            rows.append({"clip": source.name, "condition": name, "start": start,
                         "seconds": time.perf_counter() - began, **row})
            b.unlink()
    return rows


def long_game(sources: list[Path], work: Path) -> dict:
    rng = np.random.default_rng(18)
    pieces, total = [], 0
    sounds = [read_audio(s, rate=RATE).samples for s in sources]
    while total < LONG_S * RATE:
        piece = sounds[int(rng.integers(len(sounds)))]
        speed = int(rng.integers(940, 1061))  # per mille
        piece = resample_poly(piece.astype(np.float64), 1000, speed).astype(np.float32) * float(rng.uniform(0.5, 1))
        pieces.append(piece)
        total += len(piece)
    room = np.concatenate(pieces)[: int(LONG_S * RATE)]
    began = time.perf_counter()
    a = write_audio(work / "long_a", room, RATE, "aac")
    copy = camera_copy(room, RATE, LONG_START, LONG_LENGTH, gain_db=-6.0, snr_db=10.0, drift_ppm=LONG_PPM, seed=5)
    b = write_audio(work / "long_b", copy, RATE, "opus")
    made = time.perf_counter() - began
    del room, copy, pieces
    seconds, cpu_s, peak_mb, run = timed_sync(a, b)
    if run.returncode != 0:
        return {"refused": run.stderr.strip(), "seconds": seconds, "cpu_s": cpu_s, "peak_mb": peak_mb}
    data = json.loads(run.stdout)
    k = data["drift_ppm"] * 1e-6
    truth_ppm = (1.0 / (1.0 + LONG_PPM * 1e-6) - 1.0) * 1e6
    a_times = np.linspace(LONG_START, LONG_START + LONG_LENGTH, 50)
    truth_b = (a_times - LONG_START) * (1.0 + LONG_PPM * 1e-6)
    mapped = (a_times - data["offset_s"]) / (1.0 + k)
    plain = a_times - data["offset_s"]
    return {"minutes": LONG_S / 60, "made_s": made, "seconds": seconds, "cpu_s": cpu_s, "peak_mb": peak_mb,
            "offset_error_ms": (data["offset_s"] - LONG_START) * 1000, "drift_ppm": data["drift_ppm"],
            "drift_error_ppm": data["drift_ppm"] - truth_ppm, "confidence": data["confidence"],
            "windows": data["windows"], "max_mapping_error_ms": float(np.abs(mapped - truth_b).max() * 1000),
            "plain_offset_error_at_end_ms": float(abs(plain[-1] - truth_b[-1]) * 1000)}


# The command in a child of its own, which reports its own peak memory: VmHWM, the high-water mark of its own
# address space (ru_maxrss would keep the bench's pages, which Linux carries across the fork and exec).
_CHILD = """import re, resource, sys
from pathlib import Path
from stopframe_cli.main import main
status = main(["sync", sys.argv[1], sys.argv[2], "--json"])
use = resource.getrusage(resource.RUSAGE_SELF)
hwm = int(re.search(r"VmHWM:\\s*(\\d+)", Path("/proc/self/status").read_text()).group(1))
print(f"peak_mb {hwm / 1024:.1f} {use.ru_utime + use.ru_stime:.2f}", file=sys.stderr)
sys.exit(status)
"""


def timed_sync(a: Path, b: Path) -> tuple[float, float, float, subprocess.CompletedProcess[str]]:
    """(wall seconds, CPU seconds, peak MB, the finished process) of `stopframe sync A B --json` on its own."""
    began = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", _CHILD, str(a), str(b)], cwd=ROOT, capture_output=True, text=True,
                         check=False)
    seconds = time.perf_counter() - began
    peak = [line.split()[1:] for line in run.stderr.splitlines() if line.startswith("peak_mb ")]
    run.stderr = "\n".join(line for line in run.stderr.splitlines() if not line.startswith(("peak_mb ", "sync: ")))
    mb, cpu = (float(v) for v in peak[0]) if peak else (float("nan"), float("nan"))
    return seconds, cpu, mb, run


def table(rows: list[dict]) -> str:
    lines = [f"{'condition':<24} {'pairs':>5} {'refused':>7} {'median':>8} {'p95':>8} {'max':>8} {'min conf':>8} "
             f"{'s/pair':>6}", f"{'':<24} {'':>5} {'':>7} {'ms':>8} {'ms':>8} {'ms':>8}"]
    for name in CONDITIONS:
        group = [r for r in rows if r["condition"] == name]
        if not group:
            continue
        errors = sorted(abs(r["error_ms"]) for r in group if "error_ms" in r)
        refused = sum("refused" in r for r in group)
        p95 = errors[min(len(errors) - 1, int(0.95 * len(errors)))] if errors else float("nan")
        conf = min((r["confidence"] for r in group if "confidence" in r), default=float("nan"))
        lines.append(f"{name:<24} {len(group):>5} {refused:>7} {statistics.median(errors) if errors else float('nan'):>8.3f} "
                     f"{p95:>8.3f} {max(errors, default=float('nan')):>8.3f} {conf:>8.2f} "
                     f"{statistics.mean(r['seconds'] for r in group):>6.2f}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every third condition, three clips, no long game")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "sync_accuracy.json")
    args = parser.parse_args()
    clips = sorted(p for p in (ROOT / "sample_videos" / "clips").glob("*.mp4") if "two_cameras" not in p.name)
    sources = clips + [ROOT / "sample_videos" / "game" / "sample_game.mp4"]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        rows = short_pairs(sources[:3] if args.quick else sources, work, args.quick)
        print(table(rows))
        for r in rows:
            if "refused" in r or abs(r["error_ms"]) >= 20.0:
                print(f"  {r['clip']} {r['condition']} start {r['start']:+.1f} s: "
                      + (r.get("refused") or f"error {r['error_ms']:+.1f} ms"))
        long = None if args.quick else long_game(sources, work)
    if long is not None:
        print(f"\n{long.get('minutes', 60):.0f}-minute game, B from {LONG_START} s for {LONG_LENGTH:.0f} s, "
              f"{LONG_PPM:+.0f} ppm fast, -6 dB, 10 dB SNR, opus:")
        print("  " + ", ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in long.items()))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"short": rows, "long": long}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
