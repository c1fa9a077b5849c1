"""Per-frame hand sightings of one seat -> hand intervals [on, off), with hysteresis.

A detector flickers: a resting hand is missed for a frame or two (motion blur, a neighbour's arm),
and an idle hand brushing the zone is 'seen' for a frame. Gaps of at most GAP_FRAMES are closed
and runs shorter than MIN_RUN_FRAMES are dropped. Neither shifts an onset.

A hand *rests* in the zone from the first frame it stops moving (spec §1: `on` is the first frame
where the hand rests), so a hand swooping in is seen a few frames before it lands: the onset is
moved to the first frame whose palm centre stays within REST_RADIUS palm lengths of where it is
over the next REST_FRAMES sightings (a hand that pauses for a frame mid-swoop has not landed; a
shaking camera's jitter of ~0.15 palm lengths a frame does not unsettle a resting one), or to whose
place REST_FRAMES of the next REST_WINDOW sightings come back (MediaPipe flipping between two readings
of a still hand), and the offset to the first frame where it has started to leave, moving more than
REST_SPEED palm lengths per frame.

A frame where the detector found a hand in the seat's zone that the plausibility check refused
(`unread`: the landmarks were no readable hand) neither starts nor ends a run, but it is no gap
either: on the sample game a resting fist came back refused for 11 frames in a row right after it
landed, which split its run and put the onset 13 frames late.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.thumb import THUMB_SURE

# Chosen by measurement (bench/vision_accuracy.py sweep on the rendered clips, README): with misses on
# an unchanged picture already held by the detector, any N >= 1 gives the same result, N = 4 keeps a
# margin for short occlusions; M = 8 (0.32 s) cut phantoms from 10 (M = 2) to 1 at the same 98 % recall,
# while a vote hand rests >= 1.5 s.
GAP_FRAMES = 4
MIN_RUN_FRAMES = 8
REST_SPEED = 0.1  # palm lengths per frame: slower than this, the hand is at rest (landmark jitter ~0.02)
REST_FRAMES = 3  # sightings after the onset that must stay put too ...
REST_RADIUS = 0.3  # ... within this many palm lengths of the onset's palm centre, or UNSEEN_SPEED palm lengths
REST_WINDOW = 2 * REST_FRAMES  # ... or REST_FRAMES of the next REST_WINDOW sightings come back to its place
UNSEEN_SPEED = 0.2  # per frame between the two sightings: landmarks re-found after a drop-out jump (on the sample
# game a resting fist's palm centre moved 9 px, 0.6 palm lengths, across 6 unreadable frames)
# Change gating and holding repeat a detector's answer on a still picture, so one or two detections of a
# hand-like prop can become a long run; a run needs its detector runs to have found it at least this often
# (observe() asks for it). Measured on the stress clips (sample_videos/clips/stress_*): a white prop read as a
# fist under blur 0.07-0.25, every real vote hand >= 0.33 (dark, small or cluttered hands included).
MIN_SUPPORT = 0.3
FISTS = ("fist", "thumb_up_fist")
SURE_RUN = 0.5  # share of a resting fist's picture readings that must be sure for the picture to decide its form
LANDMARK_THUMB = 0.8  # share of a resting fist's readings whose landmarks show the thumb out, for a thumb-up fist


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
    unread: bool = False  # not present, but the detector found something here it could not read as a hand
    looked: bool = True  # the seat's own detector ran on this frame (False: gated, its answer repeated)
    repeat: bool = False  # present, but found by no detector run on this frame (an earlier run's hand repeated:
    # gated or held)
    thumb: float | None = None  # the picture reader's thumb decision on a fist (vision.thumb) where it decides the
    # pose (vision.observe.settle_thumbs), None: not read, or the landmarks decide


def _still(a: Sighting, b: Sighting) -> bool:
    """Whether the hand hardly moved from sighting a to the later sighting b (unknown positions count as still)."""
    step = max(1, b.index - a.index)
    scale = max(a.palm, 1.0) if math.isfinite(a.palm) else math.nan
    moved = math.hypot(b.x - a.x, b.y - a.y) / step
    return not math.isfinite(moved) or not math.isfinite(scale) or moved <= REST_SPEED * scale


def _recurring(seen: Sequence[Sighting]) -> np.ndarray:
    """Per sighting: how many of the next REST_WINDOW sightings of the run lie within REST_RADIUS of where it lies, in palm lengths of the hand at rest (the median palm over the
    run, most of whose sightings rest). A hand swooping in passes each place once (and leaves along the way it
    came, so only sightings close in time count); a resting hand's place recurs even where MediaPipe flips
    between readings of it: on photos of real hands a still fist alternated between a 15 px and a 41 px palm,
    30 px apart, frame by frame, so that no three sightings in a row agreed."""
    xs = np.array([s.x for s in seen], float)
    ys = np.array([s.y for s in seen], float)
    palms = [s.palm for s in seen if math.isfinite(s.palm)]
    radius = REST_RADIUS * (float(np.median(palms)) if palms else math.nan)
    counts = np.zeros(len(seen), int)
    for k in range(1, min(REST_WINDOW, len(seen) - 1) + 1):  # each sighting k ahead: linear in the run's frames
        counts[:-k] += ~(np.hypot(xs[k:] - xs[:-k], ys[k:] - ys[:-k]) > radius)  # unknown counts as near
    return counts


def settled_from(seen: Sequence[Sighting]) -> int | None:
    """The first position in `seen` (present sightings of one run) from which the hand stays put, or to whose
    place REST_FRAMES later sightings come back (_recurring); None: never."""
    later = _recurring(seen)

    def settled(i: int) -> bool:
        a, ahead = seen[i], seen[i + 1:i + 1 + REST_FRAMES]
        # the hand's size is the smallest palm among the sightings compared: MediaPipe's landmarks spread on a
        # hand still in motion (from straight above a landing fist read 43 px, 28 px once down, which let the
        # onset fall 4 frames early)
        palms = [p for p in (a.palm, *(b.palm for b in ahead)) if math.isfinite(p)]
        palm = min(palms) if palms else math.inf
        return later[i] >= REST_FRAMES or len(ahead) == REST_FRAMES and all(
            not math.hypot(b.x - a.x, b.y - a.y) > palm * max(REST_RADIUS, UNSEEN_SPEED * (b.index - a.index - 1))
            for b in ahead)

    return next((i for i in range(len(seen) - 1) if settled(i)), None)


def resting_span(seen: Sequence[Sighting]) -> tuple[int, int]:
    """(first, last) positions in `seen` (present sightings of one run) where the hand is at rest."""
    first = settled_from(seen) or 0
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
    support: float = 1.0  # the share of the seat's own detector runs over the run that found the hand


def pose_share(sightings: Sequence[Sighting], pose: str) -> float:
    """How much of the weighted pose evidence backs `pose`: a steady reading is near 1, a flicker near 1/2.

    A fist whose thumb the picture decided unsure (|decision| < THUMB_SURE, vision.thumb) backs no pose: its
    sign names the pose, but it weighs only in the total, so a run of unsure thumb readings has a low share
    and is no evidence of a form (review.audit makes a plain-fist wrong_form only from a steady share)."""
    weights: Counter[str] = Counter()
    total = 0.0
    for s in sightings:
        weight = 0.2 + s.pose_margin
        total += weight
        if s.thumb is None or abs(s.thumb) >= THUMB_SURE:
            weights[s.pose] += weight
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
    min_support: float = 0.0,
) -> list[Run]:
    """Turn one seat's sightings (in frame order, one window) into hand runs.

    `end_frame`/`end_t`: the first frame after the window and its time, used as the offset of a hand
    still present when the window ends. `min_support`: see MIN_SUPPORT.
    """
    runs: list[Run] = []
    current: list[Sighting] = []
    last_present: Sighting | None = None  # the last sighting of the current run that was present (or unread)
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
        looks = [s for s in sightings if first.index <= s.index <= last.index and s.looked]
        support = sum(1 for s in looks if (s.present and not s.repeat) or s.unread) / len(looks) if looks else 1.0
        if span >= min_run_frames and support >= min_support:
            covered = len(resting) / max(1, len([s for s in sightings if first.index <= s.index <= last.index]))
            confidence = float(sum(s.score for s in resting) / len(resting)) * (0.5 + 0.5 * covered)
            pose = majority_pose(resting)
            runs.append(Run(first.index, off_frame, first.t, off_t, pose, round(confidence, 3),
                            round(pose_share(resting, pose), 3), round(support, 3)))

    for s in sightings:
        if s.unread and not s.present:
            if current and last_present is not None and s.index - last_present.index - 1 <= gap_frames:
                last_present = s  # bridges the gap; the offset stays the first frame without a readable hand
                absent_after = absent_after or s
            continue
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


def by_picture(s: Sighting) -> Sighting:
    """A sighting the picture reader read a thumb on, with the form that reading gives (its sign) and its size as
    the reading's margin; any other as it is."""
    if not s.present or s.thumb is None:
        return s
    return replace(s, pose="thumb_up_fist" if s.thumb > 0 else "fist", pose_margin=min(1.0, abs(s.thumb)))


def by_landmarks(s: Sighting) -> Sighting:
    """A sighting with the picture's thumb reading dropped: its landmarks' form decides, and the reading nothing."""
    return replace(s, thumb=None) if s.thumb is not None else s


def agreed_fist(run: Run, raw: Sequence[Sighting]) -> Run:
    """A resting fist's form from what the frames it rests on agree on, over the form each frame gave on its own.
    `raw`: the seat's sightings of the window as detected (each with its landmarks' pose and, on a fist, the
    picture reader's thumb decision). Where the reader is sure on at least SURE_RUN of the fist's readings, the
    sign of their mean decides, whether or not the reader knew the rest of the window's footage. Elsewhere,
    where the landmarks show the thumb out of the fist on at least LANDMARK_THUMB of its readings, it is a
    thumb-up fist: MediaPipe guesses the fingers of a fist it cannot see, which loses a thumb but does not
    make one stand out steadily (no hand of our renders or the real-photo clips read so was a plain fist)."""
    if run.pose not in FISTS:
        return run
    frames = [s for s in raw if s.present and run.on_frame <= s.index < run.off_frame]
    read = [s.thumb for s in frames if s.pose in FISTS and s.thumb is not None]
    if read and float(np.mean([abs(d) >= THUMB_SURE for d in read])) >= SURE_RUN:
        form = "thumb_up_fist" if float(np.mean(read)) > 0 else "fist"
        as_read = [by_picture(s) if s.pose in FISTS else s for s in frames]
        return replace(run, pose=form, pose_share=round(pose_share(as_read, form), 3))
    if frames and sum(s.pose == "thumb_up_fist" for s in frames) >= LANDMARK_THUMB * len(frames):
        landmarks = [by_landmarks(s) for s in frames]
        return replace(run, pose="thumb_up_fist", pose_share=round(pose_share(landmarks, "thumb_up_fist"), 3))
    return run
