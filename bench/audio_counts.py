"""The judge's shooting count heard on synthetic nights: pace, voice, music and noise varied.

Each night: «Наступает ночь. Мафия выходит на охоту.», the count 1..10 at a pace (±8 % jitter per
number), «Мафия, спасибо.», over tone music and/or white noise, in one of several espeak-ng voices.
The count is found as the product does it (vision.cues.count_words on the stretch, contract.night.fit_count
from the shooting's `t` = the first number), and measured: numbers heard, onset error (ms) of the
heard ones, and whether a bend 0.25 s after each number goes to that number (the one-a-second
assumption alongside). Audio only, seconds per night:

    python3 bench/audio_counts.py [--quick]

Figures to the README; JSON to bench/out/audio_counts.json.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_audio_synth import RATE, speak, tone_music  # noqa: E402

from contract.night import fit_count  # noqa: E402
from review.audit.night import count_calls  # noqa: E402
from vision.audio import AudioTrack  # noqa: E402
from vision.cues import count_words, features  # noqa: E402

OUT = ROOT / "bench" / "out" / "audio_counts.json"
NUMBERS = ["один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять", "десять"]
T0 = 4.0
VOICES = [("ru", 165, 45), ("ru+m3", 140, 30), ("ru+f2", 190, 60)]


def night(pace: float, music: float, noise: float, voice: tuple[str, int, int], seed: int) -> tuple[np.ndarray, list[float]]:
    rng = np.random.default_rng(seed)
    name, speed, pitch = voice
    duration = T0 + 10 * pace + 4.0
    out = np.zeros(int(duration * RATE), np.float32)

    def put(x: np.ndarray, t: float) -> float:
        i = int(round(t * RATE))
        out[i : i + len(x)] += x[: max(0, len(out) - i)]
        return i / RATE

    put(speak("Наступает ночь.", name, speed, pitch), 0.4)
    put(speak("Мафия выходит на охоту.", name, speed, pitch), 1.7)
    onsets = [put(speak(NUMBERS[k], name, speed, pitch) * 0.8,
                  T0 + k * pace + (float(rng.uniform(-0.08, 0.08)) * pace if k else 0.0)) for k in range(10)]
    put(speak("Мафия, спасибо.", name, speed, pitch), onsets[-1] + max(0.8, pace) + 0.2)
    if music:
        out += tone_music(duration, seed=seed, level=music)
    if noise:
        out += rng.normal(0, noise, len(out)).astype(np.float32)
    return out, onsets


def measure(pace: float, music: float, noise: float, voice: tuple[str, int, int], seed: int) -> dict:
    samples, truth = night(pace, music, noise, voice, seed)
    track = AudioTrack(samples, RATE, 0.0)
    words = [c.t for c in count_words(features(track), 0.0, track.duration)]
    fit = fit_count(words, 10, T0)
    heard = sum(fit[1]) if fit else 0
    errors = [abs(a - b) * 1000 for a, b, h in zip(fit[0], truth, fit[1], strict=True) if h] if fit else []
    seats = tuple(range(1, 11))
    calls = count_calls({"t": T0}, seats, cues=words)
    assumed = count_calls({"t": T0}, seats)
    return {"pace": pace, "music": music, "noise": noise, "voice": voice[0], "heard": heard,
            "source": calls.source, "error_ms": [round(e) for e in errors],
            "targets_ok": sum(calls.target_of(t + 0.25)[0] == k + 1 for k, t in enumerate(truth)),
            "assumed_targets_ok": sum(assumed.target_of(t + 0.25)[0] == k + 1 for k, t in enumerate(truth))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one voice, fewer conditions")
    args = parser.parse_args(argv)
    paces = (0.6, 1.0, 1.4) if args.quick else (0.5, 0.7, 1.0, 1.3, 1.7, 2.2)
    musics = (0.0, 0.2) if args.quick else (0.0, 0.08, 0.2, 0.35)
    noises = (0.0,) if args.quick else (0.0, 0.01)
    voices = VOICES[:1] if args.quick else VOICES
    start = time.perf_counter()
    rows = [measure(p, m, n, v, seed=i) for i, (p, m, n, v) in enumerate(itertools.product(paces, musics, noises, voices))]
    errors = [e for r in rows for e in r["error_ms"]]
    by = {}
    for key in ("pace", "music", "noise", "voice"):
        by[key] = {str(v): {"heard": f"{sum(r['heard'] for r in g)}/{10 * len(g)}",
                            "targets": f"{sum(r['targets_ok'] for r in g)}/{10 * len(g)}",
                            "assumed_targets": f"{sum(r['assumed_targets_ok'] for r in g)}/{10 * len(g)}"}
                   for v in sorted({r[key] for r in rows}) for g in [[r for r in rows if r[key] == v]]}
    total = {"nights": len(rows), "heard": f"{sum(r['heard'] for r in rows)}/{10 * len(rows)}",
             "no_count": sum(1 for r in rows if r["source"] != "cues"),
             "error_ms_median": statistics.median(errors) if errors else None,
             "error_ms_p95": float(np.percentile(errors, 95)) if errors else None,
             "error_ms_max": max(errors) if errors else None,
             "targets": f"{sum(r['targets_ok'] for r in rows)}/{10 * len(rows)}",
             "assumed_targets": f"{sum(r['assumed_targets_ok'] for r in rows)}/{10 * len(rows)}",
             "seconds": round(time.perf_counter() - start, 1)}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"total": total, "by": by, "nights": rows}, ensure_ascii=False, indent=1), encoding="utf-8")
    for key, groups in by.items():
        print(key, json.dumps(groups, ensure_ascii=False))
    for r in rows:
        if r["targets_ok"] < 10:
            print("  wrong:", {k: r[k] for k in ("pace", "music", "noise", "voice", "heard", "targets_ok")})
    print("total", json.dumps(total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
