"""With tracking streams (vision.options LEGACY), frames back-filled with a hand found late carry the pose its second look settled on, not the tracker's.

On the wood-table stress clip a thumb-up fist was found only as it was about to leave, read as an open palm by
the tracker; the second look said otherwise, but the 12 frames before it, back-filled because the picture had
not changed, had kept "open palm" and made a false wrong_form.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from contract.seats import load_seat_map
from vision.crops import crop_for_zone
from vision.detect import Hand, SeatDetector, _SeatStream
from vision.options import LEGACY
from vision.pose import Pose

SEATS = Path(__file__).resolve().parents[2] / "sample_videos" / "clips" / "stress_clutter.seats.json"


class _SecondLook:
    """A stand-in for vision.second_look.PoseCheck that sees no open hand where the tracker saw one."""

    def confirm(self, hand: Hand, frame: np.ndarray, index: int, open_check: bool = True, thumbs: bool = True,
                since: int | None = None) -> Hand:
        return replace(hand, pose=Pose("other", hand.pose.fingers, 0.0)) if hand.pose.pose == "open_palm" else hand


def test_a_late_found_hand_back_fills_the_still_frames_with_its_confirmed_pose() -> None:
    seats = load_seat_map(SEATS)
    detector = SeatDetector.__new__(SeatDetector)  # no MediaPipe: the detector's answers are given below
    detector.seat_map, detector.gating, detector.resting = seats, False, True
    detector.options, detector.tracking = LEGACY, True  # back-filling belongs to the tracking streams
    detector.seconds = {"crop": 0.0, "inference": 0.0}
    detector.streams = {7: _SeatStream(7, crop_for_zone(seats.seats[7].zone, seats.frame_size))}
    detector.pose_check = _SecondLook()
    x, y = seats.seats[7].zone.mean(axis=0)
    hand = Hand(7, np.column_stack([np.full(21, x), np.full(21, y), np.zeros(21)]), 0.9, Pose("open_palm", 5, 0.9))
    answers = [[]] * 6 + [[hand]]  # the hand is found only on the 7th frame of an unchanged picture
    detector._detect = lambda stream, crop, t, grey=None: answers.pop(0)
    frame = np.full((seats.frame_size[1], seats.frame_size[0], 3), 100, np.uint8)
    for i in range(6):
        assert detector.process(i, i / 25, frame).hands == {}
    result = detector.process(6, 6 / 25, frame)
    assert result.hands[7].pose.pose == "other"
    frames, filled = result.backfill[7]
    assert sorted(frames) == [0, 1, 2, 3, 4, 5]
    assert filled.pose.pose == "other"  # not the tracker's "open_palm"
