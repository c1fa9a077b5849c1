"""Per-frame hand sightings of one seat -> hand intervals [on, off), with hysteresis.

A detector flickers: a resting hand is missed for a frame or two (motion blur, a neighbour's arm),
and an idle hand brushing the zone is 'seen' for a frame. Gaps of at most GAP_FRAMES are closed
and runs shorter than MIN_RUN_FRAMES are dropped. Neither shifts an onset: the onset is always the
first frame actually seen, so the 2-frame onset tolerance is spent on the detector, not here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

# Chosen by measurement (bench/vision_accuracy.py, figures in the README): detector drop-outs inside
# a resting hand last 1-4 frames at 25 fps; phantom sightings last 1-2 frames; real hands rest >= 8.
GAP_FRAMES = 4
MIN_RUN_FRAMES = 3


@dataclass(frozen=True)
class Sighting:
    """What the detector said about one seat on one processed frame."""

    index: int
    t: float
    present: bool
    pose: str = "other"
    score: float = 0.0  # detector confidence 0-1
    pose_margin: float = 0.0  # how clear the pose reading is, 0-1


@dataclass(frozen=True)
class Run:
    on_frame: int
    off_frame: int  # first frame after the run ([on, off) half-open)
    on: float
    off: float
    pose: str
    confidence: float


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
        first, last = current[0], current[-1]
        if absent_after is not None:
            off_frame, off_t = absent_after.index, absent_after.t
        else:
            off_frame, off_t = end_frame, end_t
        span = last.index - first.index + 1
        if span >= min_run_frames:
            seen = [s for s in current if s.present]
            covered = len(seen) / max(1, len([s for s in sightings if first.index <= s.index <= last.index]))
            confidence = float(sum(s.score for s in seen) / len(seen)) * (0.5 + 0.5 * covered)
            runs.append(Run(first.index, off_frame, first.t, off_t, majority_pose(seen), round(confidence, 3)))

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
