"""A game back in the systems clubs use: a protocol (a corrected one) as a Polemica or a mafiaratings game file.

Why these fields and no others: a file is only as good as what reads it back, so each export writes exactly the
fields our importers read (`review.game.importers`), and every export is read back with that importer before it is
handed out: the re-imported game must validate under its rules and hold the same game as far as the format holds
one (`held`). `to_polemica` / `to_mafiaratings` refuse a game holding an event the format cannot hold, with one
sentence naming it. `club_file` is what a judge is handed: it takes what the format can hold and says what it left
out — an event the game goes on without (a fine, a check whose result the format cannot give, a withdrawn
nomination, whom a best move named) is left out alone; a day's votes mafiaratings cannot list are left out with
the departures kept; where the rest of the game would read back otherwise (a vote on lifting or a removal in
Polemica, whose departures follow from its votes), the file ends before it. Each left-out thing is one phrase in
the judge's words, beside what the formats never carry (times, clauses, notes, …: `left_out`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from contract import i18n
from contract.errors import InvalidInput
from contract.i18n import _, term
from review.game.club_shapes import MAFIARATINGS_ROLES, POLEMICA_RESULTS
from review.game.engine import initial_state, replay, step
from review.game.gamestate import BLACK_ROLES, SEATS
from review.game.importers import MAFIARATINGS_REMOVALS, MAFIARATINGS_WINNERS, POLEMICA_ROLES, convert
from review.game.profiles import Profile, get_profile
from review.game.protocol import format_problems, validate

FORMATS = ("polemica", "mafiaratings")
NAMES = {"polemica": "Polemica", "mafiaratings": "mafiaratings"}
REMOVAL_KINDS = {reason: kind for kind, reason in MAFIARATINGS_REMOVALS.items()}
DEFAULT_FOUL = {False: "foul", True: "technical foul"}  # the importer's reason for a foul item given none


class ExportRefused(InvalidInput):
    """The game holds something the target format cannot; the message names the event (exit status 1)."""

    def __init__(self, message: str, index: int | None = None, why: str | None = None,
                 needs_voters: bool = False) -> None:
        super().__init__(message)
        self.index = index  # the protocol event it names; None: the players or the game as a whole
        self.why = why or message  # the reason alone, without the event it names
        self.needs_voters = needs_voters  # a vote gives its count only: where the voters are entered is the caller's to say


def _first(*checks: Callable[[], Any]) -> None:
    """Run every check; raise the refusal that names the earliest event (the players' before any event)."""
    found = []
    for check in checks:
        try:
            check()
        except ExportRefused as exc:
            found.append(exc)
    if found:
        raise min(found, key=lambda e: -1 if e.index is None else e.index)


# ---------------------------------------------------------------------------------------------- the game


class _Played:
    """The protocol replayed once: who sat at the table before each event, each vote's voters in full."""

    def __init__(self, protocol: Mapping[str, Any], target: str) -> None:
        self.data = dict(protocol)
        self.target = target
        self.name = NAMES[target]
        problems = format_problems(self.data) or validate(self.data)
        if problems:
            p = problems[0]
            raise ExportRefused(_("The protocol does not validate ({problem}); a {format} file is written only from a "
                                  "valid game.", problem=p, format=self.name))
        self.profile: Profile = get_profile(self.data["rules"])
        self.events: list[dict[str, Any]] = list(self.data["events"])
        self.roles = {p["seat"]: p.get("role") for p in self.data["players"]}
        run = replay(self.data, self.profile)
        self.contexts = run.vote_contexts
        self.eliminations = run.eliminations
        self.seated: list[frozenset[int]] = []
        state = initial_state(self.data)
        for i, e in enumerate(self.events):
            self.seated.append(frozenset(state.at_table))
            state, _said = step(self.profile, state, i, e)

    def refuse(self, i: int, why: str, needs_voters: bool = False) -> ExportRefused:
        return ExportRefused(f"events[{i}] ({event_words(self.events[i])}): {why}.", i, why, needs_voters)

    def rounds(self) -> dict[tuple[int, int], list[int]]:
        """(day, round) -> the indexes of its candidate votes, in protocol order."""
        out: dict[tuple[int, int], list[int]] = {}
        for i, e in enumerate(self.events):
            if e["type"] == "vote":
                out.setdefault((e["day"], e.get("round", 1)), []).append(i)
        return out

    def ballots(self, refuse: bool = True) -> dict[tuple[int, int], dict[int, list[int]]]:
        """(day, round) -> candidate -> every seat whose vote counted for him, silent votes for the last candidate
        included (rfm 4.4.10, mafclub 2.4.10, lvi2015 5.4): what a club file lists voter by voter."""
        out: dict[tuple[int, int], dict[int, list[int]]] = {}
        silent_rule = bool(self.profile.silent_vote_to_last.value)
        for key, indexes in self.rounds().items():
            listed: dict[int, list[int]] = {}
            for i in indexes:
                e = self.events[i]
                voters = e.get("voters")
                listed[e["candidate"]] = sorted(voters) if isinstance(voters, list) else []
                if refuse and not isinstance(voters, list) and e["count"] and not (self._is_last(i) and silent_rule):
                    raise self.refuse(i, _("the protocol gives only the count ({count}), and a {format} file lists "
                                           "every voter's seat; add the voters to the protocol first", count=e["count"],
                                           format=self.name), needs_voters=True)
            seen: dict[int, int] = {}
            for candidate, voters in listed.items():
                for v in voters:
                    if v in seen and refuse:
                        i = indexes[list(listed).index(candidate)]
                        raise self.refuse(i, _("seat {seat} is listed for candidates {first} and {second}, and a "
                                               "{format} file holds one vote per player a round", seat=v, first=seen[v],
                                               second=candidate, format=self.name))
                    seen.setdefault(v, candidate)
            for i in indexes:
                e = self.events[i]
                voters = listed[e["candidate"]]
                if self._is_last(i) and silent_rule:
                    living = self.contexts[i].living if i in self.contexts else ()
                    voters = sorted(set(voters) | {s for s in living if s not in seen})
                if len(voters) != e["count"] and refuse:
                    raise self.refuse(i, _("the count {count} is not the {n} seats whose votes it holds, and a "
                                           "{format} file counts voter by voter", count=e["count"], n=len(voters),
                                           format=self.name))
                listed[e["candidate"]] = voters
            out[key] = listed
        return out

    def _is_last(self, i: int) -> bool:
        ctx = self.contexts.get(i)
        return bool(ctx is not None and ctx.is_last_candidate)

    def day_of(self, i: int) -> int:
        """The day an event falls in; an event of night k (or before day 1) counts for the day after it."""
        day = 1
        for e in self.events[: i + 1]:
            if e["type"] == "phase":
                day = e["number"] if e["phase"] in ("day", "voting") else e["number"] + 1
        return max(day, 1)

    def living_blacks(self, i: int) -> list[int]:
        return sorted(s for s in self.seated[i] if self.roles.get(s) in BLACK_ROLES)

    def shots(self, i: int) -> dict[int, int | None]:
        """The night's shots: the protocol's map, else every living black shooting the announced target."""
        e = self.events[i]
        given = e.get("shots")
        if isinstance(given, dict):
            return {int(k): v for k, v in given.items()}
        if e["target"] is None:
            return {}
        return {s: e["target"] for s in self.living_blacks(i)}

    def foul_kind(self, e: Mapping[str, Any]) -> bool:
        return e.get("x_polemica_kind") == "tech"


def event_words(e: Mapping[str, Any]) -> str:
    """An event in a judge's words: "the vote on candidate 6 on day 1", "seat 4's fine of -0.5 points"."""
    kind = e.get("type")
    seat = e.get("seat")
    if kind == "vote":
        rnd = e.get("round", 1)
        vote = _("the vote on candidate {candidate} on day {day}", candidate=e.get("candidate"), day=e.get("day"))
        return vote + (", " + _("round {round}", round=rnd) if rnd != 1 else "")
    if kind == "lift_vote":
        return _("the vote on lifting {seats} on day {day}", seats=", ".join(map(str, e.get("candidates") or [])),
                 day=e.get("day"))
    if kind == "fine":
        points = e.get("points")
        fine = _("seat {seat}'s fine of {points} points", seat=seat, points=i18n.number(points, 2)
                 if isinstance(points, int | float) and not isinstance(points, bool) else points)
        return fine + (f" ({e['clause']})" if e.get("clause") else "")
    if kind == "removal":
        return _("the removal of seat {seat}", seat=seat) + (f" ({e['clause']})" if e.get("clause") else "")
    if kind == "elimination":
        return _("seat {seat} leaving the game", seat=seat)
    if kind == "foul":
        return _("seat {seat}'s foul", seat=seat)
    if kind == "best_move":
        return _("seat {seat}'s best move naming {named}", seat=seat, named=", ".join(map(str, e.get("named") or [])))
    if kind == "nomination":
        return _("seat {seat} nominating seat {target} on day {day}", seat=e.get("by"), target=e.get("target"),
                 day=e.get("day"))
    if kind == "withdrawal":
        return _("seat {seat} withdrawing seat {target} on day {day}", seat=e.get("by"), target=e.get("target"),
                 day=e.get("day"))
    if kind == "shooting":
        return _("the shooting of night {night}", night=e.get("night"))
    if kind == "check" and e.get("by") == "don":
        return _("the Don's check of seat {seat} on night {night}", seat=e.get("target"), night=e.get("night"))
    if kind == "check":
        return _("the Sheriff's check of seat {seat} on night {night}", seat=e.get("target"), night=e.get("night"))
    return _("a {kind} event", kind=str(kind).replace("_", " "))


# ------------------------------------------------------------------------------------------------ Polemica


def to_polemica(protocol: Mapping[str, Any]) -> dict[str, Any]:
    """The game as a Polemica game file (the fields `review.game.importers._from_polemica` reads).

    Raises ExportRefused naming the first event Polemica cannot hold, or when the file would not read back as the
    same game."""
    g = _Played(protocol, "polemica")
    _first(lambda: _polemica_events(g), g.ballots, lambda: _votes_behind_day_leavers(g), lambda: _polemica_rounds(g))
    players: dict[int, dict[str, Any]] = {}
    for p in sorted(g.data["players"], key=lambda p: p["seat"]):
        row: dict[str, Any] = {"position": p["seat"]}
        if p.get("nickname") is not None:
            row["username"] = p["nickname"]
        row["role"] = POLEMICA_ROLES.index(p["role"]) if p.get("role") is not None else None
        row["fouls"], row["techs"] = [], []
        players[p["seat"]] = row
    votes, shots, checks = [], [], []
    for (day, rnd), by_candidate in sorted(g.ballots().items()):
        for candidate, voters in by_candidate.items():
            votes.extend({"day": day, "num": rnd, "voter": v, "candidate": candidate} for v in voters)
    for i, e in enumerate(g.events):
        if e["type"] == "shooting":
            shots.extend({"night": e["night"], "shooter": s, "victim": t} for s, t in sorted(g.shots(i).items()))
        elif e["type"] == "check":
            checks.append({"night": e["night"], "role": 0 if e["by"] == "don" else 3, "player": e["target"]})
        elif e["type"] == "foul":
            item: dict[str, Any] = {"day": g.day_of(i)}
            if isinstance(e.get("reason"), str):
                item["reason"] = e["reason"]
            players[e["seat"]]["techs" if g.foul_kind(e) else "fouls"].append(item)
        elif e["type"] == "best_move":
            players[e["seat"]]["guess"] = list(e["named"])
    out: dict[str, Any] = {k: g.data["game"][k] for k in ("id", "date") if (g.data.get("game") or {}).get(k) is not None}
    out["players"] = list(players.values())
    out.update({"votes": votes, "shots": shots, "checks": checks})
    result = _result(g)
    if result is not None:
        out["result"] = {v: k for k, v in POLEMICA_RESULTS.items()}[result]
    return _read_back(g, out)


def _polemica_events(g: _Played) -> None:
    """Events Polemica has no field for, or cannot give back without the roles."""
    for i, e in enumerate(g.events):
        kind = e["type"]
        if kind == "fine":
            raise g.refuse(i, _("a Polemica file holds no fines"))
        if kind == "lift_vote":
            raise g.refuse(i, _("a Polemica file lists votes for candidates and holds no vote on lifting several players"))
        if kind == "removal" or (kind == "elimination" and e["cause"] == "removal"):
            raise g.refuse(i, _("a Polemica file holds no removals from the table"))
        if kind == "shooting" and e["target"] is not None and not g.living_blacks(i):
            raise g.refuse(i, _("Polemica gives the night's target from the black players' shots, and the protocol "
                                "does not say who is black"))
        if kind == "check" and g.roles.get(e["target"]) is None:
            raise g.refuse(i, _("a Polemica file keeps whom the Don or the Sheriff checked, not the result, which follows "
                                "from the roles, and seat {seat}'s role is not given", seat=e["target"]))


def _polemica_rounds(g: _Played) -> None:
    """Rounds and best moves a file of one row per voter, and one guess a game, cannot hold."""
    for (_day, rnd), indexes in g.rounds().items():
        for i in indexes:
            if rnd > 1 and g.events[i]["count"] == 0:
                raise g.refuse(i, _("nobody voted for seat {seat} in this revote, and a Polemica file, listing votes "
                                    "voter by voter, cannot show he was a candidate", seat=g.events[i]["candidate"]))
    if sum(1 for e in g.events if e["type"] == "best_move") > 1:
        i = [j for j, e in enumerate(g.events) if e["type"] == "best_move"][1]
        raise g.refuse(i, _("a Polemica file holds one best move a game"))


def _votes_behind_day_leavers(g: _Played) -> None:
    """Polemica keeps no nominations: a player who left a day without a recorded vote (the only candidate, under
    mafclub 2.4.3 and showtime; a vote the protocol does not record) would read back as never having left."""
    voted_days = {e["day"] for e in g.events if e["type"] in ("vote", "lift_vote")}
    for left in g.eliminations:
        day = left.get("day")
        if left["cause"] not in ("vote", "lift") or day is None or day in voted_days:
            continue
        seat = left["seat"]
        i = next((j for j, e in enumerate(g.events) if e["type"] == "elimination" and e["seat"] == seat),
                 next((j for j, e in enumerate(g.events) if e["type"] == "nomination" and e["day"] == day
                       and e["target"] == seat), None))
        why = _("seat {seat} left on day {day} without a recorded vote, and a Polemica file keeps no nominations, only "
                "votes, so it cannot show that", seat=seat, day=day)
        if i is None:
            raise ExportRefused(_("The game: {why}.", why=why))
        raise g.refuse(i, why)


# -------------------------------------------------------------------------------------------- mafiaratings


def to_mafiaratings(protocol: Mapping[str, Any]) -> dict[str, Any]:
    """The game as a mafiaratings game file (the fields `review.game.importers._from_mafiaratings` reads).

    Raises ExportRefused naming the first event (or player) mafiaratings cannot hold, or when the file would not
    read back as the same game."""
    g = _Played(protocol, "mafiaratings")
    for p in g.data["players"]:
        if p.get("role") is None:
            raise ExportRefused(_("players: seat {seat}'s role is not given, and a mafiaratings file needs every "
                                  "player's role.", seat=p["seat"]))
    _first(lambda: _mafiaratings_events(g), lambda: _no_gaps(g, g.ballots()))
    codes = {v: k for k, v in MAFIARATINGS_ROLES.items()}
    rows = {p["seat"]: {"nick_name": p.get("nickname"), "role": codes[p["role"]]} for p in g.data["players"]}
    nominated = {(e["day"], e["by"]): i for i, e in enumerate(g.events) if e["type"] == "nomination"}
    ballots = g.ballots()
    for (day, _rnd), by_candidate in sorted(ballots.items()):
        for candidate, voters in by_candidate.items():
            for v in voters:
                rows[v].setdefault("voting", {}).setdefault(f"round_{day - 1}", []).append(candidate - 1)
    for (day, by), i in nominated.items():
        rows[by].setdefault("nominating", {})[f"round_{day - 1}"] = g.events[i]["target"] - 1
    for i, e in enumerate(g.events):
        if e["type"] == "shooting":
            for shooter, t in sorted(g.shots(i).items()):
                rows[shooter].setdefault("shooting", {})[f"round_{e['night'] - 1}"] = t - 1
        elif e["type"] == "check":
            rows[e["target"]]["checked_by_don" if e["by"] == "don" else "checked_by_srf"] = e["night"] - 1
        elif e["type"] == "foul":
            rows[e["seat"]]["warnings"] = rows[e["seat"]].get("warnings", 0) + 1
    for row in rows.values():
        for rnd, ballot in (row.get("voting") or {}).items():
            row["voting"][rnd] = ballot[0] if len(ballot) == 1 else ballot
    for left in g.eliminations:
        seat, cause = left["seat"], left["cause"]
        row = rows[seat]
        row["death_round"] = (left.get("day") or left.get("night")) - 1
        row["death_type"] = {"vote": "day", "lift": "day", "shot": "night"}.get(cause) or _removal_kind(g, seat)
    out: dict[str, Any] = {}
    game = g.data.get("game") or {}
    if game.get("id") is not None:
        out["id"] = game["id"]
    start = _midnight(game.get("date"))
    if start is not None:
        out["start_time"] = start
    result = _result(g)
    if result is not None:
        out["winner"] = {v: k for k, v in MAFIARATINGS_WINNERS.items()}[result]
    for p in g.data["players"]:
        if p.get("x_best_move") and not isinstance(p["x_best_move"], dict | list):
            rows[p["seat"]]["best_move"] = p["x_best_move"]  # the file's own flag, read back as x_best_move
    out["players"] = [{k: v for k, v in rows[s].items() if v is not None} for s in SEATS]
    return _read_back(g, out)


def _mafiaratings_events(g: _Played) -> None:
    """Events mafiaratings has no field for, or holds only once a player, a day or a night."""
    checked: dict[tuple[int, str], int] = {}
    nominated: dict[tuple[int, int], int] = {}
    nominated: dict[tuple[int, int], int] = {}
    for i, e in enumerate(g.events):
        kind = e["type"]
        if kind == "fine":
            raise g.refuse(i, _("a mafiaratings file holds no fines"))
        if kind == "lift_vote":
            raise g.refuse(i, _("a mafiaratings file keeps each player's vote for a candidate and holds no vote on "
                                "lifting several players"))
        if kind == "withdrawal":
            raise g.refuse(i, _("a mafiaratings file keeps the day's nominations and cannot say one was withdrawn"))
        if kind == "best_move":
            raise g.refuse(i, _("a mafiaratings file keeps only that a best move was made, not whom it named"))
        if kind == "nomination":
            if (e["day"], e["by"]) in nominated:
                raise g.refuse(i, _("a mafiaratings file holds one nomination per player a day, and seat {seat} "
                                    "already nominated on day {day}", seat=e["by"], day=e["day"]))
            nominated[(e["day"], e["by"])] = i
        if kind == "check":
            if (e["target"], e["by"]) in checked:
                night = checked[(e["target"], e["by"])]
                raise g.refuse(i, _("a mafiaratings file holds one Don's check of each player, and seat {seat} was "
                                    "checked on night {night}", seat=e["target"], night=night) if e["by"] == "don" else
                               _("a mafiaratings file holds one Sheriff's check of each player, and seat {seat} was "
                                 "checked on night {night}", seat=e["target"], night=night))
            checked[(e["target"], e["by"])] = e["night"]
        if kind == "shooting" and any(t is None for t in g.shots(i).values()):
            raise g.refuse(i, _("a mafiaratings file holds a shot only at a seat, and the protocol has a shooter who "
                                "shot at no one"))
        if kind == "removal":
            _removal_at_day_start(g, i)


def _removal_at_day_start(g: _Played, i: int) -> None:
    """mafiaratings keeps only a removal's day and the importer reads it at that day's start: a removal after the
    day's nominations or votes, or at night, would read back earlier than it happened."""
    seat = g.events[i]["seat"]
    day_started = None
    for j in range(i - 1, -1, -1):
        e = g.events[j]
        if e["type"] == "phase":
            if e["phase"] == "night":
                raise g.refuse(i, _("a mafiaratings file keeps only the day of a removal, and this one happened at night"))
            if e["phase"] == "day":
                day_started = j
                break
        if e["type"] in ("nomination", "vote", "shooting", "check"):
            raise g.refuse(i, _("a mafiaratings file keeps only the day of a removal and reads it at the day's start, "
                                "and seat {seat} was removed after the day's {what} began", seat=seat,
                                what=term("began", e["type"])))
    if day_started is None:
        raise g.refuse(i, _("a mafiaratings file keeps only the day of a removal, and this one comes before day 1"))


def _no_gaps(g: _Played, ballots: Mapping[tuple[int, int], Mapping[int, list[int]]]) -> None:
    """A mafiaratings player's votes of a day are a list, one per round: a round without his vote before a round
    with one cannot be written."""
    by_day: dict[int, list[tuple[int, Mapping[int, list[int]]]]] = {}
    for (day, rnd), by_candidate in sorted(ballots.items()):
        by_day.setdefault(day, []).append((rnd, by_candidate))
    for day, rounds in by_day.items():
        voted = [{v for vs in by_candidate.values() for v in vs} for _key, by_candidate in rounds]
        for k in range(len(rounds) - 1):
            later = set().union(*voted[k + 1:])
            gap = sorted(later - voted[k])
            if gap:
                i = g.rounds()[(day, rounds[k + 1][0])][0]
                raise g.refuse(i, _("seat {seat} votes in this round but not in round {round}, and a mafiaratings file "
                                    "lists a player's votes of the day one per round, without gaps", seat=gap[0],
                                    round=rounds[k][0]))


def _removal_kind(g: _Played, seat: int) -> str:
    for e in g.events:
        if e["type"] == "removal" and e["seat"] == seat:
            if isinstance(e.get("x_death_type"), str) and e["x_death_type"] in MAFIARATINGS_REMOVALS:
                return e["x_death_type"]
            if e.get("reason") in REMOVAL_KINDS:
                return REMOVAL_KINDS[e["reason"]]
            fouls = sum(1 for f in g.events[: g.events.index(e)] if f["type"] == "foul" and f["seat"] == seat)
            return "warning" if fouls >= 4 else "kick-out"
    return "kick-out"


def _midnight(date: Any) -> int | None:
    """A protocol date YYYY-MM-DD as mafiaratings' start_time (seconds since 1970, midnight UTC)."""
    try:
        day = datetime.strptime(str(date), "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        return None
    return int(day.timestamp())


def _result(g: _Played) -> str | None:
    announced = [e["winner"] for e in g.events if e["type"] == "result"]
    return announced[-1] if announced else None


# ---------------------------------------------------------------------------------------- what is held


def held(protocol: Mapping[str, Any], target: str) -> dict[str, Any]:
    """What a `target` game file holds of a (valid) protocol, in one comparable shape: a protocol and its export
    read back agree on exactly this. Votes are voter by voter (silent votes given to the last candidate included);
    the eliminations and the result are the engine's replay of the game."""
    g = _Played(protocol, target)
    game = g.data.get("game") or {}
    out: dict[str, Any] = {
        "players": [(p["seat"], p.get("nickname"), p.get("role")) for p in sorted(g.data["players"], key=lambda p: p["seat"])],
        "game id": None if game.get("id") is None else str(game["id"]),
        "result": _result(g),
        "eliminations": [(e["seat"], e["cause"], e.get("day"), e.get("night")) for e in g.eliminations],
        "checks": sorted((e["night"], e["by"], e["target"], e["result"]) for e in g.events if e["type"] == "check"),
    }
    ballots = g.ballots(refuse=False)
    shootings = [(e["night"], e["target"], tuple(sorted(g.shots(i).items())))
                 for i, e in enumerate(g.events) if e["type"] == "shooting"]
    if target == "polemica":
        out["date"] = None if game.get("date") is None else str(game["date"])
        out["votes"] = [(day, rnd, [(c, v) for c, v in by.items() if v]) for (day, rnd), by in sorted(ballots.items())]
        out["shootings"] = shootings
        out["fouls"] = sorted((e["seat"], g.day_of(i), e.get("reason") if isinstance(e.get("reason"), str)
                               else DEFAULT_FOUL[g.foul_kind(e)], g.foul_kind(e))
                              for i, e in enumerate(g.events) if e["type"] == "foul")
        out["best move"] = [(e["seat"], list(e["named"])) for e in g.events if e["type"] == "best_move"]
    else:
        out["date"] = None if _midnight(game.get("date")) is None else str(game["date"])
        out["votes"] = [(day, rnd, sorted(by.items())) for (day, rnd), by in sorted(ballots.items())]
        out["nominations"] = sorted((e["day"], e["by"], e["target"]) for e in g.events if e["type"] == "nomination")
        out["shootings"] = [(n, t, tuple((s, v) for s, v in shots if v is not None)) for n, t, shots in shootings]
        fouls: dict[int, int] = {}
        for e in g.events:
            if e["type"] == "foul":
                fouls[e["seat"]] = fouls.get(e["seat"], 0) + 1
        out["fouls"] = sorted(fouls.items())
        removed = {e["seat"] for e in g.events if e["type"] == "removal"}
        out["removals"] = [(e["seat"], g.day_of(i)) for i, e in enumerate(g.events) if e["type"] == "removal" or (
            e["type"] == "elimination" and e["cause"] == "removal" and e["seat"] not in removed)]  # read back as one
    return out


def _read_back(g: _Played, file: dict[str, Any]) -> dict[str, Any]:
    """The file, once our importer reads it back as a valid game that holds the same as the protocol."""
    name = g.name
    try:
        again = convert(g.target, file, g.data["rules"])
    except Exception as exc:  # the importer's own refusal of our file: say it, never hand the file out
        raise ExportRefused(_("The {format} file would not read back ({why}); it was not written.", format=name,
                              why=exc)) from exc
    problems = validate(again)
    if problems:
        raise ExportRefused(_("The {format} file would read back as a game that does not validate ({problem}); "
                              "it was not written.", format=name, problem=problems[0]))
    want, got = held(g.data, g.target), held(again, g.target)
    if want.get("best move") and not got.get("best move"):  # Polemica lays a best move out with day 2's votes
        i = next(j for j, e in enumerate(g.events) if e["type"] == "best_move")
        raise g.refuse(i, _("a Polemica file gives the best move with the next day's votes, and it holds none of them"))
    for part in want:
        if want[part] != got[part]:
            mine, theirs = (want[part], got[part]) if isinstance(want[part], list) else ([want[part]], [got[part]])
            first = next((a for a, b in zip(mine, theirs, strict=False) if a != b), mine[0] if mine else None)
            i = _event_of(g, part, first)
            if i is not None:  # an event the file cannot give back as it is: `club_file` ends the file before it
                raise g.refuse(i, _("a {format} file would read it back otherwise", format=name))
            raise ExportRefused(_("The {format} file would read back with other {part} than the protocol{where}; it was "
                                  "not written.", format=name, part=term("held", part), where=_where(part, first)))
    return file


def _event_of(g: _Played, part: str, item: Any) -> int | None:
    """The protocol event a held part first differs at, where one event holds it (a night's shooting or check, a
    day's first vote or nomination)."""
    if not isinstance(item, tuple) or not item:
        return None
    kinds = {"shootings": ("shooting",), "checks": ("check",), "votes": ("vote", "lift_vote"),
             "nominations": ("nomination",)}.get(part)
    key = "night" if part in ("shootings", "checks") else "day"
    return next((i for i, e in enumerate(g.events) if kinds and e["type"] in kinds and e.get(key) == item[0]), None)


def _where(part: str, item: Any) -> str:
    """Where a held part first differs, in words (" (day 2, round 1)")."""
    if not isinstance(item, tuple) or not item:
        return ""
    if part == "votes":
        return " " + _("(day {day}, round {round})", day=item[0], round=item[1])
    if part in ("shootings", "checks"):
        return " " + _("(night {night})", night=item[0])
    if part in ("eliminations", "fouls", "players", "removals", "best move"):
        return " " + _("(seat {seat})", seat=item[0])
    if part == "nominations":
        return " " + _("(day {day})", day=item[0])
    return ""


# ------------------------------------------------------------------------------------- what is left out


def left_out(protocol: Mapping[str, Any], target: str) -> list[str]:
    """What a `target` file never carries, present in this protocol, one phrase each (said beside the file)."""
    events = list(protocol.get("events") or [])
    game = protocol.get("game") or {}
    out = [_("the rule profile ({rules}): import the file back with --rules {rules}", rules=protocol.get("rules"))]
    timed = sum(1 for e in events if any(k in e for k in ("t", "cutoff", "announced", "end")))
    counts: list[tuple[int, str]] = [
        (timed, _("video times")),
        (sum(1 for e in events if e.get("note")), _("notes")),
        (sum(1 for e in events if e.get("clause")), _("clauses")),
        (sum(1 for e in events if e["type"] == "speech"), _("speeches")),
        (sum(1 for e in events if e["type"] == "elimination"), _("elimination events (the game's own rules give them)")),
    ]
    if target == "polemica":
        counts.append((sum(1 for e in events if e["type"] in ("nomination", "withdrawal")),
                       _("nominations (Polemica takes the candidates from the votes)")))
        counts.append((sum(1 for e in events if e["type"] == "vote" and e.get("count") == 0),
                       _("candidates nobody voted for (Polemica lists votes voter by voter)")))
    else:
        counts.append((sum(1 for e in events if e["type"] == "nomination"),
                       _("the order of nominations (mafiaratings reads them in speaking order)")))
        counts.append((sum(1 for e in events if e["type"] == "foul"),
                       _("the day and reason of each foul (mafiaratings keeps how many a player got)")))
        counts.append((sum(1 for e in events if e["type"] == "removal"), _("the reasons for removals")))
    phrases = [f"{what} ({n})" for n, what in counts if n]
    fields = [k for k in ("tournament", "table", "judge", "side_judge") if game.get(k)]
    if fields:
        phrases.append(_("the game's {fields}", fields=", ".join(term("game_field", f) for f in fields)))
    if protocol.get("video"):
        phrases.append(_("the video"))
    return out + phrases


EXPORTERS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {"polemica": to_polemica,
                                                                       "mafiaratings": to_mafiaratings}


def export_game(protocol: Mapping[str, Any], target: str) -> dict[str, Any]:
    """`to_polemica` or `to_mafiaratings` by name."""
    if target not in EXPORTERS:
        raise InvalidInput(_("unknown club format «{format}» (known: {known}).", format=target, known=", ".join(FORMATS)))
    return EXPORTERS[target](protocol)


# ------------------------------------------------------------------------------- what the judge is handed


@dataclass(frozen=True)
class ClubFile:
    """A club format's file of a game: the file, and what of the game it leaves out, in the judge's words."""

    target: str
    file: dict[str, Any]
    game: dict[str, Any]  # the protocol as the file holds it: what the file reads back as (`held`)
    dropped: list[str] = field(default_factory=list)  # this game's events the format cannot hold, each with why
    never: list[str] = field(default_factory=list)  # what the format never carries (`left_out`)

    @property
    def notes(self) -> list[str]:
        return [*self.dropped, *self.never]


def club_file(protocol: Mapping[str, Any], target: str) -> ClubFile:
    """The game as a `target` file holding all it can: each event the format cannot hold is left out (or, where
    the rest of the game would then read back otherwise, the game from it on), one phrase each in `dropped`. Still
    refuses (ExportRefused) a protocol that does not validate, and a mafiaratings file without every role."""
    if target not in EXPORTERS:
        raise InvalidInput(_("unknown club format «{format}» (known: {known}).", format=target, known=", ".join(FORMATS)))
    data = dict(protocol)
    _Played(data, target)  # an invalid game is refused as a whole, never cut to fit
    data, dropped = _without_idle_removals(data, target)
    for _attempt in range(2 * len(data.get("events") or []) + 2):  # each pass leaves out at least one event
        try:
            file = EXPORTERS[target](data)
        except ExportRefused as exc:
            if exc.index is None:
                raise
            data, said = _leave_out(data, target, exc.index, exc.why)
            dropped.append(said)
            continue
        return ClubFile(target, file, data, dropped, left_out(data, target))
    raise ExportRefused(_("The {format} file could not be made.", format=NAMES[target]))  # never expected


def _leave_out(data: dict[str, Any], target: str, i: int, why: str) -> tuple[dict[str, Any], str]:
    """The game without what event `i` holds that the format cannot, and that in words. An event the game goes on
    without is left out alone where the game still validates; else the game ends before it."""
    events = list(data["events"])
    e = events[i]
    what = event_words(e)
    kind = e["type"]
    mended: dict[str, Any] | None = None
    said = _("{event}: {why}", event=what, why=why)
    if kind in ("fine", "removal", "best_move", "check"):
        mended = {**data, "events": events[:i] + events[i + 1:]}
        if kind == "best_move" and target == "mafiaratings":  # the file keeps that a best move was made
            mended["players"] = [dict(p, x_best_move=True) if p["seat"] == e["seat"] and not p.get("x_best_move")
                                 else p for p in data["players"]]
    elif kind == "withdrawal":
        nominated = max((j for j in range(i) if events[j]["type"] == "nomination" and events[j]["day"] == e["day"]
                         and (events[j]["by"], events[j]["target"]) == (e["by"], e["target"])), default=None)
        gone = {i} if nominated is None else {i, nominated}
        mended = {**data, "events": [x for j, x in enumerate(events) if j not in gone]}
    elif kind == "shooting" and target == "mafiaratings" and isinstance(e.get("shots"), dict):
        shots = {k: v for k, v in e["shots"].items() if v is not None}
        mended = {**data, "events": [*events[:i], {**e, "shots": shots}, *events[i + 1:]]}
    elif kind in ("vote", "lift_vote") and target == "mafiaratings":
        mended = _without_day_votes(data, e["day"])
        said = _("the votes of day {day} ({event}: {why})", day=e["day"], event=what, why=why)
    if mended is not None and _same_course(data, mended):
        return mended, said
    start = _cut_point(events, i)
    return {**data, "events": events[:start]}, _("everything from {event} on: {why}", event=what, why=why)


def _same_course(data: Mapping[str, Any], mended: Mapping[str, Any]) -> bool:
    """Whether the game without what was left out is still valid, with the same departures and result."""
    if validate(dict(mended)):
        return False
    before, after = replay(dict(data)), replay(dict(mended))
    return (after.result == before.result and sorted((x["seat"], x["cause"], x.get("day"), x.get("night"))
                                                     for x in after.eliminations)
            == sorted((x["seat"], x["cause"], x.get("day"), x.get("night")) for x in before.eliminations))


def _without_idle_removals(data: dict[str, Any], target: str) -> tuple[dict[str, Any], list[str]]:
    """The game without the removals of players who leave by it all the same (a disqualifying foul of a player voted
    out in that round): neither format holds such a removal, and leaving it out first keeps it from standing in the
    way of what the file can hold (the votes of its day)."""
    dropped = []
    i = 0
    while i < len(data["events"]):
        e = data["events"][i]
        if e["type"] == "removal":
            mended = {**data, "events": data["events"][:i] + data["events"][i + 1:]}
            if _same_course(data, mended):
                dropped.append(_("{event}: the player leaves the game all the same, and a {format} file holds no "
                                 "removal of a player who leaves otherwise", event=event_words(e), format=NAMES[target]))
                data = mended
                continue
        i += 1
    return data, dropped


def _without_day_votes(data: dict[str, Any], day: int) -> dict[str, Any]:
    """The game without day `day`'s votes; who left by them is kept as elimination events, in seat order as the
    importer lays them out (the engine then takes them as facts of a day whose votes were not recorded)."""
    events = list(data["events"])
    left = sorted(x["seat"] for x in replay(data).eliminations if x["cause"] in ("vote", "lift") and x.get("day") == day)
    cause = "lift" if len(left) > 1 else "vote"
    votes = [j for j, e in enumerate(events) if e["type"] in ("vote", "lift_vote") and e["day"] == day]
    gone = {*votes, *(j for j, e in enumerate(events) if e["type"] == "elimination" and e["seat"] in left
                      and e.get("cause") in ("vote", "lift"))}
    at = votes[0] if votes else len(events)
    kept = [e for j, e in enumerate(events) if j not in gone and j < at]
    rest = [e for j, e in enumerate(events) if j not in gone and j >= at]
    return {**data, "events": [*kept, *({"type": "elimination", "seat": s, "cause": cause, "day": day} for s in left),
                               *rest]}


def _cut_point(events: list[dict[str, Any]], i: int) -> int:
    """Where the game must end for event `i` to be out of it: a day's voting goes whole (a vote, a lift vote, a
    departure by them), else the event itself."""
    e = events[i]
    day = e.get("day") if e["type"] in ("vote", "lift_vote") else None
    if e["type"] == "elimination" and e.get("cause") in ("vote", "lift"):
        day = e.get("day")
        if day is None:
            day = next((x["number"] for x in reversed(events[:i]) if x["type"] == "phase"
                        and x["phase"] in ("day", "voting")), None)
    if day is None:
        return i
    starts = [j for j, x in enumerate(events) if (x["type"] in ("vote", "lift_vote") and x.get("day") == day)
              or (x["type"] == "phase" and x["phase"] == "voting" and x["number"] == day)]
    return min([i, *starts])
