"""The observation contract (spec §6, `stopframe-observations/1`): what vision reports of the day and what
the audit reads, one type for each and one parser of the saved file.

Vision builds `Observations` from the video; review audits them; a saved file is read back through
`observations_from_json`, which checks it in full before a single finding is made from it: exit 2 where
the file is no observations file at all, exit 1 (naming the JSON path) where it is one but does not fit.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from contract.clock import Clock
from contract.errors import InvalidInput
from contract.fields import MAX_SECONDS, is_number, seat_problem
from contract.i18n import N_, _, number, term
from contract.jsonio import check_format, read_document, read_json

OBSERVATIONS_FORMAT = "stopframe-observations/1"
MAX_FPS = 1000.0  # no camera films faster; a larger figure is a corrupt file
POSES = ("fist", "thumb_up_fist", "open_palm", "finger", "other")  # what vision tells a hand's form by
FRAME_DRIFT_S, FRAME_DRIFT_SHARE = 0.5, 0.05  # how far a frame's time may stray from its interval's time
WINDOW_SLACK_S = 0.05  # observed stretches are cut at frame times; a vote needs them from t to the count
DOCUMENT = "observations file"  # the file's label, shown as term("document", ...) by contract.jsonio
NO_VIEW = N_("no usable view")  # why a seat was not seen, where the file does not say (read back by review.audit)


# ---------------------------------------------------------------- the types


@dataclass(frozen=True)
class HandInterval:
    """One hand resting in a seat's zone, `[on, off)`: off is the time of the first frame without it."""

    seat: int
    on: float
    off: float
    pose: str = "other"  # one of POSES
    confidence: float = 1.0
    on_frame: int | None = None
    off_frame: int | None = None
    pose_share: float = 1.0  # how steadily the frames agree on `pose` (0-1): the pose is a hint, this says how firm

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "on": round(self.on, 4), "off": round(self.off, 4), "pose": self.pose,
            "confidence": round(self.confidence, 3), "on_frame": self.on_frame, "off_frame": self.off_frame,
            "x_pose_share": round(self.pose_share, 3),
        }


class Unseen(TypedDict):
    """A stretch where vision had no usable view of a seat (dark, covered, no zone): kept as the JSON has it."""

    seat: int
    start: float
    end: float
    why: str


@dataclass(frozen=True)
class Observations:
    """Everything the audit needs from vision: hands, blind stretches, the frame rate and what was looked at."""

    hands: Sequence[HandInterval]
    fps: float
    unseen: Sequence[Unseen] = ()
    video: str | None = None
    # The stretches vision looked at (None: unknown, taken as everything); a vote outside them is not audited.
    windows: Sequence[tuple[float, float]] | None = None
    stats: dict[str, float] = field(default_factory=dict, compare=False)  # detector runs, timings (not saved)

    def covers(self, start: float, end: float) -> bool:
        if not self.windows:
            return True
        return any(a <= start + WINDOW_SLACK_S and end - WINDOW_SLACK_S <= b for a, b in self.windows)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": OBSERVATIONS_FORMAT,
            "video": self.video,
            "fps": self.fps,
            "hands": [h.to_json() for h in self.hands],
            "x_unseen": list(self.unseen),
        }
        if self.windows:
            data["x_windows"] = [[round(a, 4), round(b, 4)] for a, b in self.windows]
        return data

    @classmethod
    def from_json(cls, data: Any, where: str | os.PathLike[str] = "observations") -> Observations:
        """A `stopframe-observations/1` document, checked in full (observations_from_json)."""
        return observations_from_json(data, where)

    @classmethod
    def of(cls, observations: Observations | Mapping[str, Any]) -> Observations:
        """The observations themselves, or read from their JSON document."""
        if isinstance(observations, Observations):
            return observations
        if isinstance(observations, Mapping):
            return observations_from_json(observations)
        raise TypeError(f"not observations: {type(observations).__name__}")


def load_observations(path: str | os.PathLike[str]) -> Observations:
    """A saved observations file, read and checked in full."""
    return observations_from_json(read_json(path, DOCUMENT), path)


# ---------------------------------------------------------------- words


def show(value: Any) -> str:
    """A JSON value in a sentence, never Python's repr: the text "soon", 2.5, null, a list, an object."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"{value:g}" if math.isfinite(value) else _("a number that is not finite")
    if isinstance(value, str):
        text = value if len(value) <= 30 else value[:29] + "…"
        return _('the text "{text}"', text=text)
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, dict):
        return _("an object")
    return _("a value of another kind")


def secs(v: float) -> str:
    """A time in a refusal, as the reader writes it (`2,5 с`)."""
    return _("{value} s", value=number(v, 3))


# ---------------------------------------------------------------- observations


def read_observations(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A saved observations file as JSON; UnreadableInput (exit 2) when it is not one this program reads."""
    data = read_document(path, DOCUMENT, OBSERVATIONS_FORMAT)
    return data


def refuse(where: str, place: str, why: str) -> InvalidInput:
    return InvalidInput(f"{where}: {place}: {why}.")


def _time(where: str, place: str, v: Any) -> float:
    if not is_number(v):
        raise refuse(where, place, _("must be a time in seconds, not {value}", value=show(v)))
    if v < 0:
        raise refuse(where, place, _("{time} is before the video starts (times count from 0 s)", time=secs(v)))
    if v > MAX_SECONDS:
        raise refuse(where, place, _("{value} s is beyond any video", value=f"{v:g}"))
    return float(v)


def _seat(where: str, place: str, v: Any) -> int:
    why = seat_problem(v, show)
    if why:
        raise refuse(where, place, why)
    return int(v)


def _seat_span(where: str, at: str, item: Any, what: str, first: str, last: str) -> tuple[int, float, float]:
    """The seat and the two times of a hand interval or an unseen stretch (`what`), each refused with its place."""
    if not isinstance(item, dict):
        raise refuse(where, at, _("must be an object with seat, {first} and {last}, not {value}", first=first, last=last,
                                  value=show(item)))
    for name in ("seat", first, last):
        if name not in item:
            raise refuse(where, f"{at}.{name}", _("missing ({what} needs seat, {first} and {last})", what=term("needs", what),
                                                  first=first, last=last))
    return (_seat(where, f"{at}.seat", item["seat"]), _time(where, f"{at}.{first}", item[first]),
            _time(where, f"{at}.{last}", item[last]))


def observations_from_json(data: Any, where: str | os.PathLike[str] = "observations") -> Observations:
    """`stopframe-observations/1` JSON checked in full and read into `Observations`: the one parser of the file.

    UnreadableInput (exit 2) when it is not an observations document; InvalidInput (exit 1) naming the JSON
    path of the first thing that does not fit: fps, a hand interval (seat, times, off before on, frames
    counted at another frame rate), an unseen stretch or a looked-at window."""
    where = str(where)
    check_format(str(data.get("format", "")) if isinstance(data, Mapping) else None, where, DOCUMENT,
                 OBSERVATIONS_FORMAT, named="observations")
    fps = _fps(where, data)
    clock = Clock.constant(fps)
    hands = [_hand(where, f"hands[{i}]", h, clock) for i, h in enumerate(_hand_list(where, data))]
    video = data.get("video")
    return Observations(tuple(hands), fps, tuple(_unseen(where, data)), video if isinstance(video, str) else None,
                        _windows(where, data))


def _fps(where: str, data: Mapping[str, Any]) -> float:
    """The file's frame rate, refused where it is missing or no camera's: every frame number is read by it."""
    fps = data.get("fps")
    if not is_number(fps) or not 0 < fps <= MAX_FPS:
        raise refuse(where, "fps", _("must be the video's frame rate, a number above 0 and at most {most}, not {value}",
                                     most=f"{MAX_FPS:g}", value=show(fps) if "fps" in data else _("missing")))
    return float(fps)


def _hand_list(where: str, data: Mapping[str, Any]) -> list[Any]:
    """The raw list of hand intervals, refused where it is missing (naming a key the file has instead) or no list."""
    if "hands" not in data:
        stray = [k for k in data if not k.startswith("x_") and k not in ("format", "video", "fps", "hands", "unseen")]
        if stray:
            raise refuse(where, "hands", _('missing: the list of hand intervals (the file has "{key}" instead, which '
                                           "{format} does not know)", key=stray[0][:30], format=OBSERVATIONS_FORMAT))
        raise refuse(where, "hands", _("missing: the list of hand intervals"))
    raw = data["hands"]
    if not isinstance(raw, list):
        raise refuse(where, "hands", _("must be a list of hand intervals, not {value}", value=show(raw)))
    return raw


def _fraction(where: str, place: str, v: Any) -> float:
    """A share from 0 to 1 (a hand's confidence, its pose's steadiness), refused with its place otherwise."""
    if not is_number(v) or not 0 <= v <= 1:
        raise refuse(where, place, _("must be a number from 0 to 1, not {value}", value=show(v)))
    return float(v)


def _hand(where: str, at: str, h: Any, clock: Clock) -> HandInterval:
    """One hand interval at JSON path `at`, checked field by field in the order a judge would fix them."""
    seat, on, off = _seat_span(where, at, h, N_("a hand interval"), "on", "off")
    if off <= on:
        raise refuse(where, f"{at}.off", _("{off} is not after on {on} (an interval is [on, off))", off=secs(off),
                                           on=secs(on)))
    pose = h.get("pose", "other")
    if pose is None:
        pose = "other"
    if pose not in POSES:
        raise refuse(where, f"{at}.pose", _("{value} is no pose (known: {known})", value=show(pose),
                                             known=", ".join(POSES)))
    confidence = _fraction(where, f"{at}.confidence", h.get("confidence", 1.0))
    share = _fraction(where, f"{at}.x_pose_share", h.get("x_pose_share", 1.0))
    on_frame = _frame(where, f"{at}.on_frame", h.get("on_frame"), on, clock)
    off_frame = _frame(where, f"{at}.off_frame", h.get("off_frame"), off, clock)
    return HandInterval(seat, on, off, str(pose), confidence, on_frame, off_frame, share)


def _frame(where: str, place: str, n: Any, t: float, clock: Clock) -> int | None:
    """A hand's frame number (None where absent), refused where it is no frame or lies far from its time `t`:
    frames counted at another rate than the file's fps would put every vote at the wrong moment."""
    if n is None:
        return None
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise refuse(where, place, _("must be a frame number (0 or more), not {value}", value=show(n)))
    starts = clock.frame(n).seconds
    if abs(starts - t) > FRAME_DRIFT_S + FRAME_DRIFT_SHARE * t:
        raise refuse(where, place, _("frame {frame} is at {at} at {fps} fps, but the interval says "
                                     "{says}: the frames were counted at another frame rate than the "
                                     "file's fps", frame=n, at=secs(starts), fps=f"{clock.fps:g}", says=secs(t)))
    return n


def _unseen(where: str, data: Mapping[str, Any]) -> list[Unseen]:
    """The stretches vision could not see a seat (`unseen`, or `x_unseen` as older files name it), each checked."""
    unseen_key = "x_unseen" if "x_unseen" in data else "unseen"
    raw_unseen = data.get(unseen_key) or []
    if not isinstance(raw_unseen, list):
        raise refuse(where, unseen_key, _("must be a list of stretches, not {value}", value=show(raw_unseen)))
    unseen = []
    for i, u in enumerate(raw_unseen):
        at = f"{unseen_key}[{i}]"
        seat, start, end = _seat_span(where, at, u, N_("an unseen stretch"), "start", "end")
        if end < start:
            raise refuse(where, f"{at}.end", _("{end} comes before start {start}", end=secs(end), start=secs(start)))
        why = u.get("why")
        unseen.append(Unseen(seat=seat, start=start, end=end, why=why if isinstance(why, str) and why else NO_VIEW))
    return unseen


def _windows(where: str, data: Mapping[str, Any]) -> tuple[tuple[float, float], ...] | None:
    """The stretches vision looked at (`x_windows`, None where the file does not say or lists none), checked."""
    looked = data.get("x_windows")
    if looked is None:
        return None
    if not isinstance(looked, list):
        raise refuse(where, "x_windows", _("must be a list of [start, end] pairs, not {value}", value=show(looked)))
    pairs = []
    for i, pair in enumerate(looked):
        if not (isinstance(pair, list) and len(pair) == 2):
            raise refuse(where, f"x_windows[{i}]", _("must be a [start, end] pair, not {value}", value=show(pair)))
        a = _time(where, f"x_windows[{i}][0]", pair[0])
        b = _time(where, f"x_windows[{i}][1]", pair[1])
        if b < a:
            raise refuse(where, f"x_windows[{i}][1]", _("{end} comes before the start {start}", end=secs(b),
                                                        start=secs(a)))
        pairs.append((a, b))
    return tuple(pairs) or None

