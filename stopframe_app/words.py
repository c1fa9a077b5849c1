"""People's words for the values the app shows: finding kinds, consequences, outcomes, seats, times.

Why one module: a judge reads pages and exports, not Python. No `None`, list or dict repr, internal code
(`counted_for_last`, `result_stands`) or unrounded float should reach them; every page and export takes
its wording from here, and tests/app/test_app_words.py walks every page to hold that.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from review.audit.findings import Finding, FindingConsequence

KINDS = {
    "late_vote": "late vote", "early_hand": "early hand", "lifted_early": "lifted early", "no_vote": "no vote",
    "double_vote": "double vote", "wrong_form": "wrong form", "gesture": "gesture", "night_hand": "night hand",
    "count_mismatch": "count mismatch", "shot_mismatch": "shot mismatch", "check_mismatch": "check mismatch",
    "cannot_see": "cannot see",
}
CONSEQUENCES = {
    "foul": "foul", "fine": "fine", "warning": "warning", "removal": "removal", "not_counted": "vote not counted",
    "counted_for_last": "vote counted for the last candidate", "none": "no penalty",
}
OUTCOMES = {
    "result_stands": "the result stands", "result_changed": "the result is changed", "replay": "the game is replayed",
    "points_adjusted": "points are adjusted",
}
POSES = {"fist": "fist", "thumb_up_fist": "thumb-up fist", "open_palm": "open palm", "finger": "finger",
         "other": "other hand shape", "hand": "hand"}
STATUSES = {"open": "open", "confirmed": "confirmed", "rejected": "rejected", "edited": "edited",
            "withdrawn": "reopened", "decided": "decided"}
ACTIONS = {"decide": "decided", "withdraw": "reopened", "open": "opened", "save": "saved", "amend": "amended"}
ASSUMED = {"t": "the naming", "cutoff": "«Стоп»", "announced": "the count", "count_times": "the count times"}

_CODES = {**KINDS, **CONSEQUENCES, **OUTCOMES, **POSES}
_CODE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def kind(code: Any) -> str:
    return KINDS.get(str(code), str(code or "finding").replace("_", " "))


def consequence(code: Any) -> str:
    return CONSEQUENCES.get(str(code), str(code or "no penalty").replace("_", " "))


def outcome(code: Any) -> str:
    return OUTCOMES.get(str(code), str(code or "—").replace("_", " "))


def pose(code: Any) -> str:
    return POSES.get(str(code), str(code or "hand").replace("_", " "))


def status(code: Any) -> str:
    return STATUSES.get(str(code), str(code or "open").replace("_", " "))


def humanise(text: Any) -> str:
    """Free text from review/ with any internal code in it replaced by its words."""
    return _CODE.sub(lambda m: _CODES.get(m.group(0), m.group(0).replace("_", " ")), str(text or ""))


def number(value: Any, digits: int = 2) -> str:
    """A number as a judge writes it: `23.7`, `-0.2`, `5`; empty for nothing."""
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    try:
        x = round(float(value), digits)
    except (TypeError, ValueError):
        return str(value)
    return f"{x:.{digits}f}".rstrip("0").rstrip(".") if x != int(x) else str(int(x))


def seconds(value: Any) -> str:
    """`23.70 s`; `—` where no time is known."""
    return "—" if value is None else f"{float(value):.2f} s"


def seat_list(numbers: Iterable[Any] | None) -> str:
    """`1, 2, 9`; `—` for none."""
    ns = [str(n) for n in numbers or ()]
    return ", ".join(ns) if ns else "—"


def who(f: Finding | Mapping[str, Any]) -> str:
    """Whom a finding (or an exported row, or an appeal's evidence) is about: `seat 9`, `seats 1, 9`, or
    `the count` (a miscount names no one seat)."""
    seat, seats = (f.seat, f.seats) if isinstance(f, Finding) else (f.get("seat"), f.get("seats"))
    if seat is not None:
        return f"seat {seat}"
    if seats:
        return ("seat " if len(seats) == 1 else "seats ") + ", ".join(map(str, seats))
    return "the count"


def where(f: Finding | Mapping[str, Any]) -> str:
    """`day 1, round 1, candidate 8` / `night 2`, leaving out what the finding (or row) does not have."""
    if isinstance(f, Finding):
        day, night, rnd, candidate, candidates = f.day, f.night, f.round, f.candidate, None
    else:
        day, night, rnd = f.get("day"), f.get("night"), f.get("round")
        candidate, candidates = f.get("candidate"), f.get("candidates")
    if night is not None and day is None:
        return f"night {night}"
    parts = []
    if day is not None:
        parts.append(f"day {day}")
    if rnd is not None:
        parts.append(f"round {rnd}")
    if candidate is not None:
        parts.append(f"candidate {candidate}")
    elif candidates:
        parts.append("lift vote for " + ", ".join(map(str, candidates)))
    return ", ".join(parts) or "the game"


def consequence_text(cons: FindingConsequence | Mapping[str, Any] | None) -> str:
    """`fine −0.5`, `foul`, `no penalty`."""
    if isinstance(cons, FindingConsequence):
        ctype, points = cons.type, cons.points
    else:
        ctype, points = (cons or {}).get("type"), (cons or {}).get("points")
    text = consequence(ctype)
    if points is not None:
        text += f" {number(points)}"
    return text


def counts_text(counts: Mapping[Any, int]) -> str:
    """`candidate 6: 5 votes, candidate 3: 1 vote`."""
    return ", ".join(f"candidate {c}: {n} vote{'s' * (n != 1)}" for c, n in counts.items()) or "no votes"


def assumed(names: Iterable[str]) -> str:
    return ", ".join(ASSUMED.get(n, n.replace("_", " ")) for n in names)


def vote_outcome_text(text: Any) -> str:
    """The audit's outcome text (`seat 6 leaves`), or `—` where it could not be worked out."""
    return "—" if text in (None, "") else humanise(text)


def json_place(path: Any) -> str:
    """`events[7].t` -> `event 8, its time`: where in the protocol, counted as a judge counts (from 1)."""
    text = str(path or "")
    names = {"t": "its time", "count": "its count", "voters": "its voters", "seat": "its seat",
             "candidate": "its candidate", "players": "the players", "events": "the events"}
    parts = []
    for m in re.finditer(r"(\w+)(?:\[(\d+)\])?", text):
        key, index = m.group(1), m.group(2)
        if index is not None:
            parts.append(f"{key.rstrip('s')} {int(index) + 1}")
        else:
            parts.append(names.get(key, key.replace("_", " ")))
    return ", ".join(parts) or "the protocol"
