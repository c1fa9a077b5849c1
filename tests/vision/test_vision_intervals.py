"""Frames -> hand intervals: hysteresis closes short drop-outs, drops blips, never moves an onset."""

from __future__ import annotations

from vision.intervals import MIN_SUPPORT, Sighting, majority_pose, runs_from_sightings

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
    # A hand swoops into the zone over frames 10-12 (moving 30, 20, 14 px a frame: palm 40 px), rests
    # from 13 to 29 with 1-px jitter, and slides out from frame 30 while still seen until 32.
    xs = {10: 0.0, 11: 30.0, 12: 44.0, 13: 58.0}
    xs.update({i: 58.0 + (i % 2) for i in range(14, 30)})
    xs.update({30: 68.0, 31: 90.0, 32: 120.0})
    s = [Sighting(i, i / FPS, i in xs, "fist", 0.9, 0.5, xs.get(i, 0.0), 100.0, 40.0) for i in range(5, 40)]
    [run] = runs_from_sightings(s, 40, 40 / FPS)
    assert (run.on_frame, run.off_frame) == (13, 30)


def test_a_shaking_camera_does_not_unsettle_a_resting_hand() -> None:
    # Camera shake moves a resting hand 2-4 px a frame (palm 16 px): it lands at frame 3, leaves at 16.
    xs = {3: 100.0, 4: 102.0, 5: 103.5, 6: 103.0, 7: 99.0, 8: 100.0, 9: 99.5, 10: 95.0, 11: 95.5, 12: 96.5,
          13: 96.0, 14: 96.0, 15: 97.0}
    s = [Sighting(i, i / FPS, i in xs, "fist", 0.9, 0.5, xs.get(i, 0.0), 100.0, 16.0) for i in range(20)]
    [run] = runs_from_sightings(s, 20, 20 / FPS)
    assert (run.on_frame, run.off_frame) == (3, 16)


def test_a_hand_that_never_stops_keeps_its_whole_run() -> None:
    s = [Sighting(i, i / FPS, True, "open_palm", 0.9, 0.5, 20.0 * i, 100.0, 40.0) for i in range(10)]
    [run] = runs_from_sightings(s, 10, 10 / FPS)
    assert (run.on_frame, run.off_frame) == (0, 10)


def test_frames_where_the_hand_was_found_but_unreadable_do_not_split_a_resting_hand() -> None:
    # Frames 8-19: the detector found something in the zone that the plausibility check refused.
    s = seen("..xxxxxx............xxxxxxxxxx..")
    s = [Sighting(x.index, x.t, False, unread=True) if 8 <= x.index < 20 else x for x in s]
    assert [(r.on_frame, r.off_frame) for r in runs_from_sightings(s, len(s), len(s) / FPS)] == [(2, 30)]


def test_unreadable_frames_alone_make_no_hand() -> None:
    s = [Sighting(i, i / FPS, False, unread=True) for i in range(30)]
    assert runs_from_sightings(s, 30, 30 / FPS) == []


def test_a_pause_in_mid_swoop_is_not_the_landing() -> None:
    # The hand hovers at frames 5-6, moves on 9 and 16 px (palm 40) and comes to rest at frame 8.
    xs = {5: 0.0, 6: 1.0, 7: 10.0, 8: 26.0}
    xs.update({i: 26.0 + (i % 2) for i in range(9, 30)})
    s = [Sighting(i, i / FPS, i in xs, "fist", 0.9, 0.5, xs.get(i, 0.0), 100.0, 40.0) for i in range(35)]
    [run] = runs_from_sightings(s, 35, 35 / FPS)
    assert run.on_frame == 8


def test_a_prop_found_once_and_then_only_repeated_by_gating_makes_no_hand() -> None:
    # Found by the detector on frames 10 and 11, then its answer repeated (gated or held) to frame 40 while
    # the detector, running every 6th frame, never found it again.
    s = [Sighting(i, i / FPS, 10 <= i <= 40, "fist", 0.9, 0.5, 50.0, 50.0, 20.0, looked=i in (10, 11) or i % 6 == 0,
                  repeat=i not in (10, 11)) for i in range(50)]
    assert runs_from_sightings(s, 50, 50 / FPS, min_support=MIN_SUPPORT) == []
    held = [Sighting(x.index, x.t, x.present, x.pose, x.score, x.pose_margin, x.x, x.y, x.palm, looked=x.looked,
                     repeat=x.repeat and x.index % 6 != 0) for x in s]  # found on every look: a resting hand
    assert [(r.on_frame, r.off_frame) for r in runs_from_sightings(held, 50, 50 / FPS, min_support=MIN_SUPPORT)] == [(10, 41)]


def test_a_resting_hand_refound_a_little_aside_after_unreadable_frames_rests_from_when_it_landed() -> None:
    # Lands at frame 10 (palm 15 px); frames 12-16 unreadable; re-found 9 px aside from frame 17 on.
    xs = {8: 0.0, 9: 20.0, 10: 40.0, 11: 40.5}
    xs.update({i: 49.0 for i in range(17, 40)})
    s = [Sighting(i, i / FPS, True, "fist", 0.9, 0.5, xs[i], 100.0, 15.0) if i in xs
         else Sighting(i, i / FPS, False, unread=12 <= i <= 16) for i in range(45)]
    [run] = runs_from_sightings(s, 45, 45 / FPS)
    assert run.on_frame == 10



def test_a_landing_hand_read_larger_in_motion_rests_from_when_it_stops() -> None:
    # From straight above a fist landing at 5 px a frame read a 43-px palm in motion and 28 px once down
    # (top_view_clean_vote): measured by its in-motion size the landing looked like rest 4 frames early.
    xs = {10: 0.0, 11: 4.0, 12: 8.0, 13: 12.0}  # landing at 4 px a frame, then at rest by 16 px
    xs.update({i: 16.0 + (i % 2) for i in range(14, 30)})
    palms = {10: 43.0, 11: 36.0, 12: 30.0}
    s = [Sighting(i, i / FPS, i in xs, "fist", 0.9, 0.5, xs.get(i, 0.0), 100.0, palms.get(i, 28.0)) for i in range(5, 40)]
    [run] = runs_from_sightings(s, 40, 40 / FPS)
    assert 12 <= run.on_frame <= 14  # within 2 frames of rest at frame 14 (by the 43-px palm: frame 10)


def test_a_still_hand_whose_landmarks_flip_between_two_readings_rests_from_when_it_landed() -> None:
    # A photo of a real fist, still from frame 12: MediaPipe alternates between a 41-px palm at x=337 and a
    # 15-px palm at x=322 (30 px apart by y too), so no three sightings in a row agree on where the palm is.
    # Before the readings' places were counted, the onset waited 18 frames for a stretch of one reading.
    flips = [(337.0, 491.0, 41.0), (322.0, 465.0, 15.0), (322.5, 466.0, 17.0), (337.5, 490.0, 42.0),
             (321.0, 464.0, 16.0), (338.0, 491.0, 41.0), (337.0, 490.5, 41.5)]
    place = {10: (250.0, 560.0, 40.0), 11: (300.0, 520.0, 40.0)}  # swooping in
    place.update({i: flips[(i * 3) % len(flips)] for i in range(12, 60)})
    s = [Sighting(i, i / FPS, i in place, "fist", 0.9, 0.5, *place.get(i, (0.0, 0.0, 0.0))) for i in range(5, 65)]
    [run] = runs_from_sightings(s, 65, 65 / FPS)
    assert 12 <= run.on_frame <= 14  # within 2 frames of the landing


def test_a_hand_leaving_the_way_it_came_does_not_make_its_arrival_a_rest() -> None:
    # Swoops in over frames 10-13 and leaves over the same places from 40: each place is passed twice, but
    # 30 frames apart, which is no rest.
    path = {10: 0.0, 11: 15.0, 12: 30.0, 13: 45.0}
    xs = dict(path)
    xs.update({i: 60.0 for i in range(14, 40)})
    xs.update({40: 45.0, 41: 30.0, 42: 15.0, 43: 0.0})
    s = [Sighting(i, i / FPS, i in xs, "fist", 0.9, 0.5, xs.get(i, 0.0), 100.0, 40.0) for i in range(5, 50)]
    [run] = runs_from_sightings(s, 50, 50 / FPS)
    assert (run.on_frame, run.off_frame) == (14, 40)
