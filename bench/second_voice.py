"""A second judge's voice, unlike ours, in a reverberant room with other tables talking: does `stopframe align`
still find «Стоп» and «Спасибо», and does it say which votes it could not time rather than guess?

    python3 bench/second_voice.py [--voice NAME ...] [--babble-db DB] [--no-validation] [--limit N] [--keep]

Every clip of ours with timed votes (sample_videos/clips, and the whole sample game) and every day clip of
../shared/validation/clips gets a copy, in a temporary folder (`--keep`: bench/out/second_voice/, ignored by git;
never committed media), whose sound track is replaced: every phrase the clip's judge says (our clips' truth
`x_cues`, the validation truth's `x_speech`) is spoken again by another espeak-ng voice (a female and a deep
male variant, other pitch and speed; a phrase that would run into the next is spoken faster), starting at the
same time, so the truth's cue times stay exact (a phrase's first audible sample is its onset); the sample
game's nights get other music (tones). The voice then goes through a room (a synthetic impulse response:
direct sound, early reflections, a 0.6 s diffuse tail) and the murmur of other tables is added under it
(five other espeak voices talking over each other, through their own room, `--babble-db` below the judge).

Each copy's protocol has its votes' times removed (the times of its phases stay) and `stopframe align`
proposes them again; `--voice original` runs the clips' own sound tracks the same way, as the control. Per vote of the
truth (its `cutoff`, the onset of the closing word): found (within 40 ms), said untimed (align lists it among
the votes without a cue and proposes nothing), or a wrong guess (a time proposed further than 40 ms off).
The call (`t`) and the count (`announced`) are reported the same way, beside it.
"""

from __future__ import annotations

import argparse
import copy
import json
import subprocess
import sys
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.signal import fftconvolve

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from audio_cues import babble  # noqa: E402
from test_audio_synth import RATE, speak, tone_music  # noqa: E402

VOTE_TYPES = ("vote", "lift_vote")
FIELDS = ("cutoff", "t", "announced")
TOLERANCE_S = 0.040
VALIDATION = ROOT.parent / "shared" / "validation" / "clips"
OURS = ROOT / "sample_videos" / "clips"
GAME = ROOT / "sample_videos" / "game" / "sample_game"
KEEP = ROOT / "bench" / "out" / "second_voice"
GAP_S = 0.06  # the least silence kept before the next phrase


@dataclass(frozen=True)
class Voice:
    """An espeak-ng voice unlike the sample videos' judge (`ru`, default pitch, 175 words a minute)."""

    name: str
    variant: str
    pitch: int
    speed: int


VOICES = {
    "original": Voice("original", "", 0, 0),  # the clip's own sound track, unchanged: the control
    "female": Voice("female", "ru+f3", 78, 150),
    "deep": Voice("deep", "ru+m7", 22, 195),
}


@dataclass
class Phrase:
    t: float
    text: str


def phrases_of(truth: dict[str, Any]) -> list[Phrase]:
    """What the clip's judge says and when (onset), from its truth."""
    if truth.get("x_speech"):
        return [Phrase(float(s["start"]), s["text"]) for s in truth["x_speech"]]
    return [Phrase(float(c["t"]), c["text"]) for c in truth.get("x_cues", [])]


def say_all(phrases: list[Phrase], voice: Voice, n: int) -> np.ndarray:
    """The judge's new voice: each phrase starting at its time, spoken faster where it would run into the next."""
    out = np.zeros(n, np.float32)
    ordered = sorted(phrases, key=lambda p: p.t)
    for k, p in enumerate(ordered):
        room = (ordered[k + 1].t - p.t - GAP_S) if k + 1 < len(ordered) else (n / RATE - p.t)
        speed = voice.speed
        x = speak(p.text, voice=voice.variant, speed=speed, pitch=voice.pitch)
        while len(x) / RATE > room and speed < 450:
            speed = int(speed * min(1.6, max(1.08, len(x) / RATE / max(room, 0.05))))
            x = speak(p.text, voice=voice.variant, speed=speed, pitch=voice.pitch)
        s = int(round(p.t * RATE))
        e = min(n, s + len(x), int((p.t + max(room, 0.05)) * RATE))
        if s < n:
            out[s:e] += x[: e - s]
    return out


def room(seed: int, rt60: float = 0.6) -> np.ndarray:
    """A room's impulse response: the direct sound at 0 (so onsets stay where they are), a few early
    reflections, then a diffuse exponentially decaying tail with `rt60` seconds to -60 dB."""
    rng = np.random.default_rng(seed)
    n = int(rt60 * 1.2 * RATE)
    ir = np.zeros(n, np.float32)
    ir[0] = 1.0
    for delay, gain in zip(rng.uniform(0.004, 0.03, 6), rng.uniform(0.25, 0.5, 6), strict=True):
        ir[int(delay * RATE)] += gain * rng.choice((-1.0, 1.0))
    start = int(0.01 * RATE)
    t = np.arange(n - start) / RATE
    ir[start:] += (rng.normal(0, 1, n - start) * np.exp(-6.9 * t / rt60) * 0.08).astype(np.float32)
    return ir


def _rms(x: np.ndarray) -> float:
    voiced = x[np.abs(x) > 0.01]
    return float(np.sqrt(np.mean(voiced**2))) if len(voiced) else 1e-3


def night_spans(truth: dict[str, Any]) -> list[tuple[float, float]]:
    """The night windows of a clip or game (music under them)."""
    return [(float(w["start"]), float(w["end"])) for w in truth.get("x_windows", [])
            if str(w.get("name", "")).startswith("night")]


def track(truth: dict[str, Any], duration: float, voice: Voice, babble_db: float, seed: int) -> np.ndarray:
    """The clip's new sound track at RATE: the new judge in the room, night music, the other tables."""
    n = int(np.ceil(duration * RATE))
    judge = say_all(phrases_of(truth), voice, n)
    wet = fftconvolve(judge, room(seed))[:n].astype(np.float32)
    level = _rms(judge)
    for a, b in night_spans(truth):
        m = tone_music(b - a, seed=seed)
        s = int(a * RATE)
        m = m[: max(0, min(len(m), n - s))]
        wet[s:s + len(m)] += m * (level * 0.3 / _rms(m))
    crowd = fftconvolve(babble(n, seed + 1), room(seed + 2, rt60=0.9))[:n]
    wet += (crowd * (level * 10 ** (babble_db / 20) / _rms(crowd))).astype(np.float32)
    peak = float(np.abs(wet).max())
    return (wet / peak * 0.9 if peak > 0.9 else wet).astype(np.float32)


def duration_of(video: Path) -> float:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", str(video)],
                         capture_output=True, text=True, check=True).stdout
    return float(out.strip())


def copy_with_voice(video: Path, samples: np.ndarray, out: Path) -> None:
    """The clip's pictures (copied as they are) with the new sound track (AAC, as a camera writes)."""
    wav = out.with_suffix(".wav")
    with wave.open(str(wav), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes((np.clip(samples, -1, 1) * 32767).astype(np.int16).tobytes())
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", str(video), "-i", str(wav), "-map", "0:v:0",
                    "-map", "1:a:0", "-c:v", "copy", "-c:a", "aac", "-b:a", "96k", str(out)], check=True)
    wav.unlink()


def align(video: Path, protocol: dict[str, Any], folder: Path, tag: str) -> tuple[dict[str, Any] | None, str]:
    """`stopframe align` of the copy with every vote's times removed from the protocol (a phase's time, where the
    judge wrote one, stays: it tells a clip's day, as it would a game's)."""
    paper = copy.deepcopy(protocol)
    for e in paper["events"]:
        if e.get("type") in VOTE_TYPES:
            for k in FIELDS:
                e.pop(k, None)
    paper_path = folder / f"{video.stem}.{tag}.paper.protocol.json"
    paper_path.write_text(json.dumps(paper, ensure_ascii=False), encoding="utf-8")
    out = folder / f"{video.stem}.{tag}.aligned.protocol.json"
    out.unlink(missing_ok=True)
    run = subprocess.run([sys.executable, "-m", "stopframe_cli", "align", str(video), "--protocol", str(paper_path),
                          "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin:/usr/local/bin", "STOPFRAME_LANG": "en"})
    if run.returncode or not out.exists():
        return None, run.stderr.strip()[-300:]
    return json.loads(out.read_text(encoding="utf-8")), run.stderr


def score(protocol: dict[str, Any], aligned: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per field: found within 40 ms, said untimed, wrongly guessed (and the wrong guesses' errors in ms)."""
    got: dict[str, Any] = {f: {"found": 0, "untimed": 0, "wrong": 0, "errors_ms": []} for f in FIELDS}
    unmatched = set(aligned.get("x_align", {}).get("unmatched_events", []))
    for i, (want, have) in enumerate(zip(protocol["events"], aligned["events"], strict=True)):
        if want.get("type") not in VOTE_TYPES:
            continue
        for f in FIELDS:
            if not isinstance(want.get(f), int | float):
                continue
            if not isinstance(have.get(f), int | float):
                got[f]["untimed"] += 1
                if f == "cutoff" and i not in unmatched:
                    got[f]["unlisted"] = got[f].get("unlisted", 0) + 1  # left out without saying so
                continue
            err = have[f] - want[f]
            if abs(err) <= TOLERANCE_S:
                got[f]["found"] += 1
            else:
                got[f]["wrong"] += 1
                got[f]["errors_ms"].append(round(err * 1000))
    return got


def clips(with_validation: bool, limit: int | None) -> list[tuple[str, Path]]:
    """(set, stem) of every clip with timed votes: ours, the sample game, the validation day clips."""
    def timed(stem: Path) -> bool:
        p = json.loads(stem.with_suffix(".protocol.json").read_text(encoding="utf-8"))
        return any(e.get("type") in VOTE_TYPES and "cutoff" in e for e in p["events"])

    found = [("ours", s) for s in [GAME] + sorted(p.with_name(p.name.removesuffix(".protocol.json"))
                                                 for p in OURS.glob("*.protocol.json"))
             if s.with_suffix(".mp4").exists() and s.with_suffix(".truth.json").exists() and timed(s)]
    if with_validation and VALIDATION.is_dir():
        found += [("validation", p.with_name(p.name.removesuffix(".protocol.json")))
                  for p in sorted(VALIDATION.glob("*.protocol.json"))
                  if timed(p.with_name(p.name.removesuffix(".protocol.json")))][:limit]
    return found


def closing_words(truth: dict[str, Any]) -> str:
    """«Стоп» or «Спасибо», as the clip's judge closes a vote."""
    words = {s["text"].strip(".!").lower() for s in truth.get("x_speech", []) if s.get("kind") == "cutoff"}
    words |= {c["text"].strip(".!").lower() for c in truth.get("x_cues", []) if c.get("kind") == "stop"}
    return "/".join(sorted(words)) or "?"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--voice", action="append", choices=sorted(VOICES), help="voices to try (default: all)")
    ap.add_argument("--babble-db", type=float, default=-20.0, help="the other tables' level below the judge (dB)")
    ap.add_argument("--no-validation", action="store_true", help="only our own clips")
    ap.add_argument("--limit", type=int, help="at most this many validation clips")
    ap.add_argument("--keep", action="store_true", help=f"keep the copies in {KEEP.relative_to(ROOT)}")
    args = ap.parse_args()
    voices = [VOICES[v] for v in (args.voice or sorted(VOICES))]
    with tempfile.TemporaryDirectory() as tmp:
        folder = KEEP if args.keep else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        rows = []
        for voice in voices:
            for n, (kind, stem) in enumerate(clips(not args.no_validation, args.limit)):
                protocol = json.loads(stem.with_suffix(".protocol.json").read_text(encoding="utf-8"))
                truth = json.loads(stem.with_suffix(".truth.json").read_text(encoding="utf-8"))
                video = stem.with_suffix(".mp4")
                copy_path = folder / f"{stem.name}.{voice.name}.mp4"
                if voice.variant:
                    copy_with_voice(video, track(truth, duration_of(video), voice, args.babble_db, seed=100 + n),
                                    copy_path)
                else:
                    copy_path = video
                aligned, said = align(copy_path, protocol, folder, voice.name)
                if aligned is None:
                    rows.append({"set": kind, "clip": stem.name, "voice": voice.name, "error": said})
                    print(f"{stem.name} [{voice.name}]: align failed: {said}", file=sys.stderr)
                    continue
                rows.append({"set": kind, "clip": stem.name, "voice": voice.name, "closing": closing_words(truth),
                             "score": score(protocol, aligned)})
                c = rows[-1]["score"]["cutoff"]
                print(f"{stem.name} [{voice.name}]: cutoff found {c['found']}, untimed {c['untimed']}, "
                      f"wrong {c['wrong']} {c['errors_ms']}", file=sys.stderr)
    report(rows, args.babble_db)
    KEEP.mkdir(parents=True, exist_ok=True)
    (KEEP / "summary.json").write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


def report(rows: list[dict[str, Any]], babble_db: float) -> None:
    """One markdown table per voice and set, then the totals."""
    print(f"other tables' murmur {babble_db:g} dB below the judge; room RT60 0.6 s; tolerance 40 ms\n")
    print("| voice | clips | closing word | «Стоп»/«Спасибо» found | said untimed | wrong guesses | call found | count found |")
    print("|---|---|---|---|---|---|---|---|")
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["voice"], r["set"], r.get("closing", "?")), []).append(r)
    total = {f: {"found": 0, "untimed": 0, "wrong": 0} for f in FIELDS}
    for (voice, kind, closing), members in sorted(groups.items()):
        sums = {f: {k: sum(m["score"][f][k] for m in members if "score" in m) for k in ("found", "untimed", "wrong")}
                for f in FIELDS}
        failed = sum("error" in m for m in members)
        for f in FIELDS:
            for k in sums[f]:
                total[f][k] += sums[f][k]

        def of(f: str, s: dict = sums) -> int:
            return s[f]["found"] + s[f]["untimed"] + s[f]["wrong"]

        c = sums["cutoff"]
        print(f"| {voice} | {kind} ({len(members)}{f', {failed} failed' if failed else ''}) | {closing} | "
              f"{c['found']}/{of('cutoff')} | {c['untimed']} | {c['wrong']} | "
              f"{sums['t']['found']}/{of('t')} | {sums['announced']['found']}/{of('announced')} |")
    c = total["cutoff"]
    n = c["found"] + c["untimed"] + c["wrong"]
    unlisted = sum(r["score"]["cutoff"].get("unlisted", 0) for r in rows if "score" in r)
    print(f"\n«Стоп»/«Спасибо» within 40 ms: {c['found']}/{n} ({c['found'] / n:.1%}); said untimed {c['untimed']} "
          f"(of them left out without being listed: {unlisted}); wrong guesses {c['wrong']}" if n else "\nno vote")


if __name__ == "__main__":
    sys.exit(main())
