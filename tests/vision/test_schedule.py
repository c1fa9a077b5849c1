"""When a resting hand's seat is looked at (vision.schedule): `SeatSchedule.due` on scripted zone pictures.

Each test plays frames to one seat's schedule as the detector does (`see` the frame, ask `due`, and where it says
look, tell it what the run found with `ran` and what it read), and checks on which frames it looks, and why.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.schedule import SCHEDULE, Due, LookSchedule, SeatSchedule

SEAT = 1
EMPTY = np.full(64, 100.0, np.float32)  # the zone's cells on the window's first frame: an empty table
HAND = np.full(64, 180.0, np.float32)  # ... and with a hand resting in it


def _view(value: float) -> np.ndarray:
    return np.full(48, value, np.float32)


def _play(schedule: SeatSchedule, frames: int, view: Callable[[int], np.ndarray], zone: Callable[[int], np.ndarray],
          found: Callable[[int], bool], reading: Callable[[int], str | None]) -> list[Due]:
    """Every frame's answer; a look tells the schedule whether the seat's hand was found and how it read."""
    answers = []
    for i in range(frames):
        schedule.see(i, view(i), zone(i))
        due = schedule.due(i, view(i))
        if due.look:
            schedule.ran(i, view(i), [SEAT] if found(i) else [], refused=False)
            schedule.readings.append(reading(i) if found(i) else None)
        answers.append(due)
    return answers


def _looked(answers: list[Due]) -> list[int]:
    return [i for i, due in enumerate(answers) if due.look]


@pytest.mark.parametrize("flickers", [False, True])
def test_a_still_zone_stops_being_rechecked_once_two_settled_runs_agree(flickers: bool) -> None:
    # a fist lands on an empty zone at frame 5 and rests there to the end (read as an open palm every other run)
    runs = iter(range(10**6))

    def reading(i: int) -> str:
        return "open_palm" if flickers and next(runs) % 2 else "fist"

    answers = _play(SeatSchedule(SEAT), 300, lambda i: _view(180.0 if i >= 5 else 100.0),
                    lambda i: HAND if i >= 5 else EMPTY, lambda i: i >= 5, reading)
    looked = _looked(answers)
    assert looked[:3] == [0, 5, 6] and [answers[i] for i in looked[:3]] == [Due.FIRST, Due.MOVED, Due.UNAGREED]
    assert answers[looked[3]] is Due.RECHECK and looked[3] == 6 + SCHEDULE.refresh  # the first periodic re-check
    if flickers:  # readings that differ keep the re-checks going, ever more rarely, to the end
        assert all(answers[i] is Due.RECHECK for i in looked[3:]) and looked[-1] >= 300 - SCHEDULE.refresh_max
        assert max(np.diff(looked[3:])) <= SCHEDULE.refresh_max
    else:  # it is a settled run (still `refresh` frames) and read what the run before it did: no more looks
        assert looked == [0, 5, 6, 6 + SCHEDULE.refresh]
        assert set(answers[looked[-1] + 1:]) == {Due.REPEAT}


def test_a_still_zone_showing_its_first_picture_is_never_rechecked() -> None:
    answers = _play(SeatSchedule(SEAT), 200, lambda i: _view(180.0), lambda i: HAND, lambda i: True, lambda i: "fist")
    assert _looked(answers) == [0, 1]  # its first look and the one that agrees with it


@pytest.mark.parametrize("step", [SCHEDULE.motion_step, 5])
def test_a_zone_in_motion_is_looked_at_every_motion_step_frames_and_at_once_where_it_rests(step: int) -> None:
    moving = [_view(40.0 + 25 * (i % 7)) for i in range(31)]  # frames 1-30: a picture unlike the one before each
    schedule = SeatSchedule(SEAT, LookSchedule(motion_step=step))
    answers = _play(schedule, 40, lambda i: moving[min(max(i, 1), 30)] if i else _view(100.0), lambda i: EMPTY,
                    lambda i: False, lambda i: None)
    looked = _looked(answers)
    flying = [i for i in looked if 1 <= i <= 30]
    assert flying == list(range(1, 31, step))  # the first frame it moves on at once, then every `step` frames ...
    assert all(answers[i] is Due.IN_FLIGHT for i in range(2, 31) if i not in flying)  # ... the rest wait in flight
    assert 31 in looked or 30 in flying  # the frame it comes to rest on is looked at at once
    assert set(answers[32:]) == {Due.REPEAT}


def test_a_still_zone_showing_something_new_where_no_hand_was_found_is_looked_at_less_and_less_often() -> None:
    answers = _play(SeatSchedule(SEAT), 120, lambda i: _view(180.0 if i >= 1 else 100.0),
                    lambda i: HAND if i >= 1 else EMPTY, lambda i: False, lambda i: None)
    doubts = [i for i, due in enumerate(answers) if due is Due.DOUBT]
    first = 1 + SCHEDULE.relook_still - 1  # still for `relook_still` frames
    assert doubts[:SCHEDULE.doubt_backoff] == list(range(first, first + SCHEDULE.doubt_backoff))  # every frame ...
    gaps = list(np.diff(doubts))
    assert gaps == sorted(gaps) and gaps[-1] > 2  # ... then every second frame, every third ...
    assert set(answers[1:first]) == {Due.MOVED, Due.REPEAT}  # a moving arm is no vote: no look until it rests


def test_a_dark_frame_leaves_no_answer_to_repeat() -> None:
    schedule = SeatSchedule(SEAT)
    _play(schedule, 30, lambda i: _view(180.0), lambda i: HAND, lambda i: True, lambda i: "fist")
    schedule.dark()
    schedule.see(30, _view(180.0), HAND)
    assert schedule.due(30, _view(180.0)) is Due.FIRST
