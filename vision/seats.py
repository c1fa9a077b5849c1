"""The seat maps vision draws itself: ten zones around a table ellipse as it appears in the picture.

The map's type, its file and its geometry are the contract's (`contract.seats`), shared with review; what
is here places zones from pixels (the calibration page's ellipse, the sample videos' scenes).
"""

from __future__ import annotations

import math

import numpy as np

from contract.seats import Seat, SeatMap


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
