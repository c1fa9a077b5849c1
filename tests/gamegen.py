"""A generator of random LEGAL games under a rule profile, for property tests of the engine.

It plays a game the way a careful judge would record it — nominations, votes with voters and counts, ties,
revotes and lift votes, removals and the votes they cancel, shootings, checks, best moves, draws — using its
own straightforward reading of each profile's rules (written separately from the engine, so the two check
each other). `generate(profile_id, rng)` returns the protocol dict and what the game must come to.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

BLACK = {"mafia", "don"}

# Per profile: how the rules this generator plays differ (read from ../shared/RULES.md and the rulebooks).
RULES: dict[str, dict[str, Any]] = {
    "rfm": {"silent_to_last": True, "single_later": "vote", "fewer_revote": True, "lift_bans": {(5, 10), (4, 8), (3, 6)},
            "ban_all": True, "three_split": 3, "no_revote_at": None, "cancel": "day", "withdrawal": False,
            "quiet": "nights", "misses_red": None, "all_leave": "draw", "best_move": True, "best_move_ban": 2,
            "removal_at": 4},
    "mafclub": {"silent_to_last": True, "single_later": "leaves", "fewer_revote": True, "lift_bans": set(),
                "ban_all": False, "three_split": None, "no_revote_at": None, "cancel": "each", "withdrawal": True,
                "quiet": "pairs", "misses_red": None, "all_leave": "draw", "best_move": True, "best_move_ban": None,
                "removal_at": 4},
    "lvi2015": {"silent_to_last": True, "single_later": "vote", "fewer_revote": False, "lift_bans": set(),
                "ban_all": False, "three_split": None, "no_revote_at": 4, "cancel": None, "withdrawal": False,
                "quiet": None, "misses_red": None, "all_leave": None, "best_move": False, "best_move_ban": None,
                "removal_at": None},
    "showtime": {"silent_to_last": False, "single_later": "leaves", "fewer_revote": False, "lift_bans": set(),
                 "ban_all": False, "three_split": None, "no_revote_at": None, "cancel": None, "withdrawal": True,
                 "quiet": None, "misses_red": 3, "all_leave": "black", "best_move": False, "best_move_ban": None,
                 "removal_at": None},
}


@dataclass
class Game:
    """What the generated game must replay to."""

    protocol: dict[str, Any]
    eliminations: list[dict[str, Any]] = field(default_factory=list)
    result: str | None = None


class _Table:
    def __init__(self, profile_id: str, rng: random.Random, roles_known: bool) -> None:
        self.id = profile_id
        self.r = RULES[profile_id]
        self.rng = rng
        deck = ["sheriff"] + ["civilian"] * 6 + ["don"] + ["mafia"] * 2
        rng.shuffle(deck)
        self.roles = {seat: deck[seat - 1] for seat in range(1, 11)}
        self.roles_known = roles_known
        self.seated = set(range(1, 11))
        self.events: list[dict[str, Any]] = []
        self.out: list[dict[str, Any]] = []
        self.result: str | None = None
        self.fouls: dict[int, int] = {}
        self.cancel_pending = 0
        self.streak = 0
        self.day1_leavers = 0
        self.night1_victim: int | None = None
        self.t = 0.0
        self.by_rule = False  # the result follows from a rule that needs no roles (a draw, three misses, all left)
        self.last_night_quiet = False

    # ---------------------------------------------------------------- helpers
    def emit(self, event: dict[str, Any], timed: bool = True) -> None:
        if timed and self.rng.random() < 0.5:
            self.t += self.rng.uniform(1, 20)
            event["t"] = round(self.t, 2)
        self.events.append(event)

    def living(self) -> list[int]:
        return sorted(self.seated)

    def leave(self, seat: int, cause: str, when: str, n: int, always: bool = False) -> None:
        self.seated.discard(seat)
        self.out.append({"seat": seat, "cause": cause, when: n})
        if always or self.rng.random() < 0.5:
            self.emit({"type": "elimination", "seat": seat, "cause": cause, when: n}, timed=False)
        if cause != "removal" and self.rng.random() < 0.4:
            self.emit({"type": "speech", "day": n if when == "day" else n + 1, "seat": seat, "kind": "last"})

    def check_win(self) -> bool:
        if self.result is not None:
            return True
        blacks = sum(1 for s in self.seated if self.roles[s] in BLACK)
        if not self.seated:
            return False
        if blacks == 0:
            self.result = "red"
        elif blacks >= len(self.seated) - blacks:
            self.result = "black"
        return self.result is not None

    # ---------------------------------------------------------------- day
    def day(self, d: int) -> None:
        self.emit({"type": "phase", "phase": "day", "number": d})
        left_today = 0
        cancelled = False
        if self.rng.random() < 0.12 and len(self.seated) > 4:
            seat = self.rng.choice(self.living())
            self.emit({"type": "removal", "seat": seat, "reason": "generated"})
            self.leave(seat, "removal", "day", d)
            left_today += 1
            if self.check_win():
                return
            if self.r["cancel"] == "day":
                cancelled = True
            elif self.r["cancel"] == "each":
                self.cancel_pending += 1
        if self.rng.random() < 0.3:
            seat = self.rng.choice(self.living())
            if self.fouls.get(seat, 0) < 3:
                self.fouls[seat] = self.fouls.get(seat, 0) + 1
                self.emit({"type": "foul", "seat": seat, "reason": "generated"})
        if self.cancel_pending:
            self.cancel_pending -= 1
            cancelled = True
        candidates = self.nominate(d)
        if self.rng.random() < 0.7:
            self.emit({"type": "phase", "phase": "voting", "number": d})
        if not cancelled:
            leavers = self.vote(d, candidates)
            left_today += len(leavers)
            if d == 1:
                self.day1_leavers = len(leavers)
        else:
            leavers = []
        if self.check_win():
            return
        # draws and streaks: a day where someone left breaks them
        if self.r["quiet"] == "nights" and left_today:
            self.streak = 0
        if self.r["quiet"] == "pairs":
            quiet = self.last_night_quiet and not left_today
            self.streak = self.streak + 1 if quiet else 0
            if self.streak >= 3:
                self.result, self.by_rule = "draw", True
        if self.r["misses_red"] and leavers:
            self.streak = 0

    def nominate(self, d: int) -> list[int]:
        living = self.living()
        speakers = self.rng.sample(living, k=min(len(living), self.rng.randint(0, 4)))
        targets: list[int] = []
        for by in speakers:
            fresh = [s for s in living if s not in targets]
            if not fresh:
                break
            if self.rng.random() < 0.5:
                self.emit({"type": "speech", "day": d, "seat": by, "kind": "day"})
            target = self.rng.choice(fresh)
            self.emit({"type": "nomination", "day": d, "by": by, "target": target})
            if self.r["withdrawal"] and self.rng.random() < 0.3:
                others = [s for s in fresh if s != target]
                if self.rng.random() < 0.5 or not others:
                    self.emit({"type": "withdrawal", "day": d, "by": by, "target": target})
                    continue
                target = self.rng.choice(others)  # a later name in the same speech replaces the first
                self.emit({"type": "nomination", "day": d, "by": by, "target": target})
            targets.append(target)
        return targets

    def vote(self, d: int, candidates: list[int]) -> list[int]:
        """Vote the day out; returns who left."""
        if not candidates:
            return []
        if len(candidates) == 1:
            if d == 1:
                return []
            if self.r["single_later"] == "leaves":
                # recorded, so that a protocol ending here still shows the day's voting happened
                self.leave(candidates[0], "vote", "day", d, always=True)
                return candidates[:]
        rnd, current = 1, candidates[:]
        while True:
            counts = self.cast(d, rnd, current)
            top = max(counts.values())
            tied = [c for c in current if counts[c] == top]
            if len(tied) == 1:
                self.leave(tied[0], "vote", "day", d)
                return tied
            n = len(self.seated)
            if self.r["no_revote_at"] == n:
                return []
            if rnd == 1 or (len(tied) < len(current) and self.r["fewer_revote"]):
                for seat in tied:
                    if self.rng.random() < 0.3:
                        self.emit({"type": "speech", "day": d, "seat": seat, "kind": "tie"})
                rnd, current = rnd + 1, tied
                continue
            if self.r["three_split"] == n:
                return []
            if (len(tied), n) in self.r["lift_bans"] or (self.r["ban_all"] and len(tied) >= n):
                return []
            voters = [s for s in self.living() if self.rng.random() < 0.5]
            event: dict[str, Any] = {"type": "lift_vote", "day": d, "candidates": tied, "count": len(voters)}
            if self.rng.random() < 0.5:
                event["voters"] = voters
            if self.rng.random() < 0.5:
                event["round"] = rnd + 1
            self.emit(event)
            if 2 * len(voters) > n:
                for seat in tied:
                    self.leave(seat, "lift", "day", d)
                if not self.seated and self.r["all_leave"]:
                    self.result, self.by_rule = self.r["all_leave"], True
                return tied
            return []

    def cast(self, d: int, rnd: int, current: list[int]) -> dict[int, int]:
        votes: dict[int, list[int]] = {c: [] for c in current}
        silent = []
        for voter in self.living():
            if self.rng.random() < 0.15:
                silent.append(voter)
            else:
                votes[self.rng.choice(current)].append(voter)
        counts = {c: len(v) for c, v in votes.items()}
        if self.r["silent_to_last"]:
            counts[current[-1]] += len(silent)
        with_voters = self.rng.random() < 0.6
        for c in current:
            event: dict[str, Any] = {"type": "vote", "day": d, "round": rnd, "candidate": c, "count": counts[c]}
            if with_voters:
                event["voters"] = votes[c]
            if self.rng.random() < 0.5:
                base = self.t + self.rng.uniform(1, 5)
                event.update(t=round(base, 2), cutoff=round(base + 1.5, 2), announced=round(base + 2.5, 2))
                self.t = base + 3
            self.emit(event, timed=False)
        return counts

    # ---------------------------------------------------------------- night
    def night(self, n: int) -> None:
        self.emit({"type": "phase", "phase": "night", "number": n})
        living = self.living()
        blacks = [s for s in living if self.roles[s] in BLACK]
        kill = self.rng.random() < 0.6
        target: int | None = self.rng.choice(living) if kill else None
        shots: dict[str, int] = {}
        if target is not None:
            shots = {str(b): target for b in blacks}
        elif len(blacks) >= 2:
            a, b = self.rng.sample(living, 2)
            shots = {str(blacks[0]): a, **{str(x): b for x in blacks[1:]}}
        event: dict[str, Any] = {"type": "shooting", "night": n, "target": target}
        if shots and self.rng.random() < 0.7:
            event["shots"] = shots
        self.emit(event)
        if target is not None:
            self.leave(target, "shot", "night", n)
            if n == 1:
                self.night1_victim = target
            self.streak = 0 if self.r["quiet"] or self.r["misses_red"] else self.streak
        else:
            if self.r["quiet"] == "nights" or self.r["misses_red"]:
                self.streak += 1
        self.last_night_quiet = target is None
        for by, role in (("don", "don"), ("sheriff", "sheriff")):
            seat = next(s for s, r in self.roles.items() if r == role)
            if seat in self.seated and self.rng.random() < 0.8:
                checked = self.rng.choice([s for s in range(1, 11) if s != seat])
                if by == "don":
                    answer = "sheriff" if self.roles[checked] == "sheriff" else "not_sheriff"
                else:
                    answer = "black" if self.roles[checked] in BLACK else "red"
                self.emit({"type": "check", "night": n, "by": by, "target": checked, "result": answer})
        if self.check_win():
            return
        if self.r["quiet"] == "nights" and self.streak >= 3:
            self.result, self.by_rule = "draw", True
        if self.r["misses_red"] and self.streak >= self.r["misses_red"]:
            self.result, self.by_rule = "red", True
        if n == 1 and target is not None and self.r["best_move"] and self.result is None:
            ban = self.r["best_move_ban"]
            if ban is None or self.day1_leavers < ban:
                named = self.rng.sample([s for s in range(1, 11) if s != target], 3)
                self.emit({"type": "best_move", "seat": target, "named": named})


def generate(profile_id: str, rng: random.Random, *, max_days: int = 12) -> Game:
    """A random legal game under `profile_id`, with the eliminations and result it must replay to."""
    roles_known = rng.random() < 0.85
    table = _Table(profile_id, rng, roles_known)
    table.emit({"type": "phase", "phase": "night", "number": 0})
    for d in range(1, max_days + 1):
        table.day(d)
        if table.result is not None or not table.seated:
            break
        table.night(d)
        if table.result is not None:
            break
    # Without roles the engine can tell only the results that need none; an announced one it takes as given.
    result = table.result if roles_known or table.by_rule else None
    if table.result is not None and (roles_known or rng.random() < 0.5):
        table.emit({"type": "result", "winner": table.result})
        result = table.result
    players = [
        {"seat": s, "nickname": f"P{s}", "role": table.roles[s] if roles_known else None} for s in range(1, 11)
    ]
    protocol = {"format": "stopframe-protocol/1", "rules": profile_id, "players": players, "events": table.events}
    return Game(protocol, table.out, result)


# ------------------------------------------------------------------------------------------------------
# Builders for hand-written games in the rule tests: one call per protocol event (spec §1).

ROLES = {1: "civilian", 2: "sheriff", 3: "civilian", 4: "don", 5: "civilian",
         6: "civilian", 7: "mafia", 8: "civilian", 9: "mafia", 10: "civilian"}


def protocol(rules: str, *events: dict[str, Any] | list[dict[str, Any]], roles: dict[int, str | None] | None = None,
             start: bool = True) -> dict[str, Any]:
    """A protocol under `rules`; `events` may be single events or lists of them (flattened). Starts with night 0."""
    roles = ROLES if roles is None else roles
    flat: list[dict[str, Any]] = [phase("night", 0)] if start else []

    def add(item: Any) -> None:
        if isinstance(item, list):
            for sub in item:
                add(sub)
        else:
            flat.append(item)

    add(list(events))
    players = [{"seat": s, "nickname": f"P{s}", "role": roles.get(s)} for s in range(1, 11)]
    return {"format": "stopframe-protocol/1", "rules": rules, "players": players, "events": flat}


def phase(kind: str, number: int) -> dict[str, Any]:
    return {"type": "phase", "phase": kind, "number": number}


def nom(day: int, by: int, target: int) -> dict[str, Any]:
    return {"type": "nomination", "day": day, "by": by, "target": target}


def withdraw(day: int, by: int, target: int) -> dict[str, Any]:
    return {"type": "withdrawal", "day": day, "by": by, "target": target}


def speech(day: int, seat: int, kind: str = "day") -> dict[str, Any]:
    return {"type": "speech", "day": day, "seat": seat, "kind": kind}


def vote(day: int, rnd: int, candidate: int, count: int, voters: list[int] | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "vote", "day": day, "round": rnd, "candidate": candidate, "count": count}
    if voters is not None:
        event["voters"] = voters
    return event


def ballot(day: int, rnd: int, hands: dict[int, list[int]], living: list[int] | range,
           to_last: bool = True) -> list[dict[str, Any]]:
    """One round's vote events from the hands placed per candidate (in voting order); the last candidate's
    count includes the silent players where `to_last` (rfm 4.4.10)."""
    order = list(hands)
    silent = [s for s in living if not any(s in v for v in hands.values())]
    return [
        vote(day, rnd, c, len(hands[c]) + (len(silent) if to_last and c == order[-1] else 0), hands[c])
        for c in order
    ]


def lift(day: int, candidates: list[int], count: int, rnd: int | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "lift_vote", "day": day, "candidates": candidates, "count": count}
    if rnd is not None:
        event["round"] = rnd
    return event


def shoot(night: int, target: int | None, shots: dict[int, int] | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "shooting", "night": night, "target": target}
    if shots is not None:
        event["shots"] = {str(k): v for k, v in shots.items()}
    return event


def check(night: int, by: str, target: int, result: str) -> dict[str, Any]:
    return {"type": "check", "night": night, "by": by, "target": target, "result": result}


def foul(seat: int) -> dict[str, Any]:
    return {"type": "foul", "seat": seat, "reason": "test"}


def removal(seat: int, clause: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "removal", "seat": seat, "reason": "test"}
    if clause is not None:
        event["clause"] = clause
    return event


def elim(seat: int, cause: str, **when: int) -> dict[str, Any]:
    return {"type": "elimination", "seat": seat, "cause": cause, **when}


def best(seat: int, named: list[int]) -> dict[str, Any]:
    return {"type": "best_move", "seat": seat, "named": named}


def result(winner: str) -> dict[str, Any]:
    return {"type": "result", "winner": winner}


def quiet_days(kills: list[int | None], first_day: int = 1) -> list[dict[str, Any]]:
    """Days without nominations, each followed by a night with the given kill (None: a miss)."""
    events: list[dict[str, Any]] = []
    for k, target in enumerate(kills):
        n = first_day + k
        events += [phase("day", n), phase("night", n), shoot(n, target)]
    return events


UNKNOWN: dict[int, str | None] = dict.fromkeys(range(1, 11))
"""Roles left out of the protocol: no win can be derived, so the voting rules can be tested at any table size."""
