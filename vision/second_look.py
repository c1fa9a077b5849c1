"""A second, tracking-free look at a hand read as open (an open palm or a finger) before that reading is believed.

MediaPipe's landmark model in VIDEO mode carries its last landmarks forward as the next frame's
region of interest; on a compact fist it sometimes settles on a wrong, open-handed set of landmarks
and keeps it frame after frame, so a thumb-up fist reads as a steady open palm. Measured on the
sample game (bench/vision_accuracy.py): a fresh IMAGE-mode look at a tighter crop of the seat's own
zone (10 % margin instead of 25 %) read 11 of 11 open-palm frames as open palms and 1 of 75 thumb-up
fists misread as open palms as open. So an open reading stands only where the second look agrees;
otherwise the pose becomes what the second look saw ("other" where it saw no hand).

A fist's thumb is read off the picture instead (vision.thumb): its landmarks are MediaPipe's guess
at fingers it cannot see, and on the sample game they lost the thumbs of the two seats nearest the
camera in every frame. This look only records the reader's decision on the hand (`Hand.thumb`);
whether the picture or the landmarks decide is settled per window (vision.observe.settle_thumbs),
because the reader knows the footage it was trained on, renders, and nothing else.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from contract.seats import SeatMap
from vision.backend import HandBackend, MediaPipeBackend
from vision.crops import SeatCrop, crop_for_zone
from vision.pose import Pose, classify, plausible_hand
from vision.thumb import shared_reader
from vision.video import Picture

OPEN_POSES = frozenset({"open_palm", "finger"})  # readings a tracked fist can fake
FIST_POSES = frozenset({"fist", "thumb_up_fist"})  # readings whose thumb the picture decides
CHECK_MARGIN = 0.1  # of the zone's larger side: more pixels per hand than the detector's 25 % crop
CHECK_EVERY = 4  # frames: a resting hand's pose does not change faster; one look serves the next frames
PALM_POINTS = [0, 5, 9, 13, 17]


@dataclass
class _Checked:
    index: int
    pose: Pose
    thumb: float | None = None


class PoseCheck:
    """Second looks for one seat map's seats (one-off looks of one back end, no tracking state)."""

    def __init__(self, seat_map: SeatMap, seats: list[int], model: str = "full", min_confidence: float = 0.3,
                 backend: HandBackend | None = None, world_fingers: bool = True) -> None:
        """`backend`: the detector to look with (whoever made it closes it); None: MediaPipe on `model` at
        `min_confidence`, closed with this check. `world_fingers`: poses read with the 3-D landmarks too
        (vision.pose.classify)."""
        self.seat_map = seat_map
        self.world_fingers = world_fingers
        self.crops: dict[int, SeatCrop] = {
            n: crop_for_zone(seat_map.seats[n].zone, seat_map.frame_size, margin=CHECK_MARGIN) for n in seats
        }
        self.backend: HandBackend = backend if backend is not None else MediaPipeBackend(model, min_confidence)
        self._owns_backend = backend is None
        self.last: dict[int, _Checked] = {}
        self.thumbs = shared_reader()
        self.looks = 0
        self.seconds = 0.0

    def close(self) -> None:
        if self._owns_backend:
            self.backend.close()

    def confirm(self, hand: Any, frame: np.ndarray | Picture, index: int, open_check: bool = True,
                thumbs: bool = True, since: int | None = None) -> Any:
        """`hand` (a vision.hands.Hand) after a fresh look: an open reading confirmed or replaced by a
        tracking-free landmarker (`open_check`); a fist given the picture reader's thumb decision (`thumbs`).
        `frame`: BGR, or a Picture (the thumb is read off its grey, which needs no BGR conversion). `since`: the
        frame from which the seat's picture has not changed; a check made then or later still holds."""
        wanted = (OPEN_POSES if open_check else frozenset()) | (FIST_POSES if thumbs else frozenset())
        if hand.seat not in self.crops or hand.pose.pose not in wanted:
            return hand
        fist = hand.pose.pose in FIST_POSES
        last = self.last.get(hand.seat)
        fresh = last is not None and (0 <= index - last.index < CHECK_EVERY
                                      or (since is not None and since <= last.index <= index))
        if not fresh or (last.thumb is not None) != fist:
            last = _Checked(index, hand.pose, self._thumb(hand, frame)) if fist else _Checked(index, self._look(hand, frame))
            self.last[hand.seat] = last
        return replace(hand, thumb=last.thumb) if fist else replace(hand, pose=last.pose)

    def _thumb(self, hand: Any, frame: np.ndarray | Picture) -> float:
        t0 = time.perf_counter()
        if isinstance(frame, Picture):  # the patch cut from the luma plane, then mapped to full range
            decision = self.thumbs.decision(frame.luma, hand.landmarks, frame.full_range)
        else:
            decision = self.thumbs.decision(frame, hand.landmarks)
        self.seconds += time.perf_counter() - t0
        return decision

    def _look(self, hand: Any, frame: np.ndarray | Picture) -> Pose:
        x, y = hand.palm_centre
        found = self.hands_at(hand.seat, frame.image if isinstance(frame, Picture) else frame, self.crops[hand.seat])
        if not found:
            return Pose("other", hand.pose.fingers, 0.0)
        nearest = min(found, key=lambda h: float(np.hypot(*(h[0][PALM_POINTS, :2].mean(axis=0) - (x, y)))))
        points, world = nearest
        return classify(points, world if self.world_fingers else None)

    def hands_at(self, seat: int, frame: np.ndarray, crop: SeatCrop) -> list[tuple[np.ndarray, np.ndarray | None]]:
        """Landmarks (frame pixels) and metric 3-D landmarks of every readable hand whose palm centre lies in
        `seat`'s zone, from one fresh look (no tracking) at `crop` of the frame."""
        t0 = time.perf_counter()
        detected = self.backend.look(crop.cut(frame))
        self.looks += 1
        self.seconds += time.perf_counter() - t0
        found = []
        for hand in detected:
            if not plausible_hand(hand.landmarks[:, :2], hand.world):
                continue
            points = crop.to_frame(hand.landmarks)
            cx, cy = points[PALM_POINTS, :2].mean(axis=0)
            if self.seat_map.seat_at(float(cx), float(cy)) == seat:
                found.append((points, hand.world))
        return found
