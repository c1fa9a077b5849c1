"""The vote audit: what the video shows against what the protocol says, under the game's rule profile.

Pure logic — no pixels. It takes per-seat hand intervals (vision's observations, or their saved
`stopframe-observations/1` JSON), the protocol and a rule profile, and returns `stopframe-audit/1`:
for every vote the count the video supports and what the vote would have given, and every hand
that broke the profile's voting rules, each with its clause, consequence, time, confidence and the
frames to look at. Nothing here changes the protocol; every finding is a suggestion for the judge.

How a hand is read against a round's windows (spec §1, half-open `[on, off)`):
- `t ≤ on < cutoff` of a candidate: a vote for that candidate (in time);
- `on ≥ cutoff` and gone before the next candidate is named (or within `LATE_TAIL_S` of the last
  count): `late_vote` — never counted;
- `on < t` and still there at `t`: `early_hand` for that candidate (rfm 5.9.6: it counts for him);
- a counted hand with `off <` the profile's deadline (`announced` or `cutoff`): `lifted_early`.
A hand left down from one candidate into the next one's naming is `early_hand` there too; a hand
lifted and put back for the same candidate is one vote. The findings are what the video shows; the
profile decides each one's clause and consequence, and only where the rules themselves differ does
it change which findings there are: the lift deadline (`announced` or `cutoff`), a plain fist where
only a thumb-up counts (a low-confidence `wrong_form`), and the counts that a `count_mismatch` needs.

Counts are ranges, never guesses: a hand a judge may rightly count or not (a form the profile does
not accept, a repeat vote the rulebook is silent on) and a seat the camera cannot see widen the
range the video supports; the last candidate gets everyone at the table not counted for another
where the profile gives silent votes to him (rfm 4.4.10). `count_mismatch` is reported only when
the protocol's count lies outside that range, and the vote is recomputed with the protocol's count
moved to the nearest supported value (engine.vote_outcome / lift_outcome).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from contract.clock import Clock
from contract.errors import StopframeError
from contract.i18n import N_
from contract.observations import HandInterval, Observations, Unseen
from review.audit.calibration import calibrated
from review.audit.findings import (
    AuditReport,
    Evidence,
    Finding,
    FindingConsequence,
    Message,
    VoteOutcome,
    VoteReport,
    english,
    message,
    message_n,
    phrase,
)
from review.game.engine import Replay, lift_outcome, replay, vote_outcome
from review.game.profiles import Consequence, Profile, get_profile
from review.game.timeline import Mark, VoteRound, VoteWindow, vote_rounds, vote_windows

EPS = 1e-6  # float noise on times: a hand *exactly* at the cutoff is late
MERGE_GAP_FRAMES = 2  # a hand that vanishes for ≤ 2 frames (a detector blink) was never lifted
LATE_TAIL_S = 1.0  # after the last count is announced a landing hand is no longer a vote attempt
UNSEEN_CONFIDENCE = 0.9  # vision's "no usable view" (dark, covered) may be a passing shadow
NO_HAND_CONFIDENCE = 0.8  # "no hand" can only be as sure as the detector's recall on visible seats
COUNT_CONFIDENCE = 0.9  # a count is at best as sure as "no other hand was there"
ASSUMED_FACTOR = 0.6  # a finding that rests on a default time is a weaker suggestion
PLAIN_FIST_CONFIDENCE = 0.3  # mafclub wants the thumb up; thumbs are hard to see on video
WRONG_FORMS = frozenset({"open_palm", "finger"})  # what the video shows as not-a-fist ("other" = unread)
# A wrong form is suggested only on a sustained reading: most of the hand's frames must agree on it
# (x_pose_share). Measured on the sample game and its stress set (bench/audit_accuracy.py): every real open
# palm read at 0.88-1.0, the misread thumb-up fists and hand-like props that read open at 0.60-0.70.
WRONG_FORM_SHARE = 0.8
# A hand's form as the finding names it ("voted … with an open palm"; catalogue context `vote_form`)
FORM_NAMES = {"open_palm": N_("an open palm"), "finger": N_("a pointing finger"),
              "fist": N_("a plain fist (no thumb up seen)")}
# Why vision or the audit could not see a seat (an unseen stretch's `why`), in the catalogue (context `unseen`);
# any other text, a file's own, is shown as it is.
UNSEEN_WHY = frozenset({
    N_("no zone in the seat map"), N_("the seat's zone lies outside the picture"),
    N_("the seat's view is dark or covered"), N_("no usable view"), N_("no camera had a view"),
    N_("the seat map has no zone for this seat"),
})


# ---------------------------------------------------------------- reading hands against a round


@dataclass(frozen=True)
class Placement:
    """A seat's hand on the table, read against one window of the round."""

    hand: HandInterval
    window: int  # index in the round's windows
    status: str  # "in_time" | "early" | "late"


def merge_blinks(hands: Iterable[HandInterval], clock: Clock) -> list[HandInterval]:
    """Join a seat's intervals separated by ≤ MERGE_GAP_FRAMES (a detector blink is not a lift)."""
    gap = clock.seconds_of(MERGE_GAP_FRAMES) + EPS
    merged: list[HandInterval] = []
    for h in sorted(hands, key=lambda h: (h.seat, h.on)):
        last = merged[-1] if merged else None
        if last is not None and last.seat == h.seat and h.on - last.off <= gap:
            longer = h if (h.off - h.on) > (last.off - last.on) else last
            merged[-1] = HandInterval(
                h.seat, last.on, max(last.off, h.off), longer.pose, min(last.confidence, h.confidence),
                last.on_frame, h.off_frame if h.off >= last.off else last.off_frame, longer.pose_share,
            )
        else:
            merged.append(h)
    return merged


def place(hand: HandInterval, windows: Sequence[VoteWindow]) -> Placement | None:
    """Which window of the round a hand belongs to, and whether it landed early, in time or late."""
    first = windows[0]
    if hand.on < first.t - EPS:
        return Placement(hand, 0, "early") if hand.off > first.t + EPS else None
    k = max(i for i, w in enumerate(windows) if w.t <= hand.on + EPS)
    w = windows[k]
    if hand.on < w.cutoff - EPS:
        return Placement(hand, k, "in_time")
    if k + 1 < len(windows):
        nxt = windows[k + 1]
        return Placement(hand, k + 1, "early") if hand.off > nxt.t + EPS else Placement(hand, k, "late")
    return Placement(hand, k, "late") if hand.on < w.announced + LATE_TAIL_S else None


# ---------------------------------------------------------------- the audit


@dataclass
class _Context:
    profile: Profile
    clock: Clock  # the observations' stated frame rate: gaps and margins counted in frames
    frames: Clock  # the video's own clock (or the stated rate where it was not opened): evidence frames
    hands_by_seat: dict[int, list[HandInterval]]
    unseen: Sequence[Unseen]
    visible: Collection[int] | None
    findings: list[Finding] = field(default_factory=list)


def audit(
    data: dict[str, Any],
    observations: Observations | Mapping[str, Any],
    *,
    profile: Profile | None = None,
    visible_seats: Collection[int] | None = None,
    marks: Sequence[Mark] = (),
    video: str | None = None,
    frames: Clock | None = None,
    game: Replay | None = None,
    rounds: Sequence[VoteRound] | None = None,
) -> AuditReport:
    """Audit every vote of a protocol against the hands the video shows.

    `data` is the protocol dict (format already sound), `observations` the contract's Observations (what vision
    reports) or their JSON document; `visible_seats` the seats the seat map has zones for (None: all);
    `profile` overrides the protocol's rules; `frames` is the video's own clock (vision.video's, right at a
    variable frame rate) for the evidence frames, None where the video was not opened (the stated rate then).
    `game` and `rounds`: the protocol's replay under `profile` and its voting rounds (with `marks`), where the
    caller has them already (the pipeline works them out once per audit); None: worked out here.
    """
    profile = profile or get_profile(data.get("rules", ""))
    seen = Observations.of(observations)
    game = game if game is not None else replay(data, profile)
    clock = Clock.constant(seen.fps)
    hands_by_seat: dict[int, list[HandInterval]] = {}
    for h in merge_blinks(seen.hands, clock):
        hands_by_seat.setdefault(h.seat, []).append(h)
    ctx = _Context(profile, clock, frames or clock, hands_by_seat, seen.unseen,
                   None if visible_seats is None else set(visible_seats))
    votes: list[VoteReport] = []
    untimed: list[str] = []
    skipped: list[str] = []
    unobserved: list[str] = []
    for rnd in rounds if rounds is not None else vote_rounds(vote_windows(data, marks)):
        vctx = game.vote_contexts.get(rnd.windows[-1].event_index)
        if vctx is None:
            skipped.extend(w.label for w in rnd.windows)
            votes.extend(_unaudited(rnd, data, N_("the rules engine cannot place this vote (see `stopframe validate`)")))
            continue
        if not rnd.timed:
            untimed.extend(w.label for w in rnd.windows)
            votes.extend(_unaudited(rnd, data, N_("no time in the protocol or the judge's marks: not audited")))
            continue
        if not seen.covers(rnd.start, rnd.end) or (seen.windows is None and not _any_hand(seen.hands, rnd)):
            # Nobody watched this vote: every seat at the table is "cannot see", never "did not vote".
            unobserved.extend(w.label for w in rnd.windows)
            votes.extend(_unaudited(rnd, data, N_("the observations do not cover this vote: not audited")))
            _unwatched(ctx, rnd, vctx)
            continue
        votes.extend(_audit_round(ctx, rnd, vctx, data))
    findings = calibrated(sorted(ctx.findings, key=lambda f: (f.t if f.t is not None else math.inf, f.kind, f.seat or 0)))
    extra: dict[str, Any] = {"x_profile": profile.title}
    if untimed:
        extra["x_untimed_votes"] = untimed
    if skipped:
        extra["x_impossible_votes"] = skipped
    if unobserved:
        extra["x_unobserved_votes"] = unobserved
    return AuditReport(video or seen.video or (data.get("video") or {}).get("path"), profile.id, tuple(votes), tuple(findings), extra)


def _any_hand(hands: Sequence[HandInterval], rnd: VoteRound) -> bool:
    """Whether any hand interval lies in the round's span (observations that say nothing of where they
    looked are taken to have watched a round only where they saw something in it)."""
    return any(h.off > rnd.start and h.on < rnd.end for h in hands)


def _unwatched(ctx: _Context, rnd: VoteRound, vctx: Any) -> None:
    """cannot_see for every seat at the table in a round no observation covers (spec §4)."""
    first = sorted(rnd.windows, key=lambda w: w.t or 0.0)[0]
    window = _round_level(first) if rnd.kind == "vote" else first
    for seat in sorted(vctx.living):
        _add(ctx, "cannot_see", window, seat=seat, t=first.t or 0.0, confidence=1.0, frames=[(first.t or 0.0, None)],
             assumed=(), text=message(N_("Seat {seat} cannot be seen during this vote: the observations do not cover it; "
                                         "its vote is unknown."), seat=seat))


def _unaudited(rnd: VoteRound, data: dict[str, Any], why: str) -> list[VoteReport]:
    """A vote that cannot be looked at (no time; not a vote the rules allow): listed with no video count, `why`
    (a catalogue msgid) in English as the report's note."""
    reports = []
    for w in rnd.windows:
        ev = data["events"][w.event_index]
        reports.append(
            VoteReport(
                kind=w.kind, day=w.day, round=w.round, candidate=w.candidate,
                candidates=w.candidates if w.kind == "lift" else None,
                protocol_count=ev.get("count"), protocol_voters=_voters(ev), video_voters=None, silent_seats=(),
                confidence=0.0, outcome=VoteOutcome(None, None),
                extra={"x_note": english(message(why))},
            )
        )
    return reports


def _voters(ev: dict[str, Any]) -> tuple[int, ...] | None:
    voters = ev.get("voters")
    return tuple(sorted(voters)) if isinstance(voters, list) else None


@dataclass
class _Tally:
    """Per window of a round: votes that count under the profile, votes a judge may rightly count or
    not (an unaccepted form, a repeat the rulebook is silent on, a hand left from the last candidate),
    the hands seen placed in time, and the late ones."""

    sure: list[set[int]]
    maybe: list[set[int]]
    seen: list[set[int]]
    late: list[set[int]]

    @classmethod
    def empty(cls, n: int) -> _Tally:
        return cls(*([set() for _ in range(n)] for _ in range(4)))


def _audit_round(ctx: _Context, rnd: VoteRound, vctx: Any, data: dict[str, Any]) -> list[VoteReport]:
    windows = sorted(rnd.windows, key=lambda w: w.t)
    living = tuple(sorted(vctx.living))
    blind = _blind_seats(ctx, windows, living)
    seats = {  # a seat with no zone in the seat map has no hands worth reading, whatever the observations say
        seat: [p for h in ctx.hands_by_seat.get(seat, ()) if (p := place(h, windows)) is not None]
        if ctx.visible is None or seat in ctx.visible else []
        for seat in living
    }
    prior = _prior_fouls(data, windows[0].event_index)
    tally = _judge_hands(ctx, rnd, windows, seats, prior)

    # Who placed no hand that counts, and who placed none at all.
    voted = set().union(*tally.sure)
    undecided = set().union(*tally.maybe) - voted  # their vote is where seen or, if not counted, silent
    blind_anywhere = set().union(*blind)
    silent = tuple(s for s in living if s not in voted | undecided | blind_anywhere)
    if rnd.kind == "vote":
        for seat in silent:
            if not seats[seat]:
                _no_vote(ctx, windows, seat, prior.get(seat, 0))
    ranges = _supported_counts(ctx.profile, rnd, tally, blind, blind_anywhere - voted - undecided, len(living))

    estimates: dict[int, int] = {}
    protocol_counts: dict[int, int] = {}
    confidences = []
    for i, w in enumerate(windows):
        ev = data["events"][w.event_index]
        pcount = ev.get("count") if isinstance(ev.get("count"), int) else None
        lo, hi = ranges[i]
        estimates[i] = lo if pcount is None else min(max(pcount, lo), hi)
        if pcount is not None:
            protocol_counts[i] = pcount
        confidences.append(_vote_confidence(ctx, w, seats, i, bool(blind[i])))
        with_silent = rnd.kind == "vote" and i == len(windows) - 1 and silent_votes_go_to_last(ctx.profile)
        _count_check(ctx, w, i, pcount, _voters(ev), tally, seats, ranges[i], set(blind[i]), confidences[i],
                     silent if with_silent else (), estimates[i])

    outcome = _outcome(ctx.profile, vctx, rnd, windows, protocol_counts, estimates)
    reports = []
    for i, w in enumerate(windows):
        ev = data["events"][w.event_index]
        lo, hi = ranges[i]
        extra: dict[str, Any] = {
            "x_counted_voters": sorted(tally.sure[i]),
            "x_uncertain_voters": sorted(tally.maybe[i]),
            "x_late_seats": sorted(tally.late[i]),
            "x_cannot_see": sorted(blind[i]),
            "x_supported_count": [lo, hi] if lo != hi else lo,
            "x_times": {"t": w.t, "cutoff": w.cutoff, "announced": w.announced},
            "x_assumed_times": list(w.assumed),
            "x_event": w.event_index,
        }
        is_last = rnd.kind == "vote" and i == len(windows) - 1
        reports.append(
            VoteReport(
                kind=w.kind, day=w.day, round=w.round, candidate=w.candidate,
                candidates=w.candidates if w.kind == "lift" else None,
                protocol_count=ev.get("count"), protocol_voters=_voters(ev), video_voters=tuple(sorted(tally.seen[i])),
                silent_seats=silent if is_last else (), confidence=confidences[i], outcome=outcome, extra=extra,
            )
        )
    return reports


def _blind_seats(ctx: _Context, windows: Sequence[VoteWindow], living: Sequence[int]) -> list[dict[int, tuple[str, float]]]:
    """Per window, the living seats the camera cannot see (why, how sure), each reported as cannot_see."""
    blind: list[dict[int, tuple[str, float]]] = []
    for w in windows:
        out = {}
        for seat in living:
            if ctx.visible is not None and seat not in ctx.visible:
                out[seat] = (N_("the seat map has no zone for this seat"), 1.0)
                continue
            why = next((u["why"] for u in ctx.unseen if u["seat"] == seat and u["start"] < w.announced and u["end"] > w.t - EPS), None)
            if why is not None:
                out[seat] = (why, UNSEEN_CONFIDENCE)
        for seat, (why, confidence) in sorted(out.items()):
            _add(ctx, "cannot_see", w, seat=seat, t=w.t, confidence=confidence, frames=[(w.t, None)], assumed=(),
                 text=message(N_("Seat {seat} cannot be seen during the vote ({why}); its vote is unknown."), seat=seat,
                              why=_unseen_why(why)))
        blind.append(out)
    return blind


def _judge_hands(
    ctx: _Context, rnd: VoteRound, windows: Sequence[VoteWindow], seats: dict[int, list[Placement]], prior: dict[int, int]
) -> _Tally:
    """Every placed hand against the profile: the findings it shows and whether its vote counts."""
    tally = _Tally.empty(len(windows))
    for seat, placements in seats.items():
        fouls = prior.get(seat, 0)
        first_window: int | None = None
        for p in sorted(placements, key=lambda p: p.hand.on):
            w = windows[p.window]
            if seat in tally.seen[p.window]:  # placed again for the same candidate: one vote (the lift, if
                continue  # any, is the finding), even where it came back after the cutoff
            if p.status == "late":
                if seat in tally.late[p.window]:  # late again for the same candidate: one finding
                    continue
                tally.late[p.window].add(seat)
                _late(ctx, w, p, fouls)
                _form(ctx, w, p, fouls)
                continue
            tally.seen[p.window].add(seat)
            verdicts = [_lift(ctx, w, p, fouls), _form(ctx, w, p, fouls)]
            if p.status == "early":
                verdicts.append(_early(ctx, w, p, fouls))
            if rnd.kind == "vote":
                if first_window is None:
                    first_window = p.window
                else:
                    verdicts.append(_double(ctx, windows[first_window], w, p, fouls))
            if NO not in verdicts:
                (tally.maybe if MAYBE in verdicts else tally.sure)[p.window].add(seat)
    # A hand left on the table from one candidate's vote when the next is named: what a judge sees as a
    # hand for him too (spec §1 "early"). Reported there; whether the judge counted it is left open.
    for seat, placements in seats.items():
        held_into: set[int] = set()
        for p in placements:
            nxt = p.window + 1
            held = p.status != "late" and nxt < len(windows) and p.hand.off > windows[nxt].t + EPS
            if not held or seat in tally.seen[nxt] or nxt in held_into:
                continue
            held_into.add(nxt)
            if _early(ctx, windows[nxt], p, prior.get(seat, 0), held_from=windows[p.window]) == YES:
                tally.maybe[nxt].add(seat)
    return tally


def _supported_counts(
    profile: Profile, rnd: VoteRound, tally: _Tally, blind: list[dict[int, Any]], unknown: set[int], at_table: int
) -> list[tuple[int, int]]:
    """Per window, the lowest and highest count the video supports under the profile."""
    ranges = [(len(s), len(s) + len(m) + len(set(b) & unknown)) for s, m, b in zip(tally.sure, tally.maybe, blind, strict=True)]
    if rnd.kind == "vote" and silent_votes_go_to_last(profile):
        # The last candidate gets everyone at the table not counted for another (rfm 4.4.10, RULES.md
        # "Counting"), whatever the hands for him show: a double voter's second hand adds nothing there.
        last = len(ranges) - 1
        others_lo = sum(len(tally.sure[j]) for j in range(last))
        others_hi = others_lo + len(set().union(*(tally.maybe[j] | (set(blind[j]) & unknown) for j in range(last))))
        lo, hi = ranges[last]
        ranges[last] = (max(lo, at_table - others_hi), max(hi, at_table - others_lo))
    return ranges


def _prior_fouls(data: dict[str, Any], before: int) -> dict[int, int]:
    """Fouls each seat had in the protocol before this vote (a 4th foul changes the consequence)."""
    fouls: dict[int, int] = {}
    for ev in data.get("events", [])[:before]:
        if isinstance(ev, dict) and ev.get("type") == "foul" and isinstance(ev.get("seat"), int):
            fouls[ev["seat"]] = fouls.get(ev["seat"], 0) + 1
    return fouls


def silent_votes_go_to_last(profile: Profile) -> bool:
    """Whether a player who places no hand votes for the last candidate (rfm 4.4.10, mafclub 2.4.10, lvi2015 5.4)."""
    return bool(profile.silent_vote_to_last)


def _outcome(
    profile: Profile, vctx: Any, rnd: VoteRound, windows: Sequence[VoteWindow],
    protocol_counts: dict[int, int], estimates: dict[int, int],
) -> VoteOutcome:
    """The round's result by the protocol's counts and by the counts the video supports."""
    try:
        if rnd.kind == "lift":
            video = lift_outcome(profile, vctx, estimates[0]).text
            proto = lift_outcome(profile, vctx, protocol_counts[0]).text if 0 in protocol_counts else None
            return VoteOutcome(proto, video)
        video = vote_outcome(profile, vctx, {w.candidate: estimates[i] for i, w in enumerate(windows)}).text
        proto = None
        if len(protocol_counts) == len(windows):
            proto = vote_outcome(profile, vctx, {w.candidate: protocol_counts[i] for i, w in enumerate(windows)}).text
        return VoteOutcome(proto, video)
    except StopframeError:
        return VoteOutcome(None, None)


# ---------------------------------------------------------------- the individual checks


def _timing(margin: float, clock: Clock) -> float:
    """How sure a before/after call is: 0.5 at the boundary itself, certain a frame or more away."""
    return min(1.0, 0.5 + 0.5 * clock.frames_in(max(0.0, margin)))


def _assumed(w: VoteWindow, names: Iterable[str]) -> tuple[str, ...]:
    return tuple(n for n in ("t", "cutoff", "announced") if n in names and n in w.assumed)


def _add(
    ctx: _Context, kind: str, w: VoteWindow, *, seat: int | None = None, seats: Sequence[int] | None = None,
    t: float, confidence: float, frames: Sequence[tuple[float, int | None]], assumed: tuple[str, ...], text: Message,
    consequence: Consequence | None = None, extra: dict[str, Any] | None = None, shown: int = 0,
) -> None:
    """Record a finding with the profile's clause and consequence for its kind; its sentence `text` kept in English
    (`x_text`) and as its catalogue message (`x_text_message`), for a reader of another language. `frames[shown]`
    is the moment that shows it, chosen here once (`x_frame`, Finding.frame): the frame every place shows and
    records for it."""
    if consequence is None:
        consequence = ctx.profile.offence(kind)
    if assumed:
        confidence *= ASSUMED_FACTOR
    end = ctx.frames.duration  # a window time past the video's end shows its last frame

    def frame_of(x: float, f: int | None) -> int:
        return f if f is not None else ctx.frames.at(max(0.0, x if end is None else min(x, end))).frame

    points = sorted({(frame_of(x, f), x) for x, f in frames})
    more: dict[str, Any] = {"x_text": english(text), "x_text_message": text, "x_frame": frame_of(*frames[shown]),
                            **(extra or {})}
    if consequence.also:
        more["x_also_clause"] = consequence.also
    if w.kind == "lift":
        more["x_candidates"] = list(w.candidates)
    ctx.findings.append(
        Finding(
            kind=kind, seat=seat, seats=tuple(seats) if seats is not None else None, day=w.day, night=None,
            round=w.round, candidate=w.candidate, t=t, clause=consequence.clause,
            consequence=FindingConsequence(consequence.type, consequence.text, consequence.points),
            confidence=max(0.0, min(1.0, confidence)), assumed_times=assumed,
            evidence=Evidence(tuple(f for f, _ in points), tuple(x for _, x in points)), extra=more,
        )
    )


# A check's verdict on whether the hand's vote counts under the profile.
YES, NO, MAYBE = "counts", "not_counted", "maybe_counted"  # codes, never shown


def _late(ctx: _Context, w: VoteWindow, p: Placement, prior: int) -> None:
    h = p.hand
    _add(ctx, "late_vote", w, seat=h.seat, t=h.on,
         confidence=h.confidence * _timing(h.on - w.cutoff, ctx.clock),
         frames=[(w.cutoff, None), (h.on, h.on_frame)], shown=1, assumed=_assumed(w, ["cutoff"]),
         text=_landed_late(h.seat, h.on - w.cutoff, w),
         consequence=ctx.profile.offence("late_vote", prior_fouls=prior))


def _early(ctx: _Context, w: VoteWindow, p: Placement, prior: int, held_from: VoteWindow | None = None) -> str:
    """early_hand: on the table before the candidate is named and still there when he is."""
    h = p.hand
    consequence = ctx.profile.offence("early_hand", prior_fouls=prior)
    if held_from is None:
        text = message(N_("Seat {seat}'s hand was on the table {seconds} s before {whom} was named."), seat=h.seat,
                       seconds=_secs(w.t - h.on), whom=_whom(w))
        margin = min(w.t - h.on, h.off - w.t)
    else:
        text = message(N_("Seat {seat}'s hand, placed for {earlier}, was still on the table when {whom} was named."),
                       seat=h.seat, earlier=_whom(held_from), whom=_whom(w))
        margin = h.off - w.t
    _add(ctx, "early_hand", w, seat=h.seat, t=h.on if held_from is None else w.t,
         confidence=h.confidence * _timing(margin, ctx.clock),
         frames=[(h.on, h.on_frame), (w.t, None)], shown=1, assumed=_assumed(w, ["t"]), text=text,
         consequence=consequence)
    return NO if consequence.type == "not_counted" else YES


def _lift(ctx: _Context, w: VoteWindow, p: Placement, prior: int) -> str:
    """lifted_early where the hand left before the profile's deadline."""
    h = p.hand
    name = "announced" if ctx.profile.lift_deadline == "announced" else "cutoff"
    deadline = w.announced if name == "announced" else w.cutoff
    if h.off >= deadline - EPS:
        return YES
    after_cutoff = h.off >= w.cutoff - EPS
    consequence = ctx.profile.offence("lifted_early", prior_fouls=prior, after_cutoff=after_cutoff)
    if name == "announced" and after_cutoff:
        said = N_("Seat {seat} lifted the hand {seconds} s before the count was announced for {whom} (after the vote closed).")
    elif name == "announced":
        said = N_("Seat {seat} lifted the hand {seconds} s before the count was announced for {whom}.")
    else:
        said = N_("Seat {seat} lifted the hand {seconds} s before the vote closed for {whom}.")
    _add(ctx, "lifted_early", w, seat=h.seat, t=h.off,
         confidence=h.confidence * _timing(deadline - h.off, ctx.clock),
         frames=[(h.off, h.off_frame), (deadline, None)], assumed=_assumed(w, [name]),
         text=message(said, seat=h.seat, seconds=_secs(deadline - h.off), whom=_whom(w)),
         consequence=consequence)
    return NO if consequence.type == "not_counted" else YES


def _double(ctx: _Context, first: VoteWindow, w: VoteWindow, p: Placement, prior: int) -> str:
    h = p.hand
    consequence = ctx.profile.offence("double_vote", prior_fouls=prior)
    _add(ctx, "double_vote", w, seat=h.seat, t=h.on, confidence=h.confidence,
         frames=[(first.t, None), (h.on, h.on_frame)], shown=1, assumed=(),
         text=message(N_("Seat {seat} voted for {first} and again for {whom}."), seat=h.seat, first=_whom(first),
                      whom=_whom(w)), consequence=consequence)
    if consequence.type == "not_counted" or ctx.profile.repeated_vote == "first":
        return NO
    return MAYBE if ctx.profile.repeated_vote.value is None else YES


def _form(ctx: _Context, w: VoteWindow, p: Placement, prior: int) -> str:
    """wrong_form: an open palm or a finger (what the video shows); a plain fist where only a thumb-up counts.

    Never changes a count on its own: the pose is read from a few pixels, the vote from the hand's
    presence — a form the profile does not count only widens the count the video supports. An open
    reading that flickers (pose share under WRONG_FORM_SHARE) is no evidence of a form at all.
    """
    h = p.hand
    accepted = ctx.profile.accepted_forms
    if h.pose in WRONG_FORMS and h.pose_share < WRONG_FORM_SHARE:
        return YES
    if h.pose == "fist" and "fist" not in accepted and h.pose_share < WRONG_FORM_SHARE:
        return YES  # an unsure thumb reading (vision weighs it in no pose's share) never makes a finding on its own
    if h.pose in WRONG_FORMS:
        confidence = h.confidence * h.pose_share  # a flickering pose reading is a weaker suggestion
    elif h.pose == "fist" and "fist" not in accepted:
        confidence = min(h.confidence * h.pose_share, PLAIN_FIST_CONFIDENCE)
    else:
        return YES
    consequence = ctx.profile.offence("wrong_form", prior_fouls=prior)
    if h.pose in accepted:
        consequence = ctx.profile.form_accepted(consequence.clause)
    form = phrase("vote_form", FORM_NAMES[h.pose])
    mid = (h.on + min(h.off, w.announced)) / 2
    _add(ctx, "wrong_form", w, seat=h.seat, t=h.on, confidence=confidence,
         frames=[(h.on, h.on_frame), (mid, None)], shown=1, assumed=(),
         text=message(N_("Seat {seat} voted for {whom} with {form}."), seat=h.seat, whom=_whom(w), form=form),
         consequence=consequence,
         extra={"x_pose": h.pose})
    return MAYBE if consequence.type == "not_counted" and p.status != "late" else YES


def _no_vote(ctx: _Context, windows: Sequence[VoteWindow], seat: int, prior: int) -> None:
    first, last = windows[0], windows[-1]
    assumed = tuple(sorted({n for w in windows for n in _assumed(w, ["t", "cutoff"])}))
    _add(ctx, "no_vote", _round_level(first), seat=seat, t=first.t, confidence=NO_HAND_CONFIDENCE,
         frames=[(first.t, None), (last.cutoff, None)], assumed=assumed,
         text=message(N_("Seat {seat} placed no hand in the whole round."), seat=seat),
         consequence=ctx.profile.offence("no_vote", prior_fouls=prior))


def _round_level(w: VoteWindow) -> VoteWindow:
    """A round's findings (no_vote) name no candidate."""
    return VoteWindow(w.event_index, w.kind, w.day, w.round, None, w.candidates, w.t, w.cutoff, w.announced, w.sources)


def _count_check(
    ctx: _Context, w: VoteWindow, i: int, pcount: int | None, pvoters: tuple[int, ...] | None, tally: _Tally,
    seats: dict[int, list[Placement]], rng: tuple[int, int], blind: set[int], conf: float, silent: Sequence[int],
    estimate: int,
) -> None:
    """count_mismatch where the protocol's count (or voters) cannot be what the video shows."""
    lo, hi = rng
    sure, maybe = tally.sure[i], tally.maybe[i]
    differing: set[int] = set()
    if pvoters is not None:
        differing = (set(pvoters) ^ sure) - blind - maybe
    count_wrong = pcount is not None and not lo <= pcount <= hi
    if not differing and not count_wrong:
        return
    if not differing and pcount is not None and pcount > hi:
        # With a count only, name the seats whose hands a judge may have counted wrongly.
        touched = {s for s, placements in seats.items() for p in placements if p.window == i}
        differing = (touched - sure - maybe) | tally.late[i]
    values: dict[str, Any] = {"count": pcount if pcount is not None else "?", "whom": _whom(w),
                              "shown": f"{lo}" if lo == hi else f"{lo}–{hi}"}
    if pvoters is not None and differing:
        values["seats"] = ", ".join(map(str, sorted(differing)))
    if silent and "seats" in values:
        text = message_n(N_("The protocol has {count} for {whom}; the video supports {shown} (with {n} silent vote). "
                            "Seats that differ: {seats}."),
                         N_("The protocol has {count} for {whom}; the video supports {shown} (with {n} silent votes). "
                            "Seats that differ: {seats}."), len(silent), **values)
    elif silent:
        text = message_n(N_("The protocol has {count} for {whom}; the video supports {shown} (with {n} silent vote)."),
                         N_("The protocol has {count} for {whom}; the video supports {shown} (with {n} silent votes)."),
                         len(silent), **values)
    elif "seats" in values:
        text = message(N_("The protocol has {count} for {whom}; the video supports {shown}. Seats that differ: {seats}."),
                       **values)
    else:
        text = message(N_("The protocol has {count} for {whom}; the video supports {shown}."), **values)
    _add(ctx, "count_mismatch", w, seats=sorted(differing), t=w.cutoff, confidence=conf,
         frames=[(w.cutoff, None)], assumed=_assumed(w, ["t", "cutoff"]), text=text,
         extra={"x_video_count": estimate})


def _vote_confidence(ctx: _Context, w: VoteWindow, seats: dict[int, list[Placement]], i: int, blind: bool) -> float:
    """How sure the video count is: its least certain hand, near-boundary hands, assumed times, blind seats."""
    conf = COUNT_CONFIDENCE
    for placements in seats.values():
        for p in placements:
            if p.window != i:
                continue
            h = p.hand
            boundary = min(abs(h.on - w.cutoff), abs(h.on - w.t) if p.status != "early" else math.inf)
            conf = min(conf, h.confidence * _timing(boundary, ctx.clock))
    if w.assumed:
        conf *= ASSUMED_FACTOR
    if blind:
        conf *= 0.5
    return conf


def _landed_late(seat: int, delta: float, w: VoteWindow) -> Message:
    if delta < 0.005:
        return message(N_("Seat {seat}'s hand landed at the very moment the vote for {whom} closed."), seat=seat,
                       whom=_whom(w))
    return message(N_("Seat {seat}'s hand landed {seconds} s after the vote for {whom} closed."), seat=seat,
                   seconds=_secs(delta), whom=_whom(w))


def _secs(delta: float) -> float:
    """A time in a sentence: to the millisecond in the file, read to two decimals."""
    return round(float(delta), 3)


def _whom(w: VoteWindow) -> Message:
    """Whom a vote is for, as a sentence names it after "for" («за кандидатуру 5», «за подъём 1, 2»)."""
    if w.kind == "vote":
        return phrase("whom", N_("candidate {candidate}"), candidate=w.candidate)
    return phrase("whom", N_("lifting {seats}"), seats=", ".join(map(str, w.candidates)))


def _unseen_why(why: str) -> Any:
    """Why a seat cannot be seen, as the sentence's value: the catalogue's words where they are ours (several
    cameras' reasons are joined by "; "), the text as it is otherwise."""
    parts = [phrase("unseen", p) if p in UNSEEN_WHY else p for p in str(why).split("; ")]
    return parts[0] if len(parts) == 1 else parts
