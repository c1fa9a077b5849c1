"""The table's outline (vision.table): the ellipse of the table top found round the ring's middle, not fooled by
players of the table's colour touching its rim, by things lying on it or by the picture's edge cutting it."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.table import Table, fits_places, table_outline

SIZE = (1280, 720)
TRUE = Table((640.0, 430.0), (230.0, 300.0), 0.0)  # a tall oval: the 3/4 tripod's view of a long table


def picture(table: Table = TRUE, felt: tuple[int, int, int] = (40, 110, 40)) -> np.ndarray:
    """A checkered floor, the table top with a dark rim, props on it and two players of the felt's own colour
    leaning over the rim."""
    w, h = SIZE
    image = np.zeros((h, w, 3), np.uint8)
    for y in range(0, h, 80):
        for x in range(0, w, 80):
            image[y:y + 80, x:x + 80] = (70, 60, 55) if (x + y) // 80 % 2 else (95, 85, 80)
    centre = tuple(int(v) for v in table.centre)
    axes = tuple(int(v) for v in table.axes)
    cv2.ellipse(image, centre, axes, table.angle, 0, 360, (20, 30, 60), -1)  # the rim
    cv2.ellipse(image, centre, (axes[0] - 8, axes[1] - 8), table.angle, 0, 360, felt, -1)
    cv2.rectangle(image, (600, 380), (640, 400), (230, 230, 230), -1)  # a card
    cv2.circle(image, (700, 520), 14, (200, 200, 210), -1)  # a glass
    for x, y in ((centre[0] - axes[0] - 40, 300), (centre[0] + axes[0] + 30, 560)):  # players in green
        cv2.circle(image, (x, y), 60, felt, -1)
    return image


def ring(table: Table, share: float = 0.8, count: int = 10) -> list[tuple[float, float]]:
    return [table.point(2 * math.pi * k / count, share) for k in range(count)]


def close_to(found: Table, truth: Table, tol: float = 0.04) -> bool:
    """Each rim point of the truth lies within `tol` of the found rim, in the found table's own measure."""
    return all(abs(found.radius(*p) - 1.0) < tol for p in truth.polygon(1.0, 36))


def test_the_table_top_is_found_round_the_ring_and_players_of_its_colour_are_left_off() -> None:
    found = table_outline(picture(), (640, 430))
    assert found is not None and close_to(found, Table(TRUE.centre, (TRUE.axes[0] - 4, TRUE.axes[1] - 4), 0.0))
    assert fits_places(found, ring(TRUE))


def test_a_table_cut_by_the_pictures_edge_is_still_the_whole_ellipse() -> None:
    """The camera's frame cuts the table's near end (the judge's end below the picture): the picture's edge is
    no rim, and the outline still reaches past it."""
    low = Table((640.0, 560.0), (230.0, 300.0), 0.0)
    found = table_outline(picture(low), (640, 520))
    assert found is not None and found.polygon()[:, 1].max() > SIZE[1]
    assert close_to(found, Table(low.centre, (low.axes[0] - 4, low.axes[1] - 4), 0.0), tol=0.06)


def test_no_table_where_only_the_floor_lies_round_the_ring() -> None:
    """No table in the picture (a floor of big tiles): whatever patch holds the middle is no table for the
    ring of places round it."""
    floor = picture()
    floor[:] = cv2.resize(floor[:80, :160], SIZE, interpolation=cv2.INTER_NEAREST)  # two tiles, blown up
    found = table_outline(floor, (640, 430))
    assert found is None or not fits_places(found, ring(TRUE))


def test_places_off_the_table_or_in_one_corner_of_it_are_no_fit() -> None:
    assert fits_places(TRUE, ring(TRUE, 0.8))
    assert not fits_places(TRUE, ring(TRUE, 1.6))  # the "table" lies inside the ring: a plate, a card
    corner = [(TRUE.centre[0] + 200 + 10 * k, TRUE.centre[1] + 250) for k in range(6)]
    assert not fits_places(Table(TRUE.centre, (900.0, 900.0), 0.0), corner)  # a floor far bigger than the ring


def test_outside_the_votes_idle_hands_on_one_side_still_fit_the_table() -> None:
    """Before any vote the hands seen resting may all be one or two players' idle hands at the rim on one side:
    the table they lie on is kept (players only), while during votes the hands must surround its middle."""
    side = [TRUE.point(math.pi + d, 1.0) for d in (-0.1, 0.0, 0.1, 0.2)]
    assert fits_places(TRUE, side, 0.5, edge=True)
    assert not fits_places(TRUE, side)


def test_a_table_on_a_floor_nearer_its_colour_than_the_players_is_still_found() -> None:
    """A dark red table on a brown floor, the players round it in light shirts: the first split of the
    colours parts the players from floor and table together; the table top is the patch a second split keeps."""
    image = picture(felt=(35, 30, 95))
    image[(image == (70, 60, 55)).all(axis=2)] = (45, 55, 75)  # the floor's tiles a brown near the table's red
    image[(image == (95, 85, 80)).all(axis=2)] = (50, 62, 82)
    for k in range(10):  # ten players in white shirts just outside the rim
        x, y = TRUE.point(2 * math.pi * k / 10, 1.25)
        cv2.circle(image, (int(x), int(y)), 45, (235, 235, 240), -1)
    found = table_outline(image, (640, 430), lambda t: fits_places(t, ring(TRUE)))
    assert found is not None and close_to(found, Table(TRUE.centre, (TRUE.axes[0] - 4, TRUE.axes[1] - 4), 0.0), 0.08)


def test_during_votes_an_outline_round_the_hands_or_inside_them_is_no_fit() -> None:
    """The voters' hands lie on the table, near its rim: an outline with most of them in its middle (the room's
    floor round the table) or most of them past its rim (the lit middle of a dark table) is not the table."""
    hands = ring(TRUE, 0.8)
    room = Table((640.0, 250.0), (600.0, 500.0), 0.0)  # round the ring, the far end's hands near its middle
    assert not fits_places(room, hands)
    lit = Table(TRUE.centre, (TRUE.axes[0] * 0.78, TRUE.axes[1] * 0.78), 0.0)  # the hands just past its rim
    assert not fits_places(lit, hands)
    assert fits_places(TRUE, hands)


def lamp_lit() -> np.ndarray:
    """A dark wooden table in a dim room under one lamp: the top's lightness falls from the lit middle to a rim
    as dark as the bluish floor, its brown hue stays."""
    image = picture(felt=(30, 45, 75))
    height, width = image.shape[:2]
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    out = np.hypot((xx - TRUE.centre[0]) / TRUE.axes[0], (yy - TRUE.centre[1]) / TRUE.axes[1])
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 0] = np.clip(lab[..., 0] * np.clip(1.9 - 1.5 * out, 0.25, 1.9), 0, 255)
    return cv2.cvtColor(lab.astype(np.uint8), cv2.COLOR_LAB2BGR)


def test_a_dark_table_lit_only_in_its_middle_is_found_by_its_hue() -> None:
    """Split by colour and lightness, the lamp's pool of light is one patch and the dim rim goes with the floor
    (no ellipse the hands lie on); the table's hue holds from the middle to the rim."""
    found = table_outline(lamp_lit(), (640, 430), lambda t: fits_places(t, ring(TRUE)))
    assert found is not None and close_to(found, Table(TRUE.centre, (TRUE.axes[0] - 4, TRUE.axes[1] - 4), 0.0), 0.08)


def test_hands_seen_at_three_places_on_one_side_fit_the_table() -> None:
    """During a vote the detector saw hands at three chairs only, all on the right side, each on several frames:
    three places do not have to surround the table's middle (four or more do), however many sightings."""
    places = [TRUE.point(a, 0.8) for a in (-0.4, 0.0, 0.4)]
    sightings = [(x + dx, y) for x, y in places for dx in (-2.0, 0.0, 2.0)]
    assert fits_places(TRUE, sightings, places=3)
    assert not fits_places(TRUE, sightings, places=9)
