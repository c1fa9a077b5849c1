"""The detector's looks follow the hands in the zones, not the frames (vision.schedule's rules for resting hands),
and a frame is converted to BGR only where a look needs it (vision.video.Picture).

On the scripted detector (tests/fakes.py): each rule's looks are counted, and what the detector reports under
change gating is what it reports looking at every frame.
"""

from __future__ import annotations

from dataclasses import replace

import av
import cv2
import numpy as np
import pytest
from fakes import FPS, FakeBackend, Scene

from contract.seats import SeatMap, seat_map_from_json
from vision.crops import crop_for_zone
from vision.detect import FrameResult, SeatDetector
from vision.hands import THUMB_SIZE, ZONE_SIDE, grey_square, same_picture
from vision.options import DEFAULT, VisionOptions
from vision.pose import Pose
from vision.schedule import SCHEDULE
from vision.video import Picture


def _three_seats() -> SeatMap:
    """Three 120-px square seat zones in a row on a 640 x 360 picture (each crop reaches 30 px past its zone)."""
    seats = {str(n): {"zone": [[x, 200], [x + 120, 200], [x + 120, 320], [x, 320]]} for n, x in ((1, 40), (2, 260), (3, 480))}
    return seat_map_from_json({"format": "stopframe-seats/1", "frame_size": [640, 360], "seats": seats})


def _gated_and_every(scene: Scene, frames: int, options: VisionOptions = DEFAULT) -> dict[str, list[FrameResult]]:
    """Every frame's result under change gating and its rules ("gated") and with the detector run on every frame
    and seat ("every")."""
    out = {}
    for name, gating in (("gated", True), ("every", False)):
        with SeatDetector(scene.seat_map, gating=gating, options=options,
                          backend=FakeBackend(scene)) as detector:
            out[name] = _run(detector, scene, frames)
    return out


def _run(detector: SeatDetector, scene: Scene, frames: int) -> list[FrameResult]:
    return [detector.process(i, i / FPS, scene.frame(i)) for i in range(frames)]


def _busy_scene(frames: int) -> Scene:
    """Seat 1's crop shows something moving on every frame beside its zone, in no zone (an idle hand fidgeting at
    the table edge), and a vote hand lands in seat 1's zone at frame 20."""
    scene = Scene(_three_seats())
    a, b = scene.hand(1, "fist", size=6, dx=83), scene.hand(1, "fist", size=6, dx=85)
    scene.show(a, range(0, frames, 2))
    scene.show(b, range(1, frames, 2))
    scene.show(scene.hand(1, "fist"), range(20, frames))
    return scene


def _crop_changes(scene: Scene, seat: int, frames: int) -> list[bool]:
    """Per frame after the first: whether the seat's whole crop differs from the frame before by gating's margin."""
    crop = crop_for_zone(scene.seat_map.seats[seat].zone, scene.seat_map.frame_size)
    thumbs = [cv2.resize(grey_square(crop, cv2.cvtColor(scene.frame(i), cv2.COLOR_BGR2GRAY), ZONE_SIDE),
                         (THUMB_SIZE, THUMB_SIZE), interpolation=cv2.INTER_AREA).astype(np.float32)
              for i in range(frames)]
    return [not same_picture(now, before) for before, now in zip(thumbs[:-1], thumbs[1:], strict=True)]


def test_gating_looks_only_where_the_zone_changes_and_reports_the_same_hands() -> None:
    # gating compares the seat's zone, not its whole crop: what moves beside the zone costs no look
    scene = _busy_scene(60)
    assert all(_crop_changes(scene, 1, 60))  # the seat's crop changes on every frame
    runs = _gated_and_every(scene, 60)
    looks = _looks(runs, 1)
    assert _hands(runs)["gated"] == _hands(runs)["every"] == [[]] * 20 + [[1]] * 40
    assert looks["gated"] <= 6  # the first runs, the landing and the runs that agree on it


def test_a_still_zone_showing_its_first_picture_is_not_rechecked() -> None:
    scene = Scene(_three_seats())
    scene.show(scene.hand(2, "fist"), range(0, 200))  # resting since before the window: its first picture
    runs = _gated_and_every(scene, 200)
    looks = sum(len(r.looked) for r in runs["gated"])
    assert _hands(runs)["gated"] == _hands(runs)["every"] == [[2]] * 200
    assert looks == 2 + 1 + 1  # seat 2: the two runs that agree, seats 1 and 3 one run each (an empty zone's miss
    # stands), then nothing: no periodic re-check, which would come every 12 to 48 frames


def _seat_1_by_frame(results: list[FrameResult]) -> list[tuple[float, float] | None]:
    """Seat 1's palm centre on each frame (None: no hand), the frames skipped in flight as they were looked at later."""
    palms = [results[i].hands[1].palm_centre if 1 in r.hands else None for i, r in enumerate(results)]
    for r in results:
        for i, _t, hand, _unread in r.pinned.get(1, []):
            palms[i] = hand.palm_centre if hand is not None else None
    return palms


def test_a_zone_in_motion_is_looked_at_sparsely_and_its_landing_and_lift_keep_their_frames() -> None:
    scene = Scene(_three_seats())
    sweep = [scene.hand(1, "fist", dx=dx) for dx in (-40, -20, 0, 20, 40)]
    for i in range(10, 41):  # an arm sweeping to and fro through seat 1's zone, no hand the detector finds
        scene.show(sweep[i % 5], range(i, i + 1), missed=True)
    slide = [scene.hand(1, "fist", dx=dx) for dx in (-30, -20, -10)]
    for i in range(41, 45):  # then, moving on, a fist found as it slides in, resting from frame 45 to 69, then gone
        scene.show(slide[i % 3], range(i, i + 1))
    scene.show(scene.hand(1, "fist"), range(45, 70))
    runs = _gated_and_every(scene, 90)
    palms = {name: _seat_1_by_frame(results) for name, results in runs.items()}
    assert [p is not None for p in palms["gated"]] == [False] * 41 + [True] * 29 + [False] * 20
    assert palms["gated"][45:] == palms["every"][45:]  # in its place from the frame it lands on (skipped, then pinned)
    assert any(1 in r.pinned for r in runs["gated"])  # the landing came on a frame skipped in flight
    swept = [i for i, r in enumerate(runs["gated"][:41]) if 1 in r.looked and i >= 10]
    assert 10 in swept  # the first frame the zone moves on is looked at at once ...
    assert len(swept) <= 2 + 31 // 3  # ... then one frame in three while it keeps moving, not each


def test_a_refused_reading_is_repeated_by_gating_with_its_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.hands

    scene = Scene(_three_seats())
    refused = scene.hand(2, "fist")
    scene.show(refused, range(0, 80))  # there from the first frame: the zone shows its first picture
    wrist = scene.hands[refused].landmarks[0, :2]
    real = vision.hands.plausible_hand

    def refuse_the_fist(points: np.ndarray, world: np.ndarray | None = None) -> bool:
        crop = crop_for_zone(scene.seat_map.seats[2].zone, scene.seat_map.frame_size)
        return real(points, world) and not np.allclose(crop.to_frame(points)[0, :2], wrist, atol=3.0)

    monkeypatch.setattr(vision.hands, "plausible_hand", refuse_the_fist)
    runs = _gated_and_every(scene, 80)
    unread = {name: [2 in r.unread and 2 not in r.hands for r in results] for name, results in runs.items()}
    assert all(unread["gated"]) and all(unread["every"])  # refused on every frame, looked at or repeated
    assert _looks(runs, 2)["gated"] <= 2  # the refusal is an answer gating repeats: no look on every frame


def test_a_picture_gives_grey_without_converting_to_bgr_and_bgr_as_decoded() -> None:
    rng = np.random.default_rng(3)
    bgr = cv2.GaussianBlur(rng.integers(0, 256, (64, 96, 3), dtype=np.uint8), (0, 0), 2.0)
    frame = av.VideoFrame.from_ndarray(bgr, format="bgr24").reformat(format="yuv420p")
    picture = Picture(0, 0.0, frame)
    grey = picture.grey
    assert picture._image is None  # the luma plane, no colour conversion
    expected = cv2.cvtColor(frame.to_ndarray(format="bgr24"), cv2.COLOR_BGR2GRAY).astype(int)
    assert grey.shape == (64, 96) and np.abs(grey.astype(int) - expected).mean() < 2.5
    assert np.array_equal(picture.image, frame.to_ndarray(format="bgr24"))
    rotated = Picture(0, 0.0, frame, rotation=90)
    assert rotated.grey.shape == (96, 64) and rotated.image.shape == (96, 64, 3)
    given = Picture(0, 0.0, image=bgr)  # an array (the nights, tests): grey from it
    assert np.array_equal(given.grey, cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY))


def _looks(runs: dict[str, list[FrameResult]], seat: int) -> dict[str, int]:
    return {name: sum(seat in r.looked for r in results) for name, results in runs.items()}


def _hands(runs: dict[str, list[FrameResult]]) -> dict[str, list[list[int]]]:
    return {name: [sorted(r.hands) for r in results] for name, results in runs.items()}


def test_an_empty_zone_is_believed_after_one_look() -> None:
    scene = Scene(_three_seats())  # nothing on the table: one look finds nothing, and nothing changes after it
    runs = _gated_and_every(scene, 40)
    assert _hands(runs)["gated"] == _hands(runs)["every"] == [[]] * 40
    assert _looks(runs, 1)["gated"] == 1  # no second run to agree with the miss


def test_a_zone_showing_something_the_detector_misses_is_looked_at_less_and_less_often() -> None:
    # a fresh look carries no miss over, so a still zone showing something new is looked at again rather than its
    # miss repeated; the looks thin out the longer it stays so
    scene = Scene(_three_seats())
    scene.show(scene.hand(1, "fist"), range(10, 200), missed=True)  # in view from frame 10, never found
    runs = _gated_and_every(scene, 200)
    assert _hands(runs)["gated"] == _hands(runs)["every"] == [[]] * 200
    looked = [i for i, r in enumerate(runs["gated"]) if 1 in r.looked]
    assert set(range(12, 20)) <= set(looked)  # every frame while it is new (once still for SCHEDULE.relook_still)
    assert len(looked) < 190 / 3  # then rarer: not every frame of the 190 it stays
    gaps = np.diff([i for i in looked if i >= 12])
    assert list(gaps) == sorted(gaps)  # the interval only grows ...
    assert max(gaps) <= 200 // SCHEDULE.doubt_backoff + 1  # ... and never leaves the zone alone for long


def _flipping_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat's hand read as a fist and an open palm by turns, one reading per detector run (a resting thumb-up
    fist whose readings flicker, as MediaPipe's do on real footage)."""
    import vision.hands

    real = vision.hands.classify
    calls = iter(range(10**6))

    def flicker(points: np.ndarray, world: np.ndarray | None = None) -> Pose:
        pose = real(points, world)
        return replace(pose, pose="open_palm" if next(calls) % 2 else "fist")

    monkeypatch.setattr(vision.hands, "classify", flicker)


@pytest.mark.parametrize("flickers", [False, True])
def test_a_settled_hand_is_rechecked_until_its_readings_agree(monkeypatch: pytest.MonkeyPatch, flickers: bool) -> None:
    scene = Scene(_three_seats())
    scene.show(scene.hand(1, "fist"), range(20, 300))  # lands on an empty zone, rests to the end
    if flickers:
        _flipping_reads(monkeypatch)
    runs = _gated_and_every(scene, 300, replace(DEFAULT, second_look=False))  # each reading as read
    assert _hands(runs)["gated"] == _hands(runs)["every"] == [[]] * 20 + [[1]] * 280
    looked = [i for i, r in enumerate(runs["gated"]) if 1 in r.looked]
    assert looked[:3] == [0, 20, 21]  # the first frame, the landing and its agreeing run
    if flickers:  # readings that differ keep the periodic re-checks going, to the end
        assert len(looked) >= 3 + 6 and looked[-1] >= 300 - SCHEDULE.refresh_max
    else:
        assert len(looked) == 1 + 2 + 1  # one re-check on the settled picture, which agrees: no more


@pytest.mark.parametrize("pose", ["fist", "open_palm"])
def test_a_steady_zone_is_not_looked_at_for_a_resting_hands_jitter_and_a_landing_keeps_its_frame(pose: str) -> None:
    scene = Scene(_three_seats())
    jitter = [scene.hand(1, pose, dx=0), scene.hand(1, pose, dx=2)]  # a resting hand shifting 2 px to and fro
    for i in range(30, 120):
        scene.show(jitter[i % 2], range(i, i + 1))
    assert sum(_crop_changes(scene, 1, 120)[30:]) >= 85  # change gating's margin sees every shift
    runs = _gated_and_every(scene, 120)
    assert _hands(runs)["gated"] == _hands(runs)["every"] == [[]] * 30 + [[1]] * 90
    looked = [i for i, r in enumerate(runs["gated"]) if 1 in r.looked]
    readings = 3 if pose == "open_palm" else 2  # an open reading, which alone makes a wrong_form, needs a third
    assert looked[:1 + readings] == [0, *range(30, 30 + readings)]  # the first frame, the landing, agreeing runs
    assert len(looked) <= 1 + readings + 90 // 12  # then only the periodic re-checks (the jitter keeps the picture
    # from settling)
