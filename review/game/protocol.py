"""The game protocol, `stopframe-protocol/1` (spec §1): load, check its format, save it unchanged.

The protocol is kept as the plain JSON dict it was read from, so a load→save round trip loses nothing
(unknown `x_` fields and fields of a later minor version included). Format checks here are about the
file's shape; whether the game itself is legal under its rules is the engine's business (`validate`).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from babel.numbers import format_decimal

from contract.clock import MAX_DRIFT_PPM, same_file
from contract.errors import InvalidInput, UnreadableInput
from contract.fields import MAX_SECONDS, SEATS, is_int, is_number, seat_problem
from contract.i18n import _, language, ngettext, term
from contract.jsonio import format_problem, read_json, write_json
from review.game import engine
from review.game.club_shapes import detect_source
from review.game.problems import Problem
from review.game.profiles import PROFILES

FORMAT = "stopframe-protocol/1"
FORMAT_NAME = "stopframe-protocol"
RULE_PROFILES = tuple(PROFILES)  # spec §1: the ids of the profiles in review.game.profiles, in their order
ROLES = ("civilian", "sheriff", "mafia", "don")
# Bounds no real game comes near; they keep a typo or a hostile file from making the replay walk through a
# billion phases, or copy its state for hundreds of thousands of events (a game has a few hundred).
MAX_DAY = 99
MAX_EVENTS = 10_000
MAX_VIDEOS = 16  # cameras at one table; more is a generated or hostile file, not a game
MAX_CAMERA_ID = 64  # characters: an id names a camera on a page and in a file name
_SEAT_KEYS = frozenset(str(s) for s in SEATS)
_FORMAT_RE = re.compile(r"^([a-z][a-z0-9-]*)/(\d+)(?:\.(\d+))?$")


@dataclass(frozen=True)
class CameraVideo:
    """One camera of a game filmed from several angles (`videos[]`): this video's time = `offset` + protocol
    time × (1 + `drift_ppm`·10⁻⁶) (`video.offset_s`'s meaning, with the camera's clock drift); `path` and
    `seats` are relative to the protocol's folder."""

    id: str
    path: str
    offset: float
    seats: str | None
    drift_ppm: float = 0.0


@dataclass
class Protocol:
    """A protocol as read: `data` is the whole JSON object, `path` the file it came from (None if built)."""

    data: dict[str, Any]
    path: Path | None = None

    @property
    def rules(self) -> str:
        return self.data.get("rules", "")

    @property
    def players(self) -> list[dict[str, Any]]:
        players = self.data.get("players")
        return players if isinstance(players, list) else []

    @property
    def events(self) -> list[dict[str, Any]]:
        events = self.data.get("events")
        return events if isinstance(events, list) else []

    @property
    def videos(self) -> tuple[CameraVideo, ...]:
        """The cameras of `videos` in file order, () when the protocol has none; InvalidInput (naming the
        JSON path) when that list is malformed."""
        return camera_videos(self.data, str(self.path) if self.path is not None else "protocol")

    @property
    def folder(self) -> Path | None:
        """The folder that `video.path` is relative to."""
        return self.path.parent if self.path is not None else None


# ---------------------------------------------------------------------------------------------- load / save


def load_protocol(path: str | os.PathLike[str]) -> Protocol:
    """Read a protocol file. Raises UnreadableInput only when the file cannot be a protocol at all
    (unreadable, not JSON, not an object, no or another format, unknown major version); content problems
    are left for `format_problems` / `validate` so they can all be reported at once."""
    p = Path(path)
    data = read_json(p, "protocol", reject_duplicate_keys=True)
    header = _header_problem(data)
    if header is not None:
        raise UnreadableInput(f"{p}: {header}")
    return Protocol(data=data, path=p)


def save_protocol(protocol_or_data: Protocol | dict[str, Any], path: str | os.PathLike[str]) -> Path:
    """Write the protocol atomically, exactly as held (a crash leaves the old file or the new one)."""
    data = protocol_or_data.data if isinstance(protocol_or_data, Protocol) else protocol_or_data
    try:
        return write_json(path, data)
    except RecursionError as exc:
        raise InvalidInput(_("{path}: cannot save the protocol: it is nested too deeply.", path=path)) from exc
    except (TypeError, ValueError) as exc:
        raise InvalidInput(_("{path}: cannot save the protocol: {detail}.", path=path, detail=exc)) from exc


def _header_problem(data: Any) -> str | None:
    """Why this JSON cannot be read as a protocol at all, or None."""
    if not isinstance(data, dict):
        return _("not a protocol: the file holds a JSON {kind}, not an object.", kind=_kind_words(data))
    fmt = data.get("format")
    if fmt is None:
        source = detect_source(data)
        if source is not None:  # the club's own export, handed over as it came from Polemica or mafiaratings
            return _("a {name} game file, not a Stopframe protocol: make one from it with `stopframe import {source} "
                     "FILE --out GAME.protocol.json`, or start a sheet from it on the page «Протокол».",
                     name="Polemica" if source == "polemica" else source, source=source)
        return _('not a Stopframe protocol: it has no "format" field (expected "{expected}").', expected=FORMAT)
    m = _FORMAT_RE.match(fmt) if isinstance(fmt, str) else None
    if m is None:
        return _('not a Stopframe protocol: "format" is {value}, expected "{expected}".', value=_show(fmt),
                 expected=FORMAT)
    if m.group(1) != FORMAT_NAME:
        return _('this is a "{found}" file, not a protocol ("{expected}").', found=fmt, expected=FORMAT)
    return format_problem(fmt, "protocol", FORMAT)


# ------------------------------------------------------------------------------------------- field checks
# A check takes a value and returns why it is wrong, or None. Booleans are never numbers here.


def _show(v: Any) -> str:
    try:
        text = json.dumps(v, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError, RecursionError):
        text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _kind_words(v: Any) -> str:
    """What kind of JSON value `v` is, in the reader's words."""
    return term("json_kind", _json_kind(v))


def _grouped(n: float) -> str:
    """A large whole number with the language's thousands separator (10,000 / 10 000)."""
    return format_decimal(n, format="#,##0", locale=language())


def _json_kind(v: Any) -> str:
    """The JSON kind of `v` as a code (null, boolean, number, string, array, object)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int | float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def _seat(v: Any) -> str | None:
    return seat_problem(v, _show)


def _seat_or_null(v: Any) -> str | None:
    return None if v is None else _seat(v)


def _int_from(low: int, what: str, high: int | None = None) -> Callable[[Any], str | None]:
    """`what`: which number it is, a code of the catalogue's "whole_number" terms."""

    def check(v: Any) -> str | None:
        if not is_int(v) or v < low or (high is not None and v > high):
            span = _("from {low}", low=low) if high is None else _("from {low} to {high}", low=low, high=high)
            return _("must be {what} (a whole number {span}), not {value}", what=term("whole_number", what), span=span,
                     value=_show(v))
        return None

    return check


_day = _int_from(1, "day", MAX_DAY)
_night = _int_from(1, "night", MAX_DAY)  # night 0 is the deal: no shooting, no checks
_round = _int_from(1, "round")
_count = _int_from(0, "count")


def _time(v: Any) -> str | None:
    if not is_number(v):
        return _("must be a time in seconds, not {value}", value=_show(v))
    if abs(v) > MAX_SECONDS:
        return _("{value} s is not a time on any game's video (at most {most} s)", value=f"{v:g}",
                 most=_grouped(MAX_SECONDS))
    return None


def _offset(v: Any) -> str | None:
    """video.offset_s, videos[].offset: between two clocks of one game."""
    if not is_number(v):
        return _("must be a number of seconds, not {value}", value=_show(v))
    if abs(v) > MAX_SECONDS:
        return _("{value} s is not an offset between two clocks of one game (at most {most} s)", value=f"{v:g}",
                 most=_grouped(MAX_SECONDS))
    return None


def _text(v: Any) -> str | None:
    return None if isinstance(v, str) else _("must be text, not {value}", value=_show(v))


def _text_or_null(v: Any) -> str | None:
    return None if v is None else _text(v)


def _one_of(*choices: str | None) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        if v in choices and (v is None or isinstance(v, str)):
            return None
        listed = ", ".join("null" if c is None else f'"{c}"' for c in choices)
        return _("must be one of {choices}, not {value}", choices=listed, value=_show(v))

    return check


def _seat_list(min_len: int = 0, max_len: int = 10) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        if not isinstance(v, list):
            return _("must be a list of seat numbers, not {value}", value=_show(v))
        if not min_len <= len(v) <= max_len:
            if max_len < 10:
                return _("must list {low}–{high} seats, not {n}", low=min_len, high=max_len, n=len(v))
            return _("must list at least {low} seats, not {n}", low=min_len, n=len(v))
        for i, seat in enumerate(v):
            why = _seat(seat)
            if why:
                return _("item {i} {why}", i=i, why=why)
        dup = sorted({s for s in v if v.count(s) > 1})
        if dup:
            return _("lists seat {seats} more than once", seats=", ".join(map(str, dup)))
        return None

    return check


def _fine_points(v: Any) -> str | None:
    if not is_number(v) or v >= 0:
        return _("must be a negative number of points, not {value}", value=_show(v))
    return None


def _shots(v: Any) -> str | None:
    if not isinstance(v, dict):
        return _("must map shooter seats to target seats, not {value}", value=_show(v))
    for shooter, target in v.items():
        if shooter not in _SEAT_KEYS:
            return _('has shooter "{shooter}", which is not a seat 1–10', shooter=shooter[:20])
        why = _seat_or_null(target)
        if why:
            return _("shot of seat {seat} {why}", seat=shooter, why=why)
    return None


# Per event type: field -> (check, required). Required fields are spec §1's list; a speech must at least
# say whose it is (the spec leaves speech fields unlisted; a speech of nobody means nothing).
_COMMON: dict[str, tuple[Callable[[Any], str | None], bool]] = {
    "t": (_time, False),
    "note": (_text, False),
}
_VOTE_TIMES = {"t": (_time, False), "cutoff": (_time, False), "announced": (_time, False)}
EVENT_FIELDS: dict[str, dict[str, tuple[Callable[[Any], str | None], bool]]] = {
    "phase": {"phase": (_one_of("night", "day", "voting"), True), "number": (_int_from(0, "phase", MAX_DAY), True)},
    "speech": {"day": (_day, False), "seat": (_seat, True), "kind": (_one_of("day", "tie", "last"), False),
               "end": (_time, False)},
    "nomination": {"day": (_day, True), "by": (_seat, True), "target": (_seat, True)},
    "withdrawal": {"day": (_day, True), "by": (_seat, True), "target": (_seat, True)},
    "vote": {"day": (_day, True), "round": (_round, True), "candidate": (_seat, True), "count": (_count, True),
             "voters": (_seat_list(), False), **_VOTE_TIMES},
    "lift_vote": {"day": (_day, True), "round": (_round, False), "candidates": (_seat_list(2), True),
                  "count": (_count, True), "voters": (_seat_list(), False), **_VOTE_TIMES},
    "shooting": {"night": (_night, True), "target": (_seat_or_null, True), "shots": (_shots, False)},
    "check": {"night": (_night, True), "by": (_one_of("don", "sheriff"), True), "target": (_seat, True),
              "result": (_one_of("sheriff", "not_sheriff", "black", "red"), True)},
    "best_move": {"seat": (_seat, True), "named": (_seat_list(0, 3), True)},
    "foul": {"seat": (_seat, True), "reason": (_text, False), "clause": (_text, False)},
    "fine": {"seat": (_seat, True), "points": (_fine_points, True), "clause": (_text, False), "reason": (_text, False)},
    "removal": {"seat": (_seat, True), "reason": (_text, False), "clause": (_text, False)},
    "elimination": {"seat": (_seat, True), "cause": (_one_of("vote", "lift", "shot", "removal"), True),
                    "day": (_day, False), "night": (_night, False)},
    "result": {"winner": (_one_of("red", "black", "draw"), True)},
}
EVENT_TYPES = tuple(EVENT_FIELDS)
_CHECK_RESULTS = {"don": ("sheriff", "not_sheriff"), "sheriff": ("black", "red")}


# ----------------------------------------------------------------------------------------- format problems


def format_problems(data: Any) -> list[Problem]:
    """Every format problem of a protocol dict, each with its 0-based JSON path; [] when the shape is sound."""
    if not isinstance(data, dict):
        return [Problem("", _("the protocol must be a JSON object, not a {kind}", kind=_kind_words(data)))]
    problems: list[Problem] = []

    def add(path: str, message: str) -> None:
        problems.append(Problem(path, message))

    header = _header_problem(data)
    if header is not None:
        add("format", header.rstrip("."))
    rules = data.get("rules")
    if "rules" not in data:
        add("rules", _("missing: the rule profile (one of {known})", known=", ".join(RULE_PROFILES)))
    elif rules not in RULE_PROFILES or not isinstance(rules, str):
        add("rules", _("unknown rule profile {value} (known: {known})", value=_show(rules), known=", ".join(RULE_PROFILES)))
    _check_game(data, add)
    _check_video(data, add)
    _check_videos(data, add)
    _check_players(data, add)
    _check_events(data, add)
    return problems


def _listed(data: dict[str, Any], key: str, add: Callable[[str, str], None], what: str, *, missing: str | None,
            most: int | None = None) -> list[Any] | None:
    """`data[key]` when it is a list of at most `most` items, else None with its problem added; `what`: the
    items, a code of the catalogue's "list_of" terms; `missing`: the sentence for an absent key (None: the key,
    or a null, may be left out)."""
    if key not in data or (missing is None and data[key] is None):
        if missing is not None:
            add(key, missing)
        return None
    items = data[key]
    if not isinstance(items, list):
        add(key, _("must be a list of {what}, not {value}", what=term("list_of", what), value=_show(items)))
        return None
    if most is not None and len(items) > most:
        add(key, _too_many(what, len(items), most))
        return None
    return items


def _too_many(what: str, n: int, most: int) -> str:
    """More cameras than a table has, or more events than a game has."""
    if what == "cameras":
        return ngettext("{n} cameras are more than any table has (at most {most})",
                        "{n} cameras are more than any table has (at most {most})", n, most=_grouped(most))
    return ngettext("{n} events are more than any game has (at most {most})",
                    "{n} events are more than any game has (at most {most})", n, most=_grouped(most))


def _object(data: dict[str, Any], key: str, add: Callable[[str, str], None]) -> dict[str, Any] | None:
    """`data[key]` when it is an object; None when it is left out or null, or (its problem added) not an object."""
    value = data.get(key)
    if value is not None and not isinstance(value, dict):
        add(key, _("must be an object, not {value}", value=_show(value)))
        return None
    return value


def _objects(items: list[Any], key: str, add: Callable[[str, str], None],
             needs: str) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """The objects of the list `key`, each with its index and JSON path; any other item's problem added in turn
    (`needs`: a code of the catalogue's "object_needs" terms)."""
    for i, item in enumerate(items):
        if isinstance(item, dict):
            yield i, f"{key}[{i}]", item
        else:
            add(f"{key}[{i}]", _("must be an object with {needs}, not {value}", needs=term("object_needs", needs),
                                 value=_show(item)))


def _check_game(data: dict[str, Any], add: Callable[[str, str], None]) -> None:
    game = _object(data, "game", add)
    if game is None:
        return
    for key, value in game.items():
        if not key.startswith("x_") and not (value is None or isinstance(value, str) or is_number(value)):
            add(f"game.{key}", _("must be text, not {value}", value=_show(value)))


def _check_video(data: dict[str, Any], add: Callable[[str, str], None]) -> None:
    video = _object(data, "video", add)
    if video is None:
        return
    if "path" in video and (why := _file_name_problem(video["path"])):
        add("video.path", why)
    if "offset_s" in video and (why := _offset(video["offset_s"])):
        add("video.offset_s", why)


_CAMERA_FIELDS = ("id", "path", "offset", "drift_ppm", "seats")


def _check_videos(data: dict[str, Any], add: Callable[[str, str], None]) -> None:
    """`videos`: the cameras of a game filmed from several angles (docs/formats.md, "Several cameras")."""
    videos = _listed(data, "videos", add, "cameras", missing=None, most=MAX_VIDEOS)
    if videos is None:
        return
    first_id: dict[str, int] = {}
    first_path: dict[str, int] = {}
    for i, where, camera in _objects(videos, "videos", add, "camera"):
        for key in camera:
            if key not in _CAMERA_FIELDS and not key.startswith("x_"):
                add(f"{where}.{key[:40]}", _("unknown field (a camera has id, path, offset, drift_ppm, seats; "
                                             "fields of your own start with x_)"))
        if "id" not in camera:
            add(f"{where}.id", _("missing: the camera's name (such as \"a\" or \"far\")"))
        elif not isinstance(camera["id"], str) or not camera["id"].strip():
            add(f"{where}.id", _("must be a camera's name (non-empty text), not {value}", value=_show(camera["id"])))
        elif len(camera["id"]) > MAX_CAMERA_ID:
            add(f"{where}.id", _("is {n} characters long (a camera's name has at most {most})", n=len(camera["id"]),
                                 most=MAX_CAMERA_ID))
        elif camera["id"] in first_id:
            add(f"{where}.id", _("camera {name} appears twice (also videos[{first}])", name=_show(camera["id"]),
                                 first=first_id[camera["id"]]))
        else:
            first_id[camera["id"]] = i
        if "path" not in camera:
            add(f"{where}.path", _("missing: the camera's video file, relative to the protocol's folder"))
        elif why := _file_name_problem(camera["path"]):
            add(f"{where}.path", why)
        elif (key := _same_file(camera["path"])) in first_path:
            add(f"{where}.path", _('"{path}" is the video of videos[{first}] too (each camera has its own file)',
                                   path=camera["path"], first=first_path[key]))
        else:
            first_path[key] = i
        if "offset" in camera and (why := _offset(camera["offset"])):
            add(f"{where}.offset", why)
        if "drift_ppm" in camera:
            drift = camera["drift_ppm"]
            if not is_number(drift):
                add(f"{where}.drift_ppm", _("must be a number of millionths, not {value}", value=_show(drift)))
            elif abs(drift) > MAX_DRIFT_PPM:
                add(f"{where}.drift_ppm", _("{value} ppm is not a camera clock's drift (at most {most}, {hour} s an hour)",
                                            value=f"{drift:g}", most=f"{MAX_DRIFT_PPM:g}",
                                            hour=f"{MAX_DRIFT_PPM * 3.6e-3:g}"))
        if "seats" in camera and camera["seats"] is not None and (why := _file_name_problem(camera["seats"])):
            add(f"{where}.seats", why)
    _check_video_is_a_camera(data, videos, first_path, add)


def _check_video_is_a_camera(data: dict[str, Any], videos: list[Any], first_path: dict[str, int],
                             add: Callable[[str, str], None]) -> None:
    """With both `video` and `videos`, `video` must be one of the cameras, on the same clock."""
    video = data.get("video")
    if not isinstance(video, dict) or not videos:
        return
    path = video.get("path")
    if not isinstance(path, str) or not path or _escape_reason(path):
        if "path" not in video:
            add("video.path", _("missing: with several cameras (videos), video must name one of their files"))
        return  # a malformed path is already reported by _check_video
    i = first_path.get(_same_file(path))
    if i is None:
        add("video.path", _('"{path}" is none of the cameras\' files (videos[].path); with several cameras, '
                            "video must be one of them", path=path))
        return
    offset = video.get("offset_s", 0.0)
    camera_offset = videos[i].get("offset", 0.0)
    if is_number(offset) and is_number(camera_offset) and not math.isclose(offset, camera_offset, abs_tol=1e-6):
        add("video.offset_s", _("{offset} s disagrees with videos[{i}].offset {camera} s (the same file on two clocks)",
                                offset=f"{offset:g}", i=i, camera=f"{camera_offset:g}"))


def _file_name_problem(path: Any) -> str | None:
    """Why `path` cannot name a file inside the protocol's folder, or None."""
    if not isinstance(path, str) or not path:
        return _("must be a file name, not {value}", value=_show(path))
    return _escape_reason(path)


def _same_file(path: str) -> str:
    """One spelling per file, so `./a.mp4` and `a.mp4` (or `clips\\a.mp4`) are seen as the same camera file
    (the clock's own rule, which finds a camera's drift by its file)."""
    return same_file(path)


def camera_videos(data: dict[str, Any], where: str = "protocol") -> tuple[CameraVideo, ...]:
    """The one parser of `videos`: its cameras in file order, () when absent; InvalidInput with the first
    problem's JSON path when the list is malformed (the validator reports all of them)."""
    problems: list[Problem] = []
    _check_videos(data, lambda path, message: problems.append(Problem(path, message)))
    if problems:
        raise InvalidInput(f"{where}: {problems[0]}.")
    return tuple(CameraVideo(id=c["id"], path=c["path"], offset=float(c.get("offset", 0.0)), seats=c.get("seats"),
                             drift_ppm=float(c.get("drift_ppm", 0.0)))
                 for c in data.get("videos") or ())


def _check_players(data: dict[str, Any], add: Callable[[str, str], None]) -> None:
    players = _listed(data, "players", add, "players", missing=_("missing: the list of players at seats 1–10"))
    if players is None:
        return
    first_at: dict[int, int] = {}
    for i, where, player in _objects(players, "players", add, "player"):
        if "seat" not in player:
            add(f"{where}.seat", _("missing"))
        else:
            why = _seat(player["seat"])
            if why:
                add(f"{where}.seat", why)
            elif player["seat"] in first_at:
                add(f"{where}.seat", _("seat {seat} appears twice (also players[{first}])", seat=player["seat"],
                                       first=first_at[player["seat"]]))
            else:
                first_at[player["seat"]] = i
        if "nickname" in player and (why := _text_or_null(player["nickname"])):
            add(f"{where}.nickname", why)
        if "role" in player and (why := _one_of(*ROLES, None)(player["role"])):
            add(f"{where}.role", why)
    missing = [s for s in SEATS if s not in first_at]
    if missing:
        add("players", ngettext("seat {seats} missing (every seat 1–10 appears exactly once)",
                                "seats {seats} missing (every seat 1–10 appears exactly once)", len(missing),
                                seats=", ".join(map(str, missing))))


def _check_events(data: dict[str, Any], add: Callable[[str, str], None]) -> None:
    events = _listed(data, "events", add, "events", missing=_("missing: the list of events (may be empty)"),
                     most=MAX_EVENTS)
    if events is None:
        return
    last_t: tuple[float, int] | None = None  # (time, index) of the latest timed event so far
    for i, where, event in _objects(events, "events", add, "event"):
        kind = event.get("type")
        if "type" not in event:
            add(f"{where}.type", _("missing"))
            continue
        if not isinstance(kind, str) or kind not in EVENT_FIELDS:
            add(f"{where}.type", _("unknown event type {value} (known: {known})", value=_show(kind),
                                   known=", ".join(EVENT_TYPES)))
            continue
        fields = {**_COMMON, **EVENT_FIELDS[kind]}
        bad: set[str] = set()
        for name, (check, required) in fields.items():
            if name not in event:
                if required:
                    add(f"{where}.{name}", _("missing (a {kind} event needs it)", kind=kind))
                    bad.add(name)
                continue
            why = check(event[name])
            if why:
                add(f"{where}.{name}", why)
                bad.add(name)
        if kind == "phase" and not bad & {"phase", "number"} and event["phase"] != "night" and event["number"] < 1:
            message = (_("day {n} does not exist (day 1 follows night 0)", n=event["number"]) if event["phase"] == "day"
                       else _("voting {n} does not exist (day 1 follows night 0)", n=event["number"]))
            add(f"{where}.number", message)
            bad.add("number")
        if kind == "check" and not bad & {"by", "result"} and event["result"] not in _CHECK_RESULTS[event["by"]]:
            if event["by"] == "don":
                message = _('a don check answers "sheriff" or "not_sheriff", not "{value}"', value=event["result"])
            else:
                message = _('a sheriff check answers "black" or "red", not "{value}"', value=event["result"])
            add(f"{where}.result", message)
        # Times inside one event: a vote's window opens, closes, then the count is announced.
        order = ("t", "cutoff", "announced") if kind in ("vote", "lift_vote") else ("t", "end")
        timed = [(name, event[name]) for name in order if name in fields and name in event and name not in bad]
        for (a, ta), (b, tb) in zip(timed, timed[1:], strict=False):
            if tb < ta:
                add(f"{where}.{b}", _("{later} {later_t} s comes before {earlier} {earlier_t} s", later=b,
                                      later_t=f"{tb:g}", earlier=a, earlier_t=f"{ta:g}"))
        # Times across events: events are in game order, so `t` never goes back.
        if "t" in event and "t" not in bad:
            if last_t is not None and event["t"] < last_t[0]:
                add(f"{where}.t", _("time {t} s goes back before events[{j}] at {before} s (events are in game order)",
                                    t=f"{event['t']:g}", j=last_t[1], before=f"{last_t[0]:g}"))
            else:
                last_t = (event["t"], i)


# ------------------------------------------------------------------------------------------ validate / video


def validate(protocol: Protocol | dict[str, Any]) -> list[Problem]:
    """Format problems; when the format is sound, also every place the game disagrees with its rules."""
    data = protocol.data if isinstance(protocol, Protocol) else protocol
    problems = format_problems(data)
    if problems:
        return problems
    return list(engine.replay(data).problems)


def _escape_reason(path: str) -> str | None:
    """Why `video.path` would leave the protocol's folder, or None (checked as POSIX and as Windows path)."""
    for pure in (PurePosixPath(path), PureWindowsPath(path)):
        if pure.anchor or pure.drive:
            return _('"{path}" is an absolute path; it must be relative to the protocol\'s folder', path=path)
        depth = 0
        for part in pure.parts:
            depth += -1 if part == ".." else (0 if part == "." else 1)
            if depth < 0:
                return _('"{path}" leaves the protocol\'s folder; it must stay inside it', path=path)
    if "\x00" in path:
        return _("contains a NUL character")
    return None


def resolve_video_path(protocol: Protocol) -> Path:
    """The video file named by `video.path`, inside the protocol's folder; InvalidInput for anything else."""
    where = str(protocol.path) if protocol.path is not None else "protocol"
    video = protocol.data.get("video")
    path = video.get("path") if isinstance(video, dict) else None
    if not isinstance(path, str) or not path:
        raise InvalidInput(_("{path}: the protocol names no video (video.path).", path=where))
    return _resolve_inside(protocol, path, "video.path")


def resolve_camera_path(protocol: Protocol, camera: CameraVideo, field: str = "path") -> Path:
    """A camera's video (`field="path"`) or seat map (`field="seats"`), inside the protocol's folder;
    InvalidInput for a camera without a seat map or a link that leads outside."""
    where = str(protocol.path) if protocol.path is not None else "protocol"
    index = next((i for i, c in enumerate(protocol.videos) if c == camera), None)
    name = f"videos[{index}].{field}" if index is not None else f"camera {camera.id!r} {field}"
    path = camera.seats if field == "seats" else camera.path
    if path is None:
        raise InvalidInput(_('{path}: camera "{camera}" names no seat map ({field}).', path=where, camera=camera.id,
                             field=name))
    return _resolve_inside(protocol, path, name)


def _resolve_inside(protocol: Protocol, path: str, name: str) -> Path:
    """`path` under the protocol's folder, refused (InvalidInput naming the field) when it or a link on its way
    leaves that folder."""
    where = str(protocol.path) if protocol.path is not None else "protocol"
    why = _escape_reason(path)
    if why:
        raise InvalidInput(f"{where}: {name} {why}.")
    folder = protocol.folder if protocol.folder is not None else Path.cwd()
    candidate = folder / path
    # A symlink (the file, or a folder on the way) may still point outside: judge where it really leads.
    try:
        real, home = candidate.resolve(), folder.resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        raise InvalidInput(_('{where}: {field} "{path}" is a link that cannot be followed (it loops).', where=where,
                             field=name, path=path)) from exc
    if not real.is_relative_to(home):
        raise InvalidInput(_('{where}: {field} "{path}" is a link that leads outside the protocol\'s folder.',
                             where=where, field=name, path=path))
    return candidate
