"""The live table: the hands of every vote counted while the game is played, before the judge announces the count.

    table = LiveTable(protocol, seat_map, profile, fps=…)   # then: source.start(table.feed, table.source_ended,
                                                             #                    table.hear)
    table.name(candidate) · table.stop() · table.announce(count) · table.add(event) · table.state()
    table.nominate(by, target) · table.night() · table.shoot(seat or None) · table.foul(seat) · table.remove(seat)

Frames come from a live source (vision.live_source: a camera, or a file played at real speed) on its own thread;
`feed` only queues them, so the recording never waits for vision. One vision thread looks at the frames of each
voting round as the offline audit does (the round from its first candidate less the lead to its last count plus
the tail, one detector over the whole stretch, vision.observe.WindowWatch) and, a moment after each «Стоп», asks
the audit itself (review.audit.audit) about the round so far: so the counts shown at the table are the ones the
audit of the recording gives afterwards. Between rounds the vision thread only keeps the last seconds of frames,
since a round's stretch begins before its first candidate is named.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from contract.i18n import _
from contract.observations import Observations
from contract.seats import SeatMap
from pipeline.game import replay_game
from review.audit.audit import LATE_TAIL_S, audit
from review.audit.findings import AuditReport
from review.cases.exports import finding_said
from review.game.engine import Replay
from review.game.problems import REMOVAL_DUE
from review.game.profiles import Profile
from review.game.timeline import (
    WINDOW_LEAD_S,
    WINDOW_TAIL_S,
    VoteRound,
    label_words,
    vote_label,
    vote_rounds,
    vote_windows,
)
from review.game.voting import Outcome, VoteContext
from vision.audio import RATE, AudioTrack

HOLD_S = 0.25  # looked at past «Стоп» before the first count: a hand landing just after it is seen late
REFRESH_S = 0.5  # the count is asked again this often (video seconds) until the round's stretch is over
STOP_WITHIN_S = 2.5  # a word this long before a tap is the one the tap means (a finger, then a tablet's network)
KEEP_S = WINDOW_LEAD_S + STOP_WITHIN_S + 1.5  # frames kept between rounds: a stretch begins before its first tap
QUEUE_S = 20.0  # frames waiting for vision beyond this are dropped (for vision only: the recording keeps them)
SEAT_STATES = ("in_time", "late", "lifted", "early", "none", "unseen")
VOTE_TYPES = ("vote", "lift_vote")
UNANNOUNCED = "x_live_unannounced"  # on a vote asked about before its count: no count to check yet
TAPPED = "x_stop_tapped"  # on a vote closed by a tap: when the judge tapped «Стоп» (video time)
HEARD = "x_stop_heard"  # ... and whether the word itself was heard before the tap (its onset is then the cutoff)
NAMED = "x_name_tapped"  # on a vote named by a tap: when; its `t` is the judge's call heard before, once «Стоп» is
HEAR_KEEP_S = 8.0  # sound kept: the closing word, the quiet before it in which the hands land, and a margin
SOUND_WAIT_S = 2.0  # video seconds a tap waits for the sound up to it before the vote is closed at the tap


@dataclass(frozen=True)
class LiveVote:
    """One candidate's vote as the table shows it: the judge's times and count, and what the video shows."""

    event: int  # its index in the live protocol's events
    label: str  # «день 1, голосование 1, кандидат 6», in the reader's words
    t: float
    cutoff: float | None  # None until «Стоп»
    judge_count: int | None  # None until the judge announces it
    video_count: int | None  # None until the video has been looked at past «Стоп»
    seats: dict[int, str] = field(default_factory=dict)  # living seat -> one of SEAT_STATES
    findings: tuple[str, ...] = ()  # the audit's sentences on this vote
    final: bool = False  # the round's whole stretch has been looked at
    shown_after_s: float | None = None  # wall seconds from «Стоп» to the first count
    tapped: float | None = None  # when «Стоп» was tapped, where the vote was closed by a tap
    heard: bool | None = None  # whether the word was heard in the sound before the tap (None: not listened for)

    @property
    def heard_before_s(self) -> float | None:
        """How long before the tap the closing word was said (None unless it was heard)."""
        return self.tapped - self.cutoff if self.heard and self.tapped is not None and self.cutoff is not None else None

    @property
    def matches(self) -> bool | None:
        """Whether the judge's count is the video's (None while either is unknown)."""
        if self.judge_count is None or self.video_count is None:
            return None
        return self.judge_count == self.video_count


@dataclass(frozen=True)
class LiveState:
    """The table at one moment, for the page and the command line."""

    votes: tuple[LiveVote, ...]
    received_t: float  # the newest frame's time on the video's clock
    watched_t: float  # the newest frame vision has looked at (in a round) or set aside (between rounds)
    frames: int
    ended: str | None  # why the source ended ("" for a file played to its end), None while it plays
    dropped: int = 0  # frames vision never saw: it fell more than QUEUE_S behind (the audit of the recording sees them)
    hearing: bool = False  # the source's sound comes in: a tapped «Стоп» is placed at the word heard before it

    @property
    def behind_s(self) -> float:
        return max(0.0, self.received_t - self.watched_t)


@dataclass(frozen=True)
class Fouls:
    """Each seat's fouls as the rules engine counts them, and the removals its rules call for that the table has not
    given yet (seat -> the clause: a 4th foul under rfm 5.6 removes the player at once)."""

    fouls: dict[int, int]
    due: dict[int, str | None]


@dataclass
class _Round:
    """The stretch of video being looked at for one voting round (or rounds whose stretches overlap)."""

    start: float
    first_event: int
    watch: Any = None  # vision.observe.WindowWatch once the first frame is looked at
    frames: list[tuple[int, float]] = field(default_factory=list)  # (index, time) of every frame looked at


class LiveTable:
    """The game as it is played: its protocol growing with the judge's cues, and each vote's hands."""

    def __init__(self, protocol: dict[str, Any], seat_map: SeatMap | None, profile: Profile, *, fps: float,
                 model: str = "full", on_change: Callable[[dict[str, Any]], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """`protocol`: what is known before the game (players, maybe nominations), copied; `seat_map` already on
        the source's frame size (None: the hands are not counted at the table, only the cues kept with their
        times); `on_change(protocol)` after every cue (the caller saves it: nothing is lost)."""
        self.data = copy.deepcopy(protocol)
        self.data.setdefault("events", [])
        self.seat_map, self.profile, self.fps, self.model = seat_map, profile, fps, model
        held = [e.get("day") for e in self.data["events"] if e.get("type") in VOTE_TYPES]
        self.day = 1 + max((d for d in held if isinstance(d, int)), default=0)  # the day whose votes come next
        self.on_change, self.clock = on_change, clock
        self._lock = threading.Condition()
        self._incoming: deque[Any] = deque()
        self._kept: deque[Any] = deque()
        self._round: _Round | None = None
        self._closing: list[tuple[_Round, float]] = []  # rounds over, to be finished at their stretch's end
        self._votes: dict[int, LiveVote] = {}
        self._stopped_at: dict[int, float] = {}  # vote event -> wall time of «Стоп»
        self._asked: dict[int, float] = {}  # vote event -> the video time the audit was last asked about it at
        self._received = (-1, 0.0)
        self._sound: deque[tuple[float, np.ndarray]] = deque()  # (time of the first sample, samples at RATE)
        self._listening: dict[int, float] = {}  # vote event -> its tap, while the sound up to the tap is awaited
        self._watched_t = 0.0
        self._ended: str | None = None
        self._dropped = 0
        self._counting_since = -math.inf  # counting began here (a seat map found mid-game: later): a round whose
        # stretch began earlier lacks its first frames and is left to the audit of the recording
        self._running = False
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self.error: BaseException | None = None
        self._version = 0  # counts the protocol's changes: the rules engine's replay is made once per version
        self._replayed: tuple[int, dict[str, Any], Replay] | None = None

    # ------------------------------------------------------------ the source's side
    def feed(self, picture: Any) -> None:
        """A decoded frame (vision.video.Picture) from the source's thread: queued, never waited on."""
        with self._lock:
            self._received = (picture.index, picture.t)
            if self._listening:
                self._hear_stops()
            if self.seat_map is None:  # nothing to count with: only the clock of the cues
                self._watched_t = picture.t
                return
            self._incoming.append(picture)
            while self._incoming[0].t < picture.t - QUEUE_S:  # memory stays bounded on a machine too slow for the game
                self._incoming.popleft()
                self._dropped += 1
            self._lock.notify_all()

    def hear(self, t: float, samples: np.ndarray) -> None:
        """Sound from the source's thread (vision.live_source: mono at vision.audio.RATE): the last seconds are kept
        to hear the closing word a tap on «Стоп» follows."""
        with self._lock:
            self._sound.append((t, samples))
            while self._sound and self._sound[0][0] < t - HEAR_KEEP_S:
                self._sound.popleft()
            self._hear_stops()

    def source_ended(self, reason: str | None) -> None:
        """The source is over: None for a file played to its end, else why (a camera that stopped)."""
        with self._lock:
            self._ended = reason or ""
            self._lock.notify_all()

    # ------------------------------------------------------------ the judge's cues
    def now(self) -> float:
        """The newest frame's time: when the judge's cue was given, on the video's clock."""
        with self._lock:
            return self._received[1]

    def name(self, candidate: int, t: float | None = None, *, day: int | None = None,
             round_: int | None = None) -> int:
        """The judge names a candidate for the vote; returns the vote's event index."""
        with self._lock:
            self._no_vote_open()
            at = self._received[1] if t is None else t
            day = self.day = day if day is not None else self.day
            round_ = round_ if round_ is not None else self._next_round(day, candidate)
            self._voting_phase(day, at)
            return self._add_vote({"type": "vote", "day": day, "round": round_, "candidate": candidate,
                                   "t": round(at, 3)}, tapped=t is None)

    def name_lift(self, candidates: Sequence[int], t: float | None = None, *, day: int | None = None,
                  round_: int | None = None) -> int:
        """The judge puts the lift of several candidates to the vote."""
        with self._lock:
            self._no_vote_open()
            at = self._received[1] if t is None else t
            day = self.day = day if day is not None else self.day
            round_ = round_ if round_ is not None else 1 + max(
                (e["round"] for e in self._day_votes(day)), default=0)
            self._voting_phase(day, at)
            return self._add_vote(tapped=t is None, event={"type": "lift_vote", "day": day, "round": round_,
                                   "candidates": list(candidates), "t": round(at, 3)})

    def stop(self, t: float | None = None, *, listen: bool | None = None) -> None:
        """«Стоп» / «Спасибо»: the vote of the candidate named last is closed. A tap (`listen`, the default when no
        time is given) closes it where the closing word was heard in the sound just before the tap, when it was:
        the finger follows the voice, and a hand landing in between is late. Until the sound up to the tap has
        come (it may trail the pictures a little) the vote is closed at the tap and not yet counted."""
        with self._lock:
            k = self._last_vote()
            if k is None or "cutoff" in self.data["events"][k]:
                raise ValueError(_("No candidate is being voted on: name the candidate first."))
            at = self._received[1] if t is None else t
            ev = self.data["events"][k]
            ev["cutoff"] = round(max(at, ev["t"]), 3)
            self._stopped_at[k] = self.clock()
            if self._sound and (t is None if listen is None else listen):
                ev[TAPPED] = round(at, 3)
                self._listening[k] = at
                self._hear_stops()
            self._changed()

    def announce(self, count: int, t: float | None = None) -> None:
        """The judge announces the count of the vote closed last."""
        with self._lock:
            k = self._last_vote()
            if k is None or "cutoff" not in self.data["events"][k]:
                raise ValueError(_("Say «Stop» before the count is announced."))
            ev = self.data["events"][k]
            ev["count"] = int(count)
            ev["announced"] = round(max(self._received[1] if t is None else t, ev["cutoff"]), 3)
            self._votes[k] = dataclasses.replace(self._votes.get(k) or self._fresh(k), judge_count=int(count))
            self._changed()

    def add(self, event: dict[str, Any]) -> None:
        """Any other entry of the protocol as the game goes (phases, nominations, eliminations, nights, a vote held
        before the recording began): it ends the voting round under way, as the next round's first candidate does."""
        with self._lock:
            if event.get("type") in VOTE_TYPES and "t" in event:
                raise ValueError("votes at the table are named with name(), stop() and announce()")
            self.data["events"].append(copy.deepcopy(event))
            if event.get("type") not in ("nomination", "foul"):  # a foul is given in the middle of a vote too
                self._end_round()
            self._changed()

    def next_day(self, t: float | None = None) -> int:
        """The next day begins (after the night): its votes are numbered from round 1 again."""
        with self._lock:
            self.day += 1
            day = self.day
            begun = any(e.get("type") == "phase" and e.get("phase") == "day" and e.get("number") == day
                        for e in self.data["events"])  # a sheet may hold the day's nominations already
        if not begun:
            self.add({"type": "phase", "phase": "day", "number": day, "t": round(self.now() if t is None else t, 3)})
        return day

    def night(self, t: float | None = None) -> int:
        """The day's votes are over and night falls (night n after day n): its shooting comes next (`shoot`)."""
        with self._lock:
            self._votes_closed()
            night = self.day
            if self._has_phase("night", night):
                raise ValueError(_("Night {night} has begun already.", night=night))
            self.add({"type": "phase", "phase": "night", "number": night,
                      "t": round(self._received[1] if t is None else t, 3)})
        return night

    def night_open(self) -> int | None:
        """The night begun at the table whose shooting is still to come (None: no night is waiting for one)."""
        with self._lock:
            phases = [e for e in self.data["events"] if e.get("type") == "phase"]
            last = phases[-1] if phases else {}
            night = last.get("number")
            if last.get("phase") != "night" or not isinstance(night, int) or night < 1 or self._shot(night):
                return None
            return night

    def shoot(self, target: int | None, t: float | None = None) -> int:
        """The night's shooting as the judge announces it (`target` None: a miss); the next day begins, whose
        number is returned."""
        with self._lock:
            self._votes_closed()
            night = self.night_open()
            if night is None:
                if self._shot(self.day - 1) and not self._has_phase("voting", self.day):  # tapped twice
                    raise ValueError(_("Night {night} already has its shooting.", night=self.day - 1))
                raise ValueError(_("Begin the night first: the shooting comes in the night."))
            at = self._received[1] if t is None else t
            self.add({"type": "shooting", "night": night, "target": target, "t": round(at, 3)})
        return self.next_day(at)

    def nominate(self, by: int, target: int, t: float | None = None) -> None:
        """Seat `by` puts `target` up for the day's vote in his speech (the order of the nominations is the order
        of the vote); before the day's voting, once per seat nominated."""
        with self._lock:
            if self._day_votes(self.day):
                raise ValueError(_("Day {day}'s voting has begun: nominations come before it.", day=self.day))
            if any(e.get("type") == "nomination" and e.get("day") == self.day and e.get("target") == target
                   for e in self.data["events"]):
                raise ValueError(_("Seat {seat} is nominated already today.", seat=target))
            self.add({"type": "nomination", "day": self.day, "by": int(by), "target": int(target),
                      "t": round(self._received[1] if t is None else t, 3)})

    def foul(self, seat: int, t: float | None = None) -> None:
        """A foul given to `seat`; a vote under way goes on (its hands are still being counted)."""
        self.add({"type": "foul", "seat": int(seat), "t": round(self.now() if t is None else t, 3)})

    def remove(self, seat: int, t: float | None = None) -> None:
        """`seat` is removed from the table (the rules engine says which vote it cancels)."""
        self.add({"type": "removal", "seat": int(seat), "t": round(self.now() if t is None else t, 3)})

    def take_back(self) -> None:
        """The candidate named last was named by mistake: the vote goes, as long as «Стоп» has not been said
        (with the voting phase its naming opened, and the round its naming began)."""
        with self._lock:
            k = self._last_vote()
            events = self.data["events"]
            if k is None or "cutoff" in events[k] or k != len(events) - 1:
                raise ValueError(_("Only a candidate named last, before «Stop», can be taken back."))
            events.pop()
            self._votes.pop(k, None)
            self._stopped_at.pop(k, None)
            self._asked.pop(k, None)
            opened = events[-1] if events else None
            if (opened is not None and opened.get("type") == "phase" and opened.get("phase") == "voting"
                    and not self._day_votes(opened.get("number"))):
                events.pop()
            if self._round is not None and self._round.first_event >= len(events):
                self._round = None
            self._changed()

    # ------------------------------------------------------------ what the table shows
    def state(self) -> LiveState:
        with self._lock:
            votes = tuple(self._votes.get(k) or self._fresh(k) for k in self._vote_events())
            return LiveState(votes, self._received[1], self._watched_t, self._received[0] + 1, self._ended,
                             self._dropped, bool(self._sound))

    def standing(self) -> tuple[frozenset[int], Outcome | None]:
        """What the rules make of the game so far (the rules engine's replay, never a count of its own): the seats
        that have left the table, and what the round of the vote held last decided (a revote, a lift vote, who
        leaves), None while its round is still being voted."""
        data, game = self._replay()
        votes = [i for i, e in enumerate(data["events"]) if e.get("type") in VOTE_TYPES]
        left = frozenset(int(e["seat"]) for e in game.eliminations if isinstance(e.get("seat"), int))
        return left, game.outcomes.get(votes[-1]) if votes else None

    def fouls(self) -> Fouls:
        """Each seat's fouls and the removals the rules call for, from the rules engine's replay: a foul that
        removes the player (REMOVAL_DUE) is due until a removal of that seat follows it in the protocol."""
        data, game = self._replay()
        events = data["events"]
        due: dict[int, str | None] = {}
        for problem in game.problems:
            k = problem.event
            if problem.code != REMOVAL_DUE or k is None:
                continue
            seat = events[k].get("seat") if k < len(events) else None
            if isinstance(seat, int) and not any(e.get("type") == "removal" and e.get("seat") == seat
                                                 for e in events[k + 1:]):
                due[seat] = problem.clause
        return Fouls({int(k): int(v) for k, v in game.final.fouls.items()}, due)

    def _replay(self) -> tuple[dict[str, Any], Replay]:
        """The protocol as it stands and the rules engine's replay of it, made once per change of the protocol (the
        page asks several questions of it at every refresh)."""
        with self._lock:
            if self._replayed is not None and self._replayed[0] == self._version:
                return self._replayed[1], self._replayed[2]
            version, data = self._version, copy.deepcopy(self.data)
        game = replay_game(data, self.profile)
        with self._lock:
            self._replayed = (version, data, game)
        return data, game

    def protocol(self) -> dict[str, Any]:
        """The live protocol as it stands (a copy)."""
        with self._lock:
            return copy.deepcopy(self.data)

    # ------------------------------------------------------------ the vision thread
    def start(self) -> None:
        """Start the vision thread and wait for its hand detector to load (a second or so), so that the first
        frames of the game do not queue behind the loading. Without a seat map there is nothing to start."""
        if self.seat_map is None:
            return
        self._running = True
        self._thread = threading.Thread(target=self._watch, name="stopframe-live-vision", daemon=True)
        self._thread.start()
        self._ready.wait(60.0)

    def count_with(self, seat_map: SeatMap) -> None:
        """Begin counting mid-game with a seat map found meanwhile (on the source's frame size): a round whose
        stretch began before this moment (the round under way, or one named just now, whose stretch reaches back
        before its call) is left to the audit of the recording, as its first frames were never kept; the next
        rounds are counted."""
        with self._lock:
            if self.seat_map is not None:
                raise ValueError("the table counts with its seat map already")
            self._counting_since = self._received[1]  # the round under way, one joined to it, and one named now
            # whose stretch reaches back before this moment are not counted (no frame of them was kept)
            self.seat_map = seat_map
            self._watched_t = self._received[1]
        self.start()

    def close(self, timeout: float | None = None) -> None:
        """Look at whatever frames are still queued, finish the last round and stop the vision thread."""
        with self._lock:
            self._end_round()
            self._running = False
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)

    def caught_up(self) -> bool:
        """Every frame received has been looked at or set aside (the bench and the tests wait for it)."""
        with self._lock:
            return not self._incoming and self._watched_t >= self._received[1]

    def _watch(self) -> None:
        from vision.detect import SeatDetector

        try:
            with SeatDetector(self.seat_map, model=self.model) as detector:
                detector.backend.look(np.zeros((64, 64, 3), np.uint8))  # the model's graph is built on its first look
                self._ready.set()
                while True:
                    with self._lock:
                        while self._running and not self._incoming:
                            self._lock.wait(0.2)
                        if not self._incoming:
                            break
                        picture = self._incoming.popleft()
                    self._look(detector, picture)
                with self._lock:
                    closing, self._closing = self._closing, []
                for rnd, end in closing:
                    self._finish(rnd, end)
        except BaseException as exc:  # noqa: BLE001 - kept for the caller: the page and the command line say it
            self.error = exc
            self._ready.set()

    def _look(self, detector: Any, picture: Any) -> None:
        """One frame: to the round under way, or to a round over whose stretch still runs (its last count and the
        tail); a round whose stretch is over is finished first."""
        from vision.observe import WindowWatch

        with self._lock:
            done = [c for c in self._closing if picture.t >= c[1]]
            self._closing = [c for c in self._closing if picture.t < c[1]]
            # a round named while vision is still behind begins at its own start, not at the frame vision is on:
            # the one detector is reset for it once the round before is over (overlapping stretches are one round)
            rounds = [r for r in [c[0] for c in self._closing] + ([self._round] if self._round is not None else [])
                      if self._counting_since <= r.start <= picture.t]
        for rnd, end in done:
            self._finish(rnd, end)
        for rnd in rounds:
            if rnd.watch is None:  # a round just began: its stretch starts among the kept frames
                detector.reset()
                earlier = [p for p in self._kept if p.t >= rnd.start]
                rnd.watch = WindowWatch(detector, earlier[0].index if earlier else picture.index)
                for kept in earlier:
                    self._look_in(rnd, kept)
            self._look_in(rnd, picture)
            self._ask(rnd)
        self._kept.append(picture)
        while self._kept and self._kept[0].t < picture.t - KEEP_S:
            self._kept.popleft()
        with self._lock:
            self._watched_t = picture.t

    @staticmethod
    def _look_in(rnd: _Round, picture: Any) -> None:
        rnd.watch.look(picture)
        rnd.frames.append((picture.index, picture.t))

    # ------------------------------------------------------------ asking the audit
    def _ask(self, rnd: _Round) -> None:
        """After «Стоп» (and HOLD_S), and every REFRESH_S of video after, the round's counts so far."""
        seen_t = rnd.frames[-1][1]
        with self._lock:
            due = [k for k in self._vote_events(rnd.first_event) if _due(self.data["events"][k], seen_t,
                                                                           self._asked.get(k))]
            if not due:
                return
            self._asked.update(dict.fromkeys(due, seen_t))
            data = self._asked_data(rnd, seen_t)
        self._report(rnd, data, seen_t, final=False)

    def _finish(self, rnd: _Round, end: float) -> None:
        """The round's stretch is over: its counts from exactly the frames the offline audit looks at."""
        if rnd.watch is None:
            return
        with self._lock:
            data = self._asked_data(rnd, end)
        self._report(rnd, data, end, final=True)

    def _asked_data(self, rnd: _Round, seen_t: float) -> dict[str, Any]:
        """The protocol up to the round's last closed vote (every vote before it is closed: `_no_vote_open`); a vote
        not yet announced is taken as announced at «Стоп»."""
        closed = [k for k in self._vote_events(rnd.first_event) if "cutoff" in self.data["events"][k]]
        data = copy.deepcopy({**self.data, "events": self.data["events"][:closed[-1] + 1] if closed else []})
        for k in closed:
            ev = data["events"][k]
            if "announced" not in ev:  # the count is still to come: a hand resting now has not been lifted early
                ev["announced"] = ev["cutoff"]
            if "count" not in ev:  # the rules engine places a vote by its count; the audit's count check is left out
                ev["count"] = 0
                ev[UNANNOUNCED] = True
        return data

    def _report(self, rnd: _Round, data: dict[str, Any], seen_t: float, *, final: bool) -> None:
        from vision.observe import unwatchable

        upto = [(i, t) for i, t in rnd.frames if t < seen_t] or rnd.frames[:1]
        end = (upto[-1][0] + 1, upto[-1][1] + 1.0 / self.fps)
        hands = [h for h in rnd.watch.hands(end) if h.on < seen_t]
        span = (max(0.0, rnd.start), end[1])
        seen = Observations(hands, self.fps, unwatchable(self.seat_map, [span]) + rnd.watch.unseen(end), None, [span])
        rounds = [r for r in vote_rounds(vote_windows(data)) if r.windows[0].event_index >= rnd.first_event]
        if not rounds:
            return
        game = _placed(replay_game(data, self.profile), rounds, data)
        report = audit(data, seen, profile=self.profile, visible_seats=set(self.seat_map.seats), game=game,
                       rounds=rounds)
        with self._lock:
            for r in rounds:
                for vote in _votes_of(report, r, data, self.data["events"], game):
                    old = self._votes.get(vote.event)
                    shown = old.shown_after_s if old is not None and old.shown_after_s is not None else (
                        self.clock() - self._stopped_at[vote.event] if vote.event in self._stopped_at else None)
                    judge = self.data["events"][vote.event].get("count")
                    self._votes[vote.event] = dataclasses.replace(vote, final=final, shown_after_s=shown,
                                                    judge_count=judge if isinstance(judge, int) else None)

    # ------------------------------------------------------------ the protocol's bookkeeping (under the lock)
    def _hear_stops(self) -> None:
        """Each tapped «Стоп» whose sound has come (or has not come SOUND_WAIT_S of video after it) placed at the
        closing word heard before the tap, or left at the tap."""
        heard_to = self._sound[-1][0] + len(self._sound[-1][1]) / RATE if self._sound else 0.0
        for k, tap in list(self._listening.items()):
            if heard_to < tap and self._received[1] < tap + SOUND_WAIT_S:
                continue
            del self._listening[k]
            ev = self.data["events"][k]
            kept = _joined(list(self._sound)) if self._sound else None
            word = _closing_word(kept, tap) if kept is not None else None
            if word is not None and kept is not None and NAMED in ev:
                self._named_at(k, _heard_call(kept, word))
            heard = word is not None and word > ev["t"]
            ev["cutoff"], ev[HEARD] = round(word if heard else ev["cutoff"], 3), heard
            self._asked.pop(k, None)
            self._changed()

    def _named_at(self, k: int, call: float | None) -> None:
        """A tapped candidate named where the judge's call was heard before the tap (the vote opens on the call,
        rfm 4.4.5), its day's voting opened no later; the tap stays the time where no call is heard near it."""
        ev = self.data["events"][k]
        if call is None or not ev[NAMED] - STOP_WITHIN_S <= call <= ev[NAMED]:
            return
        ev["t"] = round(call, 3)
        for phase in self.data["events"][:k]:
            if (phase.get("type"), phase.get("phase"), phase.get("number")) == ("phase", "voting", ev.get("day")):
                phase["t"] = min(phase.get("t", ev["t"]), ev["t"])

    def _changed(self) -> None:
        self._version += 1
        if self.on_change is not None:
            self.on_change(copy.deepcopy(self.data))

    def _vote_events(self, first: int = 0) -> list[int]:
        """The votes held at the table (a vote with no time was held before the recording began)."""
        return [i for i, e in enumerate(self.data["events"])
                if i >= first and e.get("type") in VOTE_TYPES and "t" in e]

    def _no_vote_open(self) -> None:
        """A candidate is named once the vote before is closed: every vote at the table has its «Стоп»."""
        k = self._last_vote()
        if k is not None and "cutoff" not in self.data["events"][k]:
            raise ValueError(_("Say «Stop» for the candidate named last, or take him back, before naming another."))

    def _votes_closed(self) -> None:
        """The night waits for the vote under way: its «Стоп» and its count."""
        k = self._last_vote()
        if k is not None and "count" not in self.data["events"][k]:
            raise ValueError(_("Finish the vote under way first: its «Stop» and its count."))

    def _has_phase(self, phase: str, number: int) -> bool:
        return any(e.get("type") == "phase" and e.get("phase") == phase and e.get("number") == number
                   for e in self.data["events"])

    def _shot(self, night: int) -> bool:
        return any(e.get("type") == "shooting" and e.get("night") == night for e in self.data["events"])

    def _last_vote(self) -> int | None:
        votes = self._vote_events()
        return votes[-1] if votes else None

    def _day_votes(self, day: int) -> list[dict[str, Any]]:
        return [e for e in self.data["events"] if e.get("type") in VOTE_TYPES and e.get("day") == day]

    def _next_round(self, day: int, candidate: int) -> int:
        """The round the candidate is named in: a candidate voted on already in this round begins the next."""
        votes = self._day_votes(day)
        if not votes:
            return 1
        last = votes[-1]["round"]
        named = [e.get("candidate") for e in votes if e["round"] == last]
        return last + 1 if candidate in named or votes[-1]["type"] == "lift_vote" else last

    def _voting_phase(self, day: int, at: float) -> None:
        if not any(e.get("type") == "phase" and e.get("phase") == "voting" and e.get("number") == day
                   for e in self.data["events"]):
            self.data["events"].append({"type": "phase", "phase": "voting", "number": day, "t": round(at, 3)})

    def _add_vote(self, event: dict[str, Any], *, tapped: bool) -> int:
        """A vote named; a tapped one's stretch begins early enough for the call heard before the tap."""
        votes = self._vote_events()
        last = self.data["events"][votes[-1]] if votes else None
        if last is not None and (last["day"], last["round"]) != (event["day"], event["round"]):
            self._end_round()
        self.data["events"].append(event)
        k = len(self.data["events"]) - 1
        start = event["t"] - WINDOW_LEAD_S - (STOP_WITHIN_S if tapped else 0.0)
        if tapped:
            event[NAMED] = event["t"]
        if self._round is None and self._closing and self._closing[-1][1] >= start:
            self._round = self._closing.pop()[0]  # the stretches overlap: one stretch, as the audit merges them
        elif self._round is None:
            self._round = _Round(start, k)
        self._changed()
        return k

    def _end_round(self) -> None:
        """The voting round under way is over: finished once vision has looked at its stretch (to its last count
        and the tail); a round named before that stretch is over joins it, as the audit's stretches merge."""
        rnd = self._round
        if rnd is None:
            return
        votes = [self.data["events"][k] for k in self._vote_events(rnd.first_event)]
        last = max((e.get("announced", e.get("cutoff", e["t"])) for e in votes), default=rnd.start)
        self._closing.append((rnd, last + WINDOW_TAIL_S))
        self._round = None
        self._lock.notify_all()

    def _fresh(self, k: int) -> LiveVote:
        ev = self.data["events"][k]
        return LiveVote(k, vote_words(ev), ev["t"], ev.get("cutoff"), ev.get("count"), None, **_stop_of(ev))


def _stop_of(ev: dict[str, Any]) -> dict[str, Any]:
    """A vote's tap on «Стоп» and whether its word was heard, as LiveVote holds them."""
    return {"tapped": ev.get(TAPPED), "heard": ev.get(HEARD)}


def _closing_word(kept: AudioTrack, tap: float) -> float | None:
    """Where the judge's closing word began in the sound kept before a tap (vision.cues), None if not heard."""
    from vision.cues import closing_word_before

    track = kept.segment(tap - HEAR_KEEP_S, tap)
    return closing_word_before(track, tap, STOP_WITHIN_S) if len(track.samples) else None


def _joined(sound: list[tuple[float, np.ndarray]]) -> AudioTrack:
    """The sound kept, as one track: each stretch at its own time (a gap stays silent, the clock stays right)."""
    start = sound[0][0]
    samples = np.zeros(int(round((sound[-1][0] - start) * RATE)) + len(sound[-1][1]), np.float32)
    for t, chunk in sound:
        i = int(round((t - start) * RATE))
        samples[i:i + len(chunk)] = chunk[:len(samples) - i]
    return AudioTrack(samples, RATE, start)


def _heard_call(kept: AudioTrack, cutoff: float) -> float | None:
    """Where the judge's call before a heard «Стоп» opened the vote (vision.cues), None if not told apart."""
    from vision.cues import call_before

    track = kept.segment(cutoff - HEAR_KEEP_S, cutoff + 0.5)
    return call_before(track, cutoff) if len(track.samples) else None


def _due(ev: dict[str, Any], seen_t: float, asked: float | None) -> bool:
    """Whether the audit is to be asked about a vote now: past «Стоп» (once its word is listened for) and HOLD_S,
    then every REFRESH_S until a late hand can no longer land (a second past the count); the round's end gives the
    last word."""
    if "cutoff" not in ev or (TAPPED in ev and HEARD not in ev) or seen_t < ev["cutoff"] + HOLD_S:
        return False
    if asked is None:
        return True
    return seen_t >= asked + REFRESH_S and seen_t <= ev.get("announced", seen_t) + LATE_TAIL_S + REFRESH_S


def vote_words(ev: dict[str, Any]) -> str:
    """A vote event in the reader's words."""
    kind = "vote" if ev.get("type") == "vote" else "lift"
    return label_words(vote_label(kind, ev.get("day"), ev.get("round"), ev.get("candidate"), ev.get("candidates") or ()))


def _votes_of(report: AuditReport, rnd: VoteRound, data: dict[str, Any], events: list[dict[str, Any]],
              game: Replay) -> list[LiveVote]:
    """The round's votes as the table shows them, from the audit's report (its events are the live protocol's)."""
    out = []
    for w in rnd.windows:
        row = next((v for v in report.votes if v.extra.get("x_event") == w.event_index), None)
        if row is None or row.video_voters is None:
            continue
        context = game.vote_contexts.get(w.event_index)
        states = {seat: "none" for seat in (context.living if context is not None else ())}
        for seat in row.extra.get("x_cannot_see") or ():
            states[seat] = "unseen"
        for seat in row.extra.get("x_late_seats") or ():
            states[seat] = "late"
        unannounced = bool(data["events"][w.event_index].get(UNANNOUNCED))
        mine = [f for f in report.findings if f.day == w.day and f.round == w.round
                and (f.candidate == w.candidate or w.kind == "lift")
                and not (unannounced and f.kind == "count_mismatch")]
        for f in mine:
            if f.kind in ("lifted_early", "early_hand") and f.seat is not None:
                states[f.seat] = "lifted" if f.kind == "lifted_early" else "early"
        for seat in row.video_voters:
            states[seat] = "in_time" if states.get(seat) != "lifted" else "lifted"
        ev = events[w.event_index]
        out.append(LiveVote(w.event_index, vote_words(ev), w.t or 0.0, w.cutoff, None, len(row.video_voters),
                            dict(sorted(states.items())), tuple(finding_said(f.to_json()) for f in mine),
                            **_stop_of(ev)))
    return out


def _left_before(game: Replay, day: int | None) -> set[int]:
    """The seats the rules engine has out of the game before day `day`'s vote: shot or voted out earlier, or removed
    that day (who leaves by this day's vote still votes in it)."""
    if not isinstance(day, int):
        return set()
    return {e["seat"] for e in game.eliminations if isinstance(e.get("seat"), int) and (
        e.get("night", day) < day or e.get("day", day) < day or (e.get("day") == day and e.get("cause") == "removal"))}


def _placed(game: Replay, rounds: Sequence[VoteRound], data: dict[str, Any]) -> Replay:
    """Every vote held at the table placed in its round, where the rules engine would not place it yet: a round
    whose other candidates are still to be named (a lone candidate on day 1 is voted on by no rulebook), or a vote
    the judge held against the rules. The table counts the hands it sees either way; `stopframe validate` and the
    audit of the finished game say what the rules make of it."""
    contexts = dict(game.vote_contexts)
    seats = [p.get("seat") for p in data.get("players") or () if isinstance(p, dict)] or list(range(1, 11))
    for rnd in rounds:
        named = tuple(w.candidate for w in rnd.windows if w.candidate is not None)
        living = tuple(s for s in seats if s not in _left_before(game, rnd.windows[0].day))
        for i, w in enumerate(rnd.windows):
            if w.event_index in contexts:
                continue
            stage = "lift" if w.kind == "lift" else "revote" if w.round > 1 else "first"
            contexts[w.event_index] = VoteContext(w.day, w.round, w.kind, named or w.candidates, living,
                                                  i == len(rnd.windows) - 1, stage, w.candidate)
    return dataclasses.replace(game, vote_contexts=contexts)
