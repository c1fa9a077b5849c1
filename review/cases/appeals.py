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
from contract.i18n import _, number, term
from review.game.profiles import OUTCOMES, Ground, Profile, get_profile

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
    raise StopframeError(_("«{clause}» is not a ground for an appeal under {profile} (known: {known}).", clause=clause,
                           profile=profile_id, known=known), 1)


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
        """The decision in the reader's words: «результат изменён: победа чёрных», «место 4 +1,2 (rfm 7.1.1.4)»."""
        text = outcome_words(self.outcome)
        if self.outcome == "result_changed" and self.winner:
            text = _("{decision} to {winner}", decision=text, winner=term("winner", self.winner))
        if self.adjustments:
            text += ": " + "; ".join(_("seat {seat} {points} ({clause})", seat=a.seat, points=number(a.points, signed=True),
                                       clause=a.clause) for a in self.adjustments)
        return text


def ground_name(clause: str) -> str:
    """A ground as a reader names it: its clause, or «no clause» for the ground a rulebook writes no clause for."""
    return _("no clause") if clause == "other" else clause


def outcome_words(outcome: str) -> str:
    """A decision's outcome code (result_stands, …) in the reader's words."""
    return term("appeal_outcome", outcome)


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
    code: str = ""  # which precondition (the app says what to do about each one that fails)


def protest_accepted(case: AppealCase, roles: Mapping[int, str | None]) -> tuple[bool | None, str]:
    """showtime ¶42: accepted when the appellant's whole team and at least one opponent voted for it.
    None when the roles or the appellant's seat are not known, so it cannot be worked out."""
    seat = case.appellant_seat
    if seat is None or roles.get(seat) is None:
        return None, _("the appellant's seat and card must be known to count the protest vote")
    team = _team(roles[seat])
    mates = sorted(s for s, r in roles.items() if r is not None and _team(r) == team)
    voted = set(case.protest_votes_for)
    missing = [s for s in mates if s not in voted]
    opponents = sorted(s for s in voted if roles.get(s) is not None and _team(roles[s]) != team)
    if missing:
        return False, _("not accepted: the appellant's team did not all vote for it (seats {seats} did not)",
                        seats=_seats(missing))
    if not opponents:
        return False, _("not accepted: no player of the other team voted for it")
    return True, _("accepted: the whole {team} team and seat(s) {seats} of the other team voted for it",
                   team=term("team", team), seats=_seats(opponents))


def _team(role: str | None) -> str:
    return "black" if role in ("mafia", "don") else "red"


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(map(str, seats))


def checks(case: AppealCase, decision: Decision, roles: Mapping[int, str | None] | None = None,
           protocol_winner: str | None = None) -> list[Check]:
    """Everything the decision must satisfy under the case's profile, each with its clause."""
    profile = get_profile(case.profile)
    out = [Check(None, decision.outcome in OUTCOMES, _("the decision is one of: {outcomes}",
                                                         outcomes=", ".join(map(outcome_words, OUTCOMES))), code="outcome"),
           Check(None, bool(decision.reasoning.strip()), _("the reasoning is written down"), code="reasoning"),
           Check(None, bool(decision.decided_by.strip()), _("who decided is recorded"), code="decided_by")]
    g = next((x for x in profile.appeal_grounds if x.clause == case.ground), None)
    allowed = ", ".join(map(outcome_words, g.outcomes)) if g else _("nothing (unknown ground)")
    out.append(Check(case.ground, g is not None and decision.outcome in g.outcomes,
                     _("this ground allows: {outcomes}", outcomes=allowed), code="ground_allows"))
    if decision.outcome == "result_changed":
        announced = term("winner", protocol_winner) if protocol_winner else _("none recorded")
        out.append(Check(None, decision.winner in WINNERS and decision.winner != protocol_winner,
                         _("the new result differs from the announced one ({announced})", announced=announced),
                         code="new_result"))
    if decision.outcome == "points_adjusted":
        out.append(Check(None, bool(decision.adjustments) and all(1 <= a.seat <= 10 and a.points != 0
                                                                  for a in decision.adjustments),
                         _("each adjustment names a seat 1–10 and a non-zero number of points"), code="adjustment"))
    if profile.appeal_window.value is not None:
        out.append(_in_time(case, profile, g))
    procedure = profile.appeal_replay if decision.outcome == "replay" else profile.appeal_procedure
    out += _PROCEDURES[procedure.value](case, decision, procedure.clause, roles or {})
    if decision.outcome == "points_adjusted" and g is not None and g.points is not None:
        right = all(abs(abs(a.points) - g.points) < 1e-9 for a in decision.adjustments)
        out.append(Check(case.ground, right, _("the rulebook's adjustment is {points} points (a disqualifying foul)",
                                               points=number(g.points)), blocking=False, code="rulebook_points"))
    return out


def _in_time(case: AppealCase, profile: Profile, g: Ground | None) -> Check:
    """The filing deadline; a late appeal on a technical ground does not block where the chief judge may act
    without one (rfm 7.4)."""
    window, late_ok = profile.appeal_window, profile.appeal_late_technical
    excused = bool(late_ok) and g is not None and g.kind == "technical"
    if case.filed_in_time:
        return Check(window.clause, True, _("filed within {minutes} minutes after the game", minutes=number(window.value / 60)),
                     code="in_time")
    late = _("filed {minutes} min after the game", minutes=f"{(case.filed_at - case.game_ended_at) / 60:.0f}")
    if excused:
        late += "; " + _("the chief judge may still act on a technical error without an appeal ({clause})",
                         clause=late_ok.clause)
    return Check(window.clause, False, late, blocking=not excused, code="late")


def _changes(decision: Decision) -> bool:
    return decision.outcome in ("result_changed", "replay")


def _has_video(case: AppealCase) -> bool:
    return any(e.kind in VIDEO_EVIDENCE for e in case.evidence)


def _formal(case: AppealCase, decision: Decision, clause: str, roles: Mapping[int, str | None]) -> list[Check]:
    """rfm 7.1.1.3 / 7.2.1: a change or a replay needs the video, the side judge's testimony and the chief judge."""
    if not _changes(decision):
        return []
    return [Check(clause, _has_video(case), _("the video of the game or the vote in question is attached"), code="video"),
            Check(clause, bool(case.side_judge_statement.strip()), _("the side judge's testimony is recorded"),
                  code="side_judge"),
            Check(clause, decision.chief_judge_agrees, _("the chief judge agrees"), code="chief_agrees")]


def _protest(case: AppealCase, decision: Decision, clause: str, roles: Mapping[int, str | None]) -> list[Check]:
    """showtime ¶42: a club member's protest, accepted by the table's vote."""
    out = [Check(clause, case.club_member, _("only a club member may protest"), code="club_member")]
    if _changes(decision):
        accepted, why = protest_accepted(case, roles)
        out.append(Check(clause, accepted is True, _("the table's vote on the protest: {why}", why=why), code="protest_vote"))
    return out


def _chief_judge(case: AppealCase, decision: Decision, clause: str, roles: Mapping[int, str | None]) -> list[Check]:
    """No procedure written: the chief judge decides, and changes a result only on the video (no clause to cite)."""
    changes = _changes(decision)
    return [Check(None, _has_video(case) or not changes, _("a result is changed or replayed only with the video "
                                                           "(a finding, a frame, a clip or the vote attached)"), code="video"),
            Check(None, decision.chief_judge_agrees or not changes, _("the chief judge agrees"), code="chief_agrees")]


# The checks of each of `review.game.profiles.APPEAL_PROCEDURES`; a profile names its own with a clause.
_PROCEDURES: dict[str, Callable[[AppealCase, Decision, str, Mapping[int, str | None]], list[Check]]] = {
    "formal": _formal,
    "protest": _protest,
    "chief_judge": _chief_judge,
}


def failing(checks_: Sequence[Check]) -> list[Check]:
    return [c for c in checks_ if c.blocking and not c.ok]


def require(checks_: Sequence[Check]) -> None:
    """Raise with every blocking precondition that fails, so the chief judge sees all of them at once."""
    bad = failing(checks_)
    if bad:
        raise StopframeError(_("The decision cannot be recorded: {why}.", why="; ".join(
            c.text + (f" ({c.clause})" if c.clause else "") for c in bad)), 1)
