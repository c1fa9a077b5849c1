"""Composites of the real hand cut-outs in ../shared/assets/hands for the thumb reader (vision/thumb.py).

The reader learnt its fists from our renders and had never seen a photographed hand. Here a cut-out is
pasted onto a procedural table (felt, wood grain, dark cloth), scaled to a tripod hand, turned a little,
mirrored or not, recoloured within a plausible skin range, given a forearm and a shadow, then dimmed,
blurred, noised and JPEG-compressed. The photos are read from ../shared/assets at run time and never
copied; what is kept from them is the reader's numbers (bench/train_thumb.py).

Few cut-outs show a fist (index.json's gestures; the thumb-downs among its "none" were labelled by eye),
so each thumb cut-out serves both classes: upright it is what its label says, turned half a turn a
thumb-up becomes a thumb-down (not a vote) and a thumb-down a thumb-up. The reader must learn where the
thumb stands, not which hand it has seen.

The cut-outs are split by file into a training half and a held-out half (`split`): within each label,
ordered by the sha256 of the file name, every other one is held out. The validation clips are made of
the same cut-outs, so they are graded per cut-out as training-half or held-out.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.thumb import hand_scale

ASSETS = Path(__file__).resolve().parents[2] / "shared" / "assets" / "hands"
THUMB_UP, THUMB_DOWN, FIST = "thumb_up", "thumb_down", "fist"
BY_EYE = {  # index.json calls these "other": photos of a fist with its thumb pointing down, or a plain closed hand
    "td_none_00af1db1.png": THUMB_DOWN, "td_none_0a038096.png": THUMB_DOWN, "td_none_0a272153.png": THUMB_DOWN,
    "td_none_0a4a8907.png": THUMB_DOWN, "td_none_0a787971.png": THUMB_DOWN, "td_none_00c84257.png": FIST,
}
GESTURES = {"thumb_up": THUMB_UP, "thumb_down": THUMB_DOWN, "fist": FIST}  # index.json gesture -> label
SPLIT_RULE = ("by file, within each label (thumb_up, thumb_down, fist): files ordered by sha256 of the file "
              "name, ranks 0, 2, 4, ... train, ranks 1, 3, 5, ... held out")
MIN_SCALE, MAX_SCALE = 22.0, 110.0  # hand scales (px) drawn log-uniformly: small far seats to a near 1080p seat


@dataclass(frozen=True)
class Cutout:
    """One cut-out: its file, label, RGBA picture and 21 landmarks in sprite pixels."""

    file: str
    label: str
    rgba: np.ndarray
    points: np.ndarray


def labelled(folder: Path = ASSETS) -> dict[str, str]:
    """Every single-hand cut-out that shows a fist, by file: thumb_up, thumb_down or fist."""
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    labels = {e["file"]: GESTURES.get(e["gesture"]) or BY_EYE.get(e["file"]) for e in index if len(e["landmarks"]) == 1}
    return {f: g for f, g in labels.items() if g is not None}


def split(labels: dict[str, str]) -> tuple[list[str], list[str]]:
    """(training files, held-out files) by SPLIT_RULE: stratified by label, disjoint, fixed by the names alone."""
    train, held = [], []
    for label in sorted(set(labels.values())):
        files = sorted((f for f, g in labels.items() if g == label), key=lambda f: hashlib.sha256(f.encode()).hexdigest())
        train += files[0::2]
        held += files[1::2]
    return train, held


def load(files: list[str], folder: Path = ASSETS) -> list[Cutout]:
    """The named cut-outs, read from the shared folder."""
    labels = labelled(folder)
    marks = {e["file"]: e["landmarks"][0] for e in json.loads((folder / "index.json").read_text(encoding="utf-8"))}
    out = []
    for f in files:
        rgba = cv2.imread(str(folder / f), cv2.IMREAD_UNCHANGED)
        if rgba is None or rgba.ndim != 3 or rgba.shape[2] != 4:
            raise FileNotFoundError(f"{folder / f}: not an RGBA cut-out")
        out.append(Cutout(f, labels[f], rgba, np.array(marks[f], np.float64)[:, :2]))
    return out


def table(rng: np.random.Generator, side: int) -> np.ndarray:
    """A procedural table top (BGR float 0-1): felt, wood grain or dark cloth, with uneven light."""
    y, x = np.mgrid[0:side, 0:side].astype(np.float32) / side
    kind = rng.integers(3)
    if kind == 0:  # felt: one colour, fine fibre noise
        base = rng.choice([[0.25, 0.45, 0.2], [0.45, 0.3, 0.15], [0.2, 0.2, 0.5], [0.4, 0.4, 0.4]]) * rng.uniform(0.7, 1.2)
        grain = cv2.GaussianBlur(rng.normal(0, 0.05, (side, side)).astype(np.float32), (0, 0), 0.7)
    elif kind == 1:  # wood: brown with warped rings along a random direction
        base = np.array([0.2, 0.35, 0.55]) * rng.uniform(0.6, 1.3)
        a = rng.uniform(0, np.pi)
        warp = cv2.GaussianBlur(rng.normal(0, 1, (side, side)).astype(np.float32), (0, 0), side / 12) * 8
        u = (x * np.cos(a) + y * np.sin(a)) * rng.uniform(15, 45) + warp
        grain = 0.12 * np.sin(u) ** 2 - 0.06 + cv2.GaussianBlur(rng.normal(0, 0.03, (side, side)).astype(np.float32), (0, 0), 1)
    else:  # dark cloth: near black, coarse weave
        base = np.full(3, rng.uniform(0.05, 0.18))
        grain = 0.02 * np.sin(x * side * 1.5) * np.sin(y * side * 1.5) + rng.normal(0, 0.015, (side, side)).astype(np.float32)
    light = 1 + rng.uniform(-0.25, 0.25) * (x - 0.5) + rng.uniform(-0.25, 0.25) * (y - 0.5)
    return np.clip((base[None, None, :] * (1 + grain[..., None] * 3)) * light[..., None], 0, 1).astype(np.float32)


def composite(cut: Cutout, rng: np.random.Generator, turned: bool = False,
              damage: bool = True) -> tuple[np.ndarray, np.ndarray, int]:
    """One picture of `cut` on a table (BGR uint8), its landmarks there and whether it shows a thumb up.

    `turned`: half a turn more (a thumb-up then reads as a thumb-down and back; a plain fist stays one).
    `damage`: dim light, blur, sensor noise and JPEG as a camera gives them."""
    scale = float(np.exp(rng.uniform(np.log(MIN_SCALE), np.log(MAX_SCALE))))
    side = int(round(scale * 5))
    k = scale / hand_scale(cut.points)
    angle = rng.uniform(-20, 20) + (180 if turned else 0)
    mirror = rng.random() < 0.5
    sprite_centre = cut.points[[0, 5, 9, 13, 17]].mean(axis=0)
    m = cv2.getRotationMatrix2D((float(sprite_centre[0]), float(sprite_centre[1])), float(angle), float(k))
    if mirror:  # flip about the palm's vertical first: the other hand
        m = m @ np.array([[-1, 0, 2 * sprite_centre[0]], [0, 1, 0], [0, 0, 1]])
    m[:, 2] += np.array([side / 2, side / 2]) + rng.uniform(-0.1, 0.1, 2) * scale - sprite_centre
    points = cut.points @ m[:, :2].T + m[:, 2]
    colour = cv2.warpAffine(cut.rgba[..., :3].astype(np.float32) / 255, m, (side, side), flags=cv2.INTER_AREA)
    alpha = cv2.warpAffine(cut.rgba[..., 3].astype(np.float32) / 255, m, (side, side), flags=cv2.INTER_AREA)[..., None]
    tone, warmth = rng.uniform(0.45, 1.15), rng.uniform(-0.08, 0.08)
    colour = np.clip(colour * tone * np.array([1 - warmth, 1, 1 + warmth], np.float32), 0, 1)
    picture = table(rng, side)
    skin = np.median(colour[alpha[..., 0] > 0.9], axis=0) if (alpha > 0.9).any() else np.array([0.4, 0.5, 0.7])
    if rng.random() < 0.6:  # a forearm from the wrist away from the fingers, to the picture's edge
        wrist, knuckle = points[0], points[9]
        away = (wrist - knuckle) / max(np.linalg.norm(wrist - knuckle), 1e-6)
        ends = np.array([wrist + away * scale * 0.2, wrist + away * side * 1.5])
        cv2.line(picture, tuple(int(v) for v in ends[0]), tuple(int(v) for v in ends[1]),
                 tuple(float(v) * 0.9 for v in skin), max(int(scale * rng.uniform(0.7, 1.0)), 2), cv2.LINE_AA)
    if rng.random() < 0.5:  # a soft shadow under the hand
        shade = cv2.GaussianBlur(np.roll(alpha[..., 0], (int(scale * 0.08), int(scale * 0.05)), (0, 1)), (0, 0), scale * 0.08)
        picture *= 1 - 0.4 * shade[..., None]
    picture = picture * (1 - alpha) + colour * alpha
    if damage:
        picture *= rng.uniform(0.45, 1.1)
        sigma = float(rng.choice([0, 0, 0.8, 1.5]))
        if sigma:
            picture = cv2.GaussianBlur(picture, (0, 0), sigma)
        picture = picture + rng.normal(0, float(rng.choice([0, 0, 3, 6, 10])) / 255, picture.shape).astype(np.float32)
    frame = np.clip(picture * 255, 0, 255).astype(np.uint8)
    if damage:
        frame = cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(20, 90))])[1],
                             cv2.IMREAD_COLOR)
    thumb_up = (cut.label == THUMB_UP) != turned if cut.label != FIST else False
    return frame, points, int(thumb_up)
