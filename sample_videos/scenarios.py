"""Rendering windows of the game into frames, and the scenario set: the game, its clips, the stress set.

Only what moves is drawn per frame: each seat's arms and hands are a small layer over a still
background, cached while the hands hold still (a resting hand only jitters by whole pixels), so a
clip costs little more than its encoding.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Protocol

import cv2
import numpy as np

from .game import OtherHand, Show, VoteHand, Window
from .hands import POSES, HandState, arm_capsules, hand_capsules, number_pose, raised_pose
from .motion import FPS, UP, Jitter, Track, place
from .render import Camera, Canvas, Light
from .scene import (
    TRIPOD,
    VOTE_SPREAD,
    Prop,
    Scene,
    Seat,
    far_camera,
    make_seats,
    seat_map,
    top_camera,
    tripod_camera,
    vary_seats,
)

LEFT_LABEL = 10  # mask labels: right hand = seat, left hand = 10 + seat, arms = 20 + seat
ARM_LABEL = 20
# skin smoothing: 3 mm at the seat's nearest point, in pixels (a twentieth of a fist); 7 mm found 2 pts
# fewer hand frames and read fewer thumbs; README.md's detection table was measured with this value
SKIN_BLUR_M = 0.003


class CutoutPainter(Protocol):
    """Draws a hand from a photo in place of a procedural one (sample_videos.composite)."""

    def covers(self, hand: HandState) -> bool: ...

    def paste(self, canvas: Canvas, hand: HandState, camera: Camera, label: int) -> None: ...


@dataclass(frozen=True)
class Conditions:
    """How a scenario is filmed: picture size, camera, light and the damage done to the picture."""

    size: tuple[int, int] = (1920, 1080)
    camera: str = "tripod"  # tripod | top | far (a second tripod at the far end, facing the judge)
    distance: float = 1.0  # > 1: the tripod further back, smaller hands
    brightness: float = 1.0
    noise: float = 0.0  # standard deviation, 0..255 scale
    blur: float = 0.0  # Gaussian sigma in pixels
    shake: float = 0.0  # camera shake amplitude in pixels
    crf: int = 27
    clutter: bool = False  # props next to the voting zones, forearms resting on the table
    cloth: str = "green"  # a table surface of scene.TABLE_CLOTHS: felts, woods, black cloth, stripes, check
    seed: int = 7
    looks: int | None = None  # a seed for per-seat looks over wide ranges (scene.vary_seats); None: the classic cast
    ambient: float = 0.38  # the room's share of light that does not come from the lamp
    warmth: float = 0.0  # the light's colour: > 0 warm (tungsten), < 0 cool (daylight, LED)
    vase: int | None = None  # a tall vase on the table between the judge's tripod and this seat's voting spot

    def make_camera(self) -> Camera:
        if self.camera == "top":
            return top_camera(self.size)
        if self.camera == "far":
            return far_camera(self.size)
        return tripod_camera(self.size, self.distance)


@dataclass
class SeatLayer:
    """What one seat's arms and hands add to the background: the drawn pixels only."""

    x0: int
    y0: int
    ys: np.ndarray  # rows of the drawn pixels, relative to y0
    xs: np.ndarray
    values: np.ndarray  # (n, 3) uint8 BGR
    hand: np.ndarray  # bool patch: this seat's right (voting) hand pixels, the ground-truth mask


@dataclass
class Stage:
    """A scene set up for one set of conditions: seats, camera, backgrounds and the layer cache."""

    cond: Conditions
    cutouts: CutoutPainter | None = None  # real hand photos instead of the procedural right hand
    seats: dict[int, Seat] = field(init=False)
    scene: Scene = field(init=False)
    _backgrounds: dict = field(default_factory=dict, init=False)
    _layers: dict = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        rng = np.random.default_rng(self.cond.seed)
        self.seats = make_seats(rng)
        if self.cond.looks is not None:  # its own generator: the classic scene's draws stay as they were
            self.seats = vary_seats(self.seats, np.random.default_rng(self.cond.looks))
        light = Light(ambient=self.cond.ambient, brightness=self.cond.brightness)
        props = self._props(rng)
        self.scene = Scene(self.cond.make_camera(), self.seats, light, self.cond.cloth, props, masks_at_night=True)

    def _props(self, rng: np.random.Generator) -> list[Prop]:
        spots = [(-0.35, 0.15, "glass"), (0.4, -0.2, "phone"), (0.05, 0.3, "card"), (0.6, 0.25, "glass")]
        props = [Prop(kind, np.array([x, y, 0.0]), float(rng.uniform(0, 3.14))) for x, y, kind in spots]
        if self.cond.clutter:
            for seat in self.seats.values():
                kind = ["glass", "phone", "card", "bottle"][seat.number % 4]
                pos = seat.edge + seat.forward * 0.3 - seat.right * 0.22
                props.append(Prop(kind, pos, float(rng.uniform(0, 3.14))))
        if self.cond.vase is not None:  # drawn without the generator: every other prop stays where it was
            props.append(Prop("vase", vase_spot(self.seats[self.cond.vase]), 0.0))
        return props

    def background(self, night: bool, living: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        key = (night, living)
        if key not in self._backgrounds:
            scene = replace(self.scene, seats={n: s for n, s in self.seats.items() if n in living})
            rgb, depth = scene.background(np.random.default_rng(self.cond.seed + 1), night)
            u8 = (np.clip(rgb, 0, 1) * 255).astype(np.uint8)[..., ::-1].copy()
            self._backgrounds[key] = (rgb, depth, u8)
        return self._backgrounds[key]

    def forget_layers(self) -> None:
        self._layers.clear()

    def layer(self, seat: Seat, hands: tuple[HandState, HandState], key: tuple | None, night: bool,
              living: tuple[int, ...]) -> SeatLayer:
        """The seat's arms and hands over the background; `key` names a held state worth caching."""
        if key is not None:
            key = (seat.number, night, living, key)
            hit = self._layers.get(key)
            if hit is not None:
                return hit
            if len(self._layers) > 400:
                self._layers.clear()
        rgb_bg, depth_bg, _ = self.background(night, living)
        cam = self.scene.camera
        caps = []
        photo = self.cutouts is not None and self.cutouts.covers(hands[0])
        for h in hands:
            shoulder = seat.shoulder(h.right)
            caps += arm_capsules(shoulder, h.wrist, seat.scale, seat.elbow_pole(h.right), seat.skin,
                                 seat.sleeve_colour, seat.long_sleeve, ARM_LABEL + seat.number, seat.cuff,
                                 seat.band if h.right == seat.band_right else None)
            if not (photo and h.right):
                caps += hand_capsules(h, seat.skin, seat.number if h.right else LEFT_LABEL + seat.number)
        pts = np.array([p for c in caps for p in (c.a, c.b)])
        uv, depth = cam.project(pts)
        pad = (0.16 if photo else 0.06) * cam.focal / max(float(depth.min()), 0.3) + 4
        w, h = cam.size
        x0, y0 = max(int(uv[:, 0].min() - pad), 0), max(int(uv[:, 1].min() - pad), 0)
        x1, y1 = min(int(uv[:, 0].max() + pad) + 1, w), min(int(uv[:, 1].max() + pad) + 1, h)
        if x1 <= x0 or y1 <= y0:
            empty = np.zeros(0, np.int32)
            layer = SeatLayer(0, 0, empty, empty, np.zeros((0, 3), np.uint8), np.zeros((0, 0), bool))
        else:
            canvas = Canvas(x0, y0, x1 - x0, y1 - y0, rgb_bg[y0:y1, x0:x1], depth_bg[y0:y1, x0:x1])
            canvas.draw(caps, cam, self.scene.light)
            if photo:
                self.cutouts.paste(canvas, hands[0], cam, seat.number)
            sigma = SKIN_BLUR_M * cam.focal / max(float(depth.min()), 0.3) + 0.8
            canvas.soften({seat.number, LEFT_LABEL + seat.number}, sigma)
            rgb = (np.clip(canvas.rgb, 0, 1) * 255).astype(np.uint8)[..., ::-1].copy()
            ys, xs = np.nonzero(canvas.alpha > 0)
            layer = SeatLayer(x0, y0, ys.astype(np.int32), xs.astype(np.int32), rgb[ys, xs],
                              canvas.label == seat.number)
        if key is not None:
            self._layers[key] = layer
        return layer


VASE_LEAD = 0.17  # metres from the seat's voting spot towards the judge's tripod


def vase_spot(seat: Seat) -> np.ndarray:
    """Where a vase stands to hide the seat's voting spot from the judge's tripod (whichever camera films)."""
    spot = seat.edge + seat.forward * 0.21 + seat.right * 0.06
    towards = TRIPOD - spot
    towards[2] = 0.0
    return spot + towards / np.linalg.norm(towards) * VASE_LEAD


def tracks_for(window: Window, seats: dict[int, Seat], seed: int) -> dict[tuple[int, bool], Track]:
    """Every living player's two hands through the window: at rest, voting, shooting, showing numbers."""
    rng = np.random.default_rng(seed)
    tracks: dict[tuple[int, bool], Track] = {}
    for n in window.living:
        seat = seats[n]
        for right in (True, False):
            if window.night:
                base = seat.night(right)
            else:
                base = seat.idle(right) if (n + right) % 3 else seat.lap(right)
            tracks[(n, right)] = Track(base)
    for h in window.hands:
        seat = seats[h.seat]
        rest = seat.vote_rest(h.pose, (float(rng.uniform(-VOTE_SPREAD, VOTE_SPREAD)), float(rng.uniform(-VOTE_SPREAD, VOTE_SPREAD))))
        track = tracks[(h.seat, True)]
        place(track, h.on, h.off, rest, track.base)
    for r in window.raises:
        seat = seats[r.seat]
        track = tracks[(r.seat, True)]
        place(track, r.up, r.down, seat.raised(raised_pose(r.fingers, False)), track.base, travel=0.4)
        if r.fire is not None:
            track.move(r.fire - 1.0 / FPS, r.fire + 1.0 / FPS, seat.raised(raised_pose(r.fingers, True)), 0.0, False)
    for s in window.shows:
        _show(s, seats[s.seat], tracks)
    for o in window.others:
        if o.kind == "busy":
            _busy(o, seats[o.seat], tracks[(o.seat, o.right)], seed)
        elif o.spot is not None:
            _other(o, seats[o.seat], tracks[(o.seat, o.right)], seed)
    return tracks


FIDGET_POSES = ("relaxed", "fist", "open_palm", "relaxed")
EDGE_SPOTS = ((-0.08, 0.12), (-0.05, 0.18), (-0.03, 0.24), (-0.10, 0.20))  # (along, lateral) on the edge, outside
# the zone (the zone is where vote hands land: 0.21 in, 0.06 to the right, vision's zone grown around them)


def _other(o: OtherHand, seat: Seat, track: Track, seed: int) -> None:
    """An idle, passing or fidgeting hand (game.OtherHand) on the hand's track."""
    along, lateral = o.spot
    rest = seat.on_table(o.pose, along, lateral, o.right, True)
    if o.kind == "idle":
        place(track, o.on, o.off, rest, track.base)
    elif o.kind == "passing":  # without a hold it sweeps over the spot a few centimetres up, never touching
        travel = (o.off - o.on - o.hold) / 2
        if not o.hold:
            rest = replace(rest, wrist=rest.wrist + UP * 0.04)
        track.move(o.on, o.on + travel, rest, 0.05, arrive=True)
        track.move(o.on + travel + o.hold, o.off, track.base, 0.05, arrive=False)
    else:  # fidget: shifts and changes of grip every half second or so, never far from the spot
        rng = np.random.default_rng([seed, o.seat, int(o.right), int(o.on * FPS)])
        place(track, o.on, o.off, rest, track.base)
        t = o.on + float(rng.uniform(0.3, 0.9))
        while t + 0.5 < o.off - 0.1:
            pose = FIDGET_POSES[int(rng.integers(len(FIDGET_POSES)))]
            spot = (along + float(rng.uniform(-0.02, 0.02)), lateral + float(rng.uniform(-0.03, 0.03)))
            step = float(rng.uniform(0.12, 0.3))
            track.move(t, t + step, seat.on_table(pose, *spot, o.right, True), float(rng.uniform(0.0, 0.03)))
            t += step + float(rng.uniform(0.3, 1.1))


def busy_spots(rng: np.random.Generator, right: bool) -> tuple[str, tuple[float, float] | None]:
    """Where a busy hand goes next: (what, spot), `what` one of edge (a pose on the table edge at `spot`),
    lap (under the table top) or air (a gesture at chest height)."""
    kind = ("edge", "edge", "edge", "lap", "air")[int(rng.integers(5))]
    if kind != "edge":
        return kind, None
    along, lateral = EDGE_SPOTS[int(rng.integers(len(EDGE_SPOTS)))]
    return kind, (along + float(rng.uniform(-0.02, 0.02)), (lateral if right else -lateral) + float(rng.uniform(-0.02, 0.02)))


def _busy(o: OtherHand, seat: Seat, track: Track, seed: int) -> None:
    """A hand that never keeps still over [on, off) (sample_videos.busy): moves of a quarter to two thirds of a
    second among the table edge, the lap and a gesture at chest height, holds of at most 0.3 s, back at its
    rest by `off`."""
    rng = np.random.default_rng([seed, o.seat, int(o.right), int(o.on * FPS)])
    t = o.on
    while True:
        step = float(rng.uniform(0.25, 0.65))
        if t + step + 0.3 > o.off - 0.4:
            break
        kind, spot = busy_spots(rng, o.right)
        if kind == "edge":
            pose = FIDGET_POSES[int(rng.integers(len(FIDGET_POSES)))]
            dst = seat.on_table(pose, *spot, o.right, True)
        elif kind == "lap":
            dst = seat.lap(o.right)
        else:
            dst = seat.raised(POSES["relaxed"], o.right, height=float(rng.uniform(0.05, 0.15)),
                              reach=float(rng.uniform(-0.05, 0.05)))
        track.move(t, t + step, dst, float(rng.uniform(0.0, 0.04)))
        t += step + float(rng.uniform(0.0, 0.3))
    track.move(t, min(o.off, t + 0.4), track.base, 0.02, arrive=False)


def _show(show: Show, seat: Seat, tracks: dict[tuple[int, bool], Track]) -> None:
    n = show.number
    right_n = n if n <= 5 else n - 5
    track = tracks[(show.seat, True)]
    place(track, show.t, show.until, seat.showing(number_pose(right_n), True), track.base, travel=0.4)
    if n > 5:
        track = tracks[(show.seat, False)]
        place(track, show.t, show.until, seat.showing(number_pose(5), False), track.base, travel=0.4)


class Effects:
    """Picture damage applied after compositing: shake, blur, noise (all deterministic)."""

    def __init__(self, cond: Conditions, n_frames: int) -> None:
        self.cond = cond
        rng = np.random.default_rng(cond.seed + 99)
        w, h = cond.size
        self.noise = [rng.normal(0, cond.noise, (h, w, 1)).astype(np.int16) for _ in range(6)] if cond.noise else []
        if cond.shake:
            walk = np.cumsum(rng.normal(0, 0.6, (n_frames + 1, 2)), axis=0)
            walk -= cv2.GaussianBlur(walk, (1, 51), 0)  # keep it wandering around the tripod's position
            self.shake = np.clip(walk, -cond.shake, cond.shake)
        else:
            self.shake = None
        gains = (1 - 0.22 * cond.warmth, 1 + 0.03 * cond.warmth, 1 + 0.2 * cond.warmth)  # B, G, R
        self.tint = (np.stack([np.clip(np.arange(256) * g, 0, 255) for g in gains], -1).astype(np.uint8)[:, None, :]
                     if cond.warmth else None)

    def offset(self, index: int) -> tuple[float, float]:
        if self.shake is None:
            return 0.0, 0.0
        return float(self.shake[index, 0]), float(self.shake[index, 1])

    def apply(self, frame: np.ndarray, index: int) -> np.ndarray:
        if self.tint is not None:
            frame = cv2.LUT(frame, self.tint)
        if self.shake is not None:
            dx, dy = self.offset(index)
            m = np.float32([[1, 0, dx], [0, 1, dy]])
            frame = cv2.warpAffine(frame, m, (frame.shape[1], frame.shape[0]), borderMode=cv2.BORDER_REPLICATE)
        if self.cond.blur:
            frame = cv2.GaussianBlur(frame, (0, 0), self.cond.blur)
        if self.noise:
            frame = np.clip(frame.astype(np.int16) + self.noise[index % len(self.noise)], 0, 255).astype(np.uint8)
        return frame


def render_window(stage: Stage, window: Window, seed: int,
                  masks: bool = False) -> Iterator[tuple[np.ndarray, dict[int, tuple[int, int, np.ndarray]]]]:
    """Frames of one window (BGR uint8) and, when asked, each seat's hand mask (x0, y0, bool patch).

    Masks are in the picture's coordinates before shake: they are the renderer's own truth."""
    _, _, bg = stage.background(window.night, window.living)
    stage.forget_layers()  # cached layers are keyed by this window's holds
    tracks = tracks_for(window, stage.seats, seed)
    jitter = Jitter(seed, list(window.living), window.frames + 1)
    effects = Effects(stage.cond, window.frames + 1)
    for i in range(window.frames):
        t = i / FPS
        frame = bg.copy()
        hand_masks = {}
        for n in window.living:
            (right, kr), (left, kl) = tracks[(n, True)].at(t), tracks[(n, False)].at(t)
            key = (kr, kl) if kr is not None and kl is not None else None
            layer = stage.layer(stage.seats[n], (right, left), key, window.night, window.living)
            if layer.values.size == 0:
                continue
            dx, dy = jitter.at(n, i)
            x0, y0 = layer.x0 + dx, layer.y0 + dy
            _paste(frame, layer, x0, y0)
            if masks:
                hand_masks[n] = (x0, y0, layer.hand)
        yield effects.apply(frame, i), hand_masks


def vote_still(stage: Stage, poses: dict[int, str], seed: int) -> tuple[np.ndarray, dict]:
    """One frame of a vote where every seat in `poses` rests its hand on the table in that pose, and the
    stage's seat map: stills for training and testing pose readers (bench/train_thumb.py)."""
    window = Window("still", "still", False, tuple(sorted(poses)), duration=1.0)
    window.hands = [VoteHand(n, 0.5, 5.0, pose, "vote") for n, pose in sorted(poses.items())]
    last = deque(render_window(stage, window, seed), maxlen=1)  # the hands have arrived by the last frame
    return last[0][0], seats_json(stage)


def _paste(frame: np.ndarray, layer: SeatLayer, x0: int, y0: int) -> None:
    ys, xs = layer.ys + y0, layer.xs + x0
    h, w = frame.shape[:2]
    ok = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
    if ok.all():
        frame[ys, xs] = layer.values
    else:
        frame[ys[ok], xs[ok]] = layer.values[ok]


def seats_json(stage: Stage) -> dict:
    return seat_map(stage.scene)
