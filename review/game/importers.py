"""Turn another system's game file into a `stopframe-protocol/1` dict: Polemica and mafiaratings.

Both sources keep less than a paper protocol (no times, Polemica no nominations, mafiaratings no order of
nominations and only a number of warnings). The importers build the most faithful protocol they can,
put what the source has beyond the protocol into `x_` fields, and record every assumption they had to
make in `x_import.assumptions`, so a judge can see what came from the file and what was inferred.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from contract.errors import InvalidInput, UnreadableInput
from contract.i18n import _
from contract.jsonio import read_json
from review.game.club_shapes import MAFIARATINGS_ROLES, POLEMICA_RESULTS, detect_source
from review.game.protocol import FORMAT, RULE_PROFILES

SOURCES = ("polemica", "mafiaratings")
BLACK = ("mafia", "don")
POLEMICA_ROLES = ("don", "mafia", "civilian", "sheriff")  # Polemica's enum order DON, MAFIA, PEACE, SHERIFF
MAFIARATINGS_WINNERS = {"civ": "red", "maf": "black", "tie": "draw"}
MAFIARATINGS_REMOVALS = {"warning": "fourth warning", "kick-out": "removed by the judge", "suicide": "left the game"}
# Highest day or night number a source may name. Ten players cannot last this long under any profile; the bound
# keeps a typo or a hostile file (day 10**9) from making the importer lay out a billion empty days.
MAX_DAY = 99
MAX_WARNINGS = 10  # the fourth warning removes a player; a few more are tolerated as a source's quirk


class _SourceError(Exception):
    """A value in the source file that cannot be mapped; becomes InvalidInput naming the file."""


@dataclass
class _Game:
    """What both sources are reduced to before the protocol's events are laid out in game order."""

    source: str
    players: list[dict[str, Any]]
    roles: dict[int, str | None]
    nominations: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # day -> (by, target)
    votes: dict[int, list[dict[int, list[int]]]] = field(default_factory=dict)  # day -> rounds -> candidate -> voters
    shots: dict[int, dict[int, int | None]] = field(default_factory=dict)  # night -> shooter -> target
    checks: dict[int, list[tuple[str, int]]] = field(default_factory=dict)  # night -> (by, target)
    fouls: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # day -> foul events
    removals: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # day -> removal events
    deaths: dict[int, tuple[str, int]] | None = None  # seat -> ("day"|"night"|"removal", number); None: derive
    best_move: tuple[int, list[int]] | None = None
    winner: str | None = None
    game: dict[str, Any] = field(default_factory=dict)
    extras: dict[str, Any] = field(default_factory=dict)
    assumptions: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------------------------------ entry


def import_file(source: str, path: str | os.PathLike[str], rules: str = "rfm") -> dict[str, Any]:
    """Read a Polemica or mafiaratings game file and return the protocol dict.

    UnreadableInput when the file is not JSON or not a game of the named system; InvalidInput when it
    is one but holds a value that cannot be mapped (a role outside the enum, a seat 12, …)."""
    p = Path(path)
    if source not in SOURCES:
        raise UnreadableInput(_("{path}: unknown source system {source} (known: {known}).", path=p, source=repr(source),
                                known=", ".join(SOURCES)))
    data = read_json(p, f"{source} game file")
    if isinstance(data, dict) and isinstance(data.get("format"), str) and data["format"].startswith("stopframe-"):
        raise UnreadableInput(_("{path}: this is already a Stopframe file ({format}), not a {source} game.", path=p,
                                format=data["format"], source=source))
    if isinstance(data, dict) and isinstance(data.get("games"), list):
        if len(data["games"]) != 1:
            raise UnreadableInput(_("{path}: the file holds {n} games; import one game at a time.", path=p,
                                    n=len(data["games"])))
        data = data["games"][0]
    found = detect_source(data)
    if found is None:
        raise UnreadableInput(_(
            "{path}: not a Polemica or mafiaratings game: expected 'players' with 'position' (Polemica) "
            "or ten 'players' with roles civ/maf/srf/don (mafiaratings).", path=p,
        ))
    if found != source:
        raise UnreadableInput(_("{path}: this is a {found} game, not a {source} one; use 'stopframe import {found}'.",
                                path=p, found=found, source=source))
    try:
        return convert(source, data, rules)
    except _SourceError as exc:
        raise InvalidInput(f"{p}: {exc}") from exc


def convert(source: str, data: dict[str, Any], rules: str = "rfm") -> dict[str, Any]:
    """The protocol dict for an already parsed game of `source` (raises _SourceError on unmappable values)."""
    if rules not in RULE_PROFILES:
        raise InvalidInput(_("unknown rule profile {value} (known: {known}).", value=repr(rules),
                             known=", ".join(RULE_PROFILES)))
    if detect_source(data) != source:
        raise UnreadableInput(_("the data is not a {source} game.", source=source))
    game = _from_polemica(data) if source == "polemica" else _from_mafiaratings(data)
    return _assemble(game, rules)


# -------------------------------------------------------------------------------------------- helpers


def _int(value: Any, what: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        shown = repr(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        if high is not None:
            raise _SourceError(_("{what} must be a whole number {low}–{high}, not {value}.", what=what, low=low, high=high,
                                 value=shown))
        raise _SourceError(_("{what} must be a whole number {low} or more, not {value}.", what=what, low=low, value=shown))
    return value


def _rows(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    rows = data.get(key) or []
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise _SourceError(_("'{key}' must be a list of objects.", key=key))
    return rows


def _base(values: list[int], what: str, game: _Game) -> int:
    """1 when the source counts days/nights (`what`: "days" or "nights") from 0 (ours count from 1), else 0."""
    if values and min(values) == 0:
        game.assumptions.append(
            _("Days are numbered from 0 in the source; shifted by one (day 1 follows night 0).") if what == "days" else
            _("Nights are numbered from 0 in the source; shifted by one (day 1 follows night 0)."))
        return 1
    return 0


def _scalars(data: dict[str, Any], skip: set[str]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in skip and (v is None or isinstance(v, str | int | float))}


def _player(seat: int, nickname: Any, role: str | None, src: dict[str, Any], mapped: set[str]) -> dict[str, Any]:
    """A protocol player; the source's other plain fields (all but `mapped`) ride along as `x_` fields."""
    player: dict[str, Any] = {"seat": seat, "nickname": nickname, "role": role}
    player.update({f"x_{k}": v for k, v in _scalars(src, mapped).items()})
    return player


# ------------------------------------------------------------------------------------------------ Polemica


def _from_polemica(data: dict[str, Any]) -> _Game:
    """Polemica's game (players by position; votes, shots and checks as rows by day or night) as a _Game."""
    players, roles, fouls_by_seat, guess = _polemica_players(data["players"])
    game = _Game("polemica", sorted(players, key=lambda p: p["seat"]), roles)
    game.game = {k: str(v) for k, v in (("id", data.get("id")), ("date", data.get("date"))) if v is not None}
    game.extras = _scalars(data, {"id", "date", "result"})

    votes, shots, checks = _rows(data, "votes"), _rows(data, "shots"), _rows(data, "checks")
    day_base = _base([r.get("day") for r in votes if isinstance(r.get("day"), int)], "days", game)
    night_base = _base([r.get("night") for r in shots + checks if isinstance(r.get("night"), int)], "nights", game)
    _polemica_votes(game, votes, day_base)
    _polemica_nights(game, shots, checks, night_base)
    _polemica_fouls(game, fouls_by_seat, day_base)
    if guess is not None:
        game.best_move = guess
    result = data.get("result")
    if result is not None:
        if not isinstance(result, str) or result not in POLEMICA_RESULTS:
            raise _SourceError(_("'result' must be one of {known}, not {value}.", known=", ".join(POLEMICA_RESULTS),
                                 value=repr(result)))
        game.winner = POLEMICA_RESULTS[result]
    return game


_PolemicaPlayers = tuple[list[dict[str, Any]], dict[int, str | None], dict[int, list[tuple[Any, str]]],
                         tuple[int, list[int]] | None]


def _polemica_players(rows: list[Any]) -> _PolemicaPlayers:
    """The players, their roles, each seat's fouls (with their kind) and the best move, read from Polemica's
    player rows: Polemica keeps a player's fouls and guess inside the player, not as events of the game."""
    players, roles = [], {}
    fouls_by_seat: dict[int, list[tuple[Any, str]]] = {}
    guess: tuple[int, list[int]] | None = None
    seen: set[int] = set()
    for i, src in enumerate(rows):
        seat = _int(src.get("position"), f"players[{i}].position", 1, 10)
        if seat in seen:
            raise _SourceError(_("players[{i}].position: seat {seat} appears twice.", i=i, seat=seat))
        seen.add(seat)
        role_code = src.get("role")
        role = POLEMICA_ROLES[_int(role_code, f"players[{i}].role", 0, 3)] if role_code is not None else None
        roles[seat] = role
        players.append(_player(seat, src.get("username"), role, src, {"position", "username", "role"}))
        for key, label in (("fouls", "foul"), ("techs", "technical foul")):
            items = src.get(key) or []
            if not isinstance(items, list):
                raise _SourceError(_("players[{i}].{key} must be a list.", i=i, key=key))
            fouls_by_seat.setdefault(seat, []).extend((item, label) for item in items)
        if src.get("guess") is not None:
            named = src["guess"]
            if not isinstance(named, list):
                raise _SourceError(_("players[{i}].guess must be a list of seats.", i=i))
            guess = (seat, [_int(s, f"players[{i}].guess", 1, 10) for s in named])
    return players, roles, fouls_by_seat, guess


def _numbered(value: Any, what: str, base: int) -> int:
    """A Polemica day or night number as ours (shifted by `base` where the source counts from 0), kept in bounds."""
    return _int(value, what, 1 - base, MAX_DAY - base) + base


def _polemica_votes(game: _Game, votes: list[dict[str, Any]], day_base: int) -> None:
    """Polemica's one row per ballot gathered into each day's rounds of candidate -> voters."""
    rounds: dict[tuple[int, int], dict[int, list[int]]] = {}
    for i, row in enumerate(votes):
        day = _numbered(row.get("day"), f"votes[{i}].day", day_base)
        num = _int(row.get("num"), f"votes[{i}].num", 0)
        voter = _int(row.get("voter"), f"votes[{i}].voter", 1, 10)
        candidate = _int(row.get("candidate"), f"votes[{i}].candidate", 1, 10)
        rounds.setdefault((day, num), {}).setdefault(candidate, []).append(voter)
    for day, num in sorted(rounds):
        game.votes.setdefault(day, []).append({c: sorted(v) for c, v in rounds[(day, num)].items()})
    if rounds:
        game.assumptions.append(_("Polemica keeps no nominations: candidates are voted in the order they first "
                                  "appear in 'votes'; each candidate's count is the number of voters listed."))


def _polemica_nights(game: _Game, shots: list[dict[str, Any]], checks: list[dict[str, Any]], night_base: int) -> None:
    """Polemica's shot and check rows as each night's shooter -> target and (who checked, whom)."""
    for i, row in enumerate(shots):
        night = _numbered(row.get("night"), f"shots[{i}].night", night_base)
        shooter = _int(row.get("shooter"), f"shots[{i}].shooter", 1, 10)
        victim = row.get("victim")
        game.shots.setdefault(night, {})[shooter] = None if victim is None else _int(victim, f"shots[{i}].victim", 1, 10)
    for i, row in enumerate(checks):
        night = _numbered(row.get("night"), f"checks[{i}].night", night_base)
        code = row.get("role")
        if code not in (0, 3) or isinstance(code, bool):
            raise _SourceError(_("checks[{i}].role must be 0 (the Don's check) or 3 (the Sheriff's), not {value}.", i=i,
                                 value=repr(code)))
        by = "don" if code == 0 else "sheriff"
        game.checks.setdefault(night, []).append((by, _int(row.get("player"), f"checks[{i}].player", 1, 10)))


def _polemica_fouls(game: _Game, fouls_by_seat: dict[int, list[tuple[Any, str]]], day_base: int) -> None:
    """Each player's fouls and technical fouls as foul events on their day; one without a day opens day 1."""
    timed = False
    for seat, items in fouls_by_seat.items():
        for item, label in items:
            day = item.get("day") if isinstance(item, dict) else None
            reason = item.get("reason") if isinstance(item, dict) else None
            event: dict[str, Any] = {"type": "foul", "seat": seat, "reason": reason if isinstance(reason, str) else label}
            if label != "foul":
                event["x_polemica_kind"] = "tech"
            if isinstance(item, dict):
                event.update({f"x_{k}": v for k, v in item.items() if k not in ("day", "reason")})
            elif item is not None:
                event["x_source_value"] = item
            if isinstance(day, int) and not isinstance(day, bool) and 1 <= day + day_base <= MAX_DAY:
                game.fouls.setdefault(day + day_base, []).append(event)
            else:
                timed = True
                game.fouls.setdefault(1, []).append(event)
    if timed:
        game.assumptions.append(_("Fouls without a day are placed at the start of day 1."))


# -------------------------------------------------------------------------------------------- mafiaratings


def _round_map(value: Any, what: str) -> dict[int, Any]:
    """mafiaratings' {"round_N": value} (N from 0) as {N: value}."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _SourceError(_("{what} must be an object of round_N entries.", what=what))
    out = {}
    for key, v in value.items():
        if not (isinstance(key, str) and key.startswith("round_") and key[6:].isascii() and key[6:].isdecimal()
                and len(key) <= 9 and int(key[6:]) < MAX_DAY):
            raise _SourceError(_("{what} has the key {key}; expected round_0, round_1, … up to round_{last}.", what=what,
                                 key=repr(key[:20]), last=MAX_DAY - 1))
        out[int(key[6:])] = v
    return out


def _mr_seat(value: Any, what: str) -> int:
    """mafiaratings stores players by index 0–9; our seats are 1–10."""
    return _int(value, what, 0, 9) + 1


def _from_mafiaratings(data: dict[str, Any]) -> _Game:
    """A mafiaratings game (ten players by index, each with their own round_N actions and death) as a _Game."""
    deaths: dict[int, tuple[str, int]] = {}
    game = _Game("mafiaratings", [], {}, deaths=deaths)
    acts = _Actions()
    warnings: dict[int, int] = {}
    for i, src in enumerate(data["players"]):
        seat, where = i + 1, f"players[{i}]"
        role = MAFIARATINGS_ROLES[src["role"]]
        game.roles[seat] = role
        game.players.append(_player(seat, src.get("nick_name"), role, src, {
            "nick_name", "role", "death_round", "death_type", "warnings", "checked_by_don", "checked_by_srf"}))
        acts.read(src, where, seat)
        for key, by in (("checked_by_don", "don"), ("checked_by_srf", "sheriff")):
            if src.get(key) is not None:
                game.checks.setdefault(_int(src[key], f"{where}.{key}", 0, MAX_DAY - 1) + 1, []).append((by, seat))
        warnings[seat] = _int(src.get("warnings", 0), f"{where}.warnings", 0, MAX_WARNINGS)
        if src.get("death_round") is not None:
            deaths[seat] = _mr_death(game, src, where, seat)
    _mr_warnings(game, warnings)
    _mr_days_and_nights(game, acts)
    winner = data.get("winner")
    if winner is not None:
        if not isinstance(winner, str) or winner not in MAFIARATINGS_WINNERS:
            raise _SourceError(_("'winner' must be civ or maf, not {value}.", value=repr(winner)))
        game.winner = MAFIARATINGS_WINNERS[winner]
    for seat, src in enumerate(data["players"], start=1):
        if src.get("best_move") and deaths.get(seat) == ("night", 1):
            game.assumptions.append(_("Seat {seat} made the best move, but mafiaratings does not say whom they "
                                      "named: no best_move event (see players' x_best_move, x_mafs_guessed).", seat=seat))
    game.game = {"id": str(data["id"])} if data.get("id") is not None else {}
    if isinstance(data.get("start_time"), int) and not isinstance(data["start_time"], bool):
        try:
            game.game["date"] = datetime.fromtimestamp(data["start_time"], UTC).date().isoformat()
        except (OverflowError, OSError, ValueError):
            raise _SourceError(_("'start_time' {value} is not a time (seconds since 1970).",
                                 value=data["start_time"])) from None
    game.extras = _scalars(data, {"id", "winner", "players"})
    return game


@dataclass
class _Actions:
    """What mafiaratings keeps per player and round, gathered by day or night: it has no events of the game."""

    voting: dict[int, dict[int, list[int]]] = field(default_factory=dict)  # day -> voter -> candidates per round
    nominating: dict[int, dict[int, int]] = field(default_factory=dict)  # day -> nominator -> target
    shooting: dict[int, dict[int, int]] = field(default_factory=dict)  # night -> shooter -> target

    def read(self, src: dict[str, Any], where: str, seat: int) -> None:
        """The votes, nomination and shots of the player at `seat` (`where`: their JSON path), round by round."""
        for rnd, target in _round_map(src.get("voting"), f"{where}.voting").items():
            targets = [t for t in (target if isinstance(target, list) else [target]) if t is not None]
            self.voting.setdefault(rnd + 1, {})[seat] = [_mr_seat(t, f"{where}.voting.round_{rnd}") for t in targets]
        for rnd, target in _round_map(src.get("nominating"), f"{where}.nominating").items():
            self.nominating.setdefault(rnd + 1, {})[seat] = _mr_seat(target, f"{where}.nominating.round_{rnd}")
        for rnd, target in _round_map(src.get("shooting"), f"{where}.shooting").items():
            self.shooting.setdefault(rnd + 1, {})[seat] = _mr_seat(target, f"{where}.shooting.round_{rnd}")


def _mr_death(game: _Game, src: dict[str, Any], where: str, seat: int) -> tuple[str, int]:
    """How and when the player at `seat` left the game; a removal also becomes that day's removal event."""
    rnd = _int(src["death_round"], f"{where}.death_round", 0, MAX_DAY - 1) + 1
    kind = src.get("death_type")
    if kind in ("day", "night"):
        return kind, rnd
    if isinstance(kind, str) and kind in MAFIARATINGS_REMOVALS:
        game.removals.setdefault(rnd, []).append(
            {"type": "removal", "seat": seat, "reason": MAFIARATINGS_REMOVALS[kind], "x_death_type": kind})
        return "removal", rnd
    raise _SourceError(_("{where}.death_type must be day, night, warning, kick-out or suicide, not {value}.",
                         where=where, value=repr(kind)))


def _mr_warnings(game: _Game, warnings: dict[int, int]) -> None:
    """mafiaratings' count of each player's warnings as fouls: on day 1, a removal's last one on its day."""
    deaths = game.deaths or {}
    for seat, n in warnings.items():
        if not n:
            continue
        removed_on = deaths[seat][1] if deaths.get(seat, ("", 0))[0] == "removal" else None
        for k in range(n):
            day = removed_on if removed_on is not None and k == n - 1 else 1
            game.fouls.setdefault(day, []).append({"type": "foul", "seat": seat, "reason": "warning"})
    if any(warnings.values()):
        game.assumptions.append(_("mafiaratings keeps only the number of warnings: they are placed at the start of "
                                  "day 1 (a removal's last warning just before the removal)."))


def _mr_days_and_nights(game: _Game, acts: _Actions) -> None:
    """The gathered actions as the game's nominations (in speaking order), vote rounds, shots and checks."""
    deaths = game.deaths or {}
    for day, by_seat in acts.nominating.items():
        order = _speaking_order(day, deaths)
        game.nominations[day] = sorted(by_seat.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99)
    if acts.nominating:
        game.assumptions.append(_("mafiaratings keeps no order of nominations: they are placed in speaking order "
                                  "(day 1 opens with seat 1, each later day with the next seat; rfm 4.3.2)."))
    for day, by_voter in acts.voting.items():
        candidates = [t for _, t in game.nominations.get(day, [])]
        game.votes[day] = _rounds_from_ballots(by_voter, candidates)
    for night, by_shooter in acts.shooting.items():
        game.shots[night] = dict(by_shooter)
    for night in game.checks:
        game.checks[night].sort(key=lambda c: c[0] != "don")  # the Don checks before the Sheriff (rfm 4.5.7-8)


def _speaking_order(day: int, deaths: dict[int, tuple[str, int]]) -> list[int]:
    """Seats in the order they speak on `day`: rfm 4.3.2 (day 1 opens with seat 1, each next day with the
    next living seat after the previous day's opener). Used only where the source has no order."""

    def alive(seat: int, d: int) -> bool:
        kind, when = deaths.get(seat, ("", 99))
        return not ((kind == "night" and when < d) or (kind in ("day", "removal") and when < d))

    opener = 1
    for d in range(2, day + 1):
        nxt = opener % 10 + 1
        for _step in range(10):
            if alive(nxt, d):
                break
            nxt = nxt % 10 + 1
        opener = nxt
    return [(opener - 1 + k) % 10 + 1 for k in range(10) if alive((opener - 1 + k) % 10 + 1, day)]


def _rounds_from_ballots(by_voter: dict[int, list[int]], nominated: list[int]) -> list[dict[int, list[int]]]:
    """Per-voter ballots (one candidate per round) → rounds of candidate → voters.

    Round 1 is over the day's nominations; a revote is over the candidates tied at the top of the round before."""
    depth = max((len(b) for b in by_voter.values()), default=0)
    rounds: list[dict[int, list[int]]] = []
    candidates = list(nominated)
    for r in range(depth):
        counts: dict[int, list[int]] = {c: [] for c in candidates}
        for voter in sorted(by_voter):
            if r < len(by_voter[voter]):
                counts.setdefault(by_voter[voter][r], []).append(voter)
        rounds.append(counts)
        top = max((len(v) for v in counts.values()), default=0)
        candidates = [c for c, v in counts.items() if len(v) == top]
    return rounds


# ---------------------------------------------------------------------------------------------- assemble


def _assemble(game: _Game, rules: str) -> dict[str, Any]:
    """Lay out the events in game order: night 0, then day k (fouls, removals, nominations, votes) and night k."""
    events: list[dict[str, Any]] = [{"type": "phase", "phase": "night", "number": 0}]
    last_day, last_night = _last_phases(game)
    alive = {p["seat"] for p in game.players}
    dropped: list[dict[str, list[int]]] = []
    for day in range(1, last_day + 1):
        dropped.extend(_lay_out_day(game, day, alive, events))
        if day > last_night:
            break
        _lay_out_night(game, day, alive, events)
    if game.winner is not None:
        events.append({"type": "result", "winner": game.winner})
    return _protocol(game, rules, events, dropped)


def _last_phases(game: _Game) -> tuple[int, int]:
    """The last day and night to lay out: the last either source names, and no day without the night before it."""
    last_day = max([*game.votes, *game.nominations, *game.fouls, *game.removals,
                    *(n for k, n in (game.deaths or {}).values() if k != "night")], default=0)
    last_night = max([*game.shots, *game.checks, *(n for k, n in (game.deaths or {}).values() if k == "night")],
                     default=0)
    last_night = max(last_night, last_day - 1)
    return max(last_day, last_night), last_night


def _lay_out_day(game: _Game, day: int, alive: set[int], events: list[dict[str, Any]]) -> list[dict[str, list[int]]]:
    """Day `day`'s events appended to `events` and its voted-out seats taken from `alive`; returns the ballots
    dropped because day 1 had a single candidate (else none)."""
    events.append({"type": "phase", "phase": "day", "number": day})
    if day == 2 and game.best_move is not None:
        seat, named = game.best_move
        events.append({"type": "best_move", "seat": seat, "named": named})
    events.extend(game.fouls.get(day, []))
    for removal in game.removals.get(day, []):
        events.append(removal)
        events.append({"type": "elimination", "seat": removal["seat"], "cause": "removal", "day": day})
        alive.discard(removal["seat"])
    for by, target in game.nominations.get(day, []):
        events.append({"type": "nomination", "day": day, "by": by, "target": target})
    rounds = game.votes.get(day, [])
    dropped: list[dict[str, list[int]]] = []
    if day == 1 and rounds and len(rounds[0]) == 1:
        game.assumptions.append(_("Day 1 had a single candidate, so no vote was held (rfm 4.4.11, mafclub 2.4.3); "
                                  "the ballots the source recorded are in x_import.dropped_votes."))
        dropped = [{str(c): v for c, v in r.items()} for r in rounds]
        rounds = []
    if rounds:
        events.append({"type": "phase", "phase": "voting", "number": day})
    for number, counts in enumerate(rounds, start=1):
        for candidate, voters in counts.items():
            events.append({"type": "vote", "day": day, "round": number, "candidate": candidate,
                           "count": len(voters), "voters": voters})
    _vote_out(game, day, rounds, alive, events)
    return dropped


def _vote_out(game: _Game, day: int, rounds: list[dict[int, list[int]]], alive: set[int],
              events: list[dict[str, Any]]) -> None:
    """Who left by the day's vote: the source's day deaths as eliminations, or where it names none (Polemica)
    the sole leader of the last round, taken from `alive` without an event."""
    if game.deaths is None:
        if rounds:
            final = rounds[-1]
            top = max((len(v) for v in final.values()), default=0)
            leaders = [c for c, v in final.items() if len(v) == top]
            if top and len(leaders) == 1:
                alive.discard(leaders[0])
        return
    voted_out = sorted(s for s, (k, n) in game.deaths.items() if k == "day" and n == day)
    for seat in voted_out:
        events.append({"type": "elimination", "seat": seat, "cause": "lift" if len(voted_out) > 1 else "vote",
                       "day": day})
        alive.discard(seat)


def _lay_out_night(game: _Game, night: int, alive: set[int], events: list[dict[str, Any]]) -> None:
    """Night `night`'s shooting, checks and deaths appended to `events`; the killed taken from `alive`."""
    events.append({"type": "phase", "phase": "night", "number": night})
    shots = game.shots.get(night, {})
    shooters = sorted(s for s in alive if game.roles.get(s) in BLACK)
    chosen = {shots.get(s) for s in shooters}
    target = chosen.pop() if len(chosen) == 1 and shooters else None
    events.append({"type": "shooting", "night": night, "target": target,
                   "shots": {str(s): t for s, t in shots.items()}})
    for by, checked in game.checks.get(night, []):
        role = game.roles.get(checked)
        if by == "don":
            result = "sheriff" if role == "sheriff" else "not_sheriff"
        else:
            result = "black" if role in BLACK else "red"
        events.append({"type": "check", "night": night, "by": by, "target": checked, "result": result})
    if game.deaths is None:
        if target is not None:
            alive.discard(target)
        return
    for seat in sorted(s for s, (k, n) in game.deaths.items() if k == "night" and n == night):
        events.append({"type": "elimination", "seat": seat, "cause": "shot", "night": night})
        alive.discard(seat)


def _protocol(game: _Game, rules: str, events: list[dict[str, Any]],
              dropped: list[dict[str, list[int]]]) -> dict[str, Any]:
    """The protocol dict around the laid-out events, with what the import assumed and kept under x_import."""
    protocol: dict[str, Any] = {"format": FORMAT, "rules": rules}
    if game.game:
        protocol["game"] = game.game
    protocol["players"] = game.players
    protocol["events"] = events
    if game.votes:
        game.assumptions.append(_("A vote's 'voters' are every seat whose vote the source counted for that candidate, "
                                  "a silent player's vote given to the last candidate included."))
    protocol["x_import"] = {"source": game.source, "assumptions": game.assumptions,
                            "shooting_target": "the seat every living black shot, else a miss (null)"}
    if dropped:
        protocol["x_import"]["dropped_votes"] = dropped
    if game.extras:
        protocol["x_import"]["source_fields"] = game.extras
    return protocol
