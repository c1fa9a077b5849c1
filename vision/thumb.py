"""Thumb up or plain fist, read from the picture around a fist rather than from its landmarks.

MediaPipe guesses the fingers of a fist it cannot see, so the landmark rule in vision.pose reads a
thumb-up from a tripod 3/4 view only where the thumb is seen side-on: on the sample game seats 1 and
2 (near the camera) lost their thumbs in 100 % of frames and seat 8's plain fist read thumb-up in 3
of its 5 votes. The thumb itself is plainly in the picture, a short bar standing up from the fist,
so this module looks at the pixels: a grey patch 3 palm-scales wide, centred on the palm and kept
upright (a thumb up stands up in the picture from any tripod view), described by HOG and sorted by
an RBF support-vector machine, trained with OpenCV's ml module and shipped as plain arrays (its
support vectors, weights and offset) that numpy evaluates: no new dependency, no file format that
changes between OpenCV versions.

The machine is trained by bench/train_thumb.py on the project's own renders (random players, seats,
light, noise, blur, cloth and JPEG damage; never the bundled game or its clips) and on composites of the
training half of the real hand cut-outs in ../shared/assets/hands (split by file; each thumb photo both
upright and turned half a turn, so that it learns where the thumb points rather than whose hand it is).
It never sees the validation clips. It ships as package data with its sha256, training figures and
licence note in thumb_svm.json: numbers derived from the photos, not the photos. What it is good for is
measured on pictures it never saw: composites of the held-out cut-outs, held-out renders, the sample game
and stress clips, and the validation clips (bench/train_thumb.py reports all).
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from contract.i18n import _

PALM_POINTS = [0, 5, 9, 13, 17]
PATCH = 40  # patch side in pixels after resizing
PATCH_SCALES = 3.0  # patch side in hand scales (the larger of palm length and knuckle span)
READ_SCALES = (2.6, 3.0, 3.4)  # patch sides a reading averages over: MediaPipe's scale of a fist is off by up to
# a fifth from frame to frame, and on the sample game one thumb read -0.2 at 3.0 scales but right at 2.6
MODEL_FILE = "thumb_svm.npz"
THUMB_SURE = 0.3  # |decision| of a sure reading: the smallest (steps of 0.05) from which no held-out reading is
# wrong (right >= 0.995 on the held-out cut-out composites and on the held-out renders; bench/train_thumb.py)
KNOWN_SHARE = 0.41  # share of a window's fist readings that must be sure for the reader to know the footage: half the
# smallest sure share on those held-out sets (82-84 %); footage with heavy sensor noise still reaches a third
CARD_FILE = "thumb_svm.json"


def _hog() -> cv2.HOGDescriptor:
    return cv2.HOGDescriptor((PATCH, PATCH), (16, 16), (8, 8), (8, 8), 9)


def hand_scale(points: np.ndarray) -> float:
    """The hand's size in pixels: palm length or knuckle span, whichever is larger (a fist seen
    end-on foreshortens one of them, never both)."""
    p = np.asarray(points, float)[:, :2]
    return float(max(np.linalg.norm(p[9] - p[0]), np.linalg.norm(p[5] - p[17])))


def hand_patch(frame: np.ndarray, points: np.ndarray, scales: float = PATCH_SCALES,
               shift: tuple[float, float] = (0.0, 0.0), grey: Callable[[np.ndarray], np.ndarray] | None = None,
               ) -> np.ndarray:
    """The upright grey patch around a hand (PATCH x PATCH), cut from the full-resolution frame.

    `points`: the hand's 21 landmarks in frame pixels. `scales`, `shift` (in hand scales) move the
    square; training uses them to make the reader indifferent to where MediaPipe put the landmarks.
    `grey`: how a grey frame's patch becomes full-range grey (vision.video.Picture.full_range), None: as it is.
    """
    p = np.asarray(points, float)[:, :2]
    s = max(hand_scale(p), 2.0)
    centre = p[PALM_POINTS].mean(axis=0) + np.asarray(shift, float) * s
    side = max(int(round(scales * s)), 8)
    x0, y0 = int(round(centre[0] - side / 2)), int(round(centre[1] - side / 2))
    h, w = frame.shape[:2]
    sx0, sy0, sx1, sy1 = max(x0, 0), max(y0, 0), min(x0 + side, w), min(y0 + side, h)
    if sx1 <= sx0 or sy1 <= sy0:
        return np.zeros((PATCH, PATCH), np.uint8)
    part = frame[sy0:sy1, sx0:sx1]  # grey only the square: converting the whole frame cost 1 ms a reading
    square = cv2.copyMakeBorder(cv2.cvtColor(part, cv2.COLOR_BGR2GRAY) if part.ndim == 3 else part, sy0 - y0, y0 + side - sy1, sx0 - x0, x0 + side - sx1,
                                cv2.BORDER_REPLICATE)
    patch = cv2.resize(square, (PATCH, PATCH), interpolation=cv2.INTER_AREA)
    return patch if grey is None else grey(patch)


def features(frame: np.ndarray, points: np.ndarray, scales: float = PATCH_SCALES,
             shift: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """The HOG description of a hand's patch: what the machine is trained and asked on."""
    return _hog().compute(hand_patch(frame, points, scales, shift)).ravel().astype(np.float32)


def model_path() -> Path:
    return Path(str(resources.files("vision") / "models" / MODEL_FILE))


def model_card(path: Path | None = None) -> dict:
    """Provenance and training figures of a machine, kept beside it (written by bench/train_thumb.py)."""
    return json.loads(((path or model_path()).parent / CARD_FILE).read_text(encoding="utf-8"))


class ThumbReader:
    """Reads 'thumb up' or 'plain fist' off a fist; loads and checks the shipped machine once."""

    def __init__(self, path: Path | None = None) -> None:
        path = path or model_path()
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != model_card(path)["sha256"]:
            raise RuntimeError(_("{path}: the thumb reader's file does not match its sha256 in {card}.", path=path,
                                 card=CARD_FILE))
        with np.load(io.BytesIO(data)) as arrays:
            self.vectors = arrays["vectors"].astype(np.float32)
            self.weights = arrays["weights"].astype(np.float32)
            self.offset, self.gamma = float(arrays["offset"]), float(arrays["gamma"])
        self.squares = (self.vectors**2).sum(axis=1)
        self.hog = _hog()

    def decision(self, frame: np.ndarray, points: np.ndarray,
                 grey: Callable[[np.ndarray], np.ndarray] | None = None) -> float:
        """The machine's signed distance, averaged over READ_SCALES: > 0 thumb up, < 0 plain fist; |value| ~ 1
        at the margin. `frame`: BGR or grey (`grey`: as for hand_patch)."""
        x = np.stack([self.hog.compute(hand_patch(frame, points, k, grey=grey)).ravel()
                      for k in READ_SCALES]).astype(np.float32)
        # einsum, not `@`: BLAS spreads these small products over threads that spin for work between readings,
        # 8-11 ms of CPU a reading on the 2-core machine against 0.6 ms in one thread
        products = np.einsum("ij,kj->ik", x, self.vectors)
        distances = np.maximum(self.squares[None, :] - 2 * products + (x**2).sum(axis=1)[:, None], 0.0)
        return float(np.mean(np.einsum("ik,k->i", np.exp(-self.gamma * distances), self.weights)) - self.offset)


def knows_footage(decisions: list[float]) -> bool:
    """Whether the reader knows the footage these decisions were made on (one window's fists, every seat):
    sure on at least KNOWN_SHARE of them. Where it knows the footage its sign decides every fist there, sure
    or not (a near seat's thumb reads weakly on the sample game, rightly); on footage unlike anything it
    learnt from (heavy noise) it is seldom sure, says nothing, and the landmarks decide."""
    return bool(decisions) and float(np.mean(np.abs(decisions) >= THUMB_SURE)) >= KNOWN_SHARE


@lru_cache(maxsize=1)
def shared_reader() -> ThumbReader:
    """One reader per process (the machine is read-only)."""
    return ThumbReader()


def save_model(vectors: np.ndarray, weights: np.ndarray, offset: float, gamma: float, card: dict,
               folder: Path) -> Path:
    """Write an RBF machine (decision = weights . exp(-gamma |x - v|^2) - offset, > 0 thumb up) and its
    card, with the file's sha256, into `folder`. Vectors are kept at half precision (HOG values are 0-1)."""
    folder.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, vectors=vectors.astype(np.float16), weights=weights.astype(np.float32),
                        offset=np.float64(offset), gamma=np.float64(gamma))
    data = buffer.getvalue()
    target = folder / MODEL_FILE
    target.write_bytes(data)
    card = {**card, "file": MODEL_FILE, "sha256": hashlib.sha256(data).hexdigest()}
    (folder / CARD_FILE).write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return target
