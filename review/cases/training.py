"""Training quizzes for new judges: watch one candidate's vote, give the count, the voters and the violations.

Why built on the audit: the answer key of a question is the audit of *true* hands (a sample clip's
ground truth) or of hands a judge has already confirmed (findings decided in the store), so the key,
its clauses and its explanations are exactly what the product tells a judge in a real review. The
trainee's answer is scored per part (count, voters, violations) and every violation, found, missed or
invented, is explained with the profile's clause.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from contract.clock import Clock
from contract.i18n import _, language, term
from contract.jsonio import read_json
from contract.observations import HandInterval as Hand
from contract.observations import Observations as Seen
from review.audit.audit import audit
from review.audit.findings import AuditReport, Finding, VoteReport, finding_key
from review.audit.tally import tally
from review.cases.exports import finding_said
from review.cases.store import Decision
from review.game.clause_text import sentence
from review.game.engine import replay
from review.game.profiles import get_profile

TRUTH_FORMAT = "stopframe-truth/1"
# What a trainee can name in one candidate's vote: count_mismatch is "the announced count is wrong".
QUIZ_KINDS = ("late_vote", "early_hand", "lifted_early", "no_vote", "double_vote", "wrong_form", "count_mismatch")
Violation = tuple[str, int | None]  # (kind, seat); seat None for count_mismatch


def seen_from_truth(truth: Mapping[str, Any]) -> Seen:
    """The truth's hand intervals as if vision had seen them perfectly (spec §3 → the audit's input)."""
    fps = float(truth.get("fps") or 25)
    clock = Clock.constant(fps)
    hands = tuple(Hand(int(h["seat"]), float(h["on"]), float(h["off"]), str(h.get("pose", "other")), 1.0,
                       clock.nearest(float(h["on"])), clock.nearest(float(h["off"])))
                  for h in truth.get("hands", []))
    return Seen(hands, fps)


@dataclass(frozen=True)
class Question:
    """One candidate's vote to judge, with its answer key and the reasons behind it."""

    qid: str
    source: str  # "truth" or "confirmed findings"
    protocol: str  # path of the game's protocol
    video: str | None
    rules: str
    day: int
    round: int
    candidate: int
    t: float
    cutoff: float
    announced: float
    announced_count: int | None  # what the judge announced (the protocol's count)
    living: tuple[int, ...]
    count_range: tuple[int, int]
    voters: tuple[int, ...]
    violations: tuple[Violation, ...]
    explanations: dict[str, str] = field(default_factory=dict)  # violation key → why, with the clause
    count_explanation: str = ""

    @property
    def title(self) -> str:
        return _("{game} · day {day} round {round} · candidate {candidate}", game=Path(self.protocol).name,
                 day=self.day, round=self.round, candidate=self.candidate)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Question:
        d = dict(data)
        for name in ("living", "voters", "count_range"):
            d[name] = tuple(d[name])
        d["violations"] = tuple((str(k), s) for k, s in d["violations"])
        return cls(**d)


def violation_key(v: Violation) -> str:
    return f"{v[0]}:{'' if v[1] is None else v[1]}"


def questions_from_truth(protocol_path: str | Path, truth_path: str | Path, *, video: str | Path | None = None,
                         visible_seats: Iterable[int] | None = None) -> list[Question]:
    """Every timed candidate vote of a sample clip, keyed by the audit of the truth's own hands."""
    data = read_json(protocol_path, "protocol")
    report = audit(data, seen_from_truth(read_json(truth_path, "truth")), visible_seats=visible_seats)
    return _questions(data, str(protocol_path), None if video is None else str(video), report, report.findings,
                      "truth")


def questions_from_decisions(protocol_path: str | Path, data: Mapping[str, Any], report: AuditReport,
                             decisions: Mapping[str, Decision], video: str | None) -> list[Question]:
    """Votes a judge has reviewed: the findings they confirmed (or edited) are the key, rejected ones are
    not; only votes with at least one decided finding become questions."""
    decided = [f for f in report.findings if finding_key(f) in decisions]
    standing = [decisions[finding_key(f)].effective_finding for f in decided if decisions[finding_key(f)].stands]
    reviewed = {(f.day, f.round, f.candidate) for f in decided}
    questions = _questions(dict(data), str(protocol_path), video, report, standing, "confirmed findings")
    return [q for q in questions if (q.day, q.round, q.candidate) in reviewed
            or (q.day, q.round, None) in reviewed and q.candidate == _last_candidate(report, q.day, q.round)]


def _last_candidate(report: AuditReport, day: int, rnd: int) -> int | None:
    cands = [v.candidate for v in report.votes if v.kind == "vote" and v.day == day and v.round == rnd]
    return cands[-1] if cands else None


def _questions(data: dict[str, Any], protocol: str, video: str | None, report: AuditReport,
               findings: Sequence[Finding], source: str) -> list[Question]:
    game = replay(data, get_profile(data["rules"]))
    profile = get_profile(report.rules or data["rules"])
    out = []
    for v in report.votes:
        times = v.extra.get("x_times") or {}
        if v.kind != "vote" or v.video_voters is None or v.candidate is None or None in times.values():
            continue
        last = v.candidate == _last_candidate(report, v.day, v.round)
        mine = [f for f in findings if f.kind in QUIZ_KINDS and f.day == v.day and f.round == v.round
                and (f.candidate == v.candidate or (f.candidate is None and last))]
        violations = tuple(sorted({(f.kind, f.seat) for f in mine}, key=violation_key))
        counted = tally(v)  # the range every surface shows (review.audit.tally)
        lo, hi = counted.low or 0, counted.high or 0
        ctx = game.vote_contexts.get(int(v.extra.get("x_event", -1)))
        qid = hashlib.sha1(f"{source}|{protocol}|{v.day}|{v.round}|{v.candidate}".encode()).hexdigest()[:12]
        out.append(Question(
            qid=qid, source=source, protocol=protocol, video=video, rules=profile.id, day=v.day, round=v.round,
            candidate=v.candidate, t=times["t"], cutoff=times["cutoff"], announced=times["announced"],
            announced_count=v.protocol_count, living=tuple(ctx.living) if ctx else tuple(range(1, 11)),
            count_range=(int(lo), int(hi)), voters=v.video_voters, violations=violations,
            explanations={violation_key((f.kind, f.seat)): _why(f) for f in mine},
            count_explanation=_count_why(v, last, profile.id),
        ))
    return out


def _why(f: Finding) -> str:
    """What the finding is and what it costs, with its clause: in English the audit's sentence and our digest of
    the rule; in Russian the kind's sentence and the rulebook's own words (review.game.clause_text)."""
    said = finding_said(f.to_json()) or term("kind", f.kind)
    cost = term("consequence", f.consequence.type or "none")
    if language() == "en":
        rule = f.consequence.text or cost
    else:
        rule = cost + (f"; «{sentence(f.clause)}»" if sentence(f.clause) else "")
    return f"{said} — {f.clause or _('no clause')}: {rule}"


def _count_why(v: VoteReport, last: bool, rules: str) -> str:
    counted, maybe = v.extra.get("x_counted_voters") or v.video_voters or [], v.extra.get("x_uncertain_voters") or []
    parts = [_("hands placed in time: seats {seats}", seats=_seats(counted) or _("none"))]
    if maybe:
        parts.append(_("a judge may count seats {seats} or not", seats=_seats(maybe)))
    if v.extra.get("x_late_seats"):
        parts.append(_("seats {seats} came after «Стоп» and do not count", seats=_seats(v.extra["x_late_seats"])))
    if last and v.silent_seats:
        parts.append(_("the silent seats {seats} count for the last candidate under {rules} "
                       "(rfm 4.4.10, mafclub 2.4.10, lvi2015 5.4)", seats=_seats(v.silent_seats), rules=rules))
    return "; ".join(parts) + "."


def _seats(seats: Iterable[int]) -> str:
    return ", ".join(map(str, seats))


@dataclass(frozen=True)
class Response:
    """What the trainee answered."""

    count: int
    voters: tuple[int, ...]
    violations: tuple[Violation, ...]


@dataclass(frozen=True)
class Marked:
    """A scored answer: 0–1 per part, the total, and one explanation line per point a trainee must learn."""

    count_ok: bool
    voters_score: float
    violations_score: float
    found: tuple[Violation, ...]
    missed: tuple[Violation, ...]
    invented: tuple[Violation, ...]
    lines: tuple[str, ...]

    @property
    def score(self) -> float:
        return round((float(self.count_ok) + self.voters_score + self.violations_score) / 3, 4)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "score": self.score}


def mark(q: Question, r: Response) -> Marked:
    """Score an answer against the key and say why, citing the profile's clauses."""
    lo, hi = q.count_range
    count_ok = lo <= r.count <= hi
    key = f"{lo}" if lo == hi else _("{low} or {high}", low=lo, high=hi)
    why = q.count_explanation  # «…подтверждает 6. Руки поставлены…»: a sentence of its own after the count's
    lines = [("✓" if count_ok else "✗") + " " + _("Count: {count}; the video supports {key}.", count=r.count, key=key)
             + f" {why[:1].upper()}{why[1:]}"]
    truth, given = set(q.voters), set(r.voters)
    union = truth | given
    voters_score = 1.0 if not union else 1 - len(truth ^ given) / len(union)
    if truth != given:
        lines.append("✗ " + _("Voters: the hands for {candidate} were seats {seats}", candidate=q.candidate,
                              seats=_seats(sorted(truth)) or _("none"))
                     + ("; " + _("you missed {seats}", seats=_seats(sorted(truth - given))) if truth - given else "")
                     + ("; " + _("seats {seats} did not vote for him in time", seats=_seats(sorted(given - truth)))
                        if given - truth else "")
                     + ".")
    else:
        lines.append("✓ " + _("Voters: seats {seats}.", seats=_seats(sorted(truth)) or _("none")))
    want, got = set(q.violations), set(r.violations)
    found, missed, invented = want & got, want - got, got - want
    everything = want | got
    violations_score = 1.0 if not everything else len(found) / len(everything)
    for v in sorted(found, key=violation_key):
        lines.append(f"✓ {_name(v)}: {q.explanations.get(violation_key(v), '')}")
    for v in sorted(missed, key=violation_key):
        lines.append("✗ " + _("Missed {violation}: {why}", violation=_name(v), why=q.explanations.get(violation_key(v), "")))
    for v in sorted(invented, key=violation_key):
        lines.append("✗ " + _("Not so: {violation} — the video shows nothing of that kind here.", violation=_name(v)))
    if not everything:
        lines.append("✓ " + _("No violation in this vote."))
    return Marked(count_ok, round(voters_score, 4), round(violations_score, 4), tuple(sorted(found, key=violation_key)),
                  tuple(sorted(missed, key=violation_key)), tuple(sorted(invented, key=violation_key)), tuple(lines))


def _name(v: Violation) -> str:
    what = term("kind", v[0])
    return what if v[1] is None else _("{violation} by seat {seat}", violation=what, seat=v[1])


def pick(questions: Sequence[Question], n: int = 10) -> list[Question]:
    """A quiz of n votes: every vote with a violation first (they teach most), then clean ones, in game order."""
    with_v = [q for q in questions if q.violations]
    clean = [q for q in questions if not q.violations]
    chosen = (with_v + clean)[:n]
    return sorted(chosen, key=lambda q: (q.protocol, q.t))


def kind_accuracy(results: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """Per violation kind over marked answers: found / missed / invented, and accuracy found/(all three)."""
    tally: dict[str, dict[str, float]] = {}
    for res in results:
        for part in ("found", "missed", "invented"):
            for kind, _seat in res.get(part) or ():
                tally.setdefault(kind, {"found": 0, "missed": 0, "invented": 0})[part] += 1
    for t in tally.values():
        t["accuracy"] = round(t["found"] / max(1, t["found"] + t["missed"] + t["invented"]), 3)
    return dict(sorted(tally.items()))
