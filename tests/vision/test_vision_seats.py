"""Seat maps (spec §2) and per-seat crops cut from the full-resolution frame."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from contract.errors import InvalidInput, UnreadableInput
from contract.seats import Seat, SeatMap, load_seat_map, save_seat_map
from vision.crops import CROP_SIZE, crop_for_zone, zone_visible_share
from vision.seats import default_seat_map

TABLE = dict(frame_size=(1280, 720), centre=(640.0, 380.0), axes=(470.0, 250.0))


def table_map(**kw: object) -> SeatMap:
    return default_seat_map(TABLE["frame_size"], TABLE["centre"], TABLE["axes"], **kw)


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    original = table_map()
    path = save_seat_map(original, tmp_path / "game.seats.json")
    data = json.loads(path.read_text())
    assert data["format"] == "stopframe-seats/1" and data["frame_size"] == [1280, 720]
    assert sorted(data["seats"], key=int) == [str(n) for n in range(1, 11)]
    loaded = load_seat_map(path)
    for n in range(1, 11):
        assert np.allclose(loaded.seats[n].zone, original.seats[n].zone, atol=0.06)


def test_a_seat_missing_from_the_map_stays_missing(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"format": "stopframe-seats/1", "frame_size": [640, 360],
                                "seats": {"3": {"zone": [[0, 0], [10, 0], [10, 10]]}}}))
    seat_map = load_seat_map(path)
    assert set(seat_map.seats) == {3} and seat_map.seats[3].raise_ is None


def test_scaling_to_the_same_aspect_ratio() -> None:
    seat_map = table_map()
    big = seat_map.scaled_to(1920, 1080)
    assert big.frame_size == (1920, 1080)
    assert np.allclose(big.seats[4].zone, seat_map.seats[4].zone * 1.5)
    assert np.allclose(big.seats[4].raise_, seat_map.seats[4].raise_ * 1.5)


def test_scaling_to_another_aspect_ratio_is_refused() -> None:
    with pytest.raises(InvalidInput, match="1280x720 .* 1440x1080, another aspect ratio"):
        table_map().scaled_to(1440, 1080)


def test_aspect_ratio_refusal_names_the_seat_map_and_the_video(tmp_path: Path) -> None:
    path = save_seat_map(table_map(), tmp_path / "table.seats.json")
    with pytest.raises(InvalidInput, match=r"table.seats.json: the seat map .* but phone.mp4 is 1080x1920"):
        load_seat_map(path).scaled_to(1080, 1920, "phone.mp4")


@pytest.mark.parametrize(
    ("content", "error", "words"),
    [
        ("{", UnreadableInput, "not valid JSON"),
        ('{"format": "stopframe-seats/2", "frame_size": [1, 1], "seats": {}}', UnreadableInput, "version"),
        ('{"format": "stopframe-protocol/1"}', UnreadableInput, "not a seat map"),
        ('{"format": "stopframe-seats/1", "frame_size": [1280], "seats": {}}', InvalidInput, "frame_size"),
        ('{"format": "stopframe-seats/1", "frame_size": [true, true], "seats": {}}', InvalidInput, "frame_size"),
        ('{"format": "stopframe-seats/1", "frame_size": [9, 9], "seats": {"11": {"zone": []}}}', InvalidInput, "seats.11"),
        ('{"format": "stopframe-seats/1", "frame_size": [9, 9], "seats": {"2": {"zone": [[1, 2]]}}}', InvalidInput,
         "seats.2.zone"),
    ],
)
def test_bad_seat_maps_name_the_file_and_place(tmp_path: Path, content: str, error: type, words: str) -> None:
    path = tmp_path / "bad.seats.json"
    path.write_text(content)
    with pytest.raises(error, match=words) as err:
        load_seat_map(path)
    assert str(path) in str(err.value)


def test_sides_layout_puts_five_a_side_from_the_judges_end() -> None:
    # Seat 1 on the near side, next to the judge's (left) end: 1-5 run right along the near side,
    # 6-10 come back along the far side; nobody sits at either end of the table.
    seat_map = table_map(seat1=(300.0, 560.0))
    centres = {n: seat.zone.mean(axis=0) for n, seat in seat_map.seats.items()}
    assert all(centres[n][1] > 380 for n in range(1, 6)) and all(centres[n][1] < 380 for n in range(6, 11))
    assert [round(centres[n][0]) for n in range(1, 6)] == sorted(round(centres[n][0]) for n in range(1, 6))
    assert [round(centres[n][0]) for n in range(6, 11)] == sorted((round(centres[n][0]) for n in range(6, 11)), reverse=True)
    for a, b in [(1, 10), (2, 9), (3, 8), (4, 7), (5, 6)]:  # mirror images across the long axis
        assert np.allclose(centres[a], (centres[b][0], 760 - centres[b][1]), atol=1)
    xs = [c[0] for c in centres.values()]
    assert min(xs) > 640 - 470 * 0.9 and max(xs) < 640 + 470 * 0.9  # both ends free
    mirrored = table_map(seat1=(300.0, 200.0))  # seat 1 on the far side: the order runs the other way
    assert mirrored.seats[1].zone.mean(axis=0)[1] < 380 and mirrored.seats[6].zone.mean(axis=0)[1] > 380


def test_even_layout_puts_seat_one_at_the_given_point_and_goes_clockwise() -> None:
    seat_map = table_map(seat1=(640.0, 700.0), layout="even")  # bottom of the table
    centres = {n: seat.zone.mean(axis=0) for n, seat in seat_map.seats.items()}
    assert centres[1][1] > 540 and abs(centres[1][0] - 640) < 5
    angles = [math.atan2(centres[n][1] - 380, centres[n][0] - 640) for n in range(1, 11)]
    steps = [(b - a) % (2 * math.pi) for a, b in zip(angles, angles[1:], strict=False)]
    assert all(0 < s < math.pi for s in steps)  # each next seat is clockwise on screen (y points down)
    ccw = table_map(seat1=(640.0, 700.0), clockwise=False, layout="even")
    assert np.allclose(ccw.seats[2].zone.mean(axis=0)[0], 2 * 640 - centres[2][0], atol=1)


def test_default_zones_do_not_overlap_and_each_point_has_one_seat() -> None:
    seat_map = table_map(seat1=(1000.0, 200.0), angle_deg=10)
    for n, seat in seat_map.seats.items():
        cx, cy = seat.zone.mean(axis=0)
        assert seat_map.seat_at(cx, cy) == n
        others = [m for m, s in seat_map.seats.items() if m != n and s.contains(cx, cy)]
        assert others == []
    assert seat_map.seat_at(640, 380) is None  # the middle of the table belongs to nobody


def test_crop_is_a_square_around_the_zone_with_margin_inside_the_frame() -> None:
    seat_map = table_map()
    for seat in seat_map.seats.values():
        crop = crop_for_zone(seat.zone, (1280, 720))
        lo, hi = seat.zone.min(axis=0), seat.zone.max(axis=0)
        assert crop.x0 <= lo[0] and crop.y0 <= lo[1]
        assert crop.x0 + crop.side >= hi[0] and crop.y0 + crop.side >= hi[1]
        assert 0 <= crop.x0 <= 1280 - crop.side and 0 <= crop.y0 <= 720 - crop.side


def test_crop_maps_back_to_frame_pixels() -> None:
    crop = crop_for_zone(np.array([[100, 200], [300, 200], [300, 260], [100, 260]], float), (1280, 720))
    frame = np.zeros((720, 1280, 3), np.uint8)
    frame[228:233, 248:253] = 255  # a dot at (250, 230)
    image = crop.cut(frame)
    assert image.shape == (CROP_SIZE, CROP_SIZE, 3)
    ys, xs = np.nonzero(image[:, :, 0] > 60)
    back = crop.to_frame(np.array([[xs.mean(), ys.mean()]]))[0]
    assert np.allclose(back, (250, 230), atol=1.5)
    assert np.allclose(crop.normalized_to_frame(np.array([[0.0, 0.0, 0.1]]))[0], (crop.x0, crop.y0, 0.1 * crop.side))


def test_4k_crop_keeps_full_resolution_detail() -> None:
    # A 1-pixel checkerboard in a 4K frame: a crop cut from the full frame keeps contrast, while
    # the same region cut from a downscaled copy would be flat grey.
    frame = np.zeros((2160, 3840, 3), np.uint8)
    frame[::2, ::2] = frame[1::2, 1::2] = 255
    zone = np.array([[2000, 1000], [2100, 1000], [2100, 1100], [2000, 1100]], float)
    crop = crop_for_zone(zone, (3840, 2160))
    assert crop.side < CROP_SIZE  # 100-px zone: upscaled, every source pixel kept
    assert crop.cut(frame).std() > 30
    import cv2

    small = cv2.resize(frame, (1920, 1080), interpolation=cv2.INTER_AREA)
    assert crop_for_zone(zone / 2, (1920, 1080)).cut(small).std() < 5


def test_crop_leaving_the_frame_is_padded_and_visibility_measured() -> None:
    crop = crop_for_zone(np.array([[-50, -50], [50, -50], [50, 50], [-50, 50]], float), (80, 60))
    image = crop.cut(np.full((60, 80, 3), 200, np.uint8))
    assert image.shape == (CROP_SIZE, CROP_SIZE, 3) and image.min() == 0 and image.max() == 200
    outside = np.array([[2000, 10], [2100, 10], [2100, 90]], float)
    assert zone_visible_share(outside, (1280, 720)) == 0.0
    half = np.array([[1180, 100], [1380, 100], [1380, 200], [1180, 200]], float)
    assert zone_visible_share(half, (1280, 720)) == pytest.approx(0.5, abs=0.02)


def test_seat_point_in_polygon() -> None:
    seat = Seat(np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float))
    assert seat.contains(5, 5) and not seat.contains(11, 5) and not seat.contains(5, -1)


def test_large_zone_in_4k_is_averaged_down_and_still_maps_back() -> None:
    zone = np.array([[1000, 600], [1900, 600], [1900, 1300], [1000, 1300]], float)
    crop = crop_for_zone(zone, (3840, 2160))
    assert crop.side // CROP_SIZE >= 2 and crop.side % (crop.side // CROP_SIZE) == 0
    frame = np.zeros((2160, 3840, 3), np.uint8)
    frame[990:1010, 1490:1510] = 255  # a 20-px square at (1500, 1000)
    image = crop.cut(frame)
    ys, xs = np.nonzero(image[:, :, 0] > 60)
    assert np.allclose(crop.to_frame(np.array([[xs.mean(), ys.mean()]]))[0], (1500, 1000), atol=4)
