"""Numbers shown with the fingers (a Don's or a Sheriff's check) and raised fingers bending (the shot).

Pure numpy on MediaPipe's 21 landmarks per hand (vision.pose measures each finger); no model here,
so every convention below is testable on synthetic landmark sets.

How a number is read — conventions (rfm 4.5.7–4.5.8 and mafclub 2.5.3–2.5.4 only say the Don and
the Sheriff "show the number with the fingers of the hands"; neither rulebook writes a convention for
6–10, so the reading follows what tables do and what the bundled sample game renders):
- one hand: the extended fingers, the thumb included — 1 to 5 (5 is the open hand), so index-first
  counting (the sample game's, palm turned to the judge) and thumb-first counting read alike;
- two hands: the two hands' counts summed. This reads the common "5 + n" form (one open hand and n
  fingers on the other: 6 = 5 + 1 … 9 = 5 + 4, 10 = two open hands) and also splits such as 3 + 3;
- not read: one-hand codes for 6–9 (thumb and little finger for 6, …) and a fist for 10 — a lone
  fist reads as no number, because a hand going up or coming down is a fist too.
Over a check, the reading is the number most frames agree on among the frames that show the most
hands seen steadily: the detector loses a hand far more often than it invents one, so a steady
two-hand reading beats a one-hand reading of the same moment.

A shot (rfm 4.5.3, mafclub 2.5.2): one or two fingers held up, then bent. The count that matters is
of the four fingers without the thumb (mafclub: "one or two fingers pointing up"); the shot is the
first frame where that count falls to 0 and stays there, after it was held up for a few frames.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.pose import EXTENDED_RATIO, classify, finger_ratios

ARM_FRAMES = 3  # fingers up for this many read frames before a bend counts as a shot
HOLD_FRAMES = 3  # read frames the fingers must stay bent: one misread frame is not a shot
MIN_NUMBER_FRAMES = 5  # read frames a number must be shown for (0.2 s at 25 fps)
TWO_HAND_SHARE = 0.25  # share of the read frames that must show two hands before two-hand readings win


@dataclass(frozen=True)
class FrameNumber:
    """The number one frame shows: the hands read and how clear the finger measures are (0–1)."""

    number: int
    hands: int
    margin: float


def raised_fingers(points: np.ndarray) -> tuple[int, float]:
    """Fingers held up on one hand, the thumb not counted, and how clear that is (0–1)."""
    ratios = finger_ratios(points)
    margin = float(min(1.0, np.min(np.abs(ratios - EXTENDED_RATIO)) / 0.25))
    return int((ratios > EXTENDED_RATIO).sum()), margin


def frame_number(hands: Sequence[np.ndarray]) -> FrameNumber | None:
    """The number the hands of one frame show (at most two hands are read; None: no finger shown)."""
    if not hands:
        return None
    poses = [classify(p) for p in list(hands)[:2]]
    number = sum(p.fingers for p in poses)
    if number == 0:
        return None
    return FrameNumber(number, len(poses), float(min(p.margin for p in poses)))


@dataclass(frozen=True)
class NumberReading:
    """A number read over a stretch of frames: shown from frame `index` at `t`."""

    number: int
    index: int
    t: float
    confidence: float
    frames: int  # read frames agreeing on the number


def read_number(readings: Sequence[tuple[int, float, FrameNumber | None]],
                min_frames: int = MIN_NUMBER_FRAMES) -> NumberReading | None:
    """The number a sequence of per-frame readings (index, t, reading) shows; None when none is steady."""
    read = [(i, t, r) for i, t, r in readings if r is not None]
    if len(read) < min_frames:
        return None
    two = [x for x in read if x[2].hands >= 2]
    pool = two if len(two) >= max(min_frames, TWO_HAND_SHARE * len(read)) else [x for x in read if x[2].hands == 1]
    if len(pool) < min_frames:
        return None
    votes: Counter[int] = Counter()
    for _, _, r in pool:
        votes[r.number] += 0.2 + r.margin
    number, weight = max(votes.items(), key=lambda kv: (kv[1], -kv[0]))
    agreeing = [x for x in pool if x[2].number == number]
    if len(agreeing) < min_frames:
        return None
    share = weight / sum(votes.values())
    steady = min(1.0, len(agreeing) / (3 * min_frames))
    index, t, _ = agreeing[0]
    return NumberReading(number, index, t, round(share * (0.6 + 0.4 * steady), 3), len(agreeing))


@dataclass(frozen=True)
class Shot:
    """One bend of the raised fingers: at frame `index`, time `t`, after `fingers` were held up."""

    index: int
    t: float
    fingers: int


def shots(counts: Sequence[tuple[int, float, int | None]], arm: int = ARM_FRAMES, hold: int = HOLD_FRAMES) -> list[Shot]:
    """The bends in one raised hand's per-frame finger counts (index, t, fingers up or None when unread).

    A shot needs the fingers up for `arm` read frames, then 0 for `hold` read frames; the shot's time
    is the first 0. After a shot the hand must hold fingers up again (`arm` frames) before another.
    """
    out: list[Shot] = []
    up_run = 0
    up_counts: list[int] = []
    armed_with = 0
    pending: list[tuple[int, float]] = []
    for index, t, n in counts:
        if n is None:
            continue
        if n > 0:
            pending = []
            up_run += 1
            up_counts.append(n)
            if up_run >= arm:
                armed_with = Counter(up_counts[-up_run:]).most_common(1)[0][0]
            continue
        up_run = 0
        if not armed_with:
            up_counts = []
            continue
        pending.append((index, t))
        if len(pending) >= hold:
            out.append(Shot(pending[0][0], pending[0][1], armed_with))
            armed_with, pending, up_counts = 0, [], []
    return out


def held_fingers(counts: Sequence[tuple[int, float, int | None]], before: float | None = None) -> int:
    """The fingers most frames hold up (before `before`, the first shot, where given); 0 if never up."""
    ups = [n for _, t, n in counts if n and (before is None or t < before)]
    return Counter(ups).most_common(1)[0][0] if ups else 0


STEP_WINDOW = 5  # frames averaged on each side of a candidate change (0.2 s at 25 fps)
STEP_SHIFT = 2  # pixels: a hand swaying or the camera shaking this much is not a change of the hand
STEP_MIN = 2.5  # a step must stand this many times above the typical before/after difference
STEP_BLUR = 1.0  # Gaussian sigma (patch pixels): a sub-pixel sway blurs away, a folded finger does not
STEP_TOLERANCE = 1  # patch pixels each pixel may move on its own (a hand trembling over a still body)


@dataclass(frozen=True)
class Step:
    """The largest lasting change in a still hand's picture: the first frame after it, and how clear it is."""

    at: int  # index into the sequence: the first frame that looks like the after-picture
    strength: float  # step size / the median step size away from it


def shifted_difference(a: np.ndarray, b: np.ndarray, shift: int = STEP_SHIFT, tolerance: int = STEP_TOLERANCE) -> float:
    """How different two pictures are: the mean absolute difference at the best alignment within ±shift
    pixels (the camera shakes), where each pixel may also match its neighbours within ±tolerance.

    The tolerance is for parts that move on their own: a resting hand trembles by a pixel over a still
    body, and aligning the whole picture cannot follow both. A finger that folds away still differs,
    because nothing like it is left near where it was; the match is taken both ways (what went, what came).
    """
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    h, w = a.shape
    m = shift
    core = a[m:h - m, m:w - m]
    dy, dx = min(((dy, dx) for dy in range(-m, m + 1) for dx in range(-m, m + 1)),
                 key=lambda d: float(np.abs(b[m + d[0]:h - m + d[0], m + d[1]:w - m + d[1]] - core).mean()))
    moved = b[m + dy:h - m + dy, m + dx:w - m + dx]
    if tolerance <= 0:
        return float(np.abs(moved - core).mean())
    return max(_tolerant(core, moved, tolerance), _tolerant(moved, core, tolerance))


def _tolerant(a: np.ndarray, b: np.ndarray, r: int) -> float:
    """Mean over a's pixels of the smallest difference to b's pixels within ±r (borders replicated)."""
    h, w = a.shape
    pb = cv2.copyMakeBorder(b, r, r, r, r, cv2.BORDER_REPLICATE)
    best = np.full(a.shape, np.inf, np.float32)
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            np.minimum(best, np.abs(a - pb[r + dy:r + dy + h, r + dx:r + dx + w]), out=best)
    return float(best.mean())


def largest_step(patches: np.ndarray, window: int = STEP_WINDOW) -> Step | None:
    """Where a sequence of small grey patches (N, h, w) of one still hand changes once and stays changed.

    Landmarks of a small raised hand seen from behind are too noisy to time a bend frame by frame,
    but the bend changes the hand's picture once and for good: the mean of the frames before and the
    mean of the frames after differ most at the bend. Differences are taken on slightly blurred
    pictures at the best alignment within a few pixels, so a sway of the arm or a shake of the camera
    does not count as a change.
    """
    p = np.asarray(patches, np.float32)
    n = len(p)
    if n < 2 * window + 2 or min(p.shape[1:]) <= 2 * STEP_SHIFT + 2:
        return None
    p = np.array([cv2.GaussianBlur(x, (0, 0), STEP_BLUR) for x in p])
    csum = np.concatenate([np.zeros((1, *p.shape[1:]), np.float64), np.cumsum(p, axis=0, dtype=np.float64)])
    sizes = []
    for k in range(window, n - window + 1):
        before = (csum[k] - csum[k - window]) / window
        after = (csum[k + window] - csum[k]) / window
        sizes.append(shifted_difference(before, after))
    best = int(np.argmax(sizes))
    elsewhere = sizes[: max(0, best - window)] + sizes[best + window + 1:]  # the step's own shoulders excluded
    typical = float(np.median(elsewhere if elsewhere else sizes)) + 0.25
    at = best + window
    before, after = (csum[at] - csum[at - window]) / window, (csum[at + window] - csum[at]) / window
    if shifted_difference(after, p[at - 1]) < shifted_difference(before, p[at - 1]):
        at -= 1  # the frame mid-bend already looks more like the bent hand: the shot is there
    return Step(at, sizes[best] / typical)
