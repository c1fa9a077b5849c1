"""The state of a game being replayed: who sits at the table, how each day's voting stands, game time.

Plain mutable dataclasses with a cheap `copy()`, so the engine's `step` can stay a pure function
(it changes a copy, never the state it was given).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from contract.fields import is_int
from review.game.voting import Outcome, VoteContext

BLACK_ROLES = frozenset({"mafia", "don"})
SEATS = tuple(range(1, 11))


def pos_of(stage: str, number: int) -> int:
    """Game time as one integer: night n = 3n, day d = 3d-2, voting d = 3d-1."""
    return {"night": 3 * number, "day": 3 * number - 2, "voting": 3 * number - 1}[stage]


def stage_of(pos: int) -> tuple[str, int]:
    kind = pos % 3
    if kind == 0:
        return "night", pos // 3
    if kind == 1:
        return "day", (pos + 2) // 3
    return "voting", (pos + 1) // 3


def _shallow(obj: Any) -> Any:
    """A shallow copy of a plain dataclass instance (dataclasses.replace is ten times slower)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


@dataclass
class Poll:
    """The voting of one day: the round being voted, what comes next, and how it ended."""

    day: int
    status: str  # open | done | cancelled | none | unrecorded | unfinished
    expect: str | None = None  # "vote" | "lift" while open
    round: int = 0
    candidates: tuple[int, ...] = ()
    living: tuple[int, ...] = ()
    counts: dict[int, int] = field(default_factory=dict)
    events: dict[int, int] = field(default_factory=dict)  # candidate -> event index
    voters: dict[int, list[int] | None] = field(default_factory=dict)
    recorded: bool = False  # any vote event seen this day
    removal_in_round: bool = False
    why: str = ""  # why no vote is held (status none / cancelled), with its clause
    clause: str | None = None
    outcome: Outcome | None = None

    def copy(self) -> Poll:
        new = _shallow(self)
        new.counts, new.events = dict(self.counts), dict(self.events)
        new.voters = {c: (list(v) if v is not None else None) for c, v in self.voters.items()}
        return new


@dataclass
class GameState:
    """Where the game stands after some events. Seats are 1..10; `out` maps a seat to how it left."""

    roles: dict[int, str | None]
    implied: dict[int, tuple[int, ...]] = field(default_factory=dict)  # day -> candidates seen in votes, where
    # the protocol records no nominations for that day (an import from a system that keeps only votes)
    pos: int = 0  # see _pos: starts at night 0
    at_table: set[int] = field(default_factory=lambda: set(SEATS))
    out: dict[int, dict[str, Any]] = field(default_factory=dict)
    eliminations: list[dict[str, Any]] = field(default_factory=list)
    confirmed: set[int] = field(default_factory=set)  # indexes into eliminations matched by elimination events
    fouls: dict[int, int] = field(default_factory=dict)
    fines: dict[int, float] = field(default_factory=dict)
    lost_speech: dict[int, int] = field(default_factory=dict)  # seat -> the day whose speech he has lost
    spoke: set[int] = field(default_factory=set)  # seats with a day speech recorded today
    pending_removal: dict[int, int] = field(default_factory=dict)  # seat -> index of his 4th foul
    nominations: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # day -> [(by, target)] standing
    nominated_by: dict[int, set[int]] = field(default_factory=dict)  # day -> seats who nominated that day
    nominations_recorded: bool = True  # False: the protocol has no nomination events at all
    speaker: int | None = None  # who is speaking now, as far as the events tell
    closer: dict[int, int] = field(default_factory=dict)  # day -> the seat closing the circle (rfm 4.3.2)
    opener: dict[int, int] = field(default_factory=dict)
    poll: Poll | None = None
    polls: dict[int, str] = field(default_factory=dict)  # day -> how its voting ended
    cancel_today: bool = False  # rfm: this day's vote is cancelled by a removal
    cancel_pending: int = 0  # mafclub: votes still to cancel (3.12.4)
    versions_ban: bool = False  # rfm 4.4.16 exception 1
    day_left: list[int] = field(default_factory=list)
    day_voted_out: list[int] = field(default_factory=list)
    night_left: list[int] = field(default_factory=list)
    day_closed: bool = False
    shootings: dict[int, int | None] = field(default_factory=dict)  # night -> victim (None: miss)
    checks: set[tuple[int, str]] = field(default_factory=set)
    best_moves: int = 0
    day1_vote_leavers: int = 0
    streak: int = 0  # quiet nights (rfm), quiet night+day pairs (mafclub) or misses (showtime)
    incomplete: bool = False  # some fact the result depends on is not in the protocol
    result: str | None = None
    result_clause: str | None = None
    result_why: str | None = None  # the result in words: which fact of the game gives it
    notes: tuple[Any, ...] = ()  # Problem-shaped remarks that are no problem (a concession accepted, …)
    over_at: int | None = None  # game time (see _pos) when the result was derived
    announced_result: str | None = None
    contexts: dict[int, VoteContext] = field(default_factory=dict)
    outcomes: dict[int, Outcome] = field(default_factory=dict)  # index of the deciding event -> outcome

    @property
    def stage(self) -> str:
        return "over" if self.result is not None else stage_of(self.pos)[0]

    @property
    def number(self) -> int:
        return stage_of(self.pos)[1]

    @property
    def roles_known(self) -> bool:
        return all(self.roles.get(s) is not None for s in SEATS)

    def copy(self) -> GameState:
        """A copy whose containers are new; frozen values (contexts, outcomes, records) are shared."""
        new = _shallow(self)
        for name in ("at_table", "confirmed", "spoke", "checks"):
            setattr(new, name, set(getattr(self, name)))
        for name in ("fouls", "fines", "lost_speech", "pending_removal", "polls", "shootings", "closer", "opener", "contexts", "outcomes"):
            setattr(new, name, dict(getattr(self, name)))
        for name in ("eliminations", "day_left", "day_voted_out", "night_left"):
            setattr(new, name, list(getattr(self, name)))
        new.out = {seat: dict(how) for seat, how in self.out.items()}
        new.nominations = {day: list(pairs) for day, pairs in self.nominations.items()}
        new.nominated_by = {day: set(seats) for day, seats in self.nominated_by.items()}
        new.poll = self.poll.copy() if self.poll is not None else None
        return new

    def is_black(self, seat: int) -> bool | None:
        role = self.roles.get(seat)
        return None if role is None else role in BLACK_ROLES


def initial_state(data: dict[str, Any]) -> GameState:
    """The table before the first event: everyone seated, night 0."""
    roles: dict[int, str | None] = dict.fromkeys(SEATS)
    for player in data.get("players") or []:
        if isinstance(player, dict) and is_int(player.get("seat")) and player["seat"] in roles:
            role = player.get("role")
            roles[player["seat"]] = role if isinstance(role, str) else None
    events = [sane(e) for e in data.get("events") or []]
    nominated_days = {e.get("day") for e in events if e.get("type") in ("nomination", "withdrawal")}
    implied: dict[int, tuple[int, ...]] = {}
    for e in events:
        day = e.get("day")
        if e.get("type") == "vote" and e.get("round") == 1 and day not in nominated_days and isinstance(day, int):
            seen = implied.get(day, ())
            if e.get("candidate") in SEATS and e["candidate"] not in seen:
                implied[day] = (*seen, e["candidate"])
    return GameState(roles=roles, implied=implied, nominations_recorded=bool(nominated_days))


def sane(event: Any) -> dict[str, Any]:
    """The event with every field of the wrong type left out, so a malformed protocol (which `validate`
    reports as format problems first) can never crash the replay."""
    if not isinstance(event, dict):
        return {}
    clean: dict[str, Any] = {}
    for key, value in event.items():
        if key in ("seat", "candidate") or (key in ("by", "target") and is_int(value)):
            ok = is_int(value) and 1 <= value <= 10
        elif key == "target":
            ok = value is None
        elif key in ("day", "round", "night", "number", "count"):
            ok = is_int(value)
        elif key in ("voters", "candidates", "named"):
            ok = isinstance(value, list) and all(is_int(v) for v in value)
        elif key == "shots":
            ok = isinstance(value, dict) and all(is_int(v) for v in value.values())
        elif key == "points":
            ok = isinstance(value, int | float) and not isinstance(value, bool)
        else:
            ok = isinstance(value, str)
        if ok:
            clean[key] = value
    return clean
