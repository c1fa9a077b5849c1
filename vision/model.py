"""The bundled hand-landmarker model: located as package data, checked against its sha256, loaded offline.

The `.task` files are built by `vision/models/build_hand_model.py`; `models.json` records their
sha256, and a bundle that does not match is refused rather than silently giving other landmarks.
MediaPipe gets the bytes (`model_asset_buffer`, vision.backend), so no path or URL resolution happens inside it.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import resources
from typing import Any

from contract.errors import UnreadableInput
from contract.i18n import _

MODEL_FILES = {"full": "hand_landmarker.task", "lite": "hand_landmarker_lite.task"}


def _models_dir() -> Any:
    return resources.files("vision").joinpath("models")


@lru_cache(maxsize=2)
def model_bytes(variant: str = "full") -> bytes:
    """The verified bytes of the bundle `variant` ("full" or "lite")."""
    if variant not in MODEL_FILES:
        raise UnreadableInput(_("unknown hand model {model}: choose one of {models}.", model=repr(variant),
                                models=", ".join(MODEL_FILES)))
    name = MODEL_FILES[variant]
    folder = _models_dir()
    try:
        manifest = json.loads(folder.joinpath("models.json").read_text(encoding="utf-8"))
        data = folder.joinpath(name).read_bytes()
    except (OSError, ValueError) as exc:
        raise UnreadableInput(_("{path}: the bundled hand model cannot be read ({detail}); rebuild it with "
                                "python3 -m vision.models.build_hand_model.", path=f"vision/models/{name}",
                                detail=exc)) from exc
    digest = hashlib.sha256(data).hexdigest()
    expected = manifest.get("sha256", {}).get(name)
    if digest != expected:
        raise UnreadableInput(_("{path}: sha256 {found}… does not match models.json ({expected}…); the model file "
                                "is damaged or was replaced.", path=f"vision/models/{name}", found=digest[:12],
                                expected=str(expected)[:12]))
    return data
