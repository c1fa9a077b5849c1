"""A tournament game's fingerprint (pipeline.tournament.prepare): what redoes a game and what does not."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pipeline.tournament as tournament_module
from pipeline.batch import find_games
from pipeline.tournament import Settings, code_version, prepare

DAY = Path(__file__).parents[1] / "fixtures" / "audit" / "day_vote"


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "day"
    folder.mkdir()
    shutil.copy(f"{DAY}.protocol.json", folder / "g.protocol.json")
    shutil.copy(f"{DAY}.seats.json", folder / "g.seats.json")
    (folder / "g.mp4").write_bytes(b"\x00" * 4096)
    return folder


def _print(folder: Path, out: Path, settings: Settings | None = None) -> str:
    games, _ = find_games(folder, foreign=True)
    prep = prepare(games[0], out, settings or Settings())
    assert prep.error is None, prep.error
    return str(prep.fingerprint)


def test_the_video_counts_by_its_bytes_not_its_name_or_time(tmp_path):
    folder, out = _folder(tmp_path), tmp_path / "out"
    out.mkdir()
    first = _print(folder, out)
    os.utime(folder / "g.mp4", ns=(1, 1))  # touched, same bytes
    assert _print(folder, out) == first
    (folder / "g.mp4").write_bytes(b"\x01" * 4096)  # same size, other bytes
    assert _print(folder, out) != first


def test_protocol_seats_marks_profile_and_options_each_count(tmp_path):
    folder, out = _folder(tmp_path), tmp_path / "out"
    out.mkdir()
    first = _print(folder, out)
    assert _print(folder, out, Settings(rules="mafclub")) != first
    assert _print(folder, out, Settings(nights=True)) != first
    assert _print(folder, out, Settings(model="lite")) != first
    seats = json.loads((folder / "g.seats.json").read_text())
    seats["x_note"] = "moved"
    (folder / "g.seats.json").write_text(json.dumps(seats))
    second = _print(folder, out)
    assert second != first
    (folder / "g.marks.json").write_text(json.dumps({"format": "stopframe-marks/1", "marks": []}))
    assert _print(folder, out) != second


def test_the_code_version_names_the_package_and_a_digest():
    version = code_version()
    number, digest = version.split("+")
    assert number and len(digest) == 12 and int(digest, 16) >= 0


def test_a_vote_window_count_comes_with_the_game(tmp_path):
    folder, out = _folder(tmp_path), tmp_path / "out"
    out.mkdir()
    games, _ = find_games(folder)
    prep = prepare(games[0], out, Settings())
    assert prep.windows and prep.windows >= 1 and prep.span > 0


def test_the_fingerprint_is_what_earlier_runs_wrote(tmp_path, monkeypatch):
    """What a done file's fingerprint covers, spelled out: a change here redoes every tournament's games, so
    it must be made on purpose (a new part, or a new DONE_FORMAT), never by a refactoring."""
    folder, out = _folder(tmp_path), tmp_path / "out"
    out.mkdir()
    monkeypatch.setattr(tournament_module, "code_version", lambda: "1.0+000000000000")

    def sha(name: str) -> str:
        return hashlib.sha256((folder / name).read_bytes()).hexdigest()

    rules = json.loads((folder / "g.protocol.json").read_text())["rules"]
    parts = {"video": sha("g.mp4"), "protocol": sha("g.protocol.json"), "seats": sha("g.seats.json"), "marks": None,
             "observations": None, "profile": rules, "nights": False, "model": "full", "code": "1.0+000000000000"}
    expected = hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()
    assert _print(folder, out) == expected
    assert tournament_module.DONE_FORMAT == "stopframe-tournament-game/1"
