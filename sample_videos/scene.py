"""The table scene: an oval table, ten seated players, number cards, props, cameras and seat maps.

World: metres, z up, table top at z = 0, the judge's end of the table towards -x.  Seats 1-5 run
along the +y side (the judge's left) from the judge's end to the far end, 6-10 back along the -y
side: clockwise seen from above.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .hands import (
    MODEL_HAND,
    POSES,
    HandShape,
    HandState,
    hand_capsules,
    lowest_point,
    number_pose,
    raised_pose,
)
from .render import Camera, Canvas, Capsule, Light

TABLE_A, TABLE_B = 1.3, 0.74  # oval semi-axes
SEAT_ANGLES = np.radians([146, 118, 90, 62, 34, 326, 298, 270, 242, 214])
UP = np.array([0.0, 0.0, 1.0])
JUDGE = np.array([-2.0, 0.0, 0.45])
TRIPOD = np.array([-2.7, 0.0, 3.1])  # the tripod camera behind the judge (tripod_camera at distance 1)

SKINS = [(0.93, 0.76, 0.64), (0.86, 0.64, 0.50), (0.76, 0.55, 0.41), (0.62, 0.42, 0.29), (0.45, 0.30, 0.21)]
SHIRTS = [(0.12, 0.14, 0.2), (0.55, 0.1, 0.12), (0.85, 0.85, 0.82), (0.15, 0.3, 0.5), (0.25, 0.25, 0.25),
          (0.35, 0.45, 0.3), (0.5, 0.4, 0.6), (0.08, 0.08, 0.08), (0.6, 0.5, 0.35), (0.2, 0.45, 0.55)]
HAIR = [(0.08, 0.06, 0.05), (0.3, 0.2, 0.1), (0.55, 0.4, 0.2), (0.15, 0.1, 0.08), (0.5, 0.5, 0.5)]
TABLE_CLOTHS = {"green": (0.13, 0.33, 0.2), "blue": (0.12, 0.2, 0.36), "wood": (0.52, 0.34, 0.2),
                "grey": (0.3, 0.31, 0.32), "burgundy": (0.36, 0.08, 0.1), "beige": (0.68, 0.6, 0.47),
                "black": (0.045, 0.045, 0.05), "wood_light": (0.74, 0.56, 0.37), "wood_dark": (0.28, 0.16, 0.09),
                "wood_red": (0.5, 0.23, 0.14), "stripes": (0.7, 0.66, 0.58), "check": (0.62, 0.6, 0.55)}
# how each surface is drawn: felt (soft low-frequency shading), grain (the first wood), planks (wood boards
# with grain and seams), cloth (a near-black cloth with a faint weave sheen), stripes and check (woven patterns
# in the base colour and a second colour drawn per scene)
SURFACES = {"green": "felt", "blue": "felt", "grey": "felt", "burgundy": "felt", "beige": "felt", "wood": "grain",
            "wood_light": "planks", "wood_dark": "planks", "wood_red": "planks", "black": "cloth",
            "stripes": "stripes", "check": "check"}
PATTERN_COLOURS = [(0.55, 0.1, 0.12), (0.12, 0.18, 0.38), (0.1, 0.3, 0.18), (0.2, 0.2, 0.22), (0.75, 0.55, 0.2),
                   (0.9, 0.88, 0.82)]
DARK_SLEEVES = [(0.04, 0.04, 0.05), (0.08, 0.09, 0.14), (0.14, 0.12, 0.1), (0.18, 0.18, 0.19)]
BANDS = [(0.05, 0.05, 0.05), (0.62, 0.62, 0.64), (0.4, 0.25, 0.12), (0.8, 0.65, 0.3), (0.7, 0.15, 0.15)]
# skin from very light to very dark (RGB at full light), for per-seat tones drawn anywhere between
SKIN_RAMP = np.array([(0.97, 0.84, 0.75), (0.93, 0.75, 0.63), (0.84, 0.62, 0.48), (0.7, 0.49, 0.35),
                      (0.55, 0.36, 0.24), (0.4, 0.25, 0.16), (0.27, 0.17, 0.11), (0.18, 0.12, 0.08)])


@dataclass
class Seat:
    """Where one player sits and where his hands go."""

    number: int
    edge: np.ndarray  # point of the table edge in front of the player
    forward: np.ndarray  # unit, from the player towards the table's inside
    right: np.ndarray  # the player's right
    skin: tuple
    shirt: tuple
    hair: tuple
    scale: float
    long_sleeve: bool
    shape: HandShape = MODEL_HAND
    sleeve: tuple | None = None  # the sleeves' colour where it is not the shirt's (a jacket, a cardigan)
    cuff: float = 0.78  # where a long sleeve ends along the forearm
    band: tuple | None = None  # a watch strap's or bracelet's colour (None: bare wrists)
    band_right: bool = False  # the band is on the right (voting) wrist, else on the left

    @property
    def sleeve_colour(self) -> tuple:
        return self.shirt if self.sleeve is None else self.sleeve

    def shoulder(self, right: bool) -> np.ndarray:
        base = self.edge - self.forward * 0.30 + UP * 0.33
        return base + self.right * (0.19 if right else -0.19) * self.scale

    def on_table(self, pose: str, along: float, lateral: float, right: bool = True,
                 palm_down: bool = False) -> HandState:
        """A hand resting on the table `along` metres in from the edge, `lateral` to the player's right."""
        f = self.forward + self.right * (-0.25 if right else 0.25)
        f = f / np.linalg.norm(f)
        if pose in ("thumb_up_fist", "fist") and not palm_down:
            thumb = UP
        else:
            thumb = np.cross(UP, f) * (1 if right else -1)
        pos = self.edge + self.forward * along + self.right * lateral
        state = HandState(POSES[pose], pos, f, thumb, right, self.scale, self.shape)
        return rest_on_table(state)

    def vote_rest(self, pose: str, jitter: tuple[float, float] = (0.0, 0.0)) -> HandState:
        palm_down = pose in ("open_palm", "finger")
        return self.on_table(pose, 0.21 + jitter[0], 0.06 + jitter[1], True, palm_down)

    def idle(self, right: bool) -> HandState:
        """A relaxed hand at the table edge, outside the voting zone."""
        return self.on_table("relaxed", -0.05, 0.14 if right else -0.14, right, True)

    def lap(self, right: bool) -> HandState:
        """A hand on the knee under the table top, hidden from the tripod: not a hand on the table."""
        pos = self.edge + self.forward * 0.06 + self.right * (0.1 if right else -0.1) - UP * 0.1
        thumb = np.cross(UP, self.forward) * (1 if right else -1)
        return HandState(POSES["relaxed"], pos, self.forward, thumb, right, self.scale, self.shape)

    def night(self, right: bool) -> HandState:
        """Arms crossed, the hand on the other shoulder (rfm 4.5.12 night pose)."""
        target = self.shoulder(not right) + self.forward * 0.07 - UP * 0.06
        return HandState(POSES["relaxed"], target, UP * 0.8 - self.forward * 0.2, -self.right if right else self.right,
                         right, self.scale, self.shape)

    def raised(self, pose, right: bool = True, height: float = 0.36, reach: float = 0.16) -> HandState:
        """A hand held up in front of the shoulder, palm towards the table (shooting, checks)."""
        wrist = self.shoulder(right) + UP * height + self.forward * reach
        towards = JUDGE - wrist
        towards[2] = 0
        palm = towards / np.linalg.norm(towards) * 0.5 + self.forward * 0.5
        palm = palm / np.linalg.norm(palm)
        dorsal = -palm
        x = UP - self.right * (0.15 if right else -0.15)
        x = x / np.linalg.norm(x)
        y = np.cross(dorsal, x) if right else np.cross(x, dorsal)
        return HandState(pose, wrist, x, y, right, self.scale, self.shape)

    def showing(self, pose, right: bool = True, height: float = 0.3, reach: float = 0.2) -> HandState:
        """A hand held up showing a number to the judge: palm turned to the judge's end of the table.

        The player turns the palm to the judge and the camera stands behind the judge, so the palm faces
        the camera with the fingers up; seen edge-on (the shooting hand's orientation) the fingers of a
        number overlap and cannot be counted.
        """
        wrist = self.shoulder(right) + UP * height + self.forward * reach
        palm = TRIPOD - wrist
        palm = palm / np.linalg.norm(palm)
        x = UP - np.dot(UP, palm) * palm - self.right * (0.12 if right else -0.12)
        x = x / np.linalg.norm(x)
        dorsal = -palm
        y = np.cross(dorsal, x) if right else np.cross(x, dorsal)
        return HandState(pose, wrist, x, y, right, self.scale, self.shape)

    def elbow_pole(self, right: bool) -> np.ndarray:
        return -UP * 0.7 + self.right * (0.6 if right else -0.6) - self.forward * 0.2


def rest_on_table(state: HandState) -> HandState:
    lift = 0.004 - lowest_point(state)
    return replace(state, wrist=state.wrist + UP * lift)


def make_seats(rng: np.random.Generator, dark_skins: bool = True) -> dict[int, Seat]:
    seats = {}
    skins = SKINS if dark_skins else SKINS[:4]
    for i, th in enumerate(SEAT_ANGLES):
        p = np.array([TABLE_A * np.cos(th), TABLE_B * np.sin(th), 0.0])
        n = np.array([np.cos(th) / TABLE_A, np.sin(th) / TABLE_B, 0.0])
        n = n / np.linalg.norm(n)
        f = -n
        seats[i + 1] = Seat(i + 1, p, f, np.cross(f, UP), skins[int(rng.integers(len(skins)))],
                            SHIRTS[int(rng.integers(len(SHIRTS)))], HAIR[int(rng.integers(len(HAIR)))],
                            float(rng.uniform(0.94, 1.06)), bool(rng.random() < 0.7))
    return seats


def tripod_camera(size: tuple[int, int], distance: float = 1.0) -> Camera:
    """The tournament view: a tripod behind the judge, the whole table in the frame, 3/4 from above."""
    w, _ = size
    return Camera(tuple(TRIPOD * (distance, 1.0, distance)), (0.3, 0.0, 0.05), 1.0 * w / distance, size)


def far_camera(size: tuple[int, int], distance: float = 1.15) -> Camera:
    """A second tripod at the far end of the table, facing the judge: the tournament view turned round (a
    little further back, so the nearest hands stay in the frame): the seats far from the judge (5, 6) are
    near and large, the judge's neighbours (1, 10) small."""
    w, _ = size
    return Camera(tuple(TRIPOD * (-distance, 1.0, distance)), (-0.3, 0.0, 0.05), 1.0 * w / distance, size)


def top_camera(size: tuple[int, int]) -> Camera:
    w, _ = size
    return Camera((0.0, 0.0001, 3.6), (0.0, 0.0, 0.0), 0.92 * w, size)


@dataclass
class Prop:
    """A thing on the table: a glass, a phone, a card, a bottle."""

    kind: str
    pos: np.ndarray
    angle: float


@dataclass
class Scene:
    """Everything static in one shot plus what the seat layers need to draw the moving arms."""

    camera: Camera
    seats: dict[int, Seat]
    light: Light
    cloth: str = "green"
    props: list[Prop] = field(default_factory=list)
    masks_at_night: bool = False

    def background(self, rng: np.random.Generator, night: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The still picture (float RGB 0..1) and its depth buffer: table, floor, players, cards, props."""
        cam = self.camera
        w, h = cam.size
        dirs = cam.ray_directions()
        pos = np.asarray(cam.position, float)
        rgb = np.zeros((h, w, 3), np.float32)
        depth = np.full((h, w), 1e3, np.float32)
        # back wall and floor
        vy = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None, None]
        rgb[:] = (np.array([0.16, 0.14, 0.13]) * (1.1 - 0.5 * vy)).astype(np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            t_floor = (-0.75 - pos[2]) / dirs[..., 2]
            t_table = (0.0 - pos[2]) / dirs[..., 2]
        floor = (t_floor > 0) & np.isfinite(t_floor)
        fx = pos[0] + dirs[..., 0] * t_floor
        fy = pos[1] + dirs[..., 1] * t_floor
        floor &= (np.abs(fx) < 4.5) & (np.abs(fy) < 3.5)
        checker = ((np.floor(fx * 2) + np.floor(fy * 2)) % 2)[..., None] * 0.02
        rgb = np.where(floor[..., None], np.array([0.2, 0.17, 0.14], np.float32) + checker, rgb)
        depth = np.where(floor, t_floor, depth)
        tx = pos[0] + dirs[..., 0] * t_table
        ty = pos[1] + dirs[..., 1] * t_table
        r = np.sqrt((tx / TABLE_A) ** 2 + (ty / TABLE_B) ** 2)
        on_table = (t_table > 0) & (r <= 1.0)
        rim = on_table & (r > 0.965)
        spot = np.clip(1.15 - 0.35 * r, 0.6, 1.2)[..., None]
        table = self._surface(tx, ty, rng) * spot
        table = np.where(rim[..., None], np.array([0.22, 0.13, 0.08], np.float32) * spot, table)
        rgb = np.where(on_table[..., None], table, rgb).astype(np.float32)
        depth = np.where(on_table, t_table, depth).astype(np.float32)
        canvas = Canvas(0, 0, w, h, rgb * self.light.brightness, depth)
        light = self.light
        for seat in self.seats.values():
            canvas.draw(self._body(seat, night), cam, light)
        for prop in self.props:
            canvas.draw(self._prop_capsules(prop), cam, light)
        self._cards(canvas)
        return canvas.rgb, canvas.depth

    def _surface(self, tx: np.ndarray, ty: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The table top's colour (h, w, 3) at table coordinates (metres): low-frequency cloth shading, wood
        grain or boards, or a woven pattern; cheap to encode, not flat enough to look fake."""
        base = np.array(TABLE_CLOTHS[self.cloth], np.float32)
        kind = SURFACES[self.cloth]
        phase = rng.uniform(0, 6.28, 4)
        if kind == "grain":
            grain = np.sin(ty * 60 + np.sin(tx * 3 + phase[0]) * 2.0) * 0.06 + np.sin(ty * 13 + phase[1]) * 0.05
            return base * (1.0 + grain).astype(np.float32)[..., None]
        felt = (1.0 + 0.04 * np.sin(tx * 5 + phase[0]) * np.sin(ty * 7 + phase[1])
                + 0.03 * np.sin(tx * 11 + ty * 3 + phase[2])).astype(np.float32)
        if kind == "felt":
            return base * felt[..., None]
        if kind == "cloth":  # a black cloth shows its folds only as a faint sheen
            sheen = 1.0 + 0.25 * np.sin(tx * 4 + phase[0]) * np.sin(ty * 3 + phase[1])
            return base * (felt * sheen).astype(np.float32)[..., None]
        if kind == "planks":
            return base * self._planks(tx, ty, rng, phase)[..., None]
        second = np.array(PATTERN_COLOURS[int(rng.integers(len(PATTERN_COLOURS)))], np.float32)
        period, duty, angle = float(rng.uniform(0.05, 0.16)), float(rng.uniform(0.25, 0.6)), float(rng.uniform(0, np.pi))
        mix = _stripes(tx * np.cos(angle) + ty * np.sin(angle), period, duty)
        if kind == "check":
            mix = 0.5 * (mix + _stripes(ty * np.cos(angle) - tx * np.sin(angle), period, duty))
        colour = base * (1 - mix[..., None]) + second * mix[..., None]
        return (colour * felt[..., None]).astype(np.float32)

    @staticmethod
    def _planks(tx: np.ndarray, ty: np.ndarray, rng: np.random.Generator, phase: np.ndarray) -> np.ndarray:
        """Boards along the table's length, each its own tone and grain, with dark seams between them."""
        width = float(rng.uniform(0.09, 0.18))
        tones = rng.uniform(0.85, 1.12, 64).astype(np.float32)
        shifts = rng.uniform(0, 6.28, 64).astype(np.float32)
        v = (ty + 3.0) / width
        board = np.floor(v).astype(np.int64) % 64
        grain = (np.sin(tx * 45 + np.sin(ty * 9 + shifts[board]) * 2.5 + shifts[board]) * 0.05
                 + np.sin(tx * 7 + phase[2] + shifts[board]) * 0.04)
        seam = np.clip(np.abs(v - np.round(v)) * width / 0.0025, 0.0, 1.0)
        return (tones[board] * (1.0 + grain) * (0.55 + 0.45 * seam)).astype(np.float32)

    def _body(self, seat: Seat, night: bool) -> list[Capsule]:
        s = seat.scale
        hip = seat.edge - seat.forward * 0.42 - UP * 0.28
        neck = seat.edge - seat.forward * 0.33 + UP * 0.36
        head = neck + UP * 0.2 * s + seat.forward * 0.02
        caps = [
            Capsule(tuple(hip), tuple(neck - UP * 0.06), 0.17 * s, 0.16 * s, seat.shirt, 0, 0.05),
            Capsule(tuple(seat.shoulder(True) - UP * 0.02), tuple(seat.shoulder(False) - UP * 0.02),
                    0.075 * s, 0.075 * s, seat.shirt, 0, 0.05),
            Capsule(tuple(neck), tuple(head - UP * 0.05), 0.05 * s, 0.05 * s, seat.skin, 0),
            Capsule(tuple(head), tuple(head + UP * 0.03), 0.1 * s, 0.1 * s, seat.skin, 0),
            Capsule(tuple(head + UP * 0.05 - seat.forward * 0.03), tuple(head + UP * 0.06 - seat.forward * 0.05),
                    0.098 * s, 0.09 * s, seat.hair, 0, 0.05),
        ]
        if night and self.masks_at_night:
            eye = head + UP * 0.015 + seat.forward * 0.06
            caps.append(Capsule(tuple(eye - seat.right * 0.06), tuple(eye + seat.right * 0.06), 0.035 * s, 0.035 * s,
                                (0.05, 0.05, 0.06), 0, 0.3))
        return caps

    def _prop_capsules(self, prop: Prop) -> list[Capsule]:
        p = prop.pos
        d = np.array([np.cos(prop.angle), np.sin(prop.angle), 0.0])
        if prop.kind == "glass":
            return [Capsule(tuple(p + UP * 0.04), tuple(p + UP * 0.1), 0.035, 0.04, (0.75, 0.8, 0.85), 0, 0.6)]
        if prop.kind == "bottle":
            return [Capsule(tuple(p + UP * 0.06), tuple(p + UP * 0.18), 0.04, 0.04, (0.2, 0.45, 0.25), 0, 0.6),
                    Capsule(tuple(p + UP * 0.2), tuple(p + UP * 0.26), 0.015, 0.013, (0.2, 0.45, 0.25), 0, 0.6)]
        if prop.kind == "vase":  # a tall flower vase: wide enough to hide a hand behind it from one side
            return [Capsule(tuple(p + UP * 0.09), tuple(p + UP * 0.2), 0.095, 0.075, (0.55, 0.62, 0.7), 0, 0.5),
                    Capsule(tuple(p + UP * 0.23), tuple(p + UP * 0.3), 0.045, 0.055, (0.55, 0.62, 0.7), 0, 0.5)]
        if prop.kind == "phone":
            return [Capsule(tuple(p - d * 0.05 + UP * 0.006), tuple(p + d * 0.05 + UP * 0.006), 0.035, 0.035,
                            (0.05, 0.05, 0.07), 0, 0.5)]
        # a face-down card or a notebook: a flat pale slab
        return [Capsule(tuple(p - d * 0.04 + UP * 0.004), tuple(p + d * 0.04 + UP * 0.004), 0.03, 0.03,
                        (0.8, 0.78, 0.7), 0, 0.1)]

    def _cards(self, canvas: Canvas) -> None:
        """Seat number cards lying at the table edge, numbers readable from the judge's end."""
        cam = self.camera
        for seat in self.seats.values():
            centre = seat.edge + seat.forward * 0.07 - seat.right * 0.2
            toward = np.array([1.0, 0.0, 0.0])  # the text's top points away from the judge
            side = np.cross(toward, UP)
            half_w, half_h = 0.055, 0.04
            corners = np.array([centre - side * half_w - toward * half_h, centre + side * half_w - toward * half_h,
                                centre + side * half_w + toward * half_h, centre - side * half_w + toward * half_h])
            corners = corners + UP * 0.002
            uv, d = cam.project(corners)
            if (d <= 0).any():
                continue
            tw, th = 110, 80
            card = np.full((th, tw, 3), 235, np.uint8)
            text = str(seat.number)
            scale = 2.0
            (tw_txt, th_txt), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 4)
            cv2.putText(card, text, ((tw - tw_txt) // 2, (th + th_txt) // 2), cv2.FONT_HERSHEY_DUPLEX, scale,
                        (25, 25, 25), 4, cv2.LINE_AA)
            card = card.astype(np.float32) / 255
            src = np.float32([[0, th], [tw, th], [tw, 0], [0, 0]])
            m = cv2.getPerspectiveTransform(src, uv.astype(np.float32))
            h, w = canvas.h, canvas.w
            warped = cv2.warpPerspective(card, m, (w, h), flags=cv2.INTER_AREA)
            mask = cv2.warpPerspective(np.ones((th, tw), np.float32), m, (w, h), flags=cv2.INTER_LINEAR)
            zd = float(d.mean()) - 0.01
            vis = (mask > 0) & (canvas.depth >= zd)
            a = np.where(vis, mask, 0.0)[..., None]
            canvas.rgb = (canvas.rgb * (1 - a) + warped * self.light.brightness * a).astype(np.float32)
            canvas.depth = np.where(mask > 0.5, np.minimum(canvas.depth, zd), canvas.depth).astype(np.float32)


def _stripes(u: np.ndarray, period: float, duty: float) -> np.ndarray:
    """0..1 woven stripes across coordinate u (metres): `duty` of each period in the second colour, soft edges."""
    phase = (u / period) % 1.0
    edge = 0.004 / period
    return (np.clip((duty - phase) / edge + 0.5, 0, 1) * np.clip(phase / edge + 0.5, 0, 1)).astype(np.float32)


def skin_tone(rng: np.random.Generator) -> tuple:
    """A skin colour anywhere from very light to very dark, with a reddish or yellowish undertone."""
    x = float(rng.uniform(0, len(SKIN_RAMP) - 1))
    i = min(int(x), len(SKIN_RAMP) - 2)
    colour = SKIN_RAMP[i] * (1 - (x - i)) + SKIN_RAMP[i + 1] * (x - i)
    k = float(rng.normal(0, 0.035))
    return tuple(float(c) for c in np.clip(colour * (1 + k, 1.0, 1 - k), 0, 1))


def hand_shape(rng: np.random.Generator) -> HandShape:
    """One person's hand: long- or short-fingered, narrow or broad, slim or thick, a tight or loose fist."""
    length = float(rng.uniform(0.88, 1.12))
    fingers = tuple(float(length * rng.normal(1.0, 0.03)) for _ in range(4))
    return HandShape(fingers, float(rng.uniform(0.9, 1.1)), float(rng.uniform(0.88, 1.15)),
                     float(rng.uniform(0.92, 1.08)), float(rng.uniform(0.85, 1.18)), float(rng.uniform(0.8, 1.04)))


def vary_seats(seats: dict[int, Seat], rng: np.random.Generator) -> dict[int, Seat]:
    """The seats with looks drawn per player over wide ranges: skin tone, hand size and proportions, shirt,
    sleeves (short, rolled up, long, long and dark down to the hand) and a watch or bracelet."""
    out = {}
    for n, seat in seats.items():
        if rng.random() < 0.5:
            shirt = SHIRTS[int(rng.integers(len(SHIRTS)))]
        else:
            shirt = tuple(float(c) for c in np.clip(rng.uniform(0.05, 0.9) + rng.normal(0, 0.08, 3), 0.03, 0.95))
        sleeves = str(rng.choice(["short", "rolled", "long", "dark"], p=[0.3, 0.2, 0.3, 0.2]))
        sleeve = None
        if sleeves == "dark":
            sleeve = DARK_SLEEVES[int(rng.integers(len(DARK_SLEEVES)))]
        elif sleeves == "long" and rng.random() < 0.5:
            sleeve = tuple(float(c) for c in rng.uniform(0.1, 0.8, 3))
        cuff = {"short": 0.78, "rolled": rng.uniform(0.3, 0.5), "long": rng.uniform(0.7, 0.85),
                "dark": rng.uniform(0.88, 0.95)}[sleeves]
        band = BANDS[int(rng.integers(len(BANDS)))] if rng.random() < 0.35 else None
        out[n] = replace(seat, skin=skin_tone(rng), shirt=shirt, scale=float(rng.uniform(0.88, 1.12)),
                         long_sleeve=sleeves != "short", shape=hand_shape(rng), sleeve=sleeve, cuff=float(cuff),
                         band=band, band_right=bool(rng.random() < 0.4))
    return out


def polygon_of(points3d: np.ndarray, camera: Camera, grow: float = 1.0) -> list[list[float]]:
    """The convex hull, in pixels, of 3D points seen by the camera, grown about its centre."""
    uv, _ = camera.project(points3d)
    hull = cv2.convexHull(uv.astype(np.float32)).reshape(-1, 2)
    centre = hull.mean(axis=0)
    hull = centre + (hull - centre) * grow
    w, h = camera.size
    hull[:, 0] = np.clip(hull[:, 0], 0, w - 1)
    hull[:, 1] = np.clip(hull[:, 1], 0, h - 1)
    return [[round(float(x), 1), round(float(y), 1)] for x, y in hull]


def hand_extent(states: list[HandState]) -> np.ndarray:
    """3D points bounding every capsule of the given hands (each end pushed out by its radius)."""
    axes = np.vstack([np.eye(3), -np.eye(3)])
    pts = []
    for st in states:
        for c in hand_capsules(st, (1, 1, 1), 0):
            for p, r in ((c.a, c.ra), (c.b, c.rb)):
                pts.append(np.asarray(p) + axes * r)
    return np.vstack(pts)


VOTE_POSES = ("thumb_up_fist", "fist", "open_palm", "finger")
VOTE_SPREAD = 0.025  # how far (m) a hand may land from the seat's usual spot, along and across


def seat_map(scene: Scene) -> dict:
    """Spec §2 seat map from the scene geometry: where each seat's hand can land, and where it is raised."""
    out = {}
    for n, seat in scene.seats.items():
        corners = [(a, b) for a in (-VOTE_SPREAD, VOTE_SPREAD) for b in (-VOTE_SPREAD, VOTE_SPREAD)]
        landed = [seat.vote_rest(p, c) for p in VOTE_POSES for c in corners]
        raised = [seat.raised(raised_pose(k, fire)) for k in (1, 2) for fire in (False, True)]
        raised += [seat.showing(number_pose(k), right) for k in (1, 5) for right in (True, False)]
        out[str(n)] = {"zone": polygon_of(hand_extent(landed), scene.camera, 1.12),
                       "raise": polygon_of(hand_extent(raised), scene.camera, 1.1)}
    return {"format": "stopframe-seats/1", "frame_size": list(scene.camera.size), "seats": out}
