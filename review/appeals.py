"""Appeal cases: what a chief judge needs to decide an appeal on a game's result, under the game's rules.

Pure logic, no storage and no pixels: the grounds each profile allows (rfm 7.1–7.2, showtime's protest),
the filing deadline (rfm 7.3.6), the preconditions a decision must meet before it may be recorded
(rfm 7.1.1.3 and 7.2.1: the video or the vote in question, the side judge's testimony and the chief
judge's agreement; showtime: a club member's protest, accepted by the table's vote) and what follows.
`review/appeal_store.py` keeps the cases; the app only arranges them.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from review.errors import StopframeError

OUTCOMES = ("result_stands", "result_changed", "replay", "points_adjusted")
OUTCOME_TEXT = {
    "result_stands": "the result stands",
    "result_changed": "the result is changed",
    "replay": "the game is replayed",
    "points_adjusted": "points are adjusted",
}
WINNERS = ("red", "black", "draw")
FILING_WINDOW_S = 600.0  # rfm 7.3.6: within 10 minutes after the game
VIDEO_EVIDENCE = ("finding", "frame", "clip", "vote")  # what counts as "the video or the vote in question"
DISQUALIFYING_FOUL_POINTS = 1.2  # rfm 7.1.1.4–7.1.1.7: −1.2 taken off or added


@dataclass(frozen=True)
class Ground:
    """A reason a profile's rulebook accepts for reviewing a result, and the decisions it can lead to."""

    clause: str
    kind: str  # cognitive | technical | replay | protest | other
    text: str
    outcomes: tuple[str, ...] = OUTCOMES


_RFM_CHANGE = ("result_stands", "result_changed", "replay")
_RFM_POINTS = ("result_stands", "points_adjusted")
GROUNDS: dict[str, tuple[Ground, ...]] = {
    "rfm": (
        Ground("rfm 7.1.1.1", "cognitive", "A disqualifying foul on the critical round was missed: the player stayed "
               "and his team won.", _RFM_CHANGE),
        Ground("rfm 7.1.1.2", "cognitive", "The judge did not record a ППК (win of the opposite team), and the other "
               "team won.", _RFM_CHANGE),
        Ground("rfm 7.1.1.4", "cognitive", "A disqualifying foul wrongly given on a non-critical round, and the "
               "player's team lost: no replay, the −1.2 is taken off.", _RFM_POINTS),
        Ground("rfm 7.1.1.5", "cognitive", "A disqualifying foul wrongly given on the critical round, and the "
               "player's team lost: the −1.2 is taken off (a replay is possible, 7.2.2).", (*_RFM_POINTS, "replay")),
        Ground("rfm 7.1.1.6", "cognitive", "A disqualifying foul not given on a non-critical round: no replay, "
               "−1.2 is added.", _RFM_POINTS),
        Ground("rfm 7.1.1.7", "cognitive", "A disqualifying foul not given on the critical round: −1.2 is added; the "
               "chief judge may change the result.", OUTCOMES),
        Ground("rfm 7.1.2.1", "technical", "A wrong check answer was shown to the Don or the Sheriff, not corrected at "
               "night, and it affected the outcome.", _RFM_CHANGE),
        Ground("rfm 7.1.2.2", "technical", "A player whose leaving would have ended the game did not leave on the "
               "vote, and the other team won.", _RFM_CHANGE),
        Ground("rfm 7.1.2.3", "technical", "The judge miscounted a vote (or revote), did not correct it during the "
               "vote, and it affected the result.", _RFM_CHANGE),
        Ground("rfm 7.1.2.4", "technical", "The judge announced a miss or a kill wrongly.", _RFM_CHANGE),
        Ground("rfm 7.1.2.5", "technical", "A nomination was wrongly accepted, not corrected that day, and it affected "
               "the vote.", _RFM_CHANGE),
        Ground("rfm 7.1.2.6", "technical", "The candidates were listed in the wrong order for the vote, not corrected "
               "during it, and it affected the result.", _RFM_CHANGE),
        Ground("rfm 7.1.2.7", "technical", "The judge's gesture at the deal did not match the card, and it was not "
               "corrected before the next player was woken.", _RFM_CHANGE),
        Ground("rfm 7.1.2.8", "technical", "A phase was run out of order (a sub-phase skipped or run wrongly).",
               _RFM_CHANGE),
        Ground("rfm 7.2.3", "replay", "The venue gave players an advantage (e.g. a screen showing the roles behind "
               "the judge).", ("result_stands", "replay")),
    ),
    "showtime": (
        Ground("showtime ¶42", "protest", "A club member's protest after the game: the game annulled, replayed or its "
               "result changed, decided by the table's vote.", ("result_stands", "result_changed", "replay")),
    ),
    "mafclub": (
        Ground("mafclub 3.13", "replay", "An automatic replay for the gravest violations (an oath, bribery, "
               "blackmail or threats).", ("result_stands", "replay")),
        Ground("other", "other", "A judge's error seen on video (the rulebook writes no appeal procedure: the chief "
               "judge decides)."),
    ),
    "lvi2015": (
        Ground("other", "other", "A judge's error seen on video (the rulebook writes no appeal procedure: the chief "
               "judge decides)."),
    ),
}

# What a finding of each kind usually grounds under rfm: a count the video does not support (7.1.2.3), a
# shooting announced wrongly (7.1.2.4), a check answered wrongly (7.1.2.1), a missed disqualifying foul.
_RFM_GROUND_OF_FINDING = {
    "count_mismatch": "rfm 7.1.2.3", "late_vote": "rfm 7.1.2.3", "early_hand": "rfm 7.1.2.3",
    "double_vote": "rfm 7.1.2.3", "no_vote": "rfm 7.1.2.3", "shot_mismatch": "rfm 7.1.2.4",
    "check_mismatch": "rfm 7.1.2.1", "wrong_form": "rfm 7.1.1.6",
}


def grounds_for(profile_id: str) -> tuple[Ground, ...]:
    return GROUNDS.get(profile_id, GROUNDS["lvi2015"])


def ground(profile_id: str, clause: str) -> Ground:
    """The profile's ground with this clause; an unknown clause is a clear error, never a silent default."""
    for g in grounds_for(profile_id):
        if g.clause == clause:
            return g
    known = ", ".join(g.clause for g in grounds_for(profile_id))
    raise StopframeError(f"{clause!r} is not a ground for an appeal under {profile_id} (known: {known}).", 1)


def suggested_ground(profile_id: str, finding: Mapping[str, Any] | None) -> str:
    """The ground a finding most likely supports, so the chief judge starts from the right clause."""
    clauses = [g.clause for g in grounds_for(profile_id)]
    if profile_id == "rfm" and finding is not None:
        return _RFM_GROUND_OF_FINDING.get(str(finding.get("kind")), "rfm 7.1.2.3")
    return clauses[0]


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
        """When the appeal had to be filed by (rfm 7.3.6: 10 minutes after the game); None where not written."""
        return self.game_ended_at + FILING_WINDOW_S if self.profile == "rfm" else None

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
    out = [Check(None, decision.outcome in OUTCOMES, f"the decision is one of: {', '.join(OUTCOMES)}"),
           Check(None, bool(decision.reasoning.strip()), "the reasoning is written down"),
           Check(None, bool(decision.decided_by.strip()), "who decided is recorded")]
    g = next((x for x in grounds_for(case.profile) if x.clause == case.ground), None)
    out.append(Check(case.ground, g is not None and decision.outcome in g.outcomes,
                     f"this ground allows: {', '.join(g.outcomes) if g else 'nothing (unknown ground)'}"))
    if decision.outcome == "result_changed":
        out.append(Check(None, decision.winner in WINNERS and decision.winner != protocol_winner,
                         f"the new result differs from the announced one ({protocol_winner or 'none recorded'})"))
    if decision.outcome == "points_adjusted":
        out.append(Check(None, bool(decision.adjustments) and all(1 <= a.seat <= 10 and a.points != 0
                                                                  for a in decision.adjustments),
                         "each adjustment names a seat 1–10 and a non-zero number of points"))
    has_video = any(e.kind in VIDEO_EVIDENCE for e in case.evidence)
    changes = decision.outcome in ("result_changed", "replay")
    if case.profile == "rfm":
        out += _rfm_checks(case, decision, g, has_video, changes)
    elif case.profile == "showtime":
        out.append(Check("showtime ¶42", case.club_member, "only a club member may protest"))
        if changes:
            accepted, why = protest_accepted(case, roles or {})
            out.append(Check("showtime ¶42", accepted is True, f"the table's vote on the protest: {why}"))
    else:
        out.append(Check(None, has_video or not changes, "a result is changed or replayed only with the video "
                         "(a finding, a frame, a clip or the vote attached)"))
        out.append(Check(None, decision.chief_judge_agrees or not changes, "the chief judge agrees"))
    return out


def _rfm_checks(case: AppealCase, decision: Decision, g: Ground | None, has_video: bool, changes: bool) -> list[Check]:
    technical = g is not None and g.kind == "technical"
    late = (f"filed {(case.filed_at - case.game_ended_at) / 60:.0f} min after the game"
            + ("; the chief judge may still act on a technical error without an appeal (7.4)" if technical else ""))
    out = [Check("rfm 7.3.6", case.filed_in_time, "filed within 10 minutes after the game" if case.filed_in_time
                 else late, blocking=not technical)]
    if changes:
        clause = "rfm 7.2.1" if decision.outcome == "replay" else "rfm 7.1.1.3"
        out += [Check(clause, has_video, "the video of the game or the vote in question is attached"),
                Check(clause, bool(case.side_judge_statement.strip()), "the side judge's testimony is recorded"),
                Check(clause, decision.chief_judge_agrees, "the chief judge agrees")]
    if decision.outcome == "points_adjusted" and case.ground in ("rfm 7.1.1.4", "rfm 7.1.1.5", "rfm 7.1.1.6",
                                                                  "rfm 7.1.1.7"):
        right = all(abs(abs(a.points) - DISQUALIFYING_FOUL_POINTS) < 1e-9 for a in decision.adjustments)
        out.append(Check(case.ground, right, "the rulebook's adjustment is 1.2 points (a disqualifying foul)",
                         blocking=False))
    return out


def failing(checks_: Sequence[Check]) -> list[Check]:
    return [c for c in checks_ if c.blocking and not c.ok]


def require(checks_: Sequence[Check]) -> None:
    """Raise with every blocking precondition that fails, so the chief judge sees all of them at once."""
    bad = failing(checks_)
    if bad:
        raise StopframeError("The decision cannot be recorded: " + "; ".join(
            c.text + (f" ({c.clause})" if c.clause else "") for c in bad) + ".", 1)
