"""What `stopframe draft` costs beside `stopframe audit` on a 60-minute game and on the sample game, one run.

    python3 bench/draft_cost.py [--minutes 60] [--dir /tmp/stopframe_bench] [--rebuild] [--only long|sample] [--untimed] [--thanks]

The long game is built once (and reused while its files are there) from the bundled sample game alone, in
`--dir` (never in the repository): the sample game's seven filmed windows (votes, nights) in their order,
each whole, and before each of its four days' windows the day's table talk, so that the game lasts
`--minutes`. The talk's picture is the sample game's own footage looped from its start (its packets copied
with shifted times: whole one-second GOPs, no re-encoding, the sample game's 1920x1080 and bit rate); its
sound is ten players' speeches per block (other espeak-ng voices than the judge's, 45–60 s each: most of the
minute the rules give), each opened by the judge's «Слово предоставляется игроку номер N» and closed by the
judge's «Спасибо», with a nomination in some, the block repeated. With `--thanks` the judge closes the votes with
«Спасибо» too (the sample game's «Стоп» replaced by it, at the same onsets): the closing word is then also said
after every speech. So the votes and every word around them are the sample game's, shifted in time, and the
protocol, the truth and the seat map are the sample game's with every time shifted with its window; the talk
holds no vote and no night music. The audio track is encoded once (AAC, the sample game's 22.05 kHz mono).

Then, per game (the long one and the sample game), in child processes measured with RUSAGE_CHILDREN (every
process of the command and its start-up): the whole `stopframe draft` of the game's partial protocol (the
timed votes taken out, as bench/draft_accuracy.py makes it, the seat map given) and the whole `stopframe
audit` of its full protocol, CPU seconds and wall seconds, the votes drafted right (draft_accuracy's scoring)
and the audit's findings against the truth's expected findings. With `--untimed`, also the whole `stopframe
align` of the full protocol with every time taken out (the judge's sheet, counts and all, as paper holds it):
what a judge with a paper sheet runs before `stopframe audit` can read a vote, listening to the whole track as
the draft does. Prints one markdown table.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import time
import wave
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from draft_accuracy import GAME, OUT, child_cpu, score_game  # noqa: E402

from sample_videos.writer import AUDIO_RATE, FPS, audio_stream  # noqa: E402

DEFAULT_DIR = Path("/tmp/stopframe_bench")
TIME_KEYS = ("t", "cutoff", "announced", "end", "on", "off", "up", "down", "fire")
JUDGE = ("ru", 50, 175)  # the sample videos' judge: espeak-ng voice, pitch, words a minute
PLAYERS = [("ru+m3", 35, 165), ("ru+f2", 70, 170), ("ru+m1", 45, 180), ("ru+f4", 80, 160), ("ru+m5", 30, 175)]
SPEECH = [
    "Доброе утро, стол. Я мирный житель, и сегодня я внимательно слушал всех.",
    "Мне не понравилось, как игрок номер четыре реагировал ночью, он слишком быстро опустил голову.",
    "Игрок номер семь говорил очень уверенно, но ничего не сказал по существу.",
    "Я думаю, что мафия сидит в первой половине стола, скорее всего это два и девять.",
    "Прошу всех подумать, кого мы выставляем, потому что ошибка сегодня может стоить нам игры.",
    "Я выставляю игрока номер девять. У меня всё.",
    "Шериф, если ты есть, покажи себя завтра, нам нужна твоя проверка.",
    "Я красный игрок и готов это доказать своим голосованием.",
    "Посмотрите на игрока номер три: он молчал весь круг и только кивал.",
    "Моя версия такова: дон сидит на месте семь, а его мафия рядом с ним.",
]


def speak(text: str, voice: tuple[str, int, int]) -> np.ndarray:
    """`text` said by espeak-ng in `voice` (variant, pitch, words a minute), mono float at AUDIO_RATE."""
    variant, pitch, wpm = voice
    out = subprocess.run(["espeak-ng", "-v", variant, "-p", str(pitch), "-s", str(wpm), "--stdout", text],
                         capture_output=True, check=True, timeout=60).stdout
    with wave.open(io.BytesIO(out)) as w:
        rate = w.getframerate()
        pcm = np.frombuffer(w.readframes(w.getnframes()), np.int16).astype(np.float32) / 32768.0
    if rate != AUDIO_RATE:
        pcm = np.interp(np.arange(0, len(pcm), rate / AUDIO_RATE), np.arange(len(pcm)), pcm).astype(np.float32)
    loud = np.nonzero(np.abs(pcm) > 0.02 * max(float(np.abs(pcm).max()), 1e-6))[0]
    return pcm[loud[0]: loud[-1] + 1] if len(loud) else pcm


def talk_block() -> np.ndarray:
    """One round of the day's talk: each of ten seats given the word by the judge, speaking for most of the minute
    the rules give (rfm 4.3: sentences, a pause between them, until 45–60 s), thanked by the judge; ten minutes."""
    parts: list[np.ndarray] = []

    def pause(s: float) -> None:
        parts.append(np.zeros(int(s * AUDIO_RATE), np.float32))

    numbers = ["один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять", "десять"]
    for seat in range(10):
        parts.append(0.6 * speak(f"Слово предоставляется игроку номер {numbers[seat]}.", JUDGE))
        pause(1.2)
        spoken, k = 0.0, 0
        while spoken < 45.0 + 5.0 * (seat % 4):
            said = 0.5 * speak(SPEECH[(seat * 3 + k) % len(SPEECH)], PLAYERS[seat % len(PLAYERS)])
            parts.append(said)
            pause(0.5 + 0.3 * (k % 3))
            spoken += len(said) / AUDIO_RATE + 0.5 + 0.3 * (k % 3)
            k += 1
        pause(0.9)
        parts.append(0.6 * speak("Спасибо.", JUDGE))
        pause(1.5)
    return np.concatenate(parts)


def closed_with(samples: np.ndarray, truth: dict[str, Any], word: np.ndarray) -> np.ndarray:
    """A copy of the sample game's sound with every «Стоп» (the truth's stop cues) replaced by `word`, as loud and
    starting at the same sample, so the protocol's cut-offs stay right."""
    out = samples.copy()
    span = int(0.8 * AUDIO_RATE)  # «Стоп» and the pause before the count, which follows 0.85 s after it
    for cue in truth["x_cues"]:
        if cue["kind"] == "stop":
            at = int(round(cue["t"] * AUDIO_RATE))
            gain = float(np.abs(out[at:at + span]).max()) / max(float(np.abs(word).max()), 1e-6)
            out[at:at + span] = 0.0
            out[at:at + min(span, len(word))] = word[:span] * gain
    return out


def shifted(value: Any, shift_of) -> Any:
    """A copy of a protocol or truth with every time field moved by its window's shift (`shift_of(t)`)."""
    if isinstance(value, list):
        return [shifted(v, shift_of) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: shifted(v, shift_of) for k, v in value.items()}
    times = [v for k, v in value.items() if k in TIME_KEYS and isinstance(v, int | float) and not isinstance(v, bool)]
    if times:
        move = shift_of(min(times))
        for k in TIME_KEYS:
            if isinstance(out.get(k), int | float) and not isinstance(out.get(k), bool):
                out[k] = round(out[k] + move, 3)
    return out


def build_long_game(folder: Path, minutes: float, stem: Path = GAME, thanks: bool = False) -> Path:
    """The sample game stretched to `minutes` with the day's talk before each day's window (see the module
    doc); returns the long game's stem (NAME.mp4, .protocol.json, .seats.json, .truth.json beside it). With
    `thanks` the judge closes each vote with «Спасибо», the word he thanks every speaker with, said where the
    sample game's judge says «Стоп» (mafclub's closing word)."""
    import av

    from vision.audio import read_audio

    folder.mkdir(parents=True, exist_ok=True)
    name = f"{stem.name}_{minutes:g}min" + ("_thanks" if thanks else "")
    out = folder / name
    truth = json.loads(stem.with_suffix(".truth.json").read_text(encoding="utf-8"))
    protocol = json.loads(stem.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    windows = truth["x_windows"]
    shown = windows[-1]["end"]
    days = [i for i, w in enumerate(windows) if w["name"].startswith("day")]
    talk_s = int(minutes * 60 - shown) // len(days)  # whole seconds: the talk is whole GOPs of the game
    layout: list[tuple[str, int, int]] = []  # (what, first source second, seconds) in the long game's order
    shifts: list[tuple[float, float, float]] = []  # (window start, end, shift) on the sample game's clock
    clock = 0
    for i, w in enumerate(windows):
        if i in days:
            layout.append(("talk", clock % int(shown), talk_s))
            clock += talk_s
        shifts.append((w["start"], w["end"], clock - w["start"]))
        layout.append(("window", int(w["start"]), int(w["end"] - w["start"])))
        clock += int(w["end"] - w["start"])

    def shift_of(t: float) -> float:
        return next((s for a, b, s in shifts if a <= t < b), shifts[-1][2])

    # the sound: the windows' own, the talk between them
    game = read_audio(stem.with_suffix(".mp4"), rate=AUDIO_RATE)
    if thanks:
        game = replace(game, samples=closed_with(game.samples, truth, speak("Спасибо.", JUDGE)))
    block = talk_block()
    total = sum(seconds for _, _, seconds in layout)
    track = np.zeros(total * AUDIO_RATE, np.float32)
    pos = 0
    for what, first, seconds in layout:
        n = seconds * AUDIO_RATE
        if what == "talk":
            track[pos:pos + n] = np.tile(block, -(-n // len(block)))[:n]
        else:
            piece = game.segment(first, first + seconds).samples[:n]
            track[pos:pos + len(piece)] = piece
        pos += n
    # the picture: the sample game's one-second GOPs, copied with shifted times; the sound encoded beside each
    # second (interleaved, as a camera writes its file)
    video = out.with_suffix(".mp4")
    with av.open(str(stem.with_suffix(".mp4"))) as src, av.open(str(video), "w") as dst:
        vsrc = src.streams.video[0]
        gops: list[list[Any]] = []
        for p in src.demux(vsrc):
            if not p.size:
                continue
            if p.is_keyframe or not gops:
                gops.append([])
            gops[-1].append(p)
        if {len(g) for g in gops} != {FPS}:
            raise SystemExit(f"{stem}: not one-second GOPs ({ {len(g) for g in gops} } frames per GOP)")
        second = int(round(1 / vsrc.time_base))  # ticks per second
        vout = dst.add_stream_from_template(vsrc)
        aout = audio_stream(dst)
        k, said = 0, 0
        for what, first, seconds in layout:
            for j in range(seconds):
                s = (first + j) % len(gops) if what == "talk" else first + j
                for p in gops[s]:
                    pts, dts = p.pts, p.dts
                    p.pts, p.dts = pts + (k - s) * second, dts + (k - s) * second
                    p.stream = vout
                    dst.mux(p)
                    p.pts, p.dts = pts, dts
                k += 1
                while said < min(len(track), k * AUDIO_RATE):
                    frame = av.AudioFrame.from_ndarray(track[None, said:said + 1024], format="fltp", layout="mono")
                    frame.sample_rate, frame.pts, frame.time_base = AUDIO_RATE, said, Fraction(1, AUDIO_RATE)
                    for packet in aout.encode(frame):
                        dst.mux(packet)
                    said += 1024
        for packet in aout.encode():
            dst.mux(packet)
    offset = float((protocol.get("video") or {}).get("offset_s") or 0.0)
    long_protocol = shifted(protocol, lambda t: shift_of(t + offset))
    long_protocol["video"] = {**protocol.get("video", {}), "path": video.name}
    long_protocol["game"] = {**protocol.get("game", {}), "id": f"{protocol['game']['id']}/{minutes:g}min"}
    long_truth = shifted(truth, shift_of)
    long_truth["x_windows"] = [{**w, "start": w["start"] + s, "end": w["end"] + s}
                               for w, (_, _, s) in zip(windows, shifts, strict=True)]
    out.with_suffix(".protocol.json").write_text(json.dumps(long_protocol, ensure_ascii=False, indent=1), encoding="utf-8")
    out.with_suffix(".truth.json").write_text(json.dumps(long_truth, ensure_ascii=False, indent=1), encoding="utf-8")
    out.with_suffix(".seats.json").write_text(stem.with_suffix(".seats.json").read_text(encoding="utf-8"), encoding="utf-8")
    return out


def findings_right(stem: Path, found: list[dict[str, Any]] | None) -> str:
    """The audit's day findings against the truth's expected findings: found/expected, and extra ones."""
    if found is None:
        return "-"
    truth = json.loads(stem.with_suffix(".truth.json").read_text(encoding="utf-8"))
    key = ("kind", "seat", "day", "round", "candidate")
    expected = {tuple(f.get(k) for k in key) for f in truth.get("expected_findings", []) if f.get("day") is not None}
    got = {tuple(f.get(k) for k in key) for f in found if f.get("day") is not None}
    return f"{len(expected & got)}/{len(expected)} (+{len(got - expected)})"


def align_cpu(stem: Path) -> float | None:
    """CPU seconds of `stopframe align` on the game's full protocol with no time on any event (None if it fails)."""
    protocol = json.loads(stem.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    sheet = {**protocol, "events": [{k: v for k, v in e.items() if k not in TIME_KEYS} for e in protocol["events"]]}
    folder = OUT / stem.name
    folder.mkdir(parents=True, exist_ok=True)
    path, out = folder / f"{stem.name}.sheet.json", folder / f"{stem.name}.aligned.json"
    path.write_text(json.dumps(sheet, ensure_ascii=False), encoding="utf-8")
    out.unlink(missing_ok=True)
    code, cpu, _, err = child_cpu([sys.executable, "-m", "stopframe_cli", "align", str(stem.with_suffix(".mp4")),
                                   "--protocol", str(path), "--out", str(out)])
    if code != 0:
        print(err, file=sys.stderr)
        return None
    return cpu


def _one(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=60.0)
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="where the long game is built (not the repository)")
    ap.add_argument("--rebuild", action="store_true", help="build the long game again even where it is there")
    ap.add_argument("--only", choices=("long", "sample"), help="measure one game only")
    ap.add_argument("--build-only", action="store_true", help="build the long game and stop")
    ap.add_argument("--thanks", action="store_true",
                    help="the long game's judge closes votes with «Спасибо», the word he thanks each speaker with")
    ap.add_argument("--untimed", action="store_true",
                    help="the PARTIAL as a paper sheet holds it: no time on any event (the whole track is listened to)")
    args = ap.parse_args()
    stem = args.dir / (f"{GAME.name}_{args.minutes:g}min" + ("_thanks" if args.thanks else ""))
    if args.rebuild or not all(stem.with_suffix(s).exists() for s in (".mp4", ".protocol.json", ".seats.json", ".truth.json")):
        code, cpu, wall, err = child_cpu([sys.executable, "-c", "import sys; sys.path[:0] = ['bench', '.']; "
                                          f"import draft_cost as d; d.build_long_game(d.Path({str(args.dir)!r}), "
                                          f"{args.minutes!r}, thanks={args.thanks!r})"])
        if code != 0:
            print(err, file=sys.stderr)
            return code
        size = stem.with_suffix(".mp4").stat().st_size / 2**20
        print(f"built {stem}.mp4: {size:.0f} MB in {wall:.1f} s wall, {cpu:.1f} CPU s")
    if args.build_only:
        return 0
    games = {"long": stem, "sample": GAME}
    rows = []
    for label, s in games.items():
        if args.only and args.only != label:
            continue
        row = score_game(s, "full", True, False, args.untimed)
        if args.untimed:
            row["align_cpu"] = align_cpu(s)
        row["findings"] = findings_right(s, row.get("audit_findings"))
        row["minutes"] = json.loads(s.with_suffix(".truth.json").read_text(encoding="utf-8"))["x_windows"][-1]["end"] / 60
        rows.append(row)
    print("| game | minutes | votes right | draft CPU s | draft wall s | audit CPU s | audit wall s | draft/audit CPU "
          "| audit's day findings | align of the sheet CPU s | draft/(align+audit) CPU |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if "error" in r:
            print(f"| {r['game']} | {r['minutes']:.1f} | error: {r['error']} | {r['draft_cpu']:.1f} | | | | |")
            continue
        a = r.get("audit_cpu")
        ratio = f"{r['draft_cpu'] / a:.2f}" if a else "-"
        print(f"| {r['game']} | {r['minutes']:.1f} | {r['right']}/{r['votes']} | {r['draft_cpu']:.1f} | "
              f"{r['draft_wall']:.1f} | {a if a is None else round(a, 1)} | {r['audit_wall']:.1f} | {ratio} "
              f"| {r['findings']} | {_one(r.get('align_cpu'))} | "
              f"{_one(a and r.get('align_cpu') and r['draft_cpu'] / (a + r['align_cpu']), 2)} |")
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"\nload average at the end: {' '.join(load)}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
