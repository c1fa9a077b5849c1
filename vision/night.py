"""Hands at night: raised hands in each seat's `raise` zone, the shot (raised fingers bending), numbers shown.

The night detector (vision.night_detect) watches a seat map whose zones are the seats' raise zones
(spec §2 `raise`): each seat gets its own crop and tracking stream there, change gating included. Every
hand of the seat's own crop is kept (a check shows 6–10 with two hands), not just the best one.

Per seat and frame this keeps the hands that were not there when the window began (`fresh_looks`:
the zone also holds hands in the night pose), how many fingers (thumb excluded) the raised hand holds
up, and the number its hands show (vision.numbers). Runs of frames with a raised hand become `Raised`
intervals; inside the shooting spans their bends become shots; inside the check spans the steadiest
number becomes a `ShownNumber`. Which seat may do what is for review.audit.night.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from contract.night import (
    HINT_S,
    PACE_S,
    SHOOT_LEAD_S,
    SHOOT_TAIL_S,
    NightSeen,
    Raised,
    ShownNumber,
    fit_count,
)
from contract.seats import Seat, SeatMap, point_in_polygon
from vision.audio import AudioError, AudioTrack, read_audio
from vision.backend import HandBackend
from vision.cues import count_words, features
from vision.hands import Hand, unusable_seats
from vision.intervals import GAP_FRAMES, MIN_RUN_FRAMES, Sighting, runs_from_sightings
from vision.night_detect import NightDetector
from vision.numbers import (
    STEP_BLUR,
    STEP_MIN,
    STEP_SHIFT,
    STEP_WINDOW,
    FrameNumber,
    frame_number,
    held_fingers,
    largest_step,
    raised_fingers,
    read_number,
    shifted_difference,
    shots,
)
from vision.observe import merge_windows
from vision.video import open_video

ProgressFn = Callable[[int, int], None]
TILE_SHARE = 0.2  # tile side / picture height: a raised hand of ~6 % of the height fills ~30 % of its crop
TILE_OVERLAP = 0.35  # a hand on a tile's edge is whole in the next one
PATCH_SCALE = 0.5  # the raise zone's picture is kept at half resolution to time the bend on
HAND_MARGIN = 0.3  # of the hand's size, around its landmarks: the bent fingers stay inside
LEAD_IN_S = 1.0  # decoded before each span: what the zone looks like with every hand in the night pose
FRESH_MIN = 0.14  # a hand's box must differ from the lead-in by this share of its contrast to be a new hand
# (rendered nights: hands in the night pose ≤ 0.09, raised hands ≥ 0.2, bench/night_accuracy.py clips)
FINGER_SLACK = 0.5  # a bend is refused when the landmarks read this many more fingers up after it than before
UNCONFIRMED = 0.7  # a bend the landmarks cannot confirm (they read no fewer fingers after it) is this much less sure
BOX_SHARE = 0.9  # a raised hand's box holds its landmarks on this share of its frames
HOME_RADIUS = 0.5  # hand sizes: how far a held raised hand's palm wanders from its usual place
SETTLE_S = 0.8  # a raised hand is still arriving this soon after it is first held at its place
LEAVE_S = 0.2  # ... and already leaving this close to the last frame it is there (a shot may come just before)
SAME_HAND = 0.5  # palm centres closer than this many hand sizes are one hand seen by two tiles


@dataclass(frozen=True)
class _Look:
    """One seat on one frame."""

    index: int
    t: float
    hands: tuple[Hand, ...]
    picture: np.ndarray | None = None  # the seat's raise zone, grey, at PATCH_SCALE (for timing the bend)

    @property
    def present(self) -> bool:
        return bool(self.hands)

    def up_fingers(self) -> int | None:
        """Fingers held up by the raised hand in the zone (see _top); None when no hand."""
        return raised_fingers(_top(self).landmarks)[0] if self.hands else None

    def number(self) -> FrameNumber | None:
        best = sorted(self.hands, key=lambda h: -h.score)[:2]
        return frame_number([h.landmarks for h in best])


@dataclass
class NightObservations:
    """What vision saw at night; `.seen` is the review-side NightSeen, `.to_json_fields()` its observation fields."""

    seen: NightSeen
    stats: dict = field(default_factory=dict)

    def to_json_fields(self) -> dict:
        return self.seen.to_json_fields()


def raise_map(seat_map: SeatMap) -> SeatMap:
    """The seat map with each seat's raise zone as its zone (seats without one are left out)."""
    return SeatMap(seat_map.frame_size, {n: Seat(s.raise_) for n, s in seat_map.seats.items() if s.raise_ is not None})


def blind_seats(seat_map: SeatMap) -> tuple[int, ...]:
    """Seats whose raised hands this camera cannot see: no raise zone, or one mostly outside the picture."""
    return tuple(sorted(unusable_seats(raise_map(seat_map))))


def tile_map(seat_map: SeatMap, tile: float = TILE_SHARE) -> tuple[SeatMap, dict[int, int]]:
    """Square tiles over each watchable raise zone (the part inside the picture), as pseudo-seats.

    A raise zone spans a whole raised arm's reach and a raised hand is small in it; the palm detector
    needs the hand at ~20 % of its crop or more, so each zone is covered by overlapping tiles whose
    side is `tile` times the picture height. Keys are seat * 100 + k; the map says whose each is.
    """
    w, h = seat_map.frame_size
    side = tile * h
    step = side * (1 - TILE_OVERLAP)
    rmap = raise_map(seat_map)
    blind = set(unusable_seats(rmap))
    tiles: dict[int, Seat] = {}
    owner: dict[int, int] = {}
    for n, seat in sorted(rmap.seats.items()):
        if n in blind:
            continue
        lo = np.maximum(seat.zone.min(axis=0), 0.0)
        hi = np.minimum(seat.zone.max(axis=0), (w, h))
        xs = _starts(lo[0], hi[0], side, step)
        ys = _starts(lo[1], hi[1], side, step)
        k = 0
        for y in ys:
            for x in xs:
                key = n * 100 + k
                tiles[key] = Seat(np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]]))
                owner[key] = n
                k += 1
    return SeatMap(seat_map.frame_size, tiles), owner


def _starts(lo: float, hi: float, side: float, step: float) -> list[float]:
    """Tile origins covering [lo, hi] with tiles of `side` every `step` (one centred tile if it fits)."""
    if hi - lo <= side:
        return [(lo + hi - side) / 2]
    count = int(np.ceil((hi - lo - side) / step)) + 1
    return list(np.linspace(lo, hi - side, count))


def observe_night(
    video_path: str | os.PathLike[str],
    seats: SeatMap,
    shootings: Sequence[tuple[float, float]],
    checks: Sequence[tuple[float, float]] = (),
    *,
    model: str = "full",
    gating: bool = True,
    progress: ProgressFn | None = None,
    only: Sequence[int] | None = None,
    listen: bool = True,
    backend: HandBackend | None = None,
) -> NightObservations:
    """Raised hands, shots and shown numbers in the given shooting and check spans (seconds on the video).

    `only`: watch just these seats (benchmarks and tests; default every seat with a usable raise zone).
    `listen`: hear the judge's count in each shooting (`hear_counts`): its words ride along as
    `x_night_words`, and a span is widened to the last number heard when the judge counts slower than
    the span assumed. `backend`: the hand detector (default MediaPipe on `model`).
    """
    words: tuple[float, ...] = ()
    if listen and shootings:
        words, shootings = hear_counts(video_path, shootings)
    spans = merge_windows([(a - LEAD_IN_S, b) for a, b in [*shootings, *checks]])
    with open_video(video_path) as video:
        meta = video.meta
        scaled = seats.scaled_to(meta.width, meta.height)
        blind = blind_seats(scaled)
        tiles, owner = tile_map(scaled)
        if only is not None:
            tiles = SeatMap(tiles.frame_size, {k: z for k, z in tiles.seats.items() if owner[k] in set(only)})
        zones = {n: z.raise_ for n, z in scaled.seats.items() if z.raise_ is not None}
        watched = sorted({owner[k] for k in tiles.seats})
        asked = [(a, b) for a, b in spans if a < meta.duration]  # reported as looked at: the video ends where it ends
        spans = [(a, min(b, meta.duration)) for a, b in asked]
        total = sum(len(video.frames_in(a, b)) for a, b in spans)
        done = 0
        raised: list[Raised] = []
        shown: list[ShownNumber] = []
        stats = {"frames": 0, "detector_runs": 0, "gated": 0, "tiles": len(tiles.seats)}
        boxes = {n: _box(zones[n], tiles.frame_size) for n in watched}
        with NightDetector(tiles, model=model, gating=gating, backend=backend) as detector:
            for a, b in spans:
                looks: dict[int, list[_Look]] = {n: [] for n in watched}
                for frame in video.iter_window(a, b):
                    grey = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)
                    result = detector.process(frame.index, frame.t, frame.image)
                    stats["frames"] += 1
                    stats["detector_runs"] += result.ran
                    stats["gated"] += result.skipped
                    found: dict[int, list[Hand]] = {n: [] for n in watched}
                    for key, hands in result.own.items():
                        n = owner[key]
                        found[n] += [h for h in hands if point_in_polygon(zones[n], *h.palm_centre)]
                    for n in watched:
                        x0, y0, x1, y1 = boxes[n]
                        small = cv2.resize(grey[y0:y1, x0:x1], None, fx=PATCH_SCALE, fy=PATCH_SCALE, interpolation=cv2.INTER_AREA)
                        looks[n].append(_Look(frame.index, frame.t, _distinct(found[n]), small))
                    done += 1
                    if progress is not None:
                        progress(done, total)
                end_index = video.frames_in(a, b).stop
                end_t = video.time_of(end_index) if end_index < meta.frame_count else meta.duration
                for n, seq in looks.items():
                    mine, numbers = analyse_seat(n, seq, (end_index, end_t), shootings, checks, boxes[n][:2])
                    raised += mine
                    shown += numbers
    raised.sort(key=lambda r: (r.up, r.seat))
    shown.sort(key=lambda s: (s.t, s.seat))
    return NightObservations(NightSeen(tuple(raised), tuple(shown), tuple(asked), blind, words), stats)


def hear_counts(video_path: str | os.PathLike[str], shootings: Sequence[tuple[float, float]],
                most: int = 10,
                decoded: Sequence[AudioTrack] = ()) -> tuple[tuple[float, ...], list[tuple[float, float]]]:
    """The words heard around each shooting (vision.cues.count_words) and the spans widened to the count.

    A shooting span starts SHOOT_LEAD_S before the count's first number (review.audit.night.night_windows);
    from there up to `most` numbers at the slowest pace are listened to. Where the words fit a count
    (review.audit.night.fit_count, at most `most` numbers), the span reaches SHOOT_TAIL_S past its last
    number; it is never shortened. No audio track: no words, the spans as they were. `decoded`: sound already
    read from this video (the draft's listening); the file is decoded again only where it misses a span.
    """
    reach = [(a + SHOOT_LEAD_S - HINT_S - 1.0, a + SHOOT_LEAD_S + HINT_S + (most - 1) * PACE_S[1] + 1.5)
             for a, _b in shootings]
    tracks = [next((t for t in decoded if t.whole or t.start <= max(lo, 0.0) and t.end >= hi), None)
              for lo, hi in reach]
    if None in tracks:
        try:
            tracks = [read_audio(video_path)] * len(shootings)
        except AudioError:
            return (), list(shootings)
    heard: list[float] = []
    spans = []
    for (a, b), (lo, hi), track in zip(shootings, reach, tracks, strict=True):
        hint = a + SHOOT_LEAD_S
        lo = max(track.start, lo)
        part = track.segment(lo, hi)
        found = [c.t for c in count_words(features(part), lo, hi)] if part.duration > 1.0 else []
        heard += found
        fit = fit_count(found, most, hint)
        spans.append((a, max(b, fit[0][-1] + SHOOT_TAIL_S + 0.5) if fit else b))
    return tuple(sorted(set(heard))), spans


def _distinct(hands: Sequence[Hand]) -> tuple[Hand, ...]:
    """One entry per physical hand: tiles overlap, so one hand may be seen by two of them."""
    kept: list[Hand] = []
    for h in sorted(hands, key=lambda h: -h.score):
        size = float(np.ptp(h.landmarks[:, :2], axis=0).max())
        if all(np.hypot(*np.subtract(h.palm_centre, k.palm_centre)) > SAME_HAND * size for k in kept):
            kept.append(h)
    return tuple(kept)


def analyse_seat(seat: int, looks: Sequence[_Look], end: tuple[int, float], shootings: Sequence[tuple[float, float]],
                 checks: Sequence[tuple[float, float]], origin: tuple[int, int] = (0, 0)) -> tuple[list[Raised], list[ShownNumber]]:
    """One seat's raises (with their shots) and shown numbers in one decoded window."""
    fresh = fresh_looks(looks, origin)
    return raises_of(seat, fresh, end, shootings, origin), numbers_of(seat, fresh, checks)


def fresh_looks(looks: Sequence[_Look], origin: tuple[int, int] = (0, 0)) -> list[_Look]:
    """Each look with only the hands that were not there when the window began.

    The raise zone of a seat takes in hands in the night pose (the seat's own on its shoulders, a
    neighbour's in front of it: the camera looks down at the table), and the detector finds those now
    and then. A raised hand changes the picture where it is: there, the window's lead-in (LEAD_IN_S,
    decoded before the span asked for, when every hand is in the night pose) looks different. A hand
    whose box differs from the lead-in by less than FRESH_MIN of its own contrast was there already.
    So a hand already raised when a window starts is taken for a resting one: windows begin before
    the judge's call for it (review.audit.night's lead times).
    """
    if not looks:
        return []
    lead = [x.picture for x in looks if x.t < looks[0].t + LEAD_IN_S and x.picture is not None]
    if len(lead) < 3:
        return list(looks)
    ref = cv2.GaussianBlur(np.mean(lead, axis=0).astype(np.float32), (0, 0), STEP_BLUR)
    out = []
    for x in looks:
        if not x.hands or x.picture is None:
            out.append(x)
            continue
        now = cv2.GaussianBlur(x.picture.astype(np.float32), (0, 0), STEP_BLUR)
        kept = []
        for h in x.hands:
            box = _box_of(h.landmarks[:, :2], h.landmarks[:, :2], origin, now.shape)
            if box is None:
                continue
            x0, y0, x1, y1 = box
            patch = now[y0:y1, x0:x1]
            if shifted_difference(ref[y0:y1, x0:x1], patch) / (float(patch.std()) + 1.0) >= FRESH_MIN:
                kept.append(h)
        out.append(replace(x, hands=tuple(kept)))
    return out


def raises_of(seat: int, looks: Sequence[_Look], end: tuple[int, float],
              shootings: Sequence[tuple[float, float]], origin: tuple[int, int] = (0, 0)) -> list[Raised]:
    """A seat's raised-hand intervals in one window (looks holding raised hands only), with the shot of those in a shooting span.

    The shot's time is where the raised hand's picture changes once and for good (numbers.largest_step),
    accepted unless the landmarks read more fingers up after it than before (see _bend); only without
    pictures do the per-frame finger counts time it (numbers.shots) — on small hands they flicker.
    So vision reports at most one shot per raise; a second bend (rfm 4.5.5) is read only from counts.
    """
    sightings = [Sighting(x.index, x.t, x.present, "other", max((h.score for h in x.hands), default=0.0))
                 for x in looks]
    out = []
    for run in runs_from_sightings(sightings, *end, GAP_FRAMES, MIN_RUN_FRAMES):
        inside = [x for x in looks if run.on_frame <= x.index < run.off_frame]
        counts = [(x.index, x.t, x.up_fingers()) for x in inside]
        shooting = any(a <= run.off and run.on <= b for a, b in shootings)
        step = _bend(inside, origin) if shooting else None
        if step is not None:
            fire: tuple[int, float] | None = (step[0], step[1])
            clarity = min(1.0, step[2] / (2 * STEP_MIN))
            fires: tuple[float, ...] = (step[1],)
        elif any(x.picture is not None for x in inside):
            fire, fires, clarity = None, (), 1.0  # the pictures show no clear bend: frame-wise counts are too noisy
        else:
            found = shots(counts) if shooting else []
            fire = (found[0].index, found[0].t) if found else None
            fires = tuple(s.t for s in found)
            clarity = 1.0
        fingers = held_fingers(counts, fire[1] if fire else None)
        read = [c for c in counts if c[2] is not None]
        agree = sum(1 for c in read if c[2] == fingers or (fire and c[0] >= fire[0])) / max(1, len(read))
        sure = clarity if step is not None else agree
        out.append(Raised(seat, run.on, run.off, fingers, fire[1] if fire else None,
                          round(run.confidence * sure, 3), fires, fire[0] if fire else None))
    return out


def _top(look: _Look) -> Hand:
    """The raised hand: the highest of the look's hands (resting ones are already left out, see fresh_looks)."""
    return min(look.hands, key=lambda h: float(h.landmarks[:, 1].min()))


def _box_of(lo_marks: np.ndarray, hi_marks: np.ndarray, origin: tuple[int, int],
            shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    """A hand's box (with HAND_MARGIN) in the zone picture from its landmarks' low and high extents (frame pixels)."""
    lo, hi = lo_marks.min(axis=0), hi_marks.max(axis=0)
    pad = HAND_MARGIN * float(max(hi - lo))
    (x0, y0), (x1, y1) = ((lo - pad - origin) * PATCH_SCALE).astype(int), ((hi + pad - origin) * PATCH_SCALE).astype(int)
    h, w = shape[:2]
    x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1), w), min(int(y1), h)
    if x1 - x0 < 2 * STEP_SHIFT + 4 or y1 - y0 < 2 * STEP_SHIFT + 4:
        return None
    return x0, y0, x1, y1


def _hand_box(inside: Sequence[_Look], origin: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The raised hand's box over a run: where most of its frames put it, fingers included.

    Robust extents (BOX_SHARE of the frames inside on each side), not the median hand: a finger the
    landmarker folds now and then would otherwise fall outside the box, and so would its bend.
    """
    held = [x for x in inside if x.hands and x.picture is not None]
    if not held:
        return None
    marks = np.array([_top(x).landmarks[:, :2] for x in held])
    lo = np.percentile(marks.min(axis=1), 100 * (1 - BOX_SHARE), axis=0)
    hi = np.percentile(marks.max(axis=1), 100 * BOX_SHARE, axis=0)
    return _box_of(lo[None], hi[None], origin, held[0].picture.shape)


def _bend(inside: Sequence[_Look], origin: tuple[int, int]) -> tuple[int, float, float] | None:
    """(frame index, time, strength) of the bend of a raised hand's fingers, from its pictures; None if none is clear.

    The strength is lowered where the landmarks do not confirm the bend (UNCONFIRMED).

    Only the stretch where the hand stays at its usual place is searched: its arrival and its
    lowering must not look like the bend.
    """
    inside = _held(inside)
    if not inside:
        return None
    box = _hand_box(inside, origin)
    pictures = [x for x in inside if x.picture is not None and inside[0].t + SETTLE_S <= x.t <= inside[-1].t - LEAVE_S]
    if box is None or len(pictures) < 2 * STEP_WINDOW + 2:
        return None
    x0, y0, x1, y1 = box
    patches = np.array([x.picture[y0:y1, x0:x1] for x in pictures])
    step = largest_step(patches)
    if step is None or step.strength < STEP_MIN:
        return None
    at = pictures[step.at]
    before = [x.up_fingers() for x in pictures[: step.at] if x.hands]
    after = [x.up_fingers() for x in pictures[step.at:] if x.hands]
    if not before or not after or np.mean(after) >= np.mean(before) + FINGER_SLACK:
        return None  # the picture changed and fingers went up, not down: the hand moved, it did not shoot
    # The landmarks of a small hand seen from behind often miss the one raised finger, or read a bent
    # finger as still up: then only the picture times the bend, and the shot is less sure.
    confirmed = np.mean(after) < np.mean(before)
    return at.index, at.t, step.strength * (1.0 if confirmed else UNCONFIRMED)


def _held(inside: Sequence[_Look]) -> list[_Look]:
    """The looks from the first to the last frame where the raised hand is near its median place."""
    held = [x for x in inside if x.hands]
    if not held:
        return []
    centres = np.array([_top(x).palm_centre for x in held])
    size = float(np.median([np.ptp(_top(x).landmarks[:, :2], axis=0).max() for x in held]))
    home = np.median(centres, axis=0)
    near = [x for x, c in zip(held, centres, strict=True) if np.hypot(*(c - home)) <= HOME_RADIUS * size]
    if not near:
        return []
    return [x for x in inside if near[0].index <= x.index <= near[-1].index]


def _box(zone: np.ndarray, frame_size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The raise zone's bounding box inside the picture, in whole pixels."""
    w, h = frame_size
    x0, y0 = np.floor(np.maximum(zone.min(axis=0), 0)).astype(int)
    x1, y1 = np.ceil(np.minimum(zone.max(axis=0), (w, h))).astype(int)
    return int(x0), int(y0), int(max(x1, x0 + 2)), int(max(y1, y0 + 2))


def numbers_of(seat: int, looks: Sequence[_Look], checks: Sequence[tuple[float, float]]) -> list[ShownNumber]:
    """The number a seat shows in each check span (at most one per span), read from its raised hands (see fresh_looks)."""
    out: list[ShownNumber] = []
    for a, b in checks:
        readings = [(x.index, x.t, x.number()) for x in looks if a <= x.t < b and x.hands]
        found = read_number(readings)
        if found is not None and not any(s.frame == found.index and s.number == found.number for s in out):
            out.append(ShownNumber(seat, found.t, found.number, found.confidence, found.index))  # check spans may overlap
    return out
