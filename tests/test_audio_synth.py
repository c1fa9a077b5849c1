"""A synthetic game soundtrack with known cue times (espeak-ng voice, tone music), and its checks.

Shared by tests/vision/test_audio_cues.py and bench/audio_cues.py: every spoken piece is synthesised
separately and placed at a known sample, so the truth is exact (onset = first audible sample).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import wave
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from scipy.signal import resample_poly

RATE = 16_000
NUMBERS = ["ноль", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять", "десять"]
AUDIBLE = 0.003  # -50 dBFS: the first sample above this is a piece's onset

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")


@lru_cache(maxsize=512)
def _speak_cached(text: str, voice: str, speed: int, pitch: int) -> bytes:
    out = subprocess.run(
        ["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "--stdout", text],
        check=True,
        capture_output=True,
        timeout=30,
    ).stdout
    with wave.open(io.BytesIO(out)) as w:
        rate = w.getframerate()
        x = np.frombuffer(w.readframes(w.getnframes()), np.int16).astype(np.float32) / 32768.0
    y = resample_poly(x, RATE, rate).astype(np.float32)
    loud = np.nonzero(np.abs(y) > AUDIBLE)[0]
    return y[loud[0] : loud[-1] + 1].tobytes() if len(loud) else b""


def speak(text: str, voice: str = "ru", speed: int = 165, pitch: int = 45) -> np.ndarray:
    """espeak-ng's voice for `text` at 16 kHz, trimmed so that sample 0 is its onset."""
    return np.frombuffer(_speak_cached(text, voice, speed, pitch), np.float32).copy()


def tone_music(duration: float, seed: int = 0, level: float = 0.25) -> np.ndarray:
    """Night music from tones: chords with harmonics, a new chord every 0.4-0.6 s, a bass line."""
    rng = np.random.default_rng(seed)
    n = int(duration * RATE)
    out = np.zeros(n, np.float32)
    pos = 0
    while pos < n:
        length = min(n - pos, int(rng.uniform(0.4, 0.6) * RATE))
        t = np.arange(length) / RATE
        root = 110.0 * 2 ** (rng.integers(0, 12) / 12)
        chunk = np.zeros(length)
        for ratio in (1.0, 1.26, 1.5, 2.0):
            for h, amp in ((1, 1.0), (2, 0.4), (3, 0.2)):
                chunk += amp * np.sin(2 * np.pi * root * ratio * h * t + rng.uniform(0, 6.28))
        env = np.minimum(1.0, np.minimum(t / 0.01, (length / RATE - t) / 0.01))
        out[pos : pos + length] = (chunk * env / 8.0).astype(np.float32)
        pos += length
    return out * level / (np.abs(out).max() + 1e-9)


@dataclass
class SynthGame:
    """A game soundtrack and its truth: one dict per vote with t / cutoff / announced, nights, counts."""

    samples: np.ndarray
    votes: list[dict] = field(default_factory=list)
    nights: list[tuple[float, float]] = field(default_factory=list)
    counts: list[float] = field(default_factory=list)

    @property
    def duration(self) -> float:
        return len(self.samples) / RATE


class _Track:
    def __init__(self) -> None:
        self.parts: list[tuple[int, np.ndarray]] = []
        self.pos = 0

    def say(self, x: np.ndarray, gap: float = 0.0) -> float:
        """Place x after `gap` seconds of silence; returns its onset in seconds."""
        self.pos += int(gap * RATE)
        onset = self.pos / RATE
        self.parts.append((self.pos, x))
        self.pos += len(x)
        return onset

    def mix(self, extra: float = 1.0) -> np.ndarray:
        out = np.zeros(self.pos + int(extra * RATE), np.float32)
        for p, x in self.parts:
            out[p : p + len(x)] += x
        return out


def synth_game(
    days: tuple[tuple[int, ...], ...] = ((2, 5), (3, 7, 9), (4,)),
    closer: str = "Стоп",
    seed: int = 0,
    night_s: float = 14.0,
    speech_s: float = 4.0,
    lifts: tuple[int, ...] = (),
) -> SynthGame:
    """Days of nominations and votes («N, кто голосует за игрока номер N» … «Стоп» … count), nights of music.

    `days` lists each day's candidates; `lifts` the days that end with a lift vote on the first two. Between the days: a night of tone music with the judge
    counting 1..10 over it (rfm 4.5.3). Player chatter (other voices) fills each day's start.
    """
    rng = np.random.default_rng(seed)
    tr = _Track()
    game = SynthGame(np.zeros(0, np.float32))
    chatter = ["Я считаю, что третий игрок красный.", "Выставляю номер семь.", "Спасибо, у меня всё.", "Пас."]
    voices = [("ru+m3", 120), ("ru+f2", 160), ("ru+m7", 90)]
    tr.say(np.zeros(1, np.float32), 1.0)
    for d, cands in enumerate(days):
        said = 0.0
        while said < speech_s:
            voice, pitch = voices[int(rng.integers(len(voices)))]
            x = speak(chatter[int(rng.integers(len(chatter)))], voice=voice, pitch=pitch)
            tr.say(x, float(rng.uniform(0.3, 0.8)))
            said += len(x) / RATE
        tr.say(speak("Переходим к голосованию."), 1.0)
        for c in cands:
            tr.say(speak(f"{NUMBERS[c]},"), 0.8)
            tr.say(speak("кто голосует за игрока номер"), 0.22)
            t = tr.say(speak(NUMBERS[c]), float(rng.uniform(0.02, 0.06)))
            cutoff = tr.say(speak(closer), float(rng.uniform(1.3, 1.8)))
            count = int(rng.integers(0, 6))
            announced = tr.say(speak(NUMBERS[count]), float(rng.uniform(0.35, 0.6)))
            game.votes.append({"day": d + 1, "candidate": c, "t": t, "cutoff": cutoff, "announced": announced})
        if d + 1 in lifts:  # «should both leave?» after a repeated tie: another question, the same «Стоп»
            a, b = cands[:2]
            tr.say(speak(f"Кто за то, чтобы игроки {NUMBERS[a]} и {NUMBERS[b]}"), 0.8)
            t = tr.say(speak("покинули игру"), 0.3)
            cutoff = tr.say(speak(closer), float(rng.uniform(1.3, 1.8)))
            announced = tr.say(speak(NUMBERS[int(rng.integers(0, 6))]), float(rng.uniform(0.35, 0.6)))
            game.votes.append({"day": d + 1, "candidates": [a, b], "t": t, "cutoff": cutoff, "announced": announced})
        if d + 1 < len(days):
            tr.say(speak("Наступает ночь."), 1.0)
            start = tr.pos / RATE + 1.0
            music = tone_music(night_s, seed=seed * 10 + d)
            tr.say(music, 1.0)
            game.nights.append((start, start + night_s))
            pos = tr.pos
            tr.pos = int((start + 2.0) * RATE)
            for k in range(1, 11):
                game.counts.append(tr.say(speak(NUMBERS[k]) * 0.8, 0.0))
                tr.pos = int((start + 2.0 + k * 0.9) * RATE)
            tr.pos = pos
            tr.say(speak("Доброе утро."), 1.5)
    game.samples = tr.mix()
    return game


def protocol_for(game: SynthGame, video: str = "game.mp4") -> dict:
    """A paper protocol of the synthetic game: night 0, then each day's nominations and votes, no times."""
    events: list[dict] = [{"type": "phase", "phase": "night", "number": 0}]
    day = 0
    for v in game.votes:
        if v["day"] != day:
            if day:
                events.append({"type": "phase", "phase": "night", "number": day})
            day = v["day"]
            events.append({"type": "phase", "phase": "day", "number": day})
            cands = [w["candidate"] for w in game.votes if w["day"] == day and "candidate" in w]
            events += [{"type": "nomination", "day": day, "by": 1 + (c % 10), "target": c} for c in cands]
            events.append({"type": "phase", "phase": "voting", "number": day})
        if "candidates" in v:
            events.append({"type": "lift_vote", "day": day, "round": 3, "candidates": v["candidates"], "count": 2})
        else:
            events.append({"type": "vote", "day": day, "round": 1, "candidate": v["candidate"], "count": 1})
    players = [{"seat": s, "nickname": f"P{s}", "role": None} for s in range(1, 11)]
    return {"format": "stopframe-protocol/1", "rules": "rfm", "video": {"path": video}, "players": players, "events": events}


def write_mp4(path: Path, samples: np.ndarray, rate: int = RATE, fps: int = 25, video_start: float = 0.0) -> Path:
    """Mux samples with a tiny grey H.264 picture into an MP4 (AAC audio), as a camera file would be."""
    import av

    n_frames = int(len(samples) / rate * fps) + 1
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=fps)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        vs.options = {"preset": "ultrafast", "g": "25"}
        aus = out.add_stream("aac", rate=rate)
        aus.layout = "mono"
        img = np.full((48, 64, 3), 90, np.uint8)
        for i in range(n_frames):
            f = av.VideoFrame.from_ndarray(img, format="rgb24")
            f.pts = i
            for pkt in vs.encode(f):
                out.mux(pkt)
        for pkt in vs.encode(None):
            out.mux(pkt)
        block = 1024
        for i in range(0, len(samples), block):
            chunk = samples[i : i + block]
            f = av.AudioFrame.from_ndarray(chunk.reshape(1, -1).astype(np.float32), format="fltp", layout="mono")
            f.sample_rate = rate
            f.pts = i
            for pkt in aus.encode(f):
                out.mux(pkt)
        for pkt in aus.encode(None):
            out.mux(pkt)
    return path


# ---------------------------------------------------------------- the helpers' own checks


@needs_espeak
def test_speak_is_trimmed_russian_speech() -> None:
    x = speak("Стоп")
    assert 0.15 < len(x) / RATE < 0.6
    assert abs(x[0]) > AUDIBLE and abs(x[-1]) > AUDIBLE


@needs_espeak
def test_mp4_roundtrip_keeps_cue_times(tmp_path: Path) -> None:
    from vision.audio import read_audio

    x = np.zeros(3 * RATE, np.float32)
    word = speak("Стоп")
    x[int(1.5 * RATE) : int(1.5 * RATE) + len(word)] = word
    track = read_audio(write_mp4(tmp_path / "g.mp4", x))
    assert track.rate == RATE
    assert abs(track.start) < 0.05
    onset = track.time_of(int(np.nonzero(np.abs(track.samples) > 0.02)[0][0]))
    assert abs(onset - 1.5) < 0.01
