"""A resting fist's form decided frame by frame and by what its frames agree on (vision.intervals.agreed_fist), from
the same sightings: how many matched vote hands get their pose right each way, per clip set.

    python3 bench/fist_form.py [--jobs N] [--clips NAME ...] [--varied N] [--out DIR]

One detector pass per clip over the whole clip with its given seat map (as bench/ablation.py watches it; the
sample game is left out, as there), kept under bench/out/fist_form (gitignored) and reused. The runs are then
decided twice from those sightings: "frame by frame" is the product with `agreed_fist` left out (each frame's
reading, the picture's where the reader knows the window's footage), "agreed" is the product as it is. Each run
is matched to the truth's hands by ../shared/validation/score_observe.py's own matcher (same seat, onset within
0.12 s). Prints one markdown table and every hand whose pose the two ways read differently.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from validation_compare import clip_list, validation_module, varied_clips  # noqa: E402

OUT = ROOT / "bench" / "out" / "fist_form"


def sightings_of(stem: Path, folder: Path) -> Path:
    """One detector pass over a clip with its given map: every seat's sightings, zone cells and the clip's end."""
    from contract.seats import load_seat_map
    from vision.detect import SeatDetector
    from vision.observe import watch_window
    from vision.video import open_video

    path = folder / f"{stem.name}.pkl"
    if path.exists():
        return path
    with open_video(f"{stem}.mp4") as video:
        seat_map = load_seat_map(f"{stem}.seats.json").scaled_to(video.meta.width, video.meta.height)
        with SeatDetector(seat_map) as detector:
            stats = {"frames": 0, "detector_runs": 0, "gated": 0, "decode_s": 0.0}
            watch, end = watch_window(video, detector, 0.0, video.meta.duration, stats)
            seen, zones = watch.seen, watch.zones
    folder.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps((seen, zones, end)))
    return path


def poses(stem: Path, path: Path, agreed: bool, score: Any) -> list[tuple[int, float, str, str]]:
    """(seat, truth's onset, truth's pose, the pose read) for every matched vote hand of a clip."""
    import vision.observe as observe

    seen, zones, end = pickle.loads(path.read_bytes())
    keep = observe.agreed_fist
    observe.agreed_fist = keep if agreed else (lambda run, raw: run)
    try:
        runs = observe.window_runs(seen, zones, end)
    finally:
        observe.agreed_fist = keep
    pred = [{"seat": n, "on": r.on, "off": r.off, "pose": r.pose} for n, rs in runs.items() for r in rs]
    truth = json.loads(Path(f"{stem}.truth.json").read_text())
    hands = [{"seat": int(h["seat"]), "on": float(h["on"]), "off": float(h["off"]), "pose": h.get("pose")}
             for h in truth["hands"]]
    return [(hands[i]["seat"], hands[i]["on"], hands[i]["pose"], pred[j]["pose"])
            for i, j in score.match(hands, pred, 0.12)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--clips", nargs="*", help="only these clip names")
    ap.add_argument("--varied", type=int, default=0, metavar="N", help="also the varied renders 1..N")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    clips = [(s, stem) for s, name, stem in clip_list(args.clips) if name != "sample_game"]
    clips += [("varied", stem) for _, _, stem in varied_clips(args.varied)]
    score = validation_module("score_observe.py")
    clips = [(s, stem) for s, stem in clips if not score.is_night(json.loads(Path(f"{stem}.truth.json").read_text()))]
    with ProcessPoolExecutor(args.jobs) as pool:
        paths = list(pool.map(sightings_of, [stem for _, stem in clips], [args.out] * len(clips)))
    right: dict[str, list[int]] = {}
    changed = []
    for (group, stem), path in zip(clips, paths, strict=True):
        before, after = poses(stem, path, False, score), poses(stem, path, True, score)
        counts = right.setdefault(group, [0, 0, 0])
        counts[0] += sum(p == t for _, _, t, p in before)
        counts[1] += sum(p == t for _, _, t, p in after)
        counts[2] += len(after)
        changed += [f"{stem.name} seat {n} at {on:.2f} s: truth {t}, {p0} → {p1}"
                    for (n, on, t, p0), (_, _, _, p1) in zip(before, after, strict=True) if p0 != p1]
    print("| pose right on matched vote hands | frame by frame | agreed |")
    print("|---|---|---|")
    for group, (a, b, n) in right.items():
        print(f"| {group} ({n} hands) | {a}/{n} = {a / max(n, 1):.3f} | {b}/{n} = {b / max(n, 1):.3f} |")
    print(f"\n{len(changed)} hands read differently:")
    print("\n".join(f"- {line}" for line in changed))


if __name__ == "__main__":
    main()
