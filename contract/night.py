"""What vision reports of the nights, and the judge's count both layers read (spec §6, the x_ night fields of
`stopframe-observations/1`).

Vision finds raised hands (`Raised`: up, down, the shot) and numbers shown with the fingers (`ShownNumber`)
in the night stretches; review.audit.night judges them against the protocol. Both need the shape of a shooting's
stretch (SHOOT_LEAD_S, SHOOT_TAIL_S) and `fit_count`, which heard words are the numbers of the judge's
count: vision to know how far a shooting's stretch reaches, review to know which number a shot went to.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from contract.errors import UnreadableInput
from contract.i18n import _

SHOOT_LEAD_S = 2.5  # hands go up after «Мафия выходит на охоту», before the first number
SHOOT_TAIL_S = 2.0  # ... and come down after the last one


# ---------------------------------------------------------------- what vision saw at night


@dataclass(frozen=True)
class Raised:
    """A hand raised high in the seat's raise zone, `[up, down)`; `fire` is when the raised fingers bent.

    `fires` lists every bend while the hand stayed up (a second bend is a second shot, rfm 4.5.5);
    `fire` is the first of them, None when the fingers never bent.
    """

    seat: int
    up: float
    down: float
    fingers: int  # fingers held up before the shot (the thumb not counted)
    fire: float | None
    confidence: float = 1.0
    fires: tuple[float, ...] = ()
    fire_frame: int | None = None

    @property
    def shots(self) -> tuple[float, ...]:
        return self.fires or ((self.fire,) if self.fire is not None else ())

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, "up": round(self.up, 3), "down": round(self.down, 3),
                                "fingers": self.fingers, "fire": None if self.fire is None else round(self.fire, 3),
                                "confidence": round(self.confidence, 3)}
        if len(self.shots) > 1:
            data["x_fires"] = [round(t, 3) for t in self.shots]
        if self.fire_frame is not None:
            data["x_fire_frame"] = self.fire_frame
        return data

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Raised:
        fire = d.get("fire")
        fires = tuple(float(t) for t in d.get("x_fires") or ())
        return cls(int(d["seat"]), float(d["up"]), float(d["down"]), int(d.get("fingers") or 0),
                   None if fire is None else float(fire), float(d.get("confidence", 1.0)), fires,
                   None if d.get("x_fire_frame") is None else int(d["x_fire_frame"]))


@dataclass(frozen=True)
class ShownNumber:
    """A number shown with the fingers (a Don's or a Sheriff's check): from `t`, read with `confidence`."""

    seat: int
    t: float
    number: int
    confidence: float = 1.0
    frame: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, "t": round(self.t, 3), "number": self.number,
                                "confidence": round(self.confidence, 3)}
        if self.frame is not None:
            data["x_frame"] = self.frame
        return data

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ShownNumber:
        return cls(int(d["seat"]), float(d["t"]), int(d["number"]), float(d.get("confidence", 1.0)),
                   None if d.get("x_frame") is None else int(d["x_frame"]))


@dataclass(frozen=True)
class NightSeen:
    """Everything the night audit needs from vision; rides in stopframe-observations/1 as x_ fields."""

    raised: tuple[Raised, ...] = ()
    shown: tuple[ShownNumber, ...] = ()
    windows: tuple[tuple[float, float], ...] | None = None  # the night stretches vision looked at (None: unknown)
    blind: tuple[int, ...] = ()  # seats whose raise zone is missing from the seat map or outside the picture
    words: tuple[float, ...] = ()  # onsets of the words heard around the shootings (vision.cues.count_words)

    def covers(self, start: float, end: float) -> bool:
        if self.windows is None:
            return True
        return any(a <= start + 0.05 and end - 0.05 <= b for a, b in self.windows)

    def to_json_fields(self) -> dict[str, Any]:
        """The `x_raised`, `x_shown_numbers` (and `x_night_windows`) fields to add to an observations document."""
        data: dict[str, Any] = {"x_raised": [r.to_json() for r in self.raised],
                                "x_shown_numbers": [s.to_json() for s in self.shown]}
        if self.windows is not None:
            data["x_night_windows"] = [[round(a, 4), round(b, 4)] for a, b in self.windows]
        if self.blind:
            data["x_night_blind"] = list(self.blind)
        if self.words:
            data["x_night_words"] = [round(t, 4) for t in self.words]
        return data

    @classmethod
    def of(cls, observations: Any, where: str = "observations") -> NightSeen:
        """From an observations document (dict), a NightSeen, or anything with `raised` / `shown` attributes."""
        if isinstance(observations, NightSeen):
            return observations
        if not isinstance(observations, Mapping):
            return cls(tuple(getattr(observations, "raised", ())), tuple(getattr(observations, "shown", ())),
                       getattr(observations, "night_windows", None), tuple(getattr(observations, "blind", ())),
                       tuple(getattr(observations, "words", ())))
        try:
            raised = tuple(Raised.from_json(r) for r in observations.get("x_raised") or ())
            shown = tuple(ShownNumber.from_json(s) for s in observations.get("x_shown_numbers") or ())
            looked = observations.get("x_night_windows")
            windows = None if looked is None else tuple((float(a), float(b)) for a, b in looked)
            blind = tuple(int(s) for s in observations.get("x_night_blind") or ())
            words = tuple(float(t) for t in observations.get("x_night_words") or ())
        except (KeyError, TypeError, ValueError) as exc:
            raise UnreadableInput(_("{path}: x_raised / x_shown_numbers entries are malformed ({detail}).", path=where,
                                    detail=exc)) from exc
        return cls(raised, shown, windows, blind, words)


# ---------------------------------------------------------------- the judge's count


# the judge's pace: from a fast count (0.35 s a number) to a slow one (3 s); the first number within
# HINT_S of the shooting's `t` (the protocol notes when the count began, not to the frame)
PACE_S = (0.35, 3.0)
HINT_S = 2.0
MATCH_TOL = 0.35  # of the pace: a word this close to where a number is due is that number
MIN_HEARD = 0.6  # of the numbers, and at least 3: fewer heard and the count is not trusted
EXTRA_COST = 0.5  # a word in the count's stretch, away from every number, counts against a fit
SAME_WORD_S = 0.3  # two sounds this close (and closer than 0.6 of the pace) are one word: its onset is the first
EDGE = 0.5  # of the pace: the count's stretch reaches this far before its first and after its last number
MAX_JERK = 0.3  # of the pace: the RMS change from one interval to the next in a count (±8 % jitter gives ~0.11)
JERK_FLOOR_S = 0.1  # ... plus what onsets found over music and noise add to it (~40 ms each, three per change)
HINT_COST = 1.5  # per pace between the first number and the shooting's `t`, beyond HINT_FREE paces: the
HINT_FREE = 0.3  # protocol's `t` is the count's start, so a count shifted by one number onto a word after it loses


def fit_count(onsets: Sequence[float], n: int, hint: float) -> tuple[tuple[float, ...], tuple[bool, ...]] | None:
    """Which heard words are the n numbers of the count, and when each number was called.

    The judge says the numbers at a steady pace, so the count is the run of words that best fits an
    arithmetic progression t_k = a + k·b (k = 0..n-1) with b in PACE_S and a within HINT_S of `hint`:
    every pair of words, taken as numbers p < q, proposes (a, b); each number then takes the nearest
    unused word within MATCH_TOL·b of where it is due, (a, b) is refitted by least squares on those,
    and the fit is scored by the numbers matched, less the words in the count's stretch (EDGE·b
    beyond its ends: a count shifted by one leaves a word there) that match no number (EXTRA_COST
    each), the residuals (in units of the tolerance) and the first number's distance from `t`
    (the protocol's `t` is when the count began: a run of eleven regular words is told by it). A judge who slows
    down or speeds up a little stays within the tolerance; the matched words' own onsets are the
    times. A number with no word (said too softly, drowned) gets the time its heard neighbours'
    pace gives it and is marked not heard. None when fewer than MIN_HEARD of the numbers (and 3) are
    heard, or when the heard numbers do not keep a pace (`_jerk` above MAX_JERK·b + JERK_FLOOR_S: sounds of music and
    noise that line up by chance) — the audit then says it assumed the times.
    """
    if n <= 0:
        return None
    words = sorted(float(t) for t in onsets if hint - HINT_S - PACE_S[0] <= t <= hint + HINT_S + (n - 1) * PACE_S[1] + 1.0)
    need = max(3, math.ceil(MIN_HEARD * n)) if n >= 3 else n
    if len(words) < min(need, 2):
        return None
    best: tuple[float, list[int | None], float, float] | None = None
    seen_hyp: set[tuple[int, int]] = set()
    for i, ti in enumerate(words):
        for j in range(i + 1, len(words)):
            for p in range(n):
                for q in range(p + 1, n):
                    b = (words[j] - ti) / (q - p)
                    if not PACE_S[0] <= b <= PACE_S[1]:
                        continue
                    a = ti - p * b
                    if abs(a - hint) > HINT_S:
                        continue
                    key = (round(a / 0.02), round(b / 0.01))
                    if key in seen_hyp:
                        continue
                    seen_hyp.add(key)
                    scored = _score_progression(words, n, a, b, hint)
                    if best is None or scored[0] > best[0]:
                        best = scored
    if n == 1 and words:  # a single number: the word nearest the hint
        t = min(words, key=lambda w: abs(w - hint))
        return ((t,), (True,)) if abs(t - hint) <= HINT_S else None
    if best is None:
        return None
    _score, match, a, b = best
    heard = tuple(m is not None for m in match)
    if sum(heard) < need or _jerk(words, match) > MAX_JERK * b + JERK_FLOOR_S:
        return None
    return _fill(words, match, a, b), heard


def _jerk(words: Sequence[float], match: Sequence[int | None]) -> float:
    """RMS change between consecutive intervals of the heard numbers (s): a person counting keeps the
    pace from one number to the next even when the count drifts; sounds that only line up by chance do not."""
    seconds = [words[match[k + 1]] - 2 * words[match[k]] + words[match[k - 1]]  # type: ignore[index]
               for k in range(1, len(match) - 1) if None not in (match[k - 1], match[k], match[k + 1])]
    return math.sqrt(sum(d * d for d in seconds) / len(seconds)) if seconds else 0.0


def _score_progression(words: Sequence[float], n: int, a: float, b: float, hint: float) -> tuple[float, list[int | None], float, float]:
    match: list[int | None] = [None] * n
    for _round in range(3):  # match, refit, match again
        match = _match_numbers(words, n, a, b)
        ks = [k for k in range(n) if match[k] is not None]
        if len(ks) >= 2:
            ts = [words[match[k]] for k in ks]  # type: ignore[index]
            kb = sum(ks) / len(ks)
            tb = sum(ts) / len(ts)
            den = sum((k - kb) ** 2 for k in ks)
            b_new = sum((k - kb) * (t - tb) for k, t in zip(ks, ts, strict=True)) / den
            if PACE_S[0] <= b_new <= PACE_S[1]:
                a, b = tb - b_new * kb, b_new
    tol = MATCH_TOL * b
    used = {m for m in match if m is not None}
    lo, hi = a - EDGE * b, a + (n - 1) * b + EDGE * b
    extras = sum(1 for i, w in enumerate(words) if i not in used and lo <= w <= hi
                 and all(abs(w - (a + k * b)) > tol for k in range(n)))
    residual = sum(((words[m] - (a + k * b)) / tol) ** 2 for k, m in enumerate(match) if m is not None)
    heard = len(used)
    score = heard - EXTRA_COST * extras - 0.5 * residual - HINT_COST * max(0.0, abs(a - hint) / b - HINT_FREE)
    return score, match, a, b


def _match_numbers(words: Sequence[float], n: int, a: float, b: float) -> list[int | None]:
    """Each number the nearest word within the tolerance of its due time (the first sound of that word), in order."""
    tol = MATCH_TOL * b
    match: list[int | None] = [None] * n
    last = -1
    for k in range(n):
        due = a + k * b
        options = [i for i in range(last + 1, len(words)) if abs(words[i] - due) <= tol]
        if options:
            i = min(options, key=lambda i: abs(words[i] - due))
            while i - 1 in options and words[i] - words[i - 1] < min(SAME_WORD_S, 0.6 * b):
                i -= 1  # a sound inside the word: the number began with the earlier one
            match[k] = i
            last = i
    return match


def _fill(words: Sequence[float], match: Sequence[int | None], a: float, b: float) -> tuple[float, ...]:
    """The heard numbers' onsets; the others between their heard neighbours at the local pace (else the fit's)."""
    n = len(match)
    times: list[float | None] = [None if m is None else words[m] for m in match]
    known = [k for k in range(n) if times[k] is not None]
    out = []
    for k in range(n):
        if times[k] is not None:
            out.append(float(times[k]))  # type: ignore[arg-type]
            continue
        before = [j for j in known if j < k]
        after = [j for j in known if j > k]
        if before and after:
            j0, j1 = before[-1], after[0]
            t0, t1 = times[j0], times[j1]
            out.append(t0 + (t1 - t0) * (k - j0) / (j1 - j0))  # type: ignore[operator]
        elif before:
            out.append(times[before[-1]] + (k - before[-1]) * b)  # type: ignore[operator]
        elif after:
            out.append(times[after[0]] - (after[0] - k) * b)  # type: ignore[operator]
        else:
            out.append(a + k * b)
    return tuple(round(t, 4) for t in out)
