"""The procedural hand: a 21-joint skeleton posed by joint angles and drawn as shaded capsules.

Hand frame (centimetres, before scaling): x from the wrist towards the fingers, y towards the
thumb, z out of the back of the hand.  A right hand is a right-handed frame (z = x cross y);
a left hand mirrors it.  Poses are plain arrays so that motion can blend any two of them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .render import Capsule

#: MCP joints of index, middle, ring, pinky (cm, hand frame)
MCP = np.array([[8.6, 2.9, 0.0], [8.9, 0.95, 0.0], [8.4, -0.95, 0.0], [7.6, -2.75, 0.0]])
SEGMENTS = np.array([[4.0, 2.4, 2.0], [4.4, 2.8, 2.1], [4.1, 2.6, 2.1], [3.3, 1.9, 1.8]])
FINGER_R = np.array([1.05, 1.08, 1.02, 0.9])
THUMB_BASE = np.array([1.6, 2.0, -0.8])
THUMB_LEN = np.array([4.2, 3.2, 2.6])
PALM_BASES = np.array([[1.0, 1.6, 0.0], [0.8, 0.5, 0.0], [0.8, -0.6, 0.0], [1.0, -1.7, 0.0]])

EXTENDED = (5.0, 5.0, 3.0)
CURLED = (88.0, 100.0, 55.0)
BENT = (55.0, 80.0, 35.0)  # a raised finger "shooting"
RELAXED = (30.0, 40.0, 20.0)
ARM = (0.30, 0.27)  # upper arm and forearm (m) at scale 1
NUMBER_SPREAD = (18.0, 6.0, -6.0, -18.0)  # degrees, index to pinky (+: towards the thumb): fanned out

THUMBS = {
    "out": [(0.55, 0.8, -0.2), (0.75, 0.65, 0.0), (0.85, 0.5, 0.05)],
    "up": [(0.5, 0.72, -0.45), (0.12, 0.97, -0.2), (0.02, 1.0, -0.05)],
    "side": [(0.85, 0.28, -0.45), (0.75, -0.2, -0.6), (0.55, -0.75, -0.35)],
    "tucked": [(0.8, 0.1, -0.6), (0.45, -0.75, -0.5), (0.2, -0.95, -0.2)],
    "relaxed": [(0.7, 0.6, -0.4), (0.8, 0.45, -0.4), (0.8, 0.4, -0.45)],
}


@dataclass(frozen=True)
class Pose:
    """Joint angles of one hand: flexion (4 fingers x MCP/PIP/DIP, degrees), spread (degrees), thumb."""

    flex: np.ndarray
    spread: np.ndarray
    thumb: np.ndarray  # 3 unit directions of the thumb's segments, hand frame
    name: str = ""  # the truth's pose label where it has one (thumb_up_fist, fist, open_palm, finger)

    def blend(self, other: Pose, w: float) -> Pose:
        thumb = self.thumb * (1 - w) + other.thumb * w
        thumb = thumb / np.linalg.norm(thumb, axis=1, keepdims=True)
        return Pose(self.flex * (1 - w) + other.flex * w, self.spread * (1 - w) + other.spread * w, thumb,
                    self.name if w < 0.5 else other.name)


def make_pose(fingers: tuple, thumb: str, spread=(-3.0, 0.0, 3.0, 7.0), name: str = "") -> Pose:
    t = np.array(THUMBS[thumb], float)
    return Pose(np.array(fingers, float), np.array(spread, float), t / np.linalg.norm(t, axis=1, keepdims=True), name)


def number_pose(n: int) -> Pose:
    """One hand showing n = 1..5 with the fingers (index first; 5 adds the thumb).

    The fingers are spread wide, as a player showing a number to the judge does: held together, the
    renderer's thick fingers merge into one blade that nobody (and no landmarker) can count.
    """
    fingers = tuple(EXTENDED if i < min(n, 4) else CURLED for i in range(4))
    return make_pose(fingers, "out" if n >= 5 else "tucked", spread=NUMBER_SPREAD)


def raised_pose(fingers_up: int, fired: bool) -> Pose:
    """The night shot: one or two fingers up; on the chosen number they bend."""
    up = BENT if fired else EXTENDED
    fingers = tuple(up if i < fingers_up else CURLED for i in range(4))
    return make_pose(fingers, "tucked")


POSES: dict[str, Pose] = {
    "thumb_up_fist": make_pose((CURLED,) * 4, "up", name="thumb_up_fist"),
    "fist": make_pose((CURLED,) * 4, "side", name="fist"),
    "open_palm": make_pose((EXTENDED,) * 4, "out", spread=(-9.0, -2.0, 5.0, 12.0), name="open_palm"),
    "finger": make_pose((EXTENDED, CURLED, CURLED, CURLED), "side", name="finger"),
    "relaxed": make_pose((RELAXED,) * 4, "relaxed", name="relaxed"),
}


@dataclass(frozen=True)
class HandShape:
    """One person's hand proportions, as multipliers of the model hand (1.0 everywhere: the model itself).

    People's hands differ in finger length against palm, palm width, thickness and how tightly they
    close a fist; a detector tuned on one hand shape learns that shape, so the varied clips draw one per seat.
    """

    fingers: tuple[float, float, float, float] = (1.0, 1.0, 1.0, 1.0)  # index..pinky length
    thumb: float = 1.0
    palm_width: float = 1.0
    palm_length: float = 1.0
    thickness: float = 1.0  # finger and palm radii
    curl: float = 1.0  # flexion of curled fingers (< 1: a looser fist)

    def flex(self, pose: Pose) -> np.ndarray:
        """The pose's flexion with this hand's fist tightness applied to its curled fingers."""
        if self.curl == 1.0:
            return pose.flex
        curled = pose.flex[:, :1] > 45.0
        return np.where(curled, pose.flex * self.curl, pose.flex)

    def frame(self, p: np.ndarray) -> np.ndarray:
        """A hand-frame point (cm) of the model hand moved onto this palm."""
        return p * np.array([self.palm_length, self.palm_width, 1.0])


MODEL_HAND = HandShape()


@dataclass(frozen=True)
class HandState:
    """Everything needed to draw one hand: pose, placement and look."""

    pose: Pose
    wrist: np.ndarray  # world position (m)
    fingers_dir: np.ndarray  # world direction of the hand frame's x axis
    thumb_dir: np.ndarray  # world direction of the hand frame's y axis
    right: bool = True
    scale: float = 1.0  # 1.0 = an adult hand 18.5 cm long
    shape: HandShape = MODEL_HAND

    def blend(self, other: HandState, w: float) -> HandState:
        x = self.fingers_dir * (1 - w) + other.fingers_dir * w
        y = self.thumb_dir * (1 - w) + other.thumb_dir * w
        return replace(self, pose=self.pose.blend(other.pose, w), wrist=self.wrist * (1 - w) + other.wrist * w,
                       fingers_dir=x, thumb_dir=y)

    def basis(self) -> np.ndarray:
        """World directions of the hand frame's x, y, z axes as rows (orthonormalised)."""
        x = self.fingers_dir / np.linalg.norm(self.fingers_dir)
        y = self.thumb_dir - np.dot(self.thumb_dir, x) * x
        y = y / np.linalg.norm(y)
        z = np.cross(x, y) if self.right else np.cross(y, x)
        return np.stack([x, y, z])


def skeleton(pose: Pose, shape: HandShape = MODEL_HAND) -> list[list[np.ndarray]]:
    """Joint chains in the hand frame (cm): four fingers (MCP..tip) and the thumb (CMC..tip)."""
    chains = []
    flex = shape.flex(pose)
    mcp = shape.frame(MCP)
    for i in range(4):
        sp = np.radians(pose.spread[i])
        d0 = np.array([np.cos(sp), np.sin(sp), 0.0])
        p = mcp[i].copy()
        chain = [p]
        angle = 0.0
        for k in range(3):
            angle += np.radians(flex[i, k])
            d = np.cos(angle) * d0 + np.sin(angle) * np.array([0.0, 0.0, -1.0])
            p = p + d * (SEGMENTS[i, k] * shape.fingers[i])
            chain.append(p)
        chains.append(chain)
    p = shape.frame(THUMB_BASE)
    thumb = [p]
    for k in range(3):
        p = p + pose.thumb[k] * (THUMB_LEN[k] * shape.thumb)
        thumb.append(p)
    chains.append(thumb)
    return chains


def hand_capsules(state: HandState, skin: tuple, label: int) -> list[Capsule]:
    """World capsules of one hand (wrist to finger tips), labelled for the ground-truth masks."""
    s = 0.01 * state.scale
    shape = state.shape
    s_r = s * shape.thickness
    basis = state.basis()

    def w(p: np.ndarray) -> tuple:
        return tuple(state.wrist + (np.asarray(p) * s) @ basis)

    caps: list[Capsule] = []
    chains = skeleton(state.pose, shape)
    mcp, bases = shape.frame(MCP), shape.frame(PALM_BASES)
    dark = tuple(c * 0.93 for c in skin)
    caps.append(Capsule(w(shape.frame(np.array([0.0, 1.9, 0.0]))), w(shape.frame(np.array([0.0, -1.9, 0.0]))),
                        1.5 * s_r, 1.5 * s_r, skin, label))
    for i in range(4):
        caps.append(Capsule(w(bases[i]), w(mcp[i]), 1.45 * s_r, 1.25 * s_r, skin, label))
    for i in range(3):
        mid_base, mid_mcp = (bases[i] + bases[i + 1]) / 2, (mcp[i] + mcp[i + 1]) / 2
        caps.append(Capsule(w(mid_base + (0, 0, -0.3)), w(mid_mcp + (-0.5, 0, -0.3)), 1.45 * s_r, 1.3 * s_r, skin,
                            label))
    caps.append(Capsule(w(mcp[0]), w(mcp[3]), 1.05 * s_r, 0.95 * s_r, skin, label))
    caps.append(Capsule(w(shape.frame(np.array([1.3, 1.2, -0.7]))), w(shape.frame(np.array([4.6, 2.5, -1.2]))),
                        1.55 * s_r, 1.2 * s_r, skin, label))
    for i in range(4):
        r = FINGER_R[i]
        chain = chains[i]
        for k in range(3):
            r0, r1 = r * (1 - 0.06 * k), r * (1 - 0.06 * (k + 1)) * (0.92 if k == 2 else 1)
            caps.append(Capsule(w(chain[k]), w(chain[k + 1]), r0 * s_r, r1 * s_r, skin if k else dark, label))
    thumb = chains[4]
    for k in range(3):
        r0, r1 = 1.25 - 0.1 * k, 1.15 - 0.12 * k
        caps.append(Capsule(w(thumb[k]), w(thumb[k + 1]), r0 * s_r, r1 * s_r, skin, label))
    return caps


def lowest_point(state: HandState) -> float:
    """Height of the hand's lowest surface point (m): used to rest a hand on the table top."""
    caps = hand_capsules(state, (1, 1, 1), 0)
    return min(min(c.a[2] - c.ra, c.b[2] - c.rb) for c in caps)


def landmarks_world(state: HandState) -> np.ndarray:
    """The 21 MediaPipe-ordered landmarks (wrist, thumb 1-4, index 5-8, ..., pinky 17-20), world metres."""
    chains = skeleton(state.pose, state.shape)
    pts = [np.zeros(3)] + chains[4][1:] + [p for i in range(4) for p in chains[i]]
    basis = state.basis()
    return state.wrist + (np.array(pts) * 0.01 * state.scale) @ basis


def arm_capsules(shoulder: np.ndarray, wrist: np.ndarray, scale: float, pole: np.ndarray, skin: tuple,
                 sleeve: tuple, long_sleeve: bool, label: int, cuff: float = 0.78,
                 band: tuple | None = None) -> list[Capsule]:
    """Upper arm and forearm from the shoulder to the wrist, bent at an elbow found by two-bone IK.

    `cuff` is where a long sleeve ends along the forearm (0.3: rolled up, 0.95: down to the hand);
    `band` the colour of a watch strap or bracelet at the wrist (None: a bare wrist)."""
    l1, l2 = ARM[0] * scale, ARM[1] * scale
    d = wrist - shoulder
    dist = float(np.linalg.norm(d))
    u = d / max(dist, 1e-6)
    dist_c = min(dist, (l1 + l2) * 0.999)
    a = (l1 * l1 - l2 * l2 + dist_c * dist_c) / (2 * dist_c)
    h = np.sqrt(max(l1 * l1 - a * a, 0.0))
    n = pole - np.dot(pole, u) * u
    n = n / max(np.linalg.norm(n), 1e-6)
    elbow = shoulder + u * a + n * h
    fore = wrist - elbow
    cuff_at = elbow + fore * (cuff if long_sleeve else 0.0)
    caps = [Capsule(tuple(shoulder), tuple(elbow), 0.052 * scale, 0.042 * scale, sleeve, label, 0.05)]
    if long_sleeve:
        caps.append(Capsule(tuple(elbow), tuple(cuff_at), 0.043 * scale, 0.036 * scale, sleeve, label, 0.05))
        caps.append(Capsule(tuple(cuff_at), tuple(wrist), 0.029 * scale, 0.024 * scale, skin, label))
    else:
        caps.append(Capsule(tuple(elbow), tuple(wrist), 0.036 * scale, 0.024 * scale, skin, label))
    if band is not None:
        strap = wrist - fore * (0.05 * scale / max(float(np.linalg.norm(fore)), 1e-6))
        caps.append(Capsule(tuple(strap), tuple(wrist - (wrist - strap) * 0.6), 0.027 * scale, 0.026 * scale, band,
                            label, 0.4))
    return caps
