"""Benchmark: `stopframe align` on the sample game with every time removed from its protocol.

    python3 bench/audio_align.py [--noise SNR_DB]

Uses the rendered sample game (sample_videos/game/sample_game.{mp4,protocol.json}) when it exists;
otherwise the sample game's script and voice (sample_videos.game, sample_videos.voice) mixed into
an audio-only MP4 with the windows back to back. The protocol's vote times are the truth; they are
stripped, `stopframe align` proposes them again, and the errors are reported per field, with how
many land within one frame (40 ms at 25 fps). With the rendered game and an audit engine present,
the audit is run on both protocols and the sets of finding identities compared (spec §4).
"""

from __future__ import annotations

import argparse
import copy
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from test_audio_synth import RATE, write_mp4  # noqa: E402

VOTE_TYPES = ("vote", "lift_vote")
FIELDS = ("t", "cutoff", "announced")
FRAME_S = 0.040


def script_game(folder: Path, snr: float | None) -> tuple[Path, Path, bool]:
    """An audio-only MP4 and the full-times protocol of the sample game's script."""
    from audio_cues import condition
    from scipy.signal import resample_poly

    from sample_videos import voice
    from sample_videos.game import Window, protocol, sample_game

    items = sample_game()
    parts, offsets, pos = [np.zeros(voice.AUDIO_RATE, np.float32)], {}, 1.0
    for i, w in enumerate(x for x in items if isinstance(x, Window)):
        parts.append(voice.mix(w.duration, w.cues, [(0.0, w.duration)] if w.night else [], seed=i))
        parts.append(np.zeros(voice.AUDIO_RATE, np.float32))
        offsets[w.name] = pos
        pos += w.duration + 1.0
    x = np.concatenate(parts)
    g = np.gcd(RATE, voice.AUDIO_RATE)
    x = resample_poly(x, RATE // g, voice.AUDIO_RATE // g).astype(np.float32)
    if snr is not None:
        x = condition(x, f"noise{snr:g}")
    mp4 = write_mp4(folder / "sample_script.mp4", x)
    proto = protocol(items, offsets, mp4.name, "sample-script")
    path = folder / "sample_script.protocol.json"
    path.write_text(json.dumps(proto, ensure_ascii=False, indent=1), encoding="utf-8")
    return mp4, path, False


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--noise", type=float, default=None, metavar="SNR_DB", help="add white noise (script game only)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rendered = ROOT / "sample_videos" / "game" / "sample_game.mp4"
        if rendered.exists() and args.noise is None:
            video, truth_path, is_rendered = rendered, rendered.with_name("sample_game.protocol.json"), True
        else:
            video, truth_path, is_rendered = script_game(folder, args.noise)
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
        paper = copy.deepcopy(truth)
        for e in paper["events"]:
            for k in ("t", "cutoff", "announced", "end"):
                e.pop(k, None)
        paper_path = folder / "paper.protocol.json"
        paper_path.write_text(json.dumps(paper, ensure_ascii=False), encoding="utf-8")
        out = folder / "aligned.protocol.json"
        run = subprocess.run(
            [sys.executable, "-m", "stopframe_cli", "align", str(video), "--protocol", str(paper_path), "--out", str(out)],
            cwd=ROOT, capture_output=True, text=True,
        )
        print(run.stderr.strip())
        if run.returncode:
            print(f"align failed: exit {run.returncode}")
            return 1
        aligned = json.loads(out.read_text(encoding="utf-8"))
        print(f"video: {video.name if not is_rendered else video.relative_to(ROOT)}"
              f"{'' if args.noise is None else f', white noise at {args.noise:g} dB SNR'}")
        pairs = [(a, b) for a, b in zip(truth["events"], aligned["events"], strict=True) if a["type"] in VOTE_TYPES]
        for name in FIELDS:
            errs = [abs(b[name] - a[name]) * 1000 for a, b in pairs if name in a and name in b]
            missing = sum(1 for a, b in pairs if name in a and name not in b)
            within = sum(e < FRAME_S * 1000 for e in errs)
            print(f"{name:9s}: {len(errs)}/{len(pairs)} proposed, within a frame {within}, "
                  f"error mean {np.mean(errs):.1f} ms, max {np.max(errs):.1f} ms, missing {missing}" if errs else f"{name}: none")
        for a, b in pairs:
            bad = {k: round(b.get(k, float('nan')) - a[k], 3) for k in FIELDS if k in a and abs(b.get(k, 1e9) - a[k]) >= FRAME_S}
            if bad:
                print(f"  off by a frame or more: {a['type']} day {a['day']} {a.get('candidate', a.get('candidates'))}: {bad}")
        if is_rendered:
            audit_compare(video, truth_path, out)
    return 0


def audit_compare(video: Path, truth_path: Path, aligned: Path) -> None:
    """Audit with the true and with the aligned times on the same observations; compare finding identities."""
    seats = video.with_name(video.stem + ".seats.json")
    obs = aligned.with_name("observations.json")
    run = subprocess.run(
        [sys.executable, "-m", "stopframe_cli", "observe", str(video), "--seats", str(seats), "--out", str(obs)],
        cwd=ROOT, capture_output=True, text=True,
    )
    if run.returncode:
        print(f"observe unavailable ({run.returncode}): {run.stderr.strip()[-300:]}")
        return
    results = []
    for proto in (truth_path, aligned):
        run = subprocess.run(
            [sys.executable, "-m", "stopframe_cli", "audit", str(video), "--protocol", str(proto), "--seats", str(seats),
             "--observations", str(obs), "--json"],
            cwd=ROOT, capture_output=True, text=True,
        )
        if run.returncode not in (0, 1):
            print(f"audit unavailable ({run.returncode}): {run.stderr.strip()[-300:]}")
            return
        report = json.loads(run.stdout)
        results.append({(f["kind"], f.get("day"), f.get("night"), f.get("round"), f.get("candidate"), f.get("seat"))
                        for f in report["findings"]})
    same = results[0] == results[1]
    print(f"audit: {len(results[0])} findings with true times, {len(results[1])} with aligned times, "
          f"{'the same set' if same else 'DIFFERENT: ' + str(sorted(results[0] ^ results[1], key=str))}")


if __name__ == "__main__":
    sys.exit(main())
