"""The one clock: seconds ↔ frames on a video's own clock, and the protocol-to-video offset.

A `Clock` is made from the decoded video's frame timestamps (`Clock.variable`, phone videos with a
variable frame rate) or from a stated frame rate (`Clock.constant`: a constant-rate video, or the
`fps` of a JSON file). `Clock.of_protocol` carries the protocol's `video.offset_s` (and, for a camera of
`videos` that drifts, its `drift_ppm` as a rate), and `video_time` is the only place where a protocol time becomes
a video time: video time = offset_s + protocol time × rate. Every other module asks the clock, so a
frame number means the same frame everywhere (the audit's evidence, the viewer, the reports) and
variable frame rates are right wherever a timestamped clock is at hand.
"""

from __future__ import annotations

import bisect
import math
import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from contract.errors import InvalidInput
from contract.i18n import _

TIME_EPS = 1e-3  # 1 ms: absorbs float error in times typed by people or computed from a frame rate
MAX_DRIFT_PPM = 1000.0  # a camera clock this far off (3.6 s an hour) is a typo or another game, not quartz drift


class TimeOutsideVideo(InvalidInput):
    """A time before the video's first frame or after its end, or a frame it does not have."""


@dataclass(frozen=True, order=True)
class FrameTime:
    """A frame and the time it starts on the video's clock: only a `Clock` makes one, so both agree."""

    frame: int
    seconds: float

    def __str__(self) -> str:
        minutes, sec = divmod(self.seconds, 60)
        return f"{int(minutes):02d}:{sec:06.3f} (frame {self.frame})"


@dataclass(frozen=True)
class Clock:
    """A video's frame clock (constant or timestamped) and the protocol-to-video offset."""

    fps: float | None  # the stated rate, the mean rate of a timestamped clock, or None: a protocol's times alone
    frame_count: int | None = None  # None where a JSON file states a rate but not the length
    starts: tuple[float, ...] | None = None  # each frame's start (first = 0); None at a constant rate
    offset_s: float = 0.0  # video time = offset_s + protocol time × rate
    rate: float = 1.0  # video seconds per protocol second: 1 + drift_ppm·10⁻⁶ of a camera whose clock drifts

    @classmethod
    def constant(cls, fps: float, frame_count: int | None = None) -> Clock:
        """A constant frame rate: a frame starts every 1/fps seconds."""
        if not fps > 0:
            raise InvalidInput(_("a frame rate must be above 0, not {fps}", fps=f"{fps:g}"))
        return cls(float(fps), frame_count)

    @classmethod
    def variable(cls, stamps: Sequence[int], time_base: Fraction, fps: float) -> Clock:
        """The decoded video's own presentation timestamps (increasing, in `time_base` units), each frame's start
        exact to the last bit; `fps` is the rate the container states, kept where the frames span no time."""
        if not stamps:
            raise InvalidInput(_("a timestamped clock needs at least one frame"))
        first, num, den = stamps[0], time_base.numerator, time_base.denominator
        span = (stamps[-1] - first) * time_base
        starts = tuple((p - first) * num / den for p in stamps)  # int / int: rounded once, as float(Fraction)
        return cls((len(stamps) - 1) / float(span) if span else fps, len(stamps), starts)

    @classmethod
    def protocol_to(cls, offset_s: float, drift_ppm: float = 0.0) -> Clock:
        """Protocol times onto one camera's seconds (`videos[]`: its offset and drift), no frames known."""
        return cls(None, offset_s=float(offset_s), rate=1.0 + float(drift_ppm) * 1e-6)

    @classmethod
    def of_protocol(cls, data: Mapping[str, Any], frames: Clock | None = None) -> Clock:
        """The protocol's `video.offset_s` (0 where it states none), with the drift of the camera of `videos`
        whose file `video.path` names (the validator keeps them on one clock), on the video's frame clock
        `frames`; without one, a clock that turns protocol times into video seconds but knows no frames."""
        video = data.get("video") or {}
        offset = float(video.get("offset_s") or 0.0)
        rate = 1.0 + _drift_of(data, video.get("path")) * 1e-6
        if frames is not None:
            return replace(frames, offset_s=offset, rate=rate)
        return cls(None, offset_s=offset, rate=rate)

    def _rate(self) -> float:
        if self.fps is None:
            raise InvalidInput(_("this clock knows a protocol's times only, not the video's frames"))
        return self.fps

    @property
    def duration(self) -> float | None:
        """Seconds from the first frame's start to the last frame's end (None where the length is unknown)."""
        if self.frame_count is None or self.fps is None:
            return None
        if self.starts is None:
            return self.frame_count / self.fps
        n = len(self.starts)
        return self.starts[-1] + (self.starts[-1] / (n - 1) if n > 1 else 1 / self.fps)

    def video_time(self, protocol_t: float) -> float:
        """A protocol time on the video's clock: the one place the offset is added and the drift applied."""
        return self.offset_s + float(protocol_t) * self.rate

    def protocol_time(self, video_t: float) -> float:
        """A time on the video's clock back on the protocol's clock (`video_time` undone)."""
        return (float(video_t) - self.offset_s) / self.rate

    def moved_onto(self, other: Clock) -> tuple[float, float]:
        """(scale, shift) such that `other`'s video time = this clock's video time × scale + shift at the same
        protocol moment: one camera's times put on another camera's clock; exactly (1, 0) for the same clock
        and scale 1, shift = the offsets' difference, between two cameras that do not drift."""
        if (self.offset_s, self.rate) == (other.offset_s, other.rate):
            return 1.0, 0.0
        scale = other.rate / self.rate
        return scale, other.offset_s - self.offset_s * scale

    def frame(self, index: int) -> FrameTime:
        """Frame `index` and the time it starts."""
        if index < 0 or (self.frame_count is not None and index >= self.frame_count):
            last = "" if self.frame_count is None else f"..{self.frame_count - 1}"
            raise TimeOutsideVideo(_("frame {index} is outside the video's frames 0{last}", index=index, last=last))
        return FrameTime(index, index / self._rate() if self.starts is None else self.starts[index])

    def at(self, seconds: float) -> FrameTime:
        """The frame on screen at `seconds` of video time: the last one starting at or before it (1 ms tolerance)."""
        end = self.duration
        if seconds < -TIME_EPS or (end is not None and seconds > end + TIME_EPS):
            if seconds < 0:
                raise TimeOutsideVideo(_("{seconds} s is before the video starts", seconds=f"{seconds:.3f}"))
            raise TimeOutsideVideo(_("{seconds} s is after the video ends ({end} s)", seconds=f"{seconds:.3f}",
                                     end=f"{end:.3f}"))
        if self.starts is None:
            index = math.floor((seconds + TIME_EPS) * self._rate())
        else:
            index = bisect.bisect_right(self.starts, seconds + TIME_EPS) - 1
        if self.frame_count is not None:
            index = min(index, self.frame_count - 1)
        return self.frame(max(index, 0))

    def nearest(self, seconds: float) -> int:
        """The frame starting nearest to `seconds`, unchecked: a decoded frame's timestamp (which may stray by
        under half a frame from its slot) back to its index."""
        if self.starts is None:
            return int(round(seconds * self._rate()))
        i = bisect.bisect_left(self.starts, seconds)
        return min((j for j in (i - 1, i) if 0 <= j < len(self.starts)), key=lambda j: abs(self.starts[j] - seconds))

    def frames_in(self, seconds: float) -> float:
        """How many frames (fractional) a span of `seconds` holds at the clock's (mean) rate: a margin in frames."""
        return seconds * self._rate()

    def seconds_of(self, frames: float) -> float:
        """How long a span of `frames` frames lasts at the clock's (mean) rate: a gap counted in frames."""
        return frames / self._rate()

    def step(self, index: int, seconds: float) -> FrameTime:
        """The frame `seconds` after (or before) frame `index`, held to the video's first and last frames."""
        t = self.frame(index).seconds + seconds
        end = self.duration
        return self.at(min(max(t, 0.0), end if end is not None else t))


def same_file(path: str) -> str:
    """One spelling per file name, so `./a.mp4` and `a.mp4` (or `clips\\a.mp4`) name the same camera file."""
    return posixpath.normpath(path.replace("\\", "/"))


def _drift_of(data: Mapping[str, Any], path: Any) -> float:
    """`drift_ppm` of the camera in `videos` whose file is `path`, 0 where there is none; a malformed entry is
    the validator's to report, and is read here as no drift."""
    cameras = data.get("videos")
    if not isinstance(path, str) or not isinstance(cameras, list):
        return 0.0
    for camera in cameras:
        if isinstance(camera, Mapping) and isinstance(camera.get("path"), str) \
                and same_file(camera["path"]) == same_file(path):
            drift = camera.get("drift_ppm", 0.0)
            sound = isinstance(drift, int | float) and not isinstance(drift, bool) and math.isfinite(drift)
            return float(drift) if sound and abs(drift) <= MAX_DRIFT_PPM else 0.0
    return 0.0
