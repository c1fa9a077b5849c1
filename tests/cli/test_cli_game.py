"""`stopframe validate / replay / import` (spec §6): exit statuses, JSON shapes, one-sentence errors."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from pathlib import Path

import pytest

from contract.errors import UnreadableInput
from review.game.problems import Problem
from review.game.protocol import format_problems
from stopframe_cli import game as cli_game
from stopframe_cli.main import main

HERE = Path(__file__).parents[1] / "fixtures"
COMPLETE = HERE / "protocols" / "complete_rfm.protocol.json"
POLEMICA = HERE / "import" / "polemica_game.json"
MAFIARATINGS = HERE / "import" / "mafiaratings_game.json"


@pytest.fixture
def broken(tmp_path) -> Path:
    data = json.loads(COMPLETE.read_text(encoding="utf-8"))
    data["players"][2]["seat"] = 11
    data["events"][6]["candidate"] = 0
    path = tmp_path / "broken.protocol.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------------------------------------ validate


def test_validate_of_a_valid_protocol_exits_0(capsys):
    code, out, _ = _run(capsys, "validate", str(COMPLETE), "--json")
    assert (code, json.loads(out)) == (0, {"valid": True, "problems": []})
    code, out, _ = _run(capsys, "validate", str(COMPLETE))
    assert code == 0 and "valid" in out


def test_validate_lists_every_problem_and_exits_1(capsys, broken):
    code, out, _ = _run(capsys, "validate", str(broken), "--json")
    result = json.loads(out)
    assert code == 1 and result["valid"] is False
    assert result["problems"] == [
        {"path": "players[2].seat", "message": "seat 11 does not exist (seats are 1–10)", "clause": None},
        {"path": "players", "message": "seat 3 missing (every seat 1–10 appears exactly once)", "clause": None},
        {"path": "events[6].candidate", "message": "seat 0 does not exist (seats are 1–10)", "clause": None},
    ]
    code, out, _ = _run(capsys, "validate", str(broken))
    assert code == 1
    assert out.splitlines() == [
        f"{broken}: 3 problems",
        "  players[2].seat: seat 11 does not exist (seats are 1–10)",
        "  players: seat 3 missing (every seat 1–10 appears exactly once)",
        "  events[6].candidate: seat 0 does not exist (seats are 1–10)",
    ]


def test_validate_out_writes_the_json_result(capsys, broken, tmp_path):
    out_file = tmp_path / "result.json"
    code, out, _ = _run(capsys, "validate", str(broken), "--out", str(out_file))
    assert code == 1 and out == ""
    assert json.loads(out_file.read_text(encoding="utf-8"))["valid"] is False


@pytest.mark.parametrize("content, words", [
    ("{not json", "is not valid JSON at line 1, column 2"),
    ('{"format": "stopframe-protocol/9"}', "is not supported"),
    ('{"rules": "rfm"}', 'has no "format" field'),
])
def test_unreadable_protocol_exits_2_with_one_sentence(capsys, tmp_path, content, words):
    path = tmp_path / "bad.protocol.json"
    path.write_text(content, encoding="utf-8")
    for command in ("validate", "replay"):
        code, out, err = _run(capsys, command, str(path), "--json")
        assert code == 2 and out == ""
        assert err.startswith(f"stopframe: {path}: ") and words in err
        assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("club_file, source, name", [(POLEMICA, "polemica", "Polemica"),
                                                      (MAFIARATINGS, "mafiaratings", "mafiaratings")])
def test_a_clubs_game_file_given_as_a_protocol_is_named_with_the_command_that_imports_it(capsys, club_file, source,
                                                                                          name):
    # a judge hands over the club's export as it came: the one sentence says what it is and how to go on
    for command in ("validate", "replay"):
        code, out, err = _run(capsys, command, str(club_file))
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
        assert err.startswith(f"stopframe: {club_file}: a {name} game file, not a Stopframe protocol")
        assert f"stopframe import {source} FILE --out GAME.protocol.json" in err


def test_missing_file_and_wrong_arguments_exit_2(capsys, tmp_path):
    code, _, err = _run(capsys, "validate", str(tmp_path / "nope.protocol.json"))
    assert code == 2 and "nope.protocol.json: cannot read the protocol" in err
    code, _, err = _run(capsys, "import", "chess", str(POLEMICA))
    assert code == 2 and "invalid choice" in err


def test_debug_shows_the_underlying_error(tmp_path):
    path = tmp_path / "bad.protocol.json"
    path.write_text("[", encoding="utf-8")
    with pytest.raises(UnreadableInput):
        main(["--debug", "validate", str(path)])


def test_no_traceback_from_the_console_command(tmp_path):
    path = tmp_path / "deep.protocol.json"
    path.write_text("[" * 50_000, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "stopframe_cli", "validate", str(path)],
                          capture_output=True, text=True, timeout=60, cwd=Path(__file__).parents[2])
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "nested too deeply" in done.stderr


# -------------------------------------------------------------------------------------------------- replay


def test_replay_of_an_unsound_protocol_reports_its_format_problems(capsys, broken):
    code, out, _ = _run(capsys, "replay", str(broken), "--json")
    result = json.loads(out)
    assert code == 1
    assert (result["eliminations"], result["result"]) == ([], None)
    assert [p["path"] for p in result["problems"]] == ["players[2].seat", "players", "events[6].candidate"]


def test_replay_prints_what_the_engine_derives(capsys, monkeypatch):
    eliminations = [{"seat": 5, "cause": "vote", "day": 1}, {"seat": 8, "cause": "shot", "night": 1}]
    problem = Problem("events[13]", "seat 5 leaves, but the rules give a revote", "rfm 4.4.13")
    monkeypatch.setattr(cli_game, "replay_game", lambda data, profile=None: types.SimpleNamespace(
        eliminations=eliminations, result="red", problems=[problem], notes=[], result_clause=None,
        result_reason=None, vote_contexts={}))
    code, out, _ = _run(capsys, "replay", str(COMPLETE), "--json")
    result = json.loads(out)
    assert code == 1
    assert result["eliminations"] == eliminations and result["result"] == "red"
    assert result["problems"] == [problem.to_json()]
    code, out, _ = _run(capsys, "replay", str(COMPLETE))
    assert "  1. seat  5, day 1: vote" in out and "  2. seat  8, night 1: shot" in out
    assert "Result: red" in out and "events[13]: seat 5 leaves, but the rules give a revote (rfm 4.4.13)" in out


def test_replay_of_the_complete_game_gives_its_eliminations_in_order_and_its_result(capsys):
    code, out, _ = _run(capsys, "replay", str(COMPLETE), "--json")
    result = json.loads(out)
    assert result["problems"] == [] and code == 0
    assert [(e["seat"], e["cause"], e.get("day"), e.get("night")) for e in result["eliminations"]] == [
        (5, "vote", 1, None), (8, "shot", None, 1), (9, "vote", 2, None),
        (7, "vote", 3, None), (2, "shot", None, 3), (4, "vote", 4, None),
    ]
    assert result["result"] == "red"


# -------------------------------------------------------------------------------------------------- import


@pytest.mark.parametrize("source, path", [("polemica", POLEMICA), ("mafiaratings", MAFIARATINGS)])
def test_import_writes_a_protocol_that_reads_back(capsys, tmp_path, source, path):
    out_file = tmp_path / "imported.protocol.json"
    code, out, _ = _run(capsys, "import", source, str(path), "--out", str(out_file))
    assert code == 0 and out == ""
    data = json.loads(out_file.read_text(encoding="utf-8"))
    assert data["format"] == "stopframe-protocol/1" and format_problems(data) == []
    code, out, _ = _run(capsys, "import", source, str(path), "--json", "--rules", "mafclub")
    assert code == 0 and json.loads(out)["rules"] == "mafclub"
    code, out, _ = _run(capsys, "import", source, str(path))
    assert code == 0 and "10 players" in out and "result red" in out


def test_import_of_a_file_in_neither_shape_exits_2(capsys, tmp_path):
    path = tmp_path / "other.json"
    path.write_text('{"players": [{"name": "A"}], "winner": "town"}', encoding="utf-8")
    code, out, err = _run(capsys, "import", "mafiaratings", str(path), "--json")
    assert code == 2 and out == ""
    assert err.startswith(f"stopframe: {path}: not a Polemica or mafiaratings game")


# ------------------------------------------------------------------------------- results that say why


def _conceded(tmp_path: Path, rules: str) -> Path:
    """The complete game cut after day 1's vote, with a red win announced while all 3 blacks still sit."""
    data = json.loads(COMPLETE.read_text(encoding="utf-8"))
    night1 = next(i for i, e in enumerate(data["events"]) if e["type"] == "phase" and e["phase"] == "night" and e["number"] == 1)
    data["rules"] = rules
    data["events"] = [*data["events"][:night1], {"type": "result", "winner": "red"}]
    path = tmp_path / f"conceded_{rules}.protocol.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_replay_gives_the_clause_and_the_reason_behind_the_result_rfm_1_4(capsys):
    code, out, _ = _run(capsys, "replay", str(COMPLETE), "--json")
    result = json.loads(out)
    assert code == 0 and result["result"] == "red" and result["result_clause"] == "rfm 1.4"
    assert result["result_reason"] == "every black player is out of the game" and result["notes"] == []
    assert all(v["clause"] for v in result["votes"])  # each round's outcome with its clause too
    code, out, _ = _run(capsys, "replay", str(COMPLETE))
    assert "Result: red win (rfm 1.4): every black player is out of the game" in out and "None" not in out
    assert "leaves (rfm 4.4.12)" in out


def test_mafclub_2_7_1_comment_a_red_win_with_blacks_at_the_table_is_the_black_teams_concession(capsys, tmp_path):
    path = _conceded(tmp_path, "mafclub")
    code, out, _ = _run(capsys, "replay", str(path), "--json")
    result = json.loads(out)
    assert code == 0 and result["problems"] == [] and result["result"] == "red"
    assert result["result_clause"] == "mafclub 2.7.1" and "concession" in result["result_reason"]
    [note] = result["notes"]
    assert note["clause"] == "mafclub 2.7.1" and note["path"].endswith(".winner")
    assert "3 black players are still at the table" in note["message"] and "«Я сдаюсь»" in note["message"]
    code, out, _ = _run(capsys, "replay", str(path))
    assert "Result: red win (mafclub 2.7.1): 3 black players still at the table" in out and "note:" in out
    code, out, _ = _run(capsys, "validate", str(path))
    assert code == 0 and "valid" in out and "concession" in out  # valid, and says how it was read
    code, out, _ = _run(capsys, "validate", str(path), "--json")
    assert json.loads(out)["valid"] is True and json.loads(out)["notes"][0]["clause"] == "mafclub 2.7.1"


@pytest.mark.parametrize(("rules", "clause"), [("rfm", "rfm 1.4"), ("lvi2015", "lvi2015 «Игра заканчивается»"),
                                               ("showtime", "showtime ¶18")])
def test_a_red_win_with_blacks_at_the_table_is_a_problem_where_no_concession_is_written(capsys, tmp_path, rules, clause):
    path = _conceded(tmp_path, rules)
    code, out, _ = _run(capsys, "validate", str(path), "--json")
    problems = [p for p in json.loads(out)["problems"] if p["path"].endswith(".winner")]
    assert code == 1 and [p["clause"] for p in problems] == [clause]
    assert "a red win is recorded while 3 black players are still at the table" in problems[0]["message"]
    code, out, _ = _run(capsys, "replay", str(path))
    assert code == 1 and "Result: none" in out and clause in out
