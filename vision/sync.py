"""Where camera B's video starts on camera A's clock, from the two sound tracks (`stopframe sync`).

Two cameras at one table hear the same room — the judge's voice, the players, the music of the night — at
different gains, through other microphones and codecs, with hiss. Three steps, all on 8 kHz mono:

1. **Coarse**: each track becomes an onset envelope (the rise of log energy in 10 ms frames of the 200–3600 Hz
   band): gain is a constant in log energy and drops out, a steady hiss only lifts the floor. The two envelopes
   are cross-correlated over every lag that leaves enough overlap; its three highest peaks, at least 0.5 s
   apart, are the candidate offsets.
2. **Fine**: for each candidate, up to 48 ten-second windows of B spread over the overlap are each located in A
   near it by GCC-PHAT (the cross-spectrum whitened to its phase, so every frequency band votes equally and the
   peak is one sample wide whatever the microphones' colour), to a fraction of a sample by parabolic
   interpolation. A candidate's score is the mean height of the whitened peaks that agree with it (windows with
   sound that do not agree count 0); `confidence` = 1 − second-best score / best score: 0 when two offsets fit
   the sound equally, 1 when only one does. A phrase the judge says twice makes a second envelope peak almost as high as the true
   one; only the true offset lines up every window.
3. **Drift**: the windows' offsets against their time on B are fitted by a line (Theil–Sen, then least squares on
   the windows within 5 ms of it): the intercept is the offset at B's start, the slope the clock drift.

Anything the sound cannot settle — a silent or missing track, too short an overlap, no clear peak, windows that
disagree — raises `SyncError` (exit 1) or `AudioError` (exit 2) with one sentence; there is no best guess.

Libraries: PyAV decodes (`vision.audio.read_audio`, libswresample resamples), scipy does the signal work —
`scipy.signal` (Butterworth band-pass in second-order sections, FFT correlation) and `scipy.stats.theilslopes`
(the robust line); numpy's FFT does GCC-PHAT. BBC's `audio-offset-finder` (MFCC cross-correlation) was the
obvious ready-made tool, but it needs librosa and an ffmpeg binary, states about 10 ms accuracy — half our 20 ms
budget — and has no drift; nothing here needs more than scipy, which the project already depends on.
Memory: two 60-minute tracks at 8 kHz are 115 MB each as float32; the envelopes are 360,000 points, and no FFT is
longer than a window plus its search span (`bench/sync_accuracy.py` measures the peak).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy import signal, stats

from contract.errors import InvalidInput
from contract.i18n import _, number
from vision.audio import AudioError, AudioTrack, read_audio

FORMAT = "stopframe-sync/1"
RATE = 8_000  # Hz: speech's band up to 4 kHz, and a quarter of the samples of the cue detector's 16 kHz
BAND = (200.0, 3_600.0)  # Hz: where voices carry; below is rumble and hum, above is what low bitrates cut
HOP = 80  # samples per envelope frame: 10 ms
BLOCK = 60 * RATE  # samples filtered at a time, so a long track is never copied whole in float64
MIN_OVERLAP_S = 4.0  # seconds two tracks must share to be synced
GUARD_S = 0.5  # envelope peaks closer than this are one candidate
CANDIDATES = 3  # envelope peaks each tried by the fine step: a repeated phrase can outscore the truth there
MIN_CONFIDENCE = 0.3  # below: another offset is nearly as good (its score over 70 % of the best)
WINDOW_S = 10.0  # length of one fine window of B …
MIN_WINDOW_S = 3.0  # … shortened down to this so that a short overlap still has three
MAX_WINDOWS = 48
SEARCH_S = 0.25  # a fine window is sought within ±this of the coarse lag (one envelope peak's width and more) …
MAX_DRIFT_PPM = 300.0  # … plus the drift two cameras' clocks can gather over the overlap (quartz: tens of ppm)
INLIER_S = 0.005  # a window agrees with the fitted line when within this
MIN_DRIFT_SPAN_S = 120.0  # drift is measured only over windows at least this far apart …
MIN_DRIFT_WINDOWS = 4  # … and this many agreeing windows; shorter pairs are taken as drift-free
SILENT_DB = -55.0  # dBFS: a track whose loudest second is quieter than this has nothing to sync by
QUIET_WINDOW_DB = -30.0  # a window this far below the track's loud level holds too little sound to place


class SyncError(InvalidInput):
    """The two sound tracks cannot tell where B starts on A's clock (exit 1)."""


@dataclass(frozen=True)
class SyncResult:
    """B on A's clock: a_time = offset_s + b_time · (1 + drift_ppm · 10⁻⁶), times on each video's own clock."""

    a: str
    b: str
    offset_s: float  # A's time at B's time 0
    confidence: float  # 1 − second-best / best candidate's score: 0 two offsets equally good, 1 one alone
    drift_ppm: float  # how much longer one second of B lasts on A's clock, in millionths (0 when not measured)
    drift_measured: bool  # False when the overlap was too short to measure drift (it is then taken as 0)
    overlap_s: float  # seconds of B that A also heard …
    overlap_from_s: float  # … from this time on B's clock
    windows_used: int  # fine windows that agree with the result …
    windows_heard: int  # … of the windows with sound in both tracks

    def a_time(self, b_time: float) -> float:
        """The time on A's clock of a moment at `b_time` on B's clock."""
        return self.offset_s + b_time * (1.0 + self.drift_ppm * 1e-6)

    def b_time(self, a_time: float) -> float:
        """The time on B's clock of a moment at `a_time` on A's clock."""
        return (a_time - self.offset_s) / (1.0 + self.drift_ppm * 1e-6)

    def offset_at(self, b_time: float) -> float:
        """A's time minus B's time at the moment `b_time` on B: the offset, which drift makes move."""
        return self.a_time(b_time) - b_time

    @property
    def constant_offset(self) -> float:
        """The one offset that is right at the middle of the overlap: what a protocol's `videos[].offset`, which
        holds no drift, should be built from (off by at most `drift_ppm` × half the overlap at its ends)."""
        return self.offset_at(self.overlap_from_s + self.overlap_s / 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "a": self.a, "b": self.b,
            "offset_s": round(self.offset_s, 6), "confidence": round(self.confidence, 3),
            "drift_ppm": round(self.drift_ppm, 2), "drift_measured": self.drift_measured,
            "overlap_s": round(self.overlap_s, 3), "overlap_from_s": round(self.overlap_from_s, 3),
            "windows": {"used": self.windows_used, "heard": self.windows_heard},
        }


def sync_files(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> SyncResult:
    """Where video `b` starts on video `a`'s clock; AudioError (exit 2) for a file without a readable sound
    track, SyncError (exit 1) when the sound cannot tell. Each track is decoded, band-filtered and its raw
    samples dropped before the next is read, so two long tracks never sit in memory twice over."""
    sounds = [_prepare(read_audio(_with_audio(Path(p)), rate=RATE), "") for p in (a, b)]
    return _sync(*sounds)


def _with_audio(path: Path) -> Path:
    """`path`, after checking it has an audio stream (read_audio's own message speaks of cues, not sync)."""
    import av

    if path.is_file():
        try:
            with av.open(str(path)) as container:
                if not container.streams.audio:
                    raise AudioError(_("{path}: the video has no audio track, so there is no sound to sync it by.",
                                       path=path))
        except (av.error.FFmpegError, OSError, UnicodeDecodeError):
            pass  # read_audio names the problem
    return path


def sync_tracks(a: AudioTrack, b: AudioTrack) -> SyncResult:
    """B's start on A's clock from two tracks at RATE (see the module docstring for the steps)."""
    return _sync(_prepare(a, "A"), _prepare(b, "B"))


@dataclass(frozen=True)
class _Sound:
    """A track as sync uses it: its name in messages, its clock, and its voice band."""

    name: str
    start: float
    band: np.ndarray

    @property
    def end(self) -> float:
        return self.start + len(self.band) / RATE


def _prepare(track: AudioTrack, fallback: str) -> _Sound:
    """The voice band of a track, refused when too short or silent."""
    if track.rate != RATE:
        raise ValueError(f"sync works on {RATE} Hz tracks, not {track.rate} Hz")
    name = str(track.path) if track.path is not None else fallback
    if track.duration < MIN_OVERLAP_S:
        raise SyncError(_("{name}: {seconds} s of sound is too short to sync by (at least {least} s).", name=name,
                          seconds=number(track.duration, 1, fixed=True), least=number(MIN_OVERLAP_S)))
    band = _band(track.samples)
    if _loudest_second_db(band) < SILENT_DB:
        raise SyncError(_("{name}: the sound track is silent, so it cannot tell where the videos meet.", name=name))
    return _Sound(name, track.start, band)


def _sync(a: _Sound, b: _Sound) -> SyncResult:
    fa, fb = a.band, b.band
    loud_a = _loud_level(fa, int(WINDOW_S * RATE))
    hypotheses: list[_Hypothesis] = []
    for lag_s in _coarse(fa, fb, a.name, b.name):
        points, heard = _fine(fa, fb, a.start, b.start, a.start - b.start + lag_s, loud_a)
        if not points:
            continue
        found = _fit(points, heard)
        if not any(_same_line(found, h, points) for h in hypotheses):
            hypotheses.append(found)
    if not hypotheses:
        raise SyncError(_("{b}: no stretch of its sound is also loud enough in {a} to place it.", a=a.name, b=b.name))
    hypotheses.sort(key=lambda h: h.score, reverse=True)
    best = hypotheses[0]
    second = hypotheses[1].score if len(hypotheses) > 1 else 0.0
    confidence = 1.0 - second / best.score if best.score > 0 else 0.0
    if confidence < MIN_CONFIDENCE:
        apart = abs(hypotheses[1].offset - best.offset) if len(hypotheses) > 1 else 0.0
        raise SyncError(_("{a} and {b}: no offset stands out — the best fits the sound barely better than one "
                          "{apart} s away (confidence {confidence}, at least {least} needed), so the sound cannot "
                          "tell where the videos meet.", a=a.name, b=b.name, apart=number(apart, 2, fixed=True),
                          confidence=number(confidence, 2, fixed=True), least=number(MIN_CONFIDENCE, 2, fixed=True)))
    if best.used <= best.heard // 2:  # a strict majority of the windows with sound must agree
        raise SyncError(_("{a} and {b}: the stretches of sound disagree about the offset (only {used} of {heard} "
                          "agree), so the sound cannot tell where the videos meet.", a=a.name, b=b.name,
                          used=best.used, heard=best.heard))
    rate = 1.0 + best.slope  # B's time t is A's offset + t · rate
    start, end = max(b.start, (a.start - best.offset) / rate), min(b.end, (a.end - best.offset) / rate)
    return SyncResult(a=a.name, b=b.name, offset_s=best.offset, confidence=confidence, drift_ppm=best.slope * 1e6,
                      drift_measured=best.measured, overlap_s=end - start, overlap_from_s=start,
                      windows_used=best.used, windows_heard=best.heard)


@dataclass(frozen=True)
class _Hypothesis:
    """One candidate line d(t) = offset + slope·t (A time − B time at B time t) and the windows behind it."""

    offset: float
    slope: float
    measured: bool  # slope fitted (else 0)
    used: int  # windows within INLIER_S of the line
    heard: int  # windows with sound in both tracks
    score: float  # mean whitened-peak height over the heard windows, 0 for those off the line


def _same_line(h: _Hypothesis, other: _Hypothesis, points: list[tuple[float, float, float]]) -> bool:
    """Two candidates that a drift's spread peak gave twice: their lines meet within INLIER_S at the windows."""
    t = np.array([p[0] for p in points])
    gap = (h.offset - other.offset) + (h.slope - other.slope) * t
    return bool(np.all(np.abs(gap) <= INLIER_S))


# -------------------------------------------------------------------------------------------- the signal


def _band(samples: np.ndarray) -> np.ndarray:
    """The voice band, filtered block by block (the filter's state carried over) into float32."""
    sos = signal.butter(4, BAND, btype="bandpass", fs=RATE, output="sos")
    zi = np.zeros((sos.shape[0], 2))
    out = np.empty(len(samples), np.float32)
    for i in range(0, len(samples), BLOCK):
        y, zi = signal.sosfilt(sos, samples[i : i + BLOCK].astype(np.float64), zi=zi)
        out[i : i + BLOCK] = y
    return out


def _frame_energy(x: np.ndarray, hop: int) -> np.ndarray:
    """Mean square per frame of `hop` samples, in float64, computed without copying x."""
    n = len(x) // hop
    frames = x[: n * hop].reshape(n, hop)
    return np.einsum("ij,ij->i", frames, frames, dtype=np.float64) / hop


def _loudest_second_db(x: np.ndarray) -> float:
    energy = _frame_energy(x, RATE) if len(x) >= RATE else np.array([float(np.mean(x.astype(np.float64) ** 2))])
    return 10.0 * math.log10(float(energy.max()) + 1e-20)


def _envelope(x: np.ndarray) -> np.ndarray:
    """Onset strength: the positive part of the frame-to-frame change of log energy, standardised. A gain is a
    constant in log energy and drops out; the floor (40 dB under the mean) keeps hiss and silence from
    producing onsets of their own."""
    energy = _frame_energy(x, HOP)
    log = np.log(energy + 1e-4 * float(energy.mean()) + 1e-20)
    rise = np.maximum(np.diff(log, prepend=log[0]), 0.0)
    rise -= rise.mean()
    std = float(rise.std())
    return rise / std if std > 0 else rise


def _parabolic(y: np.ndarray, k: int) -> float:
    """The peak's position between samples from the parabola through y[k-1], y[k], y[k+1]."""
    if k <= 0 or k >= len(y) - 1:
        return float(k)
    left, mid, right = float(y[k - 1]), float(y[k]), float(y[k + 1])
    curve = left - 2.0 * mid + right
    return k + (0.5 * (left - right) / curve if curve < 0 else 0.0)


# -------------------------------------------------------------------------------------------- the steps


def _coarse(fa: np.ndarray, fb: np.ndarray, name_a: str, name_b: str) -> list[float]:
    """The lags (seconds, A sample time − B sample time at the same sound) of the envelope correlation's
    CANDIDATES highest peaks, each at least GUARD_S from the others, best first; SyncError when the tracks
    cannot overlap by MIN_OVERLAP_S or share nothing at any lag."""
    ea, eb = _envelope(fa), _envelope(fb)
    corr = signal.correlate(ea, eb, mode="full", method="fft")
    lags = np.arange(len(corr)) - (len(eb) - 1)  # corr[i] = Σ ea[n + lag] · eb[n]
    overlap = np.minimum(len(ea), len(eb) + lags) - np.maximum(0, lags)
    allowed = overlap >= MIN_OVERLAP_S * RATE / HOP
    if not allowed.any():
        raise SyncError(_("{a} and {b}: the sound tracks are too short to overlap by {least} s.", a=name_a, b=name_b,
                          least=number(MIN_OVERLAP_S)))
    corr = np.where(allowed, corr, 0.0)
    peaks, _heights = signal.find_peaks(corr, height=1e-9, distance=int(GUARD_S * RATE / HOP))
    best_first = peaks[np.argsort(corr[peaks])[::-1][:CANDIDATES]]
    found = [(_parabolic(corr, int(k)) - (len(eb) - 1)) * HOP / RATE for k in best_first]
    if not found:
        raise SyncError(_("{a} and {b}: the two sound tracks have nothing in common at any offset.", a=name_a,
                          b=name_b))
    return found


def _fine(fa: np.ndarray, fb: np.ndarray, start_a: float, start_b: float, coarse_d: float,
          loud_a: float) -> tuple[list[tuple[float, float, float]], int]:
    """(B time of a window's centre, A time − B time there, the whitened peak's height) for each window of B
    placed in A by GCC-PHAT near `coarse_d`, and how many windows had sound in both tracks."""
    lag0 = (coarse_d - start_a + start_b) * RATE  # A sample index − B sample index at the same sound
    lo = max(0, int(-lag0))  # B samples that A also holds
    hi = min(len(fb), int(len(fa) - lag0))
    if hi - lo < MIN_OVERLAP_S * RATE:
        return [], 0
    # At least three windows where the overlap allows: a stretch that happens to sound alike is then outvoted.
    width = min(int(WINDOW_S * RATE), max(int(MIN_WINDOW_S * RATE), (hi - lo) // 3), hi - lo)
    count = max(1, min(MAX_WINDOWS, (hi - lo) // width))
    starts = np.linspace(lo, hi - width, count).astype(int)
    search = int((SEARCH_S + MAX_DRIFT_PPM * 1e-6 * (hi - lo) / RATE) * RATE)
    loud_b = _loud_level(fb[lo:hi], width)
    points: list[tuple[float, float, float]] = []
    heard = 0
    for s in starts:
        window = fb[s : s + width]
        j0 = int(round(s + lag0)) - search
        segment = fa[max(0, j0) : max(0, j0 + width + 2 * search)]
        if _rms_db(window) < loud_b + QUIET_WINDOW_DB or len(segment) < width or _rms_db(segment) < loud_a + QUIET_WINDOW_DB:
            continue
        heard += 1
        peak = _gcc_phat(segment, window, len(segment) - width)
        if peak is None:
            continue
        a_index = max(0, j0) + peak[0]  # A sample where the window's first sample sounds
        d = start_a + a_index / RATE - (start_b + s / RATE)
        points.append((start_b + (s + width / 2) / RATE, d, peak[1]))
    return points, heard


def _loud_level(x: np.ndarray, width: int) -> float:
    """dB of a loud window of x (its 90th percentile window), the reference for a quiet one."""
    energy = _frame_energy(x, width) if len(x) >= width else np.array([float(np.mean(x.astype(np.float64) ** 2))])
    return 10.0 * math.log10(float(np.percentile(energy, 90)) + 1e-20)


def _rms_db(x: np.ndarray) -> float:
    return 10.0 * math.log10(float(np.mean(x.astype(np.float64) ** 2)) + 1e-20)


def _gcc_phat(segment: np.ndarray, window: np.ndarray, max_lag: int) -> tuple[float, float] | None:
    """Where in `segment` (0 … max_lag samples in) `window` sounds, to a fraction of a sample, and the whitened
    peak's height (1: every frequency of the band in phase); None when there is no single clear peak. A drifting
    clock spreads a window's match over a few samples (100 ppm: 1 ms in 10 s) and lowers that height."""
    n = 1 << int(math.ceil(math.log2(len(segment) + len(window))))
    cross = np.fft.rfft(segment, n) * np.conj(np.fft.rfft(window, n))
    freqs = np.fft.rfftfreq(n, 1.0 / RATE)
    band = (freqs >= BAND[0]) & (freqs <= BAND[1])
    cross[~band] = 0.0
    cross /= np.abs(cross) + 1e-12
    corr = np.fft.irfft(cross, n)[: max_lag + 1] * (n / (2.0 * int(band.sum())))  # corr[k] = Σ segment[m+k]·window[m]
    best = int(np.argmax(corr))
    guard = max(1, RATE // 500)  # 2 ms: the whitened peak is a sample or two wide
    rest = corr.copy()
    rest[max(0, best - guard) : best + guard + 1] = -np.inf
    if np.isfinite(rest).any() and float(rest.max()) >= 0.8 * float(corr[best]):
        return None
    return _parabolic(corr, best), float(corr[best])


def _fit(points: list[tuple[float, float, float]], heard: int) -> _Hypothesis:
    """The line through the windows' offsets (Theil–Sen, then least squares on the windows within INLIER_S), or
    the largest group of agreeing windows when the overlap is too short to measure drift."""
    t, d, height = (np.array(column) for column in zip(*points, strict=True))
    if len(points) >= MIN_DRIFT_WINDOWS and float(t.max() - t.min()) >= MIN_DRIFT_SPAN_S:
        slope, intercept, _, _ = stats.theilslopes(d, t)
        inliers = np.abs(d - (intercept + slope * t)) <= INLIER_S
        if int(inliers.sum()) >= MIN_DRIFT_WINDOWS and float(np.ptp(t[inliers])) >= MIN_DRIFT_SPAN_S:
            slope, intercept = np.polyfit(t[inliers], d[inliers], 1)
            return _Hypothesis(float(intercept), float(slope), True, int(inliers.sum()), heard,
                               float(height[inliers].sum()) / heard)
    near = np.abs(d[:, None] - d[None, :]) <= INLIER_S  # the largest group of windows within 5 ms of one
    inliers = near[int(np.argmax(near.sum(axis=1)))]
    return _Hypothesis(float(np.mean(d[inliers])), 0.0, False, int(inliers.sum()), heard,
                       float(height[inliers].sum()) / heard)
