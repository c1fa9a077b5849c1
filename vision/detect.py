"""Looking at resting hands: per frame and seat, a fresh look at the seat's crop where its schedule asks for one.

The look is the first of three parts that turn the day votes' frames into hand runs: look (this module), schedule
(vision.schedule: whether a seat is looked at on a frame, else its last answer repeated) and decide
(vision.zone_model: hand runs from the looks' answers and the zones' pixels). A look is one detector run
(vision.backend, MediaPipe by default, a fresh IMAGE-mode look keeping no state) on the seat's crop; the hands it
finds go to the seats whose zones hold their palm centres (vision.hands). Around the run:
- a dark crop is brought up to a lit table's brightness first (`enhance_dark`);
- a detection with no skin colour on a spot unchanged since the window's first frame is a prop, not a hand
  (`looks_like_prop`, asked of every look: a cup inside a zone, read as a fist on every frame, would otherwise
  rest there through every vote and leave the zone no empty picture to learn);
- where a still zone shows something new and no hand was found, a look at a tighter crop of the zone decides
  (`_relook`): more pixels per hand;
- an open palm or a finger is believed only after a second look, and a fist's thumb is read off the picture
  (vision.second_look); that check holds while the schedule repeats the run it was made on;
- an open reading beside a reading refused as no readable hand in the same zone is no evidence of the form;
- where a look finds a hand come or gone after frames the schedule let wait in flight, those frames are looked
  back at, from the latest back, to pin the change.
The nights watch raised hands by tracking streams instead (vision.night_detect).
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import cv2
import numpy as np

from contract.seats import SeatMap
from vision.backend import DetectedHand, HandBackend
from vision.crops import SeatCrop, crop_for_zone
from vision.hands import (
    LIT_GREY,
    THUMB_SIZE,
    ZONE_SIDE,
    Detector,
    Hand,
    Refused,
    SeatHands,
    assign,
    best_hands,
    grey_square,
    is_dark,
    read_hand,
    seat_views,
    unusable_seats,
)
from vision.intervals import REST_RADIUS
from vision.options import DEFAULT, VisionOptions
from vision.pose import Pose
from vision.schedule import Due, SeatSchedule
from vision.second_look import OPEN_POSES, PoseCheck
from vision.video import Picture

RELOOK_SCORE = 0.5  # the detector score given to a hand a fresh look found (IMAGE mode reports none per seat)
# A prop is no hand: a white cup or bottle by a seat can be read as a hand (under H.264 crf 40 as a small open
# hand, in the dark as a fist once the real hand has gone). Two physical marks set it apart, and a detection must
# show both to be dropped: (1) hardly any skin colour inside its landmarks' hull (blood makes skin redder than it is
# green, R - G clearly positive, with R >= B; a white, grey or black object is neutral, a green one fails), and
# (2) it never moved in: inside the hull the picture is what it was on the window's first frame, before any vote.
# Measured over every detection in the vote windows of the six stress clips (sample_videos/clips/stress_*), the four
# day clips and the sample game: the white prop had at most 3 % skin pixels and a mean change from the window's
# first frame of 0.0-2.9 grey levels on a steady camera (crf 40, dark; 4-12 under camera shake, where it is kept and
# the run-support rule stops it); real hands had 11 % skin pixels at the least (one frame of a hand swooping in
# under crf 40; 28 % elsewhere) and changed their hull by 5.4 grey levels at the least (the frames they land or
# leave; >= 11 once at rest). The 39 labelled real cut-outs of ../shared/assets/hands, some as pale as paper in
# their cool, over-exposed photos, show >= 31 % skin pixels on a green, wood or white table (R > G > B instead would
# have found < 10 % on 3-5 of them), so a real hand resting since before the window began is kept too.
SKIN_RED = 0.03  # (R - G) / (R + G + B) above which a pixel (with R >= B) is skin-coloured
MIN_SKIN_SHARE = 0.1  # skin pixels in the hull below which a detection may be a prop ...
STATIC_CHANGE = 6.0  # ... if the hull's mean grey change from the window's first frame is below this (a dim
# picture's difference scaled up to a lit one's, as for gating)
DARK_CROP = 40.0  # mean grey below which a seat's crop is enhanced before detection: lit tables, felt to wood,
# measured 56-95 (sample game, stress clips), dim ones 18-27
DARK_GAIN_MAX = 4.0  # at most this gain (sensor noise grows with it; the blur after takes the worst off)


def enhance_dark(crop: np.ndarray, grey: np.ndarray) -> np.ndarray:
    """A dark seat crop brought up to a lit table's brightness, then lightly denoised; any other crop as it is.

    Why: MediaPipe's palm detector was trained on lit pictures; on a dim table (grey ~20) darker-skinned hands
    are lost, and a plain gain with a mild blur (the gain multiplies the sensor noise) brings them back. Only a
    dark crop is touched, so a lit picture's detections cannot change."""
    mean = float(grey.mean())
    if mean >= DARK_CROP:
        return crop
    gain = min(DARK_GAIN_MAX, LIT_GREY / max(mean, 1.0))
    bright = cv2.convertScaleAbs(crop, alpha=gain)
    return cv2.GaussianBlur(bright, (0, 0), 1.0)


def zone_mask(crop: SeatCrop, zone: np.ndarray, side: int = ZONE_SIDE) -> np.ndarray:
    """The cells of a side x side picture of `crop` that lie inside the zone polygon (frame pixels), as a bool mask."""
    points = crop.from_frame(zone) * (side / crop.size)
    mask = np.zeros((side, side), np.uint8)
    cv2.fillPoly(mask, [np.round(points).astype(np.int32)], 1)
    return mask.astype(bool)


def _holds(hands: list[Hand], seat: int) -> bool:
    """Whether a run's answer has a hand of `seat`."""
    return any(h.seat == seat for h in hands)


def _hull_mask(shape: tuple[int, ...], points: np.ndarray) -> np.ndarray:
    """The pixels of a picture of `shape` inside the convex hull of `points` (x y), as a bool mask."""
    hull = cv2.convexHull(np.round(np.asarray(points, float)[:, :2]).astype(np.int32))
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, hull, 1)
    return mask.astype(bool)


def skin_share(crop: np.ndarray, points: np.ndarray) -> float:
    """The share of pixels inside the convex hull of `points` (crop pixels, x y) of a BGR crop that are
    skin-coloured: (R - G) / (R + G + B) > SKIN_RED and R >= B (1.0 when the hull holds no pixel)."""
    pixels = crop[_hull_mask(crop.shape, points)].astype(np.float32)
    if not len(pixels):
        return 1.0
    b, g, r = pixels[:, 0], pixels[:, 1], pixels[:, 2]
    skin = (r - g > SKIN_RED * (r + g + b)) & (r >= b)
    return float(skin.mean())


def hull_change(now: np.ndarray, before: np.ndarray, points: np.ndarray) -> float:
    """Mean absolute grey difference between two grey crops inside the convex hull of `points` (crop pixels),
    a dim picture's scaled up to a lit one's (LIT_GREY); inf when the hull holds no pixel."""
    inside = _hull_mask(now.shape, points)
    if not inside.any():
        return math.inf
    a, b = now[inside].astype(np.float32), before[inside].astype(np.float32)
    lit = max(1.0, LIT_GREY / max(float(a.mean()), float(b.mean()), 1.0))
    return float(np.abs(a - b).mean()) * lit


def looks_like_prop(crop: np.ndarray, grey: np.ndarray, lead: np.ndarray | None, points: np.ndarray) -> bool:
    """A detection (landmarks `points` in crop pixels) with no skin colour on a spot unchanged since the
    window's first frame (`lead`, grey): a prop that was there before any vote (see MIN_SKIN_SHARE)."""
    if lead is None or skin_share(crop, points) >= MIN_SKIN_SHARE:
        return False
    return hull_change(grey, lead, points) < STATIC_CHANGE


def _beside(hand: Hand, refused: list[tuple[float, float]]) -> bool:
    """Whether a reading refused as no readable hand lies apart from `hand` (beyond REST_RADIUS of its palm
    lengths, the rest rule's 'same place'): then the zone shows two hand-like things and which of them is the
    vote is unknown, so an open reading there is no evidence of the vote's form (vision.options.lone_open).

    Under heavy compression a resting thumb-up fist comes back refused one to three palm lengths from its own
    forearm and is read as a steady open palm: a false wrong_form. A refused reading on the open hand itself (a
    tenth of a palm length away) is that same hand, not a second thing; counting it would lose a real wrong_form."""
    x, y = hand.palm_centre
    reach = REST_RADIUS * max(hand.palm_length, 1.0)
    return any(math.hypot(cx - x, cy - y) > reach for cx, cy in refused)


@dataclass
class _Seat:
    """One seat's look state, and its schedule."""

    seat: int
    crop: SeatCrop
    zone_cells: np.ndarray  # the zone's cells in a ZONE_SIDE picture of the crop (zone model)
    gate_cells: np.ndarray  # the thumbnail cells the schedule compares: the zone's, grown by a cell, so the arms
    # and neighbours in the crop's margin cost no look
    schedule: SeatSchedule
    in_flight: deque  # frames skipped (Pictures) while the zone has kept moving
    last_hands: list[Hand] = field(default_factory=list)  # the last run's answer, in every zone its crop shows
    rejected: list[Refused] = field(default_factory=list)  # every reading the last run refused as no readable hand
    lead: np.ndarray | None = None  # the grey crop on the first frame of the window (props)


class _Look(NamedTuple):
    """One detector run on a seat's crop."""

    crop: np.ndarray  # the BGR crop ...
    grey: np.ndarray  # ... its full-range grey
    plain: bool  # the detector saw the crop as it is (not enhanced as dark)
    hands: list[Hand]  # what it found


@dataclass
class FrameResult(SeatHands):
    """What the looks give for one frame: each seat's hand, and what the decision needs beside it."""

    unread: set[int] = field(default_factory=set)  # seats with a detection refused as no readable hand
    looked: set[int] = field(default_factory=set)  # seats whose own detector ran on this frame
    zones: dict[int, np.ndarray] = field(default_factory=dict)  # seat -> its zone's grey cells
    pinned: dict[int, list[tuple[int, float, Hand | None, bool]]] = field(default_factory=dict)  # seat -> earlier
    # frames skipped in flight and looked at now (index, time, its own hand or None, refused as unreadable)


@dataclass
class _FrameWork:
    """What one frame's seats gave, gathered before each seat's best hand is chosen."""

    result: FrameResult = field(default_factory=lambda: FrameResult({}, set(), 0, 0))
    found: list[Hand] = field(default_factory=list)  # every hand a run found or repeated, in any zone
    refused: dict[int, list[tuple[float, float]]] = field(default_factory=dict)  # seat -> refused readings' palms
    rested: dict[int, Picture] = field(default_factory=dict)  # seat -> the frame its zone came to rest on


class SeatDetector(Detector):
    """Looks for hands resting on the table at every watchable seat of a seat map, frame after frame."""

    def __init__(self, seat_map: SeatMap, model: str = "full", gating: bool = True,
                 options: VisionOptions = DEFAULT, backend: HandBackend | None = None) -> None:
        """`gating`: look only where a seat's schedule asks for it (vision.schedule), else at every frame.
        `options`: the rules that watch the hands (vision.options). `backend`: the hand detector (whoever made it
        closes it, and its own model and thresholds apply); None: MediaPipe on `model` at the options'
        min_confidence, closed with this detector."""
        super().__init__(backend, model, options.min_confidence)
        self.seat_map = seat_map
        self.gating = gating
        self.options = options
        self.seconds = {"crop": 0.0, "inference": 0.0}  # where the time goes (bench/vision_speed.py)
        blocked = unusable_seats(seat_map)
        self.streams = {n: self._seat(n, crop_for_zone(seat.zone, seat_map.frame_size))
                        for n, seat in sorted(seat_map.seats.items()) if n not in blocked}
        self.pose_check = (PoseCheck(seat_map, list(self.streams), backend=self.backend,
                                     world_fingers=options.world_fingers)
                           if options.second_look or options.picture_thumbs or options.tight_look else None)

    def _seat(self, seat: int, crop: SeatCrop) -> _Seat:
        zone = self.seat_map.seats[seat].zone
        cells = zone_mask(crop, zone, THUMB_SIZE).astype(np.uint8)
        schedule = SeatSchedule(seat)
        return _Seat(seat, crop, zone_mask(crop, zone), cv2.dilate(cells, np.ones((3, 3), np.uint8)).astype(bool),
                     schedule, deque(maxlen=schedule.knobs.motion_hold))

    def reset(self) -> None:
        """Forget every seat's looking state: what a window shows then depends on that window alone, not on which
        windows were decoded before it or in which process."""
        self.streams = {n: self._seat(n, s.crop) for n, s in self.streams.items()}
        if self.pose_check is not None:
            self.pose_check.last.clear()

    def close(self) -> None:
        if self.pose_check is not None:
            self.pose_check.close()
        super().close()

    def process(self, index: int, t: float, frame: np.ndarray | Picture) -> FrameResult:
        """Detect on one upright frame at full resolution (the seat map must match its size): a BGR array, or a
        Picture, converted to BGR only if some seat's detector runs on it (the schedule reads its grey)."""
        picture = frame if isinstance(frame, Picture) else Picture(index, t, image=frame)
        work = _FrameWork()
        for seat in self.streams.values():
            self._watch(seat, picture, work)
        return self._settle(picture, work)

    def _watch(self, seat: _Seat, picture: Picture, work: _FrameWork) -> None:
        """One seat on one frame: dark, or as its schedule says: looked at, its last answer repeated, or waiting
        in flight."""
        t0 = time.perf_counter()
        small, thumb = seat_views(seat.crop, picture)
        grey = picture.full_range(grey_square(seat.crop, picture.luma, seat.crop.size)) if seat.lead is None else None
        self.seconds["crop"] += time.perf_counter() - t0
        if is_dark(thumb):
            work.result.dark.add(seat.seat)
            seat.last_hands = []
            seat.schedule.dark()
            seat.in_flight.clear()
            return
        zone = work.result.zones[seat.seat] = small[seat.zone_cells]
        view = thumb[seat.gate_cells]
        if seat.lead is None:
            seat.lead = grey
        seat.schedule.see(picture.index, view, zone)
        due = seat.schedule.due(picture.index, view) if self.gating else Due.EVERY
        if due.look:
            self._run(seat, picture, view, grey, work)
        else:
            self._repeat(seat, picture, due is Due.IN_FLIGHT, work)

    @staticmethod
    def _repeat(seat: _Seat, picture: Picture, flight: bool, work: _FrameWork) -> None:
        """A seat whose detector is not run on this frame: its last answer stands for its own zone (the other zones
        its crop shows may have changed; a frame in flight waits to be looked back at should a later look find the
        hand come or gone)."""
        if flight:
            seat.in_flight.append(picture)
        elif not seat.schedule.moving:
            seat.in_flight.clear()  # at rest: what flew before is settled
        work.result.skipped += 1
        own = work.result.own[seat.seat] = [h for h in seat.last_hands if h.seat == seat.seat]
        work.found.extend(own)
        for n, centre in seat.rejected:  # its refusals repeated with its answer: the same picture refuses alike
            if n == seat.seat:
                work.refused.setdefault(n, []).append(centre)

    def _run(self, seat: _Seat, picture: Picture, view: np.ndarray, grey: np.ndarray | None,
             work: _FrameWork) -> None:
        """A seat's detector run on this frame, the frames it skipped in flight looked back at where its answer
        changed, and the seat's memory of the run."""
        index, result, moving = picture.index, work.result, seat.schedule.moving
        look = self._look_at(seat, picture, grey)
        hands = look.hands
        if self.options.tight_look and self.pose_check is not None and seat.schedule.doubtful(_holds(hands, seat.seat)):
            hands = hands + self._relook(seat, picture.image, look)
        result.ran += 1
        result.looked.add(seat.seat)
        result.fresh.update(h.seat for h in hands)
        if seat.in_flight and _holds(hands, seat.seat) != _holds(seat.last_hands, seat.seat):
            result.pinned[seat.seat] = self._pin_back(seat, _holds(hands, seat.seat))
            result.ran += len(result.pinned[seat.seat])
        if not moving and seat.in_flight and seat.in_flight[-1].index == index - 1:
            work.rested[seat.seat] = seat.in_flight[-1]  # the frame the zone came to rest on shows this picture
        if not moving:
            seat.in_flight.clear()
        seat.schedule.ran(index, view, (h.seat for h in hands), any(n == seat.seat for n, _ in seat.rejected))
        seat.last_hands = hands
        work.found.extend(hands)
        result.own[seat.seat] = [h for h in hands if h.seat == seat.seat]
        for n, centre in seat.rejected:
            work.refused.setdefault(n, []).append(centre)

    def _settle(self, picture: Picture, work: _FrameWork) -> FrameResult:
        """Each seat's best hand of the frame, its form checked (lone_open, the second look), and the frame the
        zone came to rest on given this frame's answer."""
        result, index = work.result, picture.index
        best = best_hands(work.found)
        if self.options.lone_open:
            best = {n: replace(hand, pose=Pose("other", hand.pose.fingers, 0.0))
                    if hand.pose.pose in OPEN_POSES and _beside(hand, work.refused.get(n, [])) else hand
                    for n, hand in best.items()}
        if self.pose_check is not None:
            best = {n: self.pose_check.confirm(hand, picture, index, self.options.second_look,
                                               self.options.picture_thumbs, self._checked_since(n, result.looked))
                    for n, hand in best.items()}
        for n in result.looked:  # what each run read in its own zone, as settled by its second look
            self.streams[n].schedule.readings.append(best[n].pose.pose if n in best else None)
        for n, still in work.rested.items():  # skipped in flight, but its picture is this one: this frame's answer
            result.pinned.setdefault(n, []).append((still.index, still.t, best.get(n), False))
        result.hands, result.unread = best, set(work.refused) - set(best)
        return result

    def _checked_since(self, n: int, looked: set[int]) -> int | None:
        """The frame from which a second look at seat `n` still holds: its detector's last run, where the schedule
        repeated that run's answer on this frame (the zone shows the picture it ran on, so a look at it again would
        only repeat the reading)."""
        seat = self.streams.get(n)
        if seat is None or n in looked:
            return None
        return seat.schedule.last_run

    def _relook(self, seat: _Seat, frame: np.ndarray, look: _Look) -> list[Hand]:
        """The seat's own hand from a fresh look at the tight crop and then at the seat's own (a resting fist from
        straight above may show at one and not the other). The seat's crop is skipped where the run just made
        looked at that very picture (not enhanced): the detector gives one picture one answer."""
        crops = [self.pose_check.crops[seat.seat]]
        if not look.plain:
            crops.append(seat.crop)
        for seat_crop in crops:
            for points, world in self.pose_check.hands_at(seat.seat, frame, seat_crop):
                if not looks_like_prop(look.crop, look.grey, seat.lead, seat.crop.from_frame(points)):
                    return [read_hand(seat.seat, points, RELOOK_SCORE, world if self.options.world_fingers else None)]
        return []

    def _look_at(self, seat: _Seat, picture: Picture, grey: np.ndarray | None = None) -> _Look:
        """One detector run on the seat's crop of `picture` (a dark crop enhanced first); `grey`: the crop's
        full-range grey, where already cut. Its refusals go to `seat.rejected`."""
        t0 = time.perf_counter()
        crop = seat.crop.cut(picture.image)
        if grey is None:
            grey = picture.full_range(grey_square(seat.crop, picture.luma, seat.crop.size))
        self.seconds["crop"] += time.perf_counter() - t0
        seen = enhance_dark(crop, grey) if self.options.enhance_dark else crop
        hands = [h for h in self._detect(seat, seen)
                 if not looks_like_prop(crop, grey, seat.lead, seat.crop.from_frame(h.landmarks))]
        return _Look(crop, grey, seen is crop, hands)

    def _detect(self, seat: _Seat, crop: np.ndarray) -> list[Hand]:
        """The hands one fresh look finds on a seat's crop (fingers extended in the 3-D landmarks too where
        `world_fingers` is on)."""
        t0 = time.perf_counter()
        detected: list[DetectedHand] = self.backend.look(crop)
        self.seconds["inference"] += time.perf_counter() - t0
        hands, seat.rejected = assign(self.seat_map, seat.crop, detected, self.options.world_fingers)
        return hands

    def _pin_back(self, seat: _Seat, now: bool) -> list[tuple[int, float, Hand | None, bool]]:
        """The frames skipped in flight, looked at from the latest back to the first that does not show what this
        run found (`now`: a hand of the seat): where the hand came or went. Back past the looks in between, since
        in a blurred or shaking picture one look may miss a hand that the frames before it show."""
        pins = []
        while seat.in_flight:
            pins.append(self._pin(seat, seat.in_flight.pop()))
            if (pins[-1][2] is not None) != now:
                break
        seat.in_flight.clear()
        return pins

    def _pin(self, seat: _Seat, picture: Picture) -> tuple[int, float, Hand | None, bool]:
        """The seat's own hand on a frame its detector skipped in flight, looked at now that a later look found
        the hand come or gone: (index, time, hand or None, a reading refused as unreadable)."""
        rejected = seat.rejected
        mine = [h for h in self._look_at(seat, picture).hands if h.seat == seat.seat]
        unread = any(n == seat.seat for n, _ in seat.rejected)
        seat.rejected = rejected
        hand = max(mine, key=lambda h: h.score) if mine else None
        if hand is not None and self.pose_check is not None:
            hand = self.pose_check.confirm(hand, picture, picture.index, self.options.second_look,
                                           self.options.picture_thumbs)
        return picture.index, picture.t, hand, unread and hand is None
