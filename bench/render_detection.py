"""How often MediaPipe finds the renderer's vote hands, per pose, on per-seat 256-px crops.

For every truth hand interval of a clip, the seat's own crop (vision.crops, the same square the
audit uses) goes through the seat's landmarker on every `--stride`-th frame of [on, off); a hand
counts when vision's detector keeps it (plausible landmarks, palm centre in that seat's zone).
An event is found when a hand is found in at least half of its sampled frames.

    python3 bench/render_detection.py sample_videos/game/sample_game sample_videos/clips/stress_dark
    python3 bench/render_detection.py --sizes      # vote hand widths in pixels, from the renderer's masks
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def measure(stem: Path, stride: int) -> dict:
    import av

    from contract.seats import load_seat_map
    from vision.night_detect import NightDetector

    truth = json.loads(stem.with_suffix(".truth.json").read_text(encoding="utf-8"))
    seat_map = load_seat_map(stem.with_suffix(".seats.json"))
    events = truth["hands"]
    by_frame: dict[int, list[int]] = defaultdict(list)  # frame -> indices of events to test on it
    for k, h in enumerate(events):
        first, last = round(h["on"] * 25), round(h["off"] * 25)
        for i in range(first, last, stride):
            by_frame[i].append(k)
    hits = np.zeros(len(events))
    tries = np.zeros(len(events))
    pose_right = np.zeros(len(events))
    detector = NightDetector(seat_map, gating=False)
    start = time.time()
    with av.open(str(stem.with_suffix(".mp4"))) as container:
        for index, frame in enumerate(container.decode(video=0)):
            todo = by_frame.get(index)
            if not todo:
                continue
            image = frame.to_ndarray(format="bgr24")
            t = index / 25
            for k in todo:
                seat = events[k]["seat"]
                stream = detector.streams.get(seat)
                if stream is None:
                    continue
                hands = [h for h in detector.detect(stream, stream.crop.cut(image), t) if h.seat == seat]
                tries[k] += 1
                if hands:
                    hits[k] += 1
                    pose_right[k] += hands[0].pose.pose == events[k]["pose"]
    detector.close()
    per_pose: dict[str, dict] = {}
    for k, h in enumerate(events):
        row = per_pose.setdefault(h["pose"], {"events": 0, "found": 0, "frames": 0, "frame_hits": 0, "pose_ok": 0})
        row["events"] += 1
        row["pose_ok"] += int(pose_right[k])
        row["found"] += bool(tries[k] and hits[k] / tries[k] >= 0.5)
        row["frames"] += int(tries[k])
        row["frame_hits"] += int(hits[k])
    total = {"events": len(events), "found": sum(r["found"] for r in per_pose.values()),
             "frames": int(tries.sum()), "frame_hits": int(hits.sum()), "pose_ok": int(pose_right.sum())}
    return {"clip": stem.name, "per_pose": per_pose, "total": total, "seconds": round(time.time() - start, 1),
            "missed": [events[k] for k in range(len(events)) if not (tries[k] and hits[k] / tries[k] >= 0.5)]}


def sizes() -> None:
    """Size (px: the larger side of its bounding box) of each seat's resting vote hand in the 1080p game
    view, per pose."""
    from sample_videos.scenarios import Conditions, Stage
    from sample_videos.scene import VOTE_POSES

    stage = Stage(Conditions())
    living = tuple(range(1, 11))
    for pose in VOTE_POSES:
        widths = []
        for seat in stage.seats.values():
            layer = stage.layer(seat, (seat.vote_rest(pose), seat.idle(False)), None, False, living)
            ys, xs = np.nonzero(layer.hand)
            widths.append(int(max(xs.max() - xs.min(), ys.max() - ys.min()) + 1) if len(xs) else 0)
        print(f"{pose:14s} px per seat 1..10: {widths}  (min {min(widths)}, max {max(widths)})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stems", nargs="*", type=Path, help="clip paths without extension (NAME for NAME.mp4 ...)")
    ap.add_argument("--stride", type=int, default=2, help="test every n-th frame of each interval")
    ap.add_argument("--sizes", action="store_true")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args()
    if args.sizes:
        sizes()
        return 0
    results = []
    for stem in args.stems:
        r = measure(stem, args.stride)
        results.append(r)
        print(f"\n{r['clip']} ({r['seconds']} s)")
        print(f"{'pose':14s} {'events':>6s} {'found':>6s} {'event %':>8s} {'frame %':>8s} {'pose read %':>11s}")
        for pose, row in sorted(r["per_pose"].items()) + [("all", r["total"])]:
            ev = 100 * row["found"] / max(row["events"], 1)
            fr = 100 * row["frame_hits"] / max(row["frames"], 1)
            pr = 100 * row["pose_ok"] / max(row["frame_hits"], 1)
            print(f"{pose:14s} {row['events']:6d} {row['found']:6d} {ev:7.1f}% {fr:7.1f}% {pr:10.1f}%")
        for m in r["missed"]:
            print(f"  missed: seat {m['seat']} {m['pose']} [{m['on']}, {m['off']})")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
