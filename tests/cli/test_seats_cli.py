"""`stopframe seats`: the found map written and read back by our own reader, the judge's flags, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import pipeline.seat_finding
from contract.seats import load_seat_map
from review.audit.inputs import check_seat_geometry
from stopframe_cli.main import main
from vision.seat_finder import Place, number_places

CLIP = Path(__file__).resolve().parents[2] / "sample_videos" / "clips" / "top_view_clean_vote"


def _ring_found(*_args, **_kwargs):
    """A found map of ten places round a 1280x720 table (the finder's numbering, no video looked at)."""
    xs = [460, 420, 400, 420, 460, 820, 860, 880, 860, 820]
    ys = [610, 480, 350, 220, 120, 120, 220, 350, 480, 610]
    places = [Place(x, y, np.array([[x - 25, y - 25, x + 25, y + 25]]), 6, frozenset({0})) for x, y in zip(xs, ys, strict=True)]
    return number_places(places, frozenset(range(1, 10)), [], (1280, 720), "votes", 1.5)


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline.seat_finding, "find_game_seats", _ring_found)


def test_the_found_map_of_a_rendered_clip_is_a_seat_map_our_reader_takes(tmp_path: Path, capsys) -> None:
    out = tmp_path / "found.seats.json"
    assert main(["seats", f"{CLIP}.mp4", "--protocol", f"{CLIP}.protocol.json", "--out", str(out)]) == 0
    found = load_seat_map(out)
    check_seat_geometry(found, out)
    data = json.loads(out.read_text())
    assert data["format"] == "stopframe-seats/1" and data["x_found"]["mode"] == "votes"
    assert set(data["x_found"]["confidence"]) == {str(n) for n in found.seats}
    given = load_seat_map(f"{CLIP}.seats.json")
    for n, seat in found.seats.items():  # each found zone lies on the given zone of the same seat
        assert given.seats[n].contains(*seat.zone.mean(axis=0)), n
    assert "left the game" in data["x_found"]["unfound"]["3"]  # seat 3 left before day 3 (the protocol)
    table = data["x_found"]["table"]  # the table top seen from above: its middle is the picture's
    assert abs(table["centre"][0] - 960) < 40 and abs(table["centre"][1] - 540) < 40
    assert "seats:" in capsys.readouterr().err  # progress on stderr, nothing on stdout


def test_table_names_each_seat_and_every_unfound_one(scripted, capsys) -> None:
    assert main(["seats", "game.mp4"]) == 0
    text = capsys.readouterr().out
    assert "seat  1: found, confidence" in text
    assert "seat 10: the player had left the game before these votes; no zone." in text
    assert "no table outline found" in text and "check the seat numbers" in text  # the scripted map has none
    assert "None" not in text and "{" not in text


def test_a_seat_whose_zone_is_a_guess_is_never_called_found(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """A living player whose hand never rested gets a zone guessed between the neighbours: the judge must read
    that it was not found, not "found, confidence 0.00"."""
    def silent_seat_5(*_args, **_kwargs):
        ring = _ring_found()
        places = [p for k, p in enumerate(ring.places) if k != 4]
        return number_places(places, frozenset(range(1, 11)), [], (1280, 720), "votes", 1.5)

    monkeypatch.setattr(pipeline.seat_finding, "find_game_seats", silent_seat_5)
    assert main(["seats", "game.mp4"]) == 0
    text = capsys.readouterr().out
    guessed = [line.split(":")[0].replace("seat", "").strip() for line in text.splitlines()
               if line.endswith(": not found, its zone is a guess")]
    assert guessed and "5" in guessed
    for seat in guessed:
        assert f"seat {seat}: no hand seen on the table during" in text
        assert not [line for line in text.splitlines() if line.startswith(f"seat {seat:>2}: found")]


def test_flip_and_first_seat_at_renumber_round_the_table(scripted, capsys) -> None:
    assert main(["seats", "game.mp4", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["seats", "game.mp4", "--json", "--flip"]) == 0
    flipped = json.loads(capsys.readouterr().out)
    assert flipped["seats"]["10"] == plain["seats"]["1"] and flipped["x_found"]["direction"] == "counter-clockwise"
    assert main(["seats", "game.mp4", "--json", "--first-seat-at", "3"]) == 0
    moved = json.loads(capsys.readouterr().out)
    assert moved["seats"]["1"] == plain["seats"]["3"] and moved["seats"]["9"] == plain["seats"]["1"]


def test_an_existing_map_is_replaced_only_when_asked(scripted, tmp_path: Path, capsys) -> None:
    out = tmp_path / "game.seats.json"
    own = json.dumps({"format": "stopframe-seats/1", "frame_size": [64, 48], "seats": {"1": {"zone": [[2, 2], [9, 2], [2, 9]]}}})
    out.write_text(own)
    assert main(["seats", "game.mp4", "--out", str(out)]) == 2
    assert out.read_text() == own
    assert "--replace" in capsys.readouterr().err
    assert main(["seats", "game.mp4", "--out", str(out), "--replace"]) == 0
    assert len(load_seat_map(out).seats) > 1


def test_replace_replaces_only_a_seat_map(scripted, tmp_path: Path, capsys) -> None:
    """--replace is no licence to overwrite whatever file is named: a protocol (or any other file) stays."""
    other = tmp_path / "other.protocol.json"
    other.write_text('{"format": "stopframe-protocol/1"}')
    before = other.read_bytes()
    assert main(["seats", "game.mp4", "--out", str(other), "--replace"]) == 2
    err = capsys.readouterr().err
    assert str(other) in err and "only a seat map" in err and other.read_bytes() == before


def test_wrong_arguments_and_unreadable_files(tmp_path: Path, capsys) -> None:
    assert main(["seats", "game.mp4", "--first-seat-at", "11"]) == 2
    assert main(["seats", str(tmp_path / "missing.mp4")]) == 2
    assert "missing.mp4" in capsys.readouterr().err
    bad = tmp_path / "bad.protocol.json"
    bad.write_text("{}")
    assert main(["seats", f"{CLIP}.mp4", "--protocol", str(bad)]) == 2
