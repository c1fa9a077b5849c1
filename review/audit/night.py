"""The night audit: the shooting, the checks and the night pose as the video shows them, against the protocol.

Pure logic — no pixels. Vision reports raised hands (`x_raised`: when a hand went up in the seat's
raise zone, how many fingers it held up, when they bent — the shot) and numbers shown with the
fingers (`x_shown_numbers`) in the observations; this module turns them into findings.

The shooting (rfm 4.5.3–4.5.6, mafclub 2.5.2, lvi2015 «Вторая и последующие ночи», showtime ¶13):
the judge calls seat numbers one after another — every number 1..10 under rfm 4.5.3, only the seats
still at the table, low to high, under mafclub 2.5.2, lvi2015 and showtime (`profile.shooting_calls`).
A firing belongs to the last number called before it. The call times come, in this order, from the
shooting event's `x_count_times` (a list of times in call order, or a map seat → time; protocol
clock, `video.offset_s` added), from the judge's spoken count heard on the audio (the number words
vision.cues.count_words finds around the shooting, `x_night_words` in the observations; which of
them are the numbers is `fit_count`'s: the run of words at a steady pace from the shooting's `t`) or
a truth file's `x_cues` (kind `shoot_count`), or from a stated default: the first number at the
shooting event's `t`, then one number every DEFAULT_CADENCE_S seconds. A finding whose firing's
number rests on an assumed time — the default, or a number not heard and filled in from its
neighbours' pace — lists `count_times` in `assumed_times`.

The outcome the video supports: every living black fired exactly once and all on one number → that
seat is killed; a black who fired on two numbers, on another number, or not at all → a miss (rfm
4.5.4–4.5.5, mafclub 2.5.2). A black the camera cannot see leaves the outcome open unless the others
already make it a miss. A different outcome from the protocol's `shooting` is `shot_mismatch`.

A red seat raising a hand with one or two fingers up (or bending them) during the shooting fakes a
shot (mafclub 3.8.8, a removal): `night_hand`.
A hand raised outside the seat's own moment (not a black during the shooting, not the Don or the
Sheriff during his own check), or a hand resting on the table at night, leaves the night pose (rfm
4.5.12): `night_hand` as a low-confidence suggestion unless sustained. Checks (rfm 4.5.7–4.5.8,
mafclub 2.5.3–2.5.4): the number the Don or the Sheriff showed against the check's `target` →
`check_mismatch`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from contract.clock import Clock
from contract.errors import UnreadableInput
from contract.i18n import N_
from contract.night import SHOOT_LEAD_S, SHOOT_TAIL_S, NightSeen, Raised, fit_count
from contract.observations import Observations
from review.audit.findings import Evidence, Finding, FindingConsequence, Message, english, message, phrase
from review.game.engine import initial_state, step
from review.game.profiles import CONSEQUENCE_TYPES, Profile, get_profile

DEFAULT_CADENCE_S = 1.0  # the judge's count: about one number a second (the sample game's judge, typical clubs)
FIRE_EARLY_S = 0.12  # a firing this much before a number's onset still goes to that number (3 frames at 25 fps)
FIRE_AFTER_LAST_S = 2.0  # a firing later than this after the last number called is aimed at nothing
CHECK_LEAD_S = 2.0  # a check's hand may go up a little before the protocol's `t`
CHECK_SPAN_S = 15.0  # 15 s at most for a check (mafclub 2.5.3–2.5.4; rfm 4.5.7 has no limit, the same is used)
MIN_HAND_S = 0.4  # a hand seen for less than this is a passing movement, not a gesture
SUSTAINED_S = 3.0  # a hand out of the night pose for this long is no passing movement
POSE_CONFIDENCE = (0.3, 0.6)  # (passing, sustained) out-of-pose suggestions: low severity
NO_SHOT_CONFIDENCE = 0.8  # "this black did not fire" is only as sure as the detector's recall
BLACK_ROLES = ("mafia", "don")




# ---------------------------------------------------------------- the judge's count


@dataclass(frozen=True)
class CountCalls:
    """The numbers the judge called during one shooting, in order, with the onset of each on the video.

    `heard`: per number, whether its time was heard (a number word found on the audio, or given by the
    protocol) rather than filled in from the pace of its heard neighbours (or, with `source` "default",
    from the one-a-second assumption).
    """

    seats: tuple[int, ...]
    times: tuple[float, ...]
    source: str  # "protocol" | "cues" | "default"
    heard: tuple[bool, ...] = ()

    @property
    def assumed(self) -> bool:
        """True when no number of this count was heard: every time is the default cadence's."""
        return self.source == "default"

    @property
    def heard_count(self) -> int:
        if self.source == "default":
            return 0
        return sum(self.heard) if self.heard else len(self.times)

    def assumed_at(self, fire: float) -> bool:
        """Whether the number a firing at `fire` goes to rests on an assumed time: the default cadence, or
        a number (or the next one, which bounds it) that was not heard but filled in from the pace."""
        if self.source == "default":
            return True
        if not self.heard or all(self.heard):
            return False
        k = self._index(fire)
        if k is None:  # before the count or long after it: that rests on its first and its last number
            return not (self.heard[0] and self.heard[-1])
        return not (self.heard[k] and (k + 1 >= len(self.heard) or self.heard[k + 1]))

    @property
    def span(self) -> tuple[float, float]:
        return self.times[0], self.times[-1]

    def _index(self, fire: float) -> int | None:
        if not self.times or fire < self.times[0] - FIRE_EARLY_S or fire > self.times[-1] + FIRE_AFTER_LAST_S:
            return None
        return max(i for i, t in enumerate(self.times) if t <= fire + FIRE_EARLY_S)

    def target_of(self, fire: float) -> tuple[int | None, float]:
        """The seat a firing at `fire` was aimed at, and how clear that is (0–1: distance from the nearest onset)."""
        k = self._index(fire)
        if k is None:
            return None, 1.0
        gap = self.times[k + 1] - self.times[k] if k + 1 < len(self.times) else DEFAULT_CADENCE_S
        nearest = min(abs(fire - self.times[k]), abs(self.times[k + 1] - fire) if k + 1 < len(self.times) else math.inf)
        return self.seats[k], min(1.0, 0.5 + nearest / max(gap, 1e-6))


def called_seats(profile: Profile, living: Iterable[int]) -> tuple[int, ...]:
    """The numbers the judge calls: 1..10 (rfm 4.5.3) or the seats at the table, low to high (mafclub 2.5.2)."""
    return tuple(range(1, 11)) if profile.shooting_calls == "all" else tuple(sorted(living))


COUNT_KINDS = ("shoot_count", "count", "count_word")


def count_calls(event: Mapping[str, Any], seats: Sequence[int], *, clock: Clock | None = None,
                cues: Sequence[Any] = (), cadence: float = DEFAULT_CADENCE_S) -> CountCalls | None:
    """The call times of one shooting: the protocol's `x_count_times`, else the count heard, else the default cadence.

    `cues`: words heard on the audio (vision.cues.count_words, kind `count_word`) or a truth file's
    `x_cues` (kind `shoot_count`) — dicts with `t` (and `kind`; only COUNT_KINDS are used) or plain
    times, on the video's clock. Which of them are this shooting's numbers is `fit_count`'s answer.
    None when the shooting has neither `x_count_times` nor `t`.
    """
    seats = tuple(seats)
    video_time = (clock or Clock(None)).video_time  # the protocol's clock onto the video's: offset and drift
    given = event.get("x_count_times")
    if isinstance(given, Mapping):
        pairs = sorted((video_time(t), int(s)) for s, t in given.items() if _num(t))
        if pairs:
            return CountCalls(tuple(s for _, s in pairs), tuple(t for t, _ in pairs), "protocol")
    elif isinstance(given, list) and given and all(_num(t) for t in given):
        n = min(len(given), len(seats))
        return CountCalls(seats[:n], tuple(video_time(t) for t in given[:n]), "protocol")
    t0 = event.get("t")
    if not _num(t0):
        return None  # an untimed shooting: which heard count is this night's cannot be told
    start = video_time(t0)
    fit = fit_count(_count_onsets(cues), len(seats), start)
    if fit is not None:
        times, heard = fit
        return CountCalls(seats, times, "cues", heard)
    return CountCalls(seats, tuple(start + k * cadence for k in range(len(seats))), "default")


def _count_onsets(cues: Sequence[Any]) -> list[float]:
    times = []
    for c in cues:
        if isinstance(c, Mapping):
            if c.get("kind") in COUNT_KINDS and _num(c.get("t")):
                times.append(float(c["t"]))
        elif _num(c):
            times.append(float(c))
    return sorted(times)




def _num(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


# ---------------------------------------------------------------- windows to look at


@dataclass(frozen=True)
class NightWindow:
    """A stretch of a night the video must show: the shooting or one check."""

    kind: str  # "shooting" | "check"
    night: int
    start: float
    end: float
    event_index: int
    seat: int | None = None  # the checker's seat (checks), where the roles are known
    assumed: tuple[str, ...] = ()


def night_windows(data: Mapping[str, Any], profile: Profile | None = None, cues: Sequence[Any] = ()) -> list[NightWindow]:
    """The timed shootings and checks of a protocol, on the video's clock (what vision should look at)."""
    profile = profile or get_profile(str(data.get("rules", "")))
    out: list[NightWindow] = []
    for plan in _plans(data, profile, cues):
        out.append(plan.window)
    return out


def shooting_counts(data: Mapping[str, Any], profile: Profile | None = None, cues: Sequence[Any] = ()) -> dict[int, CountCalls]:
    """Per night, the judge's count at its timed shooting (the numbers called and when)."""
    profile = profile or get_profile(str(data.get("rules", "")))
    return {p.window.night: p.calls for p in _plans(data, profile, cues) if p.calls is not None}


def observe_spans(windows: Iterable[NightWindow]) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """(shooting spans, check spans) for vision.night.observe_night."""
    ws = list(windows)
    return ([(w.start, w.end) for w in ws if w.kind == "shooting"], [(w.start, w.end) for w in ws if w.kind == "check"])


@dataclass(frozen=True)
class _Plan:
    window: NightWindow
    event: Mapping[str, Any]
    living: tuple[int, ...]
    roles: dict[int, str | None]
    calls: CountCalls | None = None


def _plans(data: Mapping[str, Any], profile: Profile, cues: Sequence[Any]) -> list[_Plan]:
    """Every timed shooting and check, with the table as it stood then (the rules engine's replay)."""
    clock = Clock.of_protocol(data)
    state = initial_state(dict(data))
    plans: list[_Plan] = []
    events = data.get("events") or []
    for index, ev in enumerate(events):
        if isinstance(ev, Mapping) and ev.get("type") in ("shooting", "check") and _num(ev.get("night")):
            living = tuple(sorted(state.at_table))
            night = int(ev["night"])
            if ev["type"] == "shooting":
                calls = count_calls(ev, called_seats(profile, living), clock=clock, cues=cues)
                if calls is not None:
                    a, b = calls.span
                    w = NightWindow("shooting", night, max(0.0, a - SHOOT_LEAD_S), b + SHOOT_TAIL_S, index,
                                    assumed=("count_times",) if calls.assumed else ())
                    plans.append(_Plan(w, ev, living, dict(state.roles), calls))
            elif _num(ev.get("t")):
                t = clock.video_time(ev["t"])
                end = t + CHECK_SPAN_S
                nxt = next((clock.video_time(e["t"]) for e in events[index + 1:]
                            if isinstance(e, Mapping) and _num(e.get("t")) and clock.video_time(e["t"]) > t), None)
                if nxt is not None:
                    end = min(end, nxt)
                checker = _seat_of_role(state.roles, "don" if ev.get("by") == "don" else "sheriff")
                w = NightWindow("check", night, max(0.0, t - CHECK_LEAD_S), end, index, checker)
                plans.append(_Plan(w, ev, living, dict(state.roles)))
        state, _ = step(profile, state, index, dict(ev) if isinstance(ev, Mapping) else {})
    return plans


def _seat_of_role(roles: Mapping[int, str | None], role: str) -> int | None:
    return next((s for s, r in roles.items() if r == role), None)


# ---------------------------------------------------------------- the audit


@dataclass
class NightAudit:
    """Night findings plus one row per shooting and check (for the report's `x_nights`)."""

    findings: list[Finding] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)


def audit_nights(
    data: Mapping[str, Any],
    observations: Any,
    *,
    profile: Profile | None = None,
    visible_seats: Iterable[int] | None = None,
    cues: Sequence[Any] = (),
    fps: float | None = None,
) -> NightAudit:
    """Audit every timed shooting and check of a protocol against what vision saw at night.

    `observations`: the observations document (dict with `x_raised`, `x_shown_numbers`, optionally
    `hands` for hands on the table at night), or a NightSeen. `visible_seats`: the seats whose raise
    zone the seat map has (None: all but the observations' `x_night_blind`). `cues`: the judge's count heard on the audio, or truth `x_cues`.
    """
    profile = profile or get_profile(str(data.get("rules", "")))
    seen = NightSeen.of(observations)
    if not _count_onsets(cues) and seen.words:
        cues = [{"kind": "count_word", "t": t} for t in seen.words]  # the count vision heard on the audio
    table = _table_hands(observations)
    clock = Clock.constant(fps or _fps(observations) or 25.0)
    if visible_seats is not None:
        visible: set[int] | None = set(visible_seats)
    else:
        visible = set(range(1, 11)) - set(seen.blind) if seen.blind else None
    out = NightAudit()
    allowed: list[tuple[int, float, float]] = []  # (seat, start, end): a hand up there is that seat's own moment
    plans = _plans(data, profile, cues)
    for plan in plans:
        w = plan.window
        if plan.calls is not None:
            blacks = [s for s in plan.living if plan.roles.get(s) in BLACK_ROLES]
            allowed += [(s, w.start, w.end) for s in (blacks if _roles_known(plan) else plan.living)]
        else:  # the checker's own moment; with the roles unknown nobody can be blamed for a hand there
            allowed += [(s, w.start, w.end) for s in ((w.seat,) if w.seat is not None else plan.living)]
    for plan in plans:
        if not seen.covers(plan.window.start, plan.window.end):
            out.rows.append(_row(plan, note=_note(N_("the observations do not cover this stretch: not audited"))))
            continue
        if plan.calls is not None:
            _shooting(out, profile, plan, seen, visible, clock)
        else:
            _check(out, profile, plan, seen, visible, clock)
    _pose(out, profile, plans, seen, table, allowed, clock)
    out.findings = _dedupe(out.findings)
    return out


def _roles_known(plan: _Plan) -> bool:
    return all(plan.roles.get(s) is not None for s in plan.living)


def _fps(observations: Any) -> float | None:
    value = observations.get("fps") if isinstance(observations, Mapping) else getattr(observations, "fps", None)
    return float(value) if _num(value) and value > 0 else None


def _table_hands(observations: Any) -> Any:
    """The day detector's hands on the table (the contract's Observations), where the observations carry them."""
    if isinstance(observations, NightSeen):
        return None
    try:
        return Observations.of(observations)
    except (UnreadableInput, AttributeError, TypeError, KeyError):
        return None


def _row(plan: _Plan, **extra: Any) -> dict[str, Any]:
    w = plan.window
    row: dict[str, Any] = {"kind": w.kind, "night": w.night, "start": round(w.start, 3), "end": round(w.end, 3)}
    if w.kind == "check":
        row.update(by=plan.event.get("by"), seat=w.seat, protocol_target=plan.event.get("target"))
    else:
        row["protocol_target"] = plan.event.get("target")
    row.update(extra)
    return row


@dataclass(frozen=True)
class _Shot:
    seat: int
    targets: tuple[int | None, ...]  # one per bend of the fingers
    times: tuple[float, ...]
    confidence: float


def _shots_of(seat: int, raised: Sequence[Raised], calls: CountCalls, a: float, b: float) -> _Shot | None:
    mine = [r for r in raised if r.seat == seat and r.up < b and r.down > a]
    if not mine:
        return None
    times, targets, conf = [], [], []
    for r in mine:
        for t in r.shots:
            if a <= t <= b:
                target, clear = calls.target_of(t)
                times.append(t)
                targets.append(target)
                conf.append(r.confidence * clear)
    if not times:
        return _Shot(seat, (), (), min(r.confidence for r in mine))
    return _Shot(seat, tuple(targets), tuple(times), min(conf))


def _shooting(out: NightAudit, profile: Profile, plan: _Plan, seen: NightSeen, visible: set[int] | None, clock: Clock) -> None:
    w, calls = plan.window, plan.calls
    assert calls is not None
    known = _roles_known(plan)
    recorded = plan.event.get("shots") if isinstance(plan.event.get("shots"), Mapping) else {}
    if known:
        blacks = [s for s in plan.living if plan.roles.get(s) in BLACK_ROLES]
    elif recorded:
        blacks = sorted(int(s) for s in recorded)
    else:
        blacks = sorted({r.seat for r in seen.raised if r.up < w.end and r.down > w.start and r.seat in plan.living})
    shots: dict[int, _Shot | None] = {}
    blind: list[int] = []
    for s in blacks:
        if visible is not None and s not in visible:
            blind.append(s)
        else:
            shots[s] = _shots_of(s, seen.raised, calls, w.start, w.end)
    video_target, reasons, confidence = _outcome(blacks, shots, blind)
    why = "; ".join(english(r) for r in reasons) if isinstance(reasons, list) else reasons
    video_shots = {str(s): (list(sh.targets) if len(sh.targets) != 1 else sh.targets[0]) if sh else None
                   for s, sh in shots.items()}
    protocol_target = plan.event.get("target")
    row = _row(plan, video_target=video_target if why != "undetermined" else None, video_outcome=why,
               video_shots=video_shots, count_source=calls.source, calls=list(calls.seats),
               call_times=[round(t, 3) for t in calls.times], count_heard=f"{calls.heard_count}/{len(calls.times)}",
               blacks=blacks, confidence=round(confidence, 3))
    if blind:
        row["blind_seats"] = blind
    out.rows.append(row)
    if why != "undetermined" and video_target != protocol_target:
        fired = sorted({t for sh in shots.values() if sh for t in sh.times})
        assumed = calls.assumed or any(calls.assumed_at(t) for t in fired)
        video_says = (message(N_("seat {seat} killed"), seat=video_target) if video_target is not None
                      else message(N_("a miss ({why})"), why=reasons))
        protocol_says = (message(N_("seat {seat} killed"), seat=protocol_target) if protocol_target is not None
                         else message(N_("a miss")))
        said = message(N_("Night {night}: the video shows {video}; the protocol records {protocol}."), night=w.night,
                       video=video_says, protocol=protocol_says)
        cons = profile.offence("shot_mismatch")
        out.findings.append(Finding(
            kind="shot_mismatch", clause=cons.clause, consequence=FindingConsequence(cons.type, cons.text, cons.points),
            confidence=confidence * (0.6 if assumed else 1.0), seat=None,
            seats=tuple(sorted(s for s in (protocol_target, video_target) if isinstance(s, int))),
            night=w.night, t=min(fired) if fired else calls.times[0], assumed_times=("count_times",) if assumed else (),
            evidence=Evidence(tuple(clock.at(t).frame for t in fired), tuple(fired)),
            extra={"x_text": english(said), "x_text_message": said, "x_video_shots": video_shots, "x_protocol_shots": dict(recorded) or None,
                   "x_calls": list(calls.seats), "x_count_source": calls.source,
                   "x_count_heard": f"{calls.heard_count}/{len(calls.times)}"},
        ))
    if known:
        _red_hands(out, profile, plan, seen, visible, clock)


def _outcome(blacks: Sequence[int], shots: Mapping[int, _Shot | None],
             blind: Sequence[int]) -> tuple[int | None, str | list[Message], float]:
    """(killed seat or None, how the video reads it, confidence) — rfm 4.5.4–4.5.5, mafclub 2.5.2. How the video
    reads it: the code `kill` or `undetermined`, or why it is a miss (catalogue messages)."""
    if not blacks:
        return None, [message(N_("no black at the table"))], 0.5
    reasons: list[Message] = []
    conf = [sh.confidence for sh in shots.values() if sh and sh.times]
    for s, sh in sorted(shots.items()):
        if sh is None or not sh.times:
            reasons.append(message(N_("seat {seat} did not shoot"), seat=s))
            conf.append(NO_SHOT_CONFIDENCE * (sh.confidence if sh else 1.0))
        elif len(set(sh.targets)) > 1:
            reasons.append(message(N_("seat {seat} shot on several numbers"), seat=s))
        elif sh.targets[0] is None:
            reasons.append(message(N_("seat {seat} fired outside the count"), seat=s))
    targets = {sh.targets[0] for sh in shots.values() if sh and len(set(sh.targets)) == 1 and sh.targets[0] is not None}
    if len(targets) > 1:
        reasons.append(message(N_("different numbers")))
    confidence = min(conf) if conf else 0.5
    if reasons:
        return None, reasons, confidence
    if blind:
        return None, "undetermined", confidence
    return targets.pop(), "kill", confidence


def _red_hands(out: NightAudit, profile: Profile, plan: _Plan, seen: NightSeen, visible: set[int] | None, clock: Clock) -> None:
    w = plan.window
    cons = profile.night_rule("red_hand")
    for r in seen.raised:
        if r.up >= w.end or r.down <= w.start or r.seat not in plan.living or plan.roles.get(r.seat) in BLACK_ROLES:
            continue
        if visible is not None and r.seat not in visible:
            continue
        if r.down - r.up < MIN_HAND_S or not (r.fire is not None or r.fingers in (1, 2)):
            continue  # not a faked shot (mafclub 3.8.8: "imitating a shot"); the pose check still sees it
        if r.fire is not None:
            said = message(N_("Night {night}: seat {seat} (red) raises a hand during the shooting ({up}–{down} s, "
                              "the fingers bend at {fire} s)."), night=w.night, seat=r.seat, up=_secs(r.up),
                           down=_secs(r.down), fire=_secs(r.fire))
        else:
            said = message(N_("Night {night}: seat {seat} (red) raises a hand during the shooting ({up}–{down} s)."),
                           night=w.night, seat=r.seat, up=_secs(r.up), down=_secs(r.down))
        out.findings.append(Finding(
            kind="night_hand", clause=cons.clause, consequence=FindingConsequence(cons.type, cons.text, cons.points),
            confidence=r.confidence * (0.8 if w.assumed else 1.0), seat=r.seat, night=w.night, t=r.up,
            assumed_times=w.assumed, evidence=Evidence((clock.at(r.up).frame,), (r.up,)),
            extra={"x_text": english(said), "x_text_message": said, "x_what": "red_hand"},
        ))


def _check(out: NightAudit, profile: Profile, plan: _Plan, seen: NightSeen, visible: set[int] | None, clock: Clock) -> None:
    w, ev = plan.window, plan.event
    seat = w.seat
    if seat is None:
        out.rows.append(_row(plan, note=_note(N_("the protocol's roles do not say who checked: not audited"))))
        return
    if seat not in plan.living:
        out.rows.append(_row(plan, note=_note(N_("seat {seat} is no longer at the table: no check to see"), seat=seat)))
        return
    if visible is not None and seat not in visible:
        out.rows.append(_row(plan, note=_note(N_("the camera cannot see seat {seat}'s raised hands"), seat=seat)))
        return
    shown = [s for s in seen.shown if s.seat == seat and w.start <= s.t < w.end]
    if not shown:
        out.rows.append(_row(plan, video_number=None, note=_note(N_("no number read on video"))))
        return
    best = max(shown, key=lambda s: (s.confidence, -s.t))
    out.rows.append(_row(plan, video_number=best.number, confidence=round(best.confidence, 3)))
    target = ev.get("target")
    if best.number == target:
        return
    cons = profile.offence("check_mismatch")
    by = phrase("checker", N_("Don") if ev.get("by") == "don" else N_("Sheriff"))
    said = message(N_("Night {night}: the {by} (seat {seat}) shows {number} with the fingers; the protocol records a "
                      "check of seat {target}."), night=w.night, by=by, seat=seat, number=best.number, target=target)
    frame = best.frame if best.frame is not None else clock.at(best.t).frame
    out.findings.append(Finding(
        kind="check_mismatch", clause=cons.clause, consequence=FindingConsequence(cons.type, cons.text, cons.points),
        confidence=best.confidence, seat=seat, night=w.night, t=best.t, evidence=Evidence((frame,), (best.t,)),
        extra={"x_text": english(said), "x_text_message": said, "x_video_number": best.number, "x_protocol_target": target, "x_by": ev.get("by")},
    ))


def _pose(out: NightAudit, profile: Profile, plans: Sequence[_Plan], seen: NightSeen, table: Any,
          allowed: Sequence[tuple[int, float, float]], clock: Clock) -> None:
    """Hands out of the night pose outside the seat's own moment (rfm 4.5.12): low-severity suggestions."""
    if not plans:
        return
    cons = profile.night_rule("pose")
    living_at: dict[int, tuple[int, ...]] = {p.window.night: p.living for p in plans}
    spans = _night_spans(plans)

    def night_of(t: float) -> int | None:
        return next((n for n, (a, b) in spans.items() if a <= t < b), None)

    def own(seat: int, a: float, b: float) -> bool:
        return any(s == seat and a >= lo - 0.05 and b <= hi + 0.05 for s, lo, hi in allowed)

    suspects: list[tuple[int, int, float, float, Message]] = []
    for r in seen.raised:
        n = night_of(r.up)
        if r.down - r.up < MIN_HAND_S:
            continue  # a passing movement
        if n is not None and r.seat in living_at[n] and not own(r.seat, r.up, r.down):
            suspects.append((n, r.seat, r.up, r.down, phrase("night_pose", N_("a raised hand outside the seat's own turn"))))
    if table is not None:
        for h in table.hands:
            n = night_of(h.on)
            if n is not None and h.seat in living_at[n] and h.off - h.on >= MIN_HAND_S:
                suspects.append((n, h.seat, h.on, h.off, phrase("night_pose", N_("a hand on the table"))))
    for n, seat, a, b, what in suspects:
        sustained = b - a >= SUSTAINED_S
        said = message(N_("Night {night}: seat {seat} leaves the night pose — {what} ({start}–{end} s)."), night=n,
                       seat=seat, what=what, start=_secs(a), end=_secs(b))
        out.findings.append(Finding(
            kind="night_hand", clause=cons.clause, consequence=FindingConsequence(cons.type, cons.text, cons.points),
            confidence=POSE_CONFIDENCE[sustained], seat=seat, night=n, t=a,
            evidence=Evidence((clock.at(a).frame, clock.at(b).frame), (a, b)),
            extra={"x_text": english(said), "x_text_message": said, "x_what": "pose"},
        ))


def _note(msgid: str, /, **values: Any) -> str:
    """A row's note: kept in English in the report (the app reads it back into the catalogue's words)."""
    return english(message(msgid, **values))


def _secs(t: float) -> float:
    """A time in a sentence: to the millisecond in the file, read to two decimals."""
    return round(float(t), 3)


def _night_spans(plans: Sequence[_Plan]) -> dict[int, tuple[float, float]]:
    spans: dict[int, tuple[float, float]] = {}
    for p in plans:
        a, b = spans.get(p.window.night, (p.window.start, p.window.end))
        spans[p.window.night] = (min(a, p.window.start), max(b, p.window.end))
    return spans


def _rank(f: Finding) -> tuple[bool, int, float, float]:
    """A faked shot outranks a broken pose; then the graver consequence, the surer reading, the earlier time."""
    return (f.extra.get("x_what") == "red_hand", _SEVERITY[f.consequence.type], f.confidence, -(f.t or 0.0))


_SEVERITY = {"removal": 5, "fine": 4, "foul": 3, "not_counted": 2, "warning": 2, "counted_for_last": 1, "none": 0}
if set(_SEVERITY) != set(CONSEQUENCE_TYPES):  # a new consequence type needs its rank here, before a night is judged
    raise ImportError(f"review.audit.night ranks {sorted(_SEVERITY)} but review.game.profiles.CONSEQUENCE_TYPES is {CONSEQUENCE_TYPES}")


def _dedupe(findings: Sequence[Finding]) -> list[Finding]:
    """One finding per identity (kind, night, seat): the gravest, then the surest, then the earliest."""
    best: dict[Any, Finding] = {}
    for f in findings:
        key = f.identity
        if key not in best or _rank(f) > _rank(best[key]):
            best[key] = f
    return sorted(best.values(), key=lambda f: (f.t if f.t is not None else math.inf, f.kind, f.seat or 0))
