"""The per-seat temporal model (vision.zone_model) on synthetic evidence: what the detector said, what the zone shows."""

from __future__ import annotations

import numpy as np

from vision.detect import enhance_dark
from vision.intervals import Sighting
from vision.zone_model import decode_runs, empty_frames, noise_sigma, viterbi

FPS = 25.0
CELLS = 200


def sightings(pattern: str) -> list[Sighting]:
    """x: found and looked, .: looked and missed, -: gated (not looked), u: refused as no readable hand."""
    out = []
    for i, c in enumerate(pattern):
        t = i / FPS
        if c == "x":
            out.append(Sighting(i, t, True, "fist", 0.9, 0.5, 100.0, 100.0, 20.0))
        else:
            out.append(Sighting(i, t, False, looked=c != "-", unread=c == "u"))
    return out


def zones(pattern: str, seed: int = 0) -> list[np.ndarray]:
    """e: the zone shows its empty background (noise sigma 2), h: a hand covers a third of its cells."""
    rng = np.random.default_rng(seed)
    background = rng.integers(60, 120, CELLS).astype(np.float32)
    out = []
    for c in pattern:
        z = background + rng.normal(0, 2, CELLS)
        if c == "h":
            z[: CELLS // 3] += 60
        out.append(np.clip(z, 0, 255).astype(np.uint8))
    return out


def runs(seen: str, zone: str | None) -> list[tuple[int, int]]:
    s = sightings(seen)
    z = zones(zone) if zone is not None else None
    return [(r.on_frame, r.off_frame)
            for r in decode_runs(s, z, noise_sigma(z or []), len(s), len(s) / FPS)]


def test_noise_is_estimated_from_the_zone_itself() -> None:
    assert 1.5 < noise_sigma(zones("e" * 30)) < 2.5


def test_a_flicker_of_two_detections_is_no_hand_and_a_hand_found_at_rest_is() -> None:
    assert runs("....xx....", None) == []
    # a run must also come to rest: the first sighting and the REST_FRAMES after it in one place (the landing rule)
    assert runs("....xxx......", None) == []
    assert runs("....xxxx......", None) == [(4, 8)]


def test_a_short_gap_of_misses_does_not_split_a_hand() -> None:
    assert runs("..xxxxx..xxxxx....", "eehhhhhhhhhhhheeee") == [(2, 14)]


def test_an_onset_never_moves_over_frames_that_show_the_empty_background() -> None:
    # the detector found the hand late on a gated, unchanged picture; the zone shows where the hand really came
    seen, zone = "....------xxxxxxx....", "eeeeeehhhhhhhhhhheeee"
    assert runs(seen, zone) == [(6, 17)]
    assert runs(seen, None) == [(10, 17)]  # detector evidence alone: the first detection


def test_detections_on_the_empty_background_are_vetoed() -> None:
    # a prop that lies in the zone since the window began looks like the background: never a hand
    assert runs("." * 30 + "xxxxxxxx" + "." * 30, "e" * 68) == []


def test_a_hand_refused_as_unreadable_is_bridged_while_the_zone_shows_it() -> None:
    assert runs("......xxxuuuuuuuuxxx..", "eeeeeehhhhhhhhhhhhhhee") == [(6, 20)]


def test_the_background_ignores_frames_with_a_detection() -> None:
    seen = sightings("......" + "x" * 4 + "u" * 12 + "......")
    z = zones("eeeeee" + "h" * 16 + "eeeeee")
    empty = empty_frames(z, seen, noise_sigma(z))
    assert empty[:6] == [True] * 6 and empty[6:22] == [False] * 16 and empty[22:] == [True] * 6


def test_viterbi_pays_for_every_switch() -> None:
    assert viterbi([1.0, 1.0, -0.5, 1.0]) == [True, True, True, True]
    assert viterbi([-1.0] * 3) == [False] * 3


def test_only_a_dark_crop_is_enhanced() -> None:
    lit = np.full((32, 32, 3), 90, np.uint8)
    assert enhance_dark(lit, lit[:, :, 0]) is lit
    dark = np.full((32, 32, 3), 20, np.uint8)
    bright = enhance_dark(dark, dark[:, :, 0])
    assert 50 <= float(bright.mean()) <= 70


def test_an_onset_moves_back_over_frames_that_show_the_very_picture_of_the_onset() -> None:
    # the hand landed at frame 6 and was refused as unreadable until frame 11: the zone shows the same picture
    # from 6 on, so the hand rests from 6 (the earlier frames 3-5, swooping in, show another picture)
    s = sightings("...xxxuuuuuxxxxxxxxxxxx....")
    s = [Sighting(x.index, x.t, True, "fist", 0.9, 0.5, 10.0 * x.index, 100.0, 20.0) if x.present and x.index < 6
         else x for x in s]  # moving 10 px a frame (half a palm): not yet at rest
    z = zones("eeehhhhhhhhhhhhhhhhhhhheeee")
    z[3:6] = [np.roll(c, 7 * (k + 1)) for k, c in enumerate(z[3:6])]  # the swoop: other cells covered each frame
    [run] = decode_runs(s, z, noise_sigma(z), len(s), len(s) / FPS)
    assert run.on_frame == 6
    [alone] = decode_runs(s, None, 0.0, len(s), len(s) / FPS)
    assert alone.on_frame == 11  # without the zone's pixels: the first sighting that stays put


def test_looked_misses_on_the_same_picture_weigh_as_one_miss() -> None:
    # a resting hand the detector loses for its last 20 frames, looked at on each (a still zone showing something
    # new is looked at again rather than its miss repeated): the zone still shows the hand, and twenty fresh looks at
    # one unchanged picture are one miss, not twenty, so the hand is carried until the zone empties
    seen, zone = "." * 8 + "x" * 8 + "." * 20 + "....", "e" * 8 + "h" * 28 + "eeee"
    assert runs(seen, zone) == [(8, 36)]
    # the same misses on a picture that changes from look to look (the covered cells shift) are each new evidence:
    # the hand ends where the detector lost it
    s, z = sightings(seen), zones(zone)
    z[16:36] = [np.roll(c, 9 * (k + 1)) for k, c in enumerate(z[16:36])]
    assert [(r.on_frame, r.off_frame) for r in decode_runs(s, z, noise_sigma(z), len(s), len(s) / FPS)] == [(8, 16)]
    assert runs("." * 8 + "." * 20 + "....", "e" * 8 + "h" * 20 + "eeee") == []  # misses alone never make a hand
