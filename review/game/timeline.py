"""Which moments of the video matter for the vote audit, and with which times.

Every `vote` / `lift_vote` event becomes a `VoteWindow`: the candidate is named at `t`, the vote
closes at `cutoff` («Стоп» / «Спасибо»), the count is announced at `announced` — all on the video's
clock (`video.offset_s` added to the protocol's times). A time the protocol lacks comes from the
judge's marks sidecar, else from the stated defaults (cutoff = t + 1.5 s, announced = cutoff + 1 s),
and a window remembers which of its times were assumed so every finding resting on them says so.

The judge's marks sidecar — `NAME.marks.json` next to `NAME.protocol.json` — is a small file the
judge (or the app) writes while stepping through the video:

    {"format": "stopframe-marks/1",
     "marks": [{"event": 14, "t": 812.40, "cutoff": 813.88},
               {"day": 2, "round": 1, "candidate": 5, "announced": 1650.2},
               {"day": 3, "round": 3, "candidates": [2, 7], "t": 2410.0}]}

A mark names its vote by `event` (0-based index in the protocol's `events`) or by `day`, `round` and
`candidate` (`candidates` for a lift vote); its times are seconds read off the video itself, so
`offset_s` is not applied to them. Protocol times win over marks; marks win over defaults.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from contract.clock import Clock
from contract.errors import UnreadableInput
from contract.i18n import _
from contract.jsonio import read_document
from contract.spans import merged

MARKS_FORMAT = "stopframe-marks/1"
TIME_NAMES = ("t", "cutoff", "announced")
DEFAULT_VOTE_S = 1.5  # «Стоп» about 1.5 s after the candidate is named (rfm 4.4.6)
DEFAULT_ANNOUNCE_S = 1.0  # the count follows «Стоп» about a second later
WINDOW_LEAD_S = 1.5  # decoded before the first `t` of a round: early hands land before it
WINDOW_TAIL_S = 1.5  # decoded after the last `announced`: late hands and lifts after the count


@dataclass(frozen=True)
class VoteWindow:
    """One candidate's vote (or one lift vote) with its times on the video's clock."""

    event_index: int
    kind: str  # "vote" | "lift"
    day: int
    round: int
    candidate: int | None
    candidates: tuple[int, ...]
    t: float | None
    cutoff: float | None
    announced: float | None
    # per time name: "protocol", "marks" or "default"
    sources: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def timed(self) -> bool:
        return self.t is not None and self.cutoff is not None and self.announced is not None

    @property
    def assumed(self) -> tuple[str, ...]:
        """The times taken from the defaults rather than the protocol or the judge's marks."""
        return tuple(name for name in TIME_NAMES if self.sources.get(name) == "default")

    @property
    def label(self) -> str:
        """The vote as the audit report and the draft list it (`x_untimed_votes`, `x_draft_untimed`): a code of
        those files, kept in English whatever the reader's language."""
        return vote_label(self.kind, self.day, self.round, self.candidate, self.candidates)


def vote_label(kind: str, day: Any, round_: Any, candidate: Any, candidates: Sequence[Any]) -> str:
    """A vote's label as the files keep it (English, whatever the reader's language)."""
    what = f"candidate {candidate}" if kind == "vote" else "lift " + ", ".join(map(str, candidates))
    return f"day {day} round {round_} {what}"


_LABEL = re.compile(r"day (\d+) round (\d+) (?:candidate (\d+)|lift ([\d, ]+))")


def label_words(label: str) -> str:
    """A vote's label as the files keep it (`VoteWindow.label`, English) in the reader's words; a label of
    another shape is shown as written."""
    m = _LABEL.fullmatch(str(label))
    if m is None:
        return str(label)
    day, rnd, candidate, lift = m.groups()
    if candidate is not None:
        return _("day {day}, round {round}: candidate {candidate}", day=day, round=rnd, candidate=candidate)
    return _("day {day}, round {round}: lifting {seats}", day=day, round=rnd, seats=lift)


@dataclass(frozen=True)
class VoteRound:
    """The windows of one voting round (its candidates in order, or one lift vote)."""

    day: int
    round: int
    kind: str
    windows: tuple[VoteWindow, ...]

    @property
    def timed(self) -> bool:
        return all(w.timed for w in self.windows)

    @property
    def start(self) -> float:
        return min(w.t for w in self.windows if w.t is not None)

    @property
    def end(self) -> float:
        return max(w.announced for w in self.windows if w.announced is not None)


@dataclass(frozen=True)
class Mark:
    """The judge's times for one vote, read off the video."""

    times: dict[str, float]
    event: int | None = None
    key: tuple[Any, ...] | None = None  # (day, round, candidate-or-candidates)


def load_marks(path: str | os.PathLike[str]) -> list[Mark]:
    """Read a `stopframe-marks/1` sidecar; UnreadableInput naming the file and place on any problem."""
    where = Path(path)
    data = read_document(where, "marks file", MARKS_FORMAT)
    items = data.get("marks", [])
    if not isinstance(items, list):
        raise UnreadableInput(_("{path}: marks must be a list.", path=where))
    marks = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise UnreadableInput(_("{path}: marks[{i}] must be an object.", path=where, i=i))
        times = {}
        for name in TIME_NAMES:
            value = item.get(name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise UnreadableInput(_("{path}: marks[{i}].{name} must be a time in seconds (a number ≥ 0).", path=where,
                                        i=i, name=name))
            times[name] = float(value)
        event = item.get("event")
        if event is not None and (isinstance(event, bool) or not isinstance(event, int)):
            raise UnreadableInput(_("{path}: marks[{i}].event must be an event index.", path=where, i=i))
        key = None
        if event is None:
            if not all(isinstance(item.get(k), int) for k in ("day", "round")):
                raise UnreadableInput(_("{path}: marks[{i}] names no vote (give \"event\", or \"day\", \"round\" and "
                                        "\"candidate\").", path=where, i=i))
            target = tuple(item["candidates"]) if "candidates" in item else item.get("candidate")
            key = (item["day"], item["round"], target)
        marks.append(Mark(times=times, event=event, key=key))
    return marks


def marks_path_for(protocol_path: str | os.PathLike[str]) -> Path:
    """`NAME.protocol.json` → `NAME.marks.json` (the sidecar's conventional place)."""
    p = Path(protocol_path)
    stem = p.name[: -len(".protocol.json")] if p.name.endswith(".protocol.json") else p.stem
    return p.with_name(f"{stem}.marks.json")


def vote_windows(data: dict[str, Any], marks: Sequence[Mark] = ()) -> list[VoteWindow]:
    """Every vote and lift vote of the protocol, in order, with times on the video's clock."""
    clock = Clock.of_protocol(data)
    by_event = {m.event: m for m in marks if m.event is not None}
    by_key = {m.key: m for m in marks if m.key is not None}
    last_round: dict[int, int] = {}
    windows = []
    for index, ev in enumerate(data.get("events", [])):
        if not isinstance(ev, dict) or ev.get("type") not in ("vote", "lift_vote"):
            continue
        day = int(ev.get("day") or 0)
        kind = "vote" if ev["type"] == "vote" else "lift"
        rnd = ev.get("round")
        if not isinstance(rnd, int):  # a lift vote's round is optional: it follows the day's last round
            rnd = last_round.get(day, 0) + (1 if kind == "lift" else 0) or 1
        last_round[day] = rnd
        candidate = ev.get("candidate") if kind == "vote" else None
        candidates = (candidate,) if kind == "vote" else tuple(ev.get("candidates") or ())
        mark = by_event.get(index) or by_key.get((day, rnd, candidate if kind == "vote" else candidates))
        times: dict[str, float | None] = {}
        sources: dict[str, str] = {}
        for name in TIME_NAMES:
            value = ev.get(name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                times[name], sources[name] = clock.video_time(value), "protocol"
            elif mark is not None and name in mark.times:
                times[name], sources[name] = mark.times[name], "marks"
            else:
                times[name] = None
        _fill_defaults(times, sources)
        windows.append(
            VoteWindow(index, kind, day, rnd, candidate, candidates, times["t"], times["cutoff"], times["announced"], sources)
        )
    return _announced_before_next(windows)


def _announced_before_next(windows: list[VoteWindow]) -> list[VoteWindow]:
    """A default `announced` never runs past the next candidate's naming: the judge announced before it."""
    out = list(windows)
    for i, w in enumerate(out[:-1]):
        nxt = out[i + 1]
        if (
            w.sources.get("announced") == "default" and nxt.t is not None and w.announced is not None
            and (nxt.day, nxt.round, nxt.kind) == (w.day, w.round, w.kind) and w.cutoff < nxt.t < w.announced
        ):
            out[i] = replace(w, announced=nxt.t)
    return out


def _fill_defaults(times: dict[str, float | None], sources: dict[str, str]) -> None:
    """Fill missing times from the ones present with the stated defaults; nothing known, nothing filled."""
    t, cutoff, announced = times["t"], times["cutoff"], times["announced"]
    if t is None and cutoff is None and announced is None:
        return
    if cutoff is None:
        cutoff = t + DEFAULT_VOTE_S if t is not None else announced - DEFAULT_ANNOUNCE_S
        sources["cutoff"] = "default"
    if t is None:
        t = cutoff - DEFAULT_VOTE_S
        sources["t"] = "default"
    if announced is None:
        announced = cutoff + DEFAULT_ANNOUNCE_S
        sources["announced"] = "default"
    times.update(t=t, cutoff=cutoff, announced=announced)


def vote_rounds(windows: Iterable[VoteWindow]) -> list[VoteRound]:
    """Group windows into rounds: one day's round of candidates, or one lift vote."""
    groups: dict[tuple[int, int, str], list[VoteWindow]] = {}
    for w in windows:
        groups.setdefault((w.day, w.round, w.kind), []).append(w)
    return [VoteRound(day, rnd, kind, tuple(ws)) for (day, rnd, kind), ws in groups.items()]


def analysis_windows(
    rounds: Iterable[VoteRound], lead: float = WINDOW_LEAD_S, tail: float = WINDOW_TAIL_S
) -> list[tuple[float, float]]:
    """The stretches of video to decode: each timed round with a margin, overlapping ones merged."""
    return merged((max(0.0, r.start - lead), r.end + tail) for r in rounds if r.timed)
