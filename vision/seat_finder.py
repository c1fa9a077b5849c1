"""The seat map found from the video itself: where each player's hand lands and rests during the votes.

Why: a judge gets a video and a protocol the evening after the game and will not draw ten polygons. During a
vote every voter puts a hand on the table in front of their own seat and leaves it there from «Стоп» until the
count is announced, so the places where hands come to rest during the protocol's vote windows *are* the seat
zones. What is done, in order:

1. Looking: in every vote window a few frames a second from just before «Стоп» to just after the count
   (`[cutoff - 0.5 s, announced + 0.3 s]`, when every voter's hand rests) are compared with the pictures two
   seconds before the naming and 1.5 s after the count; the coarse tiles of the frame (squares a quarter of
   the picture's height, overlapping) where something differs from both are shown to the hand detector
   (vision.backend, one fresh look per tile). A hand counts where a quarter of its box differs from both
   pictures (an idle hand or a prop lying there before and after the vote is no vote) and where it is found
   again, in the same place, on another frame of the same window (a hand passing by is no rest).
2. Grouping: each window's resting hands are merged per place, then the places of all windows are grouped by
   distance (average linkage, cut at twice the median palm length: neighbours' zones lie three to four palm
   lengths apart) into at most ten resting places.
3. Numbering (the assumption, stated): the judge sits at the end of the table nearest the camera (the camera
   stands behind the judge, as tournament rules ask for a view of every player's hands and as our renderer and
   the validation clips have it), so the judge's place is where the ring of resting places crosses the
   downward ray from its centre; seat 1 is the judge's left (the screen's left, seen from behind the judge) and
   the seats run clockwise seen from above (the order of speech "to the next player clockwise", showtime rules;
   seat 1 speaks first, rfm 4.3). Chairs that hold no found place (an empty chair, a player who never voted,
   a player who has left) are put where the ring's spacing shows a gap; the seats known to have left (from the
   protocol) never get a place. Where the protocol names the voters of a vote, the numbering that agrees best
   with them is taken (a seat that voted for X must have a hand in its zone during X's window).
   `renumbered` flips the direction or moves seat 1, for a judge whose camera stands elsewhere.
4. Zones: the hull of a place's hand boxes, grown by two fifths, cut at the half-way line to every neighbour
   (no two zones overlap) and at the frame's edge. A living seat whose player never put a hand down gets a
   zone guessed between its neighbours (confidence 0, and a message saying so), so that the audit can say
   "no vote" rather than "cannot see".

Without vote windows (the first minutes of a game, a protocol without times) the frames are sampled evenly over
the whole video and every tile is looked at (no change to compare with); the places are then where hands rest
most, which is rougher (`mode` says which). Faces and bodies are not used: no face or pose model is bundled.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage

from vision.backend import HandBackend, MediaPipeBackend
from vision.crops import CROP_SIZE, SeatCrop
from vision.pose import plausible_hand
from vision.seats import Seat, SeatMap, point_in_polygon
from vision.video import VideoSource, open_video

SEAT_COUNT = 10
PALM_POINTS = [0, 5, 9, 13, 17]
RATE = 3.0  # frames a second looked at inside a vote window
BEFORE_S = 2.0  # the reference pictures: this long before the candidate's naming (a hand that lands early,
# a finding of its own, is mostly not there yet) ...
AFTER_S = 1.5  # ... and this long after the announced count, when the voters' hands have gone. A voter's hand
# differs from both; an idle hand or a prop lying there before and after differs from neither
LEAD_S = 0.5  # look from this long before «Стоп» (every voter's hand has landed) ...
TAIL_S = 0.3  # look this far past the announced count (hands may still rest)
TILE_SHARE = 0.24  # a tile's side as a share of the picture's height: a palm of 3-5 % of the height becomes
# 30-55 px on the detector's 256 px picture, as on vision.observe's seat crops (a third of the height made
# them 20-35 px, and a seat of our own sample clips was never found)
SMALL_TILE_SHARE = 0.12  # the smallest tiles (a tenth of a 720p picture's height: hands of 10 px palm)
TILE_PALM = 36.0  # px: the palm length on the detector's picture the tiles aim at where hands are small
TILE_STEP = 0.6  # tiles overlap: a step of this share of their side, so every hand lies whole in one
CHANGE_LEVEL = 20  # levels of one colour channel (on a 1/4-size picture) for a pixel to count as changed
HAND_CHANGED = 0.25  # share of a hand's landmark box that must have changed: it came to the table for the vote
CHANGE_SHARE = 0.004  # a tile is looked at when this share of it changed
SAME_PLACE = 0.7  # palm lengths: two sightings this close on two frames of a window are one resting hand
GROUP_PALMS = 2.0  # palm lengths: the cut of the grouping across windows
GROW = 1.4  # a zone is its hand boxes' hull grown by this factor about its centre (cut at the neighbours)
WHOLE_VIDEO_FRAMES = 10  # frames looked at when there are no vote windows
ProgressFn = Callable[[int, int], None]


@dataclass(frozen=True)
class Window:
    """One vote as the finder needs it (seconds on the video's clock): the naming, the cut-off, the count, and
    the seats the protocol lists as voters (None: not recorded)."""

    t: float
    cutoff: float
    announced: float
    voters: frozenset[int] | None = None
    label: str = ""  # how a judge names it ("day 1, candidate 6"), for messages


@dataclass(frozen=True)
class Sighting:
    """One hand the detector found on one frame, in frame pixels."""

    window: int
    t: float
    x: float
    y: float
    palm: float  # wrist to middle knuckle
    box: tuple[float, float, float, float]  # x0 y0 x1 y1 of the landmarks


@dataclass(frozen=True)
class Place:
    """Where hands came to rest: the ring position of one found seat."""

    x: float
    y: float
    boxes: np.ndarray  # (N, 4) hand boxes of its sightings
    sightings: int
    windows: frozenset[int]  # the vote windows with a resting hand here


@dataclass(frozen=True)
class FoundMap:
    """A found seat map with what a judge needs to trust it: per seat a confidence, per unfound seat why."""

    seat_map: SeatMap
    confidence: dict[int, float]
    unfound: dict[int, str]
    places: tuple[Place, ...]  # clockwise from the judge's place
    slots: tuple[int, ...]  # each place's chair, 0-9 clockwise from the judge's left (before renumbering)
    living: frozenset[int]
    mode: str  # "votes" or "whole video"
    seconds: float
    fit: float  # the ring's fit cost (vision.seat_finder.assign_chairs), part of every confidence
    windows: tuple[Window, ...] = ()
    flipped: bool = False
    shift: int = 0  # seat 1 moved this many chairs clockwise
    checked_by_voters: bool = False

    def to_json(self) -> dict:
        """The `stopframe-seats/1` map with the finder's evidence in `x_found` (an x_ extension, spec §1)."""
        data = self.seat_map.to_json()
        data["x_found"] = {
            "mode": self.mode,
            "seconds": round(self.seconds, 2),
            "direction": "counter-clockwise" if self.flipped else "clockwise",
            "seat1_moved": self.shift,
            "checked_by_voters": self.checked_by_voters,
            "confidence": {str(n): round(c, 3) for n, c in sorted(self.confidence.items())},
            "unfound": {str(n): why for n, why in sorted(self.unfound.items())},
        }
        return data


def tiles(width: int, height: int, share: float = TILE_SHARE, step: float = TILE_STEP) -> list[SeatCrop]:
    """Overlapping squares covering the picture, each later shown to the detector at 256 px."""
    side = max(64, int(round(height * share)))
    stride = max(16, int(round(side * step)))

    def starts(extent: int) -> list[int]:
        if extent <= side:
            return [0]
        out = list(range(0, extent - side + 1, stride))
        if out[-1] + side < extent:
            out.append(extent - side)
        return out

    return [SeatCrop(x, y, side) for y in starts(height) for x in starts(width)]


def _small(image: np.ndarray) -> np.ndarray:
    """The picture at a quarter of its size, lightly blurred (sensor noise and compression are no change)."""
    small = cv2.resize(image, (image.shape[1] // 4, image.shape[0] // 4), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (3, 3), 0)


def change_mask(reference: np.ndarray, now: np.ndarray) -> np.ndarray:
    """Where `now` (a quarter-size colour picture) differs from `reference` in any colour channel, grown a
    little (a hand's own edges). Colour, not grey: skin on a wooden table can be as bright as the wood."""
    changed = (cv2.absdiff(reference, now).max(axis=2) > CHANGE_LEVEL).astype(np.uint8)
    return cv2.dilate(changed, np.ones((5, 5), np.uint8)) > 0


def _box_changed(mask: np.ndarray, box: tuple[float, float, float, float]) -> bool:
    """Whether a hand's landmark box (frame pixels) shows enough change to be a hand that came to the table."""
    x0, y0, x1, y1 = (int(v) // 4 for v in box)
    part = mask[max(0, y0):max(0, y1) + 1, max(0, x0):max(0, x1) + 1]
    return part.size > 0 and float(part.mean()) >= HAND_CHANGED


def _tile_changed(mask: np.ndarray, tile: SeatCrop) -> bool:
    x0, y0, s = tile.x0 // 4, tile.y0 // 4, max(1, tile.side // 4)
    part = mask[max(0, y0):y0 + s, max(0, x0):x0 + s]
    return part.size > 0 and float(part.mean()) > CHANGE_SHARE


def look_at_frame(backend: HandBackend, image: np.ndarray, grid: Sequence[SeatCrop], window: int, t: float,
                  mask: np.ndarray | None) -> list[Sighting]:
    """The hands on one frame: every tile (or every tile where `mask` shows a change), hands on changed pixels."""
    found: list[Sighting] = []
    for tile in grid:
        if mask is not None and not _tile_changed(mask, tile):
            continue
        for hand in backend.look(tile.cut(image)):
            points = tile.to_frame(hand.landmarks)
            if not plausible_hand(points, hand.world):
                continue
            x, y = points[PALM_POINTS, :2].mean(axis=0)
            palm = float(np.linalg.norm(points[9, :2] - points[0, :2]))
            lo, hi = points[:, :2].min(axis=0), points[:, :2].max(axis=0)
            if mask is not None and not _box_changed(mask, (*lo, *hi)):
                continue
            found.append(Sighting(window, t, float(x), float(y), palm, (*map(float, lo), *map(float, hi))))
    return _one_per_hand(found)


def _one_per_hand(sightings: list[Sighting]) -> list[Sighting]:
    """Overlapping tiles find one hand twice: keep one sighting per place on one frame."""
    kept: list[Sighting] = []
    for s in sightings:
        if all(math.hypot(s.x - k.x, s.y - k.y) > SAME_PLACE * max(s.palm, k.palm) for k in kept):
            kept.append(s)
    return kept


def resting(sightings: list[Sighting]) -> list[Sighting]:
    """The sightings found again in the same place on another frame of the same window: hands at rest."""
    kept = []
    for s in sightings:
        if any(o.window == s.window and o.t != s.t and math.hypot(s.x - o.x, s.y - o.y) <= SAME_PLACE * s.palm
               for o in sightings):
            kept.append(s)
    return kept


def group_places(sightings: list[Sighting], most: int = SEAT_COUNT) -> list[Place]:
    """Resting places: sightings grouped by distance, at most `most` (the best supported)."""
    if not sightings:
        return []
    points = np.array([(s.x, s.y) for s in sightings])
    palm = float(np.median([s.palm for s in sightings]))
    if len(points) == 1:
        labels = np.ones(1, int)
    else:
        labels = fcluster(linkage(points, "average"), GROUP_PALMS * palm, criterion="distance")
    places = []
    for label in np.unique(labels):
        members = [s for s, k in zip(sightings, labels, strict=True) if k == label]
        xy = np.median(np.array([(s.x, s.y) for s in members]), axis=0)
        places.append(Place(float(xy[0]), float(xy[1]), np.array([s.box for s in members]), len(members),
                            frozenset(s.window for s in members)))
    places.sort(key=lambda p: (-len(p.windows), -p.sightings))
    return places[:most]


def _judge_angles(places: Sequence[Place]) -> tuple[np.ndarray, tuple[float, float]]:
    """Each place's angle clockwise (on screen) from the downward ray through the ring's centre, 0-2π. The
    centre is the middle of the places' bounding box: a mean would lean away from a side with empty chairs."""
    xy = np.array([(p.x, p.y) for p in places])
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    centre = (float(lo[0] + hi[0]) / 2, float(lo[1] + hi[1]) / 2)
    angles = np.arctan2(xy[:, 1] - centre[1], xy[:, 0] - centre[0])  # y down: growing angle = clockwise
    return np.mod(angles - math.pi / 2, 2 * math.pi), centre


def assign_chairs(places: Sequence[Place], living: frozenset[int]) -> tuple[list[int], float]:
    """Each place's chair (0-9, clockwise from the judge's left), places given clockwise from the judge.

    The chairs without a place are chosen where the ring's spacing shows a gap: consecutive places k chairs
    apart should be k times the usual spacing apart (one empty chair is told surely; several in a row round a
    corner of the table less so, as the straight line across the corner is short). At the judge's end the two sides mirror each other about
    the vertical line through the ring's centre (the camera stands centred behind the judge), so the first place
    should be the mirror image of the last one, one spacing further round for each chair more left empty at its
    end. Only living seats' chairs can hold a place. Returns the chairs and the fit's cost (0 = regular)."""
    m = len(places)
    if m == 0:
        return [], 0.0
    phi, centre = _judge_angles(places)
    xy = np.array([(p.x, p.y) for p in places])
    d = np.linalg.norm(np.diff(xy, axis=0), axis=1)
    unit = max(float(np.median(d)) if len(d) else 1.0, 1e-6)
    mirror = np.array([2 * centre[0] - xy[-1, 0], xy[-1, 1]])
    ends = math.copysign(float(np.linalg.norm(xy[0] - mirror)) / unit, phi[0] - (2 * math.pi - phi[-1]))
    ok = [n + 1 in living for n in range(SEAT_COUNT)]
    inf = math.inf
    cost = np.full((m, SEAT_COUNT), inf)
    back = np.zeros((m, SEAT_COUNT), int)
    for s in range(SEAT_COUNT):
        if ok[s]:
            cost[0, s] = 0.0
    for i in range(1, m):
        for s in range(SEAT_COUNT):
            if not ok[s]:
                continue
            for r in range(s):
                if cost[i - 1, r] == inf:
                    continue
                c = cost[i - 1, r] + math.log(max(float(d[i - 1]), 1e-6) / ((s - r) * unit)) ** 2
                if c < cost[i, s]:
                    cost[i, s], back[i, s] = c, r
    best, end = inf, -1
    for s in range(SEAT_COUNT):
        if cost[m - 1, s] == inf:
            continue
        first = s
        for i in range(m - 1, 0, -1):
            first = back[i, first]
        lead, trail = first, SEAT_COUNT - 1 - s
        c = cost[m - 1, s] + 0.5 * (ends - (lead - trail)) ** 2
        if c < best:
            best, end = c, s
    if end < 0:
        return [], inf
    chairs = [end]
    for i in range(m - 1, 0, -1):
        chairs.append(int(back[i, chairs[-1]]))
    return chairs[::-1], float(best)


def _chair_to_seat(chair: int, flipped: bool, shift: int) -> int:
    if flipped:
        chair = SEAT_COUNT - 1 - chair
    return (chair - shift) % SEAT_COUNT + 1


def _clip_half_plane(poly: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The part of a convex polygon nearer to point a than to point b (Sutherland-Hodgman on the bisector)."""
    normal, mid = b - a, (a + b) / 2
    side = (poly - mid) @ normal  # <= 0: a's side
    out = []
    for i in range(len(poly)):
        p, q = poly[i], poly[(i + 1) % len(poly)]
        sp, sq = side[i], side[(i + 1) % len(poly)]
        if sp <= 0:
            out.append(p)
        if (sp <= 0) != (sq <= 0):
            out.append(p + (q - p) * (sp / (sp - sq)))
    return np.array(out) if out else np.empty((0, 2))


def zone_of(place: Place, others: Sequence[Place], frame_size: tuple[int, int]) -> np.ndarray:
    """The hull of a place's hand boxes grown by GROW, cut at the half-way line to every other place (a small
    gap is kept, so neighbours never touch) and at the frame's edge."""
    b = place.boxes
    corners = np.concatenate([b[:, [0, 1]], b[:, [2, 1]], b[:, [2, 3]], b[:, [0, 3]]]).astype(np.float32)
    hull = cv2.convexHull(corners).reshape(-1, 2).astype(float)
    centre = np.array([place.x, place.y])
    poly = centre + (hull - centre) * GROW
    for other in others:
        o = np.array([other.x, other.y])
        gap = (o - centre) * 0.03
        poly = _clip_half_plane(poly, centre, o - gap)
        if len(poly) < 3:
            break
    w, h = frame_size
    if len(poly):
        poly[:, 0] = np.clip(poly[:, 0], 0, w - 1)
        poly[:, 1] = np.clip(poly[:, 1], 0, h - 1)
    return poly


def _vote_agreement(places: Sequence[Place], seats: Sequence[int], windows: Sequence[Window]) -> float:
    """How well a numbering fits the protocol's voters: +1 per vote seen in its voter's zone, -1 per hand
    resting in a zone whose seat is not among that vote's voters."""
    score = 0.0
    for w, window in enumerate(windows):
        if window.voters is None:
            continue
        for place, seat in zip(places, seats, strict=True):
            if w in place.windows:
                score += 1.0 if seat in window.voters else -1.0
    return score


def _unfound_reason(seat: int, living: frozenset[int], windows: Sequence[Window], mode: str) -> str:
    if seat not in living:
        return f"seat {seat}: the player had left the game before these votes; no zone."
    if mode == "votes":
        days = sorted({w.label.split(",")[0] for w in windows if w.label}) or ["the"]
        return f"seat {seat}: no hand seen on the table during {' and '.join(days)} votes; an empty chair?"
    return f"seat {seat}: no hand seen resting on the table in this video; an empty chair?"


def guessed_places(places: Sequence[Place], chairs: Sequence[int], wanted: Sequence[int]) -> dict[int, Place]:
    """Places for the `wanted` chairs that hold none (a living player who never put a hand down): between the
    nearest found chairs on either side, or, next to the judge, the mirror image of the chair opposite. Why: a
    seat with no zone is "cannot see" to the audit, and a player who never voted must be "no vote"."""
    at = {c: p for p, c in zip(places, chairs, strict=True)}
    if not at:
        return {}
    pairs = [(at[c].x + at[SEAT_COUNT - 1 - c].x) / 2 for c in at if SEAT_COUNT - 1 - c in at]
    xs = [p.x for p in places]
    axis = float(np.median(pairs)) if pairs else (min(xs) + max(xs)) / 2  # the line the two sides mirror about
    half = np.median(np.array([(p.boxes[:, 2:].max(axis=0) - p.boxes[:, :2].min(axis=0)) / 2 for p in places]),
                     axis=0)
    out: dict[int, Place] = {}
    for chair in wanted:
        if chair in at:
            continue
        lower = max((c for c in at if c < chair), default=None)
        upper = min((c for c in at if c > chair), default=None)
        if lower is not None and upper is not None:
            a, b = at[lower], at[upper]
            f = (chair - lower) / (upper - lower)
            x, y = a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f
        elif SEAT_COUNT - 1 - chair in at:
            opposite = at[SEAT_COUNT - 1 - chair]
            x, y = 2 * axis - opposite.x, opposite.y
        else:
            continue
        box = np.array([[x - half[0], y - half[1], x + half[0], y + half[1]]])
        out[chair] = Place(float(x), float(y), box, 0, frozenset())
    return out


def build_found(places: Sequence[Place], chairs: Sequence[int], fit: float, frame_size: tuple[int, int],
                living: frozenset[int], mode: str, seconds: float, windows: Sequence[Window],
                flipped: bool = False, shift: int = 0, checked: bool = False) -> FoundMap:
    """The map of found places under one numbering, with each seat's confidence and each unfound seat's reason;
    a living seat with no place gets a guessed zone (confidence 0) that the judge is told to check."""
    wanted = [c for c in range(SEAT_COUNT) if _chair_to_seat(c, flipped, shift) in living]
    guesses = guessed_places(places, chairs, wanted)
    every = [*zip(places, chairs, strict=True), *((p, c) for c, p in guesses.items())]
    seats: dict[int, Seat] = {}
    confidence: dict[int, float] = {}
    windows_with_hands = max(1, len({w for p in places for w in p.windows}))
    for i, (place, chair) in enumerate(every):
        zone = zone_of(place, [p for j, (p, _) in enumerate(every) if j != i], frame_size)
        if len(zone) < 3:
            continue
        seat = _chair_to_seat(chair, flipped, shift)
        seats[seat] = Seat(zone)
        seen = 1 - math.exp(-place.sightings / 4)
        if mode == "votes":
            seen *= min(1.0, 0.5 + len(place.windows) / windows_with_hands)
        confidence[seat] = round(seen * math.exp(-fit), 3)
    unfound = {n: _unfound_reason(n, living, windows, mode) for n in range(1, SEAT_COUNT + 1)
               if n not in seats or confidence.get(n) == 0}
    for n in unfound:
        if n in seats:
            unfound[n] += " Its zone is placed between its neighbours': check it on the picture."
    return FoundMap(SeatMap((int(frame_size[0]), int(frame_size[1])), seats), confidence, unfound, tuple(places),
                    tuple(chairs), living, mode, seconds, fit, tuple(windows), flipped, shift, checked)


def renumbered(found: FoundMap, flip: bool = False, move_seat1: int = 0) -> FoundMap:
    """The same places under another numbering: `flip` reverses the direction (seat 1 becomes the judge's
    right, counter-clockwise), `move_seat1` moves seat 1 that many chairs on (clockwise in the new direction).
    Every found place keeps its zone; the guessed zones follow the living seats under the new numbering."""
    return build_found(found.places, found.slots, found.fit, found.seat_map.frame_size,
                       found.living, found.mode, found.seconds, found.windows,
                       found.flipped != flip, (found.shift + move_seat1) % SEAT_COUNT, found.checked_by_voters)


def number_places(places: list[Place], living: frozenset[int], windows: Sequence[Window], frame_size: tuple[int, int],
                  mode: str, seconds: float) -> FoundMap:
    """Places in ring order, chairs from the spacing, then the numbering the protocol's voters agree with best."""
    places = places[:len(living)]
    if places:
        phi, _ = _judge_angles(places)
        places = [places[i] for i in np.argsort(phi)]
    chairs, fit = assign_chairs(places, living)
    if not chairs and places:  # no fit that leaves the left seats empty: number them all
        chairs, fit = assign_chairs(places, frozenset(range(1, SEAT_COUNT + 1)))
    flipped, shift, checked = False, 0, False
    if any(w.voters is not None for w in windows) and places:
        options = [(f, s) for f in (False, True) for s in range(SEAT_COUNT)]
        scored = []
        for f, s in options:
            seats = [_chair_to_seat(c, f, s) for c in chairs]
            if all(n in living for n in seats):
                scored.append((_vote_agreement(places, seats, windows), -(int(f) + int(s != 0)), f, s))
        if scored:
            _, _, flipped, shift = max(scored)
            checked = True
    return build_found(places, chairs, fit, frame_size, living, mode, seconds, windows, flipped, shift, checked)


def _sample_times(window: Window, rate: float) -> list[float]:
    """When every voter's hand rests: from just before «Стоп» to just after the count."""
    a, b = max(window.t, window.cutoff - LEAD_S), window.announced + TAIL_S
    count = max(2, int(math.ceil((b - a) * rate)))
    return [a + (b - a) * (k + 0.5) / count for k in range(count)]


class _Counter:
    def __init__(self, progress: ProgressFn | None, total: int) -> None:
        self.progress, self.total, self.done = progress, total, 0

    def step(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(min(self.done, self.total), self.total)


class _Masks:
    """Each vote window's two reference pictures, and the change mask of a frame against both (None without
    windows: nothing to compare with)."""

    def __init__(self, video: VideoSource, windows: Sequence[Window]) -> None:
        duration = video.meta.duration
        self.references = [[_small(video.frame_at_time(_clamp(s, duration))[1])
                            for s in (w.t - BEFORE_S, w.announced + AFTER_S)] for w in windows]

    def at(self, window: int, image: np.ndarray) -> np.ndarray | None:
        if not self.references:
            return None
        small = _small(image)
        before, after = self.references[window]
        return np.logical_and(change_mask(before, small), change_mask(after, small))


def _tile_side(detector: HandBackend, video: VideoSource, plan: Sequence[tuple[int, list[float]]], masks: _Masks,
               counter: _Counter) -> int:
    """The tile side (frame pixels) that shows this video's hands at the size the detector reads best: one
    frame of each window is looked at with tiles of TILE_SHARE, and where the hands found there are small
    (a small table far from the camera, a wide view) the tiles shrink until a palm is TILE_PALM px."""
    meta = video.meta
    side = max(64, int(round(meta.height * TILE_SHARE)))
    grid = tiles(meta.width, meta.height)
    palms = []
    for k, times in plan:
        t = times[len(times) // 2]
        _, image = video.frame_at_time(_clamp(t, meta.duration))
        palms += [s.palm for s in look_at_frame(detector, image, grid, k, t, masks.at(k, image))]
        counter.step()
    if not palms:
        return max(64, int(round(meta.height * SMALL_TILE_SHARE)))
    palm_on_tile = float(np.median(palms)) * CROP_SIZE / side
    if palm_on_tile >= TILE_PALM * 0.8:
        return side
    return max(64, int(round(side * palm_on_tile / TILE_PALM)), int(round(meta.height * SMALL_TILE_SHARE)))


def _clamp(t: float, duration: float) -> float:
    return min(max(0.0, t), max(0.0, duration - 1e-3))


def find_seats(
    video_path: str,
    windows: Sequence[Window] | None,
    living: frozenset[int] | None = None,
    *,
    backend: HandBackend | None = None,
    rate: float = RATE,
    progress: ProgressFn | None = None,
) -> FoundMap:
    """The seat map of a game video from where hands rest during `windows` (None or empty: the whole video).

    `living`: the seats still at the table during those votes (None: all ten); a seat not in it gets no zone.
    `backend`: the hand detector (default: MediaPipe on the bundled model)."""
    started = time.perf_counter()
    living = frozenset(range(1, SEAT_COUNT + 1)) if living is None else frozenset(living)
    own = backend is None
    detector: HandBackend = MediaPipeBackend("full", min_confidence=0.3) if backend is None else backend
    sightings: list[Sighting] = []
    try:
        with open_video(video_path) as video:
            meta = video.meta
            usable = [w for w in windows or () if w.t < meta.duration]
            if usable:
                mode = "votes"
                plan = [(k, _sample_times(w, rate)) for k, w in enumerate(usable)]
            else:
                mode, usable = "whole video", []
                step = meta.duration / (WHOLE_VIDEO_FRAMES + 1)
                plan = [(0, [step * (k + 1) for k in range(WHOLE_VIDEO_FRAMES)])]
            total = sum(len(ts) for _, ts in plan) + len(plan)
            counter = _Counter(progress, total)
            masks = _Masks(video, usable)
            side = _tile_side(detector, video, plan, masks, counter)
            grid = tiles(meta.width, meta.height, side / meta.height)
            for k, times in plan:
                for t in times:
                    _, image = video.frame_at_time(_clamp(t, meta.duration))
                    sightings += look_at_frame(detector, image, grid, k, t, masks.at(k, image))
                    counter.step()
    finally:
        if own:
            detector.close()
    places = group_places(resting(sightings))
    return number_places(places, living, usable, (meta.width, meta.height), mode, time.perf_counter() - started)


def place_share(zone: np.ndarray, points: Sequence[tuple[float, float]]) -> float:
    """The share of `points` (frame pixels) inside `zone` (bench and tests: truth's resting hands in a found zone)."""
    if not len(points):
        return 0.0
    return sum(point_in_polygon(zone, x, y) for x, y in points) / len(points)


