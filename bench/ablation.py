"""What each vision model choice buys: observe with every switch of vision.options turned off in turn, on our own
rendered day clips and on the validation day clips. (The tracking detector the zone model replaced, and what that change
bought, are in docs/measurements.md.)

    python3 bench/ablation.py [--jobs N] [--clips NAME ...] [--out DIR]

Each clip is watched from its first frame, like `stopframe observe`. Switches that act after detection
(zone_model, picture_thumbs) share one detector pass per detector set-up. Scored by
../shared/validation/score_observe.py (called as a program: recall, precision, median |onset error|, an event
matching within 3 frames) and by vision.scoring (mean |onset error| in frames over matched events). Prints one
markdown table. Outputs under bench/out/ablation (gitignored), reused when present.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, fields, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from validation_compare import VALIDATION, clip_list  # noqa: E402

from vision.options import DEFAULT, VisionOptions  # noqa: E402
from vision.scoring import Score, score_intervals  # noqa: E402

OUT = ROOT / "bench" / "out" / "ablation"
AFTER_DETECTION = ("zone_model", "picture_thumbs")  # switches that need no
# detector pass of their own


def variants() -> dict[str, VisionOptions]:
    """The product's defaults, each boolean rule flipped in turn, and MediaPipe's own thresholds."""
    out = {"default": DEFAULT}
    for f in fields(VisionOptions):
        value = getattr(DEFAULT, f.name)
        if isinstance(value, bool):
            out[f"{f.name}={'off' if value else 'on'}"] = replace(DEFAULT, **{f.name: not value})
    out["min_confidence=0.3"] = replace(DEFAULT, min_confidence=0.3)
    out["min_confidence=0.5"] = replace(DEFAULT, min_confidence=0.5)
    return out


def detector_key(options: VisionOptions) -> str:
    return json.dumps({k: v for k, v in asdict(options).items() if k not in AFTER_DETECTION}, sort_keys=True)


def run_clip(stem: Path, group: dict[str, VisionOptions], folder: Path) -> str:
    """One detector pass over a clip, then every variant of `group` (same detector set-up) from its sightings."""
    from contract.observations import HandInterval
    from contract.seats import load_seat_map
    from vision.detect import SeatDetector
    from vision.observe import watch_window, window_runs
    from vision.video import open_video

    todo = {name: o for name, o in group.items() if not (folder / name / f"{stem.name}.observe.json").exists()}
    if not todo:
        return stem.name
    first = next(iter(todo.values()))
    with open_video(f"{stem}.mp4") as video:
        seat_map = load_seat_map(f"{stem}.seats.json").scaled_to(video.meta.width, video.meta.height)
        with SeatDetector(seat_map, options=first) as detector:
            stats = {"frames": 0, "detector_runs": 0, "gated": 0, "decode_s": 0.0}
            watch, end = watch_window(video, detector, 0.0, video.meta.duration, stats)
            seen, zones = watch.seen, watch.zones
        fps = video.meta.fps
    for name, options in todo.items():
        hands = [HandInterval(n, r.on, r.off, r.pose, r.confidence, r.on_frame, r.off_frame).to_json()
                 for n, runs in window_runs(seen, zones, end, options).items() for r in runs]
        (folder / name).mkdir(parents=True, exist_ok=True)
        (folder / name / f"{stem.name}.observe.json").write_text(json.dumps({"fps": fps, "hands": hands}))
    return stem.name


def figures(folder: Path, stems: list[Path]) -> str:
    pairs = [(Path(f"{s}.truth.json"), folder / f"{s.name}.observe.json") for s in stems]
    pairs = [p for p in pairs if p[1].exists()]
    if not pairs:
        return "— | — | — | —"
    cmd = [sys.executable, str(VALIDATION / "score_observe.py")] + [str(x) for p in pairs for x in p]
    line = subprocess.run(cmd, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    got = dict(re.findall(r"(recall|precision|onset_med) ([\d.]+)", line))
    own = Score()
    for truth, pred in pairs:
        t = json.loads(truth.read_text())
        own.add(score_intervals(t["hands"], json.loads(pred.read_text())["hands"], float(t.get("fps", 25))))
    errors = [abs(e) for e in own.onset_errors()]
    mean = f"{statistics.mean(errors):.2f}" if errors else "—"
    return f"{got.get('recall', '—')} | {got.get('precision', '—')} | {got.get('onset_med', '—')} | {mean}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--clips", nargs="*", help="only these clip names")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--variants", nargs="*", help="only these variants (names as printed)")
    args = ap.parse_args()
    clips = [(s, stem) for s, name, stem in clip_list(args.clips) if name != "sample_game"]  # whole clips only
    chosen = {k: v for k, v in variants().items() if not args.variants or k in args.variants}
    groups: dict[str, dict[str, VisionOptions]] = {}
    for name, options in chosen.items():
        groups.setdefault(detector_key(options), {})[name] = options
    with ProcessPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(run_clip, stem, group, args.out) for group in groups.values() for _, stem in clips]
        for job in jobs:
            print("done", job.result(), file=sys.stderr, flush=True)
    print("| rule switched | ours: recall | precision | onset med | onset mean abs (f) "
          "| validation: recall | precision | onset med | onset mean abs (f) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in chosen:
        ours = figures(args.out / name, [stem for s, stem in clips if s == "ours"])
        val = figures(args.out / name, [stem for s, stem in clips if s == "validation"])
        print(f"| {name} | {ours} | {val} |")


if __name__ == "__main__":
    main()
