"""Build the offline MediaPipe hand-landmarker bundles from the mediapipe==0.10.21 wheel.

mediapipe 1.2.x ships no model files and cannot download one here, so we assemble the
`.task` bundle ourselves from the Apache-2.0 tflite files inside the older wheel.
MediaPipe memory-maps the members, hence: a *stored* (uncompressed) zip, exact member names
(`hand_detector.tflite`, `hand_landmarks_detector.tflite`) and each member's data aligned to
64 bytes (otherwise it warns about an unaligned buffer). The lite palm detector lacks the
metadata MediaPipe needs, so the lite bundle pairs the full palm detector with the lite landmark model.

Usage: python3 -m vision.models.build_hand_model [WHEEL]   (without WHEEL: pip download --no-deps)
Writes hand_landmarker.task, hand_landmarker_lite.task and models.json next to this file.
"""

from __future__ import annotations

import hashlib
import json
import struct
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

WHEEL_REQUIREMENT = "mediapipe==0.10.21"
PALM_FULL = "mediapipe/modules/palm_detection/palm_detection_full.tflite"
LANDMARK_FULL = "mediapipe/modules/hand_landmark/hand_landmark_full.tflite"
LANDMARK_LITE = "mediapipe/modules/hand_landmark/hand_landmark_lite.tflite"
BUNDLES = {
    "hand_landmarker.task": (PALM_FULL, LANDMARK_FULL),
    "hand_landmarker_lite.task": (PALM_FULL, LANDMARK_LITE),
}
ALIGN = 64
PAD_HEADER_ID = 0xD935  # the extra-field id Android's zipalign uses for padding
FIXED_DATE = (2025, 1, 31, 20, 17, 0)  # the wheel's file date: the build is byte-reproducible

HERE = Path(__file__).resolve().parent


def _aligned_stored_zip(path: Path, members: list[tuple[str, bytes]]) -> None:
    """Write a stored zip whose member data each start on a 64-byte boundary."""
    with open(path, "wb") as fh, zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_STORED) as zf:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = 0o644 << 16
            start = fh.tell() + 30 + len(name.encode())  # local header is 30 bytes + name + extra
            pad = (-(start + 4)) % ALIGN  # an extra field costs 4 bytes of header before its payload
            info.extra = struct.pack("<HH", PAD_HEADER_ID, pad) + b"\0" * pad
            zf.writestr(info, data)
    with zipfile.ZipFile(path) as zf:  # check what MediaPipe will rely on
        for info in zf.infolist():
            offset = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
            assert info.compress_type == zipfile.ZIP_STORED and offset % ALIGN == 0, info.filename


def _download_wheel(folder: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", str(folder), WHEEL_REQUIREMENT],
        check=True,
    )
    return next(folder.glob("mediapipe-0.10.21-*.whl"))


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build(wheel: Path, out_dir: Path = HERE) -> dict[str, str]:
    """Write both bundles and models.json into out_dir; return {file: sha256}."""
    with zipfile.ZipFile(wheel) as whl:
        sources = {name: whl.read(name) for name in {PALM_FULL, LANDMARK_FULL, LANDMARK_LITE}}
    digests: dict[str, str] = {}
    for bundle, (palm, landmarks) in BUNDLES.items():
        target = out_dir / bundle
        _aligned_stored_zip(
            target, [("hand_detector.tflite", sources[palm]), ("hand_landmarks_detector.tflite", sources[landmarks])]
        )
        digests[bundle] = sha256_of(target)
    manifest = {
        "source": f"{WHEEL_REQUIREMENT} wheel ({wheel.name}, sha256 {sha256_of(wheel)})",
        "license": "Apache-2.0",
        "members": {b: {"hand_detector.tflite": p, "hand_landmarks_detector.tflite": m} for b, (p, m) in BUNDLES.items()},
        "sha256": digests,
    }
    (out_dir / "models.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return digests


def main(argv: list[str]) -> int:
    if argv:
        wheel = Path(argv[0])
        return _report(build(wheel))
    with tempfile.TemporaryDirectory() as tmp:
        return _report(build(_download_wheel(Path(tmp))))


def _report(digests: dict[str, str]) -> int:
    for name, digest in digests.items():
        print(f"{name}  sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
