"""Appeal cases: what a chief judge needs to decide an appeal on a game's result, under the game's rules.

Pure logic, no storage and no pixels. Each profile owns its appeal rules (`review.game.profiles`: the grounds,
rfm 7.1–7.2 and showtime's protest; the filing deadline, rfm 7.3.6; the procedure a decision follows);
this module checks a decision against them before it may be recorded (rfm 7.1.1.3 and 7.2.1: the video
or the vote in question, the side judge's testimony and the chief judge's agreement; showtime ¶42: a club
member's protest, accepted by the table's vote). `review/cases/appeal_store.py` keeps the cases; the app only
arranges them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from contract.errors import StopframeError
from review.game.profiles import OUTCOMES, Ground, Profile, get_profile

OUTCOME_TEXT = {
    "result_stands": "the result stands",
    "result_changed": "the result is changed",
    "replay": "the game is replayed",
    "points_adjusted": "points are adjusted",
}
WINNERS = ("red", "black", "draw")
VIDEO_EVIDENCE = ("finding", "frame", "clip", "vote")  # what counts as "the video or the vote in question"


def grounds_for(profile_id: str) -> tuple[Ground, ...]:
    """The profile's grounds; an unknown profile is an error naming it, never another profile's grounds."""
    return get_profile(profile_id).appeal_grounds


def ground(profile_id: str, clause: str) -> Ground:
    """The profile's ground with this clause; an unknown clause is a clear error, never a silent default."""
    for g in grounds_for(profile_id):
        if g.clause == clause:
            return g
    known = ", ".join(g.clause for g in grounds_for(profile_id))
    raise StopframeError(f"{clause!r} is not a ground for an appeal under {profile_id} (known: {known}).", 1)


def suggested_ground(profile_id: str, kind: str | None) -> str:
    """The ground a finding of this kind most likely supports (None: no finding), so the chief judge starts
    from the right clause."""
    return get_profile(profile_id).appeal_ground_for(kind).clause


@dataclass(frozen=True)
class EvidenceItem:
    """Something attached to a case: a finding, a frame, a clip, a vote (with its recomputed outcome)."""

    kind: str  # finding | frame | clip | vote | event | note
    label: str
    frame: int | None = None
    data: dict[str, Any] | None = None  # the finding, the vote row or the protocol event, as JSON


@dataclass(frozen=True)
class Adjustment:
    seat: int
    points: float
    clause: str


@dataclass(frozen=True)
class Decision:
    """The chief judge's decision on a case (or an amendment of it, which is a new record)."""

    outcome: str
    reasoning: str
    decided_by: str
    chief_judge_agrees: bool = False
    winner: str | None = None  # the new result, for result_changed
    adjustments: tuple[Adjustment, ...] = ()
    decided_at: float = field(default_factory=time.time)

    @property
    def summary(self) -> str:
        text = OUTCOME_TEXT.get(self.outcome, self.outcome)
        if self.outcome == "result_changed" and self.winner:
            text += f" to {self.winner}"
        if self.adjustments:
            text += ": " + "; ".join(f"seat {a.seat} {a.points:+g} ({a.clause})" for a in self.adjustments)
        return text


@dataclass(frozen=True)
class AppealCase:
    """An appeal as filed and argued; `status` becomes `decided` once the chief judge decides."""

    case_id: str
    game_id: str
    profile: str
    appellant: str
    claim: str
    ground: str
    filed_at: float
    game_ended_at: float
    appellant_seat: int | None = None
    opened_from: dict[str, Any] | None = None  # {"kind": "finding"|"event", "label": …, "key": …}
    evidence: tuple[EvidenceItem, ...] = ()
    side_judge_statement: str = ""
    table_judge_statement: str = ""
    club_member: bool = False  # showtime ¶42: only a club member may protest
    protest_votes_for: tuple[int, ...] = ()  # showtime ¶42: the seats voting to accept the protest
    status: str = "open"
    decision: Decision | None = None
    version: int = 0

    @property
    def deadline(self) -> float | None:
        """When the appeal had to be filed by (the profile's `appeal_window`, rfm 7.3.6); None where not written."""
        window = get_profile(self.profile).appeal_window.value
        return None if window is None else self.game_ended_at + window

    @property
    def filed_in_time(self) -> bool:
        return self.deadline is None or self.filed_at <= self.deadline

    def with_evidence(self, *items: EvidenceItem) -> AppealCase:
        """The case with more evidence; an item already attached (same kind, label, frame) is not repeated."""
        have = {(e.kind, e.label, e.frame) for e in self.evidence}
        new = tuple(i for i in items if (i.kind, i.label, i.frame) not in have)
        return replace(self, evidence=self.evidence + new)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AppealCase:
        d = dict(data)
        d["evidence"] = tuple(EvidenceItem(**e) for e in d.get("evidence") or ())
        d["protest_votes_for"] = tuple(d.get("protest_votes_for") or ())
        d["decision"] = decision_from_json(d["decision"]) if d.get("decision") else None
        return cls(**d)


def decision_from_json(data: Mapping[str, Any]) -> Decision:
    d = dict(data)
    d["adjustments"] = tuple(Adjustment(**a) for a in d.get("adjustments") or ())
    return Decision(**d)


@dataclass(frozen=True)
class Check:
    """One precondition of a decision, shown to the chief judge with its clause; a blocking one that fails
    keeps the decision from being recorded."""

    clause: str | None
    ok: bool
    text: str
    blocking: bool = True


def protest_accepted(case: AppealCase, roles: Mapping[int, str | None]) -> tuple[bool | None, str]:
    """showtime ¶42: accepted when the appellant's whole team and at least one opponent voted for it.
    None when the roles or the appellant's seat are not known, so it cannot be worked out."""
    seat = case.appellant_seat
    if seat is None or roles.get(seat) is None:
        return None, "the appellant's seat and card must be known to count the protest vote"
    team = _team(roles[seat])
    mates = sorted(s for s, r in roles.items() if r is not None and _team(r) == team)
    voted = set(case.protest_votes_for)
    missing = [s for s in mates if s not in voted]
    opponents = sorted(s for s in voted if roles.get(s) is not None and _team(roles[s]) != team)
    if missing:
        return False, f"not accepted: the appellant's team did not all vote for it (seats {_seats(missing)} did not)"
    if not opponents:
        return False, "not accepted: no player of the other team voted for it"
    return True, f"accepted: the whole {team} team and seat(s) {_seats(opponents)} of the other team voted for it"


def _team(role: str | None) -> str:
    return "black" if role in ("mafia", "don") else "red"


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(map(str, seats))


def checks(case: AppealCase, decision: Decision, roles: Mapping[int, str | None] | None = None,
           protocol_winner: str | None = None) -> list[Check]:
    """Everything the decision must satisfy under the case's profile, each with its clause."""
    profile = get_profile(case.profile)
    out = [Check(None, decision.outcome in OUTCOMES, f"the decision is one of: {', '.join(OUTCOMES)}"),
           Check(None, bool(decision.reasoning.strip()), "the reasoning is written down"),
           Check(None, bool(decision.decided_by.strip()), "who decided is recorded")]
    g = next((x for x in profile.appeal_grounds if x.clause == case.ground), None)
    out.append(Check(case.ground, g is not None and decision.outcome in g.outcomes,
                     f"this ground allows: {', '.join(g.outcomes) if g else 'nothing (unknown ground)'}"))
    if decision.outcome == "result_changed":
        out.append(Check(None, decision.winner in WINNERS and decision.winner != protocol_winner,
                         f"the new result differs from the announced one ({protocol_winner or 'none recorded'})"))
    if decision.outcome == "points_adjusted":
        out.append(Check(None, bool(decision.adjustments) and all(1 <= a.seat <= 10 and a.points != 0
                                                                  for a in decision.adjustments),
                         "each adjustment names a seat 1–10 and a non-zero number of points"))
    if profile.appeal_window.value is not None:
        out.append(_in_time(case, profile, g))
    procedure = profile.appeal_replay if decision.outcome == "replay" else profile.appeal_procedure
    out += _PROCEDURES[procedure.value](case, decision, procedure.clause, roles or {})
    if decision.outcome == "points_adjusted" and g is not None and g.points is not None:
        right = all(abs(abs(a.points) - g.points) < 1e-9 for a in decision.adjustments)
        out.append(Check(case.ground, right, f"the rulebook's adjustment is {g.points:g} points (a disqualifying foul)",
                         blocking=False))
    return out


def _in_time(case: AppealCase, profile: Profile, g: Ground | None) -> Check:
    """The filing deadline; a late appeal on a technical ground does not block where the chief judge may act
    without one (rfm 7.4)."""
    window, late_ok = profile.appeal_window, profile.appeal_late_technical
    excused = bool(late_ok) and g is not None and g.kind == "technical"
    if case.filed_in_time:
        return Check(window.clause, True, f"filed within {window.value / 60:g} minutes after the game")
    late = f"filed {(case.filed_at - case.game_ended_at) / 60:.0f} min after the game"
    if excused:
        late += f"; the chief judge may still act on a technical error without an appeal ({late_ok.clause})"
    return Check(window.clause, False, late, blocking=not excused)


def _changes(decision: Decision) -> bool:
    return decision.outcome in ("result_changed", "replay")


def _has_video(case: AppealCase) -> bool:
    return any(e.kind in VIDEO_EVIDENCE for e in case.evidence)


def _formal(case: AppealCase, decision: Decision, clause: str, roles: Mapping[int, str | None]) -> list[Check]:
    """rfm 7.1.1.3 / 7.2.1: a change or a replay needs the video, the side judge's testimony and the chief judge."""
    if not _changes(decision):
        return []
    return [Check(clause, _has_video(case), "the video of the game or the vote in question is attached"),
            Check(clause, bool(case.side_judge_statement.strip()), "the side judge's testimony is recorded"),
            Check(clause, decision.chief_judge_agrees, "the chief judge agrees")]


def _protest(case: AppealCase, decision: Decision, clause: str, roles: Mapping[int, str | None]) -> list[Check]:
    """showtime ¶42: a club member's protest, accepted by the table's vote."""
    out = [Check(clause, case.club_member, "only a club member may protest")]
    if _changes(decision):
        accepted, why = protest_accepted(case, roles)
        out.append(Check(clause, accepted is True, f"the table's vote on the protest: {why}"))
    return out


def _chief_judge(case: AppealCase, decision: Decision, clause: str, roles: Mapping[int, str | None]) -> list[Check]:
    """No procedure written: the chief judge decides, and changes a result only on the video (no clause to cite)."""
    changes = _changes(decision)
    return [Check(None, _has_video(case) or not changes, "a result is changed or replayed only with the video "
                  "(a finding, a frame, a clip or the vote attached)"),
            Check(None, decision.chief_judge_agrees or not changes, "the chief judge agrees")]


_PROCEDURES: dict[str, Callable[[AppealCase, Decision, str, Mapping[int, str | None]], list[Check]]] = {
    "formal": _formal,
    "protest": _protest,
    "chief_judge": _chief_judge,
}
"""The checks of each of `review.game.profiles.APPEAL_PROCEDURES`; a profile names its own with a clause."""


def failing(checks_: Sequence[Check]) -> list[Check]:
    return [c for c in checks_ if c.blocking and not c.ok]


def require(checks_: Sequence[Check]) -> None:
    """Raise with every blocking precondition that fails, so the chief judge sees all of them at once."""
    bad = failing(checks_)
    if bad:
        raise StopframeError("The decision cannot be recorded: " + "; ".join(
            c.text + (f" ({c.clause})" if c.clause else "") for c in bad) + ".", 1)
