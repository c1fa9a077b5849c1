"""MP4 output with PyAV: H.264 (yuv420p, closed one-second GOPs, no B-frames) and AAC audio.

Browsers play H.264 in MP4; OpenCV's own writer produces `mp4v`, which Chromium refuses.  A key
frame every second keeps backwards frame stepping cheap in the review app, and GOPs without
B-frames let whole seconds of video be copied between files with only their timestamps changed.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np

FPS = 25
GOP = 25
AUDIO_RATE = 22050


class ClipWriter:
    """Append BGR frames, then `close(audio)`: the audio (mono float -1..1 at AUDIO_RATE) is muxed last."""

    def __init__(self, path: Path, size: tuple[int, int], crf: int = 29, audio: bool = True) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._container = av.open(str(self.path), "w", options={"movflags": "+faststart"})
        stream = self._container.add_stream("libx264", rate=FPS)
        stream.codec_context.time_base = Fraction(1, FPS)
        stream.width, stream.height = size
        stream.pix_fmt = "yuv420p"
        stream.options = {"crf": str(crf), "preset": "veryfast", "g": str(GOP), "keyint_min": str(GOP),
                          "sc_threshold": "0", "bf": "0", "threads": "2"}
        self._video = stream
        self._audio = audio_stream(self._container) if audio else None
        self.frames = 0

    def write(self, bgr: np.ndarray) -> None:
        frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(bgr), format="bgr24")
        frame.pts = self.frames
        frame.time_base = Fraction(1, FPS)
        for packet in self._video.encode(frame):
            self._container.mux(packet)
        self.frames += 1

    def close(self, audio: np.ndarray | None = None) -> None:
        for packet in self._video.encode():
            self._container.mux(packet)
        if self._audio is not None:
            write_audio(self._container, self._audio, audio, self.frames / FPS)
        self._container.close()


def audio_stream(container):
    """The AAC stream; it must exist before the first packet is muxed."""
    stream = container.add_stream("aac", rate=AUDIO_RATE)
    stream.layout = "mono"
    return stream


def write_audio(container, stream, samples: np.ndarray | None, duration: float) -> None:
    """Encode a mono track of exactly `duration` seconds (silence where `samples` is None or short)."""
    track = np.zeros(int(round(duration * AUDIO_RATE)), np.float32)
    if samples is not None:
        n = min(len(track), len(samples))
        track[:n] = samples[:n]
    step = 1024
    for i in range(0, len(track), step):
        frame = av.AudioFrame.from_ndarray(track[None, i:i + step], format="fltp", layout="mono")
        frame.sample_rate = AUDIO_RATE
        frame.pts = i
        frame.time_base = Fraction(1, AUDIO_RATE)
        for packet in stream.encode(frame):
            container.mux(packet)
    for packet in stream.encode():
        container.mux(packet)
