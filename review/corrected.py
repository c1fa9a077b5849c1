"""The corrected protocol: the judge's original protocol plus the findings a judge confirmed.

Why a derived copy: the original protocol is the record the table judge signed; a review adds to it
(new fouls and fines with their clause, corrected vote counts) and says where each change came from,
but never rewrites or overwrites the original file.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from review.appeals import Decision as AppealDecision
from review.errors import InvalidInput
from review.jsonio import write_json
from review.store import Decision

# Consequences that add an event to the protocol, and the event type they add. A profile's
# "warning" (mafclub замечание, lvi2015 предупреждение) is written as the protocol's `foul` event.
_PENALTY_EVENTS = {"foul": "foul", "warning": "foul", "fine": "fine", "removal": "removal"}


def corrected_protocol(
    data: Mapping[str, Any],
    decisions: Iterable[Decision],
    *,
    votes: Iterable[Mapping[str, Any]] = (),
    source: str | None = None,
    appeals: Iterable[tuple[str, AppealDecision]] = (),
) -> dict[str, Any]:
    """Return a new protocol dict: `data` with every standing decision applied (the input is not modified).

    - foul / warning / fine / removal consequences add that event, with the clause and the finding's text
      as reason, right after the vote (or night event) the finding is about;
    - `not_counted` takes the seat's hand off that candidate's count (and `voters`);
    - `count_mismatch` sets the count to the judge's edited `count`, else to the video's count from the
      audit's `votes` rows (an absolute correction, applied after the relative ones).
    Each applied change is listed under `x_review.changes`; rejected decisions change nothing.
    `appeals` are (case id, decision in force) of decided appeal cases: a changed result is written beside
    the played one as the `result` event's `x_appeal` (the game as played stays valid under its rules), a
    fine given on appeal is added at the end of the game (rfm 5.10: fines may be given after it), and every
    appeal decision, a replay or a fine taken off included, is listed under `x_review.appeals`.
    """
    out = copy.deepcopy(dict(data))
    events: list[dict[str, Any]] = out.setdefault("events", [])
    vote_rows = list(votes)
    changes: list[dict[str, Any]] = []
    inserts: list[tuple[int, dict[str, Any]]] = []  # (after original index, event)
    absolute: list[tuple[dict[str, Any], int, Decision]] = []

    standing = sorted((d for d in decisions if d.stands), key=lambda d: (d.at, d.finding_key))
    for d in standing:
        f = d.effective_finding
        cons = f.get("consequence") or {}
        ctype = cons.get("type")
        origin = {"finding": d.finding_key, "status": d.status, "who": d.who, "reason": d.reason}
        seat = f.get("seat")
        if f.get("kind") == "count_mismatch":
            target = _vote_event(events, f)
            count = (d.edited or {}).get("count")
            if count is None:
                count = f.get("x_video_count", _video_count(vote_rows, f))
            if target is None or count is None:
                changes.append({**origin, "change": "none: the vote or the video's count is not known"})
                continue
            absolute.append((target, int(count), d))
        elif ctype in _PENALTY_EVENTS and seat is not None:
            event: dict[str, Any] = {"type": _PENALTY_EVENTS[ctype], "seat": seat}
            if ctype == "fine":
                event["points"] = cons.get("points")
            event["clause"] = f.get("clause")
            event["reason"] = cons.get("text") or f.get("kind")
            event["x_review"] = origin
            if f.get("t") is not None:
                event["t"] = f["t"]
            inserts.append((_anchor(events, f), event))
            changes.append({**origin, "change": f"added {event['type']} for seat {seat} ({f.get('clause')})"})
        elif ctype == "not_counted" and seat is not None:
            target = _vote_event(events, f)
            if target is None:
                changes.append({**origin, "change": "none: the vote is not in the protocol"})
                continue
            before = target.get("count")
            voters = target.get("voters")
            if isinstance(voters, list) and seat in voters:
                target["voters"] = [s for s in voters if s != seat]
            if isinstance(before, int) and (not isinstance(voters, list) or seat in voters):
                target.setdefault("x_original_count", before)
                target["count"] = max(0, before - 1)
            changes.append({**origin, "change": f"seat {seat}'s hand not counted for seat {f.get('candidate')}: "
                                                 f"count {before} -> {target.get('count')}"})
        else:
            changes.append({**origin, "change": f"none: {ctype or 'no'} consequence changes no event"})

    for target, count, d in absolute:
        before = target.get("count")
        target.setdefault("x_original_count", before)
        target["count"] = count
        changes.append({"finding": d.finding_key, "status": d.status, "who": d.who, "reason": d.reason,
                        "change": f"count for seat {target.get('candidate')} {before} -> {count}"})

    for after, event in sorted(inserts, key=lambda item: item[0], reverse=True):
        events.insert(after + 1, event)
    out["x_review"] = {"source": source, "changes": changes, "appeals": _apply_appeals(events, appeals)}
    return out


def _apply_appeals(events: list[dict[str, Any]], appeals: Iterable[tuple[str, AppealDecision]]) -> list[dict[str, Any]]:
    listed = []
    for case_id, d in appeals:
        origin = {"case": case_id, "decision": d.summary, "who": d.decided_by, "reasoning": d.reasoning}
        if d.outcome == "result_changed" and d.winner:
            result = next((e for e in reversed(events) if e.get("type") == "result"), None)
            if result is None:
                result = {"type": "result"}
                events.append(result)
            result["x_appeal"] = {"winner": d.winner, **origin}
        for a in d.adjustments:
            if a.points < 0:
                events.append({"type": "fine", "seat": a.seat, "points": a.points, "clause": a.clause,
                               "reason": f"appeal {case_id}", "x_review": origin})
        listed.append({**origin, "adjustments": [{"seat": a.seat, "points": a.points, "clause": a.clause}
                                                 for a in d.adjustments]})
    return listed


def write_corrected_protocol(path: str | os.PathLike[str], corrected: Mapping[str, Any],
                             original: str | os.PathLike[str] | None) -> Path:
    """Atomically write the corrected protocol, refusing to overwrite the original protocol file."""
    target = Path(path)
    if original is not None and target.resolve() == Path(original).resolve():
        raise InvalidInput(f"{target}: this is the original protocol; the corrected one is written beside it, never over it.")
    return write_json(target, dict(corrected))


def corrected_name(original: str | os.PathLike[str] | None) -> str:
    """`game3.protocol.json` -> `game3.corrected.protocol.json`."""
    name = Path(original).name if original else "game.protocol.json"
    stem = name[: -len(".protocol.json")] if name.endswith(".protocol.json") else Path(name).stem
    return f"{stem}.corrected.protocol.json"


def _vote_event(events: list[dict[str, Any]], f: Mapping[str, Any]) -> dict[str, Any] | None:
    for e in events:
        if (e.get("type") == "vote" and e.get("day") == f.get("day") and e.get("round", 1) == (f.get("round") or 1)
                and e.get("candidate") == f.get("candidate")):
            return e
    return None


def _video_count(rows: list[Mapping[str, Any]], f: Mapping[str, Any]) -> int | None:
    for r in rows:
        if (r.get("kind") == "vote" and r.get("day") == f.get("day") and r.get("round") == f.get("round")
                and r.get("candidate") == f.get("candidate")):
            return r.get("video_count")
    return None


def _anchor(events: list[dict[str, Any]], f: Mapping[str, Any]) -> int:
    """Index of the event a new foul/fine belongs after: the finding's vote, else the last event of its
    day's voting or of its night, else the end of the game (fines may be given after it, rfm 5.10)."""
    last = len(events) - 1
    if f.get("night") is not None and f.get("day") is None:
        hits = [i for i, e in enumerate(events) if e.get("night") == f["night"] and e.get("type") in ("shooting", "check")]
        return hits[-1] if hits else last
    exact = [i for i, e in enumerate(events) if e.get("type") in ("vote", "lift_vote") and e.get("day") == f.get("day")
             and e.get("round", 1) == (f.get("round") or 1) and e.get("candidate") == f.get("candidate")]
    if exact:
        return exact[-1]
    day_votes = [i for i, e in enumerate(events) if e.get("type") in ("vote", "lift_vote") and e.get("day") == f.get("day")]
    return day_votes[-1] if day_votes else last
