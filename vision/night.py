"""Hands at night: raised hands in each seat's `raise` zone, the shot (raised fingers bending), numbers shown.

The day detector (vision.detect) is reused on a seat map whose zones are the seats' raise zones
(spec §2 `raise`): each seat gets its own crop and landmarker there, change gating included. Every
hand of the seat's own crop is kept (a check shows 6–10 with two hands), not just the best one.

Per seat and frame this records whether a hand is up, how many fingers (thumb excluded) the raised
hand holds up, and the number all its hands show (vision.numbers). Runs of frames with a hand up
become `Raised` intervals; inside the shooting spans their bends become shots; inside the check
spans the steadiest number becomes a `ShownNumber`. Which seat may do what is for review.night.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from review.night import NightSeen, Raised, ShownNumber
from vision.detect import Hand, SeatDetector, unusable_seats
from vision.intervals import GAP_FRAMES, MIN_RUN_FRAMES, Sighting, runs_from_sightings
from vision.numbers import FrameNumber, frame_number, held_fingers, raised_fingers, read_number, shots
from vision.seats import Seat, SeatMap, point_in_polygon
from vision.video import open_video

ProgressFn = Callable[[int, int], None]
TILE_SHARE = 0.2  # tile side / picture height: a raised hand of ~6 % of the height fills ~30 % of its crop
TILE_OVERLAP = 0.35  # a hand on a tile's edge is whole in the next one
SAME_HAND = 0.5  # palm centres closer than this many hand sizes are one hand seen by two tiles


@dataclass(frozen=True)
class _Look:
    """One seat on one frame."""

    index: int
    t: float
    hands: tuple[Hand, ...]

    @property
    def present(self) -> bool:
        return bool(self.hands)

    def up_fingers(self) -> int | None:
        """Fingers held up by the highest hand in the zone (the shooting hand); None when no hand."""
        if not self.hands:
            return None
        top = min(self.hands, key=lambda h: float(h.landmarks[:, 1].min()))
        return raised_fingers(top.landmarks)[0]

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
) -> NightObservations:
    """Raised hands, shots and shown numbers in the given shooting and check spans (seconds on the video).

    `only`: watch just these seats (benchmarks and tests; default every seat with a usable raise zone).
    """
    spans = _merge([*shootings, *checks])
    with open_video(video_path) as video:
        meta = video.meta
        scaled = seats.scaled_to(meta.width, meta.height)
        blind = blind_seats(scaled)
        tiles, owner = tile_map(scaled)
        if only is not None:
            tiles = SeatMap(tiles.frame_size, {k: z for k, z in tiles.seats.items() if owner[k] in set(only)})
        zones = {n: z.raise_ for n, z in scaled.seats.items() if z.raise_ is not None}
        watched = sorted({owner[k] for k in tiles.seats})
        spans = [(a, min(b, meta.duration)) for a, b in spans if a < meta.duration]
        total = sum(len(video.frames_in(a, b)) for a, b in spans)
        done = 0
        raised: list[Raised] = []
        shown: list[ShownNumber] = []
        stats = {"frames": 0, "detector_runs": 0, "gated": 0, "tiles": len(tiles.seats)}
        with SeatDetector(tiles, model=model, gating=gating) as detector:
            for a, b in spans:
                looks: dict[int, list[_Look]] = {n: [] for n in watched}
                for frame in video.iter_window(a, b):
                    result = detector.process(frame.index, frame.t, frame.image)
                    stats["frames"] += 1
                    stats["detector_runs"] += result.ran
                    stats["gated"] += result.skipped
                    found: dict[int, list[Hand]] = {n: [] for n in watched}
                    for key, stream in detector.streams.items():
                        if key in result.dark:
                            continue
                        n = owner[key]
                        found[n] += [h for h in stream.last_hands if h.seat == key and point_in_polygon(zones[n], *h.palm_centre)]
                    for n in watched:
                        looks[n].append(_Look(frame.index, frame.t, _distinct(found[n])))
                    done += 1
                    if progress is not None:
                        progress(done, total)
                end_index = video.frames_in(a, b).stop
                end_t = video.time_of(end_index) if end_index < meta.frame_count else meta.duration
                for n, seq in looks.items():
                    raised += raises_of(n, seq, (end_index, end_t), shootings)
                    shown += numbers_of(n, seq, checks)
    raised.sort(key=lambda r: (r.up, r.seat))
    shown.sort(key=lambda s: (s.t, s.seat))
    return NightObservations(NightSeen(tuple(raised), tuple(shown), tuple(spans), blind), stats)


def _distinct(hands: Sequence[Hand]) -> tuple[Hand, ...]:
    """One entry per physical hand: tiles overlap, so one hand may be seen by two of them."""
    kept: list[Hand] = []
    for h in sorted(hands, key=lambda h: -h.score):
        size = float(np.ptp(h.landmarks[:, :2], axis=0).max())
        if all(np.hypot(*np.subtract(h.palm_centre, k.palm_centre)) > SAME_HAND * size for k in kept):
            kept.append(h)
    return tuple(kept)


def raises_of(seat: int, looks: Sequence[_Look], end: tuple[int, float],
              shootings: Sequence[tuple[float, float]]) -> list[Raised]:
    """A seat's raised-hand intervals in one window, with the shots of those inside a shooting span."""
    sightings = [Sighting(x.index, x.t, x.present, "other", max((h.score for h in x.hands), default=0.0))
                 for x in looks]
    out = []
    for run in runs_from_sightings(sightings, *end, GAP_FRAMES, MIN_RUN_FRAMES):
        counts = [(x.index, x.t, x.up_fingers()) for x in looks if run.on_frame <= x.index < run.off_frame]
        in_shooting = any(a <= run.off and run.on <= b for a, b in shootings)
        found = shots(counts) if in_shooting else []
        fingers = held_fingers(counts, found[0].t if found else None)
        read = [c for c in counts if c[2] is not None]
        agree = sum(1 for c in read if c[2] == fingers or (found and c[0] >= found[0].index)) / max(1, len(read))
        out.append(Raised(
            seat, run.on, run.off, fingers, found[0].t if found else None, round(run.confidence * agree, 3),
            tuple(s.t for s in found), found[0].index if found else None,
        ))
    return out


def numbers_of(seat: int, looks: Sequence[_Look], checks: Sequence[tuple[float, float]]) -> list[ShownNumber]:
    """The number a seat shows in each check span (at most one per span)."""
    out = []
    for a, b in checks:
        readings = [(x.index, x.t, x.number()) for x in looks if a <= x.t < b]
        found = read_number(readings)
        if found is not None:
            out.append(ShownNumber(seat, found.t, found.number, found.confidence, found.index))
    return out


def _merge(windows: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    merged: list[tuple[float, float]] = []
    for a, b in sorted((max(0.0, a), b) for a, b in windows if b > a):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged
