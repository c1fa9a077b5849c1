"""The detector's looks follow the hands in the zones, not the frames (vision.detect's zone_gating,
still_lead, refused_repeat, sparse_motion, miss_stands, doubt_backoff, settled_recheck and
steady_gate), and a frame is converted to BGR only where a look needs it (vision.video.Picture).

On the scripted detector (tests/fakes.py): what each rule saves is counted in looks, and what the detector
reports with it on is what it reports with it off.
"""

from __future__ import annotations

from dataclasses import replace

import av
import cv2
import numpy as np
import pytest
from fakes import FPS, FakeBackend, Scene

from contract.seats import SeatMap, seat_map_from_json
from vision.detect import FrameResult, SeatDetector
from vision.options import DEFAULT, VisionOptions
from vision.pose import Pose
from vision.video import Picture


def _three_seats() -> SeatMap:
    """Three 120-px square seat zones in a row on a 640 x 360 picture (each crop reaches 30 px past its zone)."""
    seats = {str(n): {"zone": [[x, 200], [x + 120, 200], [x + 120, 320], [x, 320]]} for n, x in ((1, 40), (2, 260), (3, 480))}
    return seat_map_from_json({"format": "stopframe-seats/1", "frame_size": [640, 360], "seats": seats})


BASE = replace(DEFAULT, still_lead=True, sparse_motion=False, steady_gate=False, settled_recheck=False)


def _on_off(scene: Scene, frames: int, rule: str, base: VisionOptions = BASE) -> dict[str, list[FrameResult]]:
    """Every frame's result with a gating rule on and off; the periodic re-check of a still zone, moving zones and
    holding's margin for gating stay out of both unless it is the rule (or `base` says otherwise), so only what the
    rule changes counts."""
    out = {}
    for name, value in (("on", True), ("off", False)):
        options = replace(base, **{rule: value})
        with SeatDetector(scene.seat_map, resting=True, options=options, backend=FakeBackend(scene)) as detector:
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


def test_zone_gating_looks_only_where_the_zone_changes_and_reports_the_same_hands() -> None:
    scene = _busy_scene(60)
    runs = _on_off(scene, 60, "zone_gating")
    looks = {name: sum(1 in r.looked for r in results) for name, results in runs.items()}
    hands = {name: [sorted(r.hands) for r in results] for name, results in runs.items()}
    assert hands["on"] == hands["off"] == [[]] * 20 + [[1]] * 40
    assert looks["off"] == 60  # the crop changes on every frame
    assert looks["on"] <= 6  # the first runs, the landing and the runs that agree on it


def test_a_still_zone_showing_its_first_picture_is_not_rechecked() -> None:
    scene = Scene(_three_seats())
    scene.show(scene.hand(2, "fist"), range(0, 200))  # resting since before the window: its first picture
    runs = _on_off(scene, 200, "still_lead")
    looks = {name: sum(len(r.looked) for r in results) for name, results in runs.items()}
    hands = {name: [sorted(r.hands) for r in results] for name, results in runs.items()}
    assert hands["on"] == hands["off"] == [[2]] * 200
    assert looks["on"] == 2 + 1 + 1  # seat 2: the two runs that agree, seats 1 and 3 one run (miss_stands), then nothing
    assert looks["off"] > looks["on"] + 3 * 5  # the periodic re-checks of the old gating


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
    runs = _on_off(scene, 90, "sparse_motion")
    looks = {name: sum(1 in r.looked for r in results) for name, results in runs.items()}
    palms = {name: _seat_1_by_frame(results) for name, results in runs.items()}
    assert [p is not None for p in palms["on"]] == [False] * 41 + [True] * 29 + [False] * 20
    assert palms["on"][45:] == palms["off"][45:]  # in its place from the frame it lands on (skipped, then pinned)
    assert any(1 in r.pinned for r in runs["on"])  # the landing came on a frame skipped in flight
    assert looks["on"] < looks["off"] - 10  # the sweep's frames: one look in MOTION_STEP


def test_a_refused_reading_is_repeated_by_gating_with_its_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.detect

    scene = Scene(_three_seats())
    refused = scene.hand(2, "fist")
    scene.show(refused, range(0, 80))  # there from the first frame: no look_on_miss (the zone shows its lead)
    wrist = scene.hands[refused].landmarks[0, :2]
    real = vision.detect.plausible_hand

    def refuse_the_fist(points: np.ndarray, world: np.ndarray | None = None) -> bool:
        crop = vision.detect.crop_for_zone(scene.seat_map.seats[2].zone, scene.seat_map.frame_size)
        return real(points, world) and not np.allclose(crop.to_frame(points)[0, :2], wrist, atol=3.0)

    monkeypatch.setattr(vision.detect, "plausible_hand", refuse_the_fist)
    runs = _on_off(scene, 80, "refused_repeat")
    looks = {name: sum(2 in r.looked for r in results) for name, results in runs.items()}
    unread = {name: [2 in r.unread and 2 not in r.hands for r in results] for name, results in runs.items()}
    assert all(unread["on"]) and all(unread["off"])  # refused on every frame, looked at or repeated
    assert looks["off"] == 80 and looks["on"] <= 2


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
    runs = _on_off(scene, 40, "miss_stands")
    assert _hands(runs)["on"] == _hands(runs)["off"] == [[]] * 40
    assert _looks(runs, 1) == {"on": 1, "off": 2}


def test_a_zone_showing_something_the_detector_misses_is_looked_at_less_and_less_often() -> None:
    scene = Scene(_three_seats())
    scene.show(scene.hand(1, "fist"), range(10, 200), missed=True)  # in view from frame 10, never found
    runs = _on_off(scene, 200, "doubt_backoff")
    assert _hands(runs)["on"] == _hands(runs)["off"] == [[]] * 200
    looks = _looks(runs, 1)
    assert looks["off"] >= 185  # look_on_miss: every frame from the landing on
    assert looks["on"] < looks["off"] / 3
    looked = [i for i, r in enumerate(runs["on"]) if 1 in r.looked]
    assert set(range(12, 20)) <= set(looked)  # every frame while it is new (once still for RELOOK_STILL frames)
    assert max(np.diff(looked)) <= 200 // 8 + 1  # and never left alone for long


def _flipping_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat's hand read as a fist and an open palm by turns, one reading per detector run (a resting thumb-up
    fist whose readings flicker, as MediaPipe's do on real footage)."""
    import vision.detect

    real = vision.detect.classify
    calls = iter(range(10**6))

    def flicker(points: np.ndarray, world: np.ndarray | None = None) -> Pose:
        pose = real(points, world)
        return replace(pose, pose="open_palm" if next(calls) % 2 else "fist")

    monkeypatch.setattr(vision.detect, "classify", flicker)


@pytest.mark.parametrize("flickers", [False, True])
def test_a_settled_hand_is_rechecked_until_its_readings_agree(monkeypatch: pytest.MonkeyPatch, flickers: bool) -> None:
    scene = Scene(_three_seats())
    scene.show(scene.hand(1, "fist"), range(20, 300))  # lands on an empty zone, rests to the end
    if flickers:
        _flipping_reads(monkeypatch)
    runs = _on_off(scene, 300, "settled_recheck", base=replace(BASE, second_look=False))  # each reading as read
    assert _hands(runs)["on"] == _hands(runs)["off"] == [[]] * 20 + [[1]] * 280
    looks = _looks(runs, 1)
    assert looks["off"] >= 2 + 6  # the landing and its agreeing run, then the periodic re-checks
    if flickers:
        assert looks["on"] == looks["off"]  # readings that differ keep the re-checks going
    else:
        assert looks["on"] == 1 + 2 + 1  # the first frame, the landing and its agreeing run, one re-check on the
        # settled picture, which agrees: no more


@pytest.mark.parametrize("pose", ["fist", "open_palm"])
def test_a_steady_zone_is_not_looked_at_for_a_resting_hands_jitter_and_a_landing_keeps_its_frame(pose: str) -> None:
    scene = Scene(_three_seats())
    jitter = [scene.hand(1, pose, dx=0), scene.hand(1, pose, dx=2)]  # a resting hand shifting 2 px to and fro
    for i in range(30, 120):
        scene.show(jitter[i % 2], range(i, i + 1))
    runs = _on_off(scene, 120, "steady_gate")
    assert _hands(runs)["on"] == _hands(runs)["off"] == [[]] * 30 + [[1]] * 90
    looks = _looks(runs, 1)
    assert looks["off"] >= 85  # change gating's margin sees every shift
    looked = [i for i, r in enumerate(runs["on"]) if 1 in r.looked]
    readings = 3 if pose == "open_palm" else 2  # an open reading, which alone makes a wrong_form, needs a third
    assert looked[:1 + readings] == [0, *range(30, 30 + readings)]  # the first frame, the landing, agreeing runs
    assert len(looked) <= 1 + readings + 90 // 12  # then only the periodic re-checks (the jitter keeps the picture
    # from settling)
