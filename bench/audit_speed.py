"""Speed of a whole-game audit: a long rendered game through `stopframe audit`, vision included.

    python3 bench/audit_speed.py [--minutes 60] [--game STEM] [--model full|lite] [--breakdown]

Renders (once, into sample_videos/out/long/) a game of `--minutes` with the sample-videos renderer —
hands only in the vote and night windows, a still scene between them — unless `--game STEM` names an
existing `STEM.mp4` + `STEM.protocol.json` + `STEM.seats.json`. Then it runs `stopframe audit` twice
in fresh processes: on every vote, and on a copy of the protocol whose second half of votes has no
times (so only half the windows are decoded) — same video length, half the windows — to show that the
time follows the vote windows, not the game's length. Reports wall time, × real time, time per vote
window, CPU time of the audit and its worker processes (vision shares the windows out over the cores,
vision.workers), and the peak resident memory of the largest of those processes. `--breakdown` also
watches the same windows in this process, one core, and says where vision's time goes.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from contract.jsonio import read_json, write_json  # noqa: E402
from review.game.timeline import analysis_windows, vote_rounds, vote_windows  # noqa: E402

OUT = ROOT / "bench" / "out" / "long"


def render(minutes: int) -> Path:
    """The renderer's long game in sample_videos/out/long/ (made once; the sample set it re-renders on
    the way goes to bench/out/long/set, never over the bundled one)."""
    stem = ROOT / "sample_videos" / "out" / "long" / "long_game"
    if not stem.with_suffix(".mp4").exists():
        cmd = [sys.executable, "-m", "sample_videos", "--out", str(OUT / "set"), "--no-stress", "--long-game", str(minutes)]
        print("rendering:", " ".join(cmd), file=sys.stderr)
        subprocess.run(cmd, check=True, cwd=ROOT)
    return stem


def video_duration(path: Path) -> float:
    import av

    with av.open(str(path)) as c:
        stream = c.streams.video[0]
        if stream.duration is not None:
            return float(stream.duration * stream.time_base)
        return float(c.duration / 1e6)


def half_timed(protocol: dict, path: Path) -> int:
    """Write a copy whose second half of vote events has no times; returns the rounds left timed."""
    data = json.loads(json.dumps(protocol))
    votes = [e for e in data["events"] if e.get("type") in ("vote", "lift_vote")]
    for ev in votes[len(votes) // 2:]:
        for k in ("t", "cutoff", "announced"):
            ev.pop(k, None)
    write_json(path, data)
    return sum(1 for r in vote_rounds(vote_windows(data)) if r.timed)


def timed_audit(video: Path, protocol: Path, seats: Path, model: str, out: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system: on a shared machine the steadier figure) and the
    peak RSS in MB of the audit process (the largest of the audit processes run so far)."""
    cmd = [sys.executable, "-m", "stopframe_cli", "audit", str(video), "--protocol", str(protocol),
           "--seats", str(seats), "--model", model, "--out", str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=ROOT)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=int, default=60)
    ap.add_argument("--game", type=Path, help="STEM of an existing game (STEM.mp4, STEM.protocol.json, STEM.seats.json)")
    ap.add_argument("--model", choices=("full", "lite"), default="full")
    ap.add_argument("--breakdown", action="store_true", help="also time vision's parts on one core")
    args = ap.parse_args()
    stem = args.game or render(args.minutes)
    video, protocol_path, seats = (Path(f"{stem}{ext}") for ext in (".mp4", ".protocol.json", ".seats.json"))
    protocol = read_json(protocol_path)
    duration = video_duration(video)
    rounds = vote_rounds(vote_windows(protocol))
    windows = sum(len(r.windows) for r in rounds if r.timed)
    span = sum(b - a for a, b in analysis_windows(rounds))
    OUT.mkdir(parents=True, exist_ok=True)

    rows = []
    wall, cpu, peak = timed_audit(video, protocol_path, seats, args.model, OUT / f"{stem.name}.audit.json")
    rows.append(("all votes", len([r for r in rounds if r.timed]), windows, span, wall, cpu, peak))
    half = OUT / f"{stem.name}.half.protocol.json"
    half_rounds = half_timed(protocol, half)
    hr = [r for r in vote_rounds(vote_windows(read_json(half))) if r.timed]
    wall2, cpu2, peak2 = timed_audit(video, half, seats, args.model, OUT / f"{stem.name}.half.audit.json")
    rows.append(("first half of the votes", half_rounds, sum(len(r.windows) for r in hr),
                 sum(b - a for a, b in analysis_windows(hr)), wall2, cpu2, peak2))

    report = read_json(OUT / f"{stem.name}.audit.json")
    from vision.workers import default_jobs

    print(f"\ngame: {video.name}, {duration / 60:.1f} min, {len(report['votes'])} votes, "
          f"{len(report['findings'])} findings, model {args.model}, up to {default_jobs()} vision processes\n")
    print("| audited | rounds | vote windows | video looked at (s) | wall (s) | CPU (s) | × real time (wall) "
          "| wall s per window | peak RSS (MB) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, nr, nw, sp, w, c, pk in rows:
        print(f"| {name} | {nr} | {nw} | {sp:.0f} | {w:.1f} | {c:.1f} | {duration / w:.0f}× | {w / max(nw, 1):.2f} | {pk:.0f} |")
    if args.breakdown:
        breakdown(video, seats, analysis_windows(rounds), args.model)
    return 0


def breakdown(video: Path, seats: Path, windows: list[tuple[float, float]], model: str) -> None:
    """Where vision's time goes on these windows, watched on one core (CPU seconds of each part)."""
    from contract.seats import load_seat_map
    from vision.observe import observe

    started = time.perf_counter()
    st = observe(video, load_seat_map(seats), windows, model=model, jobs=1).stats
    wall = time.perf_counter() - started
    parts = {"decode": st["decode_s"], "crop + gating": st["crop_s"], "detector (MediaPipe)": st["inference_s"],
             "second looks": st.get("second_look_s", 0.0)}
    print(f"\none core: {wall:.1f} s for {st['frames']} frames; {st['detector_runs']} detector runs, "
          f"{st['gated']} skipped by gating, {st.get('second_looks', 0)} second looks\n")
    print("| part | s | share |\n|---|---|---|")
    for name, sec in [*parts.items(), ("the rest (start-up, intervals, Python)", wall - sum(parts.values()))]:
        print(f"| {name} | {sec:.1f} | {sec / wall:.0%} |")


if __name__ == "__main__":
    sys.exit(main())
