"""A second, tracking-free look at a hand read as open (an open palm or a finger) before that reading is believed.

MediaPipe's landmark model in VIDEO mode carries its last landmarks forward as the next frame's
region of interest; on a compact fist it sometimes settles on a wrong, open-handed set of landmarks
and keeps it frame after frame, so a thumb-up fist reads as a steady open palm. Measured on the
sample game (bench/vision_accuracy.py): a fresh IMAGE-mode look at a tighter crop of the seat's own
zone (10 % margin instead of 25 %) read 11 of 11 open-palm frames as open palms and 1 of 75 thumb-up
fists misread as open palms as open. So an open reading stands only where the second look agrees;
otherwise the pose becomes what the second look saw ("other" where it saw no hand).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from vision.crops import SeatCrop, crop_for_zone
from vision.model import quiet_native_stderr
from vision.pose import Pose, classify, plausible_hand
from vision.seats import SeatMap

OPEN_POSES = frozenset({"open_palm", "finger"})  # readings a tracked fist can fake
CHECK_MARGIN = 0.1  # of the zone's larger side: more pixels per hand than the detector's 25 % crop
CHECK_EVERY = 4  # frames: a resting hand's pose does not change faster; one look serves the next frames
PALM_POINTS = [0, 5, 9, 13, 17]


@dataclass
class _Checked:
    index: int
    pose: Pose


class PoseCheck:
    """Second looks for one seat map's seats (one stateless IMAGE-mode landmarker for all of them)."""

    def __init__(self, seat_map: SeatMap, seats: list[int], model: str, min_confidence: float) -> None:
        from vision.model import create_landmarker

        self.seat_map = seat_map
        self.crops: dict[int, SeatCrop] = {
            n: crop_for_zone(seat_map.seats[n].zone, seat_map.frame_size, margin=CHECK_MARGIN) for n in seats
        }
        self.landmarker: Any = create_landmarker(model, min_confidence=min_confidence, mode="image")
        self.last: dict[int, _Checked] = {}
        self.looks = 0
        self.seconds = 0.0

    def close(self) -> None:
        if self.landmarker is not None:
            with quiet_native_stderr():
                self.landmarker.close()
            self.landmarker = None

    def confirm(self, hand: Any, frame: np.ndarray, index: int) -> Any:
        """`hand` (a vision.detect.Hand) with its pose confirmed or replaced by a fresh look."""
        if hand.pose.pose not in OPEN_POSES or hand.seat not in self.crops:
            return hand
        last = self.last.get(hand.seat)
        if last is None or not 0 <= index - last.index < CHECK_EVERY:
            last = _Checked(index, self._look(hand, frame))
            self.last[hand.seat] = last
        return replace(hand, pose=last.pose)

    def _look(self, hand: Any, frame: np.ndarray) -> Pose:
        import mediapipe as mp

        t0 = time.perf_counter()
        crop = self.crops[hand.seat]
        image = mp.Image(image_format=mp.ImageFormat.SRGB, data=cv2.cvtColor(crop.cut(frame), cv2.COLOR_BGR2RGB))
        result = self.landmarker.detect(image)
        self.looks += 1
        self.seconds += time.perf_counter() - t0
        best: tuple[float, Pose] | None = None
        x, y = hand.palm_centre
        for i, marks in enumerate(result.hand_landmarks):
            norm = np.array([[m.x, m.y, m.z] for m in marks], float)
            world = None
            if result.hand_world_landmarks and i < len(result.hand_world_landmarks):
                world = np.array([[m.x, m.y, m.z] for m in result.hand_world_landmarks[i]], float)
            if not plausible_hand(norm[:, :2] * crop.size, world):
                continue
            points = crop.normalized_to_frame(norm)
            cx, cy = points[PALM_POINTS, :2].mean(axis=0)
            if self.seat_map.seat_at(float(cx), float(cy)) != hand.seat:
                continue
            distance = float(np.hypot(cx - x, cy - y))
            if best is None or distance < best[0]:
                best = (distance, classify(points))
        return best[1] if best is not None else Pose("other", hand.pose.fingers, 0.0)
