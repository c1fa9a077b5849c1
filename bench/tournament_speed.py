"""Speed of a whole tournament through `stopframe tournament`: both engines, the resumed run, Ray's overhead,
and on paper the cluster that audits a 40-game day in ten minutes.

    python3 bench/tournament_speed.py [--jobs 2] [--games N] [--skip-ray] [--out bench/out/tournament]

The tournament is made of the renderer's own games (sample_videos: the bundled sample game and the day, stress
and top-view clips, each a rendered game; `python3 -m sample_videos` re-renders them), each with a judge and a
table in its protocol (four judges, three tables), and three broken games (a cut-off video, a protocol that is
no JSON, a seat map whose zones leave the picture). It runs, in fresh processes: `--engine local`, `--engine ray`
(a local Ray with `--jobs` CPUs) into another folder, then `--engine local` again over the first folder (the
resumed run: nothing to redo). It checks that both engines gave every game the same findings, and measures
Ray's own cost: its start, and per task the round trip of an audit-sized result through a no-op remote task.

Per-game audit time comes from the games' done files (one core each); a 60-90-minute game's audit follows its
vote windows, not its length (bench/audit_speed.py), and the sample game holds a whole game's votes (13 vote
windows over four days), so the cluster estimate scales its one-core time by 1.5 for a 90-minute game.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from contract.jsonio import write_json  # noqa: E402
from review.game.timeline import analysis_windows, vote_rounds, vote_windows  # noqa: E402

CLIPS = ROOT / "sample_videos" / "clips"
GAME = ROOT / "sample_videos" / "game" / "sample_game"
JUDGES = ("Ivanov", "Petrova", "Sidorov", "Kuznetsova")
DAY_SECONDS = 600
DAY_GAMES = 40
LONG_GAME_FACTOR = 1.5  # a 90-minute game against the sample game's votes (see the module's docstring)


def stems() -> list[Path]:
    """The rendered games with votes: the sample game, then every one-camera day, stress and top-view clip."""
    clips = sorted(p.with_name(p.name[: -len(".protocol.json")]) for p in CLIPS.glob("*.protocol.json")
                   if not json.loads(p.read_text()).get("videos"))  # one camera each (a two-camera clip is another bench's)
    return [GAME, *(c for c in clips if not c.name.startswith("night"))]


def build(folder: Path, count: int | None) -> list[str]:
    """The tournament folder: the games (video linked, not copied), a judge and table each, three broken games."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    names = []
    for i, stem in enumerate(stems()[:count]):
        name = f"t{i % 3 + 1}-g{i // 3 + 1:02d}"
        data = json.loads(stem.with_name(stem.name + ".protocol.json").read_text())
        data["game"] = {**(data.get("game") or {}), "id": name, "table": str(i % 3 + 1), "judge": JUDGES[i % len(JUDGES)],
                        "tournament": "bench cup"}
        data["video"] = {**(data.get("video") or {}), "path": f"{name}.mp4"}
        (folder / f"{name}.protocol.json").write_text(json.dumps(data, ensure_ascii=False))
        shutil.copy(stem.with_name(stem.name + ".seats.json"), folder / f"{name}.seats.json")
        os.symlink(stem.with_name(stem.name + ".mp4"), folder / f"{name}.mp4")
        names.append(name)
    src = stems()[1]
    proto = json.loads(src.with_name(src.name + ".protocol.json").read_text())
    seats = json.loads(src.with_name(src.name + ".seats.json").read_text())
    broken = {"x-cut-video": "video", "x-bad-protocol": "protocol", "x-bad-seats": "seats"}
    for name, what in broken.items():
        proto["game"] = {"id": name, "table": "9", "judge": JUDGES[0]}
        (folder / f"{name}.protocol.json").write_text(json.dumps(proto) if what != "protocol" else '{"format": "stopframe-')
        bad_seats = json.loads(json.dumps(seats))
        if what == "seats":
            first = bad_seats["seats"]["1"]
            first["zone"] = [[x + 10_000, y] for x, y in first["zone"]]  # out of the picture
        (folder / f"{name}.seats.json").write_text(json.dumps(bad_seats))
        video = src.with_name(src.name + ".mp4").read_bytes()
        (folder / f"{name}.mp4").write_bytes(video[: len(video) // 20] if what == "video" else video)
    return names


PACKAGES = ("contract", "review", "vision", "pipeline", "stopframe_cli")


def snapshot(where: Path) -> Path:
    """The committed code (git HEAD) in a folder of its own: the code version is part of every game's fingerprint,
    and the working tree may change while the bench runs; this way all three runs audit with the same code."""
    if where.exists():
        shutil.rmtree(where)
    where.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "HEAD", *PACKAGES], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    return where


def run(folder: Path, out: Path, engine: str, jobs: int, code: Path) -> tuple[float, str]:
    cmd = [sys.executable, "-m", "stopframe_cli", "tournament", str(folder), "--out", str(out), "--engine", engine,
           "--jobs", str(jobs)]
    print("running:", " ".join(cmd), file=sys.stderr, flush=True)
    env = {**os.environ, "STOPFRAME_DATA": str(out / "data"), "PYTHONPATH": str(code)}
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=code, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    sys.stderr.write(proc.stderr[-3000:])
    if proc.returncode not in (0, 1):
        raise SystemExit(f"the tournament run stopped with exit status {proc.returncode}")
    return wall, proc.stderr


def findings(out: Path) -> dict[str, list]:
    t = json.loads((out / "tournament.json").read_text())
    return {g["id"]: json.loads((out / g["audit"]).read_text())["findings"] for g in t["games"] if g["audit"]}


def ray_task_overhead(jobs: int, audit: Path, tasks: int = 200) -> dict[str, float]:
    """Ray's own cost: its start, and per task the round trip of an audit-sized result (no work in the task)."""
    import ray

    start = time.perf_counter()
    ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    started = time.perf_counter() - start
    result = json.loads(audit.read_text())

    @ray.remote(num_cpus=1)
    def echo(x: dict) -> dict:
        return x

    ray.get(echo.remote(result))  # workers warm
    t0 = time.perf_counter()
    ray.get([echo.remote(result) for _ in range(tasks)])
    per_task = (time.perf_counter() - t0) / tasks
    ray.shutdown()
    return {"start_s": round(started, 2), "per_task_ms": round(per_task * 1000, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--games", type=int, default=None, help="only the first N good games (default all)")
    ap.add_argument("--skip-ray", action="store_true")
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "tournament"))
    args = ap.parse_args()
    base = Path(args.out)
    folder = base / "day"
    names = build(folder, args.games)
    games = len(names) + 3
    spans = {}
    for n in names:
        data = json.loads((folder / f"{n}.protocol.json").read_text())
        spans[n] = sum(b - a for a, b in analysis_windows(vote_rounds(vote_windows(data))))
    figures: dict[str, object] = {"games": games, "good_games": len(names), "broken_games": 3, "jobs": args.jobs,
                                  "vote_window_seconds": round(sum(spans.values()), 1)}
    for d in ("local", "ray"):
        shutil.rmtree(base / d, ignore_errors=True)
    code = snapshot(base / "code")
    local_wall, _ = run(folder, base / "local", "local", args.jobs, code)
    resumed_wall, _ = run(folder, base / "local", "local", args.jobs, code)
    t = json.loads((base / "local" / "tournament.json").read_text())
    assert t["totals"]["reused"] == len(names) and t["totals"]["failed"] == 3, t["totals"]
    done = {n: json.loads((base / "local" / "games" / f"{n}.done.json").read_text()) for n in names}
    core_s = sum(d["seconds"] for d in done.values())
    cpu_s = sum(d["cpu_seconds"] for d in done.values())
    sample = done[names[0]]["cpu_seconds"]  # the sample game: a whole game's votes, in CPU seconds of one core
    figures.update({
        "local_wall_s": round(local_wall, 1), "local_games_per_hour": round(games * 3600 / local_wall, 1),
        "local_good_games_per_hour": round(len(names) * 3600 / local_wall, 1),
        "resumed_wall_s": round(resumed_wall, 1),
        "worker_seconds_total": round(core_s, 1),
        "worker_cpu_seconds_total": round(cpu_s, 1),
        "worker_cpu_seconds_per_window_second": round(cpu_s / sum(spans.values()), 2),
        "sample_game_worker_wall_s": done[names[0]]["seconds"], "sample_game_worker_cpu_s": sample,
    })
    if not args.skip_ray:
        ray_wall, err = run(folder, base / "ray", "ray", args.jobs, code)
        started = float(re.search(r"Ray started in ([\d.]+) s", err).group(1))
        same = findings(base / "local") == findings(base / "ray")
        overhead = ray_task_overhead(args.jobs, base / "local" / "games" / f"{names[0]}.audit.json")
        figures.update({
            "ray_wall_s": round(ray_wall, 1), "ray_games_per_hour": round(games * 3600 / ray_wall, 1),
            "ray_start_s": started, "ray_noop_start_s": overhead["start_s"], "ray_per_task_ms": overhead["per_task_ms"],
            "ray_overhead_per_game_s": round((ray_wall - started - local_wall) / games, 2),
            "same_findings_both_engines": same,
        })
    per_game_core = sample * LONG_GAME_FACTOR
    budget = DAY_SECONDS - float(figures.get("ray_start_s", 0.0) or 0.0)
    cores = math.ceil(DAY_GAMES * per_game_core / budget)
    figures.update({"cluster_day_core_s_per_game": round(per_game_core, 1), "cluster_cores_for_40_games_in_10_min": cores,
                    "cluster_2_core_machines": math.ceil(cores / 2)})
    write_json(base / "figures.json", figures)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
