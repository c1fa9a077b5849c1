"""The bundled hand model: built reproducibly, verified by sha256, loaded with no network at all."""

from __future__ import annotations

import json
import shutil
import socket
import urllib.request
import zipfile
from pathlib import Path

import numpy as np
import pytest

from contract.errors import UnreadableInput
from vision import model as vision_model
from vision.backend import MediaPipeBackend

MODELS = Path(vision_model.__file__).parent / "models"
WHEELS = sorted(Path("/tmp/mp0").glob("mediapipe-0.10.21-*.whl"))


@pytest.mark.parametrize("name", ["hand_landmarker.task", "hand_landmarker_lite.task"])
def test_bundle_is_a_stored_zip_with_aligned_members(name: str) -> None:
    with zipfile.ZipFile(MODELS / name) as zf:
        infos = zf.infolist()
        assert [i.filename for i in infos] == ["hand_detector.tflite", "hand_landmarks_detector.tflite"]
        for info in infos:
            assert info.compress_type == zipfile.ZIP_STORED
            assert (info.header_offset + 30 + len(info.filename) + len(info.extra)) % 64 == 0


def test_manifest_and_model_card_record_the_same_sha256() -> None:
    manifest = json.loads((MODELS / "models.json").read_text())
    card = " ".join((MODELS / "MODEL.md").read_text().split())
    assert manifest["license"] == "Apache-2.0" and "Apache License, Version 2.0" in card
    for name, digest in manifest["sha256"].items():
        assert digest in card
        assert vision_model.model_bytes("full" if "lite" not in name else "lite")  # verified on read


@pytest.mark.skipif(not WHEELS, reason="the mediapipe==0.10.21 wheel is not in /tmp/mp0 (rebuild check needs it)")
def test_build_script_reproduces_the_committed_bundles(tmp_path: Path) -> None:
    from vision.models.build_hand_model import build

    digests = build(WHEELS[0], tmp_path)
    assert digests == json.loads((MODELS / "models.json").read_text())["sha256"]


def test_a_damaged_bundle_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(MODELS / "models.json", tmp_path / "models.json")
    data = bytearray((MODELS / "hand_landmarker_lite.task").read_bytes())
    data[5000] ^= 0xFF
    (tmp_path / "hand_landmarker_lite.task").write_bytes(bytes(data))
    monkeypatch.setattr(vision_model, "_models_dir", lambda: tmp_path)
    vision_model.model_bytes.cache_clear()
    try:
        with pytest.raises(UnreadableInput, match="hand_landmarker_lite.task: sha256 .* does not match"):
            vision_model.model_bytes("lite")
    finally:
        vision_model.model_bytes.cache_clear()


def test_loading_and_detecting_open_no_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    vision_model.model_bytes.cache_clear()
    blank = np.zeros((256, 256, 3), np.uint8)
    for variant in ("full", "lite"):
        backend = MediaPipeBackend(variant)
        tracker = backend.tracker()
        try:
            assert tracker.detect(blank, 0.0) == []
            assert backend.look(blank) == []
        finally:
            tracker.close()
            backend.close()


def test_unknown_model_variant_is_named() -> None:
    with pytest.raises(UnreadableInput, match="'huge'"):
        vision_model.model_bytes("huge")
