"""The table's outline in the picture: the ellipse of the table top round the middle of the resting places.

Why: the resting places alone say little where a side of the table is missing (empty chairs, players whose hand
the detector missed): the middle of their bounding box leans away from that side, a chair guessed on the straight
line between two found ones lies inside the table, and a zone grown towards far neighbours reaches over the rim
to where idle hands lie. The table top is one large patch of one colour (felt, wood) round the table's middle,
seen from the 3/4 tripod or from above as an ellipse (a rounded table under perspective stays close to one), so
its outline gives the ring's true centre, the line the chairs follow and the edge no vote zone reaches past.

What is done: on a picture before the votes (fewest hands on the table), shrunk to OUTLINE_SIDE px and
median-blurred (wood grain, sensor noise), each pixel's colour distance (Lab) to the table's own colour (the
median round the seed, the ring's middle) is split by Otsu's threshold into table and not-table (where that
part is no table top the resting hands lie on, as when a floor or cloth nearer the table's colour than the
players are joins it, its own pixels are split again; where no split gives a table top, as when a lamp lights
only the middle of a dark table, the same is tried on the hue alone, which the lamp does not change); the part connected to the seed, opened so that arms and players of a similar colour touching the rim come off, gives its
outline, and an ellipse is fitted to it again and again without the points far inside or outside the last fit
(a player merged with the rim, a sleeve lying across it). Outline points on the picture's own edge are not the
rim and are left out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

OUTLINE_SIDE = 320  # px: the long side of the picture the outline is found on (the rim is no thinner than that)
SEED_SHARE = 1 / 15  # the table's colour: the median of a square of this share of the picture's height
OPEN_SHARE = 1 / 12  # arms touching the rim come off: an opening this share of the table's size across
FIT_KEEP = (0.8, 1.06)  # outline points kept for the next fit: this near the last one (its radius 1)
FIT_ROUNDS = 4
EDGE_PX = 2  # outline points this close to the picture's edge are the edge, not the rim
LEAST_POINTS = 20  # fewer outline points than this: no outline
FILL_LEAST = 0.75  # the share of the fitted ellipse that must be of the table's colour (a table top is one
# patch, props and hands on it aside; a pattern or noise split by the threshold fills half)
DEEP_INSIDE = 0.3  # during the votes no resting hand lies this near the table's middle (1: the rim)
SPLITS = 3  # Otsu splits tried: the players from the rest, then the floor from the table, then once more
COLOURS = (slice(0, 3), slice(1, 3))  # the distance to the table's colour in all of Lab, then in its hue alone
# (a and b): under a lamp over the table the top's lightness falls from the lit middle to the rim, its hue does not


@dataclass(frozen=True)
class Table:
    """The table top's ellipse in frame pixels: centre, semi-axes along and across `angle` (degrees, as OpenCV)."""

    centre: tuple[float, float]
    axes: tuple[float, float]
    angle: float

    def _frame(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        c, s = math.cos(math.radians(self.angle)), math.sin(math.radians(self.angle))
        dx, dy = x - self.centre[0], y - self.centre[1]
        return (dx * c + dy * s) / self.axes[0], (-dx * s + dy * c) / self.axes[1]

    def radius(self, x: float, y: float) -> float:
        """How far a point lies from the middle in the ellipse's own measure: 1 on the rim, 0 in the middle."""
        u, v = self._frame(np.array(x, float), np.array(y, float))
        return float(np.hypot(u, v))

    def theta(self, x: float, y: float) -> float:
        """The point's parameter angle on the ellipse (radians)."""
        u, v = self._frame(np.array(x, float), np.array(y, float))
        return float(math.atan2(float(v), float(u)))

    def point(self, theta: float, scale: float = 1.0) -> tuple[float, float]:
        """The point at parameter angle `theta` on the ellipse scaled by `scale` about its centre."""
        c, s = math.cos(math.radians(self.angle)), math.sin(math.radians(self.angle))
        u, v = self.axes[0] * scale * math.cos(theta), self.axes[1] * scale * math.sin(theta)
        return self.centre[0] + c * u - s * v, self.centre[1] + s * u + c * v

    def between(self, a: tuple[float, float], b: tuple[float, float], f: float) -> tuple[float, float]:
        """The point a share `f` of the way round the table from `a` to `b` (clockwise on screen), its distance
        from the middle going evenly from a's to b's: where chairs between two others stand."""
        ta, tb = self.theta(*a), self.theta(*b)
        ra, rb = self.radius(*a), self.radius(*b)
        return self.point(ta + ((tb - ta) % (2 * math.pi)) * f, ra + (rb - ra) * f)

    def polygon(self, scale: float = 1.0, count: int = 72) -> np.ndarray:
        """The ellipse scaled by `scale` as a polygon of `count` points (frame pixels)."""
        return np.array([self.point(2 * math.pi * k / count, scale) for k in range(count)])

    def scaled(self, f: float) -> Table:
        """The same outline on a picture `f` times the size."""
        return Table((self.centre[0] * f, self.centre[1] * f), (self.axes[0] * f, self.axes[1] * f), self.angle)


def _ellipse(fit: tuple) -> Table:
    (cx, cy), (width, height), angle = fit
    return Table((float(cx), float(cy)), (float(width) / 2, float(height) / 2), float(angle))


def _fitted(points: np.ndarray) -> Table | None:
    """An ellipse fitted to the outline points, refitted without those far off the last fit."""
    if len(points) < LEAST_POINTS:
        return None
    table = _ellipse(cv2.fitEllipse(points.astype(np.float32)))
    for _ in range(FIT_ROUNDS):
        if min(table.axes) <= 0:
            return None
        u, v = table._frame(points[:, 0], points[:, 1])
        r = np.hypot(u, v)
        keep = (r > FIT_KEEP[0]) & (r < FIT_KEEP[1])
        if keep.sum() < LEAST_POINTS:
            break
        table = _ellipse(cv2.fitEllipse(points[keep].astype(np.float32)))
    return table if min(table.axes) > 0 else None


def table_outline(image: np.ndarray, seed: tuple[float, float],
                  accept: Callable[[Table], bool] | None = None) -> Table | None:
    """The table top's ellipse (frame pixels) round `seed`, a point on the table (the ring's middle); None where
    no patch of the table's colour surrounds it. Where the first split's patch is no table top (no ellipse that
    its colour fills, or one `accept` refuses: a floor nearer the table's colour than the players are joined
    it), the pixels it kept are split again by their own Otsu threshold, at most SPLITS times; then the same on
    the distance in hue alone (COLOURS)."""
    height, width = image.shape[:2]
    f = min(1.0, OUTLINE_SIDE / max(height, width))
    small = cv2.resize(image, (max(1, round(width * f)), max(1, round(height * f))), interpolation=cv2.INTER_AREA)
    small = cv2.medianBlur(small, 5)
    h, w = small.shape[:2]
    sx, sy = min(max(0, int(seed[0] * f)), w - 1), min(max(0, int(seed[1] * f)), h - 1)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    r = max(3, int(h * SEED_SHARE))
    colour = np.median(lab[max(0, sy - r):sy + r, max(0, sx - r):sx + r].reshape(-1, 3), axis=0)
    for channels in COLOURS:
        distance = np.clip(np.linalg.norm(lab[:, :, channels] - colour[channels], axis=2), 0, 255).astype(np.uint8)
        level = 255
        for _ in range(SPLITS):
            kept = distance[distance <= level]
            if kept.size < LEAST_POINTS or int(kept.max()) == int(kept.min()):
                break
            level = int(cv2.threshold(kept.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0])
            patch = _patch_outline(distance <= level, sx, sy)
            table = patch.scaled(1.0 / f) if patch is not None else None
            if table is not None and (accept is None or accept(table)):
                return table
    return None


def _patch_outline(within: np.ndarray, sx: int, sy: int) -> Table | None:
    """The ellipse of the patch of `within` (the table's colour, shrunk picture) that holds the seed, where the
    table's colour fills it."""
    h, w = within.shape
    mask = cv2.morphologyEx(within.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    side = max(3, int(math.sqrt(float(mask.sum())) * OPEN_SHARE) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    if count < 2:
        return None
    part = labels[sy, sx] or 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    contours, _ = cv2.findContours((labels == part).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    points = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(float)
    inside = ((points[:, 0] > EDGE_PX) & (points[:, 0] < w - 1 - EDGE_PX)
              & (points[:, 1] > EDGE_PX) & (points[:, 1] < h - 1 - EDGE_PX))
    table = _fitted(points[inside])
    if table is None:
        return None
    area = np.zeros_like(mask)
    cv2.fillPoly(area, [np.round(table.polygon()).astype(np.int32)], 1)
    covered = float(mask[area > 0].mean()) if area.any() else 0.0
    return table if covered >= FILL_LEAST else None


def fits_places(table: Table, points: Sequence[tuple[float, float]], most_outside: float = 0.2,
                edge: bool = False, places: int | None = None) -> bool:
    """Whether an outline is the table the resting places lie on: the places inside it (at most `most_outside`
    of them past its rim, by up to a fifth, for a hand at the very edge; `edge`: hands seen outside the votes,
    most of them idle on the rim) and round its middle (with four places or more, its middle inside their
    box; not with `edge`, as outside the votes the hands seen resting may all lie on one side of the table),
    not in one corner of a far larger patch (the floor, a wall of the table's colour). `places`: how many places
    the points make (a hand seen on several frames gives several points at one place); default one per point."""
    if not points:
        return True
    xy = np.array(points, dtype=float)
    r = np.array([table.radius(x, y) for x, y in xy])
    if np.mean(r > (1.2 if edge else 1.0)) > most_outside or not 0.35 <= np.median(r) <= (1.2 if edge else 1.05):
        return False
    if not edge and np.mean(r < DEEP_INSIDE) > most_outside:  # a voter's hand rests near the rim, none in the
        return False  # table's middle: an outline round them all is a far larger patch (a floor, a room)
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    count = len(xy) if places is None else places
    return edge or count < 4 or bool(np.all(lo <= table.centre) and np.all(np.array(table.centre) <= hi))
