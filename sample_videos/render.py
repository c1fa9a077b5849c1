"""A tiny z-buffered renderer of shaded capsules, the one drawing primitive of the sample scenes.

Everything with a body (fingers, palms, forearms, sleeves, torsos, heads, glasses) is a union of
capsules: a segment with a radius that may taper.  Each capsule is shaded as a round solid lit by
one directional light, which is what makes MediaPipe take the procedural hands for real ones
(flat-coloured fists are found in a fraction of the frames).  A z-buffer lets fingers curl in
front of or behind the palm without any hand-written draw order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np


def _normalise(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


@dataclass
class Camera:
    """A pinhole camera: world metres (z up) to pixel coordinates and depth along the view axis."""

    position: tuple[float, float, float]
    target: tuple[float, float, float]
    focal: float
    size: tuple[int, int]  # (width, height)
    rotation: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        pos = np.asarray(self.position, float)
        fwd = _normalise(np.asarray(self.target, float) - pos)
        up = np.array([0.0, 0.0, 1.0]) if abs(fwd[2]) < 0.99 else np.array([1.0, 0.0, 0.0])
        right = _normalise(np.cross(fwd, up))
        down = np.cross(fwd, right)
        self.rotation = np.stack([right, down, fwd])

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        return (np.asarray(points, float) - np.asarray(self.position, float)) @ self.rotation.T

    def project(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Pixel coordinates (N, 2) and depths (N,) of world points (N, 3)."""
        cam = self.to_camera(points)
        depth = cam[..., 2]
        w, h = self.size
        uv = np.stack([cam[..., 0] / depth * self.focal + w / 2, cam[..., 1] / depth * self.focal + h / 2], -1)
        return uv, depth

    def ray_directions(self) -> np.ndarray:
        """World directions (h, w, 3) of the rays through every pixel centre."""
        w, h = self.size
        xs = (np.arange(w) + 0.5 - w / 2) / self.focal
        ys = (np.arange(h) + 0.5 - h / 2) / self.focal
        gx, gy = np.meshgrid(xs, ys)
        cam = np.stack([gx, gy, np.ones_like(gx)], -1)
        return cam @ self.rotation


@dataclass(frozen=True)
class Capsule:
    """A segment a-b with radii ra, rb (metres), a colour (RGB 0..1) and a label for masks (0 = none)."""

    a: tuple[float, float, float]
    b: tuple[float, float, float]
    ra: float
    rb: float
    color: tuple[float, float, float]
    label: int = 0
    gloss: float = 0.15


@dataclass
class Light:
    """Directional light (towards the light, world coordinates) with an ambient floor."""

    direction: tuple[float, float, float] = (-0.35, 0.45, 0.82)
    ambient: float = 0.38
    diffuse: float = 0.72
    brightness: float = 1.0


class Canvas:
    """A colour, depth and label buffer covering the rectangle [x0, x0+w) x [y0, y0+h) of the frame."""

    def __init__(self, x0: int, y0: int, w: int, h: int, background: np.ndarray | None = None,
                 depth: np.ndarray | None = None) -> None:
        self.x0, self.y0, self.w, self.h = x0, y0, w, h
        self.rgb = background.copy() if background is not None else np.zeros((h, w, 3), np.float32)
        self.depth = depth.copy() if depth is not None else np.full((h, w), np.inf, np.float32)
        self.alpha = np.zeros((h, w), np.float32)
        self.label = np.zeros((h, w), np.uint8)

    def draw(self, capsules: list[Capsule], camera: Camera, light: Light) -> None:
        if not capsules:
            return
        ends = np.array([[c.a, c.b] for c in capsules], float).reshape(-1, 3)
        uv, depth = camera.project(ends)
        ldir = camera.rotation @ _normalise(np.asarray(light.direction, float))
        for i, cap in enumerate(capsules):
            self._capsule(cap, uv[2 * i], uv[2 * i + 1], depth[2 * i], depth[2 * i + 1], camera.focal, ldir, light)

    def _capsule(self, cap: Capsule, pa, pb, da, db, focal, ldir, light: Light) -> None:
        if da <= 0.05 or db <= 0.05:
            return
        ax, ay, bx, by, da, db = float(pa[0]), float(pa[1]), float(pb[0]), float(pb[1]), float(da), float(db)
        ra, rb = cap.ra * focal / da, cap.rb * focal / db
        rmax = max(ra, rb) + 1.5
        x0 = max(int(np.floor(min(ax, bx) - rmax)) - self.x0, 0)
        x1 = min(int(np.ceil(max(ax, bx) + rmax)) - self.x0, self.w)
        y0 = max(int(np.floor(min(ay, by) - rmax)) - self.y0, 0)
        y1 = min(int(np.ceil(max(ay, by) + rmax)) - self.y0, self.h)
        if x0 >= x1 or y0 >= y1:
            return
        px = np.arange(x0, x1, dtype=np.float32)[None, :] + np.float32(self.x0 + 0.5 - ax)
        py = np.arange(y0, y1, dtype=np.float32)[:, None] + np.float32(self.y0 + 0.5 - ay)
        dx, dy = bx - ax, by - ay
        len2 = dx * dx + dy * dy
        if len2 > 1e-6:
            s = (px * np.float32(dx / len2) + py * np.float32(dy / len2)).clip(0.0, 1.0)
        else:
            s = np.zeros((y1 - y0, x1 - x0), np.float32)
        ox = px - s * np.float32(dx)
        oy = py - s * np.float32(dy)
        dist = np.sqrt(ox * ox + oy * oy)
        r = np.float32(ra) + s * np.float32(rb - ra)
        cover = (r - dist + np.float32(0.5)).clip(0.0, 1.0)
        inside = cover > 0
        if not inside.any():
            return
        inv = np.float32(1.0) / np.maximum(r, np.float32(1e-3))
        nx, ny = ox * inv, oy * inv
        nz = np.sqrt((np.float32(1.0) - nx * nx - ny * ny).clip(0.0, 1.0))
        rw0, rw1 = cap.ra, cap.rb - cap.ra
        d = np.float32(da) + s * np.float32(db - da) - nz * (np.float32(rw0) + s * np.float32(rw1))
        win = inside & (d < self.depth[y0:y1, x0:x1])
        if not win.any():
            return
        # camera space: x right, y down, z forward; the visible surface faces -z
        lx, ly, lz = (np.float32(v) for v in ldir)
        lam = (nx * lx + ny * ly - nz * lz).clip(0.0, 1.0)
        rim = (np.float32(1.0) - nz) ** 4 * np.float32(0.06)  # darker silhouette edge of a rounded surface
        shade = (np.float32(light.ambient) + np.float32(light.diffuse) * lam - rim) * np.float32(light.brightness)
        col = np.asarray(cap.color, np.float32)
        rgb = shade[..., None] * col
        if cap.gloss > 0.02:
            hx, hy, hz = (np.float32(v) for v in _normalise(ldir + np.array([0.0, 0.0, -1.0])))
            spec = (nx * hx + ny * hy - nz * hz).clip(0.0, 1.0) ** 24 * np.float32(cap.gloss * light.brightness)
            rgb += spec[..., None]
        a = np.where(win, cover, np.float32(0.0))[..., None]
        region = self.rgb[y0:y1, x0:x1]
        region += (rgb - region) * a
        solid = win & (cover >= 0.5)
        self.depth[y0:y1, x0:x1][solid] = d[solid]
        np.maximum(self.alpha[y0:y1, x0:x1], a[..., 0], out=self.alpha[y0:y1, x0:x1])
        self.label[y0:y1, x0:x1][solid] = cap.label

    def soften(self, labels: set[int], sigma: float) -> None:
        """Smooth colours inside the given labels only: skin reads as one surface, not a bundle of tubes.

        Without it the seams between capsules look like a robot's hand and MediaPipe finds a third
        fewer fists; blurring the whole frame instead would wash out the table."""
        mask = np.isin(self.label, list(labels)).astype(np.float32)
        if not mask.any():
            return
        num = cv2.GaussianBlur(self.rgb * mask[..., None], (0, 0), sigma)
        den = cv2.GaussianBlur(mask, (0, 0), sigma)
        smooth = num / np.maximum(den, 1e-3)[..., None]
        self.rgb = np.where(mask[..., None] > 0, smooth, self.rgb).astype(np.float32)
