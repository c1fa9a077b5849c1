"""The nights' shots drafted from the video: whom the black players' raised hands name, night by night.

Why here, beside review.audit.draft: the judge's paper sheet has the nights' shootings without their times, and
the vision's night reading (`stopframe audit --nights`: the raised hands, the count heard, the night stretches
looked at; contract.night) knows nothing of the sheet. This module puts the two together with no pixels: each
shooting of the protocol (a night shown without one is read as if its box said a miss) gets the time of its
count, found among the words heard in its night stretch, and the night audit (review.audit.night) says what the
hands show: the seat killed where every living black fired once on one number, else a miss (rfm 4.5.4–4.5.5,
mafclub 2.5.2; the profile's own count). A night the video does not show whole (a black's raise zone out of
sight, the stretch not looked at) is listed, never guessed.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from contract.clock import Clock
from contract.night import SHOOT_LEAD_S, NightSeen, fit_count
from contract.spans import merged
from review.audit.night import BLACK_ROLES, audit_nights, called_seats
from review.game.engine import initial_state, step
from review.game.profiles import Profile

NIGHT_GAP_S = 15.0  # night stretches looked at closer than this are one night (its shooting and its checks)
HINT_STEP_S = 0.5  # the count's start is looked for this finely through the first seconds of a night stretch
HINT_SPAN_S = 12.0  # ... this far from the stretch's start: the shooting opens the night
NOT_OBSERVED = "not_observed"  # no saved observations: the draft looked at the day's hands only
NOT_ANALYSED = "not_analysed"  # the observations hold no night reading (made without --nights)
NO_NIGHT = "no_night"  # the night reading saw no night in the video
UNREAD = (NOT_OBSERVED, NOT_ANALYSED, NO_NIGHT)


@dataclass(frozen=True)
class ShotRead:
    """One night's shooting as the video shows it. `target`: the seat killed, None for a miss; `shots`: each black
    seat's aim (None: no shot, several numbers, or outside the count); `t`: the count's first number on the
    protocol's clock; `fired`: when the fingers bent (video seconds, for the frames); `outcome`: `kill` or why
    it is a miss (review.audit.night's words, a record)."""

    night: int
    target: int | None
    shots: dict[str, int | None]
    t: float
    fired: tuple[float, ...]
    confidence: float
    outcome: str

    def event(self) -> dict[str, Any]:
        """The shooting event it proposes, its score in `x_draft_score` and its shot times in `x_fired`."""
        score = round(self.confidence, 3)
        return {"type": "shooting", "night": self.night, "target": self.target, "shots": dict(self.shots),
                "t": round(self.t, 3), "x_draft_score": {"target": score, "shots": score}, "x_fired": list(self.fired),
                "x_outcome": self.outcome}


@dataclass
class NightsRead:
    """The video's shootings, and what could not be read: `unread` is why no night was read at all (UNREAD's codes),
    `unseen` the nights whose shooting the video does not show whole."""

    shots: list[ShotRead] = field(default_factory=list)
    unread: str | None = None
    unseen: list[int] = field(default_factory=list)


def read_shootings(data: Mapping[str, Any], observations: Mapping[str, Any], profile: Profile) -> NightsRead:
    """Each shooting of `data` (a protocol; untouched) as the observations' night reading shows it."""
    if "x_raised" not in observations and "x_shown_numbers" not in observations:
        return NightsRead(unread=NOT_ANALYSED)
    seen = NightSeen.of(observations)
    stretches = night_stretches(seen)
    if stretches == [] or (stretches is None and not seen.raised):  # looked at no night, or saw none at all
        return NightsRead(unread=NO_NIGHT)
    timed = _timed(data, seen, stretches, profile)
    report = audit_nights(timed, observations, profile=profile)
    out = NightsRead()
    for row in report.rows:
        if row.get("kind") != "shooting":
            continue
        outcome = str(row.get("video_outcome") or "")
        if not outcome or outcome == "undetermined":
            out.unseen.append(int(row["night"]))
            continue
        if not row.get("blacks"):
            continue  # no black at the table: nobody to shoot
        shots = {s: v if isinstance(v, int) else None for s, v in (row.get("video_shots") or {}).items()}
        fired = tuple(sorted(f for r in seen.raised if r.seat in row["blacks"] for f in r.shots
                             if row["start"] <= f <= row["end"]))
        clock = Clock.of_protocol(timed)
        t = clock.protocol_time(row["call_times"][0]) if row.get("call_times") else clock.protocol_time(row["start"])
        out.shots.append(ShotRead(int(row["night"]), row.get("video_target"), shots, t, fired,
                                  float(row.get("confidence") or 0.0), outcome))
    return out


def night_stretches(seen: NightSeen) -> list[tuple[float, float]] | None:
    """The nights the reading looked at, in order (its stretches this close merged: a night's shooting and
    checks); None where the reading does not say what it looked at."""
    if seen.windows is None:
        return None
    return merged(seen.windows, NIGHT_GAP_S)


def timed_shootings(data: Mapping[str, Any], words: Sequence[float], stretches: Sequence[tuple[float, float]],
                    profile: Profile) -> dict[str, Any]:
    """A copy of `data` whose untimed shootings have the time of the count heard in their night (`words`: the
    onsets heard in the night `stretches`, vision.night.hear_counts): what the night audit needs to know where
    to look, before anything is looked at."""
    return _timed(data, NightSeen(words=tuple(words), windows=tuple(stretches)), merged(stretches, NIGHT_GAP_S),
                  profile)


def _timed(data: Mapping[str, Any], seen: NightSeen, stretches: Sequence[tuple[float, float]] | None,
           profile: Profile) -> dict[str, Any]:
    """A copy of `data` whose untimed shootings have the time of their count: the k-th night stretch of the video
    is the protocol's k-th night with a shooting (the video begins with the game), and the count in it is the run
    of heard words at the judge's pace that the most numbers fall on. A shooting without shots is given the black
    seats the players' roles name, so a red hand raised at night is never taken for a black's shot."""
    timed = copy.deepcopy(dict(data))
    clock = Clock.of_protocol(timed)
    state = initial_state(timed)
    named = {p.get("seat") for p in timed.get("players") or [] if isinstance(p, dict) and p.get("role") in BLACK_ROLES}
    k = 0
    for index, e in enumerate(timed.get("events") or []):
        if isinstance(e, dict) and e.get("type") == "shooting":
            if not isinstance(e.get("t"), int | float) and stretches is not None and k < len(stretches):
                n = len(called_seats(profile, state.at_table))
                e["t"] = round(clock.protocol_time(_count_start(seen.words, n, stretches[k])), 3)
            blacks = sorted(s for s in named if s in state.at_table)
            if not e.get("shots") and blacks:  # the blacks a paper sheet names, its other roles left empty
                e["shots"] = dict.fromkeys(map(str, blacks))
            k += 1
        state, _problems = step(profile, state, index, dict(e) if isinstance(e, dict) else {})
    return timed


def _count_start(words: Sequence[float], n: int, stretch: tuple[float, float]) -> float:
    """When the count of `n` numbers begins in a night stretch: the fit heard best from the hints through its
    first seconds; with no count heard, where the stretch says the shooting opens."""
    a, b = stretch
    best: tuple[int, float] | None = None
    hint = a
    while hint <= min(b, a + HINT_SPAN_S):
        fit = fit_count(words, n, hint)
        if fit is not None:
            heard = sum(fit[1])
            if best is None or heard > best[0]:
                best = (heard, fit[0][0])
        hint += HINT_STEP_S
    return best[1] if best is not None else a + SHOOT_LEAD_S


def with_shots(draft: Mapping[str, Any], read: NightsRead, *, add: bool = True) -> dict[str, Any]:
    """A copy of the DRAFT with the nights' reading: on each shooting the video shows, its reading in
    `x_draft_shooting` and, where the judge wrote none, `t` and (when the video's seat is the judge's) `shots`,
    each scored in `x_draft_score` (with `add` False, the x_ fields only); at the top, why no night was read
    (`x_draft_nights_unread`) or which nights the video does not show whole (`x_draft_nights_unseen`). A value
    the judge wrote is never replaced."""
    out = copy.deepcopy(dict(draft))
    by_night = {s.night: s for s in read.shots}
    for e in out.get("events") or []:
        shot = by_night.get(e.get("night")) if isinstance(e, dict) and e.get("type") == "shooting" else None
        if shot is None:
            continue
        score = round(shot.confidence, 3)
        e["x_draft_shooting"] = {"target": shot.target, "shots": dict(shot.shots), "t": round(shot.t, 3),
                                 "outcome": shot.outcome, "score": score}
        if not add:
            continue
        scores = dict(e.get("x_draft_score") or {})
        if not isinstance(e.get("t"), int | float):
            e["t"], scores["t"] = round(shot.t, 3), score
        if not e.get("shots") and e.get("target") == shot.target:
            e["shots"], scores["shots"] = dict(shot.shots), score
        if scores:
            e["x_draft_score"] = scores
    if read.unread is not None:
        out["x_draft_nights_unread"] = read.unread
    if read.unseen:
        out["x_draft_nights_unseen"] = sorted(read.unseen)
    return out
