"""The seat map (spec §2, `stopframe-seats/1`): where each seat's hands land in one camera's picture, its one
parser and the geometry both sides need.

Vision places hands in zones (which seat a palm is at) and review refuses a map whose zones overlap or leave the
picture; both read the same `SeatMap` and ask the same geometry here, so a point is inside a zone by one rule.
A seat absent from the map is a seat the camera cannot see; the audit must say "cannot see" for it, never
"did not vote", so absence is kept as absence (no default zone is invented on load).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from contract.errors import InvalidInput, UnreadableInput
from contract.i18n import _, term
from contract.jsonio import check_format, read_json, write_json

FORMAT = "stopframe-seats/1"
SEATS = range(1, 11)
ASPECT_TOLERANCE = 0.01  # 1280x720 vs 1920x1080 are the same; 4:3 vs 16:9 is not
MAX_ZONE_POINTS = 1000  # a drawn zone has a handful of corners; the overlap check compares every edge pair

Point = tuple[float, float]


@dataclass(frozen=True)
class Seat:
    zone: np.ndarray  # (N, 2) polygon in frame pixels
    raise_: np.ndarray | None = None  # (N, 2) polygon where the raised hand appears at night

    def contains(self, x: float, y: float) -> bool:
        return point_in_polygon(self.zone, x, y)


@dataclass(frozen=True)
class SeatMap:
    frame_size: tuple[int, int]  # (width, height), upright
    seats: dict[int, Seat] = field(default_factory=dict)
    source: str | None = field(default=None, compare=False)  # the file it was read from, for messages

    def scaled_to(self, width: int, height: int, video: str | None = None) -> SeatMap:
        """The same map for a frame of another size and the same aspect ratio (`video` names that frame's
        video in the refusal; None: «the video»)."""
        w0, h0 = self.frame_size
        if (width, height) == (w0, h0):
            return self
        if abs((width / height) / (w0 / h0) - 1) > ASPECT_TOLERANCE:
            sizes = dict(w0=w0, h0=h0, video=video or _("the video"), width=width, height=height)
            raise InvalidInput(
                _("{path}: the seat map is for a {w0}x{h0} picture but {video} is {width}x{height}, another aspect "
                  "ratio: mark the seats again on this video.", path=self.source, **sizes) if self.source else
                _("the seat map is for a {w0}x{h0} picture but {video} is {width}x{height}, another aspect ratio: "
                  "mark the seats again on this video.", **sizes)
            )
        s = np.array([width / w0, height / h0])
        return SeatMap(
            (width, height),
            {n: Seat(seat.zone * s, None if seat.raise_ is None else seat.raise_ * s) for n, seat in self.seats.items()},
            self.source,
        )

    def seat_at(self, x: float, y: float) -> int | None:
        """The seat whose zone contains the point; where zones overlap, the one whose centre is nearest."""
        inside = [n for n, seat in self.seats.items() if seat.contains(x, y)]
        if len(inside) <= 1:
            return inside[0] if inside else None
        return min(inside, key=lambda n: float(np.linalg.norm(self.seats[n].zone.mean(axis=0) - (x, y))))

    def to_json(self) -> dict:
        seats: dict[str, dict] = {}
        for n in sorted(self.seats):
            entry: dict = {"zone": _points(self.seats[n].zone)}
            if self.seats[n].raise_ is not None:
                entry["raise"] = _points(self.seats[n].raise_)
            seats[str(n)] = entry
        return {"format": FORMAT, "frame_size": list(self.frame_size), "seats": seats}


def _points(poly: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 1), round(float(y), 1)] for x, y in poly]


# ---------------------------------------------------------------- geometry


def point_in_polygon(poly: np.ndarray | Sequence[Point], x: float, y: float) -> bool:
    """Even-odd rule; points on the boundary may fall either way."""
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Strictly crossing segments (touching ends or shared edges are not a crossing)."""
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    return d1 * d2 < 0 and d3 * d4 < 0


def _centroid(poly: Sequence[Point]) -> Point:
    return sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly)


def polygons_overlap(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """Whether two simple polygons share some area (sharing only an edge or a corner is no overlap).

    Compares every edge of `a` with every edge of `b`: callers keep zones to MAX_ZONE_POINTS corners, so the
    check stays bounded whatever a file holds."""
    edges_a = list(zip(a, [*a[1:], a[0]], strict=True))
    edges_b = list(zip(b, [*b[1:], b[0]], strict=True))
    if any(_segments_cross(p1, p2, q1, q2) for p1, p2 in edges_a for q1, q2 in edges_b):
        return True
    return point_in_polygon(b, *_centroid(a)) or point_in_polygon(a, *_centroid(b))


# ---------------------------------------------------------------- the file


def _polygon(value: object, where: str, path: Path) -> np.ndarray:
    try:
        poly = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        poly = np.empty(0)
    if poly.ndim != 2 or poly.shape[1] != 2 or poly.shape[0] < 3 or not np.isfinite(poly).all():
        raise InvalidInput(_("{path}: {where} must be a list of at least three [x, y] points.", path=path, where=where))
    return poly


def seat_map_from_json(data: object, path: str | os.PathLike[str] = "<seats>") -> SeatMap:
    """Build a SeatMap from parsed JSON, naming the place of any problem."""
    p = Path(path)
    if not isinstance(data, dict):
        doc = term("document", "seat map")
        raise UnreadableInput(_("{path}: not {a_what}: it holds no JSON object.", path=p, what=doc, a_what=f"a {doc}"))
    check_format(data.get("format"), p, "seat map", FORMAT)
    size = data.get("frame_size")
    if not (isinstance(size, list) and len(size) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)):
        raise InvalidInput(_("{path}: frame_size must be [width, height] in whole pixels.", path=p))
    seats_json = data.get("seats")
    if not isinstance(seats_json, dict):
        raise InvalidInput(_("{path}: seats must be an object keyed by seat number.", path=p))
    seats: dict[int, Seat] = {}
    for key, entry in seats_json.items():
        if not (isinstance(key, str) and key.isdigit() and int(key) in SEATS):
            raise InvalidInput(_("{path}: seats.{key} is not a seat number 1-10.", path=p, key=key))
        if not isinstance(entry, dict) or "zone" not in entry:
            raise InvalidInput(_("{path}: seats.{key} must have a zone.", path=p, key=key))
        raise_ = entry.get("raise")
        seats[int(key)] = Seat(
            _polygon(entry["zone"], f"seats.{key}.zone", p),
            None if raise_ is None else _polygon(raise_, f"seats.{key}.raise", p),
        )
    return SeatMap((size[0], size[1]), seats, str(p))


def load_seat_map(path: str | os.PathLike[str]) -> SeatMap:
    return seat_map_from_json(read_json(path, "seat map"), path)


def save_seat_map(seat_map: SeatMap, path: str | os.PathLike[str]) -> Path:
    return write_json(path, seat_map.to_json())
