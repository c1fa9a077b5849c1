"""Frames -> hand intervals: hysteresis closes short drop-outs, drops blips, never moves an onset."""

from __future__ import annotations

from vision.intervals import Sighting, majority_pose, runs_from_sightings

FPS = 25


def seen(pattern: str, start: int = 0, pose: str = "fist") -> list[Sighting]:
    """'x' = hand seen, '.' = not seen, one character per frame."""
    return [Sighting(start + i, (start + i) / FPS, c == "x", pose if c == "x" else "other", 0.9 if c == "x" else 0.0,
                     0.8) for i, c in enumerate(pattern)]


def spans(pattern: str, gap: int = 4, min_run: int = 3) -> list[tuple[int, int]]:
    s = seen(pattern)
    return [(r.on_frame, r.off_frame) for r in runs_from_sightings(s, len(s), len(s) / FPS, gap, min_run)]


def test_onset_is_the_first_frame_seen_and_offset_the_first_frame_without() -> None:
    assert spans("....xxxxxxxx....") == [(4, 12)]


def test_short_detector_dropouts_are_closed() -> None:
    assert spans("..xxxx....xxxx..", gap=4) == [(2, 14)]
    assert spans("..xxxx.....xxxx..", gap=4) == [(2, 6), (11, 15)]


def test_blips_shorter_than_the_minimum_are_dropped() -> None:
    assert spans("..x......xx.......xxx...", min_run=3) == [(18, 21)]


def test_hand_still_there_when_the_window_ends_ends_with_the_window() -> None:
    s = seen("...xxxxxxxxxx", start=100)
    [run] = runs_from_sightings(s, 113, 113 / FPS)
    assert (run.on_frame, run.off_frame, run.on, run.off) == (103, 113, 103 / FPS, 113 / FPS)


def test_confidence_drops_with_the_gaps_that_were_bridged() -> None:
    full = runs_from_sightings(seen("xxxxxxxx"), 8, 8 / FPS)[0]
    holey = runs_from_sightings(seen("xx..xx.x"), 8, 8 / FPS)[0]
    assert holey.confidence < full.confidence <= 1


def test_strided_sightings_use_frame_distances() -> None:
    s = [Sighting(i, i / FPS, i in (10, 12, 14, 20, 22), "fist", 0.9, 0.5) for i in range(0, 30, 2)]
    runs = runs_from_sightings(s, 30, 30 / FPS, gap_frames=4, min_run_frames=3)
    assert [(r.on_frame, r.off_frame) for r in runs] == [(10, 16), (20, 24)]


def test_majority_pose_weights_clear_readings_and_ties_favour_a_fist() -> None:
    clear = [Sighting(i, 0, True, "open_palm", 0.9, 1.0) for i in range(3)]
    vague = [Sighting(i, 0, True, "fist", 0.9, 0.0) for i in range(5)]
    assert majority_pose(clear + vague) == "open_palm"
    tie = [Sighting(0, 0, True, "finger", 0.9, 0.5), Sighting(1, 0, True, "fist", 0.9, 0.5)]
    assert majority_pose(tie) == "fist"


def test_onset_is_when_the_hand_comes_to_rest_and_offset_when_it_starts_to_leave() -> None:
    # A hand swoops into the zone over frames 10-12 (moving 30, 20, 8 px a frame: palm 40 px), rests
    # from 13 to 29 with 1-px jitter, and slides out from frame 30 while still seen until 32.
    xs = {10: 0.0, 11: 30.0, 12: 50.0, 13: 58.0}
    xs.update({i: 58.0 + (i % 2) for i in range(14, 30)})
    xs.update({30: 68.0, 31: 90.0, 32: 120.0})
    s = [Sighting(i, i / FPS, i in xs, "fist", 0.9, 0.5, xs.get(i, 0.0), 100.0, 40.0) for i in range(5, 40)]
    [run] = runs_from_sightings(s, 40, 40 / FPS)
    assert (run.on_frame, run.off_frame) == (13, 30)


def test_a_hand_that_never_stops_keeps_its_whole_run() -> None:
    s = [Sighting(i, i / FPS, True, "open_palm", 0.9, 0.5, 20.0 * i, 100.0, 40.0) for i in range(10)]
    [run] = runs_from_sightings(s, 10, 10 / FPS)
    assert (run.on_frame, run.off_frame) == (0, 10)
