"""Hands per seat on one frame: crop each seat, ask the hand detector, map landmarks back, assign by position.

The detector is a back end (vision.backend, MediaPipe by default): each detector run on a seat's crop is
a fresh look for hands resting on the table (the day votes), or, at night, a run of the seat's own tracking
stream (a tracker carries a hand between frames of one stream, so streams must not be mixed).
A hand belongs to the seat whose zone contains its palm centre in frame pixels; the handedness label is
never used (it differs between APIs for the same picture). Change gating skips a seat's detector while its
crop matches the picture at its last detector run and the last runs agreed, and repeats their answer:
a single run right after a change is never trusted on its own, so one miss cannot be frozen in.

For hands resting on the table (`resting=True`, what observe() asks for) more rules hold:
- an open palm or a finger is believed only after a second look (vision.second_look);
- a detection with no skin colour on a spot unchanged since the window's first frame is a prop, not a
  hand (`looks_like_prop`, asked of the tighter look at a zone that came to rest on something new);
- the longer a picture stays still, the rarer the re-checks (`LookSchedule.refresh_max`);
- where something has come to rest in a seat's zone and no hand was found, a look at a tighter crop of the
  zone decides (`_relook`): more pixels per hand.

What a detector run costs is what the audit costs (a look is ~20 ms of CPU, decoding a 1080p
frame ~2 ms), so more rules keep the looks where the hands are (their knobs: `LookSchedule`):
- the picture gating compares is the seat's zone, not its whole crop: a crop takes in the player's arms, the
  table edge and the neighbours, which real players move all the time, and a hand there lies in no zone or in a
  zone its own seat watches;
- a still zone that shows what it showed on the window's first frame is not re-checked: a fresh look has
  nothing to forget, so on an unchanged picture it can only repeat the runs that agreed;
- a reading refused as no readable hand is an answer gating may repeat: a fresh look on the same picture
  refuses the same reading;
- a still zone that shows something new where no hand was found is looked at again rather than its miss repeated
  (a fresh look carries no miss over), less and less often the longer it stays so;
- a zone in motion is looked at every `motion_step` frames (a hand in flight is no vote), and the frames it
  skipped are looked back at where a look finds a hand come or gone;
- a miss in a changed zone needs no second run to agree;
- a still zone's periodic re-check stops once a run on its settled picture read what the run before it did, and a
  zone whose last two runs read it alike is looked at again only when its picture moves by more than a resting
  hand's jitter;
- a hand's second look (or thumb reading) holds while gating repeats the run it was made on.
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import cv2
import numpy as np

from contract.i18n import N_
from contract.seats import SeatMap
from vision.backend import DetectedHand, HandBackend, HandTracker, MediaPipeBackend
from vision.crops import SeatCrop, crop_for_zone, zone_visible_share
from vision.intervals import REST_RADIUS
from vision.options import DEFAULT, VisionOptions
from vision.pose import Pose, classify, plausible_hand
from vision.second_look import OPEN_POSES, PoseCheck
from vision.video import Picture

PALM_POINTS = [0, 5, 9, 13, 17]
THUMB_SIZE = 32  # change-gating thumbnail side
GATE_MAX_DIFF = 14.0  # grey levels in a thumbnail cell: a hand entering changes some cell by far more
GATE_MEAN_DIFF = 2.0  # grey levels over the whole thumbnail: lighting drift, camera shake
HOLD_FRAMES = 50  # how long a confirmed hand survives detector misses on an unchanged picture (tracking streams)
HOLD_MAX_DIFF, HOLD_MEAN_DIFF = 30.0, 3.0  # 'unchanged' for holding: a 1-px jitter of a resting hand moves
# a high-contrast cell by ~17 grey levels; a hand leaving changes its cells by ~100
LIT_GREY = 60.0  # mean grey of a seat's crop on a lit table (the sample game: 55-67)
DARK_MEAN, DARK_STD = 18.0, 6.0  # a crop this dark and flat shows nothing (lens covered, lights off)
MIN_VISIBLE = 0.5  # share of a zone that must lie inside the frame
DETECT_CONFIDENCE = 0.3  # MediaPipe's thresholds (observe() lowers them for hands resting on the table)
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
ZONE_SIDE = 64  # side of the grey picture of a seat's crop the zone model compares (4 x 4 crop pixels a cell)
ZONE_NEW_DIFF, ZONE_NEW_SHARE = 10.0, 0.05  # a zone shows something new when this share of its cells differ from
# the window's first frame by more than this (a 32x32 thumbnail of the whole crop hid a brown hand on wood)


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


def grey_square(crop: SeatCrop, grey: np.ndarray, side: int) -> np.ndarray:
    """A seat crop's square of a grey frame as a side x side picture (area-averaged where it shrinks, black where
    the square leaves the frame): the picture gating and the zone model compare, made without a BGR crop."""
    h, w = grey.shape[:2]
    x1, y1 = crop.x0 + crop.side, crop.y0 + crop.side
    sx0, sy0, sx1, sy1 = max(crop.x0, 0), max(crop.y0, 0), min(x1, w), min(y1, h)
    if (sx0, sy0, sx1, sy1) == (crop.x0, crop.y0, x1, y1):
        square = grey[sy0:sy1, sx0:sx1]
    else:
        square = np.zeros((crop.side, crop.side), grey.dtype)
        if sx1 > sx0 and sy1 > sy0:
            square[sy0 - crop.y0:sy1 - crop.y0, sx0 - crop.x0:sx1 - crop.x0] = grey[sy0:sy1, sx0:sx1]
    if crop.side < side:
        return cv2.resize(square, (side, side), interpolation=cv2.INTER_LINEAR)
    k = crop.side // side
    if k >= 2:  # whole k x k blocks averaged first: OpenCV's area shrink by a whole factor costs a fraction of a
        # fractional one's, and the fractional rest is then small (gating's thumbnails are cut on every frame and
        # seat); the last side % k rows and columns (under 2 % of the square) are left out
        n = crop.side // k
        square = cv2.resize(square[:n * k, :n * k], (n, n), interpolation=cv2.INTER_AREA)
    return cv2.resize(square, (side, side), interpolation=cv2.INTER_AREA)


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


def _same_picture(a: np.ndarray, b: np.ndarray, max_diff: float = GATE_MAX_DIFF, mean_diff: float = GATE_MEAN_DIFF,
                  lit: bool = False) -> bool:
    """Whether two thumbnails show the same scene; `lit`: differences of a dim picture are scaled up to a
    lit one's first (a hand arriving on a dark table changes its cells by only ~17-25 grey levels)."""
    diff = np.abs(a - b)
    if lit:
        diff *= max(1.0, LIT_GREY / max(_mean(a), _mean(b), 1.0))
    return float(diff.max()) <= max_diff and _mean(diff) <= mean_diff


def _mean(values: np.ndarray) -> float:
    """The mean of a small array as numpy's mean gives it (the sum in the array's own type, over the count), without
    its per-call overhead: the gating comparisons take ~30 means per seat and frame."""
    return float(values.sum() / values.size)


@dataclass(frozen=True)
class Hand:
    seat: int
    landmarks: np.ndarray  # (21, 3) frame pixels (z scaled like x)
    score: float
    pose: Pose
    thumb: float | None = None  # the picture's thumb reading of a fist (vision.thumb decision), None: not read

    @property
    def palm_centre(self) -> tuple[float, float]:
        x, y = self.landmarks[PALM_POINTS, :2].mean(axis=0)
        return float(x), float(y)

    @property
    def palm_length(self) -> float:
        """Wrist to middle knuckle in frame pixels: the hand's scale for 'is it still moving?'."""
        return float(np.linalg.norm(self.landmarks[9, :2] - self.landmarks[0, :2]))


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


@dataclass(frozen=True)
class LookSchedule:
    """When a seat's detector looks again, in frames: change gating's knobs, and those of the rules that keep the
    looks at resting hands where the hands are (see the module's doc)."""

    agree: int = 2  # consecutive runs that must agree before a still picture may reuse their answer
    refresh: int = 12  # run the detector at least this often even on a still picture ... (a run on a picture still
    # this long is a settled one: once two settled runs agree, a resting hand's re-checks end)
    refresh_max: int = 48  # ... or, for resting hands, at most this rarely: on a picture still for s frames every
    # max(refresh, s / 2) frames; the short interval at first keeps a hand that rests only half a second from being
    # missed
    relook_still: int = 3  # frames a changed picture must have been still before a fresh look (a moving arm is no vote)
    motion_step: int = 3  # frames between looks at a zone whose picture keeps changing from frame to frame: a hand in
    # flight is no vote; the first frame it moves on and the frame it comes to rest on are looked at at once
    motion_hold: int = 12  # frames skipped in flight kept to look back at (half a second)
    doubt_backoff: int = 8  # frames of a still, doubtful zone (something new, no hand found) per step of its look
    # interval: the zone model counts looked misses on one unchanged picture as one, so later looks only buy a
    # chance of finding the hand


SCHEDULE = LookSchedule()


@dataclass
class _SeatStream:
    seat: int
    crop: SeatCrop
    tracker: HandTracker | None = None  # the crop's own tracking stream (nights only)
    reference: np.ndarray | None = None  # thumbnail at the last detector run
    last_run_index: int = -(10**9)
    last_hands: list[Hand] = field(default_factory=list)
    last_raw_seats: list[int] = field(default_factory=list)  # seats the detector itself found last run
    confirmed: list[Hand] = field(default_factory=list)  # hands found in two runs in a row ...
    confirmed_thumb: np.ndarray | None = None  # ... in this picture
    confirmed_index: int = -(10**9)
    agree: int = 0  # consecutive detector runs with the same answer (which seats have a hand)
    rejected: list[tuple[int, tuple[float, float]]] = field(default_factory=list)  # (seat, palm centre) of every
    # reading the last run found in a zone but the plausibility check refused
    anchor: np.ndarray | None = None  # thumbnail at the start of the current still stretch ...
    still: int = 0  # ... and how many frames since have matched it
    run_still: int = 0  # `still` at the last detector run
    readings: deque = field(default_factory=lambda: deque(maxlen=3))  # the seat's own reading at the last runs
    moving: int = 0  # frames in a row on which the zone moved from the frame before (0: it rests or shakes)
    in_flight: deque = field(default_factory=lambda: deque(maxlen=SCHEDULE.motion_hold))  # frames skipped (Pictures) while
    # the zone has kept moving
    recent: deque = field(default_factory=lambda: deque(maxlen=HOLD_FRAMES))  # (index, thumbnail) of past frames
    lead: np.ndarray | None = None  # the grey crop on the first frame of the window (resting hands: props) ...
    lead_thumb: np.ndarray | None = None  # ... and its thumbnail
    zone_cells: np.ndarray | None = None  # the zone's cells in a ZONE_SIDE picture of the crop (zone model)
    gate_cells: np.ndarray | None = None  # the thumbnail cells gating compares (resting hands): the zone's, grown
    # by a cell, so the arms and neighbours in the crop's margin cost no look; None: the whole thumbnail (nights)
    lead_zone: np.ndarray | None = None  # the zone's cells on the window's first frame
    zone_now: np.ndarray | None = None  # ... and on the current frame


def _steady(stream: _SeatStream, open_runs: int = 2) -> bool:
    """Whether the seat's last two runs read its zone alike (the same pose, or no hand); an open palm or a finger,
    which alone can make a wrong_form finding, read so by the last `open_runs` runs."""
    runs = open_runs if stream.readings and stream.readings[-1] in OPEN_POSES else 2
    last = list(stream.readings)[-runs:]
    return len(last) == runs and len(set(last)) == 1


class _Look(NamedTuple):
    """One detector run on a seat's crop."""

    crop: np.ndarray  # the BGR crop ...
    grey: np.ndarray  # ... its full-range grey
    plain: bool  # the detector saw the crop as it is (not enhanced as dark)
    hands: list[Hand]  # what it found


@dataclass
class FrameResult:
    hands: dict[int, Hand]  # seat -> the best hand whose palm centre lies in that seat's zone
    dark: set[int]  # seats whose crop showed nothing usable on this frame
    ran: int  # detector runs spent on this frame
    skipped: int  # detector runs saved by change gating
    unread: set[int] = field(default_factory=set)  # seats with a detection refused as no readable hand
    looked: set[int] = field(default_factory=set)  # seats whose own detector ran on this frame ...
    fresh: set[int] = field(default_factory=set)  # ... and seats whose hand a detector run found on it
    # (the rest of `hands` repeat an earlier run's answer: gated or held)
    zones: dict[int, np.ndarray] = field(default_factory=dict)  # seat -> its zone's grey cells (resting mode)
    own: dict[int, list[Hand]] = field(default_factory=dict)  # seat -> every hand its own crop shows in its zone
    # (fresh or repeated; dark seats left out): nights keep them all (a check shows 6-10 with two hands)
    pinned: dict[int, list[tuple[int, float, Hand | None, bool]]] = field(default_factory=dict)  # seat -> earlier
    # frames skipped in flight and looked at now (index, time, its own hand or None, refused as unreadable)


@dataclass
class _FrameWork:
    """What one frame's seats gave, gathered before each seat's best hand is chosen."""

    result: FrameResult = field(default_factory=lambda: FrameResult({}, set(), 0, 0))
    found: list[Hand] = field(default_factory=list)  # every hand a run found or repeated, in any zone
    refused: dict[int, list[tuple[float, float]]] = field(default_factory=dict)  # seat -> refused readings' palms
    rested: dict[int, Picture] = field(default_factory=dict)  # seat -> the frame its zone came to rest on


def unusable_seats(seat_map: SeatMap) -> dict[int, str]:
    """Seats that cannot be watched at all, with why: no zone, or the zone lies outside the picture. The reasons
    stay English (catalogue msgids): the observations file keeps them, and whoever shows one shows `_(why)`."""
    why = {n: N_("no zone in the seat map") for n in range(1, 11) if n not in seat_map.seats}
    for n, seat in seat_map.seats.items():
        if zone_visible_share(seat.zone, seat_map.frame_size) < MIN_VISIBLE:
            why[n] = N_("the seat's zone lies outside the picture")
    return why


class SeatDetector:
    """Detects hands for every watchable seat of a seat map, frame after frame."""

    def __init__(self, seat_map: SeatMap, model: str = "full", gating: bool = True,
                 min_confidence: float = DETECT_CONFIDENCE, resting: bool = False,
                 options: VisionOptions = DEFAULT, backend: HandBackend | None = None) -> None:
        """`resting`: watch hands resting on the table (observe) by fresh looks under `options`, whose
        min_confidence then replaces `min_confidence`; otherwise (nights) plain tracking streams at `min_confidence`.
        `backend`: the hand detector (whoever made it closes it, and its own model and thresholds apply);
        None: MediaPipe on `model` at that min_confidence, closed with this detector."""
        self.seat_map = seat_map
        self.gating = gating
        self.resting = resting
        self.options = options
        self.seconds = {"crop": 0.0, "inference": 0.0}  # where the time goes (bench/vision_speed.py)
        confidence = options.min_confidence if resting else min_confidence
        self.backend: HandBackend = backend if backend is not None else MediaPipeBackend(model, confidence)
        self._owns_backend = backend is None
        blocked = unusable_seats(seat_map)
        self.streams = {n: self._stream(n, crop_for_zone(seat.zone, seat_map.frame_size))
                        for n, seat in sorted(seat_map.seats.items()) if n not in blocked}
        self.pose_check = (PoseCheck(seat_map, list(self.streams), backend=self.backend,
                                     world_fingers=options.world_fingers)
                           if resting and (options.second_look or options.picture_thumbs or options.tight_look)
                           else None)

    def _stream(self, seat: int, crop: SeatCrop) -> _SeatStream:
        stream = _SeatStream(seat, crop, None if self.resting else self.backend.tracker())
        if self.resting:
            stream.zone_cells = zone_mask(crop, self.seat_map.seats[seat].zone)
            cells = zone_mask(crop, self.seat_map.seats[seat].zone, THUMB_SIZE).astype(np.uint8)
            stream.gate_cells = cv2.dilate(cells, np.ones((3, 3), np.uint8)).astype(bool)
        return stream

    def reset(self) -> None:
        """Forget every stream's tracking and gating state (fresh tracking streams): what a window shows then
        depends on that window alone, not on which windows were decoded before it or in which process."""
        self._close_trackers()
        self.streams = {n: self._stream(n, s.crop) for n, s in self.streams.items()}
        if self.pose_check is not None:
            self.pose_check.last.clear()

    def _close_trackers(self) -> None:
        for stream in self.streams.values():
            if stream.tracker is not None:
                stream.tracker.close()
                stream.tracker = None

    def close(self) -> None:
        self._close_trackers()
        if self.pose_check is not None:
            self.pose_check.close()
        if self._owns_backend:
            self.backend.close()

    def __enter__(self) -> SeatDetector:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def process(self, index: int, t: float, frame: np.ndarray | Picture) -> FrameResult:
        """Detect on one upright frame at full resolution (the seat map must match its size): a BGR array, or a
        Picture, converted to BGR only if some seat's detector runs on it (gating reads its grey)."""
        picture = frame if isinstance(frame, Picture) else Picture(index, t, image=frame)
        work = _FrameWork()
        for stream in self.streams.values():
            self._watch(stream, picture, work)
        return self._settle(picture, work)

    def _watch(self, stream: _SeatStream, picture: Picture, work: _FrameWork) -> None:
        """One seat on one frame: dark, gated (its last answer repeated), waiting in flight, or looked at."""
        t0 = time.perf_counter()
        small = picture.full_range(grey_square(stream.crop, picture.luma, ZONE_SIDE))
        thumb = cv2.resize(small, (THUMB_SIZE, THUMB_SIZE), interpolation=cv2.INTER_AREA).astype(np.float32)
        grey = (picture.full_range(grey_square(stream.crop, picture.luma, stream.crop.size))
                if stream.lead is None else None)
        self.seconds["crop"] += time.perf_counter() - t0
        if float(thumb.mean()) < DARK_MEAN and float(thumb.std()) < DARK_STD:
            work.result.dark.add(stream.seat)
            stream.reference, stream.last_hands, stream.agree, stream.confirmed = None, [], 0, []
            stream.anchor, stream.still = None, 0
            stream.in_flight.clear()
            stream.recent.clear()
            return
        if stream.zone_cells is not None:
            work.result.zones[stream.seat] = stream.zone_now = small[stream.zone_cells]
            if stream.lead_zone is None:
                stream.lead_zone = stream.zone_now
        view = thumb if stream.gate_cells is None else thumb[stream.gate_cells]
        if self.resting:
            if stream.lead is None:
                stream.lead, stream.lead_thumb = grey, thumb
            if stream.anchor is None or not _same_picture(view, stream.anchor):
                stream.anchor, stream.still = view, 0
            stream.still += 1
            stream.moving = stream.moving + 1 if self._flying(stream, view, picture.index) else 0
            stream.recent.append((picture.index, thumb))
        flight = self.gating and self._in_flight(stream, picture.index)
        if flight or (self.gating and self._unchanged(stream, view, thumb, picture.index)):
            self._repeat(stream, picture, flight, work)
        else:
            self._run(stream, picture, thumb, view, grey, work)

    @staticmethod
    def _repeat(stream: _SeatStream, picture: Picture, flight: bool, work: _FrameWork) -> None:
        """A seat whose detector is not run on this frame: its last answer stands (a frame in flight waits to be
        looked back at should a later look find the hand come or gone)."""
        if flight:
            stream.in_flight.append(picture)
        elif not stream.moving:
            stream.in_flight.clear()  # at rest: what flew before is settled
        work.result.skipped += 1
        own = work.result.own[stream.seat] = [h for h in stream.last_hands if h.seat == stream.seat]
        # a zone-gated stream vouches for its own zone only: the other zones its crop shows may have changed
        work.found.extend(stream.last_hands if stream.gate_cells is None else own)
        for seat, centre in stream.rejected:  # its refusals repeated with its answer: the same picture refuses alike
            if stream.gate_cells is None or seat == stream.seat:
                work.refused.setdefault(seat, []).append(centre)

    def _run(self, stream: _SeatStream, picture: Picture, thumb: np.ndarray, view: np.ndarray,
             grey: np.ndarray | None, work: _FrameWork) -> None:
        """A seat's detector run on this frame, the frames it skipped in flight looked back at where its answer
        changed, and the stream's memory of the run."""
        index, result = picture.index, work.result
        look = self._look_at(stream, picture, grey)
        raw = look.hands
        if self.options.tight_look and self.pose_check is not None and self._doubtful(stream, raw, thumb):
            raw = raw + self._relook(stream, picture.image, look)
        result.ran += 1
        result.looked.add(stream.seat)
        result.fresh.update(h.seat for h in raw)
        hands = raw if self.resting else self._hold(stream, raw, thumb, index)
        if stream.in_flight and _holds(hands, stream.seat) != _holds(stream.last_hands, stream.seat):
            result.pinned[stream.seat] = self._pin_back(stream, _holds(hands, stream.seat))
            result.ran += len(result.pinned[stream.seat])
        if not stream.moving and stream.in_flight and stream.in_flight[-1].index == index - 1:
            work.rested[stream.seat] = stream.in_flight[-1]  # the frame the zone came to rest on shows this picture
        if not stream.moving:
            stream.in_flight.clear()
        same = sorted(h.seat for h in hands) == sorted(h.seat for h in stream.last_hands)
        stream.agree = stream.agree + 1 if same else 1
        stream.last_hands = hands
        stream.reference, stream.last_run_index, stream.run_still = view, index, stream.still
        work.found.extend(hands)
        result.own[stream.seat] = [h for h in hands if h.seat == stream.seat]
        for seat, centre in stream.rejected:
            work.refused.setdefault(seat, []).append(centre)

    def _settle(self, picture: Picture, work: _FrameWork) -> FrameResult:
        """Each seat's best hand of the frame, its form checked (lone_open, the second look), and the frame the
        zone came to rest on given this frame's answer."""
        result, index = work.result, picture.index
        best: dict[int, Hand] = {}
        for hand in work.found:
            if hand.seat not in best or hand.score > best[hand.seat].score:
                best[hand.seat] = hand
        if self.resting and self.options.lone_open:
            best = {n: replace(hand, pose=Pose("other", hand.pose.fingers, 0.0))
                    if hand.pose.pose in OPEN_POSES and _beside(hand, work.refused.get(n, [])) else hand
                    for n, hand in best.items()}
        if self.pose_check is not None:
            best = {n: self.pose_check.confirm(hand, picture, index, self.options.second_look,
                                               self.options.picture_thumbs, self._checked_since(n, result.looked))
                    for n, hand in best.items()}
        for n in result.looked:  # what each run read in its own zone, as settled by its second look
            self.streams[n].readings.append(best[n].pose.pose if n in best else None)
        for n, still in work.rested.items():  # skipped in flight, but its picture is this one: this frame's answer
            result.pinned.setdefault(n, []).append((still.index, still.t, best.get(n), False))
        result.hands, result.unread = best, set(work.refused) - set(best)
        return result

    def _checked_since(self, seat: int, looked: set[int]) -> int | None:
        """The frame from which a second look at `seat` still holds: its detector's last run, where change gating
        repeated that run's answer on this frame (the zone shows the picture it ran on, so a look at it again would
        only repeat the reading)."""
        stream = self.streams.get(seat)
        if stream is None or seat in looked:
            return None
        return stream.last_run_index

    @staticmethod
    def _doubtful(stream: _SeatStream, raw: list[Hand], thumb: np.ndarray) -> bool:
        """Whether a run that found no hand of the stream's own seat deserves a fresh look: the picture has come
        to rest on something the window's first frame did not show (a hand put down that the look at the seat's
        crop missed). Not on a refused or a lost hand as such: on the stress clips that brought back
        hands in motion and compression artefacts (3 false findings)."""
        if any(h.seat == stream.seat for h in raw) or stream.lead_thumb is None or stream.still < SCHEDULE.relook_still:
            return False
        return SeatDetector._shows_new(stream, thumb)

    @staticmethod
    def _shows_new(stream: _SeatStream, thumb: np.ndarray, lit: bool = False) -> bool:
        """Whether the seat's zone shows something its window's first frame did not; `lit`: a dim zone's
        differences scaled up to a lit one's first (as for holding a hand: a dark hand landing on a dim table
        moves the zone's cells by less than ZONE_NEW_DIFF)."""
        if stream.lead_zone is not None and stream.zone_now is not None:  # the zone's own cells, where kept
            now = stream.zone_now.astype(np.float32)
            diff = np.abs(now - stream.lead_zone)
            if lit:
                diff *= max(1.0, LIT_GREY / max(_mean(now), _mean(stream.lead_zone), 1.0))
            return np.count_nonzero(diff > ZONE_NEW_DIFF) >= ZONE_NEW_SHARE * diff.size
        return stream.lead_thumb is not None and not _same_picture(thumb, stream.lead_thumb, HOLD_MAX_DIFF,
                                                                   HOLD_MEAN_DIFF, lit=True)

    def _relook(self, stream: _SeatStream, frame: np.ndarray, look: _Look) -> list[Hand]:
        """The stream's own seat's hand from a fresh look at the tight crop and then at the stream's own (a resting
        fist from straight above may show at one and not the other). The stream's crop is skipped where the run
        just made looked at that very picture (not enhanced): the detector gives one picture one answer."""
        crops = [self.pose_check.crops[stream.seat]]
        if not look.plain:
            crops.append(stream.crop)
        for seat_crop in crops:
            for points, world in self.pose_check.hands_at(stream.seat, frame, seat_crop):
                if not looks_like_prop(look.crop, look.grey, stream.lead, stream.crop.from_frame(points)):
                    return [Hand(stream.seat, points, RELOOK_SCORE,
                                 classify(points, world if self.options.world_fingers else None))]
        return []

    def _look_at(self, stream: _SeatStream, picture: Picture, grey: np.ndarray | None = None) -> _Look:
        """One detector run on the stream's crop of `picture` (dark crops enhanced for resting hands); `grey`: the
        crop's full-range grey, where already cut."""
        t0 = time.perf_counter()
        crop = stream.crop.cut(picture.image)
        if grey is None:
            grey = picture.full_range(grey_square(stream.crop, picture.luma, stream.crop.size))
        self.seconds["crop"] += time.perf_counter() - t0
        seen = enhance_dark(crop, grey) if self.resting and self.options.enhance_dark else crop
        return _Look(crop, grey, seen is crop, self._detect(stream, seen, picture.t))

    def _detect(self, stream: _SeatStream, crop: np.ndarray, t: float) -> list[Hand]:
        """The hands one detector run finds on a stream's crop: its tracking stream's, or a fresh look's."""
        t0 = time.perf_counter()
        detected = stream.tracker.detect(crop, t) if stream.tracker is not None else self.backend.look(crop)
        self.seconds["inference"] += time.perf_counter() - t0
        return self._hands(stream, detected)

    @staticmethod
    def _flying(stream: _SeatStream, view: np.ndarray, index: int) -> bool:
        """Whether the zone's picture moved from the frame before by more than holding allows ('unchanged' for a
        resting hand: a camera shaking by a pixel or two stays under it, a hand coming or going does not), with a
        dim zone's differences scaled up to a lit one's."""
        if not stream.recent or stream.recent[-1][0] != index - 1:
            return False
        before = stream.recent[-1][1]
        return not _same_picture(view, before if stream.gate_cells is None else before[stream.gate_cells],
                                 HOLD_MAX_DIFF, HOLD_MEAN_DIFF, lit=True)

    def _in_flight(self, stream: _SeatStream, index: int) -> bool:
        """Whether the seat's zone keeps changing and was looked at less than `motion_step` frames ago (resting hands):
        a hand in flight is no vote, so its frames wait; the first frame the zone moves on and the frame it comes to
        rest on are looked at at once, and where a look finds a hand come or gone the waiting frames get theirs,
        looked at from the latest back. The first moving frame's look is what the landing rule needs: with it
        waiting too, a hand swooping in was seen first where it landed, the zone model began its run on the
        frames of pixels moving before that, and onsets came 4 frames early (our renders)."""
        return (self.resting and stream.reference is not None and stream.moving > 1
                and index - stream.last_run_index < SCHEDULE.motion_step)

    def _pin_back(self, stream: _SeatStream, now: bool) -> list[tuple[int, float, Hand | None, bool]]:
        """The frames skipped in flight, looked at from the latest back to the first that does not show what this
        run found (`now`: a hand of the seat): where the hand came or went. Back past the looks in between, since
        in a blurred or shaking picture one look may miss a hand that the frames before it show."""
        pins = []
        while stream.in_flight:
            pins.append(self._pin(stream, stream.in_flight.pop()))
            if (pins[-1][2] is not None) != now:
                break
        stream.in_flight.clear()
        return pins

    def _pin(self, stream: _SeatStream, picture: Picture) -> tuple[int, float, Hand | None, bool]:
        """The seat's own hand on a frame its detector skipped in flight, looked at now that a later look found
        the hand come or gone: (index, time, hand or None, a reading refused as unreadable)."""
        rejected = stream.rejected
        mine = [h for h in self._look_at(stream, picture).hands if h.seat == stream.seat]
        unread = any(seat == stream.seat for seat, _ in stream.rejected)
        stream.rejected = rejected
        hand = max(mine, key=lambda h: h.score) if mine else None
        if hand is not None and self.pose_check is not None:
            hand = self.pose_check.confirm(hand, picture, picture.index, self.options.second_look,
                                           self.options.picture_thumbs)
        return picture.index, picture.t, hand, unread and hand is None

    def _unchanged(self, stream: _SeatStream, view: np.ndarray, thumb: np.ndarray, index: int) -> bool:
        """Whether the seat's detector may repeat its last answer: the picture it compares (`view`: the zone's cells
        for resting hands, else the whole thumbnail `thumb`) matches the one at its last run, and no rule wants a
        look. A refused reading is part of the answer repeated: a fresh look at the same picture refuses it again."""
        refresh = (min(SCHEDULE.refresh_max, max(SCHEDULE.refresh, stream.still // 2)) if self.resting
                   else SCHEDULE.refresh)
        if stream.reference is None or (stream.agree < SCHEDULE.agree and not self._miss_stands(stream)):
            return False
        if index - stream.last_run_index >= refresh and not self._recheck_spared(stream, thumb):
            return False
        # a still picture showing something new in the zone and no hand found there: a fresh look has no state to
        # carry a miss, so a repeated miss is no answer; gating it froze a dark fist half hidden behind a prop,
        # which only some fresh looks find
        if self.resting and self._doubtful(stream, stream.last_hands, thumb) and self._doubt_due(stream, index):
            return False
        # a zone whose last runs read it alike moves on only by more than a resting hand's jitter (and a dim zone's
        # differences scaled up to a lit one's): zones drifting under arms and shadows keep their answer
        if self.resting and stream.agree >= SCHEDULE.agree and _steady(stream, open_runs=3):
            return _same_picture(view, stream.reference, HOLD_MAX_DIFF, HOLD_MEAN_DIFF, lit=True)
        return _same_picture(view, stream.reference)

    def _recheck_spared(self, stream: _SeatStream, thumb: np.ndarray) -> bool:
        """Whether a still zone of a resting hand due for its periodic re-check needs none: a fresh look on an
        unchanged picture can only repeat the runs before it. So where the zone shows its window's first picture (a
        dim zone's differences scaled up to a lit one's, else a dark hand landing late barely moves it off that
        picture), or where a run on its settled picture read what the run before it did; runs made while a hand
        was still settling keep being re-checked (a landing fist can read as a finger before it reads right)."""
        if not self.resting:
            return False
        if not self._shows_new(stream, thumb, lit=True):
            return True
        return stream.run_still >= SCHEDULE.refresh and _steady(stream)

    def _doubt_due(self, stream: _SeatStream, index: int) -> bool:
        """Whether a still zone that shows something new, where no hand was found, is due for its next look: on
        every frame for its first `doubt_backoff` still frames, then every second frame for as many, every third...
        The zone model takes looked misses on one unchanged picture for a single miss and a repeated miss for no
        evidence, so the later looks only buy a chance of finding the hand, which it back-dates over that picture."""
        return index - stream.last_run_index > max(0, stream.still - SCHEDULE.relook_still) // SCHEDULE.doubt_backoff

    def _miss_stands(self, stream: _SeatStream) -> bool:
        """Whether the seat's last run, a fresh look that found no hand of the seat and refused no reading there,
        may be repeated without a second run to agree: the rules for resting hands already decide when such a zone
        is looked at again (as soon as it rests on something new, or when it changes), and a second run to agree
        would almost always repeat the miss."""
        return (self.resting and not _holds(stream.last_hands, stream.seat)
                and not any(seat == stream.seat for seat, _ in stream.rejected))

    @staticmethod
    def _hold(stream: _SeatStream, raw: list[Hand], thumb: np.ndarray, index: int) -> list[Hand]:
        """A miss on an unchanged picture is not believed (the detector flickers on a still hand).

        Hands the detector found in two runs in a row are 'confirmed' with the picture they were
        found in; while the crop still matches that picture, for at most HOLD_FRAMES, a run that
        misses them keeps them. A hand that leaves changes the picture, so its offset is unaffected.
        """
        raw_seats = sorted(h.seat for h in raw)
        if raw and raw_seats == stream.last_raw_seats:
            stream.confirmed, stream.confirmed_thumb, stream.confirmed_index = raw, thumb, index
        stream.last_raw_seats = raw_seats
        if (stream.confirmed and stream.confirmed_thumb is not None and index - stream.confirmed_index <= HOLD_FRAMES
                and _same_picture(thumb, stream.confirmed_thumb, HOLD_MAX_DIFF, HOLD_MEAN_DIFF)):
            return raw + [h for h in stream.confirmed if h.seat not in raw_seats]
        return raw

    def _hands(self, stream: _SeatStream, detected: list[DetectedHand]) -> list[Hand]:
        """The detected hands (crop pixels) that lie in a seat's zone and read as hands, in frame pixels; the
        seats and palm centres of those refused as unreadable go to `stream.rejected`."""
        hands: list[Hand] = []
        stream.rejected = []
        for found in detected:
            points = stream.crop.to_frame(found.landmarks)
            cx, cy = points[PALM_POINTS, :2].mean(axis=0)
            seat = self.seat_map.seat_at(float(cx), float(cy))
            if seat is None:
                continue  # a hand outside every zone: an idle hand, not a vote
            if not plausible_hand(found.landmarks[:, :2], found.world):
                stream.rejected.append((seat, (float(cx), float(cy))))
                continue
            # resting hands: fingers extended in the 3-D landmarks too (vision.pose); nights read raised hands as before
            world = found.world if self.resting and self.options.world_fingers else None
            hands.append(Hand(seat, points, found.score, classify(points, world)))
        return hands
