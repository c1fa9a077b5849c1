"""The seat map in the contract: one parser and one geometry for vision and review alike. A hand's palm is in a
seat's zone by the same rule where vision places it and where the audit checks the map; a map whose zones cross
is refused before any hand is counted for two seats; a file with huge zones is refused at once, not after an
endless overlap check. No video is opened."""

from __future__ import annotations

import time

import numpy as np
import pytest

from contract.errors import InvalidInput
from contract.seats import (
    MAX_ZONE_POINTS,
    Seat,
    SeatMap,
    point_in_polygon,
    polygons_overlap,
    seat_map_from_json,
)
from review.audit.inputs import check_seat_geometry

SQUARE = [[100, 100], [200, 100], [200, 200], [100, 200]]


def _map(*zones: list[list[float]], size: tuple[int, int] = (640, 360)) -> SeatMap:
    return seat_map_from_json({"format": "stopframe-seats/1", "frame_size": list(size),
                               "seats": {str(n): {"zone": z} for n, z in enumerate(zones, 1)}}, "game.seats.json")


def test_a_palm_is_at_the_seat_whose_zone_holds_it() -> None:
    seats = _map(SQUARE, [[300, 100], [400, 100], [400, 200], [300, 200]])
    assert (seats.seat_at(150, 150), seats.seat_at(350, 150), seats.seat_at(250, 150)) == (1, 2, None)
    assert point_in_polygon(seats.seats[1].zone, 150, 150) and point_in_polygon(SQUARE, 150, 150)


def test_a_seat_missing_from_the_map_stays_missing() -> None:
    seats = _map(SQUARE)
    assert sorted(seats.seats) == [1]  # no default zone for seats 2-10: the audit says "cannot see" for them


def test_zones_that_cross_are_refused_for_the_audit() -> None:
    crossing = _map(SQUARE, [[150, 150], [250, 150], [250, 250], [150, 250]])
    assert polygons_overlap(SQUARE, [[150, 150], [250, 150], [250, 250], [150, 250]])
    with pytest.raises(InvalidInput, match=r"seats\.1\.zone and seats\.2\.zone overlap"):
        check_seat_geometry(crossing, "game.seats.json")


def test_a_zone_with_too_many_corners_is_refused_at_once() -> None:
    angles = np.linspace(0, 2 * np.pi, MAX_ZONE_POINTS + 1, endpoint=False)
    circle = np.c_[320 + 100 * np.cos(angles), 180 + 100 * np.sin(angles)]
    seats = SeatMap((640, 360), {1: Seat(circle), 2: Seat(circle + 1.0)})
    started = time.perf_counter()
    with pytest.raises(InvalidInput, match=r"seats\.1\.zone"):
        check_seat_geometry(seats, "game.seats.json")
    assert time.perf_counter() - started < 1.0  # refused before a million edge pairs are compared


def test_the_map_reads_back_what_it_writes() -> None:
    seats = _map(SQUARE)
    again = seat_map_from_json(seats.to_json(), "again.seats.json")
    assert again.to_json() == seats.to_json() and again.frame_size == (640, 360)
