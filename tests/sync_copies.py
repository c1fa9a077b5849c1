"""A second camera's sound made from the first's: another start, gain, hiss, clock and codec, with the truth.

Shared by tests/vision/test_sync.py, tests/cli/test_sync_cli.py and bench/sync_accuracy.py. The copy of a
track is what a camera started `start` seconds into the first one would record: the same room from that
moment, its clock running `drift_ppm` millionths fast, at another gain, with white hiss at `snr_db`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy.signal import resample_poly

# codec → (container suffix, encoder rate): what a phone or a camcorder writes
CODECS = {"aac": (".m4a", 44_100), "mp3": (".mkv", 44_100), "opus": (".mkv", 48_000)}


def camera_copy(samples: np.ndarray, rate: int, start: float, length: float | None = None, *, gain_db: float = 0.0,
                snr_db: float | None = None, drift_ppm: float = 0.0, seed: int = 0) -> np.ndarray:
    """What camera B hears: the room from `start` s on A's clock (before A began: silence first), for `length`
    seconds of A's clock, its samples `drift_ppm` millionths more per second than A's, at `gain_db`, hiss at
    `snr_db` (against the copy's own mean power; None: none)."""
    first = int(round(start * rate))
    part = samples[first:] if first >= 0 else np.concatenate([np.zeros(-first, np.float32), samples])
    if length is not None:
        part = part[: int(round(length * rate))]
    part = part.astype(np.float64)
    if drift_ppm:
        up = 1_000_000 + int(round(drift_ppm))  # resample by 1 + drift_ppm·10⁻⁶ exactly (integer ppm)
        part = resample_poly(part, up, 1_000_000)
    part *= 10.0 ** (gain_db / 20.0)
    if snr_db is not None:
        power = float(np.mean(part**2))
        rng = np.random.default_rng(seed)
        part += rng.normal(0.0, np.sqrt(power / 10.0 ** (snr_db / 10.0)), len(part))
    return np.clip(part, -1.0, 1.0).astype(np.float32)


def write_audio(path: Path, samples: np.ndarray, rate: int, codec: str = "aac") -> Path:
    """Encode mono samples with one of CODECS into `path` (its suffix replaced by the codec's container)."""
    import av

    suffix, codec_rate = CODECS[codec]
    path = path.with_suffix(suffix)
    x = resample_poly(samples.astype(np.float64), codec_rate, rate).astype(np.float32)
    encoder = {"mp3": "libmp3lame", "opus": "libopus"}.get(codec, codec)
    with av.open(str(path), "w") as out:
        stream = out.add_stream(encoder, rate=codec_rate)
        stream.layout = "mono"
        planar = "fltp" in [f.name for f in stream.codec_context.codec.audio_formats]
        block = 960 if codec == "opus" else 1152 if codec == "mp3" else 1024
        for i in range(0, len(x), block):
            chunk = x[i : i + block]
            chunk = np.concatenate([chunk, np.zeros(block - len(chunk), np.float32)]).reshape(1, -1)
            frame = av.AudioFrame.from_ndarray(chunk, format="fltp" if planar else "flt", layout="mono")
            frame.sample_rate = codec_rate
            frame.pts = i
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return path


def write_video_only(path: Path, frames: int = 25) -> Path:
    """A tiny H.264 video with no audio stream: a camera whose microphone was off."""
    import av

    with av.open(str(path), "w") as out:
        stream = out.add_stream("libx264", rate=25)
        stream.width, stream.height, stream.pix_fmt = 32, 32, "yuv420p"
        for i in range(frames):
            frame = av.VideoFrame.from_ndarray(np.zeros((32, 32, 3), np.uint8), format="rgb24")
            frame.pts = i
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return path
