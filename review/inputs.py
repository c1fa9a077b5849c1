"""Inputs that do not fit are refused, never audited: saved observations and seat maps, checked where they
are loaded for an audit (the command line and the app, both through `cli_audit.audit_game`).

Why here and not in the readers: vision's seat-map reader checks the file's shape (polygons of finite
points); whether the zones fit the picture and keep to their own seat is a question for the audit, which
would otherwise count one hand for two seats or look for hands outside the frame. Saved observations are
checked in full before a single finding is made from them: malformed intervals, a file that covers none
of the protocol's timed votes, or one made from another video or at another frame rate would each give
confident findings about a game nobody watched.

Every refusal is one sentence naming the file and the JSON path (spec §6): exit 2 where the file is no
observations file at all, exit 1 where it is one but does not fit.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from review.errors import InvalidInput, StopframeError, UnreadableInput
from review.jsonio import read_document

OBSERVATIONS_FORMAT = "stopframe-observations/1"
MAX_FPS = 1000.0  # no camera films faster; a larger figure is a corrupt file
MAX_SECONDS = 1_000_000.0  # 11 days of video (as review.protocol)
POSES = ("fist", "thumb_up_fist", "open_palm", "finger", "other")
FRAME_DRIFT_S, FRAME_DRIFT_SHARE = 0.5, 0.05  # how far a frame's time may stray from its interval's time
EDGE_TOLERANCE_PX = 1.0  # a zone drawn on the frame's very edge is inside it


# ---------------------------------------------------------------- words


def show(value: Any) -> str:
    """A JSON value in a sentence, never Python's repr: the text "soon", 2.5, null, a list, an object."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"{value:g}" if math.isfinite(value) else "a number that is not finite"
    if isinstance(value, str):
        text = value if len(value) <= 30 else value[:29] + "…"
        return f'the text "{text}"'
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "a value of another kind"


def _num(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _secs(v: float) -> str:
    return f"{round(v, 3):g} s"


# ---------------------------------------------------------------- observations


def read_observations(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A saved observations file as JSON; UnreadableInput (exit 2) when it is not one this program reads."""
    data = read_document(path, "observations file", OBSERVATIONS_FORMAT)
    return data


def _refuse(where: str, place: str, why: str) -> InvalidInput:
    return InvalidInput(f"{where}: {place}: {why}.")


def _time(where: str, place: str, v: Any) -> float:
    if not _num(v):
        raise _refuse(where, place, f"must be a time in seconds, not {show(v)}")
    if v < 0:
        raise _refuse(where, place, f"{_secs(v)} is before the video starts (times count from 0 s)")
    if v > MAX_SECONDS:
        raise _refuse(where, place, f"{v:g} s is beyond any video")
    return float(v)


def _seat(where: str, place: str, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _refuse(where, place, f"must be a seat number 1–10, not {show(v)}")
    if not 1 <= v <= 10:
        raise _refuse(where, place, f"seat {v} does not exist (seats are 1–10)")
    return v


def check_observations(data: Any, where: str | os.PathLike[str] = "observations") -> Any:
    """`stopframe-observations/1` JSON checked in full and read into `review.audit.Seen`.

    UnreadableInput (exit 2) when it is not an observations document; InvalidInput (exit 1) naming the JSON
    path of the first thing that does not fit: fps, a hand interval (seat, times, off before on, frames
    counted at another frame rate), an unseen stretch or a looked-at window."""
    from review.audit import Hand, Seen, Unseen

    where = str(where)
    if not isinstance(data, dict) or not str(data.get("format", "")).startswith("stopframe-observations/"):
        raise UnreadableInput(f'{where}: not an observations file: "format" should be "{OBSERVATIONS_FORMAT}".')
    if str(data["format"]).split("/", 1)[1].split(".")[0] != "1":
        raise UnreadableInput(f'{where}: observations format "{str(data["format"])[:40]}" is not supported: this '
                              f'Stopframe reads "{OBSERVATIONS_FORMAT}".')
    fps = data.get("fps")
    if not _num(fps) or not 0 < fps <= MAX_FPS:
        raise _refuse(where, "fps", f"must be the video's frame rate, a number above 0 and at most {MAX_FPS:g}, "
                                    f"not {show(fps) if 'fps' in data else 'missing'}")
    fps = float(fps)
    if "hands" not in data:
        stray = [k for k in data if not k.startswith("x_") and k not in ("format", "video", "fps", "hands", "unseen")]
        hint = (f' (the file has "{stray[0][:30]}" instead, which {OBSERVATIONS_FORMAT} does not know)' if stray else "")
        raise _refuse(where, "hands", f"missing: the list of hand intervals{hint}")
    raw = data["hands"]
    if not isinstance(raw, list):
        raise _refuse(where, "hands", f"must be a list of hand intervals, not {show(raw)}")
    hands = []
    for i, h in enumerate(raw):
        at = f"hands[{i}]"
        if not isinstance(h, dict):
            raise _refuse(where, at, f"must be an object with seat, on and off, not {show(h)}")
        for name in ("seat", "on", "off"):
            if name not in h:
                raise _refuse(where, f"{at}.{name}", "missing (a hand interval needs seat, on and off)")
        seat = _seat(where, f"{at}.seat", h["seat"])
        on = _time(where, f"{at}.on", h["on"])
        off = _time(where, f"{at}.off", h["off"])
        if off <= on:
            raise _refuse(where, f"{at}.off", f"{_secs(off)} is not after on {_secs(on)} (an interval is [on, off))")
        pose = h.get("pose", "other")
        if pose is None:
            pose = "other"
        if pose not in POSES:
            raise _refuse(where, f"{at}.pose", f"{show(pose)} is no pose (known: {', '.join(POSES)})")
        confidence = h.get("confidence", 1.0)
        if not _num(confidence) or not 0 <= confidence <= 1:
            raise _refuse(where, f"{at}.confidence", f"must be a number from 0 to 1, not {show(confidence)}")
        share = h.get("x_pose_share", 1.0)
        if not _num(share) or not 0 <= share <= 1:
            raise _refuse(where, f"{at}.x_pose_share", f"must be a number from 0 to 1, not {show(share)}")
        frames = []
        for name, t in (("on_frame", on), ("off_frame", off)):
            n = h.get(name)
            if n is None:
                frames.append(None)
                continue
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise _refuse(where, f"{at}.{name}", f"must be a frame number (0 or more), not {show(n)}")
            if abs(n / fps - t) > FRAME_DRIFT_S + FRAME_DRIFT_SHARE * t:
                raise _refuse(where, f"{at}.{name}", f"frame {n} is at {_secs(n / fps)} at {fps:g} fps, but the "
                                                     f"interval says {_secs(t)}: the frames were counted at another "
                                                     "frame rate than the file's fps")
            frames.append(n)
        hands.append(Hand(seat, on, off, str(pose), float(confidence), frames[0], frames[1], float(share)))
    unseen_key = "x_unseen" if "x_unseen" in data else "unseen"
    raw_unseen = data.get(unseen_key) or []
    if not isinstance(raw_unseen, list):
        raise _refuse(where, unseen_key, f"must be a list of stretches, not {show(raw_unseen)}")
    unseen = []
    for i, u in enumerate(raw_unseen):
        at = f"{unseen_key}[{i}]"
        if not isinstance(u, dict):
            raise _refuse(where, at, f"must be an object with seat, start and end, not {show(u)}")
        for name in ("seat", "start", "end"):
            if name not in u:
                raise _refuse(where, f"{at}.{name}", "missing (an unseen stretch needs seat, start and end)")
        seat = _seat(where, f"{at}.seat", u["seat"])
        start = _time(where, f"{at}.start", u["start"])
        end = _time(where, f"{at}.end", u["end"])
        if end < start:
            raise _refuse(where, f"{at}.end", f"{_secs(end)} comes before start {_secs(start)}")
        why = u.get("why")
        unseen.append(Unseen(seat, start, end, why if isinstance(why, str) and why else "no usable view"))
    looked = data.get("x_windows")
    windows = None
    if looked is not None:
        if not isinstance(looked, list):
            raise _refuse(where, "x_windows", f"must be a list of [start, end] pairs, not {show(looked)}")
        pairs = []
        for i, pair in enumerate(looked):
            if not (isinstance(pair, list) and len(pair) == 2):
                raise _refuse(where, f"x_windows[{i}]", f"must be a [start, end] pair, not {show(pair)}")
            a = _time(where, f"x_windows[{i}][0]", pair[0])
            b = _time(where, f"x_windows[{i}][1]", pair[1])
            if b < a:
                raise _refuse(where, f"x_windows[{i}][1]", f"{_secs(b)} comes before the start {_secs(a)}")
            pairs.append((a, b))
        windows = tuple(pairs) or None
    video = data.get("video")
    return Seen(tuple(hands), fps, tuple(unseen), video if isinstance(video, str) else None, windows)


def video_fingerprint(path: str | os.PathLike[str]) -> str:
    """Size plus a hash of the first and last MiB (as the app writes `x_video_fingerprint`)."""
    p = Path(path)
    try:
        size = p.stat().st_size
        with p.open("rb") as fh:
            head = fh.read(1 << 20)
            fh.seek(max(0, size - (1 << 20)))
            tail = fh.read(1 << 20)
    except OSError:
        return ""
    return f"{size}:{hashlib.sha256(head + tail).hexdigest()[:32]}"


def check_observations_fit(
    seen: Any, data: dict[str, Any], where: str | os.PathLike[str], protocol: dict[str, Any], *,
    rounds: Sequence[Any], video_name: str | None = None, video_file: str | os.PathLike[str] | None = None,
    probe_video: bool = False,
) -> None:
    """InvalidInput (exit 1) when sound observations are not of this game: made from another video (its name
    or, where the video is here, its fingerprint or frame rate differ), or covering none of the protocol's
    timed votes (`rounds`: review.timeline's VoteRound list)."""
    where = str(where)
    made_from = data.get("video")
    if isinstance(made_from, str) and made_from and video_name and Path(made_from).name != Path(video_name).name:
        raise _refuse(where, "video", f"the observations were made from {Path(made_from).name[:80]}, not from this "
                                      f"game's video {Path(video_name).name[:80]}")
    file = Path(video_file) if video_file is not None else None
    if file is not None and file.is_file():
        stamp = data.get("x_video_fingerprint")
        if isinstance(stamp, str) and stamp and stamp != video_fingerprint(file):
            raise _refuse(where, "x_video_fingerprint", f"the observations were made from another version of "
                                                         f"{file.name[:80]} (its size or content differs): make them again")
        if probe_video:
            fps = _video_fps(file)
            if fps is not None and abs(fps - seen.fps) > 0.01 * fps:
                raise _refuse(where, "fps", f"the observations were made at {seen.fps:g} fps, but {file.name[:80]} "
                                            f"runs at {round(fps, 3):g} fps: they are of another video or encoding")
    timed = [r for r in rounds if r.timed]
    if not timed:
        return
    spans = ", ".join(f"day {r.day} at {_secs(r.start)}–{_secs(r.end)}" for r in timed[:3])
    spans += f" and {len(timed) - 3} more" if len(timed) > 3 else ""
    votes = f"the protocol's {len(timed)} timed vote{'s' if len(timed) != 1 else ''} ({spans})"
    if seen.windows is not None:
        if not any(seen.covers(r.start, r.end) for r in timed):
            looked = ", ".join(f"{_secs(a)}–{_secs(b)}" for a, b in seen.windows[:3])
            raise _refuse(where, "x_windows", f"the observations cover {looked}"
                                              f"{' and more' if len(seen.windows) > 3 else ''}, but none of {votes}")
        return
    if not any(h.off > r.start and h.on < r.end for h in seen.hands for r in timed):
        raise _refuse(where, "hands", f"no hand interval lies in any of {votes}: these observations are not of "
                                      "this game's votes")


def _video_fps(path: Path) -> float | None:
    """The video's frame rate, or None where it cannot be read here (then the check is skipped)."""
    try:
        from vision.video import open_video

        with open_video(path) as src:
            return float(src.meta.fps)
    except (ImportError, StopframeError, AttributeError, OSError):
        return None


# ---------------------------------------------------------------- seat maps


def check_seat_geometry(seat_map: Any, where: str | os.PathLike[str]) -> None:
    """InvalidInput (exit 1) when a seat's zone (or raise zone) leaves the frame, or two seats' zones overlap
    (one hand would count for both). `seat_map` is vision's SeatMap (frame_size, seats → zone / raise)."""
    where = str(where)
    w, h = seat_map.frame_size
    polys: dict[int, list[tuple[float, float]]] = {}
    for seat in sorted(seat_map.seats):
        entry = seat_map.seats[seat]
        for name in ("zone", "raise"):
            poly = getattr(entry, name, None)
            if poly is None:
                continue
            points = [(float(x), float(y)) for x, y in poly]
            for j, (x, y) in enumerate(points):
                if not (-EDGE_TOLERANCE_PX <= x <= w + EDGE_TOLERANCE_PX and -EDGE_TOLERANCE_PX <= y <= h + EDGE_TOLERANCE_PX):
                    raise _refuse(where, f"seats.{seat}.{name}[{j}]", f"the point [{x:g}, {y:g}] lies outside the "
                                                                     f"{w}x{h} frame")
            if name == "zone":
                polys[seat] = points
    seats = sorted(polys)
    for i, a in enumerate(seats):
        for b in seats[i + 1:]:
            if polygons_overlap(polys[a], polys[b]):
                raise InvalidInput(f"{where}: seats.{a}.zone and seats.{b}.zone overlap: a hand there would count "
                                   "for both seats; draw the zones apart.")


def _inside(poly: Sequence[tuple[float, float]], x: float, y: float) -> bool:
    inside = False
    n = len(poly)
    for k in range(n):
        x1, y1 = poly[k]
        x2, y2 = poly[(k + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_cross(p1: tuple[float, float], p2: tuple[float, float], q1: tuple[float, float], q2: tuple[float, float]) -> bool:
    """Strictly crossing segments (touching ends or shared edges are not a crossing)."""
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    return d1 * d2 < 0 and d3 * d4 < 0


def _centroid(poly: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly)


def polygons_overlap(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> bool:
    """Whether two simple polygons share some area (sharing only an edge or a corner is no overlap)."""
    edges_a = list(zip(a, [*a[1:], a[0]], strict=True))
    edges_b = list(zip(b, [*b[1:], b[0]], strict=True))
    if any(_segments_cross(p1, p2, q1, q2) for p1, p2 in edges_a for q1, q2 in edges_b):
        return True
    return _inside(b, *_centroid(a)) or _inside(a, *_centroid(b))
