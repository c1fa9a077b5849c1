"""The bundled sample game: a legal ten-player rfm game, played to its result, and its filmed windows.

The game is a list of protocol events with `Window`s in between: the votes and nights the camera
shows.  A window knows, on its own time axis, what the judge says (cues), what every hand does
(actions) and which findings a careful review must report.  The whole video is the windows one
after another; a scenario clip is one window alone.  Either way the protocol carries the game's
history from the start, with times only for the events the video shows.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .motion import snap
from .voice import NUMBERS, Cue

ROLES = {1: "civilian", 2: "mafia", 3: "civilian", 4: "sheriff", 5: "civilian", 6: "civilian", 7: "don",
         8: "civilian", 9: "mafia", 10: "civilian"}
NICKNAMES = ["Алмаз", "Бриз", "Вега", "Гром", "Дюна", "Ёж", "Жар", "Зенит", "Искра", "Йота"]


@dataclass(frozen=True)
class VoteHand:
    """A hand placed on the table for a candidate: [on, off) on the window's axis."""

    seat: int
    on: float
    off: float
    pose: str
    kind: str  # vote | lift


@dataclass(frozen=True)
class Raise:
    """A hand raised at night, [up, down) on the window's axis; `fire` is when its fingers bend (None: never)."""

    seat: int
    up: float
    down: float
    fingers: int
    fire: float | None


@dataclass(frozen=True)
class Show:
    seat: int
    t: float
    until: float
    number: int


@dataclass(frozen=True)
class OtherHand:
    """A hand on or over the table that is no vote: what a vote reader must not count (truth `x_other_hands`).

    kind `idle`: rests at `spot` over [on, off); `passing`: leaves its rest at `on`, goes out to `spot` and
    holds there `hold` seconds (0: sweeps over it a few centimetres up), back at rest by `off`, crossing a
    voting zone on the way without resting in it; `fidget`: rests near `spot` over [on, off) and keeps
    shifting and changing its grip.  `spot` is
    (along, lateral) in metres from the seat's table edge (None: the hand's usual rest, drawn anyway);
    `overlap` is the largest share of the hand's outline inside a voting zone at rest (for passing: on its way).
    """

    seat: int
    right: bool
    kind: str
    on: float
    off: float
    pose: str = "relaxed"
    spot: tuple[float, float] | None = None
    hold: float = 0.0
    overlap: float = 0.0

    def to_json(self, offset: float) -> dict:
        return {"seat": self.seat, "hand": "right" if self.right else "left", "kind": self.kind,
                "on": round(self.on + offset, 2), "off": round(self.off + offset, 2), "pose": self.pose,
                "zone_overlap": round(self.overlap, 3)}


@dataclass
class Window:
    """One filmed stretch of the game (a day's voting or a night), on its own time axis from 0."""

    name: str
    title: str
    night: bool
    living: tuple[int, ...]
    duration: float = 0.0
    cues: list[Cue] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)  # timed protocol events, in order
    hands: list[VoteHand] = field(default_factory=list)
    raises: list[Raise] = field(default_factory=list)
    shows: list[Show] = field(default_factory=list)
    findings: list[dict] = field(default_factory=list)
    others: list[OtherHand] = field(default_factory=list)

    @property
    def frames(self) -> int:
        return int(round(self.duration * 25))


# a voter in a vote script: (seat, how) with how in
#   ok | fist | early | late | lifted | palm | finger
Voter = tuple[int, str]


CALL_LEAD = 2.35  # from the start of the judge's call to the vote's `t`


def _call(window: Window, start: float, number_word: str, question: str, kind: str = "candidate") -> float:
    """The judge's call: the number, the question, the number again (rfm 4.4.5). Returns t."""
    window.cues.append(Cue("call", start, number_word.capitalize()))
    window.cues.append(Cue("call", start + 0.75, question, 230))
    t = start + CALL_LEAD
    window.cues.append(Cue(kind, t, number_word))
    return t


def vote_window(name: str, title: str, day: int, living: tuple[int, ...], rounds: list[dict],
                poses: dict[int, str], seed_offset: float = 0.0) -> Window:
    """A day's voting: every round of it (first vote, revotes, lift vote) in one window.

    Each round is {"round": r, "candidates": [...], "votes": {candidate: [Voter...]}, "counts": {...},
    "findings": [...]} or, for the lift vote, {"lift": True, "candidates": [...], "votes": [...], "count": n}.
    """
    w = Window(name, title, False, living)
    w.events.append({"type": "phase", "phase": "voting", "number": day, "t": 0.0})
    clock = 0.8
    jitter = [0.18, 0.42, 0.3, 0.66, 0.24, 0.54, 0.36, 0.72, 0.48, 0.6]
    for rnd in rounds:
        if rnd.get("lift"):
            names = " и ".join(NUMBERS[c] for c in rnd["candidates"])
            w.cues.append(Cue("call", clock, f"Кто за то, чтобы игроки {names}", 200))
            t = clock + CALL_LEAD
            w.cues.append(Cue("candidate", t, "покинули игру"))
            plans = [("lift", rnd["candidates"], rnd["votes"], rnd["count"])]
        else:
            plans = [("vote", c, rnd["votes"].get(c, []), rnd["counts"][c]) for c in rnd["candidates"]]
        for kind, cand, voters, count in plans:
            if kind == "vote":
                t = _call(w, clock, NUMBERS[cand], "Кто голосует за игрока номер")
            cutoff = t + 1.55 + 0.1 * ((cand if kind == "vote" else 0) % 3)
            announced = cutoff + 0.85
            w.cues.append(Cue("stop", cutoff, "Стоп"))
            w.cues.append(Cue("count", announced, NUMBERS[count] if count in NUMBERS else str(count)))
            ev = {"type": "lift_vote" if kind == "lift" else "vote", "day": day}
            if kind == "lift":
                ev.update({"round": rnd.get("round", 3), "candidates": list(cand)})
            else:
                ev.update({"round": rnd["round"], "candidate": cand})
            ev.update({"count": count, "t": round(t, 3), "cutoff": round(cutoff, 3), "announced": round(announced, 3)})
            w.events.append(ev)
            for i, (seat, how) in enumerate(voters):
                j = jitter[(seat + i + int(seed_offset * 10)) % len(jitter)]
                on, off = snap(t + 0.12 + j), snap(announced + 0.3 + j * 0.8)
                if how == "early":
                    on = snap(t - 1.3)
                elif how == "late":
                    on = snap(cutoff + 0.24)
                elif how == "lifted":
                    off = snap(t + 0.95 + j * 0.3)
                pose = {"palm": "open_palm", "finger": "finger", "fist": "fist"}.get(how, poses.get(seat, "thumb_up_fist"))
                w.hands.append(VoteHand(seat, on, off, pose, kind))
            clock = announced + 2.0
    w.duration = round(snap(clock + 0.6), 2)
    return w


def count_onset(number: int) -> float:
    """When the judge's count reaches `number` in a night window (1..10, one a second, rfm 4.5.3)."""
    return 4.2 + (number - 1) * 1.0


def night_window(name: str, title: str, night: int, living: tuple[int, ...], shots: dict[int, int],
                 fingers: dict[int, int], checks: list[tuple[str, int, int, str]],
                 stray: tuple[Raise, ...] = ()) -> Window:
    """A night: the shooting count 1..10 (rfm 4.5.3) with the blacks' raised hands, then the checks.

    `shots`: shooter seat -> seat he fires on; `checks`: (by, seat, target, result); `stray`: hands
    raised by seats that had no reason to (the judge missed them, so the protocol does not say).
    """
    w = Window(name, title, True, living)
    w.events.append({"type": "phase", "phase": "night", "number": night, "t": 0.0})
    w.cues.append(Cue("phrase", 0.5, "Наступает ночь"))
    w.cues.append(Cue("phrase", 2.0, "Мафия стреляет"))
    up = snap(3.2)
    first = count_onset(1)
    for k in range(1, 11):
        w.cues.append(Cue("shoot_count", count_onset(k), NUMBERS[k]))
    down = snap(first + 9 * 1.0 + 1.0)
    for seat, target in sorted(shots.items()):
        fire = snap(count_onset(target) + 0.28)
        w.raises.append(Raise(seat, up, down, fingers.get(seat, 1), fire))
    w.raises += list(stray)
    targets = set(shots.values())
    killed = targets.pop() if len(targets) == 1 and len(shots) == sum(1 for s in living if ROLES[s] in ("mafia", "don")) else None
    w.events.append({"type": "shooting", "night": night, "target": killed, "t": round(first, 3),
                     "shots": {str(k): v for k, v in sorted(shots.items())}})
    clock = first + 9 * 1.0 + 2.0
    for by, seat, target, result in checks:
        phrase = "Дон ищет шерифа" if by == "don" else "Шериф ищет мафию"
        w.cues.append(Cue("phrase", clock, phrase))
        shown = snap(clock + 1.6)
        w.shows.append(Show(seat, shown, snap(shown + 2.4), target))
        w.events.append({"type": "check", "night": night, "by": by, "target": target, "result": result,
                         "t": round(shown, 3)})
        clock = shown + 3.6
    w.cues.append(Cue("phrase", clock, "Наступает утро"))
    w.duration = round(snap(clock + 1.6), 2)
    return w


def sample_game() -> list[dict | Window]:
    """The whole game, in order: untimed protocol events and the filmed windows."""
    poses = {s: ("fist" if s in (3, 8) else "thumb_up_fist") for s in range(1, 11)}
    everyone = tuple(range(1, 11))
    items: list[dict | Window] = [{"type": "phase", "phase": "night", "number": 0},
                                  {"type": "phase", "phase": "day", "number": 1}]
    items += [{"type": "nomination", "day": 1, "by": 2, "target": 6},
              {"type": "nomination", "day": 1, "by": 5, "target": 3},
              {"type": "nomination", "day": 1, "by": 9, "target": 8}]
    d1 = vote_window("day1_vote_findings", "Day 1 vote: every day-vote finding kind", 1, everyone, [
        {"round": 1, "candidates": [6, 3, 8], "counts": {6: 5, 3: 1, 8: 4},
         "votes": {6: [(1, "ok"), (2, "ok"), (4, "ok"), (5, "early"), (7, "lifted"), (10, "ok")],
                   3: [(3, "ok")],
                   8: [(6, "palm"), (9, "late"), (1, "ok")]}}], poses)
    d1.findings = [
        {"kind": "early_hand", "seat": 5, "day": 1, "round": 1, "candidate": 6},
        {"kind": "lifted_early", "seat": 7, "day": 1, "round": 1, "candidate": 6},
        {"kind": "count_mismatch", "seat": None, "day": 1, "round": 1, "candidate": 6},
        {"kind": "wrong_form", "seat": 6, "day": 1, "round": 1, "candidate": 8},
        {"kind": "late_vote", "seat": 9, "day": 1, "round": 1, "candidate": 8},
        {"kind": "double_vote", "seat": 1, "day": 1, "round": 1, "candidate": 8},
        {"kind": "no_vote", "seat": 8, "day": 1, "round": 1, "candidate": None},
        {"kind": "count_mismatch", "seat": None, "day": 1, "round": 1, "candidate": 8},
    ]
    items.append(d1)
    items += [{"type": "elimination", "seat": 6, "cause": "vote"}]
    alive = (1, 2, 3, 4, 5, 7, 8, 9, 10)
    n1 = night_window("night1_kill_checks", "Night 1: a kill (all blacks on 10), the Don's and the Sheriff's checks",
                      1, alive, {2: 10, 7: 10, 9: 10}, {2: 1, 7: 2, 9: 1},
                      [("don", 7, 4, "sheriff"), ("sheriff", 4, 9, "black")])
    items.append(n1)
    items += [{"type": "elimination", "seat": 10, "cause": "shot"},
              {"type": "best_move", "seat": 10, "named": [2, 9, 3]},
              {"type": "phase", "phase": "day", "number": 2},
              {"type": "nomination", "day": 2, "by": 4, "target": 9},
              {"type": "nomination", "day": 2, "by": 9, "target": 3}]
    alive = (1, 2, 3, 4, 5, 7, 8, 9)
    tie_votes = {9: [(1, "ok"), (4, "ok"), (5, "ok"), (8, "ok")], 3: [(2, "ok"), (3, "ok"), (7, "ok"), (9, "ok")]}
    d2 = vote_window("day2_tie_revote_lift", "Day 2: a tie, the revote, the same tie, the lift vote", 2, alive, [
        {"round": 1, "candidates": [9, 3], "counts": {9: 4, 3: 4}, "votes": tie_votes},
        {"round": 2, "candidates": [9, 3], "counts": {9: 4, 3: 4}, "votes": tie_votes},
        {"lift": True, "round": 3, "candidates": [9, 3], "count": 5,
         "votes": [(1, "ok"), (2, "ok"), (4, "ok"), (5, "ok"), (8, "ok")]}], poses, 0.3)
    items.append(d2)
    items += [{"type": "elimination", "seat": 9, "cause": "lift"}, {"type": "elimination", "seat": 3, "cause": "lift"}]
    alive = (1, 2, 4, 5, 7, 8)
    # seat 5 (red) raises a finger during the shooting and bends it on 6, faking a shot (mafclub 3.8.8, rfm 5.12.10)
    n2 = night_window("night2_miss_checks", "Night 2: a miss (2 fires on 4, 7 on 8), a red hand fakes a shot; "
                      "the Don's and the Sheriff's checks", 2, alive, {2: 4, 7: 8}, {2: 2, 7: 1},
                      [("don", 7, 1, "not_sheriff"), ("sheriff", 4, 2, "black")],
                      (Raise(5, snap(4.0), snap(11.0), 1, snap(count_onset(6) + 0.28)),))
    n2.findings = [{"kind": "night_hand", "seat": 5, "night": 2}]
    items.append(n2)
    items += [{"type": "phase", "phase": "day", "number": 3},
              {"type": "nomination", "day": 3, "by": 4, "target": 2},
              {"type": "nomination", "day": 3, "by": 2, "target": 7},
              {"type": "nomination", "day": 3, "by": 7, "target": 5}]
    d3 = vote_window("day3_clean_vote", "Day 3: a clean vote with three candidates", 3, alive, [
        {"round": 1, "candidates": [2, 7, 5], "counts": {2: 3, 7: 1, 5: 2},
         "votes": {2: [(1, "ok"), (4, "ok"), (8, "ok")], 7: [(5, "ok")], 5: [(2, "ok"), (7, "ok")]}}], poses, 0.6)
    items.append(d3)
    items += [{"type": "elimination", "seat": 2, "cause": "vote"}]
    alive = (1, 4, 5, 7, 8)
    # seat 1 leaves the night pose during the Don's check: a hand up with two fingers for 3.2 s (rfm 4.5.12)
    n3 = night_window("night3_kill", "Night 3: the Don alone kills the Sheriff; the Don checks 8 while seat 1 "
                      "raises a hand out of turn", 3, alive, {7: 4}, {7: 2}, [("don", 7, 8, "not_sheriff")],
                      (Raise(1, snap(16.4), snap(19.6), 2, None),))
    n3.findings = [{"kind": "night_hand", "seat": 1, "night": 3}]
    items.append(n3)
    items += [{"type": "elimination", "seat": 4, "cause": "shot"},
              {"type": "phase", "phase": "day", "number": 4},
              {"type": "nomination", "day": 4, "by": 1, "target": 7},
              {"type": "nomination", "day": 4, "by": 7, "target": 1}]
    alive = (1, 5, 7, 8)
    d4 = vote_window("day4_final_vote", "Day 4: the Don is voted out, red wins", 4, alive, [
        {"round": 1, "candidates": [7, 1], "counts": {7: 3, 1: 1},
         "votes": {7: [(1, "ok"), (5, "ok"), (8, "ok")], 1: [(7, "ok")]}}], poses, 0.9)
    items.append(d4)
    items += [{"type": "elimination", "seat": 7, "cause": "vote"}, {"type": "result", "winner": "red"}]
    return items


def protocol(items: list[dict | Window], offsets: dict[str, float], video: str, game_id: str) -> dict:
    """The protocol of the game: times (shifted by each window's offset) only for the windows in `offsets`."""
    events = []
    for item in items:
        if isinstance(item, Window):
            for ev in item.events:
                ev = copy.deepcopy(ev)
                if item.name in offsets:
                    for key in ("t", "cutoff", "announced"):
                        if key in ev:
                            ev[key] = round(ev[key] + offsets[item.name], 3)
                else:
                    for key in ("t", "cutoff", "announced"):
                        ev.pop(key, None)
                events.append(ev)
        else:
            events.append(copy.deepcopy(item))
    return {
        "format": "stopframe-protocol/1",
        "rules": "rfm",
        "game": {"id": game_id, "tournament": "Stopframe sample tournament", "table": "1", "date": "2026-11-29",
                 "judge": "Синтез", "side_judge": "Рендер"},
        "video": {"path": video, "offset_s": 0.0},
        "players": [{"seat": s, "nickname": NICKNAMES[s - 1], "role": ROLES[s]} for s in range(1, 11)],
        "events": events,
    }


def truth(windows: list[Window], offsets: dict[str, float]) -> dict:
    """Spec §3 truth of a video made of these windows at these offsets."""
    hands, raised, shown, findings, cues, others = [], [], [], [], [], []
    for w in windows:
        o = offsets[w.name]
        others += [h.to_json(o) for h in w.others]
        for h in w.hands:
            hands.append({"seat": h.seat, "on": round(h.on + o, 2), "off": round(h.off + o, 2), "pose": h.pose})
        for r in w.raises:
            raised.append({"seat": r.seat, "up": round(r.up + o, 2), "down": round(r.down + o, 2),
                           "fingers": r.fingers, "fire": None if r.fire is None else round(r.fire + o, 2)})
        for s in w.shows:
            shown.append({"seat": s.seat, "t": round(s.t + o, 2), "number": s.number})
        findings += copy.deepcopy(w.findings)
        cues += [{**c.to_json(), "t": round(c.t + o, 3)} for c in w.cues]
    hands.sort(key=lambda h: (h["on"], h["seat"]))
    out = {"format": "stopframe-truth/1", "fps": 25, "hands": hands, "raised": raised, "shown_numbers": shown,
           "expected_findings": findings, "x_cues": cues,
           "x_windows": [{"name": w.name, "title": w.title, "start": offsets[w.name],
                          "end": round(offsets[w.name] + w.duration, 2)} for w in windows]}
    if others:  # hands that are on the table but are no votes: the scorers do not count them
        out["x_other_hands"] = sorted(others, key=lambda h: (h["on"], h["seat"], h["hand"]))
    return out
