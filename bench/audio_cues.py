"""Benchmark: the judge's cues found on game soundtracks, clean and with noise, music and crowd babble.

    python3 bench/audio_cues.py [--quick]

Tracks: (1) the project's synthetic game (tests/test_audio_synth.py: espeak-ng judge, tone-music
nights, players' chatter); (2) the sample game's script (sample_videos.game) mixed by the
renderer's own voice module, windows back to back; (3) the rendered sample videos with their
truth `x_cues`, where they exist. Every track goes through an MP4 (AAC) as a camera file would.
Reported per track and condition: cut-off onset error (mean / max ms), missed and false cut-offs
(confident ones; and with the weak ones `stopframe align` may also use, e.g. a lift vote's),
call (`t`) and count (`announced`) onset errors, night-music edge errors, the shooting count heard
over the music (rfm 4.5.3; a number within 300 ms is found), and the time taken.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_audio_synth import RATE, speak, synth_game, tone_music, write_mp4  # noqa: E402

from vision.audio import AudioTrack, read_audio  # noqa: E402
from vision.cues import features, find_count, listen  # noqa: E402

MATCH_S = 0.3  # a detection this close to a true cue is that cue


def _rms(x: np.ndarray) -> float:
    voiced = x[np.abs(x) > 0.01]
    return float(np.sqrt(np.mean(voiced**2))) if len(voiced) else 1e-3


def babble(n: int, seed: int) -> np.ndarray:
    """Crowd babble: five espeak voices talking over each other, each a different pitch and speed."""
    rng = np.random.default_rng(seed)
    lines = ["Я думаю, что он мафия.", "Посмотри на третьего.", "Нет, это точно красный игрок.",
             "Шериф проверил девятого.", "Давайте голосовать за пятого.", "Я мирный житель, клянусь."]
    out = np.zeros(n, np.float32)
    for voice, pitch, speed in (("ru+m1", 30, 150), ("ru+f1", 70, 170), ("ru+m4", 45, 190), ("ru+f4", 85, 160), ("ru+m6", 20, 140)):
        pos = int(rng.uniform(0, 2) * RATE)
        while pos < n:
            x = speak(lines[int(rng.integers(len(lines)))], voice=voice, speed=speed, pitch=pitch)
            end = min(n, pos + len(x))
            out[pos:end] += x[: end - pos]
            pos = end + int(rng.uniform(0.1, 0.6) * RATE)
    return out


def condition(x: np.ndarray, name: str, seed: int = 7) -> np.ndarray:
    """The track with one kind of interference, levels relative to the judge's voice."""
    rng = np.random.default_rng(seed)
    level = _rms(x)
    if name == "clean":
        return x
    if name.startswith("noise"):
        snr = float(name[5:])
        return x + rng.normal(0, level * 10 ** (-snr / 20), len(x)).astype(np.float32)
    if name == "music":  # quiet music under the whole game, 20 dB below the voice
        m = tone_music(len(x) / RATE + 1, seed=seed)[: len(x)]
        return x + m * (level * 0.1 / _rms(m))
    if name == "babble":  # the room talking, 15 dB below the judge
        b = babble(len(x), seed)
        return x + b * (level * 0.18 / _rms(b))
    raise ValueError(name)


def _pair(found: list[float], truth: list[float]) -> tuple[list[float], int, int]:
    """Errors (ms) of detections paired to true cues, then missed and false counts."""
    used: set[int] = set()
    errors = []
    for t in truth:
        best = min((i for i in range(len(found)) if i not in used), key=lambda i: abs(found[i] - t), default=None)
        if best is not None and abs(found[best] - t) <= MATCH_S:
            used.add(best)
            errors.append(1000 * (found[best] - t))
    return errors, len(truth) - len(errors), len(found) - len(used)


def _fmt(errors: list[float]) -> str:
    if not errors:
        return "—"
    a = np.abs(errors)
    return f"{a.mean():5.1f} / {a.max():5.1f}"


def evaluate(label: str, track: AudioTrack, truth: dict) -> dict:
    """Run the cue finder on one track; compare with truth {cutoff, t, announced: [...], nights: [(s, e)]}."""
    t0 = time.perf_counter()
    feats = features(track)
    heard = listen(feats, expected=len(truth["cutoff"]), weak=True)
    took = time.perf_counter() - t0
    sure = [v for v in heard.votes if v.confident]
    cut_err, missed, false = _pair([v.cutoff.t for v in sure], truth["cutoff"])
    _, missed_any, false_any = _pair([v.cutoff.t for v in heard.votes], truth["cutoff"])
    call_err, _, _ = _pair([v.call.t for v in sure if v.call], truth["t"])
    ann_err, _, _ = _pair([v.announced.t for v in sure if v.announced], truth["announced"])
    edges = []
    for s, e in truth["nights"]:
        seg = min(heard.nights, key=lambda n: abs(n.start - s) + abs(n.end - e), default=None)
        if seg is not None and abs(seg.start - s) < 3 and abs(seg.end - e) < 3:
            edges += [1000 * (seg.start - s), 1000 * (seg.end - e)]
    night_missed = len(truth["nights"]) - len(edges) // 2
    counted = [c.t for n in heard.nights for c in find_count(feats, n)]
    count_err, count_missed, count_false = _pair(counted, truth.get("counts", []))
    row = {
        "track": label, "cutoffs": len(truth["cutoff"]), "cutoff_ms": _fmt(cut_err), "missed": missed, "false": false,
        "with_weak_missed": missed_any, "with_weak_false": false_any,
        "call_ms": _fmt(call_err), "announced_ms": _fmt(ann_err),
        "nights": f"{len(heard.nights)}/{len(truth['nights'])}", "night_edge_ms": _fmt(edges), "night_missed": night_missed,
        "shoot_count_ms": _fmt(count_err), "shoot_count_missed": count_missed, "shoot_count_false": count_false,
        "within_40ms": sum(abs(e) < 40 for e in cut_err), "seconds": round(took, 2), "audio_s": round(track.duration),
    }
    print(" | ".join(f"{k} {v}" for k, v in row.items()), flush=True)
    return row


def synthetic_track() -> tuple[np.ndarray, dict]:
    game = synth_game(days=((2, 5), (3, 7, 9), (4, 6), (1, 8, 10)), seed=11)
    truth = {k: [v[k] for v in game.votes] for k in ("cutoff", "t", "announced")}
    truth["nights"] = game.nights
    truth["counts"] = game.counts
    return game.samples, truth


def sample_script_track() -> tuple[np.ndarray, dict] | None:
    """The sample game's windows (the renderer's script and voice), back to back with 1 s between."""
    try:
        from sample_videos import voice
        from sample_videos.game import Window, sample_game
    except ImportError as exc:
        print(f"(sample game script unavailable: {exc})")
        return None
    if voice.AUDIO_RATE != RATE:
        print(f"(sample voice at {voice.AUDIO_RATE} Hz, resampled by the MP4 round trip)")
    parts, truth = [], {"cutoff": [], "t": [], "announced": [], "nights": [], "counts": []}
    pos = 1.0
    parts.append(np.zeros(int(voice.AUDIO_RATE), np.float32))
    for i, w in enumerate(x for x in sample_game() if isinstance(x, Window)):
        nights = [(0.0, w.duration)] if w.night else []
        parts.append(voice.mix(w.duration, w.cues, nights, seed=i))
        parts.append(np.zeros(int(voice.AUDIO_RATE), np.float32))
        for c in w.cues:
            key = {"stop": "cutoff", "candidate": "t", "count": "announced", "shoot_count": "counts"}.get(c.kind)
            if key:
                truth[key].append(pos + c.t)
        truth["nights"] += [(pos + a, pos + b) for a, b in nights]
        pos += w.duration + 1.0
    x = np.concatenate(parts)
    if voice.AUDIO_RATE != RATE:
        from scipy.signal import resample_poly

        g = np.gcd(RATE, voice.AUDIO_RATE)
        x = resample_poly(x, RATE // g, voice.AUDIO_RATE // g).astype(np.float32)
    return x, truth


def rendered_tracks() -> list[tuple[str, Path, dict]]:
    """Rendered sample videos with truth x_cues (spec §3 + the renderer's x_ fields)."""
    out = []
    for mp4 in sorted((ROOT / "sample_videos").glob("**/*.mp4")):
        truth_path = mp4.parent / (mp4.stem + ".truth.json")
        if not truth_path.exists():
            continue
        data = json.loads(truth_path.read_text(encoding="utf-8"))
        cues = data.get("x_cues") or []
        if not any(c.get("kind") == "stop" for c in cues):
            continue
        truth = {
            "cutoff": [c["t"] for c in cues if c["kind"] == "stop"],
            "t": [c["t"] for c in cues if c["kind"] == "candidate"],
            "announced": [c["t"] for c in cues if c["kind"] == "count"],
            "nights": [(w["start"], w["end"]) for w in data.get("x_windows", []) if w["name"].startswith("night")],
            "counts": [c["t"] for c in cues if c["kind"] == "shoot_count"],
        }
        out.append((str(mp4.relative_to(ROOT)), mp4, truth))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="clean and one noisy condition only")
    ap.add_argument("--conditions", nargs="+", metavar="C", help="clean, noiseSNR (e.g. noise20), music, babble")
    args = ap.parse_args()
    conditions = ["clean", "noise20"] if args.quick else ["clean", "noise20", "noise10", "music", "babble"]
    conditions = args.conditions or conditions
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tracks = [("synthetic", synthetic_track())]
        script = sample_script_track()
        if script is not None:
            tracks.append(("sample-script", script))
        for name, (x, truth) in tracks:
            for cond in conditions:
                mp4 = write_mp4(Path(tmp) / f"{name}-{cond}.mp4", condition(x, cond))
                rows.append(evaluate(f"{name}/{cond}", read_audio(mp4), truth))
    for label, mp4, truth in rendered_tracks():
        rows.append(evaluate(label, read_audio(mp4), truth))
    if not rendered_tracks():
        print("(no rendered sample video with voice cues yet: sample_videos/**/*.mp4 + *.truth.json x_cues)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
