"""FrameTime: the one frame-exact time type (seconds on the video's clock + the frame index there).

Seconds alone drift through float arithmetic (0.04 * 26 != 1.04); a frame index alone loses the
clock of variable-frame-rate files. Carrying both lets every module compare frames exactly and
still print seconds to a judge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class FrameTime:
    seconds: float
    frame: int

    @classmethod
    def at_frame(cls, frame: int, fps: float) -> FrameTime:
        """The time of `frame` in a constant-frame-rate video (use VideoSource.time_of for real files)."""
        return cls(frame / fps, frame)

    @classmethod
    def at_seconds(cls, seconds: float, fps: float) -> FrameTime:
        """The frame on screen at `seconds` in a constant-frame-rate video (a 1 ms tolerance absorbs float error)."""
        frame = max(0, math.floor(seconds * fps + 1e-3 * fps))
        return cls(frame / fps, frame)

    def __str__(self) -> str:
        minutes, sec = divmod(self.seconds, 60)
        return f"{int(minutes):02d}:{sec:06.3f} (frame {self.frame})"
