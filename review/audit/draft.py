"""Draft a game's votes from the video: the judge types what only a person knows, the video fills the votes.

A PARTIAL protocol holds the players, nominations, phases (and whatever else the judge wrote) but no vote
events, or vote events without times, counts or voters. This module, with no audio or video library, turns
it into a DRAFT: the missing first-round vote events are added (the day's candidates in nomination order),
their times come from the judge's voice (`review.audit.align`), their voters and counts from the audit of
the hands (`review.audit.audit`'s counted voters: a late hand is never a vote, early and lifted hands are the
audit's findings and count only where the profile counts them; the silent players go to the last candidate
where the profile says so), and a revote or a lift vote
is added where the drafted counts tie under the profile. Nothing the judge wrote is dropped or changed:
a value is only ever added where the PARTIAL has none, and each proposed value's score is in the event's
`x_draft_score`.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from contract.pace import DAY_GAP_S, ROUND_SPAN_S
from contract.spans import merged
from review.audit.align import TIME_FIELDS, VOTE_TYPES, VoteCue, align_protocol, open_vote_spans
from review.audit.findings import AuditReport
from review.game import engine
from review.game.problems import Problem
from review.game.profiles import Profile
from review.game.protocol import format_problems
from review.game.voting import vote_outcome

MAX_ROUNDS = 3  # first round, revote, lift vote: the most a day can have
ADDED = "x_draft_added"  # on a vote event the draft added (the judge's PARTIAL had none for it)
VIDEO_VOTERS = "x_video_voters"  # the in-time hands of a vote whose count the judge wrote and the hands do not make
MAX_PASSES = 40  # each pass settles at least one more day's or round's votes; a game has far fewer
ROUND_PACE = 2.0  # a closing word this many times a round's own pace before the next is no part of the round
LISTEN_MARGIN_S = 10.0  # listened to either side of where a vote's cues may lie: its call's words, its count, a pause
Auditor = Callable[[dict[str, Any]], AuditReport]


@dataclass
class Draft:
    """The drafted protocol and what the judge should know about it."""

    data: dict[str, Any]
    untimed: list[str] = field(default_factory=list)  # votes whose times could not be found: not guessed
    added: int = 0  # vote events the draft added
    in_order: bool = False  # no cue's day could be told (no night music, no time), the cues taken in game order, and
    # some vote was left without a time: the video may begin on a later day (one voting time would say which)


def partial_problems(data: Any) -> list[Problem]:
    """The PARTIAL's format problems, less the counts its votes may leave out (the draft fills them)."""
    events = data.get("events") if isinstance(data, dict) else None

    def left_to_draft(p: Problem) -> bool:
        m = re.fullmatch(r"events\[(\d+)\]\.count", p.path or "")
        if not m or not isinstance(events, list) or int(m.group(1)) >= len(events):
            return False
        e = events[int(m.group(1))]
        return isinstance(e, dict) and e.get("type") in VOTE_TYPES and "count" not in e

    return [p for p in format_problems(data) if not left_to_draft(p)]


def refusals(data: dict[str, Any], profile: Profile) -> list[str]:
    """The PARTIAL's nominations the rules refuse (a seat that has left nominating or nominated), with the clause:
    a vote drafted on such a nomination would be a guess about what the judge meant."""
    events = data.get("events", [])
    kept = _counted_days(events)
    found = []
    for problem in engine.replay({**data, "events": [events[k] for k in kept]}, profile).problems:
        k = problem.event
        if k is not None and k < len(kept) and events[kept[k]].get("type") == "nomination":
            found.append(str(problem.at_event(kept[k])))
    return found


def _counted_days(events: list[dict[str, Any]]) -> list[int]:
    """The indexes of the events the rules can replay before the draft: every event but the votes of a day with a
    vote not yet counted. That day's eliminations then come from the sheet's own elimination events, as for a
    sheet with no vote events; a count of 0 (or any guess) would have the rules take someone else out of the game
    and refuse every later nomination as made in a game already over."""
    open_days = {e.get("day") for e in events if e.get("type") in VOTE_TYPES and "count" not in e}
    return [k for k, e in enumerate(events) if not (e.get("type") in VOTE_TYPES and e.get("day") in open_days)]


def listening_spans(partial: dict[str, Any], profile: Profile, margin: float = LISTEN_MARGIN_S) -> list[tuple[float, float]] | None:
    """The video stretches whose sound can time the PARTIAL's votes, overlapping ones merged: where the judge
    timed the phases around them (a voting phase, the night after it), the alignment takes no cue outside them
    (`review.audit.align.open_vote_spans`, for the vote events the draft adds and the revotes that follow them),
    so listening there, `margin` seconds either side, loses no vote. None (the whole track) where a vote is
    timed already or none is to be drafted; a side no timed event bounds is open (±inf)."""
    placed = copy.deepcopy(partial)
    add_first_rounds(placed, profile)
    spans = open_vote_spans(placed)
    if not spans:
        return None
    return merged((a - margin, b + margin) for a, b in spans)


def _label(e: dict[str, Any]) -> str:
    who = f"candidate {e.get('candidate')}" if e.get("type") == "vote" else f"lift {e.get('candidates')}"
    return f"day {e.get('day')} round {e.get('round', 1)} {who}"


def _insert_after(events: list[dict[str, Any]], day: int) -> int:
    """Where a day's first vote goes: after its last nomination and its voting phase, whichever comes later."""
    at = -1
    for i, e in enumerate(events):
        if (e.get("type") in ("nomination", "withdrawal") and e.get("day") == day) or \
                (e.get("type") == "phase" and e.get("phase") == "voting" and e.get("number") == day):
            at = i
    return at + 1


def add_first_rounds(data: dict[str, Any], profile: Profile) -> list[int]:
    """Add round 1's missing vote events (in place) for every day that has nominations: the candidates in
    nomination order (withdrawn ones left out), around the ones the judge wrote. A lone candidate gets none where the profile
    says a single candidate is not voted on, or leaves without a vote. Returns the added events' indices."""
    events: list[dict[str, Any]] = data.setdefault("events", [])
    days: dict[int, list[int]] = {}
    for e in events:
        day = e.get("day")
        if e.get("type") == "nomination" and isinstance(day, int) and isinstance(e.get("target"), int):
            named = days.setdefault(day, [])
            if e["target"] not in named:
                named.append(e["target"])
        elif e.get("type") == "withdrawal" and isinstance(day, int) and e.get("target") in days.get(day, []):
            days[day].remove(e["target"])
    added: list[int] = []
    for day in sorted(days):
        candidates = days[day]
        if not candidates or (len(candidates) == 1 and
                              (profile.single_day1 if day == 1 else profile.single_later).value in ("no_vote", "leaves")):
            continue

        def own(c: int, day: int = day) -> int | None:
            return next((i for i, e in enumerate(events) if e.get("type") == "vote" and e.get("day") == day
                         and e.get("round", 1) == 1 and e.get("candidate") == c), None)

        pos: int | None = None  # after the last of the day's first-round votes placed so far
        for n, c in enumerate(candidates):
            mine = own(c)
            if mine is not None:
                pos = mine + 1
                continue
            if pos is None:  # before the judge's first vote of the day, else after the day's nominations
                later = [j for j in (own(x) for x in candidates[n + 1:]) if j is not None]
                pos = min(later) if later else _insert_after(events, day)
            events.insert(pos, {"type": "vote", "day": day, "round": 1, "candidate": c, ADDED: True})
            added = [i + 1 if i >= pos else i for i in added] + [pos]
            pos += 1
    return sorted(added)


def _fill_votes(draft: dict[str, Any], report: AuditReport, profile: Profile) -> None:
    """Put the audit's in-time voters and counts into the vote events that lack them (in place), or replace the
    draft's own earlier ones. A value the judge wrote is never replaced: where the judge gave a count, voters are
    added only when they make that count."""
    events = draft["events"]
    for v in report.votes:
        i = v.extra.get("x_event")
        if v.video_voters is None or not isinstance(i, int):
            continue
        e = events[i]
        voters = set(v.extra.get("x_counted_voters", []))
        if e.get("type") == "vote" and profile.silent_vote_to_last.value:
            voters |= set(v.silent_seats)
        score = round(float(v.confidence), 3)
        scores = dict(e.get("x_draft_score", {}))
        ours = set(scores)  # the values the draft itself proposed earlier: read again with the days before settled
        if ("voters" not in e or "voters" in ours) and ("count" not in e or "count" in ours or e["count"] == len(voters)):
            e["voters"] = sorted(voters)
            scores["voters"] = score
            e.pop(VIDEO_VOTERS, None)
        elif "voters" not in e:  # the judge's count stands and the hands do not make it: kept for the judge to see
            e[VIDEO_VOTERS] = sorted(voters)
        if "count" not in e or "count" in ours:
            e["count"] = len(e["voters"]) if isinstance(e.get("voters"), list) else len(voters)
            scores["count"] = score
        if scores:
            e["x_draft_score"] = scores


def _next_round(draft: dict[str, Any], profile: Profile) -> bool:
    """Add the revote or the lift vote the drafted counts call for, where the draft has none yet (in place)."""
    events = draft["events"]
    game = engine.replay(draft, profile)
    rounds: dict[tuple[int, int], list[int]] = {}
    for i, e in enumerate(events):
        if e.get("type") in VOTE_TYPES:
            rounds.setdefault((e.get("day"), e.get("round", 1)), []).append(i)
    for (day, rnd), members in sorted(rounds.items()):
        if (day, rnd + 1) in rounds or rnd >= MAX_ROUNDS:
            continue
        last = members[-1]
        ctx = game.vote_contexts.get(last)
        counts = {events[i].get("candidate"): events[i].get("count") for i in members}
        if ctx is None or ctx.kind != "vote" or not all(isinstance(c, int) for c in counts.values()):
            continue
        outcome = vote_outcome(profile, ctx, counts)
        if outcome.next == "revote":
            new = [{"type": "vote", "day": day, "round": rnd + 1, "candidate": c, ADDED: True}
                   for c in outcome.tied]
        elif outcome.next == "lift":
            new = [{"type": "lift_vote", "day": day, "round": rnd + 1, "candidates": list(outcome.tied), ADDED: True}]
        else:
            continue
        events[last + 1:last + 1] = new
        return True
    return False


def _day_of(data: dict[str, Any], nights: Sequence[tuple[float, float]],
            cues: Sequence[VoteCue] = ()) -> Callable[[VoteCue], int | None]:
    """Which day's votes a cue may be (as the number of nights before it), or None where it cannot be told.

    From the night music heard before the cue, where the nights heard are the protocol's (all, or all but night 0
    before the recording began), or where the protocol is a sheet typed part-way (no result yet) whose video goes
    on past it (its nights are the first heard; night 0 was not heard where a vote comes before the first music);
    else from the protocol's timed phases before it (a clip of a game carries the game's history, with times only
    for what it shows: its own day's voting phase or night tells its day)."""
    events = data.get("events", [])
    starts = sorted(a for a, _ in nights)
    shift = sum(1 for e in events if e.get("type") == "phase" and e.get("phase") == "night") - len(starts)
    if starts and shift < 0 and not any(e.get("type") == "result" for e in events):
        shift = int(any(c.cutoff < starts[0] for c in cues))
    if starts and shift in (0, 1):
        return lambda c: sum(1 for a in starts if a < c.cutoff) + shift
    offset = (data.get("video") or {}).get("offset_s") or 0.0
    marks: list[tuple[float, int]] = []  # (video time of a timed phase, the nights before the votes after it)
    night = 0
    for e in events:
        if e.get("type") != "phase":
            continue
        night += e.get("phase") == "night"
        if isinstance(e.get("t"), int | float) and not isinstance(e.get("t"), bool):
            marks.append((offset + e["t"], night))
    return lambda c: max((n for t, n in marks if t <= c.cutoff), default=None)


def _game_rounds(data: dict[str, Any]) -> list[tuple[int, int, bool]]:
    """The game's vote rounds in order: (the nights before its day, how many vote events it has, whether the
    draft fills it: one of its events is the draft's own, or one whose count is not the judge's)."""
    rounds: list[tuple[int, int, bool]] = []
    night, last = 0, None
    for e in data.get("events", []):
        if e.get("type") == "phase" and e.get("phase") == "night":
            night += 1
        elif e.get("type") in VOTE_TYPES:
            key = (night, e.get("day"), e.get("round", 1))
            if key != last:
                rounds.append((night, 0, False))
                last = key
            day, size, drafted = rounds[-1]
            rounds[-1] = (day, size + 1, drafted or bool(e.get(ADDED)) or "count" not in e
                          or "count" in e.get("x_draft_score", {}))
    return rounds


def _round_sizes(data: dict[str, Any]) -> dict[int, list[int]]:
    """For each day (as the nights before it), how many vote events each of its rounds has, in order."""
    sizes: dict[int, list[int]] = {}
    for day, size, _ in _game_rounds(data):
        sizes.setdefault(day, []).append(size)
    return sizes


def _round_start(heard: Sequence[VoteCue], at: int, size: int) -> int | None:
    """Where, from `at` on, the first run of `size` cues begins whose neighbours lie within a round's span of each
    other, and not on a cue paced apart from the rest of the run (one said ROUND_PACE times the round's own pace
    before the next: the judge's thanks for the last speech); None where no run does."""
    def gaps(j: int) -> list[float]:
        return [heard[i + 1].cutoff - heard[i].cutoff for i in range(j, min(j + size, len(heard)) - 1)]

    for j in range(at, len(heard) - size + 1):
        if any(g > ROUND_SPAN_S for g in gaps(j)):
            continue
        after = gaps(j + 1)
        if size > 1 and len(after) == size - 1 and max(after) <= ROUND_SPAN_S and gaps(j)[0] > ROUND_PACE * max(after):
            continue
        return j
    return None


def _days_cues(data: dict[str, Any], cues: Sequence[VoteCue],
               nights: Sequence[tuple[float, float]]) -> tuple[list[VoteCue], dict[int, list[VoteCue]]]:
    """The cues whose day cannot be told (`_day_of`), and the others by day, each in time order."""
    day_of = _day_of(data, nights, cues)
    untold: list[VoteCue] = []
    by_day: dict[int, list[VoteCue]] = {}
    for c in sorted(cues, key=lambda c: c.cutoff):
        day = day_of(c)
        if day is None:
            untold.append(c)
        else:
            by_day.setdefault(day, []).append(c)
    return untold, by_day


def first_cues(data: dict[str, Any], cues: Sequence[VoteCue], nights: Sequence[tuple[float, float]]) -> list[VoteCue]:
    """Each day's cues for its vote rounds in order (the candidates of round 1, then the revote's, then the lift
    vote's), where the alignment alone would take any of the day's cues: a round's are the first run of heard
    closing words that holds it, each within a round's span of the next. A judge who thanks every speaker with the
    word that closes a vote («Спасибо») says it alone, a minute apart, before the votes, while a round's candidates
    are closed seconds apart. Where no such run is heard, a round takes the next cues in order. The cues told as
    one day's (`_day_of`) take that day's rounds and those of the days after it that no cue is told for, a day's
    gap apart. A cue whose day cannot be told is kept, unless no cue's can: then the rounds of the whole game take
    the cues in order (a sheet with no time, a video without night music)."""
    untold, by_day = _days_cues(data, cues, nights)
    sizes = _round_sizes(data)
    if not by_day:  # no cue's day can be told (no night heard, no phase timed): the game's rounds take them in order
        return _rounds_of(untold, [(day, n) for day in sorted(sizes) for n in sizes[day]])[0]
    # a day told (by its night music, or a phase the judge timed) and the days after it up to the next one told: one
    # timed voting phase places the days that follow it on the video too
    told = sorted(by_day)
    kept = untold
    for day, until in zip(told, [*told[1:], None], strict=True):
        later = [(d, n) for d in sorted(sizes) if d >= day and (until is None or d < until) for n in sizes[d]]
        kept += _rounds_of(by_day[day], later)[0]
    return sorted(kept, key=lambda c: c.cutoff)


def before_video(data: dict[str, Any], cues: Sequence[VoteCue], nights: Sequence[tuple[float, float]]) -> set[int]:
    """The vote events of the rounds the video begins after, where no cue's day can be told (a sheet with no time,
    a video without night music): a recording started late, or a clip of one day, shows the game from a later
    round on. The rounds it shows are taken to begin at the first, or at a later one no later than the first the
    draft fills, whichever places the most of the draft's rounds on runs of closing words (`_round_start`), then
    leaves the fewest rounds from it on unplaced; the earliest where they tie (a whole game's video holds every
    round). None where a cue's day can be told (the alignment keeps each vote to its own day), where a vote has a
    time (an anchor the alignment places the others by), or where every round is the judge's, counted: runs of
    closing words alone cannot tell a first day's round from a later one of the same size, so the video is taken
    to begin with the game, unless a time on the sheet says otherwise."""
    untold, by_day = _days_cues(data, cues, nights)
    rounds = _game_rounds(data)
    filled = [i for i, (_, _, drafted) in enumerate(rounds) if drafted]
    votes = [i for i, e in enumerate(data.get("events", [])) if e.get("type") in VOTE_TYPES]
    if by_day or not filled or any(name in data["events"][i] for i in votes for name in TIME_FIELDS):
        return set()

    def fit(start: int) -> tuple[int, int, int]:
        placed = _rounds_of(untold, [(day, size) for day, size, _ in rounds[start:]])[1]
        return -sum(ok for i, ok in enumerate(placed, start) if i in filled), placed.count(False), start

    skipped = sum(size for _, size, _ in rounds[:min(range(filled[0] + 1), key=fit)])
    return set(votes[:skipped])


def _rounds_of(heard: list[VoteCue], rounds: list[tuple[int, int]]) -> tuple[list[VoteCue], list[bool]]:
    """The cues of these rounds ((day, size), in order), each the first run that holds it (`_round_start`), else
    the next cues in order, a day's first a day's gap after the day before's last; and whether each round was
    placed on such a run."""
    kept: list[VoteCue] = []
    placed: list[bool] = []
    at, day = 0, None
    for this_day, size in rounds:
        if kept and this_day != day:
            at = next((i for i in range(at, len(heard)) if heard[i].cutoff >= kept[-1].cutoff + DAY_GAP_S), len(heard))
        day = this_day
        start = _round_start(heard, at, size)
        placed.append(start is not None)
        at = at if start is None else start
        kept += heard[at:at + size]
        at += size
    return kept, placed


def _vote_key(e: dict[str, Any]) -> tuple:
    return e.get("type"), e.get("day"), e.get("round", 1), e.get("candidate"), tuple(e.get("candidates") or ())


def _without_own_times(draft: dict[str, Any], partial: dict[str, Any]) -> dict[str, Any]:
    """A copy without the times this draft proposed itself: each pass times the votes afresh from the rounds it
    knows by then (a revote found since moves the next day's cues), never from its own earlier guesses. A time the
    PARTIAL holds (the judge's, or one accepted from an earlier draft) stays."""
    given = {(_vote_key(e), name) for e in partial.get("events", []) if isinstance(e, dict) for name in TIME_FIELDS
             if name in e}
    out = copy.deepcopy(draft)
    for e in out.get("events", []):
        scores = e.get("x_draft_score", {})
        for name in TIME_FIELDS:
            if name in scores and (_vote_key(e), name) not in given:
                e.pop(name, None)
                scores.pop(name)
        if "x_draft_score" in e and not scores:
            e.pop("x_draft_score")
    return out


def cues_to_look_at(partial: dict[str, Any], cues: Sequence[VoteCue], nights: Sequence[tuple[float, float]],
                    profile: Profile) -> list[VoteCue]:
    """The heard cues any of the draft's rounds may take (`first_cues`, a revote and a lift vote included): each
    day's from its first round on, and those whose day cannot be told. The hands are looked at there only: the
    judge's thanks after a day's speeches, heard before its votes, are no vote."""
    placed = copy.deepcopy(partial)
    add_first_rounds(placed, profile)
    kept, by_day = _days_cues(placed, cues, nights)
    sizes = _round_sizes(placed)
    for day, heard in by_day.items():
        if sizes.get(day):
            kept += heard[_round_start(heard, 0, sizes[day][0]) or 0:]
    return sorted(kept, key=lambda c: c.cutoff)


def draft_votes(partial: dict[str, Any], cues: Sequence[VoteCue], nights: Sequence[tuple[float, float]],
                profile: Profile, audit_of: Auditor) -> Draft:
    """The DRAFT of `partial` (untouched): vote events added and timed from `cues`, voters and counts from
    `audit_of` (the audit of a protocol against the video's hands), revotes and lift votes where the counts tie.
    Every proposed value's score goes into the event's `x_draft_score`: a time's is its cue's, voters' and
    count's the audit's confidence in the vote."""
    draft = copy.deepcopy(partial)
    add_first_rounds(draft, profile)
    for _ in range(MAX_PASSES):
        before = draft
        fresh = _without_own_times(draft, partial)
        hidden = before_video(fresh, cues, nights)  # not on the video: the alignment sees only the rounds after
        shown = {**fresh, "events": [e for i, e in enumerate(fresh["events"]) if i not in hidden]}
        draft = align_protocol(shown, first_cues(shown, cues, nights), nights).data
        for i in sorted(hidden):
            draft["events"].insert(i, copy.deepcopy(fresh["events"][i]))
        draft.pop("x_align", None)
        for e in draft.get("events", []):
            for name, theirs in e.pop("x_replaced", {}).items():  # the judge's time stays the judge's
                e[name] = theirs
                e.get("x_cue_scores", {}).pop(name, None)
            if "x_cue_scores" in e:  # the draft's scores are all in x_draft_score
                e["x_draft_score"] = {**e.get("x_draft_score", {}), **e.pop("x_cue_scores")}
        _fill_votes(draft, audit_of(_placed(draft)), profile)
        # A day's votes are read with the days before it as drafted: settle them first, then add a revote
        if draft == before and not _next_round(draft, profile):
            break
    # A vote the draft added but could not count (no time heard, so no hands read) is listed, never guessed
    events = draft.get("events", [])
    untimed = [_label(e) for e in events if e.get("type") in VOTE_TYPES and "cutoff" not in e
               and (e.get(ADDED) or "count" not in e)]  # the judge's counted votes need nothing from the video
    draft["events"] = [e for e in events if not (e.get(ADDED) and "count" not in e)]
    in_order = bool(cues) and not _days_cues(draft, cues, nights)[1] and \
        any(e.get("type") in VOTE_TYPES and "cutoff" not in e for e in draft["events"])
    return Draft(draft, untimed, len(draft["events"]) - len(partial.get("events", [])), in_order)


def _placed(draft: dict[str, Any]) -> dict[str, Any]:
    """A copy the rules engine can place every vote of: a vote without a count cannot be replayed, so the audit
    (which reads the hands, never the count, to say who voted) is shown 0 where the count is still missing."""
    shown = copy.deepcopy(draft)
    for e in shown.get("events", []):
        if e.get("type") in VOTE_TYPES and "count" not in e:
            e["count"] = 0
    return shown
