"""Compositing mode: the same scenarios and truth, with real hand photos pasted in place of the
procedural voting hands (../shared/assets/hands).  For tests and benchmarks only: the photos are
other people's, so the output goes to the git-ignored sample_videos/out/composite and is never
committed; where ../shared is absent the mode says so and does nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from .hands import HandState, landmarks_world
from .render import Camera, Canvas

ASSETS = Path(__file__).resolve().parents[2] / "shared" / "assets" / "hands"
GESTURES = {"thumb_up_fist": ["thumb_up"], "fist": ["fist"], "open_palm": ["palm", "four", "stop"],
            "finger": ["one_up", "one"]}


class Cutouts:
    """The cut-outs of index.json by pose, pasted so that wrist and middle knuckle land where the
    procedural hand's would."""

    def __init__(self, folder: Path = ASSETS) -> None:
        index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
        self.sprites: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
        for entry in index:
            if len(entry["landmarks"]) != 1 or entry["hand_px"] < 60:
                continue
            pose = next((p for p, gs in GESTURES.items() if entry["gesture"] in gs), None)
            if pose is None:
                continue
            rgba = cv2.imread(str(folder / entry["file"]), cv2.IMREAD_UNCHANGED)
            if rgba is None or rgba.shape[2] != 4:
                continue
            self.sprites.setdefault(pose, []).append((rgba, np.array(entry["landmarks"][0], np.float32)))

    def covers(self, hand: HandState) -> bool:
        return hand.right and hand.pose.name in self.sprites

    def paste(self, canvas: Canvas, hand: HandState, camera: Camera, label: int) -> None:
        choices = self.sprites[hand.pose.name]
        rgba, marks = choices[label % len(choices)]
        uv, _ = camera.project(landmarks_world(hand)[[0, 9]])
        src = marks[[0, 9]]
        m = _similarity(src, uv.astype(np.float32) - (canvas.x0, canvas.y0))
        size = (canvas.w, canvas.h)
        colour = cv2.warpAffine(rgba[..., :3].astype(np.float32) / 255, m, size, flags=cv2.INTER_LINEAR)
        alpha = cv2.warpAffine(rgba[..., 3].astype(np.float32) / 255, m, size, flags=cv2.INTER_LINEAR)
        a = alpha[..., None]
        canvas.rgb = (canvas.rgb * (1 - a) + colour[..., ::-1] * a).astype(np.float32)
        solid = alpha > 0.5
        canvas.label[solid] = label
        canvas.alpha = np.maximum(canvas.alpha, alpha)


def _similarity(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The rotation + scale + shift taking the two source points onto the two destination points."""
    s = complex(*(src[1] - src[0]))
    d = complex(*(dst[1] - dst[0]))
    k = d / s
    a, b = k.real, k.imag
    t = complex(*dst[0]) - k * complex(*src[0])
    return np.float32([[a, -b, t.real], [b, a, t.imag]])


def build_composite(out_dir: Path, log: Callable[[str], None]) -> int:
    """Every scenario of the sample game again, voting hands from photos; same truth and protocols."""
    if not (ASSETS / "index.json").exists():
        log(f"skipped: {ASSETS} is absent (the real hand cut-outs live outside the repository)")
        return 0
    from .build import build_all

    build_all(out_dir, log, stress=True, cutouts=Cutouts())
    return 0
