"""Hand pose from 21 MediaPipe landmarks (2-D, any pixel scale, any rotation).

A finger counts as extended when its tip is clearly farther from the wrist than its middle
joint (PIP); curled fingers fold the tip back toward the wrist. On the 39 labelled real hands this
ratio separates cleanly (extended >= 1.15, curled <= 0.85). The thumb counts as out when its tip
stands away from the index and middle knuckles by more than 0.6 palm lengths.

Where MediaPipe's metric 3-D landmarks are given, a finger must be extended in them too. A picture is a
projection: on a compact rendered thumb-up fist MediaPipe sometimes puts the wrist landmark on the knuckle
side, so that the folded fingertips lie far from it in the picture (2-D ratios 1.6-3.3: a steady "open
palm", the false wrong_form of our tie clip and of the sample game), while its 3-D hand model of the same
reading keeps every finger curled (0.64-0.99). On the labelled cut-outs of ../shared/assets/hands the
3-D ratio separates as cleanly as the picture's (extended >= 1.14, curled <= 0.94), so the same threshold
holds for both.

The measures are rotation-invariant on purpose: a fist lies on the table at any angle to an
overhead camera, so "thumb up" means "thumb out of a closed fist", not "thumb toward the sky".
Fingertips of a fist are hidden on small crops and MediaPipe guesses them, so callers should treat
`fist` vs `thumb_up_fist` as soft and trust `open_palm` / `finger` only with some confidence.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

WRIST = 0
FINGERS = ((5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16), (17, 18, 19, 20))  # mcp, pip, dip, tip
THUMB_TIP = 4
EXTENDED_RATIO = 1.05  # tip-to-wrist / pip-to-wrist above which a finger is extended
THUMB_OUT = 0.6  # thumb tip distance from the index/middle knuckles, in palm lengths
MIN_HAND_PX = 10.0  # landmark extent (crop pixels) below which nothing can be read


@dataclass(frozen=True)
class Pose:
    pose: str  # one of contract.observations.POSES
    fingers: int  # extended fingers including the thumb, 0-5 (what a raised hand shows)
    margin: float  # 0-1: how far the deciding measures are from their thresholds


def _palm_length(p: np.ndarray) -> float:
    return float(np.linalg.norm(p[9] - p[WRIST]))  # 2-D or 3-D alike


def finger_ratios(points: np.ndarray, dims: int = 2) -> np.ndarray:
    """tip-to-wrist / pip-to-wrist for index, middle, ring, pinky (on the first `dims` coordinates)."""
    p = np.asarray(points, float)[:, :dims]
    wrist = p[WRIST]
    return np.array(
        [np.linalg.norm(p[tip] - wrist) / max(np.linalg.norm(p[pip] - wrist), 1e-6) for _, pip, _, tip in FINGERS]
    )


def thumb_spread(points: np.ndarray) -> float:
    """Distance of the thumb tip from the index/middle knuckles and middle joints, in palm lengths."""
    p = np.asarray(points, float)[:, :2]
    return float(np.linalg.norm(p[[5, 6, 9, 10]] - p[THUMB_TIP], axis=1).min() / max(_palm_length(p), 1e-6))


def classify(points: np.ndarray, world: np.ndarray | None = None) -> Pose:
    """The pose of one hand from its 21 landmarks (x, y[, z]) in pixels; `world`: MediaPipe's metric 3-D
    landmarks of the same reading, where a finger must be extended too (see the module's doc)."""
    ratios = finger_ratios(points)
    if world is not None and np.shape(world) == (21, 3) and np.isfinite(world).all():
        ratios = np.minimum(ratios, finger_ratios(world, 3))
    spread = thumb_spread(points)
    extended = ratios > EXTENDED_RATIO
    thumb = spread > THUMB_OUT
    n = int(extended.sum())
    if n == 0:
        pose = "thumb_up_fist" if thumb else "fist"
    elif n == 1:
        pose = "finger"
    elif n >= 3:
        pose = "open_palm"
    else:
        pose = "other"
    finger_margin = float(np.min(np.abs(ratios - EXTENDED_RATIO)) / 0.25)
    thumb_margin = abs(spread - THUMB_OUT) / 0.3
    return Pose(pose, n + int(thumb), float(min(1.0, finger_margin, thumb_margin)))


def plausible_hand(points: np.ndarray, world: np.ndarray | None = None, min_size_px: float = MIN_HAND_PX) -> bool:
    """Reject detections whose landmarks do not form a readable human hand.

    `points`: the 21 image landmarks in pixels, used for size (too few pixels to read a pose).
    `world`: MediaPipe's metric 3-D landmarks where available; proportions are checked on them
    because a fist seen edge-on collapses its knuckle row in the picture but not in 3-D. The checks
    hold for any pose and viewpoint: the knuckle row is about as wide as the palm is long, every
    bone has a sane length, and the palm is a surface rather than a line.
    """
    p = np.asarray(points, float)
    if p.shape[0] != 21 or not np.isfinite(p).all():
        return False
    extent = p[:, :2].max(axis=0) - p[:, :2].min(axis=0)
    if float(extent.max()) < min_size_px:
        return False
    q = p if world is None else np.asarray(world, float)
    if q.shape[0] != 21 or not np.isfinite(q).all():
        return False
    if q.shape[1] == 2:
        q = np.column_stack([q, np.zeros(21)])
    palm = _palm_length(q)
    if palm <= 0:
        return False
    knuckles = np.linalg.norm(q[5] - q[17]) / palm
    if not 0.3 <= knuckles <= 1.4:
        return False
    for chain in ((1, 2, 3, 4), *FINGERS):
        bones = np.linalg.norm(np.diff(q[list(chain)], axis=0), axis=1) / palm
        if bones.max() > 1.0 or bones.sum() < 0.25:
            return False
    triangle = np.linalg.norm(np.cross(q[5] - q[0], q[17] - q[0])) / 2
    return triangle / palm**2 > 0.1


GESTURE_TO_POSE = {
    "thumb_up": "thumb_up_fist",
    "fist": "fist",
    "palm": "open_palm",
    "four": "open_palm",
    "stop": "open_palm",
    "one_up": "finger",
    "one": "finger",
}


def pose_of_gesture(gesture: str) -> str:
    """The pose a labelled gesture maps to (spec §3's mapping of ../assets/hands labels)."""
    return GESTURE_TO_POSE.get(gesture, "other")
