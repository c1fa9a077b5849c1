"""Inputs that do not fit are refused, never audited: saved observations and seat maps, checked where the
pipeline loads them for an audit from a game's files (`pipeline.audit.audit_game`, `pipeline.cameras.look`).

Why here and not in the readers: the seat-map reader (contract.seats) checks the file's shape (polygons of finite
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
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from contract.clock import Clock
from contract.errors import InvalidInput
from contract.i18n import _, ngettext
from contract.observations import Observations
from contract.observations import refuse as _refuse
from contract.observations import secs as _secs
from contract.seats import MAX_ZONE_POINTS, SeatMap, polygons_overlap

EDGE_TOLERANCE_PX = 1.0  # a zone drawn on the frame's very edge is inside it


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
    seen: Observations, data: dict[str, Any], where: str | os.PathLike[str], protocol: dict[str, Any], *,
    rounds: Sequence[Any], video_name: str | None = None, video_file: str | os.PathLike[str] | None = None,
    video_clock: Clock | None = None,
) -> None:
    """InvalidInput (exit 1) when sound observations are not of this game: made from another video (its name
    or, where the video is here, its fingerprint or frame rate differ), or covering none of the protocol's
    timed votes (`rounds`: review.game.timeline's VoteRound list)."""
    where = str(where)
    made_from = data.get("video")
    if isinstance(made_from, str) and made_from and video_name and Path(made_from).name != Path(video_name).name:
        raise _refuse(where, "video", _("the observations were made from {made_from}, not from this game's video {video}",
                                        made_from=Path(made_from).name[:80], video=Path(video_name).name[:80]))
    file = Path(video_file) if video_file is not None else None
    if file is not None and file.is_file():
        stamp = data.get("x_video_fingerprint")
        if isinstance(stamp, str) and stamp and stamp != video_fingerprint(file):
            raise _refuse(where, "x_video_fingerprint", _("the observations were made from another version of {video} "
                                                           "(its size or content differs): make them again",
                                                           video=file.name[:80]))
        fps = video_clock.fps if video_clock is not None else None
        if fps is not None and abs(fps - seen.fps) > 0.01 * fps:
            raise _refuse(where, "fps", _("the observations were made at {fps} fps, but {video} runs at {video_fps} fps: "
                                          "they are of another video or encoding", fps=f"{seen.fps:g}",
                                          video=file.name[:80], video_fps=f"{round(fps, 3):g}"))
    timed = [r for r in rounds if r.timed]
    if not timed:
        return
    spans = ", ".join(_("day {day} at {start}–{end}", day=r.day, start=_secs(r.start), end=_secs(r.end))
                      for r in timed[:3])
    if len(timed) > 3:
        spans = _("{spans} and {n} more", spans=spans, n=len(timed) - 3)
    votes = ngettext("the protocol's {n} timed vote ({spans})", "the protocol's {n} timed votes ({spans})", len(timed),
                     spans=spans)
    if seen.windows is not None:
        if not any(seen.covers(r.start, r.end) for r in timed):
            looked = ", ".join(f"{_secs(a)}–{_secs(b)}" for a, b in seen.windows[:3])
            if len(seen.windows) > 3:
                looked = _("{spans} and more", spans=looked)
            raise _refuse(where, "x_windows", _("the observations cover {looked}, but none of {votes}", looked=looked,
                                                votes=votes))
        return
    if not any(h.off > r.start and h.on < r.end for h in seen.hands for r in timed):
        raise _refuse(where, "hands", _("no hand interval lies in any of {votes}: these observations are not of this "
                                        "game's votes", votes=votes))


# ---------------------------------------------------------------- seat maps


def check_seat_geometry(seat_map: SeatMap, where: str | os.PathLike[str]) -> None:
    """InvalidInput (exit 1) when a seat's zone has more corners than MAX_ZONE_POINTS or leaves the frame, or
    two seats' zones overlap (one hand would count for both). The raise zones (night) are not checked here."""
    where = str(where)
    w, h = seat_map.frame_size
    polys: dict[int, list[tuple[float, float]]] = {}
    for seat in sorted(seat_map.seats):
        zone = seat_map.seats[seat].zone
        if len(zone) > MAX_ZONE_POINTS:
            raise _refuse(where, f"seats.{seat}.zone", _("the zone has {n} points, more than the {most} a seat's "
                                                         "zone may have", n=len(zone), most=MAX_ZONE_POINTS))
        points = [(float(x), float(y)) for x, y in zone]
        for j, (x, y) in enumerate(points):
            if not (-EDGE_TOLERANCE_PX <= x <= w + EDGE_TOLERANCE_PX and -EDGE_TOLERANCE_PX <= y <= h + EDGE_TOLERANCE_PX):
                raise _refuse(where, f"seats.{seat}.zone[{j}]", _("the point [{x}, {y}] lies outside the "
                                                                 "{width}x{height} frame", x=f"{x:g}", y=f"{y:g}",
                                                                 width=w, height=h))
        polys[seat] = points
    seats = sorted(polys)
    for i, a in enumerate(seats):
        for b in seats[i + 1:]:
            if polygons_overlap(polys[a], polys[b]):
                raise InvalidInput(_("{path}: seats.{a}.zone and seats.{b}.zone overlap: a hand there would count for "
                                     "both seats; draw the zones apart.", path=where, a=a, b=b))
