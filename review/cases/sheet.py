"""A protocol under entry from a paper sheet: a starting document plus the judge's entries, one per box.

Why a document plus entries: the judge types the sheet box by box (review.cases.sheet_entry reads each line); the
protocol is the starting document with every entry applied in turn, so undo is dropping the last entry, and the
entries are what the store keeps (review.cases.sheet_store), so a reload rebuilds exactly what was typed.

Each entry replaces the events its box owns (a round's votes, a night's shooting) and leaves every other event
where it was, so a protocol opened from a file keeps its times, speeches and notes; a vote retyped keeps its
times. Every entry is checked at once: the words a box could not read, and every format and rule problem of the
whole protocol (review.game: `validate`), each shown at the box whose event it names, with its clause. Nothing
is refused: a problem is shown, never a reason to drop what the judge typed.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from contract.errors import InvalidInput
from contract.i18n import _
from review.cases.sheet_entry import GAME_FIELDS, Context, Slot, parse, write, write_clock, write_role
from review.game.engine import Replay, replay
from review.game.gamestate import pos_of, stage_of
from review.game.profiles import get_profile
from review.game.protocol import FORMAT, format_problems

# The fields an entry sets, per event type: any other field of an event it replaces (times, note, reason,
# clause, x_ fields) is kept on the event that takes its place.
_ENTERED = {
    "vote": ("day", "round", "candidate", "count", "voters"),
    "lift_vote": ("day", "round", "candidates", "count", "voters"),
    "nomination": ("day", "by", "target"), "withdrawal": ("day", "by", "target"),
    "shooting": ("night", "target", "shots"),
    "check": ("night", "by", "target", "result"),
    "foul": ("seat",), "fine": ("seat", "points"), "removal": ("seat",),
    "elimination": ("seat", "cause", "day", "night"),
    "best_move": ("seat", "named"), "result": ("winner",),
}
_IDENTITY = {"vote": "candidate", "nomination": "target", "check": "by", "best_move": "seat", "elimination": "seat",
             "foul": "seat", "fine": "seat", "removal": "seat"}
_PATH = re.compile(r"^(events|players)\[(\d+)\](?:\.(\w+))?")


@dataclass(frozen=True)
class Entry:
    """One line typed into one box (`slot`: the box's key, such as `round.1.1`)."""

    slot: str
    text: str


@dataclass(frozen=True)
class SheetProblem:
    """A problem shown beside a box (`slot` "" for the sheet as a whole): an entry's unreadable words (no
    `path`), or a format or rule problem of the protocol with its JSON path and clause."""

    slot: str
    message: str
    clause: str | None = None
    path: str | None = None


def new_protocol(rules: str, nicknames: Mapping[int, str] | None = None) -> dict[str, Any]:
    """An empty sheet: the rule profile, ten seats (roles unknown), night 0."""
    get_profile(rules)  # an unknown profile is refused here, before anything is stored
    players = []
    for seat in range(1, 11):
        player: dict[str, Any] = {"seat": seat, "role": None}
        name = (nicknames or {}).get(seat)
        if name:
            player["nickname"] = name
        players.append(player)
    return {"format": FORMAT, "rules": rules, "players": players,
            "events": [{"type": "phase", "phase": "night", "number": 0}]}


def shape_problem(data: Any) -> str | None:
    """Why a protocol cannot be typed into (its events, players or game header are not lists and objects), in a
    judge's words with the place named as the protocol's problems name it (player 3: the third of its players), or
    None; every other problem is the sheet's to show."""
    if not isinstance(data, dict):
        return _("it holds no protocol")
    events, players = data.get("events", []), data.get("players", [])
    if not isinstance(events, list):
        return _("the course of the game in it is not written as a list of events")
    for n, item in enumerate(events, 1):
        if not isinstance(item, dict):
            return _("event {n} of the course of the game is not written as an event", n=n)
    if not isinstance(players, list):
        return _("its players are not written as a list of seats")
    for n, item in enumerate(players, 1):
        if not isinstance(item, dict):
            return _("player {n} in its list of players is not written as a player (seat, nickname, role)", n=n)
    if not isinstance(data.get("game", {}), dict):
        return _("its game header (number, tournament, date, table, judges) is not written as a header")
    return None


# ------------------------------------------------------------------------------------ events and boxes


def positions(events: Sequence[Mapping[str, Any]]) -> list[int]:
    """Each event's game time (review.game.gamestate.pos_of): its phase, moved on by a day or night it names."""
    out, pos = [], 0
    for e in events:
        kind = e.get("type")
        number = e.get("number") if kind == "phase" else e.get("night") if kind in ("shooting", "check") else e.get("day")
        if isinstance(number, int) and not isinstance(number, bool) and number >= 0:
            if kind == "phase" and e.get("phase") in ("night", "day", "voting") and (number or e["phase"] == "night"):
                pos = pos_of(e["phase"], number)
            elif kind in ("nomination", "withdrawal") and number:
                pos = max(pos, pos_of("day", number))
            elif kind in ("vote", "lift_vote") and number:
                pos = max(pos, pos_of("voting", number))
            elif kind in ("shooting", "check") and number:
                pos = max(pos, pos_of("night", number))
        out.append(pos)
    return out


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def owner(event: Mapping[str, Any], pos: int) -> str | None:
    """The key of the box that owns `event` (at game time `pos`): the box whose entry replaces it."""
    kind = event.get("type")
    stage, n = stage_of(pos)
    day, night = _int(event.get("day")), _int(event.get("night"))
    if kind in ("nomination", "withdrawal") and day:
        return Slot("nominations", day).key
    if kind == "vote" and day and _int(event.get("round")):
        return Slot("round", day, event["round"]).key
    if kind == "lift_vote" and day:
        return Slot("lift", day).key
    if kind == "shooting" and night:
        return Slot("shooting", night).key
    if kind == "check" and night and event.get("by") in ("don", "sheriff"):
        return Slot("check", night, extra=event["by"]).key
    if kind in ("foul", "fine", "removal") or (kind == "elimination" and event.get("cause") == "removal"):
        return Slot("penalties", n, extra=stage).key
    if kind == "elimination" and event.get("cause") in ("vote", "lift"):
        return Slot("eliminated", day or max(n, 1)).key
    if kind == "elimination" and event.get("cause") == "shot":
        return Slot("shooting", night or (n if stage == "night" else max(n - 1, 1))).key
    if kind in ("best_move", "result"):
        return kind
    return None


def shown_at(event: Mapping[str, Any], pos: int) -> str:
    """The box a problem about `event` is shown beside ("" for the sheet as a whole)."""
    return owner(event, pos) or ""


def _ensure_phases(events: list[dict[str, Any]], target: int) -> None:
    """Every phase from night 0 to `target` present, each where game time reaches it."""
    for q in range(target + 1):
        if any(e.get("type") == "phase" and p == q for e, p in zip(events, positions(events), strict=True)):
            continue
        pos = positions(events)
        at = next((i for i, (e, p) in enumerate(zip(events, pos, strict=True)) if p > q or e.get("type") == "result"),
                  len(events))
        stage, n = stage_of(q)
        events.insert(at, {"type": "phase", "phase": stage, "number": n})


def _insertion(events: list[dict[str, Any]], slot: Slot) -> int:
    """Where a box's first events go: after the box's phase and the boxes that come before it on the sheet."""
    if slot.section is None:  # the result closes the protocol
        return len(events)
    target = pos_of(*slot.section)
    _ensure_phases(events, target)
    pos = positions(events)
    start = next(i for i, (e, p) in enumerate(zip(events, pos, strict=True)) if e.get("type") == "phase" and p == target)
    at = start + 1
    for i in range(start + 1, len(events)):
        e = events[i]
        if e.get("type") == "result" or (e.get("type") == "phase" and pos[i] != target):
            break
        key = owner(e, pos[i])
        if key is not None and Slot.of(key).section == slot.section and Slot.of(key).rank <= slot.rank:
            at = i + 1
    return at


def _identities(events: Iterable[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    seen: dict[tuple[Any, ...], int] = {}
    out = []
    for e in events:
        base = (e.get("type"), e.get(_IDENTITY.get(str(e.get("type")), "type")))
        seen[base] = seen.get(base, 0) + 1
        out.append((*base, seen[base]))
    return out


def _keep_extras(old: Sequence[Mapping[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The new events, each with the fields the entry does not set (times, notes) of the old event it replaces."""
    before = dict(zip(_identities(old), old, strict=True))
    out = []
    for ident, e in zip(_identities(new), new, strict=True):
        was = before.get(ident)
        entered = _ENTERED.get(str(e.get("type")), ())
        kept = {k: v for k, v in (was or {}).items() if k not in entered and k not in e}
        out.append({"type": e["type"], **{k: v for k, v in e.items() if k != "type"}, **kept})
    return out


def replace_box(data: dict[str, Any], slot: Slot, new: list[dict[str, Any]]) -> None:
    """Put `new` in place of the events `slot` owns (where the first of them stood, else where the sheet has it)."""
    events: list[dict[str, Any]] = data.setdefault("events", [])
    pos = positions(events)
    owned = [i for i, e in enumerate(events) if owner(e, pos[i]) == slot.key]
    old = [events[i] for i in owned]
    for i in reversed(owned):
        del events[i]
    if not new:
        return
    at = owned[0] if owned else _insertion(events, slot)
    events[at:at] = _keep_extras(old, new)


def _voting_phase(events: Sequence[Mapping[str, Any]], day: int) -> Mapping[str, Any] | None:
    return next((e for e in events if isinstance(e, dict) and e.get("type") == "phase" and e.get("phase") == "voting"
                 and e.get("number") == day), None)


def _set_voting_time(data: dict[str, Any], day: int, seconds: float | None) -> None:
    """The day's voting phase timed at `seconds` of the video (the phase added where the sheet has none yet), or
    its time taken away."""
    events: list[dict[str, Any]] = data.setdefault("events", [])
    if seconds is not None:
        _ensure_phases(events, pos_of("voting", day))
    phase = _voting_phase(events, day)
    if isinstance(phase, dict):
        if seconds is None:
            phase.pop("t", None)
        else:
            phase["t"] = seconds


def box_events(data: Mapping[str, Any], key: str) -> list[dict[str, Any]]:
    events = list(data.get("events") or [])
    pos = positions(events)
    return [e for e, p in zip(events, pos, strict=True) if isinstance(e, dict) and owner(e, p) == key]


def _player(data: dict[str, Any], seat: int) -> dict[str, Any]:
    players = data.setdefault("players", [])
    found = next((p for p in players if isinstance(p, dict) and p.get("seat") == seat), None)
    if found is None:
        found = {"seat": seat, "role": None}
        players.append(found)
        players.sort(key=lambda p: p.get("seat") if isinstance(p, dict) and _int(p.get("seat")) else 99)
    return found


def tied(data: Mapping[str, Any], day: int) -> tuple[list[int], int]:
    """The seats tied at the top of day `day`'s last round, in voting order (a lift vote's candidates), and
    that round's number."""
    votes = [e for e in data.get("events") or [] if e.get("type") == "vote" and e.get("day") == day
             and _int(e.get("round")) and _int(e.get("count")) is not None]
    if not votes:
        return [], 0
    last = max(e["round"] for e in votes)
    counts = [(e["candidate"], e["count"]) for e in votes if e["round"] == last]
    top = max(c for _, c in counts)
    leaders = [s for s, c in counts if c == top]
    return (leaders if len(leaders) > 1 else []), last


def context(data: Mapping[str, Any], slot: Slot) -> Context:
    roles = {p["seat"]: p.get("role") for p in data.get("players") or [] if isinstance(p, dict) and _int(p.get("seat"))}
    victim = next((e.get("target") for e in data.get("events") or []
                   if e.get("type") == "shooting" and e.get("night") == 1), None)
    seats, last = tied(data, slot.number) if slot.kind == "lift" else ([], 0)
    return Context(roles=roles, night1_victim=victim, tied=seats, lift_round=last + 1)


def apply(data: dict[str, Any], entry: Entry) -> list[str]:
    """Apply one entry to the protocol (in place); the words of it that could not be read."""
    slot = Slot.of(entry.slot)
    parsed = parse(slot, entry.text, context(data, slot))
    if slot.kind == "game":
        game = data.setdefault("game", {})
        if parsed.value is None:
            game.pop(slot.extra, None)
        else:
            game[slot.extra] = parsed.value
    elif slot.kind == "rules":
        if parsed.value is not None:
            data["rules"] = parsed.value
    elif slot.kind == "nickname":
        player = _player(data, slot.number)
        if parsed.value is None:
            player.pop("nickname", None)
        else:
            player["nickname"] = parsed.value
    elif slot.kind == "role":
        if not parsed.problems:
            _player(data, slot.number)["role"] = parsed.value
    elif slot.kind == "video":
        pass  # the video to draft from is the sheet's, kept with its entries, not the protocol's (whose path is relative)
    elif slot.kind == "voting_at":
        if not parsed.problems:
            _set_voting_time(data, slot.number, parsed.value)
    else:
        replace_box(data, slot, parsed.events)
    return parsed.problems


# -------------------------------------------------------------------------------------------- the sheet


@dataclass
class Sheet:
    """A protocol under entry: the starting protocol (`base`) and the entries typed since, in order."""

    base: dict[str, Any]
    entries: list[Entry] = field(default_factory=list)

    def __post_init__(self) -> None:
        why = shape_problem(self.base)
        if why is not None:
            raise InvalidInput(_("This protocol cannot be copied into a sheet: {why}.", why=why))
        self.base = copy.deepcopy(self.base)
        self._rebuild(list(self.entries))

    def _rebuild(self, entries: list[Entry]) -> None:
        self.data: dict[str, Any] = copy.deepcopy(self.base)
        self.entries = []
        self._texts: dict[str, str] = {}
        self._unread: dict[str, list[str]] = {}
        for entry in entries:
            self._apply(entry)

    def _apply(self, entry: Entry) -> None:
        self._unread[entry.slot] = apply(self.data, entry)
        self._texts[entry.slot] = entry.text
        self.entries.append(entry)
        self.__dict__.pop("checked", None)

    # -- entering ------------------------------------------------------------------------------------
    def enter(self, slot: str, text: str) -> bool:
        """Type `text` into the box `slot`; False (nothing recorded) when the box already reads so.
        ValueError for a box no sheet has."""
        Slot.of(slot)
        text = text.strip()
        if text == self.text(slot):
            return False
        self._apply(Entry(slot, text))
        return True

    def undo(self) -> Entry | None:
        """Take back the last entry (the protocol as it was before it); None when there is nothing to undo."""
        if not self.entries:
            return None
        last = self.entries[-1]
        self._rebuild(self.entries[:-1])
        return last

    def text(self, slot: str) -> str:
        """What the box reads: the last line typed into it, else the line its events give."""
        if slot in self._texts:
            return self._texts[slot]
        box = Slot.of(slot)
        if box.kind == "game":
            game = self.data.get("game")
            value = game.get(box.extra) if isinstance(game, dict) else None
            return "" if value is None else str(value)
        if box.kind == "rules":
            return str(self.data.get("rules") or "")
        if box.kind == "video":
            return ""  # never typed into: the protocol's own video is another file's business
        if box.kind in ("nickname", "role"):
            player = next((p for p in self.data.get("players") or []
                           if isinstance(p, dict) and p.get("seat") == box.number), {})
            if box.kind == "role":
                role = player.get("role")
                return write_role(role) if isinstance(role, str) else ""
            name = player.get("nickname")
            return name if isinstance(name, str) else ""
        if box.kind == "voting_at":
            at = (_voting_phase(self.data.get("events") or [], box.number) or {}).get("t")
            return write_clock(at) if isinstance(at, int | float) and not isinstance(at, bool) else ""
        return write(box, box_events(self.data, slot))

    def protocol(self) -> dict[str, Any]:
        """The protocol as entered so far (a copy)."""
        return copy.deepcopy(self.data)

    # -- checking ------------------------------------------------------------------------------------
    @cached_property
    def checked(self) -> tuple[list[SheetProblem], Replay | None]:
        """Every problem of the sheet now, and the replay (None while the format is broken)."""
        problems = [SheetProblem(slot, message) for slot, words in self._unread.items() for message in words]
        broken = format_problems(self.data)
        run = None if broken else replay(self.data)
        events = self.data.get("events") if isinstance(self.data.get("events"), list) else []
        pos = positions([e if isinstance(e, dict) else {} for e in events])
        for p in broken or (run.problems if run else []):
            problems.append(SheetProblem(self._box_of(p.path, events, pos), p.message, p.clause, p.path))
        return problems, run

    def _box_of(self, path: str, events: list[Any], pos: list[int]) -> str:
        m = _PATH.match(path or "")
        if m is None:
            head = (path or "").split(".")[0]
            return "rules" if head == "rules" else Slot("game", extra=path.split(".")[1]).key \
                if head == "game" and path.count(".") == 1 and path.split(".")[1] in GAME_FIELDS else ""
        index = int(m.group(2))
        if m.group(1) == "players":
            players = self.data.get("players") or []
            player = players[index] if index < len(players) and isinstance(players[index], dict) else {}
            seat = _int(player.get("seat"))
            if seat is None or not 1 <= seat <= 10:
                return ""
            return Slot("role" if m.group(3) == "role" else "nickname", seat).key
        if index >= len(events) or not isinstance(events[index], dict):
            return ""
        return shown_at(events[index], pos[index])

    def box_at(self, path: str) -> str:
        """The key of the box a JSON path of the protocol (`events[6].count`) is shown at ("" for none)."""
        events = self.data.get("events") if isinstance(self.data.get("events"), list) else []
        return self._box_of(path, events, positions(events))

    def problems(self, slot: str | None = None) -> list[SheetProblem]:
        """Every problem now (`slot`: only those shown beside that box)."""
        found = self.checked[0]
        return found if slot is None else [p for p in found if p.slot == slot]

    @property
    def complete(self) -> bool:
        """The game is entered to its result and the protocol validates (stopframe-protocol/1, its rules)."""
        return any(e.get("type") == "result" for e in self.data.get("events") or []) and not self.problems()

    # -- the layout of the sheet ---------------------------------------------------------------------
    def days(self) -> int:
        """How many days (and nights after them) the sheet shows: those entered, and the next one while the
        game has no result."""
        events = [e for e in self.data.get("events") or [] if isinstance(e, dict)]
        last = max(positions(events), default=0)
        stage, n = stage_of(last)
        days = max(1, n + 1 if stage == "night" else n)
        over = any(e.get("type") == "result" for e in events)
        if not over and stage == "night" and n >= 1 and box_events(self.data, Slot("shooting", n).key):
            days = max(days, n + 1)
        return days

    def nights(self) -> list[int]:
        """The nights the sheet shows: one after each day shown, none after the day the game ended on."""
        events = [e for e in self.data.get("events") or [] if isinstance(e, dict)]
        pos = positions(events)
        ended = next((p for e, p in zip(events, pos, strict=True) if e.get("type") == "result"), None)
        shown = list(range(1, self.days() + 1))
        if ended is not None and stage_of(ended)[0] != "night":
            day = stage_of(ended)[1]
            shown = [n for n in shown if n < day or box_events(self.data, Slot("shooting", n).key)]
        return shown

    def rounds(self, day: int) -> list[int]:
        """The vote rounds the sheet shows for `day`: those entered, and the revote a tie calls for."""
        entered = sorted({e["round"] for e in self.data.get("events") or [] if e.get("type") == "vote"
                          and e.get("day") == day and _int(e.get("round"))} | {
            Slot.of(s).round for s in self._texts if s.startswith(f"round.{day}.")})
        shown = entered or [1]
        if self._next_after(day) == "revote":
            shown.append(shown[-1] + 1)
        return shown

    def lift_due(self, day: int) -> bool:
        """Whether the sheet shows day `day`'s lift vote: entered, or called for by a repeated tie."""
        return bool(box_events(self.data, Slot("lift", day).key)) or Slot("lift", day).key in self._texts \
            or self._next_after(day) == "lift"

    def _next_after(self, day: int) -> str | None:
        run = self.checked[1]
        if run is None:
            return None
        events = self.data.get("events") or []
        last = [(i, o) for i, o in run.outcomes.items() if events[i].get("day") == day]
        return max(last, key=lambda item: item[0])[1].next if last else None
