"""A video's audio track as one mono float32 array on the video's own clock.

Cue detection needs the judge's voice at a fixed rate and the time of its first sample on the
same axis as the frames (container presentation timestamps), so that a «Стоп» found in the
samples lands on the right frame. PyAV decodes and resamples (libswresample) in one pass.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from contract.errors import UnreadableInput
from contract.i18n import _, ngettext, number

RATE = 16_000  # Hz: enough for speech (formants, the «С» of «Стоп» up to 8 kHz) and cheap to analyse


class AudioError(UnreadableInput):
    """The file cannot be read as a video with an audio track."""


@dataclass(frozen=True)
class AudioTrack:
    """Mono samples in [-1, 1]; `start` is the video-axis time (seconds) of samples[0]."""

    samples: np.ndarray
    rate: int
    start: float
    path: Path | None = None

    @property
    def duration(self) -> float:
        return len(self.samples) / self.rate

    @property
    def end(self) -> float:
        return self.start + self.duration

    def index_at(self, t: float) -> int:
        """Sample index of video time t, clipped to the track."""
        return int(np.clip(round((t - self.start) * self.rate), 0, len(self.samples)))

    def time_of(self, index: float) -> float:
        return self.start + index / self.rate

    def segment(self, start: float, end: float) -> AudioTrack:
        """The part of the track between two video times (clipped to the track)."""
        i, j = self.index_at(start), self.index_at(end)
        return AudioTrack(self.samples[i:j], self.rate, self.time_of(i), self.path)


def read_audio(path: str | os.PathLike[str], rate: int = RATE, stream_index: int = 0) -> AudioTrack:
    """Decode the file's audio stream `stream_index` to mono float32 at `rate` Hz.

    Raises AudioError (exit 2) naming the file when it is missing, not a media file, or has no
    audio track. Gaps between packets (a dropped stretch) are filled with silence so that
    sample positions keep matching video time.
    """
    import av  # PyAV: imported here so that importing vision.audio stays cheap

    p = Path(path)
    if not p.is_file():
        raise AudioError(_("{path}: cannot read the video: no such file.", path=p))
    try:
        container = av.open(str(p))
    except (av.error.FFmpegError, OSError, UnicodeDecodeError) as exc:
        raise AudioError(_("{path}: cannot read the video: {detail}.", path=p, detail=exc)) from exc
    with container:
        streams = container.streams.audio
        if not streams:
            raise AudioError(_("{path}: the video has no audio track, so there is no judge's voice to find cues in.",
                                path=p))
        if stream_index >= len(streams):
            raise AudioError(ngettext("{path}: the video has {n} audio track; there is no track {track}.",
                                      "{path}: the video has {n} audio tracks; there is no track {track}.",
                                      len(streams), path=p, track=stream_index))
        stream = streams[stream_index]
        resampler = av.AudioResampler(format="flt", layout="mono", rate=rate)
        chunks: list[np.ndarray] = []
        start: float | None = None
        written = 0
        try:
            for frame in container.decode(stream):
                if start is None and frame.time is not None:
                    start = float(frame.time)
                elif frame.time is not None and start is not None:
                    gap = int(round((float(frame.time) - start) * rate)) - written
                    if gap > rate // 50:  # more than 20 ms missing: keep the clock, pad with silence
                        chunks.append(np.zeros(gap, np.float32))
                        written += gap
                for out in resampler.resample(frame):
                    a = out.to_ndarray().reshape(-1)
                    chunks.append(a)
                    written += len(a)
            for out in resampler.resample(None):
                a = out.to_ndarray().reshape(-1)
                chunks.append(a)
                written += len(a)
        except av.error.FFmpegError as exc:
            raise AudioError(_("{path}: the audio track cannot be decoded after {seconds} s: {detail}.", path=p,
                               seconds=number(written / rate, 2, fixed=True), detail=exc)) from exc
    if not chunks or written == 0:
        raise AudioError(_("{path}: the audio track holds no samples.", path=p))
    samples = np.concatenate(chunks).astype(np.float32, copy=False)
    return AudioTrack(samples, rate, start or 0.0, p)
