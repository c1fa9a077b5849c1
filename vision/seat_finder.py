"""The seat map found from the video itself: where each player's hand lands and rests during the votes.

Why: a judge gets a video and a protocol the evening after the game and will not draw ten polygons. During a
vote every voter puts a hand on the table in front of their own seat and leaves it there from «Стоп» until the
count is announced, so the places where hands come to rest during the protocol's vote windows *are* the seat
zones. What is done, in order:

1. Looking: in every vote window a few frames a second from just before «Стоп» to just after the count
   (`[cutoff - 0.5 s, announced + 0.3 s]`, when every voter's hand rests) are compared with the pictures two
   seconds before the naming and 1.5 s after the count; where a pixel differs from both on most of those frames
   a voter's hand and forearm rest (an idle hand or a prop lying there before and after differs from neither, a
   passing hand shows on a few frames only). Each resting blob is one voter's forearm: the detector (one fresh
   look per square, vision.backend) is shown a square on the blob's end nearest the ring's centre, where the
   hand is, on three of the frames, and the covering grid over a blob where that showed no hand. A hand counts
   where a quarter of its box rests and where it is found again on another of the frames.
2. Places: per window, one hand per forearm (the one nearest the table's middle; the detector's second "hand"
   on a forearm is a wrist or a sleeve); a blob the detector showed no hand on gets one at its end (with the
   table's outline, moved back along the forearm to the depth the seen hands rest at: the blob reaches past
   the hand); hands far off the ring the others make (a face, a hand reaching to the middle) are dropped;
   where the judge recorded a count, at most that many per window, the biggest blobs first. The places of all windows are grouped by
   distance (average linkage, cut at twice the median palm length: neighbours' zones lie three to four palm
   lengths apart) into at most ten resting places. Pictures over 1080 lines are looked at scaled down.
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
4. Zones: the hull of a place's hand boxes, grown by two fifths, and of a disc reaching 0.45 of the way to the
   nearest neighbour (a hand lands anywhere in front of the chair), cut at the half-way line to every neighbour
   (no two zones overlap) and at the frame's edge. A living seat whose player never put a hand down gets a
   zone guessed between its neighbours (confidence 0, and a message saying so), so that the audit can say
   "no vote" rather than "cannot see".

Without vote windows (the first minutes of a game, a protocol without times: players only) the frames are
sampled evenly over the whole video and every square is looked at (no change to compare with), and the
players' faces are looked for too (vision.players, MediaPipe's bundled face detector). No hand has yet shown
where a vote lands, and the evidence of where a chair stands is rough (a face is above and behind its chair,
idle hands lie at the rim to either side of it, the near players show only their backs), so numbering that
evidence slips a chair wherever one shows nothing. With the table's outline, the ten chairs are therefore laid
evenly round it from the judge's place, the far ones crowded by perspective as much as the hands' sizes say,
and fitted to the faces' and resting hands' bearings (vision.players.chair_layout); each zone is the band in
front of its chair from the rim to two hands in (`layout_places`). Without an outline, the places are where
hands rest most, with a chair added for each player's face whose bearing holds none. That map is rougher
(`mode` says which; a laid chair is trusted FACE_ONLY at most); once votes exist, finding again refines it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage

from contract.i18n import _
from contract.seats import Seat, SeatMap, point_in_polygon
from vision.backend import HandBackend, MediaPipeBackend
from vision.crops import CROP_SIZE, SeatCrop, covering_starts
from vision.players import Face, FaceFinder, chair_layout, chair_places, crowding
from vision.players import players as players_of
from vision.pose import plausible_hand
from vision.table import Table, fits_places, table_outline
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
GROW = 1.4  # a zone is its hand boxes' hull grown by this factor about its centre (cut at the neighbours) ...
ZONE_REACH = 0.45  # ... and at least a disc reaching this share of the way to the nearest other place
WHOLE_VIDEO_FRAMES = 10  # frames sampled when there are no vote windows
REST_SHARE = 0.6  # a pixel rests where it differs from both reference pictures on this share of a window's frames
DETECT_FRAMES = 3  # frames of each window shown to the detector (a resting hand must be found on two of them);
# without windows, the frames the face detector is shown
WORK_HEIGHT = 1080  # larger pictures are looked at scaled down to this height
RING_INNER, RING_OUTER = 0.35, 1.6  # a resting place lies this far from the middle of the others' box, in half
# its sides (vision.seat_finder.on_the_ring): on the ring 1, at a corner of the box 1.4
NEIGHBOUR_PALMS = 3.0  # palm lengths: two hands on one forearm blob closer than this are one voter's
CLOSE_PALMS = 0.5  # gaps in a resting blob narrower than this share of a palm are closed (vision.seat_finder.closed)
BLOB_PALMS = 2.0  # a resting blob is at least this many palm areas (a hand and some forearm)
FACE_ONLY = 0.5  # the most a chair placed from its player's face alone is trusted (no hand has rested there)
FALLBACK_PALM = 0.04  # the palm as a share of the picture's height where the detector found no hand at all
TABLE_BAND = (0.3, 1.1)  # with the table's outline: a resting place lies this far from its middle (1: the rim);
# a hand reaching to the middle lies nearer, a face or a shoulder beyond the chair farther
RIM_MARGIN = 0.05  # a zone reaches this far past the rim (the table's measure) beyond its own place at most
BEHIND_PALMS = 5.0  # palm lengths: a blob's end this far behind another hand on its line is that arm's piece
PART_HAND = 0.5  # a place whose hand boxes are smaller than this share of the usual hand's on each side shows
# part of a hand (its fingers): its zone reaches out a whole usual hand (outer_reach)
RIM_ARM_PALMS = 5.0  # palm lengths: a forearm over the rim (no hand on the table) this near a resting hand
# (of any vote) is that player's other arm or a neighbour leaning (chairs stand some six palms apart); farther from
# every hand it shows where a player sits who laid no hand down, and is kept for the numbering
TIP_DEPTH = 1.6  # palm lengths: how far back from a resting blob's end its hand may lie
TIP_SHIFT = 0.6  # palm lengths: a hand missed by the detector is put this far back from its resting blob's end
SEEN_DEPTH_LEAST = 4  # resting sightings on the table needed to tell how far in this table's voters rest a hand
CHAIR_BAND = (0.5, 2.3)  # hand depths (a hand's extent along the way in) in from the rim: a vote hand lands
# somewhere in this band in front of its chair (how far in differs by table and player); players only, a zone spans it
BEARING_HANDS = (0.45, 1.15)  # the table's measure: hands resting this far out show a chair's bearing (an idle
# hand at the rim, a hand laid on the table); nearer the middle, a hand reaching across
BEARING_FACES = (1.15, 2.5)  # ... and faces this far out (a player behind the rim; farther: a wall, a poster)
SAME_CHAIR = 0.25  # two places whose bearings from the table's middle differ by less than this share of the even
# chair spacing are one chair's
ARC_STEPS = 16  # points per stretch when measuring the way round the ring between two places
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
    count: int | None = None  # the judge's count of hands (None: not recorded)


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
    faces: int = 0  # frames on which the player of this chair was seen (a place from a face: vision.players)


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
    table: Table | None = None  # the table top's outline (vision.table), where it was found

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
        if self.table is not None:
            data["x_found"]["table"] = {"centre": [round(v, 1) for v in self.table.centre],
                                        "axes": [round(v, 1) for v in self.table.axes],
                                        "angle": round(self.table.angle, 1)}
        return data


def tiles(width: int, height: int, share: float = TILE_SHARE, step: float = TILE_STEP) -> list[SeatCrop]:
    """Overlapping squares covering the picture, each later shown to the detector at 256 px."""
    side = max(64, int(round(height * share)))
    stride = max(16, int(round(side * step)))
    return [SeatCrop(x, y, side) for y in covering_starts(height, side, stride)
            for x in covering_starts(width, side, stride)]


def _small(image: np.ndarray) -> np.ndarray:
    """The picture at a quarter of its size, lightly blurred (sensor noise and compression are no change)."""
    small = cv2.resize(image, (image.shape[1] // 4, image.shape[0] // 4), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (3, 3), 0)


def raw_change(reference: np.ndarray, now: np.ndarray) -> np.ndarray:
    """Where `now` (a quarter-size colour picture) differs from `reference` in any colour channel. Colour, not
    grey: skin on a wooden table can be as bright as the wood."""
    return cv2.absdiff(reference, now).max(axis=2) > CHANGE_LEVEL


def change_mask(reference: np.ndarray, now: np.ndarray) -> np.ndarray:
    """raw_change grown a little (a hand's own edges)."""
    return cv2.dilate(raw_change(reference, now).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0


def _box_changed(mask: np.ndarray, box: tuple[float, float, float, float]) -> bool:
    """Whether a hand's landmark box (frame pixels) shows enough change to be a hand that came to the table."""
    x0, y0, x1, y1 = (int(v) // 4 for v in box)
    part = mask[max(0, y0):max(0, y1) + 1, max(0, x0):max(0, x1) + 1]
    return part.size > 0 and float(part.mean()) >= HAND_CHANGED


def _palm_changed(mask: np.ndarray, x: float, y: float) -> bool:
    """Whether the palm's own middle (frame pixels) differs from both reference pictures on this frame (`mask`:
    raw_change against both, not grown): an idle hand lying at the table's edge beside a voter's resting
    forearm has a box that overlaps the forearm's change, and its fingers' small moves change its edges, but
    its palm stays the same."""
    qx, qy = int(x) // 4, int(y) // 4
    part = mask[max(0, qy - 1):qy + 2, max(0, qx - 1):qx + 2]
    return part.size > 0 and float(part.mean()) >= 0.5


def _tile_changed(mask: np.ndarray, tile: SeatCrop) -> bool:
    x0, y0, s = tile.x0 // 4, tile.y0 // 4, max(1, tile.side // 4)
    part = mask[max(0, y0):y0 + s, max(0, x0):x0 + s]
    return part.size > 0 and float(part.mean()) > CHANGE_SHARE


def look_at_frame(backend: HandBackend, image: np.ndarray, grid: Sequence[SeatCrop], window: int, t: float,
                  mask: np.ndarray | None, moved: np.ndarray | None = None) -> list[Sighting]:
    """The hands on one frame: every tile (or every tile where `mask` shows a change), hands on changed pixels
    (`mask`: where the window rests; `moved`: this frame's own change, which the palm must show)."""
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
            if moved is not None and not _palm_changed(moved, float(x), float(y)):
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


def _judge_angles(places: Sequence[Place], table: Table | None = None) -> tuple[np.ndarray, tuple[float, float]]:
    """Each place's angle clockwise (on screen) from the downward ray through the ring's centre, 0-2π. The
    centre is the table's (its outline), or else the middle of the places' bounding box: a mean would lean away
    from a side with empty chairs (the box's middle still leans where a whole side is missing)."""
    xy = np.array([(p.x, p.y) for p in places])
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    centre = table.centre if table is not None else (float(lo[0] + hi[0]) / 2, float(lo[1] + hi[1]) / 2)
    angles = np.arctan2(xy[:, 1] - centre[1], xy[:, 0] - centre[0])  # y down: growing angle = clockwise
    return np.mod(angles - math.pi / 2, 2 * math.pi), centre


def ring_distances(places: Sequence[Place], table: Table | None) -> np.ndarray:
    """The distance between consecutive places (in ring order): with the table's outline, the way round the
    ring (the table's ellipse through the two places), else the straight line. Why: chairs stand evenly along
    the table's edge, and round a corner of the table the straight line across is far shorter than the way the
    chairs stand."""
    xy = np.array([(p.x, p.y) for p in places], dtype=float)
    if table is None or len(xy) < 2:
        return np.linalg.norm(np.diff(xy, axis=0), axis=1) if len(xy) > 1 else np.empty(0)
    out = []
    for a, b in zip(places[:-1], places[1:], strict=True):  # clockwise on screen, as the places are ordered
        path = np.array([table.between((a.x, a.y), (b.x, b.y), f) for f in np.linspace(0.0, 1.0, ARC_STEPS + 1)])
        out.append(max(float(np.linalg.norm(np.diff(path, axis=0), axis=1).sum()), math.hypot(b.x - a.x, b.y - a.y)))
    return np.array(out)


def assign_chairs(places: Sequence[Place], living: frozenset[int], table: Table | None = None) -> tuple[list[int], float]:
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
    phi, centre = _judge_angles(places, table)
    xy = np.array([(p.x, p.y) for p in places])
    d = ring_distances(places, table)
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


def _box_corners(place: Place) -> np.ndarray:
    """The four corners of every hand box seen at a place (frame pixels)."""
    b = place.boxes
    return np.concatenate([b[:, [0, 1]], b[:, [2, 1]], b[:, [2, 3]], b[:, [0, 3]]]).astype(float)


def _on_table(table: Table, x: float, y: float) -> bool:
    """Whether a point lies where a resting hand can (TABLE_BAND of the table's measure)."""
    return TABLE_BAND[0] <= table.radius(x, y) <= TABLE_BAND[1]


def zone_of(place: Place, others: Sequence[Place], frame_size: tuple[int, int],
            spacing: float | None = None, table: Table | None = None,
            hand: tuple[float, float] | None = None) -> np.ndarray:
    """The hull of a place's hand boxes grown by GROW and of a disc reaching ZONE_REACH of the way to the nearest
    other place (a voter's hand lands anywhere in front of the chair, not only where it was seen), cut at the
    half-way line to every other place (a small gap is kept, so neighbours never touch), at the frame's edge
    and, with the table's outline, outwards where the hands seen there end (and at the rim): a voter's hand comes
    from the chair, so a zone reaching out towards the chair holds the hand before it has landed (an early
    onset) and the idle hands lying at the table's edge.
    `spacing` (the distance between neighbouring chairs there) bounds the disc beside an empty chair: the next
    chair stands there even where its player has left. `hand`: the table's usual hand box (outer_reach)."""
    corners = _box_corners(place)
    centre = np.array([place.x, place.y])
    corners = centre + (corners - centre) * GROW
    if others:
        reach = ZONE_REACH * min(math.hypot(o.x - place.x, o.y - place.y) for o in others)
        if spacing is not None:
            reach = min(reach, ZONE_REACH * spacing)
        angles = np.linspace(0, 2 * math.pi, 24, endpoint=False)
        disc = centre + reach * np.stack([np.cos(angles), np.sin(angles)], axis=1)
        corners = np.concatenate([corners, disc])
    poly = cv2.convexHull(corners.astype(np.float32)).reshape(-1, 2).astype(float)
    for other in others:
        o = np.array([other.x, other.y])
        gap = (o - centre) * 0.03
        poly = _clip_half_plane(poly, centre, o - gap)
        if len(poly) < 3:
            break
    if table is not None and len(poly) >= 3:
        rim = table.polygon(outer_reach(place, table, hand)).astype(np.float32)
        area, cut = cv2.intersectConvexConvex(poly.astype(np.float32), rim)
        poly = cut.reshape(-1, 2).astype(float) if cut is not None and area > 0 else np.empty((0, 2))
    w, h = frame_size
    if len(poly):
        poly[:, 0] = np.clip(poly[:, 0], 0, w - 1)
        poly[:, 1] = np.clip(poly[:, 1], 0, h - 1)
    return poly


def outer_reach(place: Place, table: Table, hand: tuple[float, float] | None = None) -> float:
    """How far out (the table's measure, 1 = the rim) a place's zone reaches: as far as the hands seen there
    reached (their boxes, the wrist's end; a blob's end's box reaches back along the forearm), and never past
    the rim (or just past the place itself, for a hand at the very edge). Why no farther: towards the chair
    lies the player's idle hand at the table's edge, and a hand on its way in. `hand`: the table's usual hand
    box (width, height); where the boxes seen at a place are smaller than PART_HAND of it on each side (the
    detector saw part of the hand, its fingers reaching in), the zone reaches out a whole usual hand from the
    place (the palm and wrist lie behind the fingers, towards the chair)."""
    corners = _box_corners(place)
    farthest = max(table.radius(x, y) for x, y in corners)
    if hand is not None and len(place.boxes):
        seen = np.median(place.boxes[:, 2:] - place.boxes[:, :2], axis=0)
        out = np.array([place.x, place.y]) - np.array(table.centre)
        length = float(np.linalg.norm(out))
        if math.sqrt(float(np.prod(seen)) / max(hand[0] * hand[1], 1e-6)) < PART_HAND and length > 0:
            out /= length
            depth = abs(float(out[0])) * hand[0] + abs(float(out[1])) * hand[1]  # the hand's extent that way
            farthest = max(farthest, table.radius(*(np.array([place.x, place.y]) + out * depth)))
    return min(farthest, max(1.0, table.radius(place.x, place.y) + RIM_MARGIN))


def usual_hand(places: Sequence[Place]) -> tuple[float, float] | None:
    """The table's usual hand box (width, height in pixels): the median of the hand boxes seen at the places
    (None: none seen)."""
    boxes = [p.boxes for p in places if p.sightings and len(p.boxes)]
    if not boxes:
        return None
    w, h = np.median(np.concatenate(boxes)[:, 2:] - np.concatenate(boxes)[:, :2], axis=0)
    return float(w), float(h)


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
    """Why a seat has no zone of its own, in the judge's words (the app and `x_found` show it as it is)."""
    if seat not in living:
        return _("seat {seat}: the player had left the game before these votes; no zone.", seat=seat)
    if mode == "votes":
        days = sorted({w.label.split(",")[0] for w in windows if w.label})  # "day 1" of "day 1, candidate 6"
        if not days:
            return _("seat {seat}: no hand seen on the table during the votes; an empty chair?", seat=seat)
        joined = days[0]
        for day in days[1:]:
            joined = _("{first} and {second}", first=joined, second=day)
        return _("seat {seat}: no hand seen on the table during {days} votes; an empty chair?", seat=seat, days=joined)
    return _("seat {seat}: no player and no resting hand seen at this chair in this video; an empty chair?", seat=seat)


def guessed_places(places: Sequence[Place], chairs: Sequence[int], wanted: Sequence[int],
                   table: Table | None = None) -> dict[int, Place]:
    """Places for the `wanted` chairs that hold none (a living player who never put a hand down): between the
    nearest found chairs on either side (with the table's outline, on the way round the table from one to the
    other: the straight line across a corner runs inside the table), or, next to the judge, the mirror image of
    the chair opposite. Why: a seat with no zone is "cannot see" to the audit, and a player who never voted must
    be "no vote"."""
    at = {c: p for p, c in zip(places, chairs, strict=True)}
    if not at:
        return {}
    pairs = [(at[c].x + at[SEAT_COUNT - 1 - c].x) / 2 for c in at if SEAT_COUNT - 1 - c in at]
    xs = [p.x for p in places]
    axis = float(np.median(pairs)) if pairs else (min(xs) + max(xs)) / 2  # the line the two sides mirror about
    if table is not None and not pairs:
        axis = table.centre[0]
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
            if table is not None:
                x, y = table.between((a.x, a.y), (b.x, b.y), f)
        elif SEAT_COUNT - 1 - chair in at:
            opposite = at[SEAT_COUNT - 1 - chair]
            x, y = 2 * axis - opposite.x, opposite.y
        else:
            continue
        box = np.array([[x - half[0], y - half[1], x + half[0], y + half[1]]])
        out[chair] = Place(float(x), float(y), box, 0, frozenset())
    return out


def chair_spacings(every: Sequence[tuple[Place, int]], table: Table | None = None) -> list[float | None]:
    """Per place, the distance between two neighbouring chairs there: to the nearest place on either side along
    the table (the judge's end not crossed), divided by the chairs from one to the other. Why: a zone may reach
    towards the next chair, not the next player still at the table (with players gone, that one sits chairs
    away), and under perspective the near chairs stand farther apart in the picture than the far ones. None for
    a lone place."""
    order = sorted(range(len(every)), key=lambda i: every[i][1])
    out: list[float | None] = [None] * len(every)
    for k, i in enumerate(order):
        steps = []
        for j in (order[k - 1] if k > 0 else None, order[k + 1] if k + 1 < len(order) else None):
            if j is None:
                continue
            pair = sorted([every[i], every[j]], key=lambda e: e[1])
            gap = float(ring_distances([pair[0][0], pair[1][0]], table)[0])
            steps.append(gap / max(1, pair[1][1] - pair[0][1]))
        out[i] = min(steps) if steps else None
    return out


def build_found(places: Sequence[Place], chairs: Sequence[int], fit: float, frame_size: tuple[int, int],
                living: frozenset[int], mode: str, seconds: float, windows: Sequence[Window],
                flipped: bool = False, shift: int = 0, checked: bool = False, table: Table | None = None) -> FoundMap:
    """The map of found places under one numbering, with each seat's confidence and each unfound seat's reason;
    a living seat with no place gets a guessed zone (confidence 0) that the judge is told to check."""
    wanted = [c for c in range(SEAT_COUNT) if _chair_to_seat(c, flipped, shift) in living]
    guesses = guessed_places(places, chairs, wanted, table)
    every = [*zip(places, chairs, strict=True), *((p, c) for c, p in guesses.items())]
    seats: dict[int, Seat] = {}
    confidence: dict[int, float] = {}
    windows_with_hands = max(1, len({w for p in places for w in p.windows}))
    spacings = chair_spacings(every, table)
    hand = usual_hand(places)
    for i, (place, chair) in enumerate(every):
        zone = zone_of(place, [p for j, (p, _) in enumerate(every) if j != i], frame_size, spacings[i], table, hand)
        if len(zone) < 3:
            continue
        seat = _chair_to_seat(chair, flipped, shift)
        seats[seat] = Seat(zone)
        seen = 1 - math.exp(-place.sightings / 4)
        if not place.sightings and place.faces:  # only the player seen: where the hand will rest is a guess
            seen = FACE_ONLY * (1 - math.exp(-place.faces / 2))
        if mode == "votes":
            seen *= min(1.0, 0.5 + len(place.windows) / windows_with_hands)
        confidence[seat] = round(seen * math.exp(-fit), 3)
    unfound = {n: _unfound_reason(n, living, windows, mode) for n in range(1, SEAT_COUNT + 1)
               if n not in seats or confidence.get(n) == 0}
    for n in unfound:
        if n in seats:
            unfound[n] += " " + (_("Its zone is placed between its neighbours': check it on the picture.")
                                 if mode == "votes" else
                                 _("Its zone is placed where the chairs' spacing round the table puts it: check it "
                                   "on the picture."))
    return FoundMap(SeatMap((int(frame_size[0]), int(frame_size[1])), seats), confidence, unfound, tuple(places),
                    tuple(chairs), living, mode, seconds, fit, tuple(windows), flipped, shift, checked, table)


def renumbered(found: FoundMap, flip: bool = False, move_seat1: int = 0) -> FoundMap:
    """The same places under another numbering: `flip` reverses the direction (seat 1 becomes the judge's
    right, counter-clockwise), `move_seat1` moves seat 1 that many chairs on (clockwise in the new direction).
    Every found place keeps its place; the guessed chairs follow the living seats under the new numbering, and
    the zones are cut anew against them."""
    return build_found(found.places, found.slots, found.fit, found.seat_map.frame_size,
                       found.living, found.mode, found.seconds, found.windows,
                       found.flipped != flip, (found.shift + move_seat1) % SEAT_COUNT, found.checked_by_voters,
                       found.table)


def one_per_chair(places: list[Place], table: Table) -> list[Place]:
    """The places, two of which never share one chair's bearing from the table's middle: of two whose bearings
    differ by less than SAME_CHAIR of the even spacing of the chairs round the table, the one with fewer
    sightings (at a tie, the one farther from the depth where the others rest) is dropped. Why: a forearm lying
    over the rim beside its hand, or a hand seen at two spots, makes a second place a few degrees from the
    first, and counted as a chair of its own it pushes every chair beyond it one seat round. Adjacent chairs
    stand at least two thirds of the even spacing apart even along an oval table's long side."""
    if len(places) < 2:
        return places
    depth = float(np.median([table.radius(p.x, p.y) for p in places]))
    order = sorted(places, key=lambda p: (-p.sightings, abs(table.radius(p.x, p.y) - depth)))
    least = SAME_CHAIR * 2 * math.pi / SEAT_COUNT
    kept: list[Place] = []
    for p in order:
        if all(abs(math.remainder(table.theta(p.x, p.y) - table.theta(k.x, k.y), 2 * math.pi)) >= least for k in kept):
            kept.append(p)
    return [p for p in places if any(p is k for k in kept)]


def number_places(places: list[Place], living: frozenset[int], windows: Sequence[Window], frame_size: tuple[int, int],
                  mode: str, seconds: float, table: Table | None = None) -> FoundMap:
    """Places in ring order, chairs from the spacing, then the numbering the protocol's voters agree with best.
    `table`: the table top's outline (vision.table), for the ring's centre, the way round it and the rim."""
    if table is not None:
        places = one_per_chair(places, table)
    places = places[:len(living)]
    if places:
        phi, _ = _judge_angles(places, table)
        places = [places[i] for i in np.argsort(phi)]
    chairs, fit = assign_chairs(places, living, table)
    if not chairs and places:  # no fit that leaves the left seats empty: number them all
        chairs, fit = assign_chairs(places, frozenset(range(1, SEAT_COUNT + 1)), table)
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
    return build_found(places, chairs, fit, frame_size, living, mode, seconds, windows, flipped, shift, checked, table)


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


def ring_centre(blobs: Sequence[np.ndarray]) -> np.ndarray:
    """The middle of the resting blobs' centroids' bounding box (picture pixels): the table's middle, as the
    voters' forearms reach in from all round it."""
    centroids = np.array([b.mean(axis=0) for b in blobs]) * 4 + 2
    return (centroids.min(axis=0) + centroids.max(axis=0)) / 2


def blob_tip(blob: np.ndarray, centre: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A resting blob's point nearest the ring's centre (picture pixels), and the unit direction from there
    back along the blob (towards its centroid): the hand, and the way the forearm runs."""
    points = blob * 4 + 2
    tip = points[int(np.argmin(np.hypot(points[:, 0] - centre[0], points[:, 1] - centre[1])))]
    back = points.mean(axis=0) - tip
    return tip, back / max(float(np.linalg.norm(back)), 1e-6)


class _Rest:
    """Each vote window's resting picture: where the frame differs from both reference pictures (two seconds
    before the naming, 1.5 s after the count) on most of the frames from just before «Стоп» to just after the
    count. A voter's hand and forearm rest there all that time; a hand passing by, a player leaning or a prop
    moved shows on a few frames only, and an idle hand lying there before and after differs from neither.
    Without windows (nothing to compare with) there is no mask and every tile is looked at. `earlier`: an
    earlier look's resting masks and reference picture, kept (`plan` holds only the windows it had not)."""

    def __init__(self, video: VideoSource, plan: Sequence[tuple[int, list[float]]], windows: Sequence[Window],
                 scale: float, counter: _Counter, earlier: Looked | None = None) -> None:
        duration = video.meta.duration
        self.scale = scale
        self.centre: np.ndarray | None = None
        self.stable: dict[int, np.ndarray] = dict(earlier.stable) if earlier else {}
        self.frames: dict[int, list[tuple[float, np.ndarray]]] = {}
        self.changed: dict[tuple[int, float], np.ndarray] = {}  # (window, time): where that frame differs from
        # both reference pictures, for each frame the detector is shown
        self.reference: np.ndarray | None = earlier.reference if earlier else None  # a picture with the fewest
        # hands on the table: the first window's before-picture (the first sampled frame without windows), for
        # the table's outline
        for k, times in plan:
            if not windows:  # every sampled frame is looked at, every tile of it
                self.frames[k] = [(t, self._picture(video, t, duration)) for t in times]
                self.reference = self.frames[k][0][1] if self.reference is None and times else self.reference
                counter.step()
                continue
            picks = set(_detect_picks(len(times)))
            w = windows[k]
            pictures = [self._picture(video, s, duration) for s in (w.t - BEFORE_S, w.announced + AFTER_S)]
            self.reference = pictures[0] if self.reference is None else self.reference
            before, after = (_small(x) for x in pictures)
            votes = np.zeros(before.shape[:2], np.float32)
            kept = []
            for j, t in enumerate(times):
                image = self._picture(video, t, duration)
                small = _small(image)
                votes += np.logical_and(change_mask(before, small), change_mask(after, small))
                if j in picks:
                    kept.append((t, image))
                    self.changed[(k, t)] = np.logical_and(raw_change(before, small), raw_change(after, small))
            self.stable[k] = votes >= REST_SHARE * len(times)
            self.frames[k] = kept
            counter.step()

    def _picture(self, video: VideoSource, t: float, duration: float) -> np.ndarray:
        image = video.frame_at_time(_clamp(t, duration))[1]
        if self.scale >= 1.0:
            return image
        size = (int(round(image.shape[1] * self.scale)), int(round(image.shape[0] * self.scale)))
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA)

    def blobs(self, window: int, size: tuple[int, int]) -> list[np.ndarray]:
        """A window's resting blobs big enough to hold a hand of the smallest size looked for."""
        return rest_blobs(self.stable[window], (size[1] * FALLBACK_PALM / 8) ** 2 * BLOB_PALMS)

    def look(self, detector: HandBackend, window: int, t: float, image: np.ndarray, size: tuple[int, int],
             side: int) -> list[Sighting]:
        """The hands on one frame of a window. With a resting mask: first one square on the end of each resting
        blob (where a forearm reaching in from a chair ends in the hand: the hand whole and centred), then, for
        the blobs that showed no hand, the squares of the covering grid over them. Without windows: the whole
        covering grid."""
        grid = tiles(size[0], size[1], side / size[1])
        if window not in self.stable:
            return look_at_frame(detector, image, grid, window, t, None)
        mask = self.stable[window]
        blobs = self.blobs(window, size)
        if self.centre is None:
            every = [b for k in self.stable for b in self.blobs(k, size)]
            self.centre = ring_centre(every) if every else np.array(size, float) / 2
        ends = []
        for blob in blobs:
            tip, back = blob_tip(blob, self.centre)
            x, y = tip + back * side * 0.15
            ends.append(SeatCrop(int(round(x - side / 2)), int(round(y - side / 2)), side))
        moved = self.changed.get((window, t))
        found = look_at_frame(detector, image, ends, window, t, mask, moved)
        missed = np.zeros_like(mask)
        for blob in blobs:
            points = blob * 4 + 2
            if not any(np.min(np.hypot(points[:, 0] - s.x, points[:, 1] - s.y)) <= s.palm for s in found):
                missed[blob[:, 1].astype(int), blob[:, 0].astype(int)] = True
        if missed.any():
            found += look_at_frame(detector, image, [c for c in grid if _tile_changed(missed, c)], window, t, mask,
                                   moved)
        return _one_per_hand(found)


def _detect_picks(count: int) -> list[int]:
    """Which of a window's sampled frames the detector looks at: DETECT_FRAMES spread over the stretch."""
    if count <= DETECT_FRAMES:
        return list(range(count))
    return [int(round((count - 1) * (j + 0.5) / DETECT_FRAMES)) for j in range(DETECT_FRAMES)]


def _tile_side(detector: HandBackend, rest: _Rest, size: tuple[int, int],
               counter: _Counter) -> tuple[int, dict[tuple[int, float], list[Sighting]]]:
    """The tile side (pixels of the picture looked at) that shows this video's hands at the size the detector
    reads best: one frame of each window is looked at with tiles of TILE_SHARE, and where the hands found there
    are small (a small table far from the camera, a wide view) the tiles shrink until a palm is TILE_PALM px.
    Also returns what those looks found, by (window, time), to be reused where the side stays."""
    height = size[1]
    side = max(64, int(round(height * TILE_SHARE)))
    seen: dict[tuple[int, float], list[Sighting]] = {}
    for k, frames in rest.frames.items():
        t, image = frames[len(frames) // 2]
        seen[(k, t)] = rest.look(detector, k, t, image, size, side)
        counter.step()
    palms = [s.palm for found in seen.values() for s in found]
    if not palms:
        return max(64, int(round(height * SMALL_TILE_SHARE))), {}
    palm_on_tile = float(np.median(palms)) * CROP_SIZE / side
    if palm_on_tile >= TILE_PALM * 0.8:
        return side, seen
    return max(64, int(round(side * palm_on_tile / TILE_PALM)), int(round(height * SMALL_TILE_SHARE))), {}


def _clamp(t: float, duration: float) -> float:
    return min(max(0.0, t), max(0.0, duration - 1e-3))


def closed(mask: np.ndarray, palm: float) -> np.ndarray:
    """A resting mask (quarter-size) with gaps under CLOSE_PALMS of a palm closed: a forearm split by a
    sleeve's edge or a shadow is one blob, while neighbours' forearms (palms apart) stay apart."""
    side = max(1, int(round(palm / 4 * CLOSE_PALMS)))
    if side < 2:
        return mask
    return cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((side, side), np.uint8)) > 0


def rest_blobs(mask: np.ndarray, min_area: float) -> list[np.ndarray]:
    """The resting blobs of a window's mask (quarter-size pixels): one voter's hand and forearm each, as
    (N, 2) point arrays in quarter-size pixels; specks smaller than `min_area` dropped."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    out = []
    for label in range(1, count):
        if stats[label, cv2.CC_STAT_AREA] >= min_area:
            ys, xs = np.nonzero(labels == label)
            out.append(np.stack([xs, ys], axis=1).astype(float))
    return out


def _one_per_forearm(hands: list[list[Sighting]], blobs: list[np.ndarray], centre: np.ndarray,
                     palm: float) -> list[list[Sighting]]:
    """A voter rests one hand: of the hands found on one resting blob (a forearm and its hand) closer together
    than NEIGHBOUR_PALMS, only the one nearest the ring's centre (the forearm's end) is kept; the detector's
    second "hand" there is a wrist or a sleeve. Hands farther apart on one blob are two neighbours whose arms
    touch. The order (best supported first) is kept."""
    dropped: set[int] = set()
    for blob in blobs:
        points = blob * 4 + 2
        on = [i for i, hand in enumerate(hands)
              if np.min(np.hypot(points[:, 0] - hand[0].x, points[:, 1] - hand[0].y)) <= hand[0].palm * 0.5]
        on.sort(key=lambda i: math.hypot(hands[i][0].x - centre[0], hands[i][0].y - centre[1]))
        for a, i in enumerate(on):
            if any(j not in dropped and math.hypot(hands[i][0].x - hands[j][0].x, hands[i][0].y - hands[j][0].y)
                   < NEIGHBOUR_PALMS * palm for j in on[:a]):
                dropped.add(i)
    return [hand for i, hand in enumerate(hands) if i not in dropped]


def blob_spots(sightings: list[Sighting], blobs: dict[int, list[np.ndarray]], palm: float,
               counts: dict[int, int | None], table: Table | None = None) -> list[Sighting]:
    """Each window's resting hands: the detector's resting sightings, and, for a resting blob no sighting lies
    on (the detector missed that hand: a fist seen edge-on, a dark hand), the blob's tip towards the ring's
    centre, where a forearm reaching in from a chair ends in the hand (with the table's outline, only where that
    hand lies on the table top, not a forearm over the rim, and moved back along the forearm to the depth the
    seen hands rest at: _at_seen_depth). Hands far off the ring the others make
    (a face, a hand reaching to the table's middle) are dropped (`on_the_ring`); where the judge's count is
    recorded, at most that many per window are kept, those on the biggest resting blobs first (a voter's whole
    forearm rests for the vote; a player who shifted in the chair or a hand that moved leaves a speck). Points in the picture looked at (the
    blobs are 4x smaller)."""
    every = [b for bs in blobs.values() for b in bs]
    if not every:
        return sightings
    if table is not None:
        centre = np.array(table.centre)
    elif len(sightings) >= 4:  # the detector's hands lie on the ring itself: their box's middle is the table's
        xy = np.array([(x.x, x.y) for x in sightings])
        centre = (xy.min(axis=0) + xy.max(axis=0)) / 2
    else:
        centre = ring_centre(every)
    depth = seen_depth(sightings, table) if table is not None else None
    candidates: list[tuple[int, list[Sighting]]] = []  # (window, sightings of one hand), best first per window
    for k, window_blobs in blobs.items():
        own = [s for s in sightings if s.window == k]
        # one hand per place, the best supported first (found on the most frames); its sightings kept with it
        hands: list[list[Sighting]] = []
        for sgt in sorted(own, key=lambda a: -sum(math.hypot(a.x - o.x, a.y - o.y) <= SAME_PLACE * a.palm for o in own)):
            for hand in hands:
                if math.hypot(sgt.x - hand[0].x, sgt.y - hand[0].y) <= SAME_PLACE * hand[0].palm:
                    hand.append(sgt)
                    break
            else:
                hands.append([sgt])
        hands = _one_per_forearm(hands, window_blobs, centre, palm)
        kept = [hand[0] for hand in hands]
        extra: list[Sighting] = []
        backs: list[np.ndarray] = []  # each guessed hand's way back along its forearm
        for blob in sorted(window_blobs, key=len, reverse=True):
            points = blob * 4 + 2
            if any(np.min(np.hypot(points[:, 0] - s.x, points[:, 1] - s.y)) <= s.palm for s in kept):
                continue
            tip, back = blob_tip(blob, centre)
            end, tip = tip, tip + back * palm * TIP_SHIFT
            if any(math.hypot(tip[0] - o.x, tip[1] - o.y) < GROUP_PALMS * palm for o in [*kept, *extra]):
                continue  # a piece of a forearm whose hand is already there
            if table is not None and not _laid_on(table, tip, palm) and any(
                    math.hypot(tip[0] - o.x, tip[1] - o.y) < RIM_ARM_PALMS * palm for o in [*sightings, *extra]):
                continue  # a voter's other arm or a neighbour leaning over the rim, no hand laid on the table
            # the hand lies somewhere from the blob's end to a palm and a half back along the forearm (a fist
            # ends at its knuckles, an open hand at its fingertips)
            ends = np.array([end, end + back * palm * TIP_DEPTH])
            lo, hi = ends.min(axis=0) - palm * 0.8, ends.max(axis=0) + palm * 0.8
            extra.append(Sighting(k, -1.0, float(tip[0]), float(tip[1]), palm, (*map(float, lo), *map(float, hi))))
            backs.append(back)
        seen = [*(hand[0] for hand in hands), *extra]
        extra = [x if table is None else _at_seen_depth(x, back, table, depth, palm)
                 for x, back in zip(extra, backs, strict=True) if not _behind(x, seen, centre, palm)]
        sized = [(_blob_area(hand[0], window_blobs), -i, hand) for i, hand in enumerate([*hands, *([x] for x in extra)])]
        candidates += [(k, hand) for _, _, hand in sorted(sized, key=lambda c: c[:2], reverse=True)]
    if table is not None:  # the table's own measure: the others' box leans where a side of the ring is missing
        ring = [_on_table(table, hand[0].x, hand[0].y) for _, hand in candidates]
    else:
        ring = on_the_ring([(hand[0].x, hand[0].y) for _, hand in candidates])
    out: list[Sighting] = []
    taken: dict[int, int] = {}
    for (k, hand), ok in zip(candidates, ring, strict=True):
        count = counts.get(k)
        if not ok or (count is not None and taken.get(k, 0) >= max(0, count)):
            continue
        taken[k] = taken.get(k, 0) + 1
        out += hand
    return out


def seen_depth(sightings: Sequence[Sighting], table: Table) -> float | None:
    """How far from the table's middle (its measure, 1 = the rim) the hands the detector saw resting lie: the
    median over those on the table (TABLE_BAND); None with fewer than SEEN_DEPTH_LEAST."""
    radii = [table.radius(s.x, s.y) for s in sightings if _on_table(table, s.x, s.y)]
    return float(np.median(radii)) if len(radii) >= SEEN_DEPTH_LEAST else None


def _at_seen_depth(spot: Sighting, back: np.ndarray, table: Table, depth: float | None, palm: float) -> Sighting:
    """A hand guessed at a resting forearm's end, moved back along the forearm (`back`, a unit direction) to where
    this table's voters rest their hands (`depth`: seen_depth), at most as far back as the hand can lie
    (TIP_DEPTH palms from the blob's end); its box moves with it. Why: the resting picture's blob reaches past
    the hand (the change is grown by the hand's own edges and shadow), so a hand put near its end lies farther in
    than the voters put theirs, and a zone grown from there reaches across to where a neighbour's hand rests;
    voters round one table rest a hand about as far in from the rim, as the hands the detector did see show.
    Never moved in: a guess already that far out stays."""
    here = np.array([spot.x, spot.y])
    if depth is None or table.radius(*here) >= depth or table.radius(*(here + back * palm)) <= table.radius(*here):
        return spot  # no seen depth, out far enough, or a forearm that does not come from outside
    most = (TIP_DEPTH - TIP_SHIFT) * palm  # the spot lies TIP_SHIFT palms back from the blob's end already
    lo, hi = 0.0, most
    if table.radius(*(here + back * most)) <= depth:
        lo = most
    else:
        for _ in range(20):  # the radius grows along the way back: halve the step to the seen depth
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if table.radius(*(here + back * mid)) < depth else (lo, mid)
    dx, dy = back * lo
    box = (spot.box[0] + dx, spot.box[1] + dy, spot.box[2] + dx, spot.box[3] + dy)
    return Sighting(spot.window, spot.t, float(spot.x + dx), float(spot.y + dy), spot.palm,
                    tuple(float(v) for v in box))  # type: ignore[arg-type]


def _laid_on(table: Table, point: np.ndarray, palm: float) -> bool:
    """Whether a hand whose middle is at `point` lies on the table top: a palm farther out (away from the
    table's middle) is still inside the rim. A resting blob whose end lies at the rim or beyond it is a forearm
    or a sleeve leaning over the edge (the detector found no hand there); a voter lays the whole hand on the
    table."""
    out = point - np.array(table.centre)
    length = float(np.linalg.norm(out))
    if length <= 0:
        return True
    return table.radius(*(point + out / length * palm)) <= 1.0


def _behind(spot: Sighting, others: Sequence[Sighting], centre: np.ndarray, palm: float) -> bool:
    """Whether a blob's end lies behind another of the window's hands as seen from the table's middle (on the
    line from the middle through it, within a palm of it, and farther out by at most BEHIND_PALMS): a forearm
    cut in two by a shadow or a sleeve, whose hand is the inner piece's. Voters sit side by side round the
    ring, never one behind the other."""
    out = np.array([spot.x, spot.y]) - centre
    reach = float(np.linalg.norm(out))
    if reach <= 0:
        return False
    ray = out / reach
    for o in others:
        if o is spot:
            continue
        d = np.array([o.x, o.y]) - centre
        along = float(d @ ray)
        if 0 < reach - along <= BEHIND_PALMS * palm and abs(float(d[0] * ray[1] - d[1] * ray[0])) <= palm:
            return True
    return False


def _blob_area(hand: Sighting, blobs: list[np.ndarray]) -> int:
    """The size (quarter-size pixels) of the biggest resting blob a hand lies on (0: on none)."""
    sizes = [len(b) for b in blobs
             if np.min(np.hypot(b[:, 0] * 4 + 2 - hand.x, b[:, 1] * 4 + 2 - hand.y)) <= hand.palm * 0.5]
    return max(sizes, default=0)


def on_the_ring(points: Sequence[tuple[float, float]]) -> list[bool]:
    """Whether each resting place lies on the ring the others make round the table. Each place is measured
    against the bounding box of all the other kept places, centred and halved to a unit square: a place on the
    ring lies about one from the middle (up to 1.4 at a corner of the box), a hand reaching to the table's
    middle under RING_INNER, a face or a shoulder beyond the ring over RING_OUTER. The worst place outside
    that band is dropped and the others measured again, until none is (one stray place must not move the box
    the others are judged by). Fewer than seven places: all kept (too few to tell)."""
    xy = np.array(points, dtype=float)
    keep = [True] * len(xy)
    while sum(keep) >= 7:
        worst, index = 0.0, -1
        for i in (i for i in range(len(xy)) if keep[i]):
            others = xy[[j for j in range(len(xy)) if keep[j] and j != i]]
            lo, hi = others.min(axis=0), others.max(axis=0)
            rho = float(np.hypot(*((xy[i] - (lo + hi) / 2) / np.maximum((hi - lo) / 2, 1e-6))))
            off = max(RING_INNER - rho, rho - RING_OUTER, 0.0)
            if off > worst:
                worst, index = off, i
        if index < 0:
            break
        keep[index] = False
    return keep


@dataclass(frozen=True)
class Looked:
    """What the frames of a video showed the finder, each frame read once: kept so that more vote windows (the
    next day's, for a seat never seen on the first) add their own frames only, and the map is found again
    from all of it."""

    frame_size: tuple[int, int]  # the video's
    scale: float  # the picture looked at is the video's scaled by this (WORK_HEIGHT)
    windows: tuple[Window, ...]  # the usable vote windows; a sighting's and a resting mask's window indexes it
    sightings: tuple[Sighting, ...]
    stable: dict[int, np.ndarray]  # per window, where the picture rests (quarter size)
    reference: np.ndarray | None  # a picture before the votes, for the table's outline
    side: int  # the tile side the detector was shown (kept for the windows added later)
    faces: tuple[Face, ...] = ()  # without windows: the players' faces on the sampled frames
    seconds: float = 0.0  # the time all the looking took

    @property
    def size(self) -> tuple[int, int]:
        """The size of the picture looked at."""
        return int(round(self.frame_size[0] * self.scale)), int(round(self.frame_size[1] * self.scale))


def hand_detector() -> HandBackend:
    """The finder's hand detector: MediaPipe on the bundled model, with a low bar (a hand must also be found
    again on another frame). One can serve several looks (it costs half a second to start)."""
    return MediaPipeBackend("full", min_confidence=0.3)


def look(video_path: str, windows: Sequence[Window] | None, *, backend: HandBackend | None = None,
         rate: float = RATE, progress: ProgressFn | None = None, players: bool = True,
         before: Looked | None = None) -> Looked:
    """The resting hands of a video during `windows` (None or empty: sampled over the whole video, and, with
    `players`, the players' faces). `before`: what an earlier look at some of these windows found; only the
    windows it did not look at are read (with its tile side), and its findings are kept. `backend`: the hand
    detector (default: hand_detector(), closed at the end)."""
    started = time.perf_counter()
    own = backend is None
    detector = hand_detector() if backend is None else backend
    sightings: list[Sighting] = list(before.sightings) if before else []
    try:
        with open_video(video_path) as video:
            meta = video.meta
            scale = min(1.0, WORK_HEIGHT / meta.height)  # a 4K picture is looked at as 1080p: tiles and masks
            size = (int(round(meta.width * scale)), int(round(meta.height * scale)))
            done = list(before.windows) if before else []
            usable = [*done, *(w for w in windows or () if w.t < meta.duration and w not in done)]
            if usable:
                plan = [(k, _sample_times(w, rate)) for k, w in enumerate(usable) if k >= len(done)]
            else:
                step = meta.duration / (WHOLE_VIDEO_FRAMES + 1)
                plan = [(0, [step * (k + 1) for k in range(WHOLE_VIDEO_FRAMES)])]
            total = len(plan) * 2 + sum(len(_detect_picks(len(ts)) if usable else ts) for _, ts in plan)
            counter = _Counter(progress, total)
            rest = _Rest(video, plan, usable, scale, counter, before)
            if before is None:
                side, seen = _tile_side(detector, rest, size, counter)
            else:
                side, seen = before.side, {}
            for k, frames in rest.frames.items():
                for t, image in frames:
                    found = seen.get((k, t))
                    sightings += rest.look(detector, k, t, image, size, side) if found is None else found
                    counter.step()
    finally:
        if own:
            detector.close()
    faces = _faces(rest) if not usable and players else []  # no vote yet: the players' faces show the chairs
    return Looked((meta.width, meta.height), scale, tuple(usable), tuple(sightings), rest.stable, rest.reference,
                  side, tuple(faces), (before.seconds if before else 0.0) + time.perf_counter() - started)


def seats_from(looked: Looked, living: frozenset[int] | None = None) -> FoundMap:
    """The seat map from what the frames showed. `living`: the seats still at the table during those votes
    (None: all ten); a seat not in it gets no zone."""
    started = time.perf_counter()
    living = frozenset(range(1, SEAT_COUNT + 1)) if living is None else frozenset(living)
    usable, size, scale = list(looked.windows), looked.size, looked.scale
    mode = "votes" if usable else "whole video"
    still = resting(list(looked.sightings))
    palm = float(np.median([x.palm for x in still])) if still else size[1] * FALLBACK_PALM
    blobs = {k: rest_blobs(closed(m, palm), (palm / 4) ** 2 * BLOB_PALMS) for k, m in looked.stable.items()}
    table = find_table(looked.reference, still, [b for bs in blobs.values() for b in bs], size, edge=not usable)
    if looked.stable:
        still = blob_spots(still, blobs, palm, {k: w.count for k, w in enumerate(usable)}, table)
    if scale < 1.0:
        still = [_scaled(x, 1.0 / scale) for x in still]
        table = None if table is None else table.scaled(1.0 / scale)
    faces = [Face(f.frame, f.x / scale, f.y / scale, f.size / scale, f.score) for f in looked.faces]
    if not usable and table is not None:  # players only: the ten chairs fitted round the table
        places, fit = layout_places(table, still, faces)
        chairs = [c for c in range(SEAT_COUNT) if c + 1 in living]
        return build_found([places[c] for c in chairs], chairs, fit, looked.frame_size, living, mode,
                           looked.seconds + time.perf_counter() - started, usable, table=table)
    places = group_places(still)
    if faces:
        places = with_players(places, faces)
    seconds = looked.seconds + time.perf_counter() - started
    return number_places(places, living, usable, looked.frame_size, mode, seconds, table)


def find_seats(video_path: str, windows: Sequence[Window] | None, living: frozenset[int] | None = None, *,
               backend: HandBackend | None = None, rate: float = RATE, progress: ProgressFn | None = None,
               players: bool = True) -> FoundMap:
    """The seat map of a game video from where hands rest during `windows` (None or empty: the whole video):
    `look`, then `seats_from`. `backend`: the hand detector (default: MediaPipe on the bundled model)."""
    return seats_from(look(video_path, windows, backend=backend, rate=rate, progress=progress, players=players),
                      living)


def find_table(reference: np.ndarray | None, still: Sequence[Sighting], blobs: Sequence[np.ndarray],
               size: tuple[int, int], edge: bool = False) -> Table | None:
    """The table top's outline round the ring's middle (the resting hands' box, or the resting blobs', or the
    picture's middle), kept only where the resting hands lie on it (vision.table.fits_places; `edge`: hands
    seen outside the votes, most of them idle at the table's edge); a patch they do not fit is split again."""
    if reference is None:
        return None
    if len(still) >= 4:
        xy = np.array([(x.x, x.y) for x in still])
        seed = (xy.min(axis=0) + xy.max(axis=0)) / 2
    else:
        seed = ring_centre(blobs) if blobs else np.array(size, float) / 2
    points = [(x.x, x.y) for x in still]
    places = len(group_places(list(still)))  # a hand seen on several frames is one place
    # outside the votes many hands rest off the table (held up at night, a gesture, a face taken for a hand)
    return table_outline(reference, (float(seed[0]), float(seed[1])),
                         lambda table: fits_places(table, points, 0.5 if edge else 0.2, edge, places))


def layout_places(table: Table, hands: Sequence[Sighting], faces: Sequence[Face]) -> tuple[list[Place], float]:
    """Players only (no vote yet): a place for each of the ten chairs, clockwise from the judge's left, and the
    layout's fit cost. The chairs stand evenly round the table's outline, fitted to the players' bearings
    (vision.players.chair_layout: the faces behind the rim and the hands resting on the table); each place is
    the band on the chair's line to the middle from half a hand to CHAIR_BAND[1] hands in from the rim, a hand
    measured where it lies (those resting near that chair, else all; perspective shrinks the far ones), since
    nothing yet says how far in front of the rim this table's voters put a hand. A place's `faces` counts the
    evidence near its chair (players and resting hands); a chair with none is the layout's guess."""
    on = [h for h in hands if BEARING_HANDS[0] <= table.radius(h.x, h.y) <= BEARING_HANDS[1]]
    spots = group_places(on, most=len(on))
    seen = [p for p in players_of(faces) if BEARING_FACES[0] <= table.radius(p.x, p.y) <= BEARING_FACES[1]]
    bearings = [table.theta(p.x, p.y) for p in spots] + [table.theta(p.x, p.y) for p in seen]
    sizes = [(p.x, p.y, float(np.median([h.palm for h in on if math.hypot(h.x - p.x, h.y - p.y) <= GROUP_PALMS * h.palm]
                                         or [h.palm for h in on]))) for p in spots]
    chairs, reach, fit = chair_layout(table, bearings, SEAT_COUNT, crowding(table, sizes))
    every = np.concatenate([p.boxes for p in spots]) if spots else None
    size = float(np.median([p.size for p in seen])) if seen else min(table.axes) * 0.15
    places = []
    for theta in chairs:
        mine = [p for p in spots if abs(math.remainder(table.theta(p.x, p.y) - theta, 2 * math.pi)) < reach]
        boxes = np.concatenate([p.boxes for p in mine]) if mine else every
        hand = np.median(boxes[:, 2:] - boxes[:, :2], axis=0) if boxes is not None else np.full(2, size)
        rim = np.array(table.point(theta))
        inward = (np.array(table.centre) - rim) / max(float(np.linalg.norm(np.array(table.centre) - rim)), 1e-6)
        depth = float(np.abs(inward) @ hand)
        a, b = rim + inward * depth * CHAIR_BAND[0], rim + inward * depth * CHAIR_BAND[1]
        box = np.array([[*(np.minimum(a, b) - hand / 2), *(np.maximum(a, b) + hand / 2)]])
        evidence = len(mine) + sum(abs(math.remainder(table.theta(p.x, p.y) - theta, 2 * math.pi)) < reach
                                   for p in seen)
        places.append(Place(float((a[0] + b[0]) / 2), float((a[1] + b[1]) / 2), box, 0, frozenset(), evidence))
    return places, fit


def _faces(rest: _Rest) -> list[Face]:
    """The faces on the sampled frames (vision.players)."""
    finder = FaceFinder()
    try:
        frames = rest.frames.get(0, [])
        picks = _detect_picks(len(frames))  # a few frames: a player sits still, the detector is slow on squares
        return [f for j in picks for f in finder.faces(frames[j][1], j)]
    finally:
        finder.close()


def with_players(places: list[Place], faces: Sequence[Face]) -> list[Place]:
    """The resting places and, for each player seen (a face on two frames or more) whose bearing from the ring's
    centre holds no resting place, a chair where that player's hand would rest (vision.players.chair_places),
    its box the size of the found hands' (or, with none, a little larger than the faces)."""
    seen = players_of(faces)
    spots = chair_places(seen, [(p.x, p.y) for p in places])
    if not spots:
        return places
    if places:
        half = np.median(np.concatenate([(p.boxes[:, 2:] - p.boxes[:, :2]) / 2 for p in places]), axis=0)
    else:
        half = np.full(2, 0.6 * float(np.median([p.size for p in seen])))
    extra = [Place(x, y, np.array([[x - half[0], y - half[1], x + half[0], y + half[1]]]), 0, frozenset(),
                   faces=player.frames) for player, x, y in spots]
    return [*places, *extra]


def _scaled(s: Sighting, f: float) -> Sighting:
    return Sighting(s.window, s.t, s.x * f, s.y * f, s.palm * f, tuple(v * f for v in s.box))  # type: ignore[arg-type]


def place_share(zone: np.ndarray, points: Sequence[tuple[float, float]]) -> float:
    """The share of `points` (frame pixels) inside `zone` (bench and tests: truth's resting hands in a found zone)."""
    if not len(points):
        return 0.0
    return sum(point_in_polygon(zone, x, y) for x, y in points) / len(points)


