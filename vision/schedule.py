"""When a resting hand's seat is looked at: one answer per seat and frame (`SeatSchedule.due`).

A look (vision.detect) costs what the audit costs (~20 ms of CPU against ~2 ms to decode a 1080p frame), so a seat
is looked at only where its zone may show a different answer; elsewhere its last answer is repeated. The picture
compared is the seat's zone (its thumbnail cells, grown by a cell), not its whole crop: a crop takes in the player's
arms, the table edge and the neighbours, which real players move all the time. The rules, each a knob of
`LookSchedule`:
- a single run right after a change is never trusted on its own, so one miss cannot be frozen in; but a miss in a
  changed zone needs no second run to agree (a fresh look would almost always repeat it), and a reading refused as
  no readable hand is an answer that may be repeated (a fresh look on the same picture refuses it again);
- a still picture is re-checked, the more rarely the longer it stays still (`refresh`, `refresh_max`); not at all
  where the zone shows what it showed on the window's first frame (a fresh look has nothing to forget), nor once a
  run on its settled picture read what the run before it did;
- a still zone that shows something new where no hand was found is looked at again rather than its miss repeated
  (a fresh look carries no miss over), less and less often the longer it stays so (`relook_still`, `doubt_backoff`);
- a zone in motion is looked at every `motion_step` frames (a hand in flight is no vote); the frames it waits are
  looked back at by the detector where a look finds a hand come or gone;
- a zone whose last two runs read it alike is looked at again only when its picture moves by more than a resting
  hand's jitter.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum, auto

import numpy as np

from vision.hands import HOLD_MAX_DIFF, HOLD_MEAN_DIFF, LIT_GREY, fast_mean, same_picture
from vision.second_look import OPEN_POSES

ZONE_NEW_DIFF, ZONE_NEW_SHARE = 10.0, 0.05  # a zone shows something new when this share of its cells differ from
# the window's first frame by more than this (a 32x32 thumbnail of the whole crop hid a brown hand on wood)


@dataclass(frozen=True)
class LookSchedule:
    """When a seat's detector looks again, in frames (see the module's doc)."""

    agree: int = 2  # consecutive runs that must agree before a still picture may reuse their answer
    refresh: int = 12  # run the detector at least this often even on a still picture ... (a run on a picture still
    # this long is a settled one: once two settled runs agree, a resting hand's re-checks end)
    refresh_max: int = 48  # ... or at most this rarely: on a picture still for s frames every max(refresh, s / 2)
    # frames; the short interval at first keeps a hand that rests only half a second from being missed
    relook_still: int = 3  # frames a changed picture must have been still before a fresh look (a moving arm is no vote)
    motion_step: int = 3  # frames between looks at a zone whose picture keeps changing from frame to frame: a hand in
    # flight is no vote; the first frame it moves on and the frame it comes to rest on are looked at at once
    motion_hold: int = 12  # frames skipped in flight kept to look back at (half a second)
    doubt_backoff: int = 8  # frames of a still, doubtful zone (something new, no hand found) per step of its look
    # interval: the zone model counts looked misses on one unchanged picture as one, so later looks only buy a
    # chance of finding the hand


SCHEDULE = LookSchedule()


class Due(Enum):
    """A seat's answer for one frame: look now (and why), repeat the last answer, or wait in flight."""

    FIRST = auto()  # look: no answer to repeat (the window's first frame, or the first after a dark one)
    EVERY = auto()  # look: change gating is off, every frame is looked at
    UNAGREED = auto()  # look: the last runs have not agreed yet (and the answer is no miss that stands)
    RECHECK = auto()  # look: a still picture's periodic re-check
    DOUBT = auto()  # look: a still zone shows something new where no hand was found
    MOVED = auto()  # look: the zone's picture moved from the one the last run saw
    REPEAT = auto()  # no look: the zone shows the picture of the last run, whose answer stands
    IN_FLIGHT = auto()  # no look: the zone keeps moving and was looked at less than `motion_step` frames ago

    @property
    def look(self) -> bool:
        return self not in (Due.REPEAT, Due.IN_FLIGHT)


@dataclass
class SeatSchedule:
    """One seat's looking state: what its zone showed, how long it has been still or moving, what its runs read."""

    seat: int
    knobs: LookSchedule = SCHEDULE
    reference: np.ndarray | None = None  # the zone's view at the last detector run
    last_run: int = -(10**9)  # ... the frame of that run
    run_still: int = 0  # ... and `still` then
    seats: tuple[int, ...] = ()  # the seats of the last run's hands (sorted)
    refused: bool = False  # the last run refused a reading in the seat's own zone as no readable hand
    agree: int = 0  # consecutive detector runs with the same answer (which seats have a hand)
    readings: deque = field(default_factory=lambda: deque(maxlen=3))  # the seat's own reading at the last runs
    anchor: np.ndarray | None = None  # the view at the start of the current still stretch ...
    still: int = 0  # ... and how many frames since have matched it
    moving: int = 0  # frames in a row on which the zone moved from the frame before (0: it rests or shakes)
    previous: tuple[int, np.ndarray] | None = None  # (index, view) of the frame before
    lead_zone: np.ndarray | None = None  # the zone's cells on the window's first frame ...
    zone_now: np.ndarray | None = None  # ... and on the current frame

    @property
    def holds(self) -> bool:
        """Whether the last run's answer has a hand of the seat."""
        return self.seat in self.seats

    def see(self, index: int, view: np.ndarray, zone: np.ndarray) -> None:
        """A frame the seat's zone is seen on (not dark): `view`, the thumbnail cells gating compares; `zone`, the
        zone's cells."""
        self.zone_now = zone
        if self.lead_zone is None:
            self.lead_zone = zone
        if self.anchor is None or not same_picture(view, self.anchor):
            self.anchor, self.still = view, 0
        self.still += 1
        self.moving = self.moving + 1 if self._flying(index, view) else 0
        self.previous = (index, view)

    def dark(self) -> None:
        """A frame the seat's view is dark on: nothing seen, nothing to repeat."""
        self.reference, self.seats, self.agree = None, (), 0
        self.anchor, self.still, self.previous = None, 0, None

    def ran(self, index: int, view: np.ndarray, seats: Iterable[int], refused: bool) -> None:
        """A detector run on this frame found hands of `seats`; `refused`: it refused a reading in the own zone."""
        seats = tuple(sorted(seats))
        self.agree = self.agree + 1 if seats == self.seats else 1
        self.seats, self.refused = seats, refused
        self.reference, self.last_run, self.run_still = view, index, self.still

    def due(self, index: int, view: np.ndarray) -> Due:
        """Whether the seat's detector looks on frame `index` (its zone's view `view`, after `see`), and why."""
        k = self.knobs
        if self.reference is None:
            return Due.FIRST
        if self.moving > 1 and index - self.last_run < k.motion_step:
            return Due.IN_FLIGHT  # the first frame the zone moves on and the one it rests on are looked at at once
        if self.agree < k.agree and (self.holds or self.refused):
            return Due.UNAGREED
        refresh = min(k.refresh_max, max(k.refresh, self.still // 2))
        if index - self.last_run >= refresh and not self._recheck_spared():
            return Due.RECHECK
        if self.doubtful(self.holds) and index - self.last_run > max(0, self.still - k.relook_still) // k.doubt_backoff:
            return Due.DOUBT
        if self.agree >= k.agree and self._steady(open_runs=3):  # moves on only by more than a resting hand's jitter
            same = same_picture(view, self.reference, HOLD_MAX_DIFF, HOLD_MEAN_DIFF, lit=True)
        else:
            same = same_picture(view, self.reference)
        return Due.REPEAT if same else Due.MOVED

    def doubtful(self, found: bool) -> bool:
        """Whether a run that found no hand of the seat (`found`: it did) deserves a fresh look: the zone has come to
        rest on something the window's first frame did not show (a hand put down that the look missed). Not on a
        refused or a lost hand as such: on compressed and cluttered footage that brought back hands in motion and
        compression artefacts as false findings."""
        return not found and self.still >= self.knobs.relook_still and self.shows_new()

    def shows_new(self, lit: bool = False) -> bool:
        """Whether the seat's zone shows something its window's first frame did not; `lit`: a dim zone's
        differences scaled up to a lit one's first (a dark hand landing on a dim table moves the zone's cells by
        less than ZONE_NEW_DIFF)."""
        now = self.zone_now.astype(np.float32)
        diff = np.abs(now - self.lead_zone)
        if lit:
            diff *= max(1.0, LIT_GREY / max(fast_mean(now), fast_mean(self.lead_zone), 1.0))
        return np.count_nonzero(diff > ZONE_NEW_DIFF) >= ZONE_NEW_SHARE * diff.size

    def _flying(self, index: int, view: np.ndarray) -> bool:
        """Whether the zone moved from the frame before by more than a resting hand's jitter (a camera shaking by a
        pixel or two stays under it, a hand coming or going does not), a dim zone's differences scaled up."""
        if self.previous is None or self.previous[0] != index - 1:
            return False
        return not same_picture(view, self.previous[1], HOLD_MAX_DIFF, HOLD_MEAN_DIFF, lit=True)

    def _recheck_spared(self) -> bool:
        """Whether a still zone due for its periodic re-check needs none: a fresh look on an unchanged picture can
        only repeat the runs before it. So where the zone shows its window's first picture (a dim zone's
        differences scaled up to a lit one's, else a dark hand landing late barely moves it off that picture), or
        where a run on its settled picture read what the run before it did; runs made while a hand was still
        settling keep being re-checked (a landing fist can read as a finger before it reads right)."""
        if not self.shows_new(lit=True):
            return True
        return self.run_still >= self.knobs.refresh and self._steady()

    def _steady(self, open_runs: int = 2) -> bool:
        """Whether the seat's last two runs read its zone alike (the same pose, or no hand); an open palm or a
        finger, which alone can make a wrong_form finding, read so by the last `open_runs` runs."""
        runs = open_runs if self.readings and self.readings[-1] in OPEN_POSES else 2
        last = list(self.readings)[-runs:]
        return len(last) == runs and len(set(last)) == 1
