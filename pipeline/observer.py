"""What looks at a game video, as the rest of the pipeline sees it: the `Observer` protocol, the product's
observer (vision) and the one door the app and the command line go through to observe a video.

    observe_video(video, seat_map, windows, model=…, gating=…, progress=…) -> Observations
    observe_game(video, seat_map, vote_windows, model=…, progress=…) -> Observations

Its own module so that the audit (pipeline.audit) and the several-camera merge (pipeline.cameras) both name
the type without importing each other. vision is imported only when a video really has to be looked at, so an
audit from saved observations never loads cv2 or MediaPipe.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from contract.clock import Clock
from contract.errors import StopframeError
from contract.i18n import _
from contract.observations import Observations
from contract.seats import SeatMap
from review.game.timeline import VoteWindow, analysis_windows, vote_rounds

Say = Callable[[str], None]
Spans = Sequence[tuple[float, float]]
Progress = Callable[[int, int], None]  # (frames done, frames to do)


class Observer(Protocol):
    """What looks at a game video: the day's hands in some windows, the nights' raised hands and shown
    numbers, and the video's own clock (to tell saved observations of another encoding, and to put the
    audit's evidence on the video's frames at a variable frame rate)."""

    def day(self, video: Path, seat_map: SeatMap, windows: Spans, *, model: str,
            progress: Progress) -> Observations: ...

    def nights(self, video: Path, seat_map: SeatMap, shootings: Spans, checks: Spans, *,
               model: str) -> dict[str, Any]: ...

    def video_clock(self, video: Path) -> Clock | None: ...


def observe_video(video: str | os.PathLike[str], seat_map: SeatMap, windows: Spans | None = None, *,
                  model: str = "full", gating: bool = True, progress: Progress | None = None,
                  jobs: int | None = None) -> Observations:
    """The hands vision sees in `windows` of the video (None: the whole video), seat by seat: `stopframe
    observe`, the app's analysis and the audit's observer alike. `jobs`: vision's processes (None: its own
    choice)."""
    from vision.observe import observe

    return observe(video, seat_map, None if windows is None else list(windows), model=model, gating=gating,
                   progress=progress, jobs=jobs)


def observe_game(video: str | os.PathLike[str], seat_map: SeatMap, windows: Sequence[VoteWindow], *,
                 model: str = "full", progress: Progress | None = None) -> Observations:
    """The hands in the stretches of video worth looking at for a game's vote windows (the voting rounds with
    their margins, review.game.timeline); the whole video where the game has no vote window."""
    stretches = analysis_windows(vote_rounds(windows)) if windows else None
    return observe_video(video, seat_map, stretches or None, model=model, progress=progress)


class VisionObserver:
    """The product's observer: vision's detector (cv2 and MediaPipe load on the first look, not before)."""

    def day(self, video: Path, seat_map: SeatMap, windows: Spans, *, model: str,
            progress: Progress) -> Observations:
        return observe_video(video, seat_map, windows, model=model, progress=progress)

    def nights(self, video: Path, seat_map: SeatMap, shootings: Spans, checks: Spans, *,
               model: str) -> dict[str, Any]:
        from vision.night import observe_night

        fields: dict[str, Any] = observe_night(video, seat_map, shootings, checks, model=model).to_json_fields()
        return fields

    def video_clock(self, video: Path) -> Clock | None:
        """The opened video's clock, or None where it cannot be read here (then the frame rate check is
        skipped and the evidence frames follow the observations' stated rate)."""
        try:
            from vision.video import open_video

            with open_video(video) as src:
                return src.clock
        except (ImportError, StopframeError, AttributeError, OSError):
            return None


VISION = VisionObserver()


def every_tenth(say: Say, words: str) -> Progress:
    """vision reports (frames done, frames to do); tell the judge every tenth of the way, after `words`."""
    last = [-1]

    def report(done: int, total: int) -> None:
        step = int(10 * done / total) if total else 10
        if step != last[0]:
            last[0] = step
            say(_("{what} {done}/{total} frames", what=words, done=done, total=total))

    return report
