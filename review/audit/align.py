"""Line a protocol up with its video from the judge's voice: fill missing vote times, fit the clock.

Input is the protocol dict and the cues found on the audio track (plain times and scores, so this
module needs no audio library): one `VoteCue` per «Стоп»/«Спасибо» heard, and the night music.
The protocol's votes are matched to the cues in game order (dynamic programming, so a missed or an
extra cue shifts nothing else); the protocol's own times, where it has some, are anchors that fix
the protocol-to-video clock (offset, and drift where two clocks run at different rates), fitted by
least squares after a consensus search that ignores a mistyped time. Every proposed time carries
its cue's score in `x_cue_scores` so the judge sees how sure each one is before accepting it.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from contract.pace import DAY_GAP_S

VOTE_TYPES = ("vote", "lift_vote")
TIME_FIELDS = ("t", "cutoff", "announced")  # a vote's times, in the order they happen
ANCHOR_TOLERANCE_S = 0.5  # a protocol time this close to a cue (after the clock fit) is that cue
DRIFT_MIN_ANCHORS = 3
DRIFT_MIN_SPAN_S = 60.0  # drift is only measurable across minutes


@dataclass(frozen=True)
class VoteCue:
    """One vote as heard on the video's clock: the closing word, and where found the call and the count."""

    cutoff: float
    cutoff_score: float
    t: float | None = None
    t_score: float = 0.0
    announced: float | None = None
    announced_score: float = 0.0

    def time(self, name: str) -> float | None:
        return {"t": self.t, "cutoff": self.cutoff, "announced": self.announced}[name]

    def score(self, name: str) -> float:
        return {"t": self.t_score, "cutoff": self.cutoff_score, "announced": self.announced_score}[name]


@dataclass(frozen=True)
class ClockFit:
    """The audio fit of the protocol's clock to the video's, drift included: video_time = offset + rate ·
    protocol_time (a video's frames are `contract.clock.Clock`'s)."""

    offset: float = 0.0
    rate: float = 1.0

    def to_video(self, p: float) -> float:
        return self.offset + self.rate * p

    def to_protocol(self, v: float) -> float:
        return (v - self.offset) / self.rate


@dataclass
class Alignment:
    """The re-timed protocol and how it was obtained."""

    data: dict[str, Any]
    clock: ClockFit
    anchors: int = 0  # protocol times that agreed with a cue
    outliers: list[str] = field(default_factory=list)  # "events[4].cutoff": protocol times that did not
    proposed: dict[int, dict[str, float]] = field(default_factory=dict)  # event index -> field -> video time
    unmatched: list[int] = field(default_factory=list)  # vote events no cue was found for
    unused_cues: int = 0


def _number(v: Any) -> float | None:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) else None


def _anchor_pairs(events: list[dict[str, Any]], votes: list[int], cues: Sequence[VoteCue]) -> list[tuple[str, float, list[float]]]:
    """(where, protocol time, every cue time of that kind) for each time the protocol already has."""
    pairs = []
    for i in votes:
        for name in TIME_FIELDS:
            p = _number(events[i].get(name))
            heard = [c.time(name) for c in cues if c.time(name) is not None]
            if p is not None and heard:
                pairs.append((f"events[{i}].{name}", p, heard))
    return pairs


def fit_clock(
    pairs: Sequence[tuple[str, float, Sequence[float]]], prior: ClockFit = ClockFit(), tol: float = ANCHOR_TOLERANCE_S
) -> tuple[ClockFit, list[str], list[str]]:
    """The clock that puts most protocol times on a heard cue; returns (clock, inliers, outliers).

    Consensus first: every (protocol time, cue) pairing proposes an offset, and the offset that
    lands the most protocol times within `tol` of some cue wins (ties: the prior's, then the
    smaller residual). Then least squares on the inliers, with a drift term where there are
    enough anchors spread over enough time, repeated until the inlier set settles.
    """
    if not pairs:
        return prior, [], []

    def inliers(clock: ClockFit) -> list[tuple[str, float, float]]:
        found = []
        for where, p, heard in pairs:
            v = clock.to_video(p)
            nearest = min(heard, key=lambda h: abs(h - v))
            if abs(nearest - v) <= tol:
                found.append((where, p, nearest))
        return found

    def quality(clock: ClockFit) -> tuple[int, float]:
        found = inliers(clock)
        err = sum((clock.to_video(p) - h) ** 2 for _, p, h in found)
        return len(found), -err

    prior_q = quality(prior)
    best, best_q = prior, (prior_q[0], -math.inf)
    for _, p, heard in pairs:
        for h in heard:
            c = ClockFit(h - prior.rate * p, prior.rate)
            q = quality(c)
            if q[0] > best_q[0] or (q[0] == best_q[0] and q[1] > best_q[1] + 1e-9):
                best, best_q = c, q
    if best_q[0] <= prior_q[0]:
        # The protocol's own clock explains its times as well as any other. With one anchor the
        # difference is the judge's reaction, not another clock; with more, a fit is worth more.
        best = prior
        if prior_q[0] < 2:
            found = {f[0] for f in inliers(prior)}
            return prior, sorted(found), [w for w, _, _ in pairs if w not in found]
    clock = best
    for _ in range(5):
        found = inliers(clock)
        if not found:
            break
        p = np.array([f[1] for f in found])
        h = np.array([f[2] for f in found])
        if len(found) >= DRIFT_MIN_ANCHORS and p.max() - p.min() >= DRIFT_MIN_SPAN_S:
            rate, offset = np.polyfit(p, h, 1)
        else:
            rate, offset = prior.rate, float(np.mean(h - prior.rate * p))
        new = ClockFit(float(offset), float(rate))
        if new == clock:
            break
        clock = new
    kept = {f[0] for f in inliers(clock)}
    return clock, sorted(kept), [where for where, _, _ in pairs if where not in kept]


def _night_counts(events: list[dict[str, Any]]) -> list[int]:
    """For each event, how many nights the protocol has started before it."""
    n, out = 0, []
    for e in events:
        if e.get("type") == "phase" and e.get("phase") == "night":
            n += 1
        out.append(n)
    return out


def _bounds(events: list[dict[str, Any]], clock: ClockFit) -> tuple[list[float], list[float]]:
    """For each event, the video times it must lie between: its timed neighbours (events are in order)."""
    lo, hi = [-math.inf] * len(events), [math.inf] * len(events)
    last = -math.inf
    for i, e in enumerate(events):
        lo[i] = last
        times = [_number(e.get(k)) for k in ("t", "cutoff", "announced", "end")]
        known = [t for t in times if t is not None]
        if known:
            last = max(last, clock.to_video(max(known)))
    nxt = math.inf
    for i in range(len(events) - 1, -1, -1):
        hi[i] = nxt
        t = _number(events[i].get("t"))
        if t is not None:
            nxt = min(nxt, clock.to_video(t))
    return lo, hi


def _after_nights(events: list[dict[str, Any]], clock: ClockFit) -> list[float]:
    """For each event, the earliest video time it may have from the timed events of its earlier days: a night
    and a day's speeches (DAY_GAP_S at the least) lie between them, so a clip whose timed voting phase opens
    day 1 holds no vote of day 2 seconds later."""
    nights = _night_counts(events)
    earliest, latest_of_day, done = [-math.inf] * len(events), -math.inf, -math.inf
    for i, e in enumerate(events):
        if i and nights[i] != nights[i - 1]:  # a night has begun: everything timed before it is an earlier day's
            done = max(done, latest_of_day)
        earliest[i] = done + DAY_GAP_S
        known = [t for t in (_number(e.get(k)) for k in ("t", "cutoff", "announced", "end")) if t is not None]
        if known:
            latest_of_day = max(latest_of_day, clock.to_video(max(known)))
    return earliest


def votes_on_video(data: dict[str, Any], start: float, end: float) -> int:
    """How many of the protocol's votes may lie between two video times, as its own timed events place them
    (on its clock, `video.offset_s`): a vote before a timed event at the start, or a night after one past the end,
    is not on this video (a clip, or one camera file of a longer game). The listener expects about this many."""
    events = [e if isinstance(e, dict) else {} for e in data.get("events", [])]
    video = data.get("video") if isinstance(data.get("video"), dict) else {}
    clock = ClockFit(_number(video.get("offset_s")) or 0.0, 1.0)
    lo, hi = _bounds(events, clock)
    after = _after_nights(events, clock)
    return sum(1 for i, e in enumerate(events)
               if e.get("type") in VOTE_TYPES and max(lo[i], after[i]) < end and hi[i] > start)


def open_vote_spans(data: dict[str, Any]) -> list[tuple[float, float]] | None:
    """The video stretches the protocol's votes may take their cues from, one per vote event, as `_match` bounds
    them: the call after the timed events before the vote (and a day's gap after its earlier days' timed
    events), the closing word before the first timed event after it (±inf where there is none); video times,
    on the protocol's own clock (`video.offset_s`). None where a vote of the protocol is timed already: its time
    is an anchor, and the clock fitted to the heard cues may differ from the protocol's."""
    events = [e if isinstance(e, dict) else {} for e in data.get("events", [])]
    votes = [i for i, e in enumerate(events) if e.get("type") in VOTE_TYPES]
    if any(_number(events[i].get(k)) is not None for i in votes for k in TIME_FIELDS):
        return None
    video = data.get("video") if isinstance(data.get("video"), dict) else {}
    clock = ClockFit(_number(video.get("offset_s")) or 0.0, 1.0)
    lo, hi = _bounds(events, clock)
    after = _after_nights(events, clock)
    return [(max(lo[i], after[i]), hi[i]) for i in votes]


def _match(
    events: list[dict[str, Any]],
    votes: list[int],
    cues: Sequence[VoteCue],
    clock: ClockFit,
    outliers: set[str],
    nights: Sequence[tuple[float, float]],
    tol: float,
) -> dict[int, int]:
    """Vote event index -> cue index, monotone in time, maximising the summed cue scores.

    A vote whose cut-off the protocol gives (and that agreed with the clock) may only take a cue at
    that time; a vote may not leave its timed neighbours' interval; and where the nights heard match
    the protocol's nights (all of them, or all but night 0 before the recording began), a vote must
    take a cue from its own day. Two votes of different days take cues at least DAY_GAP_S apart, and a vote
    lies DAY_GAP_S or more after the timed events of its earlier days: a clip of a game holds one day's votes,
    and a word heard seconds after them is no later day's vote.
    """
    night_of_event = _night_counts(events)
    heard_nights = sorted(s for s, _ in nights)
    shift = night_of_event[-1] - len(heard_nights) if events else 0
    use_nights = bool(heard_nights) and shift in (0, 1)
    lo, hi = _bounds(events, clock)
    lo = [max(x, y) for x, y in zip(lo, _after_nights(events, clock), strict=True)]

    def allowed(i: int, c: VoteCue) -> bool:
        opens = c.t if c.t is not None else c.cutoff
        if opens < lo[i] - 1e-6 or c.cutoff > hi[i] + 1e-6:
            return False
        for name in TIME_FIELDS:
            p = _number(events[i].get(name))
            v = c.time(name)
            trusted = p is not None and f"events[{i}].{name}" not in outliers
            if trusted and v is not None and abs(clock.to_video(p) - v) > tol:
                return False
        if use_nights:
            heard_before = sum(1 for s in heard_nights if s < c.cutoff)
            if night_of_event[i] - heard_before != shift:
                return False
        return True

    # Votes of different days are a night and the next day's speeches apart: cues closer are one day's
    night_of_vote = [night_of_event[i] for i in votes]
    first = [0] * len(votes)  # the index of the first vote of each vote's day
    for a in range(1, len(votes)):
        first[a] = first[a - 1] if night_of_vote[a] == night_of_vote[a - 1] else a
    times = [c.cutoff for c in cues]
    # how many cues lie a night's gap or more before each cue: a vote of an earlier day may take only those
    before = [int(np.searchsorted(times, t - DAY_GAP_S, side="right")) for t in times]
    n, m = len(votes), len(cues)
    Best = tuple[float, tuple[int, int] | None]  # a path's score and its last match (vote, cue)
    nothing: Best = (0.0, None)
    # upto[a][b]: the best path on votes[:a] and cues[:b]; day[a][b]: the best path whose last match is a vote of
    # vote a's day, at or before a, on cues[:b]; back[(a, b)]: the match before (a, b) on its best path
    upto: list[list[Best]] = [[nothing] * (m + 1) for _ in range(n + 1)]
    day: list[list[Best]] = [[(-math.inf, None)] * (m + 1) for _ in range(n)]
    back: dict[tuple[int, int], tuple[int, int] | None] = {}
    for a in range(n):
        for b in range(m):
            here: Best = (-math.inf, None)
            if allowed(votes[a], cues[b]):
                prev = max(upto[first[a]][before[b]], day[a - 1][b] if a > first[a] else nothing,
                           key=lambda p: p[0])
                back[(a, b)] = prev[1]
                here = (prev[0] + 1.0 + cues[b].cutoff_score, (a, b))
            day[a][b + 1] = max(day[a][b], here, day[a - 1][b + 1] if a > first[a] else here, key=lambda p: p[0])
            upto[a + 1][b + 1] = max(upto[a][b + 1], upto[a + 1][b], here, key=lambda p: p[0])
    pairs: dict[int, int] = {}
    last = upto[n][m][1]
    while last is not None:
        pairs[votes[last[0]]] = last[1]
        last = back[last]
    return pairs


def align_protocol(
    data: dict[str, Any],
    cues: Sequence[VoteCue],
    nights: Sequence[tuple[float, float]] = (),
    tol: float = ANCHOR_TOLERANCE_S,
) -> Alignment:
    """A copy of the protocol with the missing vote times proposed from the cues (the input is untouched).

    With a pure offset the protocol keeps its clock: `video.offset_s` is set to the fitted offset
    and proposed times are written on the protocol's clock. With drift, every time is moved onto
    the video's clock (and `video.offset_s` becomes 0), since one offset cannot express a rate.
    `x_align` on the result records the fit; `x_cue_scores` on each event the proposed fields' scores.
    A protocol time that the fit rejects as mistyped is replaced by the heard one where there is
    one, and kept in the event's `x_replaced`.
    """
    out = copy.deepcopy(data)
    events: list[dict[str, Any]] = out.get("events", [])
    video = out.get("video") if isinstance(out.get("video"), dict) else None
    prior = ClockFit((_number(video.get("offset_s")) or 0.0) if video is not None else 0.0, 1.0)
    cues = sorted(cues, key=lambda c: c.cutoff)
    votes = [i for i, e in enumerate(events) if isinstance(e, dict) and e.get("type") in VOTE_TYPES]
    clock, inliers, outliers = fit_clock(_anchor_pairs(events, votes, cues), prior, tol)
    pairs = _match(events, votes, cues, clock, set(outliers), nights, tol)

    drift = abs(clock.rate - 1.0) > 1e-9
    if drift:  # move every time onto the video's clock
        for e in events:
            for k in ("t", "cutoff", "announced", "end"):
                p = _number(e.get(k)) if isinstance(e, dict) else None
                if p is not None:
                    e[k] = round(clock.to_video(p), 3)
        write = ClockFit()
    else:
        write = clock
    result = Alignment(out, clock, anchors=len(inliers), outliers=outliers)
    for i in votes:
        if i not in pairs:
            result.unmatched.append(i)
            continue
        cue = cues[pairs[i]]
        scores: dict[str, float] = {}
        for name in TIME_FIELDS:
            v = cue.time(name)
            mistyped = f"events[{i}].{name}" in outliers
            if v is None or (name in events[i] and not mistyped):
                continue
            if mistyped:  # the judge's time disagreed with the clock: propose the heard one, keep theirs
                events[i].setdefault("x_replaced", {})[name] = data["events"][i][name]
            events[i][name] = round(write.to_protocol(v), 3)
            scores[name] = round(float(cue.score(name)), 3)
            result.proposed.setdefault(i, {})[name] = v
        if scores:
            events[i]["x_cue_scores"] = {**events[i].get("x_cue_scores", {}), **scores}
    result.unused_cues = len(cues) - len(pairs)
    if write.offset != prior.offset:
        if video is None:
            video = out["video"] = {}
        video["offset_s"] = round(write.offset, 3)
    out["x_align"] = {
        "offset_s": round(clock.offset, 4),
        "rate": round(clock.rate, 7),
        "anchors": len(inliers),
        "outliers": outliers,
        "proposed": sum(len(v) for v in result.proposed.values()),
        "unmatched_events": result.unmatched,
        "unused_cues": result.unused_cues,
    }
    return result
