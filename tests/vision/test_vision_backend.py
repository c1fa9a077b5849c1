"""The hand-detector back end (vision.backend): the day and night detectors' logic on a scripted detector
(tests/fakes.py), and MediaPipe behind the same interface on a real crop.

The fake answers exactly what its table says, so these tests pin what the detector makes of the answers:
on which frame a hand is reported, that an absent one stays absent, what gating and the nights' holding
repeat, and what the nights get (SeatHands.own).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from fakes import FPS, FakeBackend, Scene

from contract.seats import SeatMap, load_seat_map, seat_map_from_json
from vision.backend import HandBackend, MediaPipeBackend
from vision.crops import crop_for_zone
from vision.detect import FrameResult, SeatDetector
from vision.hands import SeatHands
from vision.night import observe_night
from vision.night_detect import NightDetector
from vision.observe import observe
from vision.options import DEFAULT
from vision.video import open_video

CLIP = Path(__file__).resolve().parents[2] / "sample_videos" / "clips" / "stress_compressed"


def _three_seats() -> SeatMap:
    """Three 120-px square seat zones in a row on a 640 x 360 picture, seats 1 and 2 with a raise zone above."""
    seats = {str(n): {"zone": [[x, 200], [x + 120, 200], [x + 120, 320], [x, 320]]} for n, x in ((1, 40), (2, 260), (3, 480))}
    for n, x in ((1, 40), (2, 260)):
        seats[str(n)]["raise"] = [[x, 20], [x + 140, 20], [x + 140, 140], [x, 140]]
    return seat_map_from_json({"format": "stopframe-seats/1", "frame_size": [640, 360], "seats": seats})


def _run(detector: SeatDetector | NightDetector, scene: Scene, frames: int) -> list[FrameResult | SeatHands]:
    return [detector.process(i, i / FPS, scene.frame(i)) for i in range(frames)]


def test_the_fake_answers_through_the_back_end_interface_in_the_crops_pixels() -> None:
    scene = Scene(_three_seats())
    fist = scene.hand(2, "fist", score=0.7)
    scene.show(fist, range(1))
    scene.show(fist, range(1, 2), missed=True)
    backend: HandBackend = FakeBackend(scene)
    for margin in (0.25, 0.1):  # the detector's crop and the second look's tighter one
        crop = crop_for_zone(scene.seat_map.seats[2].zone, scene.seat_map.frame_size, margin=margin)
        (found,) = backend.look(crop.cut(scene.frame(0)))
        assert found.score == 0.7
        assert np.allclose(crop.to_frame(found.landmarks)[:, :2], scene.hands[fist].landmarks[:, :2], atol=2.0)
        assert backend.look(crop.cut(scene.frame(1))) == []  # in view, but missed
    tracker = backend.tracker()
    assert len(tracker.detect(crop.cut(scene.frame(0)), 0.04)) == 1
    with pytest.raises(AssertionError, match="time went back"):
        tracker.detect(crop.cut(scene.frame(0)), 0.0)


@pytest.mark.parametrize("gating", [True, False])
def test_a_hand_found_from_frame_n_is_reported_from_n_and_absent_seats_stay_absent(gating: bool) -> None:
    scene = Scene(_three_seats())
    scene.show(scene.hand(2, "open_palm", score=0.8), range(10, 40))
    backend = FakeBackend(scene)
    with SeatDetector(scene.seat_map, gating=gating, options=DEFAULT, backend=backend) as detector:
        results = _run(detector, scene, 40)
    assert backend.trackers == []  # the default path: fresh looks only
    assert [sorted(r.hands) for r in results] == [[]] * 10 + [[2]] * 30
    hand = results[10].hands[2]
    assert hand.score == 0.8 and hand.pose.pose == "open_palm"  # the second look agreed
    assert 2 in results[10].fresh and 2 in results[10].looked
    skipped = sum(r.skipped for r in results)
    assert (skipped > 60) if gating else skipped == 0  # a still picture repeats the last runs' answer
    assert not backend.closed  # a given back end is its maker's to close


def test_an_open_reading_beside_a_refused_one_in_the_same_zone_is_no_form(monkeypatch: pytest.MonkeyPatch) -> None:
    # VisionOptions.lone_open: two hand-like things in one zone, one refused as no readable hand: which is the
    # vote is unknown, so the open palm's reading is no evidence of the form (its presence stands)
    import vision.hands

    scene = Scene(_three_seats())
    scene.show(scene.hand(2, "open_palm", score=0.9, size=25, dx=-25), range(12))
    refused = scene.hand(2, "fist", score=0.5, size=25, dx=25)
    scene.show(refused, range(6, 12))
    fist_wrist = scene.hands[refused].landmarks[0, :2]
    real = vision.hands.plausible_hand

    def refuse_the_fist(points: np.ndarray, world: np.ndarray | None = None) -> bool:
        crop = crop_for_zone(scene.seat_map.seats[2].zone, scene.seat_map.frame_size)
        return real(points, world) and not np.allclose(crop.to_frame(points)[0, :2], fist_wrist, atol=3.0)

    monkeypatch.setattr(vision.hands, "plausible_hand", refuse_the_fist)
    poses = {}
    for name, options in (("on", DEFAULT), ("off", replace(DEFAULT, lone_open=False))):
        with SeatDetector(scene.seat_map, gating=False, options=options,
                          backend=FakeBackend(scene)) as detector:
            poses[name] = [r.hands[2].pose.pose for r in _run(detector, scene, 12)]
    assert poses["on"] == ["open_palm"] * 6 + ["other"] * 6
    assert poses["off"] == ["open_palm"] * 12


def test_a_leaving_hand_goes_and_a_missed_one_is_never_reported() -> None:
    scene = Scene(_three_seats())
    scene.show(scene.hand(1, "fist"), range(5, 15))
    scene.show(scene.hand(3, "open_palm"), range(0, 30), missed=True)
    backend = FakeBackend(scene)
    with SeatDetector(scene.seat_map, options=DEFAULT, backend=backend) as detector:
        results = _run(detector, scene, 30)
    assert [sorted(r.hands) for r in results] == [[]] * 5 + [[1]] * 10 + [[]] * 15
    assert results[5].hands[1].pose.pose == "fist" and results[5].hands[1].thumb is not None  # the picture read it


def test_the_nights_tracking_streams_hold_a_missed_hand_on_an_unchanged_picture() -> None:
    scene = Scene(_three_seats())
    palm = scene.hand(2, "open_palm")
    scene.show(palm, range(0, 6))
    scene.show(palm, range(6, 12), missed=True)  # the tracker loses it on the very same picture
    backend = FakeBackend(scene)
    with NightDetector(scene.seat_map, gating=False, backend=backend) as detector:
        results = _run(detector, scene, 12)
    assert len(backend.trackers) == 3 and all(t.times == [i / FPS for i in range(12)] for t in backend.trackers)
    assert all(t.closed for t in backend.trackers)
    assert [sorted(r.hands) for r in results] == [[2]] * 12
    assert [2 in r.fresh for r in results] == [True] * 6 + [False] * 6  # frames 6-11: held, not found


def test_the_day_votes_are_fresh_looks_with_no_tracking_stream() -> None:
    scene = Scene(_three_seats())
    scene.show(scene.hand(2, "fist"), range(0, 3))
    backend = FakeBackend(scene)
    with SeatDetector(scene.seat_map, backend=backend) as detector:
        results = _run(detector, scene, 3)
    assert backend.trackers == [] and [sorted(r.hands) for r in results] == [[2]] * 3


def test_reset_gives_every_seat_a_fresh_tracking_stream() -> None:
    scene = Scene(_three_seats())
    backend = FakeBackend(scene)
    with NightDetector(scene.seat_map, backend=backend) as detector:
        _run(detector, scene, 3)
        first = list(backend.trackers)
        detector.reset()
        assert all(t.closed for t in first) and len(backend.trackers) == 6
        assert not any(t.closed for t in backend.trackers[3:])


def test_the_nights_get_every_hand_of_a_seats_own_crop_and_none_of_a_dark_one() -> None:
    scene = Scene(_three_seats())
    scene.show(scene.hand(2, "open_palm", score=0.6, size=25, dx=-30), range(4))
    scene.show(scene.hand(2, "fist", score=0.9, size=25, dx=30), range(4))
    scene.show(scene.hand(3, "open_palm"), range(4))
    dark = crop_for_zone(scene.seat_map.seats[3].zone, scene.seat_map.frame_size)
    backend = FakeBackend(scene)
    results = []
    with NightDetector(scene.seat_map, backend=backend) as detector:  # the nights' plain tracking streams
        for i in range(4):
            frame = scene.frame(i)
            frame[max(dark.y0, 0):dark.y0 + dark.side, max(dark.x0, 0):dark.x0 + dark.side] = 0
            results.append(detector.process(i, i / FPS, frame))
    assert sum(r.skipped for r in results) > 0  # what a gated run repeats too
    for result in results:
        assert result.hands[2].score == 0.9 and sorted(h.score for h in result.own[2]) == [0.6, 0.9]
        assert result.own[1] == [] and 3 not in result.own and result.dark == {3}


def test_observe_reports_the_scripted_frames(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scene = Scene(_three_seats())
    scene.show(scene.hand(2, "open_palm", score=0.8), range(20, 70))
    scene.show(scene.hand(1, "fist", score=0.8), range(30, 90))
    scene.show(scene.hand(3, "open_palm"), range(100), missed=True)
    backend = FakeBackend(scene)
    monkeypatch.setattr("vision.observe.SeatDetector", partial(SeatDetector, backend=backend))
    seen = observe(scene.write(tmp_path / "vote.mkv", 100), scene.seat_map, jobs=1)
    assert [(h.seat, h.on_frame, h.off_frame, h.pose) for h in seen.hands] == [(2, 20, 70, "open_palm"),
                                                                               (1, 30, 90, "fist")]
    assert backend.looks > 0


def test_the_nights_see_a_raised_hand_through_the_back_end(tmp_path: Path) -> None:
    scene = Scene(_three_seats())
    scene.show(scene.hand(2, "open_palm", size=18, raised=True), range(50, 80))
    backend = FakeBackend(scene)
    seen = observe_night(scene.write(tmp_path / "night.mkv", 100), scene.seat_map, [(1.5, 3.5)], listen=False,
                         backend=backend).seen
    assert [(r.seat, r.up, r.down, r.fingers, r.fire) for r in seen.raised] == [(2, 2.0, 3.2, 4, None)]
    assert seen.blind == (3, 4, 5, 6, 7, 8, 9, 10) and backend.trackers and all(t.closed for t in backend.trackers)


@pytest.mark.slow
def test_mediapipe_behind_the_interface_finds_the_resting_fist_on_a_real_crop() -> None:
    seats = load_seat_map(f"{CLIP}.seats.json")
    crop = crop_for_zone(seats.seats[3].zone, seats.frame_size)
    with open_video(f"{CLIP}.mp4") as video:
        picture = crop.cut(video.frame_at(290))  # seat 3's fist resting beside a white capsule
    backend: HandBackend = MediaPipeBackend("full", min_confidence=0.1)
    tracker = backend.tracker()
    try:
        looks = [backend.look(picture) for _ in range(2)]
        tracked = tracker.detect(picture, 0.0)
    finally:
        tracker.close()
        backend.close()
    for found in (looks[0], tracked):
        points = [crop.to_frame(h.landmarks) for h in found]
        assert [seats.seat_at(*p[[0, 5, 9, 13, 17], :2].mean(axis=0)) for p in points] == [3]
        assert 0.0 < found[0].score <= 1.0 and found[0].world is not None and found[0].handedness in ("Left", "Right")
    # a look keeps no state, so one landmarker serves every seat's looks and the second looks
    assert all(np.array_equal(a.landmarks, b.landmarks) for a, b in zip(*looks, strict=True))
