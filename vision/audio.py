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
from vision.media_errors import reason

RATE = 16_000  # Hz: enough for speech (formants, the «С» of «Стоп» up to 8 kHz) and cheap to analyse


class AudioError(UnreadableInput):
    """The file cannot be read as a video with an audio track."""


class NoSound(AudioError):
    """The video reads, but holds no sound: a command that can do without the judge's voice goes on."""


@dataclass(frozen=True)
class AudioTrack:
    """Mono samples in [-1, 1]; `start` is the video-axis time (seconds) of samples[0]; `whole`: the file's whole
    track (a stretch of it ends where the file does, so it still covers any span past its end)."""

    samples: np.ndarray
    rate: int
    start: float
    path: Path | None = None
    whole: bool = False

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


RESAMPLE_BATCH_S = 5.0  # decoded sound handed to the resampler at a time: one call per frame costs more than decoding
PREROLL_S = 1.0  # a stretch read after a seek is decoded from this much earlier: the codec's start-up falls there


def read_audio(path: str | os.PathLike[str], rate: int = RATE, stream_index: int = 0) -> AudioTrack:
    """Decode the file's audio stream `stream_index` to mono float32 at `rate` Hz.

    Raises AudioError (exit 2) naming the file when it is missing, not a media file, or has no
    audio track. Gaps between packets (a dropped stretch) are filled with silence so that
    sample positions keep matching video time.
    """
    p = Path(path)
    with _open(p) as container:
        samples, start = _decode(container, _stream(container, p, stream_index), rate, p)
    if not len(samples):
        raise NoSound(_("{path}: the audio track holds no samples.", path=p))
    return AudioTrack(samples, rate, start or 0.0, p, whole=True)


def read_audio_parts(path: str | os.PathLike[str], spans: list[tuple[float, float]], rate: int = RATE,
                     stream_index: int = 0, whole_above: float = 0.5) -> list[AudioTrack]:
    """The audio between each pair of video times (clipped to the track), each stretch decoded after a seek from
    PREROLL_S before it, so that an hour's file costs its stretches only. Where the stretches cover more than
    `whole_above` of the track, or none of it, the whole track is read instead (one part). Errors as `read_audio`."""
    p = Path(path)
    with _open(p) as container:
        stream = _stream(container, p, stream_index)
        duration = float(stream.duration * stream.time_base) if stream.duration else (container.duration or 0) / 1e6
        clipped = [(max(0.0, a), min(b, duration)) for a, b in sorted(spans) if min(b, duration) > max(0.0, a)]
        parts: list[AudioTrack] = []
        if clipped and sum(b - a for a, b in clipped) <= whole_above * duration:
            for a, b in clipped:
                container.seek(int(max(0.0, a - PREROLL_S) / stream.time_base), stream=stream, backward=True)
                samples, start = _decode(container, stream, rate, p, stop=b)
                part = AudioTrack(samples, rate, start or 0.0, p).segment(a, b)
                if len(part.samples):
                    parts.append(part)
    return parts or [read_audio(p, rate, stream_index)]


def _open(p: Path):
    import av  # PyAV: imported here so that importing vision.audio stays cheap

    if not p.is_file():
        raise AudioError(_("{path}: cannot read the video: no such file.", path=p))
    try:
        return av.open(str(p))
    except (av.error.FFmpegError, OSError, UnicodeDecodeError) as exc:
        raise AudioError(_("{path}: cannot read the video: {detail}.", path=p, detail=reason(exc))) from exc


def _stream(container, p: Path, stream_index: int):
    streams = container.streams.audio
    if not streams:
        raise NoSound(_("{path}: the video has no audio track, so there is no judge's voice to find cues in.",
                        path=p))
    if stream_index >= len(streams):
        raise AudioError(ngettext("{path}: the video has {n} audio track; there is no track {track}.",
                                  "{path}: the video has {n} audio tracks; there is no track {track}.",
                                  len(streams), path=p, track=stream_index))
    return streams[stream_index]


def _decode(container, stream, rate: int, p: Path, stop: float | None = None) -> tuple[np.ndarray, float | None]:
    """The stream from where the container stands (its start, or after a seek) to its end or past `stop`: the
    samples and the video time of the first; gaps filled with silence. Decoded frames go to the resampler a few
    seconds at a time (the same samples as frame by frame, for a third of an hour's reading time)."""
    import av

    resampler = av.AudioResampler(format="flt", layout="mono", rate=rate)
    chunks: list[np.ndarray] = []
    pending: list[av.AudioFrame] = []  # decoded, not yet resampled ...
    held = 0  # ... and their samples
    start: float | None = None
    written = 0

    def resample(frame: av.AudioFrame | None) -> None:
        nonlocal written
        for out in resampler.resample(frame):
            a = out.to_ndarray().reshape(-1)
            chunks.append(a)
            written += len(a)

    def flush() -> None:
        nonlocal held
        if len(pending) == 1:
            resample(pending[0])
        elif pending:
            first = pending[0]
            joined = av.AudioFrame.from_ndarray(np.concatenate([f.to_ndarray() for f in pending], axis=1),
                                                format=first.format.name, layout=first.layout.name)
            joined.sample_rate = first.sample_rate
            resample(joined)
        pending.clear()
        held = 0

    try:
        for frame in container.decode(stream):
            if start is None and frame.time is not None:
                start = float(frame.time)
            elif frame.time is not None and start is not None:
                due = int(round((float(frame.time) - start) * rate))
                if due - written - held * rate / frame.sample_rate > rate // 100:
                    flush()  # maybe samples missing: what is pending resampled, the gap measured exactly
                    gap = due - written
                    if gap > rate // 50:  # more than 20 ms missing: keep the clock, pad with silence
                        chunks.append(np.zeros(gap, np.float32))
                        written += gap
            pending.append(frame)
            held += frame.samples
            if held >= frame.sample_rate * RESAMPLE_BATCH_S:
                flush()
            if stop is not None and frame.time is not None and float(frame.time) > stop:
                break
        flush()
        resample(None)
    except av.error.FFmpegError as exc:
        raise AudioError(_("{path}: the audio track cannot be decoded after {seconds} s: {detail}.", path=p,
                           seconds=number(written / rate, 2, fixed=True), detail=reason(exc))) from exc
    samples = np.concatenate(chunks).astype(np.float32, copy=False) if chunks else np.zeros(0, np.float32)
    return samples, start
