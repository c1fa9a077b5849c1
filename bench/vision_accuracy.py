"""Accuracy of `observe` against ground truth: event recall/precision, onset/offset error in frames.

Sources (each skipped when absent):
- the renderer's clips: sample_videos/clips/*.mp4 (+ .seats.json, .truth.json), or the folders given;
- clips composited here from the real cut-outs in ../shared/assets/hands, at several hand sizes,
  with idle hands outside every zone (phantom check);
- the real camera clips in ../shared/assets/real (share of frames where the hand is found).
It also sweeps the hysteresis (close gaps <= N frames, drop runs < M frames) on the same per-frame
sightings, which is how vision.intervals' N and M were chosen. Run by hand, once:

    python3 bench/vision_accuracy.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fixtures.vision.composite import Placement, assets_present, load_sprites, table_seat_map, write_composite  # noqa: E402

from contract.seats import SeatMap, load_seat_map  # noqa: E402
from vision.detect import SeatDetector  # noqa: E402
from vision.intervals import GAP_FRAMES, MIN_RUN_FRAMES  # noqa: E402
from vision.observe import watch_window, window_runs  # noqa: E402
from vision.options import DEFAULT  # noqa: E402
from vision.scoring import Score, score_intervals  # noqa: E402
from vision.video import open_video  # noqa: E402

CLIPS = ROOT / "sample_videos" / "clips"
REAL = ROOT.parent / "shared" / "assets" / "real"
VOTE_SPRITES = ["hg_fist", "hg_like", "mps_hand_thumb_up", "mps_thumbs_up_png", "hg_palm", "hg_stop", "hg_four",
                "hg_one", "td_four_15a73593", "td_four_105f8f8e", "td_four_07fdea90", "td_four_0c960166"]


def sightings_of(video: Path, seat_map: SeatMap, model: str = "full") -> tuple[dict, tuple[int, float], float]:
    """Per-seat per-frame sightings (and zone cells) over the whole clip, one detector pass reused for every
    N, M, with the detector set up as observe() sets it up for hands resting on the table."""
    with open_video(video) as v, SeatDetector(seat_map.scaled_to(v.meta.width, v.meta.height), model=model,
                                              options=DEFAULT) as det:
        stats = {"frames": 0, "detector_runs": 0, "gated": 0, "decode_s": 0.0}
        watch, end = watch_window(v, det, 0.0, v.meta.duration, stats)
        seen, zones = watch.seen, watch.zones
        return (seen, zones), end, v.meta.fps


def intervals(seen: tuple[dict, dict], end: tuple[int, float], gap: int, min_run: int,
              zone_model: bool | None = None) -> list[dict]:
    """Hand intervals as observe() makes them; `zone_model` False: plain hysteresis (the sweep)."""
    options = DEFAULT if zone_model is None else replace(DEFAULT, zone_model=zone_model)
    return [{"seat": n, "on": r.on, "off": r.off, "on_frame": r.on_frame, "off_frame": r.off_frame, "pose": r.pose}
            for n, runs in window_runs(*seen, end, options, gap, min_run).items() for r in runs]


def composite_cases(folder: Path, sizes: list[float], per_size: int) -> list[tuple[str, Path, SeatMap, dict]]:
    rng = random.Random(11)
    sprites = load_sprites()
    cases = []
    for size in sizes:
        for k in range(per_size):
            n = 75
            placements = []
            for seat in range(1, 11):
                on = rng.randrange(2, 30)
                placements.append(Placement(seat, rng.choice(VOTE_SPRITES), on, on + rng.randrange(15, 40)))
            placements += [Placement(None, rng.choice(list(sprites)[:8]), 0, n, at=(110.0, 80.0)),
                           Placement(None, "hg_palm", 10, 60, at=(1180.0, 650.0))]
            path = folder / f"comp_{int(size)}_{k}.mp4"
            truth = write_composite(path, placements, n, hand_px=size)
            cases.append((f"composite {int(size)} px hands #{k + 1}", path, table_seat_map(), truth))
    return cases


def rendered_cases(folders: list[Path]) -> list[tuple[str, Path, SeatMap, dict]]:
    cases = []
    for truth_path in [p for folder in folders for p in sorted(folder.glob("*.truth.json"))]:
        stem = truth_path.name[: -len(".truth.json")]
        video, seats = truth_path.with_name(stem + ".mp4"), truth_path.with_name(stem + ".seats.json")
        if video.exists() and seats.exists():
            cases.append((f"rendered {stem}", video, load_seat_map(seats), json.loads(truth_path.read_text())))
    return cases


def summary(name: str, score: Score) -> str:
    on, off = score.onset_errors(), score.offset_errors()

    def stats(errors: list[int]) -> str:
        if not errors:
            return "- | - | -"
        within = sum(abs(e) <= 2 for e in errors) / len(errors)
        return f"{statistics.mean(abs(e) for e in errors):.2f} | {max(abs(e) for e in errors)} | {within:.0%}"

    n_truth = len(score.matched) + len(score.missed)
    return (f"| {name} | {n_truth} | {score.recall:.1%} | {score.precision:.1%} | {len(score.phantoms)} | "
            f"{stats(on)} | {stats(off)} |")


def real_clips() -> None:
    # Hand positions measured with the full-frame detector: the zone covers where each hand rests.
    clips = {"thumb_up_person.mp4": ([[330, 250], [650, 250], [650, 650], [330, 650]], (1280, 720), range(60, 195)),
             "open_hand_reach.mp4": ([[150, 60], [380, 60], [380, 300], [150, 300]], (640, 360), range(10, 202))}
    print("\n| real clip | frames with the hand | found in the zone (full) |")
    print("|---|---|---|")
    import numpy as np

    from contract.seats import Seat
    for name, (zone, size, frames) in clips.items():
        if not (REAL / name).exists():
            continue
        seen, _, _ = sightings_of(REAL / name, SeatMap(size, {1: Seat(np.array(zone, float))}))
        hit = sum(s.present for s in seen[0][1] if s.index in frames)
        print(f"| {name} | {len(frames)} | {hit / len(frames):.1%} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="one composite per size")
    parser.add_argument("--clips", type=Path, nargs="*", default=[CLIPS], help="folders of rendered clips with truth")
    parser.add_argument("--no-composites", action="store_true", help="only the rendered clips")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cases = rendered_cases(args.clips)
        if assets_present() and not args.no_composites:
            cases += composite_cases(Path(tmp), [40.0, 60.0, 90.0, 130.0], 1 if args.quick else 2)
        runs = []
        for name, video, seat_map, truth in cases:
            seen, end, fps = sightings_of(video, seat_map)
            runs.append((name, seen, end, fps, truth))
            print(f"measured {name}", file=sys.stderr, flush=True)
        print("\n## Events (the default options; full model, gating on)\n")
        print("| source | truth events | recall | precision | phantoms | onset mean abs err (frames) | onset max | "
              "onset within 2 | offset mean abs err | offset max | offset within 2 |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        groups: dict[str, Score] = {}
        poses: dict = {}
        for name, seen, end, fps, truth in runs:
            score = score_intervals(truth["hands"], intervals(seen, end, GAP_FRAMES, MIN_RUN_FRAMES), fps)
            print(summary(name, score))
            groups.setdefault(name.split(" #")[0], Score()).add(score)
            for key, count in score.poses().items():
                poses[key] = poses.get(key, 0) + count
        print("\n| group | truth events | recall | precision | phantoms | onset mean | onset max | onset within 2 | "
              "offset mean | offset max | offset within 2 |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for name, score in groups.items():
            print(summary(name, score))
        print("\n## Pose of matched events (truth -> read)\n")
        for (t, o), c in sorted(poses.items()):
            print(f"- {t} -> {o}: {c}")
        print("\n## Hysteresis sweep instead of the zone model (all sources): recall / precision / onset within 2\n")
        print("| close gaps <= N | drop runs < M | recall | precision | phantoms | onset within 2 |")
        print("|---|---|---|---|---|---|")
        for gap in (0, 1, 2, 4, 6, 10):
            for min_run in (1, 2, 3, 5, 8):
                total = Score()
                for _name, seen, end, fps, truth in runs:
                    total.add(score_intervals(truth["hands"], intervals(seen, end, gap, min_run, False), fps))
                errs = total.onset_errors()
                within = sum(abs(e) <= 2 for e in errs) / len(errs) if errs else 0
                print(f"| {gap} | {min_run} | {total.recall:.1%} | {total.precision:.1%} | {len(total.phantoms)} | {within:.0%} |")
    real_clips()


if __name__ == "__main__":
    main()
