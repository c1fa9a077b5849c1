"""The thumb reader (vision/thumb.py): thumb up or plain fist, read off the picture.

Under mafclub and showtime a vote counts only with the thumb up; a plain fist is a wrong form. The
reader is checked on a render it never saw (its training seeds are 1000+, this one is not), on the
real photos of ../shared/assets/hands where present, and through the second look it serves.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.intervals import Sighting
from vision.observe import settle_thumbs
from vision.pose import Pose
from vision.thumb import (
    CARD_FILE,
    MODEL_FILE,
    THUMB_SURE,
    ThumbReader,
    hand_patch,
    knows_footage,
    model_card,
    model_path,
    shared_reader,
)

ASSETS = Path(__file__).resolve().parents[2] / "shared" / "assets" / "hands"


def test_the_shipped_reader_is_checked_against_its_card(tmp_path: Path) -> None:
    card = model_card()
    assert card["figures"]["held_out_renders"]["accuracy"] >= 0.9
    shutil.copy(model_path(), tmp_path / MODEL_FILE)
    (tmp_path / CARD_FILE).write_text(json.dumps({**card, "sha256": "0" * 64}))
    with pytest.raises(RuntimeError, match="sha256"):
        ThumbReader(tmp_path / MODEL_FILE)


def test_patch_is_upright_and_cut_from_full_resolution() -> None:
    frame = np.zeros((400, 400, 3), np.uint8)
    frame[100:150, 190:210] = 255  # a bright bar above the palm: a thumb up
    points = np.zeros((21, 2))
    points[[0, 5, 9, 13, 17]] = [[200, 200], [185, 170], [195, 170], [205, 170], [215, 170]]
    patch = hand_patch(frame, points)
    assert patch.shape == (40, 40)
    top, bottom = patch[:patch.shape[0] // 2].mean(), patch[patch.shape[0] // 2:].mean()
    assert top > bottom  # the bar stays above the palm: the patch is never rotated
    assert hand_patch(frame, points + 5000).max() == 0  # off the frame: an empty patch, no crash


def _rendered_vote(seed: int) -> tuple[np.ndarray, dict[int, str], object]:
    from sample_videos.scenarios import Conditions, Stage, vote_still
    from vision.seats import seat_map_from_json

    poses = {n: ("thumb_up_fist" if n % 2 else "fist") for n in range(1, 11)}
    frame, seats = vote_still(Stage(Conditions(size=(1280, 720), seed=seed)), poses, seed)
    return frame, poses, seat_map_from_json(seats)


@pytest.mark.slow
def test_thumbs_are_read_on_a_render_it_never_saw() -> None:
    from vision.detect import SeatDetector

    frame, poses, seat_map = _rendered_vote(seed=77)
    reader = shared_reader()
    with SeatDetector(seat_map, resting=False) as detector:
        for k in range(3):  # VIDEO mode settles on a still picture within a frame or two
            found = detector.process(k, k * 0.04, frame).hands
    read = {n: ("thumb_up_fist" if reader.decision(frame, hand.landmarks) > 0 else "fist") for n, hand in found.items()}
    assert len(read) >= 8, f"hands found on only {sorted(read)}"
    right = [n for n in read if read[n] == poses[n]]
    assert len(right) >= len(read) - 1, {n: (read[n], poses[n]) for n in read}


def _photo_on_cloth(entry: dict, hand_px: float = 60.0) -> tuple[np.ndarray, np.ndarray]:
    """A real cut-out pasted upright on the green cloth at `hand_px` (a 1080p tripod hand), with its landmarks."""
    rgba = cv2.imread(str(ASSETS / entry["file"]), cv2.IMREAD_UNCHANGED)
    scale = hand_px / entry["hand_px"]
    small = cv2.resize(rgba, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    frame = np.full((600, 600, 3), (40, 90, 50), np.uint8)
    h, w = small.shape[:2]
    alpha = small[:, :, 3:4] / 255.0
    frame[200:200 + h, 200:200 + w] = small[:, :, :3] * alpha + frame[200:200 + h, 200:200 + w] * (1 - alpha)
    return frame, np.array(entry["landmarks"][0], float) * scale + 200


@pytest.mark.skipif(not (ASSETS / "index.json").is_file(), reason="../shared/assets/hands is absent")
def test_on_real_photos_the_reader_stays_unsure_so_the_landmarks_decide() -> None:
    # mafclub 2.4.6 / showtime ¶3: only a thumb-up fist is a vote. The reader learnt its fists from renders;
    # on real photos it must not claim to know, so that the landmarks (right on every real thumb) decide.
    entries = {e["name"]: e for e in json.loads((ASSETS / "index.json").read_text())}
    decisions = [shared_reader().decision(*_photo_on_cloth(entries[name]))
                 for name in ("hg_like", "mps_hand_thumb_up", "mps_thumbs_up_png", "hg_fist")]
    assert max(abs(d) for d in decisions) < THUMB_SURE, decisions
    assert not knows_footage(decisions)


def _sighting(thumb: float | None, pose: str = "fist") -> Sighting:
    return Sighting(0, 0.0, True, pose, 0.9, 0.7, thumb=thumb)


def test_a_window_the_reader_knows_gets_its_thumbs_from_the_picture() -> None:
    # a near seat's thumb reads weakly (0.4) but rightly: where the reader is sure of most fists of the
    # window, its sign decides this one too, over the landmarks' "fist"
    known = {1: [_sighting(0.4)] * 5, 2: [_sighting(0.9, "thumb_up_fist")] * 5, 3: [_sighting(-0.8)] * 5,
             4: [Sighting(0, 0.0, False)]}
    settled = settle_thumbs(known)
    assert {s.pose for s in settled[1]} == {"thumb_up_fist"} and settled[1][0].pose_margin == pytest.approx(0.4)
    assert {s.pose for s in settled[3]} == {"fist"} and not settled[4][0].present
    unknown = {1: [_sighting(0.4)] * 5, 2: [_sighting(-0.3)] * 5, 3: [_sighting(0.7)]}  # 1 of 11 sure
    assert settle_thumbs(unknown) == unknown  # the landmarks' readings stand


def test_second_look_gives_each_fist_the_pictures_thumb_reading() -> None:
    from vision.detect import Hand
    from vision.seats import seat_map_from_json
    from vision.second_look import PoseCheck

    zone = [[500, 400], [700, 400], [700, 600], [500, 600]]
    seat_map = seat_map_from_json({"format": "stopframe-seats/1", "frame_size": [1280, 720],
                                   "seats": {"1": {"zone": zone}}})
    check = PoseCheck(seat_map, [1], "full", 0.3)
    seen: list[np.ndarray] = []

    class Recorder:
        def decision(self, frame: np.ndarray, points: np.ndarray) -> float:
            seen.append(points)
            return 0.8 if len(seen) == 1 else -0.1

    check.thumbs = Recorder()
    points = np.tile([600.0, 500.0, 0.0], (21, 1))
    hand = Hand(1, points, 0.9, Pose("fist", 0, 0.5))
    frame = np.zeros((720, 1280, 3), np.uint8)
    first = check.confirm(hand, frame, 0)
    assert first.thumb == 0.8 and first.pose == hand.pose  # recorded; the window decides which reading stands
    assert check.confirm(hand, frame, 1).thumb == 0.8 and len(seen) == 1  # one look serves 4 frames
    assert check.confirm(hand, frame, 4).thumb == -0.1 and len(seen) == 2
    check.close()
