"""Per-seat crops: a square around the seat's zone, cut from the full-resolution frame, resized to 256 px.

The palm detector misses hands under ~170 px on a whole 720p frame but finds 21-40 px hands on a
256 px crop around one seat, so every seat gets its own crop. Cutting from the full-resolution
frame (never a downscaled copy) keeps every pixel of a 4K hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CROP_SIZE = 256
MARGIN = 0.25  # of the zone's larger side, on every side: a hand resting on the zone's edge stays whole


@dataclass(frozen=True)
class SeatCrop:
    x0: int  # top-left of the square in frame pixels (may be negative: the outside is padded black)
    y0: int
    side: int  # square side in frame pixels
    size: int = CROP_SIZE

    @property
    def scale(self) -> float:
        """Crop pixels per frame pixel."""
        return self.size / self.side

    def cut(self, frame: np.ndarray) -> np.ndarray:
        """The crop as a size x size image (a copy; pads with black where the square leaves the frame)."""
        h, w = frame.shape[:2]
        x1, y1 = self.x0 + self.side, self.y0 + self.side
        sx0, sy0, sx1, sy1 = max(self.x0, 0), max(self.y0, 0), min(x1, w), min(y1, h)
        if (sx0, sy0, sx1, sy1) == (self.x0, self.y0, x1, y1):
            square = frame[sy0:sy1, sx0:sx1]  # inside the frame: resize the view, no copy
        else:
            square = np.zeros((self.side, self.side, frame.shape[2]), frame.dtype)
            if sx1 > sx0 and sy1 > sy0:
                square[sy0 - self.y0:sy1 - self.y0, sx0 - self.x0:sx1 - self.x0] = frame[sy0:sy1, sx0:sx1]
        k = self.side // self.size
        if k >= 2 and self.side % k == 0:  # big zone (4K): average k x k blocks first (fast, no aliasing)
            square = cv2.resize(square, (self.side // k, self.side // k), interpolation=cv2.INTER_AREA)
        return cv2.resize(square, (self.size, self.size), interpolation=cv2.INTER_LINEAR)

    def to_frame(self, points: np.ndarray) -> np.ndarray:
        """Crop pixels (x, y[, ...]) -> frame pixels; extra columns (z) are scaled alike."""
        out = np.asarray(points, float).copy()
        out[:, :2] = out[:, :2] / self.scale + (self.x0, self.y0)
        if out.shape[1] > 2:
            out[:, 2:] /= self.scale
        return out

    def from_frame(self, points: np.ndarray) -> np.ndarray:
        """Frame pixels (x, y, ...) -> crop pixels (x, y): the inverse of to_frame for the first two columns."""
        return (np.asarray(points, float)[:, :2] - (self.x0, self.y0)) * self.scale

    def normalized_to_frame(self, points: np.ndarray) -> np.ndarray:
        """MediaPipe's normalised landmarks (0-1 of the crop) -> frame pixels."""
        return self.to_frame(np.asarray(points, float) * self.size)

    def visible_share(self, frame_size: tuple[int, int]) -> float:
        """The share of the square that lies inside the frame."""
        w, h = frame_size
        ix = max(0, min(self.x0 + self.side, w) - max(self.x0, 0))
        iy = max(0, min(self.y0 + self.side, h) - max(self.y0, 0))
        return ix * iy / self.side**2


def crop_for_zone(zone: np.ndarray, frame_size: tuple[int, int], margin: float = MARGIN,
                  size: int = CROP_SIZE) -> SeatCrop:
    """The square around a zone polygon with a margin, moved inside the frame where it fits."""
    w, h = frame_size
    lo, hi = zone.min(axis=0), zone.max(axis=0)
    extent = float(max(hi - lo))
    side = int(round(extent * (1 + 2 * margin)))
    side = max(side, 16)
    k = side // size
    if k >= 2:
        side = k * -(-side // k)  # a multiple of k: cut() can average exact k x k blocks
    cx, cy = (lo + hi) / 2
    x0, y0 = int(round(cx - side / 2)), int(round(cy - side / 2))
    if side <= w:
        x0 = min(max(x0, 0), w - side)
    if side <= h:
        y0 = min(max(y0, 0), h - side)
    return SeatCrop(x0, y0, side, size)


def zone_visible_share(zone: np.ndarray, frame_size: tuple[int, int]) -> float:
    """The share of a zone's area that lies inside the frame (0 when the zone is off-picture)."""
    w, h = frame_size
    lo = np.floor(zone.min(axis=0)).astype(int)
    hi = np.ceil(zone.max(axis=0)).astype(int)
    size = hi - lo + 1
    if size[0] <= 0 or size[1] <= 0 or size[0] * size[1] > 4e7:
        return 0.0
    mask = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillPoly(mask, [np.round(zone - lo).astype(np.int32)], 1)
    total = int(mask.sum())
    if total == 0:
        return 0.0
    x0, y0 = max(0, -lo[0]), max(0, -lo[1])
    x1, y1 = min(size[0], w - lo[0]), min(size[1], h - lo[1])
    inside = int(mask[y0:y1, x0:x1].sum()) if x1 > x0 and y1 > y0 else 0
    return inside / total


def covering_starts(extent: int, side: int, step: int) -> list[int]:
    """Where overlapping squares of `side` pixels, `step` apart, start so that they cover `extent` pixels, the last
    one flush with the far edge (the seat finder's tiles, the face finder's squares)."""
    if extent <= side:
        return [0]
    starts = list(range(0, extent - side + 1, step))
    if starts[-1] + side < extent:
        starts.append(extent - side)
    return starts
