"""A prop is no hand: a detection with no skin colour on a spot that has not changed since the window began.

Checked on the rendered stress clip where a white capsule by seat 3 was read as a hand under crf-40
compression (sample_videos/clips/stress_compressed), and on the labelled real cut-outs of
../shared/assets/hands, some of them pale enough in their photos to be as neutral in colour as the prop.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from contract.jsonio import read_json
from contract.seats import Seat, SeatMap, load_seat_map
from review.game.timeline import analysis_windows, vote_rounds, vote_windows
from vision.crops import crop_for_zone
from vision.detect import MIN_SKIN_SHARE, hull_change, looks_like_prop, skin_share
from vision.observe import observe
from vision.video import open_video

CLIP = Path(__file__).resolve().parents[2] / "sample_videos" / "clips" / "stress_compressed"
HANDS = Path(__file__).resolve().parents[3] / "shared" / "assets" / "hands"
needs_assets = pytest.mark.skipif(not (HANDS / "index.json").is_file(), reason="../shared/assets/hands is absent")

# Landmarks (seat 3's 256-px crop) MediaPipe returned on stress_compressed: on frame 203 for the white capsule at the
# zone's edge (read as a small open hand), on frame 290 for the real fist resting beside it.
PROP = [[212.5, 126.5], [212.9, 120.3], [210.1, 112.7], [207.4, 107.4], [204.9, 103.5], [207.6, 112.3], [204.2, 105.6],
        [202.8, 99.7], [201.9, 95.4], [205.2, 113.5], [201.8, 106.6], [200.0, 101.0], [198.7, 96.2], [202.8, 114.9],
        [199.9, 108.4], [198.3, 103.2], [197.0, 98.5], [200.7, 116.7], [197.8, 111.1], [196.4, 107.0], [195.3, 103.5]]
FIST = [[85.8, 153.2], [90.6, 153.2], [103.8, 148.0], [113.7, 140.2], [119.9, 133.5], [123.5, 156.5], [124.1, 137.5],
        [116.8, 133.8], [109.8, 136.2], [125.7, 152.2], [127.5, 133.7], [119.4, 130.3], [112.3, 132.8], [125.5, 145.4],
        [127.1, 128.1], [118.6, 125.5], [113.0, 128.8], [123.2, 137.1], [122.9, 122.5], [115.5, 121.6], [111.0, 125.4]]


@pytest.fixture(scope="module")
def seat3() -> dict:
    """Seat 3's crop on the vote window's first frame and on frames 203 (prop alone) and 290 (fist beside it)."""
    seats = load_seat_map(f"{CLIP}.seats.json")
    crop = crop_for_zone(seats.seats[3].zone, seats.frame_size)
    (a, b), = analysis_windows(vote_rounds(vote_windows(read_json(f"{CLIP}.protocol.json"))))
    with open_video(f"{CLIP}.mp4") as video:
        first = video.frames_in(a, b).start
        crops = {k: crop.cut(video.frame_at(i)) for k, i in (("lead", first), ("prop", 203), ("fist", 290))}
    return {"seats": seats, "crop": crop, **crops, **{f"{k}_grey": cv2.cvtColor(v, cv2.COLOR_BGR2GRAY)
                                                       for k, v in crops.items()}}


def test_the_white_prop_is_taken_for_a_prop_and_the_fist_beside_it_is_not(seat3: dict) -> None:
    prop, fist = np.array(PROP), np.array(FIST)
    assert skin_share(seat3["prop"], prop) < 0.05 < MIN_SKIN_SHARE < 0.9 < skin_share(seat3["fist"], fist)
    assert hull_change(seat3["prop_grey"], seat3["lead_grey"], prop) < 1.0  # the capsule has not moved since
    assert hull_change(seat3["fist_grey"], seat3["lead_grey"], fist) > 50.0  # the fist arrived
    assert looks_like_prop(seat3["prop"], seat3["prop_grey"], seat3["lead_grey"], prop)
    assert looks_like_prop(seat3["fist"], seat3["fist_grey"], seat3["lead_grey"], prop)  # still there beside it
    assert not looks_like_prop(seat3["fist"], seat3["fist_grey"], seat3["lead_grey"], fist)
    assert not looks_like_prop(seat3["prop"], seat3["prop_grey"], None, prop)  # no first frame yet: no judgement


def test_a_dim_pictures_change_is_scaled_up_to_a_lit_ones() -> None:
    points = np.array([[10, 10], [40, 10], [40, 40], [10, 40]] * 5 + [[25, 25]], float)
    lit_a, lit_b = np.full((64, 64), 60, np.uint8), np.full((64, 64), 66, np.uint8)
    dim_a, dim_b = np.full((64, 64), 20, np.uint8), np.full((64, 64), 22, np.uint8)
    assert hull_change(lit_b, lit_a, points) == pytest.approx(6.0)
    assert hull_change(dim_b, dim_a, points) == pytest.approx(2.0 * 60 / 22)


def _pasted(entry: dict, table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A labelled real cut-out pasted on a table crop (about 120 px across), and its landmarks there."""
    image = cv2.imread(str(HANDS / entry["file"]), cv2.IMREAD_UNCHANGED)
    marks = np.array(entry["landmarks"][0], float)[:, :2]
    k = 120.0 / max(image.shape[:2])
    image = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    h, w = image.shape[:2]
    out = table.copy()
    alpha = image[:, :, 3:4] / 255.0 if image.shape[2] == 4 else np.ones((h, w, 1))
    out[60:60 + h, 60:60 + w] = (image[:, :, :3] * alpha + out[60:60 + h, 60:60 + w] * (1 - alpha)).astype(np.uint8)
    return out, marks * k + 60


@needs_assets
@pytest.mark.parametrize("table", [(40, 90, 40), (60, 110, 170), (235, 235, 235)], ids=["green", "wood", "white"])
def test_no_real_hand_is_taken_for_a_prop_however_pale_even_resting_since_the_window_began(
        table: tuple[int, int, int]) -> None:
    bare = np.zeros((256, 256, 3), np.uint8) + np.array(table, np.uint8)  # BGR
    lead = cv2.cvtColor(bare, cv2.COLOR_BGR2GRAY)
    for entry in json.loads((HANDS / "index.json").read_text()):
        crop, marks = _pasted(entry, bare)
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        assert skin_share(crop, marks) > 2 * MIN_SKIN_SHARE, entry["name"]  # pale photos included
        assert not looks_like_prop(crop, grey, lead, marks), entry["name"]  # it arrived
        assert not looks_like_prop(crop, grey, grey, marks), entry["name"]  # it was there on the first frame


def test_a_neutral_spot_that_changed_is_no_prop_and_the_table_itself_is_no_skin() -> None:
    points = np.array([[100, 100], [150, 100], [150, 150], [100, 150]] * 5 + [[125, 125]], float)
    green = np.zeros((256, 256, 3), np.uint8) + np.array((40, 90, 40), np.uint8)
    white = green.copy()
    white[90:160, 90:160] = (225, 232, 232)  # a warm white object (BGR): R = G > B, as the capsule
    assert skin_share(green, points) == 0.0 and skin_share(white, points) == 0.0
    g_green, g_white = cv2.cvtColor(green, cv2.COLOR_BGR2GRAY), cv2.cvtColor(white, cv2.COLOR_BGR2GRAY)
    assert looks_like_prop(white, g_white, g_white, points)  # there since the first frame
    assert not looks_like_prop(white, g_white, g_green, points)  # it arrived: perhaps a gloved or pale hand


def test_a_cup_inside_a_zone_is_no_hand_resting_since_the_window_began() -> None:
    """A zone drawn a little farther in than the given one (as a map found from the video may be) holds the white
    capsule's top, which the detector reads as a fist on every frame: the seat's one hand is the vote fist that
    lands at 1.76 s (the clip's truth), not a hand resting from the window's first frame to its last."""
    zone = np.array([[540, 253], [561, 240], [595, 227], [605, 228], [615, 246], [615, 265], [605, 282],
                     [588, 292], [568, 292], [551, 282], [541, 265]], float)
    seats = SeatMap((1280, 720), {5: Seat(zone)})
    hands = [h for h in observe(f"{CLIP}.mp4", seats, [(0.0, 7.5)], jobs=1).hands if h.seat == 5]
    assert len(hands) == 1 and 1.5 < hands[0].on < 2.3 and 6.0 < hands[0].off < 6.6, hands
