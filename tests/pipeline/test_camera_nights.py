"""The nights from several cameras (pipeline.cameras.merge_nights): each seat's raised hands and shown numbers
from the camera that sees its raise zone best, moved onto the main camera's clock (drift included); a seat blind
only where every camera is; the judge's count from the main camera's sound."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from contract.clock import Clock
from contract.observations import Observations
from contract.seats import Seat, SeatMap
from pipeline.cameras import CameraView, merge_nights

OFFSET, DRIFT = 2.0, 100.0  # camera b: its time = 2 + protocol time × (1 + 100·10⁻⁶); camera a is the protocol's


def square(x: float, side: float) -> np.ndarray:
    return np.array([[x, 100], [x + side, 100], [x + side, 100 + side], [x, 100 + side]], float)


def view(name: str, big: range, without: tuple[int, ...], offset: float = 0.0, drift: float = 0.0) -> CameraView:
    """Raise zones 90 px wide for the seats near this camera, 30 px for the others, none for `without`."""
    seats = {n: Seat(square(120 * n, 40), None if n in without else square(120 * n, 90 if n in big else 30))
             for n in range(1, 11)}
    return CameraView(name, Path(f"{name}.mp4"), SeatMap((1280, 720), seats), offset,
                      Observations((), 25.0, (), None, None), Clock.constant(25.0, 25 * 4000), drift)


def b_time(t: float) -> float:
    return OFFSET + t * (1 + DRIFT * 1e-6)


def fields(move: Any, seats: tuple[int, ...], words: tuple[float, ...] = ()) -> dict[str, Any]:
    """A shooting at 3000 s: each of `seats` raises a hand (two fingers) and fires; seat 4 shows number 7."""
    raised = [{"seat": s, "up": move(3000.0 + s), "down": move(3002.0 + s), "fingers": 2, "fire": move(3001.0 + s),
               "confidence": 0.9} for s in seats]
    shown = [{"seat": 4, "t": move(3050.0), "number": 7, "confidence": 0.8}] if 4 in seats else []
    out = {"x_raised": raised, "x_shown_numbers": shown, "x_night_windows": [[move(2990.0), move(3060.0)]]}
    return {**out, "x_night_words": list(words)} if words else out


def test_each_seat_from_the_camera_that_sees_its_raise_zone_best_on_the_main_clock() -> None:
    a = view("a", range(1, 6), without=(6,))  # the vase: camera a has no raise zone for seat 6
    b = view("b", range(6, 11), without=(), offset=OFFSET, drift=DRIFT)
    seen_a = fields(float, (2, 4), words=(2995.0, 2996.0))
    seen_b = fields(b_time, (2, 6, 8), words=(b_time(2995.0),))
    merged = merge_nights([(a, seen_a), (b, seen_b)], a)
    raised = {r["seat"]: r for r in merged["x_raised"]}
    assert set(raised) == {2, 4, 6, 8}
    assert raised[6]["up"] == pytest.approx(3006.0, abs=1e-3)  # b's hand, back on a's clock with the drift
    assert raised[6]["fire"] == pytest.approx(3007.0, abs=1e-3)  # a constant offset would be 0.3 s off here
    assert raised[2] == seen_a["x_raised"][0]  # seat 2 is near a: a's reading, untouched
    assert [n["seat"] for n in merged["x_shown_numbers"]] == [4]
    assert merged["x_night_words"] == [2995.0, 2996.0]  # the count heard by the main camera
    assert merged["x_night_windows"] == [[2990.0, pytest.approx(3060.0, abs=1e-3)]]
    assert "x_night_blind" not in merged  # seat 6: camera b sees its raise zone


def test_a_seat_no_camera_has_a_raise_zone_for_is_blind_and_one_alone_is_kept() -> None:
    a = view("a", range(1, 6), without=(6, 9))
    b = view("b", range(6, 11), without=(9,), offset=OFFSET, drift=DRIFT)
    merged = merge_nights([(a, fields(float, (2,))), (b, {**fields(b_time, (7,)), "x_night_blind": [3]})], a)
    assert merged["x_night_blind"] == [9]
    assert {r["seat"] for r in merged["x_raised"]} == {2, 7}


def test_a_camera_that_did_not_look_at_the_night_gives_way_even_where_its_zone_is_larger() -> None:
    a = view("a", range(1, 6), without=())
    b = view("b", range(1, 11), without=(), offset=OFFSET)
    b_missed = {"x_raised": [], "x_shown_numbers": [], "x_night_windows": []}  # vision never looked at b's night
    merged = merge_nights([(a, fields(float, (2, 7))), (b, b_missed)], a)
    assert {r["seat"] for r in merged["x_raised"]} == {2, 7}
