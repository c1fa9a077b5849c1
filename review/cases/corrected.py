"""The corrected protocol: the judge's original protocol plus the findings a judge confirmed.

Why a derived copy: the original protocol is the record the table judge signed; a review adds to it
(new fouls and fines with their clause, corrected vote counts) and says where each change came from,
but never rewrites or overwrites the original file.

Why it always validates: the file a chief judge signs must replay under its own rules. Each confirmed
finding becomes one change (an added foul, fine or removal after the vote or night it is about; a count
taken down or set), applied in game order; after each one the corrected game is checked with the same
validator `stopframe validate` uses, and the round's outcome with the engine's own arithmetic. A change
the game as played cannot take (a removal of a player who went on playing, a count that would send
another player out, a 4th foul nobody was removed for) is refused with one sentence naming the finding
and why. `check_corrections` gives those sentences before an export; `corrected_protocol` raises
`CorrectionError` with them (or, with `strict=False`, leaves those findings out and lists them).
"""

from __future__ import annotations

import copy
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from contract import i18n
from contract.errors import InvalidInput
from contract.i18n import N_, _, ngettext, term
from contract.jsonio import write_json
from contract.outputs import check_output
from review.audit.findings import Finding, VoteReport
from review.audit.tally import tally
from review.cases.appeals import Decision as AppealDecision
from review.cases.club_exports import event_words
from review.cases.store import Decision
from review.game.engine import replay
from review.game.problems import ENDS_GAME, REMOVAL_DUE, Problem
from review.game.profiles import Profile, get_profile
from review.game.voting import Outcome, VoteContext, lift_outcome, outcome_words, vote_outcome

# Consequences that add an event to the protocol, and the event type they add. A profile's
# "warning" (mafclub замечание, lvi2015 предупреждение) is written as the protocol's `foul` event.
_PENALTY_EVENTS = {"foul": "foul", "warning": "foul", "fine": "fine", "removal": "removal"}

# A finding's kind as a judge names it in a sentence (catalogue messages, looked up with `_`).
KIND_WORDS = {
    "late_vote": N_("late vote"), "early_hand": N_("early hand"), "lifted_early": N_("hand lifted early"),
    "no_vote": N_("missing vote"), "double_vote": N_("double vote"), "wrong_form": N_("wrong form of vote"),
    "gesture": N_("gesture during the vote"), "count_mismatch": N_("miscount"),
    "night_hand": N_("hand raised at night"), "shot_mismatch": N_("shooting that differs from the protocol"),
    "check_mismatch": N_("check that differs from the protocol"), "cannot_see": N_("seat the camera cannot see"),
}
# Why a confirmed night finding with no penalty changes no event: the game as played went on from what the judge
# announced (rfm 7.1.2.4, 7.1.2.1: a changed result for such an error is decided as an appeal).
_NO_PENALTY = {
    "shot_mismatch": N_("the game went on from the shooting as the judge announced it; a wrongly announced miss or "
                        "kill is decided as an appeal, not in the protocol"),
    "check_mismatch": N_("the game went on from the check as the judge answered it; a wrong answer to a check is "
                         "decided as an appeal, not in the protocol"),
}
# An event a confirmed finding adds, as its line in `x_review.changes`.
_ADDED = {"foul": N_("added foul for seat {seat}{clause}"), "fine": N_("added fine {points} for seat {seat}{clause}"),
          "removal": N_("added removal for seat {seat}{clause}")}


@dataclass(frozen=True)
class CorrectionProblem:
    """A confirmed finding the corrected protocol cannot take, and why, as one sentence."""

    finding_key: str | None  # None (and no finding): the protocol itself is the problem
    finding: Finding | None
    sentence: str


class CorrectionError(InvalidInput):
    """Confirmed findings that cannot be applied; `problems` holds every one, the message the first."""

    def __init__(self, problems: Sequence[CorrectionProblem]) -> None:
        self.problems = list(problems)
        first = self.problems[0].sentence
        more = len(self.problems) - 1
        if more:
            first = ngettext("{sentence} (and {n} more finding cannot be applied).",
                             "{sentence} (and {n} more findings cannot be applied).", more, sentence=first[:-1])
        super().__init__(first)


def kind_words(kind: str) -> str:
    """A finding's kind as a judge names it in a sentence, in the current language."""
    return _(KIND_WORDS[kind]) if kind in KIND_WORDS else term("kind", kind)


def describe_finding(f: Finding) -> str:
    """A finding in a judge's words: "the late vote of seat 9 on day 1, the vote on candidate 8 (rfm 4.4.7)"."""
    if f.night is not None and f.day is None:
        when = _("night {night}", night=f.night)
    else:
        when = (_("day {day}, round {round}", day=f.day, round=f.round) if isinstance(f.round, int) and f.round > 1
                else _("day {day}", day=f.day))
        if f.candidate is not None:
            when = _("{when}, the vote on candidate {candidate}", when=when, candidate=f.candidate)
        elif f.extra.get("x_candidates"):
            when = _("{when}, the vote on lifting {seats}", when=when, seats=", ".join(map(str, f.extra["x_candidates"])))
    clause = f" ({f.clause})" if f.clause else ""
    if f.seat is not None:
        return _("the {what} of seat {seat} on {when}{clause}", what=kind_words(f.kind), seat=f.seat, when=when,
                 clause=clause)
    return _("the {what} on {when}{clause}", what=kind_words(f.kind), when=when, clause=clause)


# ---------------------------------------------------------------------------------------------- plans


@dataclass
class _Op:
    """One confirmed decision as a change to the protocol."""

    decision: Decision
    finding: Finding
    kind: str  # "insert" | "count" | "none"
    order: tuple[Any, ...]
    anchor: int = -1  # insert: after this original event index
    event: dict[str, Any] | None = None
    target: int = -1  # count: the vote event's index
    seat: int | None = None  # count: a hand not counted
    absolute: int | None = None  # count: the count set
    voters: list[int] | None = None  # count: the voters the video counted, where they match `absolute`
    fine: dict[str, Any] | None = None  # insert: the points a removal also costs (rfm 5.12), as a fine after it
    note: str = ""  # none: why the finding changes no event

    @property
    def origin(self) -> dict[str, Any]:
        d = self.decision
        return {"finding": d.finding_key, "status": d.status, "who": d.who, "reason": d.reason}


def _plan(events: list[dict[str, Any]], d: Decision, rows: list[VoteReport]) -> _Op | CorrectionProblem:
    f = d.effective_finding
    cons = f.consequence
    ctype = cons.type
    seat = f.seat
    t = f.t if _is_time(f.t) else None
    base_order = (t if t is not None else math.inf, f.kind, d.finding_key)
    name = describe_finding(f)

    def refuse(why: str) -> CorrectionProblem:
        return CorrectionProblem(d.finding_key, f, _cannot(name, why))

    if f.kind == "count_mismatch":
        target = _vote_index(events, f)
        if target is None:
            return refuse(_("the vote it is about is not in the protocol"))
        count = (d.edited or {}).get("count")
        if count is None:
            count = f.extra.get("x_video_count", _video_count(rows, f))
        if count is None:
            return refuse(_("the audit gives no count to set; edit the finding with the count you saw"))
        if isinstance(count, bool) or not isinstance(count, int | float) or count != int(count) or count < 0:
            return refuse(_("the count to set must be a whole number of votes, not {value}", value=_words(count)))
        return _Op(d, f, "count", (target, *base_order), target=target, absolute=int(count),
                   voters=_video_voters(rows, f, int(count)))
    if ctype in _PENALTY_EVENTS:
        if not isinstance(seat, int):
            return refuse(_("a {what} needs the seat it is given to", what=term("consequence", ctype)))
        event: dict[str, Any] = {"type": _PENALTY_EVENTS[ctype], "seat": seat}
        if ctype == "fine":
            points = cons.points
            if isinstance(points, bool) or not isinstance(points, int | float) or not math.isfinite(points) or points >= 0:
                return refuse(_("a fine needs its points as a negative number, not {value}", value=_words(points)))
            event["points"] = points
        if f.clause:
            event["clause"] = f.clause
        event["reason"] = _reason(d, f)
        anchor = _anchor(events, f)
        if t is not None:
            event["t"] = t  # kept where it fits the game order, else moved to x_video_t (_build)
        op = _Op(d, f, "insert", (anchor, *base_order), anchor=anchor, event=event)
        points = cons.points
        if ctype == "removal" and isinstance(points, int | float) and not isinstance(points, bool) and points < 0:
            # rfm 5.12: a disqualifying foul removes *and* costs points; the protocol's removal has no points
            op.fine = {**{k: v for k, v in event.items() if k != "type"}, "type": "fine", "points": points}
        return op
    if ctype == "not_counted" and isinstance(seat, int):
        target = _vote_index(events, f)
        if target is None:
            return refuse(_("the vote it is about is not in the protocol"))
        return _Op(d, f, "count", (target, *base_order), target=target, seat=seat)
    what = {"counted_for_last": N_("the vote already counts for the last candidate"),
            "none": _NO_PENALTY.get(f.kind, N_("the rules give no penalty for it"))}.get(
        str(ctype), N_("its consequence changes no event"))
    clause = f" ({f.clause})" if f.clause and ctype == "none" and f.kind in _NO_PENALTY else ""
    return _Op(d, f, "none", (len(events), *base_order), note=_("no change: {why}", why=_(what)) + clause)


def _build(data: Mapping[str, Any], ops: Sequence[_Op],
           rounds: _Rounds | None) -> tuple[dict[str, Any], dict[int, str], list[dict[str, Any]], list[int | None]]:
    """The protocol with `ops` applied; per count op whose round no longer adds up or turns out otherwise,
    why (keyed by id(op)); the change list for `x_review`; and each new event's index in the original
    (None for an added one)."""
    out = copy.deepcopy(dict(data))
    events: list[dict[str, Any]] = out.setdefault("events", [])
    changes: list[dict[str, Any]] = []
    issues: dict[int, str] = {}
    touched: dict[tuple[Any, ...], list[_Op]] = {}
    for op in ops:
        if op.kind == "none":
            changes.append({**op.origin, "change": op.note, "applied": False})
            continue
        if op.kind != "count":
            continue
        ev = events[op.target]
        before = ev.get("count")
        voters = ev.get("voters")
        if op.seat is not None:
            listed = isinstance(voters, list)
            if listed and op.seat in voters:
                ev["voters"] = [s for s in voters if s != op.seat]
            if isinstance(before, int) and (not listed or op.seat in voters):
                ev.setdefault("x_original_count", before)
                ev["count"] = max(0, before - 1)
            what = _("seat {seat}'s hand not counted for {whom}", seat=op.seat, whom=_whom(ev))
        else:
            ev.setdefault("x_original_count", before)
            ev["count"] = op.absolute
            if isinstance(voters, list) and len(set(voters)) != op.absolute:
                ev.setdefault("x_original_voters", voters)
                if op.voters is not None:
                    ev["voters"] = list(op.voters)
                else:
                    del ev["voters"]  # optional (spec §1); the video's voters are not known
            what = _("count for {whom} set from the video", whom=_whom(ev))
        changes.append({**op.origin, "change": _("{what}: count {before} -> {after}", what=what, before=_words(before),
                                                  after=_words(ev.get("count")))})
        if rounds is not None:
            touched.setdefault(rounds.key_of(op.target), []).append(op)
    if rounds is not None:
        for key, round_ops in touched.items():
            why = rounds.settle(events, key, changes, round_ops)
            if why:
                issues[id(round_ops[-1])] = why
    original = data.get("events") or []
    for op in ops:  # a count taken down and given back by the silent votes is no change
        if op.kind == "count" and op.target < len(original):
            ev = events[op.target]
            if ev.get("x_original_count") == ev.get("count") and "x_original_count" not in original[op.target]:
                del ev["x_original_count"]
    inserts: dict[int, list[_Op]] = {}
    for op in ops:
        if op.kind == "insert":
            inserts.setdefault(op.anchor, []).append(op)
    new_events: list[dict[str, Any]] = []
    inserted: set[int] = set()
    where: list[int | None] = []
    for i, ev in enumerate(events):
        new_events.append(ev)
        where.append(i)
        for op in sorted(inserts.get(i, ()), key=lambda o: o.order):
            for added in (op.event, op.fine):
                if added is None:
                    continue
                event = {**copy.deepcopy(added), "x_review": op.origin}
                inserted.add(len(new_events))
                new_events.append(event)
                where.append(None)
                points = i18n.number(event["points"], 2) if event["type"] == "fine" else ""
                clause = f" ({event['clause']})" if event.get("clause") else ""
                changes.append({**op.origin, "change": _(_ADDED[event["type"]], points=points, seat=event["seat"],
                                                         clause=clause)})
    _fit_times(new_events, inserted)
    out["events"] = new_events
    return out, issues, changes, where


def _fit_times(events: list[dict[str, Any]], inserted: set[int]) -> None:
    """Keep an added event's `t` only where it fits the game order; else it moves to `x_video_t`."""
    later = math.inf
    suffix_min = [math.inf] * (len(events) + 1)
    for i in range(len(events) - 1, -1, -1):
        t = events[i].get("t")
        if i not in inserted and _is_time(t):
            later = min(later, t)
        suffix_min[i] = later
    running = -math.inf
    for i, ev in enumerate(events):
        t = ev.get("t")
        if not _is_time(t):
            continue
        if i in inserted and not (running <= t <= suffix_min[i + 1]):
            ev["x_video_t"] = ev.pop("t")
            continue
        running = max(running, t)


@dataclass
class _Rounds:
    """The original game's voting rounds (from the engine's replay): which events make a round, who could
    vote, and what the round decided; `settle` re-adds a changed round the profile's way."""

    profile: Profile
    contexts: dict[int, VoteContext]
    outcomes: dict[int, Outcome]
    members: dict[tuple[Any, ...], list[int]] = field(default_factory=dict)

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> _Rounds:
        profile = get_profile(data.get("rules", ""))
        game = replay(dict(data), profile)
        rounds = cls(profile, dict(game.vote_contexts), dict(game.outcomes))
        for index, ctx in sorted(rounds.contexts.items()):
            rounds.members.setdefault((ctx.day, ctx.round, ctx.kind), []).append(index)
        return rounds

    def key_of(self, index: int) -> tuple[Any, ...]:
        ctx = self.contexts.get(index)
        return (ctx.day, ctx.round, ctx.kind) if ctx is not None else ("event", index)

    def settle(self, events: list[dict[str, Any]], key: tuple[Any, ...], changes: list[dict[str, Any]],
               ops: Sequence[_Op] = ()) -> str | None:
        """Give the last candidate the silent votes again (rfm 4.4.10 and the like) and compare the outcome."""
        members = self.members.get(key)
        if not members:
            return None
        p = self.profile
        ctx = self.contexts[members[-1]]
        if ctx.kind == "lift":
            yes = events[members[-1]].get("count")
            if not isinstance(yes, int):
                return None
            if yes > len(ctx.living):
                return _("{yes} hands for lifting are more than the {living} players at the table", yes=yes,
                         living=len(ctx.living))
            new = lift_outcome(p, ctx, yes)
        else:
            counts = {events[i]["candidate"]: events[i].get("count") for i in members}
            if not all(isinstance(c, int) for c in counts.values()) or len(members) != len(ctx.candidates):
                return None
            last = next((i for i in members if self.contexts[i].is_last_candidate), members[-1])
            others = sum(c for seat, c in counts.items() if seat != events[last]["candidate"])
            if others > len(ctx.living):
                return _("the counts for the other candidates would add up to {others} votes, more than the {living} "
                         "players at the table ({clause})", others=others, living=len(ctx.living),
                         clause=p.offence("count_mismatch").clause)
            if p.silent_vote_to_last.value:
                due = len(ctx.living) - others
                ev = events[last]
                set_here = [op for op in ops if op.absolute is not None and op.target == last]
                if set_here and set_here[-1].absolute != due:
                    return _("the last candidate's count is everyone at the table minus the votes for the others "
                             "({clause}): {living} − {others} = {due}, not {count}", clause=p.silent_vote_to_last.clause,
                             living=len(ctx.living), others=others, due=due, count=set_here[-1].absolute)
                if ev.get("count") != due:
                    before = ev.get("count")
                    ev.setdefault("x_original_count", before)
                    ev["count"] = due
                    counts[ev["candidate"]] = due
                    changes.append({"finding": None, "status": "derived", "who": None, "reason": None,
                                    "change": _("count for {whom} {before} -> {due}: the silent players' votes go to the "
                                                "last candidate ({clause})", whom=_whom(ev), before=_words(before), due=due,
                                                clause=p.silent_vote_to_last.clause)})
            elif sum(counts.values()) > len(ctx.living):
                return _("the counts would add up to {total} votes, more than the {living} players at the table "
                         "({clause})", total=sum(counts.values()), living=len(ctx.living),
                         clause=p.offence("count_mismatch").clause)
            new = vote_outcome(p, ctx, counts)
        old = self.outcomes.get(members[-1])
        if old is not None and (old.next, tuple(old.leaving), tuple(old.tied)) != (new.next, tuple(new.leaving), tuple(new.tied)):
            when = (_("day {day}, round {round}", day=ctx.day, round=ctx.round) if ctx.round > 1
                    else _("day {day}", day=ctx.day))
            return _("with it the vote of {when} gives \u201c{new}\u201d instead of \u201c{old}\u201d, and the game as "
                     "played went on from \u201c{old}\u201d; a changed result is decided as an appeal{clause}", when=when,
                     new=outcome_words(new.text), old=outcome_words(old.text),
                     clause=f" ({p.offence('count_mismatch').clause})" if p.id == "rfm" else "")
        return None


# ------------------------------------------------------------------------------------------- checking


def _resolve(data: Mapping[str, Any], decisions: Iterable[Decision],
             votes: Iterable[VoteReport]) -> tuple[list[_Op], list[CorrectionProblem]]:
    """The decisions that can be applied together (in game order) and a sentence for each that cannot."""
    from review.game.protocol import validate

    data = dict(data)
    base = validate(data)
    events = data.get("events") or []
    if base:
        return [], [CorrectionProblem(None, None, _("The protocol itself does not validate ({problem}), so no "
                                                    "correction can be signed on it; `stopframe validate` lists every "
                                                    "problem.", problem=_problem_words(base[0], events)))]
    rows = list(votes)
    standing = [d for d in decisions if d.stands]
    plans = [_plan(events, d, rows) for d in standing]
    problems = [p for p in plans if isinstance(p, CorrectionProblem)]
    ops = sorted((p for p in plans if isinstance(p, _Op)), key=lambda o: o.order)
    rounds = _Rounds.of(data)
    accepted: list[_Op] = []
    for op in ops:
        if op.kind == "none":
            accepted.append(op)
            continue
        out, issues, _changes, where = _build(data, [*accepted, op], rounds)
        why = issues.get(id(op))
        if why is None:
            found = validate(out)
            if found:
                why = _explain(op, found[0], out["events"], where)
        if why is None:
            accepted.append(op)
            continue
        together = [o for o in accepted if o.kind != "none" and _same_place(o, op)]
        if together:
            why = _("{why} (together with {findings})", why=why,
                    findings="; ".join(describe_finding(o.finding) for o in together))
        problems.append(CorrectionProblem(op.decision.finding_key, op.finding, _cannot(describe_finding(op.finding), why)))
    return accepted, problems


def correction_problems(data: Mapping[str, Any], decisions: Iterable[Decision], *,
                        votes: Iterable[VoteReport] = ()) -> list[CorrectionProblem]:
    """Every standing decision the corrected protocol cannot take, each with its finding and one sentence."""
    return _resolve(data, decisions, votes)[1]


def check_corrections(data: Mapping[str, Any], decisions: Iterable[Decision], *,
                      votes: Iterable[VoteReport] = ()) -> list[str]:
    """For the app, before an export: one sentence per confirmed (or edited) finding that the corrected
    protocol cannot take, naming the finding and why; an empty list when the export will validate.
    Same arguments as `corrected_protocol`."""
    return [p.sentence for p in correction_problems(data, decisions, votes=votes)]


def corrected_protocol(
    data: Mapping[str, Any],
    decisions: Iterable[Decision],
    *,
    votes: Iterable[VoteReport] = (),
    source: str | None = None,
    appeals: Iterable[tuple[str, AppealDecision]] = (),
    strict: bool = True,
) -> dict[str, Any]:
    """Return a new protocol dict: `data` with every standing decision applied (the input is not modified).

    - foul / warning / fine / removal consequences add that event, with the clause and the finding's text
      as reason, right after the vote round (or night) the finding is about; its `t` is kept where it fits
      the game order, else it is kept as `x_video_t`;
    - `not_counted` takes the seat's hand off that candidate's count (and `voters`);
    - `count_mismatch` sets the count to the judge's edited `count`, else to the video's count from the
      finding (`x_video_count`) or the audit's `votes` rows;
    - where the profile gives the silent players' votes to the last candidate (rfm 4.4.10, mafclub 2.4.10,
      lvi2015 5.4), a changed round's last count is re-added that way.
    The result validates and replays under the protocol's rules. A decision it cannot take raises
    `CorrectionError` (every sentence in `.problems`); with `strict=False` such decisions are left out and
    listed under `x_review.refused` instead. Each applied change is listed under `x_review.changes` (a standing
    finding whose consequence changes no event too, with `applied: false`); rejected decisions change nothing.
    The notes (reasons, changes, refusals) are in the current language (contract.i18n); keys and codes stay English.
    `appeals` are (case id, decision in force) of decided appeal cases: a changed result is written beside
    the played one as the `result` event's `x_appeal` (the game as played stays valid under its rules), a
    fine given on appeal is added at the end of the game (rfm 5.10: fines may be given after it), and every
    appeal decision, a replay or a fine taken off included, is listed under `x_review.appeals`.
    """
    decisions = list(decisions)
    rows = list(votes)
    accepted, problems = _resolve(data, decisions, rows)
    if problems and strict:
        raise CorrectionError(problems)
    if problems and any(p.finding_key is None for p in problems):
        accepted = []  # the protocol itself is invalid: nothing is applied to it
    out, _issues, changes, _where = _build(data, accepted, _Rounds.of(data) if accepted else None)
    review: dict[str, Any] = {"source": source, "changes": changes,
                              "appeals": _apply_appeals(out["events"], appeals)}
    if problems:
        review["refused"] = [{"finding": p.finding_key, "why": p.sentence} for p in problems]
    out["x_review"] = review
    return out


def _explain(op: _Op, problem: Problem, events: Sequence[Mapping[str, Any]], where: Sequence[int | None]) -> str:
    """Why the validator refuses the corrected game after `op`, in a judge's words: the event it stumbles on told
    as the judge's own protocol has it (or as the added one), never as a place in the file."""
    words = _problem_words(problem, events, where)
    seat = op.finding.seat
    if op.kind == "insert" and (op.event or {}).get("type") == "removal":
        if problem.code == ENDS_GAME:
            return _("removing seat {seat} there would end the game, yet the game as played goes on ({problem}); "
                     "reject the finding, or edit its consequence to one the game as played can take, such as a fine",
                     seat=seat, problem=words)
        return _("the game as played goes on with seat {seat} after this removal ({problem}); reject the finding, or "
                 "edit its consequence to one the game as played can take, such as a fine", seat=seat, problem=words)
    if op.kind == "insert" and problem.code == REMOVAL_DUE:
        return _("it would be seat {seat}'s foul that removes him from the game, yet the game as played goes on with "
                 "him ({problem})", seat=seat, problem=words)
    return _("the corrected game would break its rules ({problem})", problem=words)


def _problem_words(problem: Problem, events: Sequence[Mapping[str, Any]],
                   where: Sequence[int | None] = ()) -> str:
    """A validator's problem as "the vote on candidate 6 on day 1: …": the event in words (an added one marked as
    added), the message, the clause."""
    message = str(problem.message).rstrip(".")
    k = problem.event
    if k is not None and k < len(events) and isinstance(events[k], Mapping):
        added = bool(where) and k < len(where) and where[k] is None
        event = event_words(events[k])
        message = _("{event}: {problem}", event=_("{event} (added)", event=event) if added else event, problem=message)
    return message + (f", {problem.clause}" if problem.clause else "")


def _same_place(a: _Op, b: _Op) -> bool:
    fa, fb = a.finding, b.finding
    if fa.night is not None or fb.night is not None:
        return fa.night == fb.night and fa.seat == fb.seat
    return (fa.day, fa.round) == (fb.day, fb.round)


def _reason(d: Decision, f: Finding) -> str:
    """An added event's reason: the judge's own words where they edited the consequence's text; else the audit's
    sentence (written in English) for an English reader, the finding's kind in words for any other."""
    edited = ((d.edited or {}).get("consequence") or {}).get("text")
    if isinstance(edited, str) and edited.strip():
        return edited
    if i18n.language() == "en" and f.consequence.text:
        return f.consequence.text
    return kind_words(f.kind)


def _cannot(finding: str, why: str) -> str:
    """The one sentence of a finding that cannot be applied."""
    return _("{finding} cannot be applied: {why}.", finding=finding[:1].upper() + finding[1:], why=why)


def _words(value: Any) -> str:
    if value is None:
        return _("nothing")
    if isinstance(value, float):
        return i18n.number(value, 6) if math.isfinite(value) else f"{value}"
    return f"{value}" if isinstance(value, int | str) else _("a value of another kind")


def _whom(ev: Mapping[str, Any]) -> str:
    if ev.get("type") == "lift_vote":
        return _("lifting {seats}", seats=", ".join(map(str, ev.get("candidates") or [])))
    return _("candidate {candidate}", candidate=ev.get("candidate"))


def _is_time(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


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
                               "reason": _("appeal {case}", case=case_id), "x_review": origin})
        listed.append({**origin, "adjustments": [{"seat": a.seat, "points": a.points, "clause": a.clause}
                                                 for a in d.adjustments]})
    return listed


def write_corrected_protocol(path: str | os.PathLike[str], corrected: Mapping[str, Any],
                             original: str | os.PathLike[str] | None) -> Path:
    """Atomically write the corrected protocol, never over the original protocol by any name (a link, a hard
    link, `..`: contract.outputs compares the files themselves), a folder or a device."""
    target = check_output(path, [(original, "the original protocol")] if original is not None else [],
                          what="corrected protocol")
    return write_json(target, dict(corrected))


def corrected_name(original: str | os.PathLike[str] | None) -> str:
    """`game3.protocol.json` -> `game3.corrected.protocol.json`."""
    name = Path(original).name if original else "game.protocol.json"
    stem = name[: -len(".protocol.json")] if name.endswith(".protocol.json") else Path(name).stem
    return f"{stem}.corrected.protocol.json"


def _vote_index(events: list[dict[str, Any]], f: Finding) -> int | None:
    """The protocol event of the finding's vote (a lift vote where the finding names no candidate)."""
    rnd = f.round or 1
    for i, e in enumerate(events):
        if (e.get("type") == "vote" and e.get("day") == f.day and e.get("round", 1) == rnd
                and e.get("candidate") == f.candidate and f.candidate is not None):
            return i
    lifted = f.extra.get("x_candidates")
    if f.candidate is None and lifted:
        for i, e in enumerate(events):
            if (e.get("type") == "lift_vote" and e.get("day") == f.day
                    and sorted(e.get("candidates") or []) == sorted(lifted)):
                return i
    return None


def _row(rows: list[VoteReport], f: Finding) -> VoteReport | None:
    for r in rows:
        if r.day != f.day or r.round != f.round:
            continue
        if f.candidate is not None and r.kind == "vote" and r.candidate == f.candidate:
            return r
        if f.candidate is None and r.kind == "lift":
            return r
    return None


def _video_count(rows: list[VoteReport], f: Finding) -> int | None:
    """The count a correction writes where the finding carries none: the tally's (review.audit.tally), the same
    number the tables show, never the hands seen alone."""
    r = _row(rows, f)
    return None if r is None else tally(r).estimate


def _video_voters(rows: list[VoteReport], f: Finding, count: int) -> list[int] | None:
    """The seats the audit counted for the vote, where they are as many as the count set."""
    r = _row(rows, f)
    seats = r.extra.get("x_counted_voters") if r is not None else None
    if isinstance(seats, list) and len(set(seats)) == count and all(isinstance(s, int) for s in seats):
        return sorted(set(seats))
    return None


def _anchor(events: list[dict[str, Any]], f: Finding) -> int:
    """Index of the event a new foul/fine belongs after: the last vote of the finding's round, else the last
    event of its day's voting or of its night, else the end of the game (fines may be given after it, rfm 5.10)."""
    last = len(events) - 1
    if f.night is not None and f.day is None:
        hits = [i for i, e in enumerate(events) if e.get("night") == f.night and e.get("type") in ("shooting", "check")]
        return hits[-1] if hits else _end_of_phase(events, "night", f.night, last)
    rnd = f.round or 1
    same_round = [i for i, e in enumerate(events) if e.get("type") in ("vote", "lift_vote") and e.get("day") == f.day
                  and e.get("round", 1) == rnd]
    if same_round:
        return same_round[-1]
    day_votes = [i for i, e in enumerate(events) if e.get("type") in ("vote", "lift_vote") and e.get("day") == f.day]
    if day_votes:
        return day_votes[-1]
    return _end_of_phase(events, "voting", f.day, _end_of_phase(events, "day", f.day, last))


def _end_of_phase(events: list[dict[str, Any]], phase: str, number: Any, default: int) -> int:
    """The last event of a phase (before the next `phase` event), where the protocol marks its start."""
    start = next((i for i, e in enumerate(events) if e.get("type") == "phase" and e.get("phase") == phase
                  and e.get("number") == number), None)
    if start is None:
        return default
    following = next((i for i in range(start + 1, len(events)) if events[i].get("type") == "phase"), len(events))
    return following - 1
