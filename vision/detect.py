"""Hands per seat on one frame: crop each seat, run its own landmarker, map landmarks back, assign by position.

Each seat has its own HandLandmarker in VIDEO mode (MediaPipe tracks a hand between frames of
one stream, so streams must not be mixed) fed strictly increasing timestamps. A hand belongs to
the seat whose zone contains its palm centre in frame pixels; the handedness label is never used
(it differs between APIs for the same picture). Change gating skips a seat's detector while its
crop matches the picture at its last detector run and the last runs agreed, and repeats their answer:
a single run right after a change is never trusted on its own, so one miss cannot be frozen in.

For hands resting on the table (`resting=True`, what observe() asks for) more rules hold, the first two
measured on the sample game's late onsets (a resting fist first found 13-48 frames after it landed):
- a run whose detector returned a hand the plausibility check rejected is not an answer, so the next
  frame runs again instead of being gated (the detector is locking on: one frame later it tracks it);
- a hand newly found on a picture that has not changed since frame k was there since frame k: the
  result back-fills the frames that look like the current one (`FrameResult.backfill`; 'look like'
  as for holding a hand), so neither gating nor a detector that locks on late delays an onset;
- an open palm or a finger is believed only after a second, tracking-free look (vision.second_look);
- the longer a picture stays still, the rarer the re-checks (GATE_REFRESH_MAX).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.crops import SeatCrop, crop_for_zone, zone_visible_share
from vision.model import quiet_native_stderr
from vision.pose import Pose, classify, plausible_hand
from vision.seats import SeatMap
from vision.second_look import PoseCheck

PALM_POINTS = [0, 5, 9, 13, 17]
THUMB_SIZE = 32  # change-gating thumbnail side
GATE_MAX_DIFF = 14.0  # grey levels in a thumbnail cell: a hand entering changes some cell by far more
GATE_MEAN_DIFF = 2.0  # grey levels over the whole thumbnail: lighting drift, camera shake
GATE_REFRESH = 12  # run the detector at least this often (frames) even on a still picture ...
GATE_REFRESH_MAX = 48  # ... or, for resting hands, at most this rarely: on a picture still for s frames every
# max(12, s / 2) frames. What a late re-check finds is back-filled over the still stretch, so the back-off
# costs no onset; the short interval at first keeps a hand that rests only half a second from being missed.
HOLD_FRAMES = 50  # how long a confirmed hand survives detector misses on an unchanged picture
HOLD_MAX_DIFF, HOLD_MEAN_DIFF = 30.0, 3.0  # 'unchanged' for holding: a 1-px jitter of a resting hand moves
# a high-contrast cell by ~17 grey levels; a hand leaving changes its cells by ~100
GATE_AGREE = 2  # consecutive runs that must agree before a still picture may reuse their answer
LIT_GREY = 60.0  # mean grey of a seat's crop on a lit table (the sample game: 55-67)
DARK_MEAN, DARK_STD = 18.0, 6.0  # a crop this dark and flat shows nothing (lens covered, lights off)
MIN_VISIBLE = 0.5  # share of a zone that must lie inside the frame
DETECT_CONFIDENCE = 0.3  # MediaPipe's thresholds (observe() lowers them for hands resting on the table)


def _same_picture(a: np.ndarray, b: np.ndarray, max_diff: float = GATE_MAX_DIFF, mean_diff: float = GATE_MEAN_DIFF,
                  lit: bool = False) -> bool:
    """Whether two thumbnails show the same scene; `lit`: differences of a dim picture are scaled up to a
    lit one's first (a hand arriving on a dark table changes its cells by only ~17-25 grey levels)."""
    diff = np.abs(a - b)
    if lit:
        diff *= max(1.0, LIT_GREY / max(float(a.mean()), float(b.mean()), 1.0))
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
    rejected: list[int] = field(default_factory=list)  # seats whose zone held a hand the last run found but
    # the plausibility check refused
    anchor: np.ndarray | None = None  # thumbnail at the start of the current still stretch ...
    still: int = 0  # ... and how many frames since have matched it
    recent: deque = field(default_factory=lambda: deque(maxlen=HOLD_FRAMES))  # (index, thumbnail) of past frames


@dataclass
class FrameResult:
    hands: dict[int, Hand]  # seat -> the best hand whose palm centre lies in that seat's zone
    dark: set[int]  # seats whose crop showed nothing usable on this frame
    ran: int  # detector runs spent on this frame
    skipped: int  # detector runs saved by change gating
    backfill: dict[int, tuple[list[int], Hand]] = field(default_factory=dict)  # seat -> earlier frames
    # (indices) on which this newly found hand was already there (the picture has not changed since)
    unread: set[int] = field(default_factory=set)  # seats with a detection refused as no readable hand
    looked: set[int] = field(default_factory=set)  # seats whose own detector ran on this frame ...
    fresh: set[int] = field(default_factory=set)  # ... and seats whose hand a detector run found on it
    # (the rest of `hands` repeat an earlier run's answer: gated or held)


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
                 min_confidence: float = DETECT_CONFIDENCE, resting: bool = False) -> None:
        from vision.model import create_landmarker

        self.seat_map = seat_map
        self.gating = gating
        self.resting = resting
        self.seconds = {"crop": 0.0, "inference": 0.0}  # where the time goes (bench/vision_speed.py)
        self.model, self.min_confidence = model, min_confidence
        blocked = unusable_seats(seat_map)
        self.streams = {
            n: _SeatStream(n, crop_for_zone(seat.zone, seat_map.frame_size), create_landmarker(model, min_confidence=min_confidence))
            for n, seat in sorted(seat_map.seats.items())
            if n not in blocked
        }
        self.pose_check = PoseCheck(seat_map, list(self.streams), model, min_confidence) if resting else None

    def reset(self) -> None:
        """Forget every stream's tracking and gating state (fresh landmarkers): what a window shows then
        depends on that window alone, not on which windows were decoded before it or in which process."""
        from vision.model import create_landmarker

        with quiet_native_stderr():
            for stream in self.streams.values():
                if stream.landmarker is not None:
                    stream.landmarker.close()
        self.streams = {n: _SeatStream(n, s.crop, create_landmarker(self.model, min_confidence=self.min_confidence))
                        for n, s in self.streams.items()}
        if self.pose_check is not None:
            self.pose_check.last.clear()

    def close(self) -> None:
        with quiet_native_stderr():  # the runtime announces every accelerator it destroys
            for stream in self.streams.values():
                if stream.landmarker is not None:
                    stream.landmarker.close()
                    stream.landmarker = None
        if self.pose_check is not None:
            self.pose_check.close()

    def __enter__(self) -> SeatDetector:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def process(self, index: int, t: float, frame: np.ndarray) -> FrameResult:
        """Detect on one upright BGR frame at full resolution (the seat map must match its size)."""
        found: list[Hand] = []
        dark: set[int] = set()
        backfill: dict[int, tuple[list[int], Hand]] = {}
        unread: set[int] = set()
        looked: set[int] = set()
        fresh: set[int] = set()
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
                stream.anchor, stream.still = None, 0
                stream.recent.clear()
                continue
            if self.resting:
                if stream.anchor is None or not _same_picture(thumb, stream.anchor):
                    stream.anchor, stream.still = thumb, 0
                stream.still += 1
                stream.recent.append((index, thumb))
            if self.gating and self._unchanged(stream, thumb, index):
                skipped += 1
                found.extend(stream.last_hands)
                continue
            raw = self._detect(stream, crop, t)
            ran += 1
            looked.add(stream.seat)
            fresh.update(h.seat for h in raw)
            hands = self._hold(stream, raw, thumb, index)
            if self.resting:
                had = {h.seat for h in stream.last_hands}
                earlier = [hand for hand in hands if hand.seat not in had]
                if earlier:
                    same = self._looked_alike(stream, thumb, index)
                    backfill.update({hand.seat: (same, hand) for hand in earlier if same})
            same = sorted(h.seat for h in hands) == sorted(h.seat for h in stream.last_hands)
            stream.agree = stream.agree + 1 if same else 1
            stream.last_hands = hands
            stream.reference, stream.last_run_index = thumb, index
            found.extend(hands)
            unread.update(stream.rejected)
        best: dict[int, Hand] = {}
        for hand in found:
            if hand.seat not in best or hand.score > best[hand.seat].score:
                best[hand.seat] = hand
        if self.pose_check is not None:
            best = {n: self.pose_check.confirm(hand, frame, index) for n, hand in best.items()}
        return FrameResult(best, dark, ran, skipped, backfill, unread - set(best), looked, fresh)

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
    def _looked_alike(stream: _SeatStream, thumb: np.ndarray, index: int) -> list[int]:
        """The frames just before `index`, going back without a break, whose picture matched this one."""
        same: list[int] = []
        for i, old in reversed(stream.recent):
            if i == index:
                continue
            if i != index - 1 - len(same) or not _same_picture(thumb, old, HOLD_MAX_DIFF, HOLD_MEAN_DIFF, lit=True):
                break
            same.append(i)
        return same

    def _unchanged(self, stream: _SeatStream, thumb: np.ndarray, index: int) -> bool:
        refresh = min(GATE_REFRESH_MAX, max(GATE_REFRESH, stream.still // 2)) if self.resting else GATE_REFRESH
        if stream.reference is None or stream.agree < GATE_AGREE or index - stream.last_run_index >= refresh:
            return False
        if self.resting and stream.rejected:
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
        stream.rejected = []
        for i, marks in enumerate(result.hand_landmarks):
            norm = np.array([[m.x, m.y, m.z] for m in marks], float)
            world = None
            if result.hand_world_landmarks and i < len(result.hand_world_landmarks):
                world = np.array([[m.x, m.y, m.z] for m in result.hand_world_landmarks[i]], float)
            points = stream.crop.normalized_to_frame(norm)
            cx, cy = points[PALM_POINTS, :2].mean(axis=0)
            seat = self.seat_map.seat_at(float(cx), float(cy))
            if seat is None:
                continue  # a hand outside every zone: an idle hand, not a vote
            if not plausible_hand(norm[:, :2] * stream.crop.size, world):
                stream.rejected.append(seat)
                continue
            score = float(result.handedness[i][0].score) if result.handedness and result.handedness[i] else 0.5
            hands.append(Hand(seat, points, score, classify(points)))
        return hands
