"""vision.night's reading of one seat's raise zone over a window, on synthetic pictures and landmarks — no MediaPipe.

The camera looks down at the table, so a seat's raise zone also holds hands in the night pose (rfm
4.5.12: arms crossed, hands on the shoulders); the detector finds those now and then. Only a hand
that was not there when the window began is a raised hand; a hand trembling by a pixel is not a bend.
"""

from __future__ import annotations

import numpy as np

from vision.hands import Hand
from vision.night import _Look, analyse_seat, fresh_looks
from vision.numbers import shifted_difference
from vision.pose import classify

FPS = 25
SIZE = 80  # the raise zone's picture is SIZE x SIZE at PATCH_SCALE 0.5, so the zone is 160 px wide


def blob(pic: np.ndarray, cx: float, cy: float, finger: bool = False) -> None:
    """Paint a hand (a bright disc, optionally a raised finger above it) into a half-resolution picture."""
    yy, xx = np.mgrid[0:pic.shape[0], 0:pic.shape[1]]
    pic[(yy - cy) ** 2 + (xx - cx) ** 2 <= 36] = 190
    if finger:
        pic[int(cy) - 16:int(cy) - 5, int(cx) - 1:int(cx) + 2] = 190


def landmarks_at(cx: float, cy: float, up: bool) -> np.ndarray:
    """21 landmarks (frame pixels, twice the picture's) of a hand at (cx, cy) in the picture, index finger up or curled."""
    p = np.zeros((21, 3))
    x, y = 2 * cx, 2 * cy
    p[0, :2] = (x, y + 14)
    p[1:5, :2] = [(x - 4, y + 8), (x - 3, y + 2), (x - 1, y - 2), (x + 1, y - 4)]
    for i, dx in enumerate((-6, -2, 2, 6)):
        p[5 + 4 * i, :2] = (x + dx, y - 6)
        if i == 0 and up:
            p[6:9, :2] = [(x + dx, y - 16), (x + dx, y - 24), (x + dx, y - 32)]
        else:
            p[6 + 4 * i:9 + 4 * i, :2] = [(x + dx, y - 10), (x + dx, y - 6), (x + dx, y - 2)]
    return p


def hand_at(cx: float, cy: float, up: bool = True) -> Hand:
    marks = landmarks_at(cx, cy, up)
    return Hand(5, marks, 0.9, classify(marks))


def window(frames: int, raise_from: int | None, bend_at: int | None = None) -> list[_Look]:
    """A window: a hand resting at (20, 60) all along (found on every other frame); from `raise_from` a hand
    raised at (55, 30) with its index finger up, folding at `bend_at`."""
    looks = []
    rng = np.random.default_rng(3)
    for i in range(frames):
        pic = np.full((SIZE, SIZE), 60.0, np.float32)
        tremble = int(rng.integers(-1, 2)) if i % 4 == 0 else 0
        blob(pic, 20 + tremble, 60)
        hands = [hand_at(20 + tremble, 60, up=False)] if i % 2 == 0 else []
        if raise_from is not None and i >= raise_from:
            bent = bend_at is not None and i >= bend_at
            blob(pic, 55, 30, finger=not bent)
            hands.append(hand_at(55, 30, up=not bent))
        looks.append(_Look(i, i / FPS, tuple(hands), pic + rng.normal(0, 0.5, pic.shape).astype(np.float32)))
    return looks


def test_rfm_4_5_12_hands_resting_in_the_night_pose_are_not_raised_hands() -> None:
    looks = fresh_looks(window(150, raise_from=60))
    assert all(not x.hands for x in looks[:60])  # the resting hand is found on every other frame: never kept
    assert all([h.palm_centre[0] > 80 for h in x.hands] == [True] for x in looks[60:])  # only the raised one


def test_a_seat_whose_hands_stay_in_the_night_pose_raises_nothing() -> None:
    raised, shown = analyse_seat(5, window(150, raise_from=None), (150, 150 / FPS), [(1.0, 6.0)], [])
    assert raised == [] and shown == []


def test_rfm_4_5_3_the_raised_finger_bending_is_the_shot_at_its_frame() -> None:
    raised, _ = analyse_seat(5, window(200, raise_from=40, bend_at=150), (200, 200 / FPS), [(1.0, 8.0)], [])
    (r,) = raised
    assert abs(r.up - 40 / FPS) <= 2 / FPS and r.fire_frame == 150 and r.fire == 150 / FPS and r.fingers == 1


def test_a_hand_trembling_by_a_pixel_is_no_change_a_folded_finger_is() -> None:
    def picture(dx: int, finger: bool) -> np.ndarray:
        pic = np.full((40, 40), 60.0, np.float32)
        pic[:, 30:] = 120.0  # the player's body behind the hand: it does not tremble
        blob(pic, 16 + dx, 25 + dx, finger=finger)
        return pic

    still, trembled, folded = picture(0, True), picture(1, True), picture(0, False)
    assert shifted_difference(still, trembled, tolerance=0) > 0.2 * shifted_difference(still, folded)  # alignment alone
    assert shifted_difference(still, trembled) < 0.05 * shifted_difference(still, folded)
