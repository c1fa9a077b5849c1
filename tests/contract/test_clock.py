"""The one clock: seconds ↔ frames at constant and variable frame rates, and the protocol offset added once."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from fixtures.vision.make_clips import read_barcode, write_clip

from contract.clock import Clock, FrameTime, TimeOutsideVideo
from contract.errors import InvalidInput
from vision.video import open_video

VFR_TIMES = [i * 0.04 + (0.5 if i >= 30 else 0.0) + (0.013 if i % 3 == 1 else 0.0) for i in range(60)]
MS = Fraction(1, 1000)


def vfr_clock() -> Clock:
    return Clock.variable([round(t * 1000) for t in VFR_TIMES], MS, 25)


@pytest.fixture(scope="module")
def vfr_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_clip(tmp_path_factory.mktemp("clock") / "vfr.mp4", 60, times=VFR_TIMES)


@pytest.mark.parametrize("clock", [Clock.constant(25, 300), Clock.constant(30000 / 1001, 300),
                                   vfr_clock()], ids=["25fps", "29.97fps", "vfr"])
def test_seconds_to_frame_to_seconds_round_trips(clock: Clock) -> None:
    n = clock.frame_count
    assert n is not None
    for i in range(n):
        shown = clock.frame(i)
        assert clock.at(shown.seconds) == shown
        assert clock.nearest(shown.seconds) == i


def test_a_time_between_frames_is_the_frame_that_shows_it() -> None:
    cfr = Clock.constant(25, 100)
    assert cfr.at(0.0785).frame == 1  # frame 1 shows from 0.04 s to 0.08 s
    assert cfr.at(0.0795).frame == 2  # within 1 ms of frame 2's start: typed times carry no finer truth
    vfr = vfr_clock()
    assert vfr.at(1.5).frame == 29  # inside the half-second gap frame 29 is still on screen
    assert vfr.at(VFR_TIMES[30] - 0.01).frame == 29 and vfr.at(VFR_TIMES[30]).frame == 30
    assert vfr.at(1.5) == FrameTime(29, pytest.approx(VFR_TIMES[29]))
    assert str(vfr.frame(30)) == "00:01.700 (frame 30)"


def test_the_protocol_offset_is_added_once() -> None:
    clock = Clock.of_protocol({"video": {"offset_s": 2.5}}, Clock.constant(25, 1000))
    assert clock.offset_s == 2.5 and clock.fps == 25
    assert clock.video_time(10.0) == 12.5
    assert clock.at(clock.video_time(10.0)) == FrameTime(312, 12.48)
    assert clock.frame(312).seconds == 12.48  # frames are on the video's clock: no offset there
    assert Clock.of_protocol({}).video_time(3.0) == 3.0
    with pytest.raises(InvalidInput, match="not the video's frames"):
        Clock.of_protocol({"video": {"offset_s": 1}}).at(1.0)


def test_times_outside_the_video_are_refused() -> None:
    clock = Clock.constant(25, 100)  # 4 s
    with pytest.raises(TimeOutsideVideo, match="before the video starts"):
        clock.at(-0.5)
    with pytest.raises(TimeOutsideVideo, match=r"after the video ends \(4.000 s\)"):
        clock.at(4.2)
    with pytest.raises(TimeOutsideVideo, match=r"frame 100 is outside the video's frames 0..99"):
        clock.frame(100)
    assert clock.at(4.0).frame == 99  # the last frame stays on screen to the end
    assert clock.at(-0.0005).frame == 0  # within the 1 ms tolerance
    with pytest.raises(TimeOutsideVideo):
        Clock.constant(25).at(-1.0)  # a JSON file's stated rate knows no end, but a start
    assert Clock.constant(25).at(1e6).frame == 25_000_000


def test_bad_rates_are_refused() -> None:
    with pytest.raises(InvalidInput, match="above 0"):
        Clock.constant(0)
    with pytest.raises(InvalidInput, match="at least one frame"):
        Clock.variable([], MS, 25)


def test_the_video_builds_its_clock_from_its_own_timestamps(vfr_clip: Path) -> None:
    with open_video(vfr_clip) as v:
        clock = v.clock
        assert clock.starts is not None and clock.frame_count == v.meta.frame_count == 60
        assert clock.fps == v.meta.fps and clock.duration == v.meta.duration
        for i in (0, 1, 29, 30, 59):
            assert clock.frame(i).seconds == pytest.approx(VFR_TIMES[i], abs=1e-3)
            assert read_barcode(v.frame_at(clock.at(VFR_TIMES[i] + 0.005).frame)) == i


def test_stepping_by_seconds_follows_the_video_clock_at_a_variable_rate(vfr_clip: Path) -> None:
    """The viewer's «+1 s»: one second on the video's clock, not one second's worth of frames at the mean rate
    (which skips the half-second gap that holds frame 29 on screen and lands on frame 31)."""
    with open_video(vfr_clip) as v:
        clock = v.clock
        to = clock.step(10, 1.0)
        assert to.frame == clock.at(clock.frame(10).seconds + 1.0).frame == 29
        assert 10 + round(1.0 * v.meta.fps) == 31
        assert read_barcode(v.frame_at(to.frame)) == 29
        assert clock.step(2, -1.0).frame == 0 and clock.step(58, 5.0).frame == 59  # held to the ends
