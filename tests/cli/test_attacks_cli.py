"""Attacks on a judge's files through the real command line: an output named after an input (by its name, a
link or a hard link), a device or a pipe given as a file, a zone of a million points. Each ends in exit 1 or 2
and one sentence within seconds, and every input is byte-identical afterwards (sha256 before and after)."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import pytest
from badinput import make_corpus as corpus
from clirun import run_cli

from pipeline.tournament import read_progress


def digests(*paths: Path) -> dict[Path, str]:
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def one_sentence(err: str, *names: object) -> str:
    lines = [line for line in err.splitlines() if line.startswith("stopframe:")]
    assert len(lines) == 1, err
    for name in names:
        assert str(name) in lines[0], lines[0]
    assert lines[0].endswith("."), lines[0]
    return lines[0]


@pytest.fixture
def game(tmp_path: Path) -> dict[str, Path]:
    protocol = corpus.game_copy(tmp_path / "game")
    folder = protocol.parent
    return {"protocol": protocol, "seats": folder / "game.seats.json", "observations": folder / "game.observations.json"}


def _audit(game: dict[str, Path], *extra: object) -> list[object]:
    return ["audit", "--protocol", game["protocol"], "--seats", game["seats"], "--observations", game["observations"],
            *extra]


@pytest.mark.parametrize("target", ["protocol", "seats", "observations"])
@pytest.mark.parametrize("how", ["name", "symlink", "hardlink", "dotdot"])
def test_audit_out_never_lands_on_an_input(capsys, tmp_path: Path, game: dict[str, Path], target: str, how: str) -> None:
    before = digests(*game.values())
    victim = game[target]
    out = {"name": lambda: victim,
           "symlink": lambda: (tmp_path / "link.json").symlink_to(victim) or tmp_path / "link.json",
           "hardlink": lambda: os.link(victim, tmp_path / "hard.json") or tmp_path / "hard.json",
           "dotdot": lambda: victim.parent / ".." / victim.parent.name / victim.name}[how]()
    code, _, err = run_cli(capsys, *_audit(game, "--out", out))
    assert code == 2
    one_sentence(err, out, "never overwrites")
    assert digests(*game.values()) == before


def test_correct_out_never_lands_on_the_audit(capsys, tmp_path: Path, game: dict[str, Path]) -> None:
    audit = tmp_path / "game.audit.json"
    assert run_cli(capsys, *_audit(game, "--out", audit))[0] == 0
    before = digests(audit, *game.values())
    code, _, err = run_cli(capsys, "correct", game["protocol"], "--audit", audit, "--confirm-all", "--out", audit)
    assert code == 2
    one_sentence(err, audit, "audit report")
    assert digests(audit, *game.values()) == before


def test_import_out_never_lands_on_its_source(capsys, tmp_path: Path) -> None:
    source = tmp_path / "game.polemica.json"
    source.write_bytes(next(corpus.IMPORTS.glob("*polemica*.json")).read_bytes())
    before = digests(source)
    code, _, err = run_cli(capsys, "import", "polemica", source, "--out", source)
    assert code == 2
    one_sentence(err, source, "never overwrites")
    assert digests(source) == before


def test_an_output_beside_the_protocol_named_as_the_games_video_is_refused(capsys, game: dict[str, Path]) -> None:
    """The game's own files are inputs too, named or not: NAME.mp4 beside NAME.protocol.json."""
    video = game["protocol"].with_name("game.mp4")
    video.write_bytes(b"the judge's only copy of the video")
    before = digests(video)
    code, _, err = run_cli(capsys, *_audit(game, "--out", video))
    assert code == 2
    one_sentence(err, video, "video")
    assert digests(video) == before


@pytest.mark.parametrize("kind", ["device", "fifo", "folder"])
def test_out_onto_a_device_a_pipe_or_a_folder_is_refused(capsys, tmp_path: Path, game: dict[str, Path], kind: str) -> None:
    out = {"device": lambda: Path(os.devnull), "fifo": lambda: corpus.fifo(tmp_path / "pipe.json"),
           "folder": lambda: tmp_path}[kind]()
    start = time.monotonic()
    code, _, err = run_cli(capsys, *_audit(game, "--out", out))
    assert code == 2 and time.monotonic() - start < 10
    one_sentence(err, out)


@pytest.mark.parametrize("maker", [corpus.zero_device_link, corpus.fifo])
@pytest.mark.parametrize("which", ["protocol", "seats", "observations"])
def test_a_device_or_pipe_as_an_input_is_refused_before_it_is_opened(capsys, game: dict[str, Path], maker, which: str) -> None:
    path = game[which]
    path.unlink()
    maker(path)
    start = time.monotonic()
    code, _, err = run_cli(capsys, *_audit(game))
    assert code == 2 and time.monotonic() - start < 10
    one_sentence(err, path, "not a regular file")


def test_a_million_point_zone_is_refused_in_seconds(capsys, game: dict[str, Path]) -> None:
    corpus.million_point_zone(game["seats"])
    start = time.monotonic()
    code, _, err = run_cli(capsys, *_audit(game))
    assert code == 1 and time.monotonic() - start < 20
    one_sentence(err, game["seats"], "1000000 points", "1000")


def test_a_tournament_never_writes_into_the_folder_it_reads(capsys, tmp_path: Path) -> None:
    """--out whose games/ is the folder of games: a Polemica original there would be overwritten by its
    converted protocol."""
    out = tmp_path / "t"
    games = out / "games"
    protocol = corpus.game_copy(games)
    source = games / "club.polemica.json"
    source.write_bytes(next(corpus.IMPORTS.glob("*polemica*.json")).read_bytes())
    before = digests(*games.iterdir())
    code, _, err = run_cli(capsys, "tournament", games, "--out", out, "--reuse-observations")
    assert code == 2
    one_sentence(err, out, games)
    assert digests(*games.iterdir()) == before and not (out / "tournament.json").exists()
    assert protocol.exists()


def test_a_tournament_game_whose_video_is_a_pipe_fails_alone(capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("STOPFRAME_DATA", str(tmp_path / "data"))
    folder = tmp_path / "day"
    corpus.game_copy(folder, "good")
    corpus.game_copy(folder, "piped")
    (folder / "piped.observations.json").unlink()
    corpus.fifo(folder / "piped.mp4")
    start = time.monotonic()
    code, _, _ = run_cli(capsys, "tournament", folder, "--out", tmp_path / "out", "--reuse-observations", "--jobs", "1")
    assert time.monotonic() - start < 60 and code == 1
    report = json.loads((tmp_path / "out" / "tournament.json").read_text())
    status = {g["id"]: (g["status"], g.get("error") or "") for g in report["games"]}
    assert status["piped"][0] == "failed" and "not a regular file" in status["piped"][1]
    assert status["good"][0] == "audited"


def test_a_killed_runs_progress_reads_as_stopped(tmp_path: Path) -> None:
    """progress.json left saying "running" by a process that is gone reads as stopped."""
    import socket
    import subprocess

    child = subprocess.Popen(["true"])
    child.wait()
    (tmp_path / "progress.json").write_text(json.dumps({"format": "stopframe-tournament-progress/1", "running": True,
                                                        "pid": child.pid, "host": socket.gethostname()}))
    progress = read_progress(tmp_path)
    assert progress is not None and progress["running"] is False and "gone" in progress["stopped"]
    (tmp_path / "progress.json").write_text(json.dumps({"running": True, "pid": os.getpid(), "host": socket.gethostname()}))
    assert read_progress(tmp_path)["running"] is True


def test_the_tournament_csv_holds_no_formula_whatever_the_separator(capsys, tmp_path: Path, monkeypatch) -> None:
    """Russian-locale Excel splits on ";": a judge named `x;=cmd|…` must not give a cell starting with "="."""
    import csv
    import io

    monkeypatch.setenv("STOPFRAME_DATA", str(tmp_path / "data"))
    protocol = corpus.game_copy(tmp_path / "day")
    data = json.loads(protocol.read_text())
    data["game"] = {**(data.get("game") or {}), "judge": "x;=cmd|' /C calc'!A0", "table": "1,+1\t@SUM(A1)\x07"}
    protocol.write_text(json.dumps(data))
    assert run_cli(capsys, "tournament", protocol.parent, "--out", tmp_path / "out", "--reuse-observations")[0] == 0
    text = (tmp_path / "out" / "tournament.csv").read_text(encoding="utf-8-sig")
    assert "\x07" not in text
    for separator in (",", ";", "\t"):
        for row in csv.reader(io.StringIO(text), delimiter=separator):
            for field in row:
                assert not field.lstrip(" ").startswith(("=", "+", "-", "@")), (separator, field)


def test_the_rest_rule_is_linear_in_a_runs_frames() -> None:
    """A long run at a high frame rate (an hour at 60 fps) once built an n×n array (gigabytes, then a crash)."""
    from vision.intervals import Sighting, settled_from

    seen = [Sighting(i, i / 60, True, x=100.0 + (i % 50), y=80.0, palm=20.0) for i in range(216_000)]
    start = time.monotonic()
    settled_from(seen)
    assert time.monotonic() - start < 10


POOLS = {  # a tournament's pool of games, and a game's pool of vision windows: each child prints its pid, then waits
    "games": ("from concurrent.futures import ProcessPoolExecutor\n"
              "from contract.processes import die_with_parent\n"
              "pool = ProcessPoolExecutor(2, initializer=die_with_parent, initargs=(os.getpid(),))\n"
              "print(pool.submit(os.getpid).result(), flush=True)\n"
              "pool.submit(time.sleep, 120)\n"
              "time.sleep(120)\n"),
    "vision windows": ("from vision.workers import run_parallel\n"
                       "def nap(group):\n"
                       "    print(os.getpid(), flush=True)\n"
                       "    time.sleep(120)\n"
                       "run_parallel(nap, [1, 2], (), None)\n"),
}


@pytest.mark.parametrize("pool", sorted(POOLS))
def test_pool_workers_die_with_a_killed_run(tmp_path: Path, pool: str) -> None:
    """A tournament or an audit killed by SIGKILL takes its workers with it (no audit left running for nobody)."""
    import signal
    import subprocess
    import sys

    script = tmp_path / "run.py"
    script.write_text("import os, time\n" + POOLS[pool])
    run = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                           env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    worker = int(run.stdout.readline())
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and Path(f"/proc/{worker}").exists() and "Z" not in _state(worker):
        time.sleep(0.1)
    assert not Path(f"/proc/{worker}").exists() or "Z" in _state(worker)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


def test_observe_and_seats_never_write_over_the_video_or_the_protocol(capsys, tmp_path: Path, game: dict[str, Path]) -> None:
    video = corpus.write_clip(tmp_path / "game.mp4")
    before = digests(video, *game.values())
    code, _, err = run_cli(capsys, "observe", video, "--seats", game["seats"], "--out", video)
    assert code == 2
    one_sentence(err, video, "never overwrites a video")
    code, _, err = run_cli(capsys, "seats", video, "--protocol", game["protocol"], "--out", game["protocol"], "--replace")
    assert code == 2
    one_sentence(err, game["protocol"], "never overwrites the protocol it reads")
    assert digests(video, *game.values()) == before


def test_a_tournament_stopped_by_sigterm_says_so_and_leaves_no_worker(tmp_path: Path) -> None:
    """`kill` (SIGTERM, what service managers send) stops a tournament as Ctrl-C does: exit 130, progress.json
    saying it is not running and why, and none of its pool workers left auditing for nobody."""
    import shutil
    import signal
    import subprocess
    import sys

    clip = Path(__file__).resolve().parents[2] / "sample_videos" / "clips" / "day4_final_vote"
    folder = tmp_path / "games"
    folder.mkdir()
    for n in range(4):
        for part in (".mp4", ".protocol.json", ".seats.json"):
            shutil.copy(clip.with_name(clip.name + part), folder / f"g{n}{part}")
    out = tmp_path / "out"
    run = subprocess.Popen([sys.executable, "-m", "stopframe_cli", "--lang", "en", "tournament", str(folder),
                            "--out", str(out), "--jobs", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    workers: set[int] = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and run.poll() is None and not (workers and (out / "progress.json").exists()):
        workers = _children(run.pid)
        time.sleep(0.1)
    assert run.poll() is None and workers, "the tournament ended before it could be stopped"
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130 and "interrupted" in err
    progress = json.loads((out / "progress.json").read_text())
    assert progress["running"] is False and progress["stopped"] == "interrupted"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and [w for w in workers if _state(w) not in ("gone", "Z")]:
        time.sleep(0.1)
    assert [w for w in workers if _state(w) not in ("gone", "Z")] == []


def _children(pid: int) -> set[int]:
    try:
        return {int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    except OSError:
        return set()


ATTACKS = {  # what a careless user or an attacker gives in place of a game's file, and the exit status it earns
    "/dev/zero as the protocol": (corpus.zero_device_link, "protocol", 2),
    "a named pipe as the seat map": (corpus.fifo, "seats", 2),
    "a 100 MB protocol": (corpus.sparse_file, "protocol", 2),
    "a 16 MB seat map of a million-point zone": (corpus.million_point_zone, "seats", 1),
    "/dev/zero as the observations": (corpus.zero_device_link, "observations", 2),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_each_attack_is_answered_in_one_sentence_in_seconds_and_under_1_gb(game: dict[str, Path], attack: str) -> None:
    """The whole `stopframe audit` process, measured by the kernel: its peak memory stays under 1 GB."""
    import subprocess
    import sys

    maker, which, status = ATTACKS[attack]
    game[which].unlink()
    maker(game[which])
    kept = [p for p in game.values() if p.is_file() and not p.is_symlink()]
    before = digests(*kept)
    start = time.monotonic()
    run = subprocess.Popen([sys.executable, "-m", "stopframe_cli", "--lang", "en", *map(str, _audit(game))],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    err = run.stderr.read()
    _, code, usage = os.wait4(run.pid, 0)
    assert os.waitstatus_to_exitcode(code) == status and time.monotonic() - start < 30, err
    one_sentence(err, game[which])
    assert usage.ru_maxrss * 1024 < 1 << 30, f"{attack}: {usage.ru_maxrss // 1024} MB"
    assert digests(*kept) == before
