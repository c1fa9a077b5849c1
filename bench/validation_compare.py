"""The product against the plain detector, on our own rendered clips and on footage we did not draw.

    python3 bench/validation_compare.py [--jobs N] [--only product|baseline] [--label NAME] [--before DIR]
                                        [--clips NAME ...] [--out DIR]

Two systems per clip, each writing `stopframe-observations/1` (and, for the product, a
`stopframe-audit/1` report):
- *product*: `stopframe observe` over the whole clip and `stopframe audit` (what a user runs);
- *baseline*: plain MediaPipe HandLandmarker on the product's own seat crops (vision.crops), IMAGE mode,
  default thresholds (0.5), a seat's hand present where a detected palm centre lies in its zone, gaps
  <= 3 frames closed, runs < 3 frames dropped, nothing else.
Clip sets: `ours` = sample_videos/clips (day, stress, top view) and the sample game's vote windows;
`validation` = the 18 day clips of ../shared/validation (read from there, nothing of them is kept in the
project). Both are scored by the validation scorers (../shared/validation/score_observe.py and
score_audit.py, called as programs) and by our own vision.scoring, and ONE markdown table is printed.
Outputs go under bench/out/validation_compare/LABEL/ (gitignored); a system's per-clip files are reused
when present, so a rerun after a vision change needs `--label` (a fresh folder) for the product only.
`--before DIR` adds the product columns of an earlier run (a LABEL folder, or run.sh's output folder for
the validation clips only).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from contract.seats import load_seat_map  # noqa: E402
from vision.crops import crop_for_zone  # noqa: E402
from vision.pose import classify  # noqa: E402
from vision.scoring import Score, score_intervals  # noqa: E402
from vision.video import open_video  # noqa: E402

VALIDATION = ROOT.parent / "shared" / "validation"
OURS = ROOT / "sample_videos" / "clips"
GAME = ROOT / "sample_videos" / "game" / "sample_game"
OUT = ROOT / "bench" / "out" / "validation_compare"
VARIED = ROOT / "bench" / "out" / "varied"
BASE_GAP, BASE_MIN_RUN = 3, 3  # the baseline's only smoothing
PALM_POINTS = [0, 5, 9, 13, 17]
CLEAN = {"va01", "va02", "va03", "va12", "va15", "va17"}
STOPFRAME = shlex.split(os.environ.get("STOPFRAME", "stopframe"))  # another checkout's CLI, for a before run


def clip_list(names: list[str] | None) -> list[tuple[str, str, Path]]:
    """(set, name, stem path) of every clip: our day clips, the sample game, the validation day clips."""
    clips = [("ours", p.name[:-11], p.with_name(p.name[:-11])) for p in sorted(OURS.glob("*.truth.json"))
             if not json.loads(p.read_text()).get("raised")]
    clips.append(("ours", "sample_game", GAME))
    if VALIDATION.exists():
        clips += [("validation", p.name[:-11], p.with_name(p.name[:-11]))
                  for p in sorted((VALIDATION / "clips").glob("*.truth.json")) if not json.loads(p.read_text()).get("raised")]
    return [c for c in clips if not names or c[1] in names]


def varied_clips(count: int) -> list[tuple[str, str, Path]]:
    """`--varied N`: the varied vote clips 1..N of sample_videos/varied.py as more of our clips, rendered into
    bench/out/varied where absent; names carry a digest of the renderer's sources, so a renderer change gets
    fresh renders and no system reuses results of the old ones."""
    import hashlib

    from sample_videos.varied import build_varied

    sources = sorted((ROOT / "sample_videos").glob("*.py"))
    prefix = f"varied_{hashlib.sha256(b''.join(p.read_bytes() for p in sources)).hexdigest()[:8]}_"
    stems = [VARIED / f"{prefix}{seed:03d}" for seed in range(1, count + 1)]
    for seed, stem in enumerate(stems, 1):
        if not Path(f"{stem}.seats.json").exists():  # the last file a render writes
            build_varied(VARIED, 1, seed, log=lambda m: print(m, file=sys.stderr), prefix=prefix)
    return [("ours", stem.name, stem) for stem in stems]


def vote_windows_of(stem: Path) -> list[tuple[float, float]] | None:
    """The audit's vote windows for the long sample game (None: watch the whole clip)."""
    if stem.name != "sample_game":
        return None
    from review.game.protocol import load_protocol
    from review.game.timeline import analysis_windows, vote_rounds, vote_windows

    return analysis_windows(vote_rounds(vote_windows(load_protocol(f"{stem}.protocol.json").data)))


def baseline_observe(stem: Path, windows: list[tuple[float, float]] | None) -> dict:
    """Plain HandLandmarker (IMAGE mode, default thresholds) on every seat crop of every frame."""
    from vision.backend import MediaPipeBackend

    backend = MediaPipeBackend("full", min_confidence=0.5)
    hands: list[dict] = []
    with open_video(f"{stem}.mp4") as video:
        meta = video.meta
        seat_map = load_seat_map(f"{stem}.seats.json").scaled_to(meta.width, meta.height)
        crops = {n: crop_for_zone(s.zone, seat_map.frame_size) for n, s in seat_map.seats.items()}
        for a, b in windows or [(0.0, meta.duration)]:
            seen: dict[int, list[tuple[int, float, str | None]]] = {n: [] for n in crops}
            for frame in video.iter_window(a, b):
                for n, crop in crops.items():
                    pose = None
                    for hand in backend.look(crop.cut(frame.image)):
                        points = crop.to_frame(hand.landmarks)
                        cx, cy = points[PALM_POINTS, :2].mean(axis=0)
                        if seat_map.seat_at(float(cx), float(cy)) == n:
                            pose = classify(points).pose
                            break
                    seen[n].append((frame.index, frame.t, pose))
            span = video.frames_in(a, b)
            end = (span.stop, video.time_of(span.stop) if span.stop < meta.frame_count else meta.duration)
            for n, frames in seen.items():
                hands += plain_runs(n, frames, end)
    backend.close()
    return {"format": "stopframe-observations/1", "video": f"{stem}.mp4", "fps": meta.fps,
            "hands": sorted(hands, key=lambda h: (h["on"], h["seat"]))}


def plain_runs(seat: int, frames: list[tuple[int, float, str | None]], end: tuple[int, float]) -> list[dict]:
    """Present frames -> [on, off) runs: gaps <= BASE_GAP closed, runs < BASE_MIN_RUN dropped, majority pose."""
    runs: list[list[tuple[int, float, str]]] = []
    for index, t, pose in frames:
        if pose is None:
            continue
        if runs and index - runs[-1][-1][0] - 1 <= BASE_GAP:
            runs[-1].append((index, t, pose))
        else:
            runs.append([(index, t, pose)])
    times = {i: t for i, t, _ in frames}
    out = []
    for run in runs:
        if run[-1][0] - run[0][0] + 1 < BASE_MIN_RUN:
            continue
        off = run[-1][0] + 1
        off_t = times.get(off, end[1] if off >= end[0] else run[-1][1])
        poses = [p for _, _, p in run]
        out.append({"seat": seat, "on": round(run[0][1], 4), "off": round(off_t, 4), "on_frame": run[0][0],
                    "off_frame": off, "pose": max(sorted(set(poses)), key=poses.count), "confidence": 1.0})
    return out


def run_clip(system: str, stem: Path, folder: Path) -> str:
    """Write one system's observations (and the product's audit) for one clip; skipped where present."""
    name = stem.name
    obs, report = folder / f"{name}.observe.json", folder / f"{name}.audit.json"
    windows = vote_windows_of(stem)
    if system == "baseline":
        if not obs.exists():
            obs.write_text(json.dumps(baseline_observe(stem, windows)))
        return name
    args = ["--seats", f"{stem}.seats.json"]
    if not obs.exists():
        if windows is None:
            subprocess.run([*STOPFRAME, "observe", f"{stem}.mp4", *args, "--out", str(obs)], check=True,
                           stderr=subprocess.DEVNULL)
        else:  # the long game: the audit's own observations are the vote windows' (written below)
            subprocess.run([*STOPFRAME, "audit", f"{stem}.mp4", "--protocol", f"{stem}.protocol.json", *args,
                            "--out", str(report)], check=True, stderr=subprocess.DEVNULL)
            observe_windows(stem, windows, obs, report)
    if not report.exists():
        subprocess.run([*STOPFRAME, "audit", f"{stem}.mp4", "--protocol", f"{stem}.protocol.json", *args,
                        "--out", str(report)], check=True, stderr=subprocess.DEVNULL)
    return name


def observe_windows(stem: Path, windows: list[tuple[float, float]], out: Path, report: Path) -> None:
    """The product's observations on the given windows only (what the audit looks at in a long game), by the same
    CLI: `stopframe observe` once per window, merged."""
    hands: list[dict] = []
    data: dict = {}
    for k, (a, b) in enumerate(windows):
        part = report.with_name(f"{stem.name}.w{k}.json")
        subprocess.run([*STOPFRAME, "observe", f"{stem}.mp4", "--seats", f"{stem}.seats.json", "--start", str(a),
                        "--end", str(b), "--out", str(part)], check=True, stderr=subprocess.DEVNULL)
        data = json.loads(part.read_text())
        hands += data["hands"]
        part.unlink()
    out.write_text(json.dumps(dict(data, hands=hands)))


def truth_for(stem: Path, windows: list[tuple[float, float]] | None, folder: Path) -> Path:
    """The clip's truth file, restricted to hands inside the watched windows where only windows were watched."""
    path = Path(f"{stem}.truth.json")
    if windows is None:
        return path
    truth = json.loads(path.read_text())
    truth["hands"] = [h for h in truth["hands"] if any(a <= h["on"] and h["off"] <= b for a, b in windows)]
    out = folder / f"{stem.name}.truth.json"
    out.write_text(json.dumps(truth))
    return out


@functools.cache
def validation_module(script: str) -> Any:
    """One of the validation set's scorers (score_observe.py, score_audit.py) as a module, loaded once: for its
    matching of hands or findings against the truth, clip by clip."""
    spec = importlib.util.spec_from_file_location(Path(script).stem, VALIDATION / script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def validation_scores(pairs: list[tuple[Path, Path]], script: str) -> tuple[str, str]:
    """The validation scorer's summary line over TRUTH PRED pairs (observe or audit) and its per-clip text."""
    cmd = [sys.executable, str(VALIDATION / script)] + [str(p) for pair in pairs for p in pair]
    text = subprocess.run(cmd, capture_output=True, text=True).stdout.strip()
    return (text.splitlines()[-1] if text else "n/a"), text


def own_score(pairs: list[tuple[Path, Path]]) -> Score:
    total = Score()
    for truth, pred in pairs:
        t = json.loads(truth.read_text())
        hands = json.loads(pred.read_text())["hands"] if pred.exists() else []
        total.add(score_intervals(t["hands"], hands, float(t.get("fps", 25))))
    return total


def summary(folder: Path, clips: list[tuple[str, str, Path]], which: str, audit: bool) -> dict[str, str]:
    """Figures of one system on one clip set, from its files in `folder` (empty when none are there)."""
    chosen = [(stem, folder / f"{name}.observe.json") for s, name, stem in clips if s == which]
    chosen = [(stem, p) for stem, p in chosen if p.exists()]
    if not chosen:
        return {}
    pairs = [(truth_for(stem, vote_windows_of(stem), folder), p) for stem, p in chosen]
    line, _ = validation_scores(pairs, "score_observe.py")
    figures = dict(re.findall(r"(recall|precision|onset_med) ([\d.]+f?)", line))
    own = own_score(pairs)
    onsets = [abs(e) for e in own.onset_errors()]
    figures.update({
        "own recall": f"{own.recall:.3f}", "own precision": f"{own.precision:.3f}",
        "onset ≤2f": f"{sum(e <= 2 for e in onsets) / max(1, len(onsets)):.3f}",
        "onset median |f|": f"{statistics.median(onsets):.1f}" if onsets else "n/a",
        "events": f"{len(own.matched)}+{len(own.missed)} truth, {len(own.phantoms)} phantom",
    })
    if audit:
        reports = [(Path(f"{stem}.truth.json"), folder / f"{stem.name}.audit.json") for stem, _ in chosen]
        reports = [(t, r) for t, r in reports if r.exists()]
        if reports:
            line, text = validation_scores(reports, "score_audit.py")
            figures.update({f"audit {k}": v for k, v in re.findall(r"(finding_recall|finding_precision|count_acc) ([\d.]+|n/a)", line)})
            clean = [ln for ln in text.splitlines() if ln.strip().split(":")[0] in CLEAN and " fp 0 " not in ln]
            figures["false on clean"] = str(sum(int(m) for ln in clean for m in re.findall(r" fp (\d+)", ln)))
    return figures


ROWS = ["recall", "precision", "onset_med", "own recall", "own precision", "onset ≤2f", "onset median |f|", "events",
        "audit finding_recall", "audit finding_precision", "audit count_acc", "false on clean"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", choices=["product", "baseline"])
    ap.add_argument("--label", default="now", help="the product run's folder name under bench/out/validation_compare")
    ap.add_argument("--before", type=Path, help="an earlier product folder to show beside this one")
    ap.add_argument("--clips", nargs="*", help="only these clip names")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--score-only", action="store_true", help="print the table from the files already written")
    ap.add_argument("--varied", type=int, default=0, metavar="N",
                    help="add N varied vote clips (sample_videos/varied.py, rendered into bench/out/varied) to ours")
    args = ap.parse_args()
    clips = clip_list(args.clips) + varied_clips(args.varied)
    folders = {"product": args.out / args.label, "baseline": args.out / "baseline"}
    if not args.score_only:
        systems = [args.only] if args.only else ["baseline", "product"]
        with ProcessPoolExecutor(args.jobs) as pool:
            jobs = []
            for system in systems:
                folders[system].mkdir(parents=True, exist_ok=True)
                jobs += [pool.submit(run_clip, system, stem, folders[system]) for _, _, stem in clips]
            for job in jobs:
                print("done", job.result(), file=sys.stderr)
    columns = [("product", args.label, folders["product"], True), ("baseline", "plain MediaPipe", folders["baseline"], False)]
    if args.before:
        columns.insert(0, ("product", f"before ({args.before.name})", args.before, True))
    table = {}
    for which in ("ours", "validation"):
        for _system, label, folder, audit in columns:
            table[(which, label)] = summary(folder, clips, which, audit)
    heads = [k for k in table if table[k]]
    print("| figure | " + " | ".join(f"{w}: {label}" for w, label in heads) + " |")
    print("|---|" + "---|" * len(heads))
    for row in ROWS:
        if any(row in table[h] for h in heads):
            print(f"| {row} | " + " | ".join(table[h].get(row, "—") for h in heads) + " |")


if __name__ == "__main__":
    main()
