"""Hands per seat on one night frame: each seat's crop run through its own tracking stream (vision.night's detector).

A tracker (vision.backend, MediaPipe's VIDEO mode) carries a hand between the frames of one stream, so every seat
has a stream of its own and streams are never mixed; `reset` starts them afresh. Each hand found goes to the seat
whose zone holds its palm centre (vision.hands). Two rules spare and steady the runs:
- change gating: a seat's stream is not run while its crop's thumbnail matches the one at its last run and its last
  runs agreed (at least every `refresh` frames it runs anyway), and their answer is repeated; a single run right
  after a change is never trusted on its own, so one miss cannot be frozen in;
- holding: a hand found in two runs in a row survives the tracker's misses while the crop shows the picture it was
  found in, for at most HOLD_FRAMES (the detector flickers on a still hand; a hand that leaves changes the picture).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from contract.seats import SeatMap
from vision.backend import HandBackend, HandTracker
from vision.crops import SeatCrop, crop_for_zone
from vision.hands import (
    HOLD_MAX_DIFF,
    HOLD_MEAN_DIFF,
    Detector,
    Hand,
    SeatHands,
    assign,
    best_hands,
    is_dark,
    same_picture,
    seat_views,
    unusable_seats,
)
from vision.schedule import SCHEDULE
from vision.video import Picture

DETECT_CONFIDENCE = 0.3  # MediaPipe's thresholds for raised hands (the day votes' are vision.options')
HOLD_FRAMES = 50  # how long a confirmed hand survives detector misses on an unchanged picture


@dataclass
class _Stream:
    seat: int
    crop: SeatCrop
    tracker: HandTracker | None  # the crop's own tracking stream
    reference: np.ndarray | None = None  # thumbnail at the last detector run
    last_run: int = -(10**9)
    agree: int = 0  # consecutive detector runs with the same answer (which seats have a hand)
    last_hands: list[Hand] = field(default_factory=list)  # the answer of the last run, held hands included
    last_raw_seats: list[int] = field(default_factory=list)  # seats the detector itself found last run
    confirmed: list[Hand] = field(default_factory=list)  # hands found in two runs in a row ...
    confirmed_thumb: np.ndarray | None = None  # ... in this picture
    confirmed_index: int = -(10**9)


class NightDetector(Detector):
    """Detects hands for every watchable seat of a seat map, frame after frame, by tracking streams."""

    def __init__(self, seat_map: SeatMap, model: str = "full", gating: bool = True,
                 min_confidence: float = DETECT_CONFIDENCE, backend: HandBackend | None = None) -> None:
        """`backend`: the hand detector (whoever made it closes it, and its own model and thresholds apply);
        None: MediaPipe on `model` at `min_confidence`, closed with this detector."""
        super().__init__(backend, model, min_confidence)
        self.seat_map = seat_map
        self.gating = gating
        blocked = unusable_seats(seat_map)
        self.streams = {n: _Stream(n, crop_for_zone(seat.zone, seat_map.frame_size), self.backend.tracker())
                        for n, seat in sorted(seat_map.seats.items()) if n not in blocked}

    def reset(self) -> None:
        """Fresh tracking streams and gating state for every seat."""
        self._close_trackers()
        self.streams = {n: _Stream(n, s.crop, self.backend.tracker()) for n, s in self.streams.items()}

    def _close_trackers(self) -> None:
        for stream in self.streams.values():
            if stream.tracker is not None:
                stream.tracker.close()
                stream.tracker = None

    def close(self) -> None:
        self._close_trackers()
        super().close()

    def process(self, index: int, t: float, frame: np.ndarray | Picture) -> SeatHands:
        """Detect on one upright frame at full resolution (the seat map must match its size)."""
        picture = frame if isinstance(frame, Picture) else Picture(index, t, image=frame)
        result = SeatHands({}, set(), 0, 0)
        found: list[Hand] = []
        for stream in self.streams.values():
            _, thumb = seat_views(stream.crop, picture)
            if is_dark(thumb):
                result.dark.add(stream.seat)
                stream.reference, stream.last_hands, stream.agree, stream.confirmed = None, [], 0, []
                continue
            if self.gating and self._unchanged(stream, thumb, picture.index):
                result.skipped += 1
                hands = stream.last_hands
            else:
                hands = self._run(stream, picture, thumb, result)
            found.extend(hands)
            result.own[stream.seat] = [h for h in hands if h.seat == stream.seat]
        result.hands = best_hands(found)
        return result

    @staticmethod
    def _unchanged(stream: _Stream, thumb: np.ndarray, index: int) -> bool:
        """Whether the stream may repeat its last answer: its last runs agreed, it ran less than `refresh` frames
        ago, and the crop's whole thumbnail matches the one at its last run."""
        if stream.reference is None or stream.agree < SCHEDULE.agree or index - stream.last_run >= SCHEDULE.refresh:
            return False
        return same_picture(thumb, stream.reference)

    def _run(self, stream: _Stream, picture: Picture, thumb: np.ndarray, result: SeatHands) -> list[Hand]:
        """The stream's run on this frame, held hands added, and its memory of the run."""
        raw = self.detect(stream, stream.crop.cut(picture.image), picture.t)
        result.ran += 1
        result.fresh.update(h.seat for h in raw)
        hands = self._hold(stream, raw, thumb, picture.index)
        same = sorted(h.seat for h in hands) == sorted(h.seat for h in stream.last_hands)
        stream.agree = stream.agree + 1 if same else 1
        stream.last_hands, stream.reference, stream.last_run = hands, thumb, picture.index
        return hands

    def detect(self, stream: _Stream, crop: np.ndarray, t: float) -> list[Hand]:
        """The hands one run of the stream's tracker finds on its crop (cut at time `t`), in frame pixels."""
        return assign(self.seat_map, stream.crop, stream.tracker.detect(crop, t), world_fingers=False)[0]

    @staticmethod
    def _hold(stream: _Stream, raw: list[Hand], thumb: np.ndarray, index: int) -> list[Hand]:
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
                and same_picture(thumb, stream.confirmed_thumb, HOLD_MAX_DIFF, HOLD_MEAN_DIFF)):
            return raw + [h for h in stream.confirmed if h.seat not in raw_seats]
        return raw
