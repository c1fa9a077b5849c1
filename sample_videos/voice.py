"""The judge's voice (espeak-ng, Russian) and the night music, mixed with numpy.

Cue times come from the script, never from the synthesiser: each phrase is placed so that its
first sound starts exactly at its cue time, which is what the truth records.  Where espeak-ng is
not installed the track stays silent apart from the music and `available()` says why.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import wave
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .writer import AUDIO_RATE

NUMBERS = {1: "один", 2: "два", 3: "три", 4: "четыре", 5: "пять", 6: "шесть", 7: "семь", 8: "восемь",
           9: "девять", 10: "десять", 0: "ноль"}


@dataclass(frozen=True)
class Cue:
    """One spoken phrase: `t` is the onset of its first sound on the clip's time axis."""

    kind: str  # candidate | call | stop | count | shoot_count | phrase
    t: float
    text: str
    rate: int = 175  # espeak words per minute

    def to_json(self) -> dict:
        return {"kind": self.kind, "t": round(self.t, 3), "text": self.text}


def count_times(first: float, n: int = 10, pace: float = 1.0, jitter: float = 0.0, seed: int = 0) -> list[float]:
    """Onsets of a judge's count of n numbers from `first`: one every `pace` seconds (1.0: the clips' judge),
    each after the first moved by up to ±`jitter`·pace (seeded), as a person counting aloud does."""
    rng = np.random.default_rng(seed)
    return [round(first + k * pace + (float(rng.uniform(-jitter, jitter)) * pace if k else 0.0), 3) for k in range(n)]


def available() -> str | None:
    """None when the voice can be synthesised, else the reason it cannot."""
    if shutil.which("espeak-ng") is None:
        return "espeak-ng is not installed: the clips get a silent judge (apt-get install espeak-ng)"
    return None


@lru_cache(maxsize=256)
def speak(text: str, rate: int = 175) -> np.ndarray:
    """The phrase as mono float samples at AUDIO_RATE, leading silence trimmed (onset = sample 0)."""
    out = subprocess.run(["espeak-ng", "-v", "ru", "-s", str(rate), "--stdout", text], capture_output=True,
                         check=True, timeout=30).stdout
    with wave.open(io.BytesIO(out)) as w:
        sr = w.getframerate()
        pcm = np.frombuffer(w.readframes(w.getnframes()), np.int16).astype(np.float32) / 32768.0
    if sr != AUDIO_RATE:
        idx = np.arange(0, len(pcm), sr / AUDIO_RATE)
        pcm = np.interp(idx, np.arange(len(pcm)), pcm).astype(np.float32)
    loud = np.nonzero(np.abs(pcm) > 0.02 * max(float(np.abs(pcm).max()), 1e-6))[0]
    return pcm[loud[0]:] if len(loud) else pcm


def music(duration: float, seed: int) -> np.ndarray:
    """Quiet, slow night music: a minor pad with a soft pulse, deterministic from the seed."""
    rng = np.random.default_rng(seed)
    n = int(duration * AUDIO_RATE)
    t = np.arange(n) / AUDIO_RATE
    roots = [110.0, 98.0, 87.31, 103.83]
    out = np.zeros(n, np.float32)
    bar = 2.4
    for k in range(int(duration / bar) + 1):
        root = roots[(k + int(rng.integers(4))) % 4]
        sl = slice(int(k * bar * AUDIO_RATE), min(n, int((k + 1) * bar * AUDIO_RATE)))
        tt = t[sl] - k * bar
        env = np.minimum(tt / 0.4, 1.0) * np.exp(-tt / 3.0)
        chord = sum(np.sin(2 * np.pi * root * m * tt) for m in (1.0, 1.1892, 1.4983, 2.0))
        pulse = np.sin(2 * np.pi * 55.0 * tt) * np.exp(-((tt % 0.6) / 0.08))
        out[sl] = (0.025 * chord + 0.05 * pulse) * env
    return out


def mix(duration: float, cues: list[Cue], night_windows: list[tuple[float, float]], seed: int) -> np.ndarray:
    """The clip's whole audio track: music under the nights, every cue at its time."""
    n = int(np.ceil(duration * AUDIO_RATE))
    track = np.zeros(n, np.float32)
    for i, (a, b) in enumerate(night_windows):
        m = music(b - a, seed + i)
        s = int(a * AUDIO_RATE)
        track[s:s + len(m)] += m[: max(0, n - s)]
    if available() is None:
        for cue in cues:
            voice = speak(cue.text, cue.rate) * 0.6
            s = int(round(cue.t * AUDIO_RATE))
            e = min(n, s + len(voice))
            if s < n:
                track[s:e] += voice[: e - s]
    return np.clip(track, -1.0, 1.0)
