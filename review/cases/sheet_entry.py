"""The compact keyboard entry of a paper protocol sheet: one line of text per box of the sheet, read as the pen
moves down it, and the same line written back from a protocol's events.

Why one line per box: a judge copying a paper sheet types «2:6 5:3 9:8» for the day's nominations, «6:5 3:1 8:4»
for a vote round, «10» for the night's kill, and moves on with Tab. A token that cannot be read is reported with
its words and skipped; the rest of the line still counts, so no entry is ever refused (docs/app.md, Protocol sheet).

Each box is a `Slot`; its key (`round.1.2`, `shooting.1`) is what the store keeps beside the text typed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from contract.i18n import _, language, term
from review.game.profiles import PROFILES

BLACK = ("mafia", "don")
GAME_FIELDS = ("id", "tournament", "date", "table", "judge", "side_judge")
RESULTS = ("red", "black", "draw")
ROLES = ("civilian", "sheriff", "mafia", "don")
# What a judge may type for a role or a result, in either language (lower case); the first of each is what the
# sheet writes back in that language (through the catalogue's terms "sheet_role" / "sheet_result").
_ROLE_WORDS = {
    "civilian": ("к", "c", "кр", "красный", "мирный", "мир", "civ", "civilian", "r", "red"),
    "sheriff": ("ш", "s", "шер", "шериф", "sheriff", "srf"),
    "mafia": ("м", "m", "маф", "мафия", "mafia", "maf", "ч"),
    "don": ("д", "d", "дон", "don"),
}
_RESULT_WORDS = {
    "red": ("к", "r", "красные", "красных", "мирные", "red", "civ"),
    "black": ("ч", "b", "чёрные", "черные", "чёрных", "черных", "мафия", "black", "maf"),
    "draw": ("н", "d", "ничья", "draw", "tie"),
}
_MISS = ("-", "0", "—", "промах", "miss", "x", "х")
_PAIR = re.compile(r"^(\d+)\s*(?::|>|→|-|=)\s*(\d+)$")
_TIMES = r"(?:@([\d.]*),([\d.]*),([\d.]*))?"  # a vote's t, cutoff, announced on the video (a draft accepted)
_VOTE = re.compile(r"^(\d+)\s*[:=]\s*(\d+)(?:/([\d,]*))?" + _TIMES + "$")
_LIFT = re.compile(r"^(\d+)(?:/([\d,]*))?" + _TIMES + "$")
_FINE = re.compile(r"^(\d+)\s*:\s*([-−]?\d+(?:[.,]\d+)?)$")
_CHECK = re.compile(r"^(\d+)\s*([+\-−]?)$")
_BEST = re.compile(r"^(?:(\d+)\s*:)?\s*(.*)$")
_CLOCK = re.compile(r"(?:(?:(\d+):)?(\d+):)?(\d+(?:\.\d*)?)")  # [[h:]m:]s[.f]


@dataclass(frozen=True)
class Slot:
    """One box of the sheet. `number` is the day, the night or the seat; `round` a vote round; `extra` the game
    field, the checker (don, sheriff) or the phase of a penalties box (day, voting, night)."""

    kind: str
    number: int = 0
    round: int = 0
    extra: str = ""

    @property
    def key(self) -> str:
        parts: list[Any] = [self.kind]
        if self.kind == "game":
            parts.append(self.extra)
        elif self.kind == "penalties":
            parts += [self.extra, self.number]
        elif self.kind not in ("rules", "best_move", "result", "video"):
            parts.append(self.number)
            if self.kind == "round":
                parts.append(self.round)
            if self.kind == "check":
                parts.append(self.extra)
        return ".".join(map(str, parts))

    @classmethod
    def of(cls, key: str) -> Slot:
        """The slot a key names; ValueError for a key no sheet has."""
        parts = key.split(".")
        kind, rest = parts[0], parts[1:]
        try:
            if kind in ("rules", "best_move", "result", "video") and not rest:
                return cls(kind)
            if kind == "game" and len(rest) == 1 and rest[0] in GAME_FIELDS:
                return cls(kind, extra=rest[0])
            if kind in ("nickname", "role") and len(rest) == 1 and 1 <= int(rest[0]) <= 10:
                return cls(kind, int(rest[0]))
            if kind in ("nominations", "lift", "eliminated", "shooting", "voting_at") and len(rest) == 1 \
                    and int(rest[0]) >= 1:
                return cls(kind, int(rest[0]))
            if kind == "round" and len(rest) == 2 and int(rest[0]) >= 1 and int(rest[1]) >= 1:
                return cls(kind, int(rest[0]), int(rest[1]))
            if kind == "check" and len(rest) == 2 and rest[1] in ("don", "sheriff") and int(rest[0]) >= 1:
                return cls(kind, int(rest[0]), extra=rest[1])
            if kind == "penalties" and len(rest) == 2 and rest[0] in ("day", "voting", "night") and int(rest[1]) >= 0:
                return cls(kind, int(rest[1]), extra=rest[0])
        except ValueError:
            pass
        raise ValueError(f"no sheet box is called {key!r}")

    @property
    def section(self) -> tuple[str, int] | None:
        """The phase of the game whose events this box holds (None: the players, the header, the result)."""
        if self.kind == "nominations":
            return "day", self.number
        if self.kind in ("round", "lift", "eliminated"):
            return "voting", self.number
        if self.kind in ("shooting", "check"):
            return "night", self.number
        if self.kind == "penalties":
            return self.extra, self.number
        if self.kind == "best_move":
            return "night", 1
        return None

    @property
    def rank(self) -> int:
        """Where this box's events stand inside their phase, as on the sheet (penalties of the day first, then
        the nominations; the rounds, the lift vote, who left, then penalties; the shooting, checks, best move)."""
        return {"nominations": 2, "round": 10 + self.round, "lift": 900, "eliminated": 950,
                "shooting": 0, "check": 1 if self.extra == "don" else 2, "best_move": 5,
                }.get(self.kind, 0 if self.extra == "day" else 990 if self.extra == "voting" else 3)


def box_name(key: str) -> str:
    """A box in words, as the judge finds it on the sheet («День 1, голосование, круг 2»)."""
    slot = Slot.of(key)
    n = slot.number
    names = {
        "game": lambda: term("sheet_game_field", slot.extra),
        "rules": lambda: _("the rule profile"),
        "nickname": lambda: _("seat {seat}, nickname", seat=n),
        "role": lambda: _("seat {seat}, role", seat=n),
        "nominations": lambda: _("day {day}, nominations", day=n),
        "round": lambda: _("day {day}, vote round {round}", day=n, round=slot.round),
        "lift": lambda: _("day {day}, lift vote", day=n),
        "eliminated": lambda: _("day {day}, left by the vote", day=n),
        "shooting": lambda: _("night {night}, shooting", night=n),
        "check": lambda: _("night {night}, Don's check", night=n) if slot.extra == "don"
        else _("night {night}, Sheriff's check", night=n),
        "penalties": lambda: {"day": _("day {day}, penalties", day=n), "voting": _("day {day}, penalties in the vote", day=n),
                              "night": _("night {night}, penalties", night=n)}[slot.extra],
        "best_move": lambda: _("the best move"),
        "result": lambda: _("the game's result"),
        "voting_at": lambda: _("day {day}, the vote's time on the video", day=n),
        "video": lambda: _("the game's video"),
    }
    return names[slot.kind]()


@dataclass
class Context:
    """What reading a box needs from the rest of the sheet: the roles, the night-1 kill, a day's tied seats."""

    roles: Mapping[int, str | None] = field(default_factory=dict)
    night1_victim: int | None = None
    tied: Sequence[int] = ()
    lift_round: int | None = None  # the round number of a lift vote: the one after the last round voted


@dataclass
class Parsed:
    """A box read: the events it gives (or the player/header value), and the words it could not read."""

    events: list[dict[str, Any]] = field(default_factory=list)
    value: Any = None
    problems: list[str] = field(default_factory=list)


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s;]+", text.strip()) if t]


def _seat(token: str, problems: list[str]) -> int | None:
    if token.isdigit() and 1 <= int(token) <= 10:
        return int(token)
    problems.append(_("«{token}» is not a seat number from 1 to 10", token=token[:20]))
    return None


def _seats(text: str, problems: list[str]) -> list[int]:
    out: list[int] = []
    for token in (t for t in re.split(r"[\s,;]+", text.strip()) if t):
        seat = _seat(token, problems)
        if seat is not None and seat in out:
            problems.append(_("seat {seat} is written twice", seat=seat))
        elif seat is not None:
            out.append(seat)
    return out


def parse(slot: Slot, text: str, ctx: Context) -> Parsed:
    """The events (or value) a box's text gives under `slot`, and the words that could not be read."""
    out = Parsed()
    reader = _READERS[slot.kind]
    reader(slot, text.strip(), ctx, out)
    return out


def _read_game(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    out.value = text or None


def _read_rules(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    if text in PROFILES:
        out.value = text
    else:
        out.problems.append(_("«{token}» is no rule profile (known: {known})", token=text[:20], known=", ".join(PROFILES)))


def _read_nickname(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    out.value = text or None


def _read_role(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    word = text.lower()
    if not word:
        out.value = None
        return
    role = next((r for r, words in _ROLE_WORDS.items() if word in words), None)
    if role is None:
        out.problems.append(_("«{token}» is no role: write {words}", token=text[:20], words=role_hint()))
    out.value = role


def role_hint() -> str:
    """The role letters of the current language, as the sheet box shows them."""
    return ", ".join(f"{term('sheet_role', r)} — {term('sheet_role_name', r)}" for r in ROLES)


def _read_nominations(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    for token in _tokens(text):
        withdrawn = token[:1] in ("-", "−")  # «Отзываю» (mafclub 2.3.9, showtime): -2:6
        m = _PAIR.match(token[1:] if withdrawn else token)
        if m is None:
            out.problems.append(_("«{token}» is not a nomination: write who:whom, such as 2:6 (-2:6 for a "
                                  "withdrawal)", token=token[:20]))
            continue
        by, target = _seat(m.group(1), out.problems), _seat(m.group(2), out.problems)
        if by is not None and target is not None:
            out.events.append({"type": "withdrawal" if withdrawn else "nomination", "day": slot.number, "by": by,
                               "target": target})


def _voters(text: str | None, problems: list[str]) -> list[int] | None:
    return None if text is None else _seats(text, problems)


def _timed(event: dict[str, Any], times: Sequence[str | None], problems: list[str]) -> None:
    """The video times written after `@` (`t,cutoff,announced`; any may be left empty) onto the vote event."""
    for name, text in zip(("t", "cutoff", "announced"), times, strict=True):
        if not text:
            continue
        try:
            event[name] = float(text)
        except ValueError:
            problems.append(_("«{token}» is not a time in seconds", token=text[:20]))


def _read_round(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    seen: set[int] = set()
    for token in _tokens(text):
        m = _VOTE.match(token)
        if m is None:
            out.problems.append(_("«{token}» is not a vote: write candidate:count, such as 6:5 (voters after a "
                                  "slash: 6:2/1,4)", token=token[:20]))
            continue
        candidate = _seat(m.group(1), out.problems)
        if candidate is None:
            continue
        if candidate in seen:
            out.problems.append(_("candidate {seat} is written twice", seat=candidate))
            continue
        seen.add(candidate)
        event: dict[str, Any] = {"type": "vote", "day": slot.number, "round": slot.round, "candidate": candidate,
                                 "count": int(m.group(2))}
        _add_vote(event, m.group(3), m.group(4, 5, 6), out)


def _add_vote(event: dict[str, Any], voters_text: str | None, times: Sequence[str | None], out: Parsed) -> None:
    """A vote or lift vote event with the voters and the times its line gives, any of them misread said so."""
    voters = _voters(voters_text, out.problems)
    if voters is not None:
        event["voters"] = voters
    _timed(event, times, out.problems)
    out.events.append(event)


def _read_lift(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    if not text:
        return
    m = _LIFT.match(text.replace(" ", ""))
    if m is None:
        out.problems.append(_("«{token}» is not a lift vote: write the number of hands for lifting, such as 5 "
                              "(voters after a slash: 5/1,2,4,7,8)", token=text[:20]))
        return
    if len(ctx.tied) < 2:
        out.problems.append(_("no tie to lift on day {day}: enter the rounds before the lift vote", day=slot.number))
        return
    event: dict[str, Any] = {"type": "lift_vote", "day": slot.number, "round": ctx.lift_round,
                             "candidates": list(ctx.tied), "count": int(m.group(1))}
    _add_vote(event, m.group(2), m.group(3, 4, 5), out)


def _read_eliminated(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    seats = _seats(text, out.problems)
    cause = "lift" if len(seats) > 1 else "vote"
    out.events.extend({"type": "elimination", "seat": s, "cause": cause, "day": slot.number} for s in seats)


def _read_shooting(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    if not text:
        return
    tokens = _tokens(text)
    if len(tokens) == 1 and tokens[0].lower() in _MISS:
        out.events.append({"type": "shooting", "night": slot.number, "target": None})
        return
    if len(tokens) == 1 and ":" not in tokens[0]:
        target = _seat(tokens[0], out.problems)
        if target is not None:
            out.events.append({"type": "shooting", "night": slot.number, "target": target})
        return
    shots: dict[str, int | None] = {}
    for token in tokens:
        shooter, _sep, aim = token.partition(":")
        who = _seat(shooter, out.problems) if _sep else None
        if not _sep:
            out.problems.append(_("«{token}» is not a shot: write shooter:target, such as 2:10 (or 2:- for no "
                                  "shot)", token=token[:20]))
            continue
        if who is None:
            continue
        shots[str(who)] = None if aim.lower() in _MISS else _seat(aim, out.problems)
    if shots:
        aims = set(shots.values())
        target = aims.pop() if len(aims) == 1 else None
        out.events.append({"type": "shooting", "night": slot.number, "target": target, "shots": shots})


def _read_check(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    if not text:
        return
    m = _CHECK.match(text.replace(" ", ""))
    if m is None:
        out.problems.append(_("«{token}» is not a check: write the seat checked, with + or − for the answer "
                              "(such as 4+)", token=text[:20]))
        return
    target = _seat(m.group(1), out.problems)
    if target is None:
        return
    found = {"+": True, "-": False, "−": False}.get(m.group(2))
    if found is None:
        role = ctx.roles.get(target)
        if role is None:
            out.problems.append(_("seat {seat}'s role is not on the sheet, so the answer is unknown: write {seat}+ "
                                  "or {seat}−", seat=target))
            return
        found = role == "sheriff" if slot.extra == "don" else role in BLACK
    answers = {"don": ("sheriff", "not_sheriff"), "sheriff": ("black", "red")}[slot.extra]
    result = answers[0] if found else answers[1]
    out.events.append({"type": "check", "night": slot.number, "by": slot.extra, "target": target, "result": result})


def _read_penalties(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    for token in _tokens(text):
        if token.endswith("!"):
            seat = _seat(token[:-1], out.problems)
            if seat is not None:
                out.events.append({"type": "removal", "seat": seat})
            continue
        m = _FINE.match(token)
        if m is not None:
            seat = _seat(m.group(1), out.problems)
            points = -abs(float(m.group(2).replace(",", ".").replace("−", "-")))
            if seat is not None and points < 0:
                out.events.append({"type": "fine", "seat": seat, "points": points})
            elif seat is not None:
                out.problems.append(_("«{token}» is a fine of no points", token=token[:20]))
            continue
        if token.isdigit():
            seat = _seat(token, out.problems)
            if seat is not None:
                out.events.append({"type": "foul", "seat": seat})
            continue
        out.problems.append(_("«{token}» is not a penalty: write 3 for a foul, 3:-0.5 for a fine, 3! for a "
                              "removal", token=token[:20]))


def _read_best_move(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    if not text:
        return
    m = _BEST.match(text)
    seat_text, named_text = (m.group(1), m.group(2)) if m else (None, text)
    seat = _seat(seat_text, out.problems) if seat_text else ctx.night1_victim
    if seat is None:
        if not seat_text:
            out.problems.append(_("whose best move? Nobody killed on night 1 is on the sheet: write 10: 2 9 3"))
        return
    named = _seats(named_text, out.problems)
    if len(named) > 3:
        out.problems.append(_("a best move names at most three seats, not {n}", n=len(named)))
        named = named[:3]
    out.events.append({"type": "best_move", "seat": seat, "named": named})


def _read_result(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    word = text.lower()
    if not word:
        return
    winner = next((r for r, words in _RESULT_WORDS.items() if word in words), None)
    if winner is None:
        out.problems.append(_("«{token}» is no result: write {words}", token=text[:20],
                              words=", ".join(term("sheet_result", r) for r in RESULTS)))
        return
    out.events.append({"type": "result", "winner": winner})


def _read_video(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    out.value = text or None


def _read_voting_at(slot: Slot, text: str, ctx: Context, out: Parsed) -> None:
    """The video time at which the day's voting begins («12:34», «1:02:03», «754», «12:34,5»): where the video
    does not begin with the game, or no night music tells the days apart, it tells the draft which day the heard
    votes are. Empty: no time."""
    if not text:
        return
    m = _CLOCK.fullmatch(text.replace(",", "."))
    if m is None or (m.group(2) and float(m.group(3)) >= 60) or (m.group(1) and int(m.group(2)) >= 60):
        out.problems.append(_("«{token}» is no time on the video (minutes:seconds, such as 12:34)", token=text[:20]))
        return
    hours, minutes, seconds = (float(g) if g else 0.0 for g in m.groups())
    out.value = round(hours * 3600 + minutes * 60 + seconds, 3)


def write_clock(seconds: float) -> str:
    """A video time as the judge types it: «12:34», «1:02:03», with a decimal part where it has one."""
    whole, part = divmod(round(seconds, 1), 1)
    h, rest = divmod(int(whole), 3600)
    text = f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"
    return text + (_number(round(part, 1))[1:] if part else "")


_READERS = {"game": _read_game, "rules": _read_rules, "nickname": _read_nickname, "role": _read_role,
            "nominations": _read_nominations, "round": _read_round, "lift": _read_lift,
            "eliminated": _read_eliminated, "shooting": _read_shooting, "check": _read_check,
            "penalties": _read_penalties, "best_move": _read_best_move, "result": _read_result,
            "voting_at": _read_voting_at, "video": _read_video}
KINDS = tuple(_READERS)


# -------------------------------------------------------------------------------------- written back


def _number(value: float) -> str:
    text = f"{value:g}"
    return text.replace(".", ",") if language() == "ru" else text


def _with_voters(head: str, event: Mapping[str, Any], timed: bool = False) -> str:
    voters = event.get("voters")
    text = head if not isinstance(voters, list) else head + "/" + ",".join(map(str, voters))
    if timed and any(isinstance(event.get(k), int | float) for k in ("t", "cutoff", "announced")):
        text += "@" + ",".join(f"{event[k]:g}" if isinstance(event.get(k), int | float) else ""
                               for k in ("t", "cutoff", "announced"))
    return text


def write(slot: Slot, events: Sequence[Mapping[str, Any]], *, timed: bool = False) -> str:
    """The box's line for its events, as a judge would type it (read back by `parse` into the same events); a
    vote's video times after `@` only when `timed` (a paper sheet has none, so the boxes show none)."""
    kind = slot.kind
    if kind == "nominations":
        return " ".join(f"{'-' if e.get('type') == 'withdrawal' else ''}{e.get('by')}:{e.get('target')}" for e in events)
    if kind == "round":
        return " ".join(_with_voters(f"{e.get('candidate')}:{e.get('count')}", e, timed) for e in events)
    if kind == "lift":
        return " ".join(_with_voters(str(e.get("count")), e, timed) for e in events)
    if kind == "eliminated":
        return " ".join(str(e.get("seat")) for e in events)
    if kind == "shooting":
        shots = [e for e in events if e.get("type") == "shooting"]
        if not shots:
            return ""
        e = shots[0]
        if isinstance(e.get("shots"), Mapping) and e["shots"]:
            return " ".join(f"{k}:{'-' if v is None else v}" for k, v in e["shots"].items())
        return "-" if e.get("target") is None else str(e["target"])
    if kind == "check":
        return " ".join(f"{e.get('target')}{'+' if e.get('result') in ('sheriff', 'black') else '-'}" for e in events)
    if kind == "penalties":
        parts = []
        for e in events:
            if e.get("type") == "foul":
                parts.append(str(e.get("seat")))
            elif e.get("type") == "fine":
                parts.append(f"{e.get('seat')}:{_number(e.get('points', 0))}")
            elif e.get("type") == "removal":
                parts.append(f"{e.get('seat')}!")
        return " ".join(parts)
    if kind == "best_move":
        return " ".join(f"{e.get('seat')}: " + " ".join(map(str, e.get("named") or [])) for e in events)
    if kind == "result":
        return " ".join(term("sheet_result", e.get("winner")) for e in events)
    return ""


_AT_TIMES = re.compile(r"@[\d.]*,[\d.]*,[\d.]*")


def as_shown(line: str) -> str:
    """A box's line as the sheet shows it: the video times an accepted draft carries after `@` are kept in the
    protocol, not read by the judge («6:6/1,2,4@3.147,4.7,5.55» reads «6:6/1,2,4»)."""
    return _AT_TIMES.sub("", line)


def with_times(slot: Slot, text: str, before: str) -> str:
    """A drafted proposal's line as the judge edited it before accepting (`text`, shown without video times) with
    the times of the proposal's own line (`before`) put back on each vote that has none: a round's by its
    candidate, a lift vote's as it is. Why: the edit box hides the times (`as_shown`), and the box has no event yet
    whose times a line typed over it would keep (the sheet keeps a retyped vote's times itself). Other boxes, and
    a line with no vote to time, as typed."""
    if slot.kind not in ("round", "lift"):
        return text
    times = {_vote_of(slot, t): m.group(0) for t in _vote_tokens(slot, before) if (m := _AT_TIMES.search(t))}
    tokens = _vote_tokens(slot, text)
    timed = [t if "@" in t or _vote_of(slot, t) not in times else t + times[_vote_of(slot, t)] for t in tokens]
    return " ".join(timed) if timed != tokens else text


def _vote_tokens(slot: Slot, line: str) -> list[str]:
    """A vote box's line as its votes: a round's tokens, a lift vote's one line."""
    if slot.kind == "round":
        return _tokens(line)
    return [line.replace(" ", "")] if line.strip() else []


def _vote_of(slot: Slot, token: str) -> str:
    """Which vote a token of a vote box is: a round's candidate (before `:`), the lift vote."""
    return re.split(r"[:=]", token)[0] if slot.kind == "round" else "lift"


def write_role(role: str | None) -> str:
    return "" if role is None else term("sheet_role", role)
