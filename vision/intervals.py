"""Per-frame hand sightings of one seat -> hand intervals [on, off), with hysteresis.

A detector flickers: a resting hand is missed for a frame or two (motion blur, a neighbour's arm),
and an idle hand brushing the zone is 'seen' for a frame. Gaps of at most GAP_FRAMES are closed
and runs shorter than MIN_RUN_FRAMES are dropped. Neither shifts an onset.

A hand *rests* in the zone from the first frame it stops moving (spec §1: `on` is the first frame
where the hand rests), so a hand swooping in is seen a few frames before it lands: the onset is
moved to the first frame whose palm centre stays put until the next frame, and the offset to
the first frame where it has started to leave. Still means moving less than REST_SPEED palm
lengths per frame.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

# Chosen by measurement (bench/vision_accuracy.py sweep on the rendered clips, README): with misses on
# an unchanged picture already held by the detector, any N >= 1 gives the same result, N = 4 keeps a
# margin for short occlusions; M = 8 (0.32 s) cut phantoms from 10 (M = 2) to 1 at the same 98 % recall,
# while a vote hand rests >= 1.5 s.
GAP_FRAMES = 4
MIN_RUN_FRAMES = 8
REST_SPEED = 0.1  # palm lengths per frame: slower than this, the hand is at rest (landmark jitter ~0.02)


@dataclass(frozen=True)
class Sighting:
    """What the detector said about one seat on one processed frame."""

    index: int
    t: float
    present: bool
    pose: str = "other"
    score: float = 0.0  # detector confidence 0-1
    pose_margin: float = 0.0  # how clear the pose reading is, 0-1
    x: float = math.nan  # palm centre, frame pixels
    y: float = math.nan
    palm: float = math.nan  # palm length (wrist to middle knuckle), frame pixels


def _still(a: Sighting, b: Sighting) -> bool:
    """Whether the hand hardly moved from sighting a to the later sighting b (unknown positions count as still)."""
    step = max(1, b.index - a.index)
    scale = max(a.palm, 1.0) if math.isfinite(a.palm) else math.nan
    moved = math.hypot(b.x - a.x, b.y - a.y) / step
    return not math.isfinite(moved) or not math.isfinite(scale) or moved <= REST_SPEED * scale


def resting_span(seen: Sequence[Sighting]) -> tuple[int, int]:
    """(first, last) positions in `seen` (present sightings of one run) where the hand is at rest."""
    first = next((i for i in range(len(seen) - 1) if _still(seen[i], seen[i + 1])), 0)
    last = next((i for i in range(len(seen) - 1, first, -1) if _still(seen[i - 1], seen[i])), len(seen) - 1)
    return first, max(first, last)


@dataclass(frozen=True)
class Run:
    on_frame: int
    off_frame: int  # first frame after the run ([on, off) half-open)
    on: float
    off: float
    pose: str
    confidence: float
    pose_share: float = 1.0  # the share of the weighted pose readings that agree with `pose`


def pose_share(sightings: Sequence[Sighting], pose: str) -> float:
    """How much of the weighted pose evidence backs `pose`: a steady reading is near 1, a flicker near 1/2."""
    weights: Counter[str] = Counter()
    for s in sightings:
        weights[s.pose] += 0.2 + s.pose_margin
    total = sum(weights.values())
    return weights[pose] / total if total else 0.0


def majority_pose(sightings: Sequence[Sighting]) -> str:
    """The pose most frames agree on, each frame weighted by how clear its reading is."""
    votes: Counter[str] = Counter()
    for s in sightings:
        votes[s.pose] += 0.2 + s.pose_margin
    if not votes:
        return "other"
    best = max(votes.values())
    for pose in ("fist", "thumb_up_fist", "open_palm", "finger", "other"):  # ties favour the ordinary vote
        if votes.get(pose) == best:
            return pose
    return "other"


def runs_from_sightings(
    sightings: Sequence[Sighting],
    end_frame: int,
    end_t: float,
    gap_frames: int = GAP_FRAMES,
    min_run_frames: int = MIN_RUN_FRAMES,
) -> list[Run]:
    """Turn one seat's sightings (in frame order, one window) into hand runs.

    `end_frame`/`end_t`: the first frame after the window and its time, used as the offset of a hand
    still present when the window ends.
    """
    runs: list[Run] = []
    current: list[Sighting] = []
    last_present: Sighting | None = None
    absent_after: Sighting | None = None  # the first absent sighting after the current run

    def close() -> None:
        if not current:
            return
        seen = [s for s in current if s.present]
        rest0, rest1 = resting_span(seen)
        first, last = seen[rest0], seen[rest1]
        if rest1 < len(seen) - 1:  # it started leaving while still seen: off is the first frame it moved
            off_frame, off_t = seen[rest1 + 1].index, seen[rest1 + 1].t
        elif absent_after is not None:
            off_frame, off_t = absent_after.index, absent_after.t
        else:
            off_frame, off_t = end_frame, end_t
        resting = seen[rest0:rest1 + 1]
        span = last.index - first.index + 1
        if span >= min_run_frames:
            covered = len(resting) / max(1, len([s for s in sightings if first.index <= s.index <= last.index]))
            confidence = float(sum(s.score for s in resting) / len(resting)) * (0.5 + 0.5 * covered)
            pose = majority_pose(resting)
            runs.append(Run(first.index, off_frame, first.t, off_t, pose, round(confidence, 3),
                            round(pose_share(resting, pose), 3)))

    for s in sightings:
        if s.present:
            if current and last_present is not None and s.index - last_present.index - 1 > gap_frames:
                close()
                current = []
            if not current:
                absent_after = None
            current.append(s)
            last_present = s
            absent_after = None
        elif current and absent_after is None:
            absent_after = s
    close()
    return runs
