"""What the day and the night detectors share: a hand and the seat it belongs to, and a seat's small pictures.

A detector run looks at one seat's crop (vision.crops) and answers hands in the crop's pixels; `assign` maps their
landmarks back to frame pixels and gives each to the seat whose zone contains its palm centre (the handedness label
is never used: it differs between APIs for the same picture). `seat_views` cuts the small grey pictures a detector
compares from frame to frame (`same_picture`) to decide whether a seat's picture changed, and `is_dark` whether
it shows anything at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Self

import cv2
import numpy as np

from contract.i18n import N_
from contract.seats import SeatMap
from vision.backend import DetectedHand, HandBackend, MediaPipeBackend
from vision.crops import SeatCrop, zone_visible_share
from vision.pose import Pose, classify, plausible_hand
from vision.video import Picture

PALM_POINTS = [0, 5, 9, 13, 17]
ZONE_SIDE = 64  # side of the grey picture of a seat's crop the zone model compares (4 x 4 crop pixels a cell)
THUMB_SIZE = 32  # change-gating thumbnail side
GATE_MAX_DIFF = 14.0  # grey levels in a thumbnail cell: a hand entering changes some cell by far more
GATE_MEAN_DIFF = 2.0  # grey levels over the whole thumbnail: lighting drift, camera shake
HOLD_MAX_DIFF, HOLD_MEAN_DIFF = 30.0, 3.0  # 'unchanged' for a resting hand: a 1-px jitter of a resting hand moves
# a high-contrast cell by ~17 grey levels; a hand leaving changes its cells by ~100
LIT_GREY = 60.0  # mean grey of a seat's crop on a lit table (the sample game: 55-67)
DARK_MEAN, DARK_STD = 18.0, 6.0  # a crop this dark and flat shows nothing (lens covered, lights off)
MIN_VISIBLE = 0.5  # share of a zone that must lie inside the frame


@dataclass(frozen=True)
class Hand:
    seat: int
    landmarks: np.ndarray  # (21, 3) frame pixels (z scaled like x)
    score: float
    pose: Pose
    thumb: float | None = None  # the picture's thumb reading of a fist (vision.thumb decision), None: not read

    @property
    def palm_centre(self) -> tuple[float, float]:
        x, y = self.landmarks[PALM_POINTS, :2].mean(axis=0)
        return float(x), float(y)

    @property
    def palm_length(self) -> float:
        """Wrist to middle knuckle in frame pixels: the hand's scale for 'is it still moving?'."""
        return float(np.linalg.norm(self.landmarks[9, :2] - self.landmarks[0, :2]))


Refused = tuple[int, tuple[float, float]]  # (seat, palm centre) of a reading found in a zone but no readable hand


@dataclass
class SeatHands:
    """What a detector gives for one frame."""

    hands: dict[int, Hand]  # seat -> the best hand whose palm centre lies in that seat's zone
    dark: set[int]  # seats whose crop showed nothing usable on this frame
    ran: int  # detector runs spent on this frame
    skipped: int  # detector runs saved by change gating
    fresh: set[int] = field(default_factory=set)  # seats whose hand a detector run found on this frame (the rest of
    # `hands` repeat an earlier run's answer: gated or held)
    own: dict[int, list[Hand]] = field(default_factory=dict)  # seat -> every hand its own crop shows in its zone
    # (fresh or repeated; dark seats left out): nights keep them all (a check shows 6-10 with two hands)


class Detector:
    """A detector's hand back end, and closing it: the one given (whoever made it closes it, and its own model and
    thresholds apply), or MediaPipe on `model` at `min_confidence`, closed with the detector."""

    def __init__(self, backend: HandBackend | None, model: str, min_confidence: float) -> None:
        self.backend: HandBackend = backend if backend is not None else MediaPipeBackend(model, min_confidence)
        self._owns_backend = backend is None

    def close(self) -> None:
        if self._owns_backend:
            self.backend.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_hand(seat: int, points: np.ndarray, score: float, world: np.ndarray | None) -> Hand:
    """A hand of `seat` (landmarks in frame pixels) with its pose read (vision.pose; `world`: the metric 3-D
    landmarks a finger must be extended in too, None: the picture's alone)."""
    return Hand(seat, points, score, classify(points, world))


def assign(seat_map: SeatMap, crop: SeatCrop, detected: Iterable[DetectedHand],
           world_fingers: bool) -> tuple[list[Hand], list[Refused]]:
    """The detected hands (crop pixels) that lie in a seat's zone and read as hands, in frame pixels, and the
    seats and palm centres of those refused as unreadable; `world_fingers`: fingers must be extended in the 3-D
    landmarks too."""
    hands: list[Hand] = []
    refused: list[Refused] = []
    for found in detected:
        points = crop.to_frame(found.landmarks)
        cx, cy = points[PALM_POINTS, :2].mean(axis=0)
        seat = seat_map.seat_at(float(cx), float(cy))
        if seat is None:
            continue  # a hand outside every zone: an idle hand, not a vote
        if not plausible_hand(found.landmarks[:, :2], found.world):
            refused.append((seat, (float(cx), float(cy))))
            continue
        hands.append(read_hand(seat, points, found.score, found.world if world_fingers else None))
    return hands, refused


def best_hands(found: Iterable[Hand]) -> dict[int, Hand]:
    """Each seat's best-scored hand (the first of equal scores): where two crops see one hand, the best wins."""
    best: dict[int, Hand] = {}
    for hand in found:
        if hand.seat not in best or hand.score > best[hand.seat].score:
            best[hand.seat] = hand
    return best


def unusable_seats(seat_map: SeatMap) -> dict[int, str]:
    """Seats that cannot be watched at all, with why: no zone, or the zone lies outside the picture. The reasons
    stay English (catalogue msgids): the observations file keeps them, and whoever shows one shows `_(why)`."""
    why = {n: N_("no zone in the seat map") for n in range(1, 11) if n not in seat_map.seats}
    for n, seat in seat_map.seats.items():
        if zone_visible_share(seat.zone, seat_map.frame_size) < MIN_VISIBLE:
            why[n] = N_("the seat's zone lies outside the picture")
    return why


def grey_square(crop: SeatCrop, grey: np.ndarray, side: int) -> np.ndarray:
    """A seat crop's square of a grey frame as a side x side picture (area-averaged where it shrinks, black where
    the square leaves the frame): the picture gating and the zone model compare, made without a BGR crop."""
    h, w = grey.shape[:2]
    x1, y1 = crop.x0 + crop.side, crop.y0 + crop.side
    sx0, sy0, sx1, sy1 = max(crop.x0, 0), max(crop.y0, 0), min(x1, w), min(y1, h)
    if (sx0, sy0, sx1, sy1) == (crop.x0, crop.y0, x1, y1):
        square = grey[sy0:sy1, sx0:sx1]
    else:
        square = np.zeros((crop.side, crop.side), grey.dtype)
        if sx1 > sx0 and sy1 > sy0:
            square[sy0 - crop.y0:sy1 - crop.y0, sx0 - crop.x0:sx1 - crop.x0] = grey[sy0:sy1, sx0:sx1]
    if crop.side < side:
        return cv2.resize(square, (side, side), interpolation=cv2.INTER_LINEAR)
    k = crop.side // side
    if k >= 2:  # whole k x k blocks averaged first: OpenCV's area shrink by a whole factor costs a fraction of a
        # fractional one's, and the fractional rest is then small (gating's thumbnails are cut on every frame and
        # seat); the last side % k rows and columns (under 2 % of the square) are left out
        n = crop.side // k
        square = cv2.resize(square[:n * k, :n * k], (n, n), interpolation=cv2.INTER_AREA)
    return cv2.resize(square, (side, side), interpolation=cv2.INTER_AREA)


def seat_views(crop: SeatCrop, picture: Picture) -> tuple[np.ndarray, np.ndarray]:
    """A seat's crop of a frame as a ZONE_SIDE grey picture (full range) and its THUMB_SIZE thumbnail (float)."""
    small = picture.full_range(grey_square(crop, picture.luma, ZONE_SIDE))
    thumb = cv2.resize(small, (THUMB_SIZE, THUMB_SIZE), interpolation=cv2.INTER_AREA).astype(np.float32)
    return small, thumb


def is_dark(thumb: np.ndarray) -> bool:
    """Whether a seat's thumbnail is too dark and flat to show anything (lens covered, lights off)."""
    return float(thumb.mean()) < DARK_MEAN and float(thumb.std()) < DARK_STD


def same_picture(a: np.ndarray, b: np.ndarray, max_diff: float = GATE_MAX_DIFF, mean_diff: float = GATE_MEAN_DIFF,
                 lit: bool = False) -> bool:
    """Whether two thumbnails show the same scene; `lit`: differences of a dim picture are scaled up to a
    lit one's first (a hand arriving on a dark table changes its cells by only ~17-25 grey levels)."""
    diff = np.abs(a - b)
    if lit:
        diff *= max(1.0, LIT_GREY / max(fast_mean(a), fast_mean(b), 1.0))
    return float(diff.max()) <= max_diff and fast_mean(diff) <= mean_diff


def fast_mean(values: np.ndarray) -> float:
    """The mean of a small array as numpy's mean gives it (the sum in the array's own type, over the count), without
    its per-call overhead: the gating comparisons take ~30 means per seat and frame."""
    return float(values.sum() / values.size)
