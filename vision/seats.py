"""Seat maps (spec §2, `stopframe-seats/1`): where each seat's hands land in one camera's picture.

A seat absent from the map is a seat the camera cannot see; the audit must say "cannot see" for
it, never "did not vote", so absence is kept as absence (no default zone is invented on load).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from contract.errors import InvalidInput, UnreadableInput
from contract.i18n import _, term
from contract.jsonio import check_format, read_json, write_json

FORMAT = "stopframe-seats/1"
SEATS = range(1, 11)
ASPECT_TOLERANCE = 0.01  # 1280x720 vs 1920x1080 are the same; 4:3 vs 16:9 is not


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


def point_in_polygon(poly: np.ndarray, x: float, y: float) -> bool:
    """Even-odd rule; points on the boundary may fall either way."""
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


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


def ellipse_point(centre: tuple[float, float], axes: tuple[float, float], angle_deg: float,
                  theta: float, scale: float = 1.0) -> np.ndarray:
    """The point at parameter angle theta on the ellipse (scaled about its centre)."""
    a, b = axes
    c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    x, y = a * scale * math.cos(theta), b * scale * math.sin(theta)
    return np.array([centre[0] + c * x - s * y, centre[1] + s * x + c * y])


def _theta_of(centre: tuple[float, float], axes: tuple[float, float], angle_deg: float, point: tuple[float, float]) -> float:
    c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    dx, dy = point[0] - centre[0], point[1] - centre[1]
    return math.atan2((-s * dx + c * dy) / axes[1], (c * dx + s * dy) / axes[0])


def seat_angles(theta1: float, axes: tuple[float, float], layout: str = "sides", clockwise: bool = True,
                n_seats: int = 10) -> tuple[list[float], float]:
    """Parameter angles of the seats on the table ellipse, and the angular width one seat owns.

    "sides": the usual sport-Mafia table, five players along each long side and the judge at one
    end: seats run from the judge's end (the end of the long axis nearest seat 1) along seat 1's side
    and back along the other, evenly spaced, the two ends left free. "even": all around at equal steps.
    """
    if layout == "even":
        step = 2 * math.pi / n_seats * (1 if clockwise else -1)
        return [theta1 + k * step for k in range(n_seats)], abs(step)
    if layout != "sides" or n_seats % 2:
        raise ValueError(f"unknown seat layout {layout!r} for {n_seats} seats")
    ends = (0.0, math.pi) if axes[0] >= axes[1] else (math.pi / 2, 3 * math.pi / 2)
    offsets = [math.remainder(theta1 - e, 2 * math.pi) for e in ends]
    judge = min(range(2), key=lambda i: abs(offsets[i]))
    e, phi = ends[judge], offsets[judge]
    d = 1.0 if phi >= 0 else -1.0
    phi = min(max(abs(phi), math.radians(5)), math.radians(80))
    per_side = n_seats // 2
    step = (math.pi - 2 * phi) / (per_side - 1)
    angles = [e + d * (phi + k * step) for k in range(per_side)]
    angles += [e + d * (3 * phi + (per_side - 1 + k) * step) for k in range(per_side)]
    return angles, step


def default_seat_map(
    frame_size: tuple[int, int],
    centre: tuple[float, float],
    axes: tuple[float, float],
    angle_deg: float = 0.0,
    seat1: tuple[float, float] | None = None,
    clockwise: bool = True,
    *,
    layout: str = "sides",
    inner: float = 0.5,
    outer: float = 0.95,
    width_share: float = 0.8,
    n_seats: int = 10,
) -> SeatMap:
    """Seats around a table ellipse as it appears in the picture (centre, semi-axes in px, rotation in degrees).

    `seat1` is a point at seat 1 (default: the bottom of the ellipse). With layout "sides" (the
    default, five a side) the seats' order follows from where seat 1 sits; with "even" they go
    clockwise on screen unless `clockwise` is False. Each zone is the band of table in front of
    the seat, from `inner` to `outer` times the ellipse, over `width_share` of the seat's share of
    the edge (gaps between neighbours keep a hand from landing in two zones). The raise zone is
    the band just outside the table behind the seat. Under a steep perspective the spacing is
    approximate: check the zones on a frame and adjust the file.
    """
    theta1 = _theta_of(centre, axes, angle_deg, seat1) if seat1 is not None else math.pi / 2
    thetas, share = seat_angles(theta1, axes, layout, clockwise, n_seats)
    half = share * width_share / 2
    seats: dict[int, Seat] = {}
    for k, theta in enumerate(thetas):
        arc = np.linspace(theta - half, theta + half, 7)
        zone = [ellipse_point(centre, axes, angle_deg, t, outer) for t in arc]
        zone += [ellipse_point(centre, axes, angle_deg, t, inner) for t in arc[::-1]]
        lift = [ellipse_point(centre, axes, angle_deg, t, 1.7) for t in arc]
        lift += [ellipse_point(centre, axes, angle_deg, t, 1.12) for t in arc[::-1]]
        seats[k + 1] = Seat(np.array(zone), np.array(lift))
    return SeatMap((int(frame_size[0]), int(frame_size[1])), seats)
