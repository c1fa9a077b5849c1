"""The bundled hand-landmarker model: located as package data, checked against its sha256, loaded offline.

The `.task` files are built by `vision/models/build_hand_model.py`; `models.json` records their
sha256, and a bundle that does not match is refused rather than silently giving other landmarks.
MediaPipe gets the bytes (`model_asset_buffer`), so no path or URL resolution happens inside it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources
from typing import Any

from review.errors import UnreadableInput

MODEL_FILES = {"full": "hand_landmarker.task", "lite": "hand_landmarker_lite.task"}


def _models_dir() -> Any:
    return resources.files("vision").joinpath("models")


@lru_cache(maxsize=2)
def model_bytes(variant: str = "full") -> bytes:
    """The verified bytes of the bundle `variant` ("full" or "lite")."""
    if variant not in MODEL_FILES:
        raise UnreadableInput(f"unknown hand model {variant!r}: choose one of {', '.join(MODEL_FILES)}.")
    name = MODEL_FILES[variant]
    folder = _models_dir()
    try:
        manifest = json.loads(folder.joinpath("models.json").read_text(encoding="utf-8"))
        data = folder.joinpath(name).read_bytes()
    except (OSError, ValueError) as exc:
        raise UnreadableInput(
            f"vision/models/{name}: the bundled hand model cannot be read ({exc}); rebuild it with "
            "python3 -m vision.models.build_hand_model."
        ) from exc
    digest = hashlib.sha256(data).hexdigest()
    expected = manifest.get("sha256", {}).get(name)
    if digest != expected:
        raise UnreadableInput(
            f"vision/models/{name}: sha256 {digest[:12]}… does not match models.json ({str(expected)[:12]}…); "
            "the model file is damaged or was replaced."
        )
    return data


@contextlib.contextmanager
def quiet_native_stderr() -> Iterator[None]:
    """Hide the C++ runtime's start-up chatter (LiteRT INFO lines, first-frame warnings) on fd 2.

    MediaPipe offers no switch for these lines, and they would bury the command's own progress.
    """
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no real stderr (embedded): nothing to hide
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def create_landmarker(variant: str = "full", *, num_hands: int = 4, min_confidence: float = 0.3,
                      mode: str = "video") -> Any:
    """A HandLandmarker in VIDEO mode (one per seat stream: VIDEO mode tracks across frames), or in
    IMAGE mode (`mode="image"`: no tracking, each picture read afresh; one may serve every seat)."""
    from mediapipe.tasks.python import BaseOptions
    from mediapipe.tasks.python.vision import HandLandmarker, HandLandmarkerOptions, RunningMode

    options = HandLandmarkerOptions(
        base_options=BaseOptions(model_asset_buffer=model_bytes(variant)),
        running_mode=RunningMode.IMAGE if mode == "image" else RunningMode.VIDEO,
        num_hands=num_hands,
        min_hand_detection_confidence=min_confidence,
        min_hand_presence_confidence=min_confidence,
        min_tracking_confidence=min_confidence,  # ignored in IMAGE mode
    )
    with quiet_native_stderr():
        return HandLandmarker.create_from_options(options)
