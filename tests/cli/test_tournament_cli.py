"""`stopframe tournament`: three games from saved observations on both engines (the same findings as
`stopframe audit` on each game), a broken game reported, the resume path, another system's protocol
converted on the way, and one rendered clip looked at by vision."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import pipeline.tournament as tournament_module
from contract.observations import observations_from_json, read_observations
from review.cases.store import Store
from review.cases.tournament import load_tournament, validate_tournament
from stopframe_cli.main import main

ROOT = Path(__file__).parents[2]
DAY = ROOT / "tests" / "fixtures" / "audit" / "day_vote"
SAMPLE = ROOT / "sample_videos" / "game" / "sample_game"
IMPORTS = ROOT / "tests" / "fixtures" / "import"


@pytest.fixture(autouse=True)
def _no_home_database(tmp_path, monkeypatch):
    """The runner rolls up the app's decisions by default: here that is an empty data folder."""
    monkeypatch.setenv("STOPFRAME_DATA", str(tmp_path / "data"))


def _game(folder: Path, name: str, base: Path, judge: str, table: str, rules: str | None = None) -> None:
    data = json.loads(base.with_name(base.name + ".protocol.json").read_text())
    data["game"] = {**(data.get("game") or {}), "id": f"{name}-id", "judge": judge, "table": table}
    if rules:
        data["rules"] = rules
    (folder / f"{name}.protocol.json").write_text(json.dumps(data, ensure_ascii=False))
    for part in ("seats", "observations"):
        shutil.copy(base.with_name(f"{base.name}.{part}.json"), folder / f"{name}.{part}.json")


@pytest.fixture
def games(tmp_path) -> Path:
    folder = tmp_path / "day1"
    folder.mkdir()
    _game(folder, "t1-g1", DAY, "Ivanov", "1")
    _game(folder, "t1-g2", SAMPLE, "Petrova", "1")
    _game(folder, "t2-g1", DAY, "Petrova", "2", rules="lvi2015")
    return folder


def _audit_alone(folder: Path, name: str, capsys) -> dict:
    """What `stopframe audit` says about one game of the folder."""
    args = ["audit", "--protocol", str(folder / f"{name}.protocol.json"), "--seats", str(folder / f"{name}.seats.json"),
            "--observations", str(folder / f"{name}.observations.json"), "--json"]
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


def _run(folder: Path, out: Path, *extra: str) -> int:
    return main(["tournament", str(folder), "--out", str(out), "--reuse-observations", "--jobs", "2", *extra])


def _same_as_audit(games: Path, out: Path, capsys) -> None:
    for name in ("t1-g1", "t1-g2", "t2-g1"):
        assert json.loads((out / "games" / f"{name}.audit.json").read_text()) == _audit_alone(games, name, capsys)


def test_local_engine_audits_every_game_like_stopframe_audit(games, tmp_path, capsys):
    out = tmp_path / "out"
    assert _run(games, out) == 0
    stdout, err = capsys.readouterr()
    assert "3 games: 3 audited, 0 reused, 0 failed" in stdout
    assert "3/3 games" in err and "vision windows" in err
    t = load_tournament(out / "tournament.json")
    assert [(g.id, g.status, g.judge, g.table) for g in t.games] == [
        ("t1-g1", "audited", "Ivanov", "1"), ("t1-g2", "audited", "Petrova", "1"), ("t2-g1", "audited", "Petrova", "2")]
    assert t.game("t2-g1").rules == "lvi2015" and t.game("t1-g1").audit == "games/t1-g1.audit.json"
    assert {j.judge: j.games for j in t.judges} == {"Ivanov": 1, "Petrova": 2}
    assert t.game("t1-g1").files["observations"] == str((games / "t1-g1.observations.json").resolve())
    assert validate_tournament(json.loads((out / "tournament.json").read_text())) == []
    done = json.loads((out / "progress.json").read_text())
    assert (done["games_done"], done["games"], done["failed"], done["running"]) == (3, 3, 0, False)
    assert (out / "tournament.html").read_text().startswith("<!DOCTYPE html>")
    assert (out / "tournament.csv").read_text(encoding="utf-8").lstrip("\ufeff").startswith("game,")
    _same_as_audit(games, out, capsys)


def test_ray_engine_gives_the_same_findings(games, tmp_path, capsys):
    try:
        import ray  # noqa: F401
    except ImportError:
        pytest.skip('Ray is not installed here (pip install -e ".[cluster]"): the ray engine is not tested')
    out = tmp_path / "out"
    assert _run(games, out, "--engine", "ray") == 0
    assert "Ray started" in capsys.readouterr().err
    assert {g.status for g in load_tournament(out / "tournament.json").games} == {"audited"}
    _same_as_audit(games, out, capsys)


def test_an_out_that_is_a_file_is_one_sentence(games, tmp_path, capsys):
    (tmp_path / "taken").write_text("")
    assert _run(games, tmp_path / "taken") == 2
    err = capsys.readouterr().err
    assert "taken" in err and "Traceback" not in err and err.count("\n") == 1


def test_without_ray_the_ray_engine_says_how_to_install_it(games, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(tournament_module, "ray_available", lambda: False)
    assert _run(games, tmp_path / "out", "--engine", "ray") == 2
    err = capsys.readouterr().err
    assert 'pip install -e ".[cluster]"' in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_a_broken_game_is_reported_and_the_others_written(games, tmp_path, capsys):
    (games / "t3-g1.protocol.json").write_text('{"format": "stopframe-protocol/1", ')  # cut off
    shutil.copy(DAY.with_name("day_vote.seats.json"), games / "t3-g1.seats.json")
    shutil.copy(DAY.with_name("day_vote.observations.json"), games / "t3-g1.observations.json")
    shutil.copy(DAY.with_name("day_vote.protocol.json"), games / "t3-g2.protocol.json")
    shutil.copy(DAY.with_name("day_vote.seats.json"), games / "t3-g2.seats.json")
    (games / "t3-g2.mp4").write_bytes(b"this is no video")
    out = tmp_path / "out"
    assert _run(games, out) == 1
    stdout, _ = capsys.readouterr()
    t = load_tournament(out / "tournament.json")
    status = {g.id: g.status for g in t.games}
    assert status == {"t1-g1": "audited", "t1-g2": "audited", "t2-g1": "audited", "t3-g1": "failed", "t3-g2": "failed"}
    for name, args in (("t3-g1", ["--observations", str(games / "t3-g1.observations.json")]),
                       ("t3-g2", [str(games / "t3-g2.mp4")])):
        code = main(["audit", *args, "--protocol", str(games / f"{name}.protocol.json"),
                     "--seats", str(games / f"{name}.seats.json")])
        alone = capsys.readouterr().err.strip().splitlines()[-1].removeprefix("stopframe: ")
        assert code != 0 and t.game(name).error == alone  # the words the command line prints
        assert t.game(name).error in stdout and not (out / "games" / f"{name}.audit.json").exists()
    assert all((out / "games" / f"{n}.audit.json").exists() for n in ("t1-g1", "t1-g2", "t2-g1"))
    failed = {j.judge: j.failed for j in t.judges}
    assert failed[None] == 1 and failed["fixture"] == 1  # an unreadable protocol names no judge; a bad video's does


def _stamps(out: Path) -> dict[str, tuple[int, bytes]]:
    return {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted((out / "games").iterdir())}


def test_a_second_run_redoes_nothing_and_a_changed_protocol_only_its_game(games, tmp_path, capsys):
    out = tmp_path / "out"
    assert _run(games, out) == 0
    first = _stamps(out)
    assert _run(games, out) == 0
    assert {g.status for g in load_tournament(out / "tournament.json").games} == {"reused"}
    assert _stamps(out) == first  # not one audit or done file written again
    data = json.loads((games / "t2-g1.protocol.json").read_text())
    data["players"][0]["nickname"] = "Renamed"
    (games / "t2-g1.protocol.json").write_text(json.dumps(data))
    assert _run(games, out) == 0
    t = load_tournament(out / "tournament.json")
    assert {g.id: g.status for g in t.games} == {"t1-g1": "reused", "t1-g2": "reused", "t2-g1": "audited"}
    now = _stamps(out)
    assert {k: v for k, v in now.items() if not k.startswith("t2-g1")} == {k: v for k, v in first.items() if not k.startswith("t2-g1")}
    assert now["t2-g1.done.json"] != first["t2-g1.done.json"]
    capsys.readouterr()


@pytest.mark.parametrize("damage", ["seats", "lost_done", "edited_audit", "rules"])
def test_what_changed_or_was_cut_short_is_redone(games, tmp_path, capsys, damage):
    out = tmp_path / "out"
    assert _run(games, out) == 0
    extra: list[str] = []
    if damage == "seats":
        seats = json.loads((games / "t1-g1.seats.json").read_text())
        seats["x_note"] = "moved the camera"
        (games / "t1-g1.seats.json").write_text(json.dumps(seats))
    elif damage == "lost_done":  # killed between the audit file and its done file
        (out / "games" / "t1-g1.done.json").unlink()
    elif damage == "edited_audit":
        path = out / "games" / "t1-g1.audit.json"
        path.write_text(path.read_text().replace('"rfm"', '"mafclub"'))
    assert _run(games, out, *extra, *(["--rules", "mafclub"] if damage == "rules" else [])) == 0
    status = {g.id: g.status for g in load_tournament(out / "tournament.json").games}
    if damage == "rules":  # the profile is part of every fingerprint
        assert set(status.values()) == {"audited"}
    else:
        assert status == {"t1-g1": "audited", "t1-g2": "reused", "t2-g1": "reused"}
    capsys.readouterr()


def test_polemica_and_mafiaratings_files_are_converted_on_the_way(tmp_path, capsys):
    folder = tmp_path / "club"
    folder.mkdir()
    shutil.copy(IMPORTS / "polemica_game.json", folder / "p.protocol.json")  # another system's file under our name
    shutil.copy(IMPORTS / "mafiaratings_game.json", folder / "m.mafiaratings.json")
    for name in ("p", "m"):
        shutil.copy(DAY.with_name("day_vote.seats.json"), folder / f"{name}.seats.json")
        shutil.copy(DAY.with_name("day_vote.observations.json"), folder / f"{name}.observations.json")
    out = tmp_path / "out"
    assert _run(folder, out) == 0
    capsys.readouterr()
    t = load_tournament(out / "tournament.json")
    for name, source, src_file in (("p", "polemica", "p.protocol.json"), ("m", "mafiaratings", "m.mafiaratings.json")):
        g = t.game(name)
        assert g.status == "audited" and g.files["source"] == str((folder / src_file).resolve())
        converted = out / "games" / f"{name}.protocol.json"
        assert g.files["protocol"] == str(converted.resolve())
        assert main(["import", source, str(folder / src_file), "--out", str(tmp_path / f"{name}.imported.json")]) == 0
        assert json.loads(converted.read_text()) == json.loads((tmp_path / f"{name}.imported.json").read_text())
        args = ["audit", "--protocol", str(converted), "--seats", str(folder / f"{name}.seats.json"),
                "--observations", str(folder / f"{name}.observations.json"), "--json"]
        assert main(args) == 0
        assert json.loads((out / "games" / f"{name}.audit.json").read_text()) == json.loads(capsys.readouterr().out)


def test_the_judges_decisions_roll_up(games, tmp_path, capsys):
    out = tmp_path / "out"
    assert _run(games, out) == 0
    t = load_tournament(out / "tournament.json")
    g = t.game("t1-g1")
    assert g.decided is None  # no decisions database anywhere
    report = json.loads((out / "games" / "t1-g1.audit.json").read_text())
    from review.audit.findings import Finding

    store = Store(tmp_path / "decisions.sqlite")
    store.decide(g.store_id, Finding.from_json(report["findings"][0]), "confirmed", reason="seen", who="chief",
                 expected_version=0)
    assert _run(games, out, "--decisions", str(tmp_path / "decisions.sqlite")) == 0
    t = load_tournament(out / "tournament.json")
    assert t.game("t1-g1").confirmed == 1 and t.game("t2-g1").decided == 0
    ivanov = next(j for j in t.judges if j.judge == "Ivanov")
    assert ivanov.missed == 1 and ivanov.missed_per_game == 1.0
    assert _run(games, out, "--decisions", str(tmp_path / "none.sqlite")) == 2
    capsys.readouterr()


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["local", "ray"])
def test_a_rendered_clip_looked_at_by_vision_gives_stopframe_audits_findings(tmp_path, capsys, engine):
    """Looked at by vision on either engine (a Ray worker sends back the observations too), the audit is
    `stopframe audit`'s, and the observations kept beside it give the same findings."""
    if engine == "ray":
        pytest.importorskip("ray", reason='Ray is not installed here (pip install -e ".[cluster]")')
    clip = ROOT / "sample_videos" / "clips" / "day4_final_vote"
    folder = tmp_path / "clips"
    folder.mkdir()
    for part in (".mp4", ".protocol.json", ".seats.json"):
        shutil.copy(clip.with_name(clip.name + part), folder / f"final{part}")
    out = tmp_path / "out"
    assert main(["tournament", str(folder), "--out", str(out), "--jobs", "1", "--engine", engine]) == 0
    assert "1/1 vision windows" in capsys.readouterr().err
    args = ["audit", str(folder / "final.mp4"), "--protocol", str(folder / "final.protocol.json"),
            "--seats", str(folder / "final.seats.json"), "--json"]
    assert main(args) == 0
    assert json.loads((out / "games" / "final.audit.json").read_text()) == json.loads(capsys.readouterr().out)
    assert load_tournament(out / "tournament.json").game("final").windows == 1
    kept = out / "games" / "final.observations.json"  # what vision saw, kept for the app: sound observations
    seen = observations_from_json(read_observations(kept), kept)
    assert seen.hands and seen.video == str(folder / "final.mp4")  # as `stopframe observe` names it
    assert main([*args[:-1], "--observations", str(kept), "--json"]) == 0  # the same findings from them
    assert json.loads((out / "games" / "final.audit.json").read_text()) == json.loads(capsys.readouterr().out)


HEAD = """
import sys, ray
ray.init(num_cpus=5, include_dashboard=False, log_to_driver=False)
print(ray.get_runtime_context().gcs_address, flush=True)
sys.stdin.read()  # held until the test closes stdin
ray.shutdown()
"""


def _comparable(out: Path) -> dict:
    """tournament.json without what differs from one run to the next (when it ran, how long each game took)."""
    data = json.loads((out / "tournament.json").read_text())
    del data["created"]
    for g in data["games"]:
        del g["seconds"]
    return data


def test_address_sends_the_games_to_a_running_ray_head_with_the_local_engines_report(tmp_path, capsys):
    """`--engine ray --address`: a Ray head started apart (as an organiser's cluster is), its token shared the way
    Ray documents for a cluster with token authentication (RAY_AUTH_MODE, RAY_AUTH_TOKEN)."""
    pytest.importorskip("ray", reason='Ray is not installed here (pip install -e ".[cluster]")')
    folder = tmp_path / "day1"
    folder.mkdir()
    _game(folder, "t1-g1", DAY, "Ivanov", "1")
    _game(folder, "t2-g1", DAY, "Petrova", "2", rules="lvi2015")
    tournament_module.code_version.cache_clear()  # the code as it is now, as the command run below will read it
    assert _run(folder, tmp_path / "local") == 0
    capsys.readouterr()
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32),
           "RAY_USAGE_STATS_ENABLED": "0"}
    head = subprocess.Popen([sys.executable, "-c", HEAD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        address = (head.stdout.readline() if head.stdout else "").strip()
        assert address, "the Ray head did not start"
        def tournament(out: str, **env_too: str) -> subprocess.CompletedProcess[str]:
            argv = ["tournament", str(folder), "--out", str(tmp_path / out), "--reuse-observations", "--jobs", "2",
                    "--engine", "ray", "--address", address]
            return subprocess.run([sys.executable, "-m", "stopframe_cli", *argv], capture_output=True, text=True,
                                  env={**env, **env_too}, timeout=120, cwd=ROOT)

        run = tournament("ray")
        # another token: refused in one sentence, not a traceback (Ray's wait for the cluster cut to a second)
        stranger = tournament("stranger", RAY_AUTH_TOKEN=secrets.token_hex(32), RAY_gcs_server_port_wait_time_s="1")
    finally:
        if head.stdin:
            head.stdin.close()
        head.wait(timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert f"the Ray cluster at {address} joined" in run.stderr and "5 CPUs" in run.stderr  # the head's, not a new Ray
    assert "2 games: 2 audited, 0 reused, 0 failed" in run.stdout
    assert _comparable(tmp_path / "ray") == _comparable(tmp_path / "local")
    for name in ("t1-g1", "t2-g1"):
        audit = f"games/{name}.audit.json"
        assert (tmp_path / "ray" / audit).read_bytes() == (tmp_path / "local" / audit).read_bytes()
    refused = stranger.stderr.strip().splitlines()[-1]
    assert stranger.returncode == 2 and "Traceback" not in stranger.stderr, stranger.stderr[-2000:]
    assert refused == (f"stopframe: --address {address}: the Ray cluster there does not let this run join; a cluster "
                       "with token authentication needs its token in RAY_AUTH_TOKEN.")


def test_an_address_where_no_cluster_answers_is_one_sentence_at_once(games, tmp_path, capsys):
    pytest.importorskip("ray", reason='Ray is not installed here (pip install -e ".[cluster]")')
    with socket.socket() as s:  # a port just freed: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert _run(games, tmp_path / "out", "--engine", "ray", "--address", f"127.0.0.1:{port}") == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith(f"stopframe: --address 127.0.0.1:{port}: no Ray cluster answers there (")
    assert err.endswith("start its head with `ray start --head` and give the address it prints.")
