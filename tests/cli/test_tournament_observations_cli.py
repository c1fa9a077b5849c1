"""`stopframe tournament` keeps what vision saw beside each game's audit: a game audited from its video leaves
OUT/games/NAME.observations.json (the hands, and with --nights the night fields, marked with the video's
fingerprint), a sound observations file from which `stopframe audit` finds exactly the tournament's findings.
Keeping it changes no byte of the audit; a rerun that reuses the audit keeps the file; a game audited from the
observations given to it keeps none. Vision is stood in for by the sample game's committed observations."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path
from typing import Any

import pytest
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture

from contract.jsonio import dumps
from contract.observations import Observations, observations_from_json, read_observations
from pipeline.audit import audit_game
from pipeline.batch import AuditTask, GameFiles, audit_task
from pipeline.observer import VisionObserver
from review.audit.inputs import video_fingerprint
from review.cases.tournament import load_tournament
from stopframe_app.game import SAMPLE_PROTOCOL
from stopframe_cli.main import main

NAME = "sample_game"  # the committed observations name the video they were made from
NIGHT_KEYS = ("x_raised", "x_shown_numbers", "x_night_windows", "x_night_words")


class CommittedEyes(VisionObserver):
    """The sample game's committed observations in place of a look at its video (the video's clock stays real):
    its hands for the day, its night fields for the nights."""

    def day(self, video: Path, seat_map: Any, windows: Any, *, model: str, progress: Any) -> Observations:
        return observations_from_json(read_observations(SAMPLE_OBSERVATIONS), SAMPLE_OBSERVATIONS)

    def nights(self, video: Path, seat_map: Any, shootings: Any, checks: Any, *, model: str) -> dict[str, Any]:
        committed = read_observations(SAMPLE_OBSERVATIONS)
        return {k: committed[k] for k in NIGHT_KEYS if k in committed}


@pytest.fixture(autouse=True)
def _committed_eyes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    require_current_sample_fixture(nights=True)
    monkeypatch.setenv("STOPFRAME_DATA", str(tmp_path / "data"))
    monkeypatch.setattr("pipeline.batch.VISION", CommittedEyes())


@pytest.fixture
def games(tmp_path: Path) -> Path:
    """One game, its video, protocol and seat map only: the tournament must look at the video."""
    src = tmp_path / "day1"
    src.mkdir()
    for part in (".mp4", ".protocol.json", ".seats.json"):
        shutil.copyfile(SAMPLE_PROTOCOL.with_name(NAME + part), src / f"{NAME}{part}")
    return src


def _run(src: Path, out: Path, *extra: str) -> None:
    assert main(["tournament", str(src), "--out", str(out), "--jobs", "1", *extra]) == 0


@pytest.mark.parametrize("nights", [False, True])
def test_a_game_audited_from_its_video_keeps_what_vision_saw(games: Path, tmp_path: Path, capsys, nights: bool) -> None:
    out = tmp_path / "out"
    _run(games, out, *(["--nights"] if nights else []))
    kept = out / "games" / f"{NAME}.observations.json"
    data = read_observations(kept)  # the observations reader takes it
    seen = observations_from_json(data, kept)
    committed = read_observations(SAMPLE_OBSERVATIONS)
    assert data["hands"] == committed["hands"] and len(seen.hands) == 41  # exactly the hands the audit saw
    assert data["fps"] == committed["fps"] and data["x_windows"] == committed["x_windows"]
    assert data["x_video_fingerprint"] == video_fingerprint(games / f"{NAME}.mp4")  # what the app checks before use
    assert all((k in data) == nights for k in NIGHT_KEYS)
    if nights:
        assert {k: data[k] for k in NIGHT_KEYS} == {k: committed[k] for k in NIGHT_KEYS}
    [row] = load_tournament(out / "tournament.json").games
    assert row.status == "audited" and row.files["observations"] is None  # the given files, as before
    capsys.readouterr()
    # from the kept observations, `stopframe audit` finds what the tournament found
    args = ["audit", "--protocol", str(games / f"{NAME}.protocol.json"), "--seats", str(games / f"{NAME}.seats.json"),
            "--observations", str(kept), "--json", *(["--nights"] if nights else [])]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == json.loads((out / "games" / f"{NAME}.audit.json").read_text())


def test_keeping_the_observations_changes_no_byte_of_the_audit(games: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    _run(games, out)
    alone = audit_game(protocol=games / f"{NAME}.protocol.json", seats=games / f"{NAME}.seats.json", video=games / f"{NAME}.mp4",
                       observer=CommittedEyes())  # the audit as the tournament's worker made it before
    assert (out / "games" / f"{NAME}.audit.json").read_text(encoding="utf-8") == dumps(alone.to_json())
    capsys.readouterr()


def test_a_rerun_that_reuses_the_audit_keeps_its_observations(games: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    _run(games, out)
    kept = out / "games" / f"{NAME}.observations.json"
    before = (kept.stat().st_mtime_ns, kept.read_bytes())
    _run(games, out)
    assert [g.status for g in load_tournament(out / "tournament.json").games] == ["reused"]
    assert (kept.stat().st_mtime_ns, kept.read_bytes()) == before
    capsys.readouterr()


def test_a_game_audited_from_given_observations_keeps_none(games: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    _run(games, out)
    shutil.copyfile(SAMPLE_OBSERVATIONS, games / f"{NAME}.observations.json")
    _run(games, out, "--reuse-observations")  # redone from the given ones: the earlier look is not this audit's
    [row] = load_tournament(out / "tournament.json").games
    assert row.status == "audited" and row.files["observations"] == str((games / f"{NAME}.observations.json").resolve())
    assert not (out / "games" / f"{NAME}.observations.json").exists()
    capsys.readouterr()


def test_the_workers_result_carries_the_observations_and_pickles(games: Path) -> None:
    """What a pool or Ray worker sends back: the report and the observations, both plain JSON."""
    game = GameFiles(NAME, games / f"{NAME}.protocol.json", games / f"{NAME}.seats.json", games / f"{NAME}.mp4")
    result = audit_task(AuditTask(game))
    assert result.error is None and result.observations is not None
    assert pickle.loads(pickle.dumps(result)) == result
    assert result.observations["hands"] == read_observations(SAMPLE_OBSERVATIONS)["hands"]
    given = audit_task(AuditTask(GameFiles(NAME, game.protocol, game.seats, game.video, SAMPLE_OBSERVATIONS)))
    assert given.report == result.report and given.observations is None
