"""Finger numbers and shots from landmarks (vision/numbers.py) on synthetic hands — no MediaPipe."""

from __future__ import annotations

import numpy as np
import pytest

from vision.numbers import (
    STEP_MIN,
    FrameNumber,
    frame_number,
    largest_step,
    raised_fingers,
    read_number,
    shots,
)

FPS = 25


def hand(fingers_up: int, thumb_out: bool = False, x: float = 0.0, rotate_deg: float = 0.0) -> np.ndarray:
    """21 landmarks (pixels) of an upright hand: the first `fingers_up` of index..pinky straight, the rest curled."""
    p = np.zeros((21, 2))
    p[0] = (0, 0)
    p[1:5] = [(-12, -8), (-22, -16), (-30, -22), (-36, -26)]  # thumb tucked across the palm by default
    if thumb_out:
        p[1:5] = [(-12, -8), (-26, -14), (-38, -18), (-48, -22)]
    else:
        p[1:5] = [(-10, -10), (-8, -22), (-2, -30), (4, -34)]
    for i, base_x in enumerate((-12, -4, 4, 12)):
        mcp, pip, dip, tip = 5 + 4 * i, 6 + 4 * i, 7 + 4 * i, 8 + 4 * i
        p[mcp] = (base_x, -40)
        if i < fingers_up:
            p[pip], p[dip], p[tip] = (base_x, -60), (base_x, -72), (base_x, -82)
        else:  # curled back towards the palm
            p[pip], p[dip], p[tip] = (base_x, -52), (base_x, -44), (base_x, -36)
    a = np.radians(rotate_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return p @ rot.T + (x, 0)


def shown(n: int) -> list[np.ndarray]:
    """The hands showing n: one hand up to 5, else an open hand and n - 5 fingers (the 5 + n form)."""
    one = lambda k, x=0.0: hand(min(k, 4), thumb_out=k >= 5, x=x)  # noqa: E731
    return [one(n)] if n <= 5 else [one(5), one(n - 5, x=150.0)]


@pytest.mark.parametrize("n", range(1, 11))
def test_rfm_4_5_7_number_shown_with_the_fingers_one_or_two_hands(n: int) -> None:
    reading = frame_number(shown(n))
    assert reading is not None and reading.number == n and reading.hands == (1 if n <= 5 else 2)


def test_two_hands_are_summed_whatever_the_split() -> None:
    assert frame_number([hand(3), hand(3, x=150)]).number == 6


def test_a_fist_shows_no_number() -> None:
    assert frame_number([hand(0)]) is None
    assert frame_number([]) is None


def test_reading_is_rotation_invariant() -> None:
    assert frame_number([hand(2, rotate_deg=35.0)]).number == 2


def test_raised_fingers_do_not_count_the_thumb() -> None:
    assert raised_fingers(hand(2, thumb_out=True))[0] == 2
    assert raised_fingers(hand(0))[0] == 0


def _series(values: list[FrameNumber | None]) -> list[tuple[int, float, FrameNumber | None]]:
    return [(i, i / FPS, v) for i, v in enumerate(values)]


def test_a_steady_two_hand_number_wins_over_frames_where_one_hand_was_lost() -> None:
    nine, four = FrameNumber(9, 2, 0.8), FrameNumber(4, 1, 0.8)
    values = [None] * 5 + [nine, four, nine, nine, four, nine, nine, nine, four, nine, nine] + [None] * 3
    reading = read_number(_series(values))
    assert reading is not None and reading.number == 9 and reading.index == 5


def test_a_flicker_is_not_a_shown_number() -> None:
    assert read_number(_series([None, FrameNumber(3, 1, 0.9), FrameNumber(3, 1, 0.9), None, None])) is None


def test_shot_is_the_first_frame_the_raised_fingers_stay_bent() -> None:
    counts = [None, None, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, None]
    found = shots([(i, i / FPS, c) for i, c in enumerate(counts)])
    assert [(s.index, s.fingers) for s in found] == [(11, 1)]


def test_two_bends_are_two_shots() -> None:
    counts = [2, 2, 2, 0, 0, 0, 2, 2, 2, 2, 0, 0, 0]
    assert [s.index for s in shots([(i, i / FPS, c) for i, c in enumerate(counts)])] == [3, 10]


def test_a_hand_that_never_held_fingers_up_does_not_shoot() -> None:
    assert shots([(i, i / FPS, 0) for i in range(20)]) == []


def _hand_picture() -> np.ndarray:
    """A smooth bright blob (a hand) on a darker background, 48 x 48 grey (frame pixels)."""
    yy, xx = np.mgrid[0:48, 0:48]
    return (60 + 90 * np.exp(-((yy - 28) ** 2 + (xx - 24) ** 2) / 240.0)).astype(np.float32)


def _half(pic: np.ndarray) -> np.ndarray:
    """Half resolution by 2 x 2 means, as vision.night keeps the raise zone (PATCH_SCALE 0.5)."""
    return pic.reshape(pic.shape[0] // 2, 2, pic.shape[1] // 2, 2).mean(axis=(1, 3))


@pytest.mark.parametrize("seed", range(1, 7))
def test_largest_step_times_the_bend_despite_jitter(seed: int) -> None:
    rng = np.random.default_rng(seed)
    base = _hand_picture()
    bent = base.copy()
    bent[6:18, 22:28] = 60.0  # the raised finger folds down out of this part of the picture
    base[6:18, 22:28] = 200.0
    frames, offset = [], np.zeros(2, int)
    for k in range(40):
        if rng.random() < 0.25:  # the held hand wanders by a pixel now and then (the renderer's jitter)
            offset = np.clip(offset + rng.integers(-1, 2, size=2), -1, 1)
        pic = bent if k >= 23 else base
        frames.append(_half(np.roll(pic, tuple(offset), axis=(0, 1))) + rng.normal(0, 1, (24, 24)))
    step = largest_step(np.array(frames))
    assert step is not None and step.at == 23 and step.strength >= STEP_MIN


def test_a_still_hand_has_no_clear_step() -> None:
    rng = np.random.default_rng(4)
    base = _hand_picture()
    step = largest_step(np.array([_half(base) + rng.normal(0, 1, (24, 24)) for _ in range(40)]))
    assert step is not None and step.strength < STEP_MIN
