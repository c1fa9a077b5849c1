"""Hands per seat on one frame: crop each seat, run its own landmarker, map landmarks back, assign by position.

Each seat has its own HandLandmarker in VIDEO mode (MediaPipe tracks a hand between frames of
one stream, so streams must not be mixed) fed strictly increasing timestamps. A hand belongs to
the seat whose zone contains its palm centre in frame pixels; the handedness label is never used
(it differs between APIs for the same picture). Change gating skips a seat's detector while its
crop matches the picture at its last detector run and the last runs agreed, and repeats their answer:
a single run right after a change is never trusted on its own, so one miss cannot be frozen in.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.crops import SeatCrop, crop_for_zone, zone_visible_share
from vision.model import quiet_native_stderr
from vision.pose import Pose, classify, plausible_hand
from vision.seats import SeatMap

PALM_POINTS = [0, 5, 9, 13, 17]
THUMB_SIZE = 32  # change-gating thumbnail side
GATE_MAX_DIFF = 14.0  # grey levels in a thumbnail cell: a hand entering changes some cell by far more
GATE_MEAN_DIFF = 2.0  # grey levels over the whole thumbnail: lighting drift, camera shake
GATE_REFRESH = 12  # run the detector at least this often (frames) even on a still picture
HOLD_FRAMES = 50  # how long a confirmed hand survives detector misses on an unchanged picture
HOLD_MAX_DIFF, HOLD_MEAN_DIFF = 30.0, 3.0  # 'unchanged' for holding: a 1-px jitter of a resting hand moves
# a high-contrast cell by ~17 grey levels; a hand leaving changes its cells by ~100
GATE_AGREE = 2  # consecutive runs that must agree before a still picture may reuse their answer
DARK_MEAN, DARK_STD = 18.0, 6.0  # a crop this dark and flat shows nothing (lens covered, lights off)
MIN_VISIBLE = 0.5  # share of a zone that must lie inside the frame
DETECT_CONFIDENCE = 0.3  # MediaPipe's thresholds (observe() lowers them for hands resting on the table)


def _same_picture(a: np.ndarray, b: np.ndarray, max_diff: float = GATE_MAX_DIFF, mean_diff: float = GATE_MEAN_DIFF) -> bool:
    diff = np.abs(a - b)
    return float(diff.max()) <= max_diff and float(diff.mean()) <= mean_diff


@dataclass(frozen=True)
class Hand:
    seat: int
    landmarks: np.ndarray  # (21, 3) frame pixels (z scaled like x)
    score: float
    pose: Pose

    @property
    def palm_centre(self) -> tuple[float, float]:
        x, y = self.landmarks[PALM_POINTS, :2].mean(axis=0)
        return float(x), float(y)

    @property
    def palm_length(self) -> float:
        """Wrist to middle knuckle in frame pixels: the hand's scale for 'is it still moving?'."""
        return float(np.linalg.norm(self.landmarks[9, :2] - self.landmarks[0, :2]))


@dataclass
class _SeatStream:
    seat: int
    crop: SeatCrop
    landmarker: Any = None
    last_ts: int = -1
    reference: np.ndarray | None = None  # thumbnail at the last detector run
    last_run_index: int = -(10**9)
    last_hands: list[Hand] = field(default_factory=list)
    warmed: bool = False
    last_raw_seats: list[int] = field(default_factory=list)  # seats the detector itself found last run
    confirmed: list[Hand] = field(default_factory=list)  # hands found in two runs in a row ...
    confirmed_thumb: np.ndarray | None = None  # ... in this picture
    confirmed_index: int = -(10**9)
    agree: int = 0  # consecutive detector runs with the same answer (which seats have a hand)


@dataclass
class FrameResult:
    hands: dict[int, Hand]  # seat -> the best hand whose palm centre lies in that seat's zone
    dark: set[int]  # seats whose crop showed nothing usable on this frame
    ran: int  # detector runs spent on this frame
    skipped: int  # detector runs saved by change gating


def unusable_seats(seat_map: SeatMap) -> dict[int, str]:
    """Seats that cannot be watched at all, with why: no zone, or the zone lies outside the picture."""
    why = {n: "no zone in the seat map" for n in range(1, 11) if n not in seat_map.seats}
    for n, seat in seat_map.seats.items():
        if zone_visible_share(seat.zone, seat_map.frame_size) < MIN_VISIBLE:
            why[n] = "the seat's zone lies outside the picture"
    return why


class SeatDetector:
    """Detects hands for every watchable seat of a seat map, frame after frame."""

    def __init__(self, seat_map: SeatMap, model: str = "full", gating: bool = True,
                 min_confidence: float = DETECT_CONFIDENCE) -> None:
        from vision.model import create_landmarker

        self.seat_map = seat_map
        self.gating = gating
        self.seconds = {"crop": 0.0, "inference": 0.0}  # where the time goes (bench/vision_speed.py)
        blocked = unusable_seats(seat_map)
        self.streams = {
            n: _SeatStream(n, crop_for_zone(seat.zone, seat_map.frame_size), create_landmarker(model, min_confidence=min_confidence))
            for n, seat in sorted(seat_map.seats.items())
            if n not in blocked
        }

    def close(self) -> None:
        with quiet_native_stderr():  # the runtime announces every accelerator it destroys
            for stream in self.streams.values():
                if stream.landmarker is not None:
                    stream.landmarker.close()
                    stream.landmarker = None

    def __enter__(self) -> SeatDetector:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def process(self, index: int, t: float, frame: np.ndarray) -> FrameResult:
        """Detect on one upright BGR frame at full resolution (the seat map must match its size)."""
        found: list[Hand] = []
        dark: set[int] = set()
        ran = skipped = 0
        for stream in self.streams.values():
            t0 = time.perf_counter()
            crop = stream.crop.cut(frame)
            grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
            thumb = cv2.resize(grey, (THUMB_SIZE, THUMB_SIZE), interpolation=cv2.INTER_AREA).astype(np.float32)
            self.seconds["crop"] += time.perf_counter() - t0
            if float(thumb.mean()) < DARK_MEAN and float(thumb.std()) < DARK_STD:
                dark.add(stream.seat)
                stream.reference, stream.last_hands, stream.agree, stream.confirmed = None, [], 0, []
                continue
            if self.gating and self._unchanged(stream, thumb, index):
                skipped += 1
                found.extend(stream.last_hands)
                continue
            raw = self._detect(stream, crop, t)
            ran += 1
            hands = self._hold(stream, raw, thumb, index)
            same = sorted(h.seat for h in hands) == sorted(h.seat for h in stream.last_hands)
            stream.agree = stream.agree + 1 if same else 1
            stream.last_hands = hands
            stream.reference, stream.last_run_index = thumb, index
            found.extend(hands)
        best: dict[int, Hand] = {}
        for hand in found:
            if hand.seat not in best or hand.score > best[hand.seat].score:
                best[hand.seat] = hand
        return FrameResult(best, dark, ran, skipped)

    def _detect(self, stream: _SeatStream, crop: np.ndarray, t: float) -> list[Hand]:
        import mediapipe as mp

        t0 = time.perf_counter()
        ts = max(stream.last_ts + 1, int(round(t * 1000)))  # VIDEO mode: strictly increasing
        stream.last_ts = ts
        image = mp.Image(image_format=mp.ImageFormat.SRGB, data=cv2.cvtColor(crop, cv2.COLOR_BGR2RGB))
        if stream.warmed:
            result = stream.landmarker.detect_for_video(image, ts)
        else:
            with quiet_native_stderr():  # the first call prints two harmless native warnings
                result = stream.landmarker.detect_for_video(image, ts)
            stream.warmed = True
        self.seconds["inference"] += time.perf_counter() - t0
        return self._hands(stream, result)

    @staticmethod
    def _unchanged(stream: _SeatStream, thumb: np.ndarray, index: int) -> bool:
        if stream.reference is None or stream.agree < GATE_AGREE or index - stream.last_run_index >= GATE_REFRESH:
            return False
        return _same_picture(thumb, stream.reference)

    @staticmethod
    def _hold(stream: _SeatStream, raw: list[Hand], thumb: np.ndarray, index: int) -> list[Hand]:
        """A miss on an unchanged picture is not believed (the detector flickers on a still hand).

        Hands the detector found in two runs in a row are 'confirmed' with the picture they were
        found in; while the crop still matches that picture, for at most HOLD_FRAMES, a run that
        misses them keeps them. A hand that leaves changes the picture, so its offset is unaffected.
        """
        raw_seats = sorted(h.seat for h in raw)
        if raw and raw_seats == stream.last_raw_seats:
            stream.confirmed, stream.confirmed_thumb, stream.confirmed_index = raw, thumb, index
        stream.last_raw_seats = raw_seats
        if (stream.confirmed and stream.confirmed_thumb is not None and index - stream.confirmed_index <= HOLD_FRAMES
                and _same_picture(thumb, stream.confirmed_thumb, HOLD_MAX_DIFF, HOLD_MEAN_DIFF)):
            return raw + [h for h in stream.confirmed if h.seat not in raw_seats]
        return raw

    def _hands(self, stream: _SeatStream, result: Any) -> list[Hand]:
        hands: list[Hand] = []
        for i, marks in enumerate(result.hand_landmarks):
            norm = np.array([[m.x, m.y, m.z] for m in marks], float)
            world = None
            if result.hand_world_landmarks and i < len(result.hand_world_landmarks):
                world = np.array([[m.x, m.y, m.z] for m in result.hand_world_landmarks[i]], float)
            if not plausible_hand(norm[:, :2] * stream.crop.size, world):
                continue
            points = stream.crop.normalized_to_frame(norm)
            score = float(result.handedness[i][0].score) if result.handedness and result.handedness[i] else 0.5
            cx, cy = points[PALM_POINTS, :2].mean(axis=0)
            seat = self.seat_map.seat_at(float(cx), float(cy))
            if seat is None:
                continue  # a hand outside every zone: an idle hand, not a vote
            hands.append(Hand(seat, points, score, classify(points)))
        return hands
