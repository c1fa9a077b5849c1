"""The protocol file (spec §1): reading, format problems with their JSON paths, lossless saving, video path."""

from __future__ import annotations

import json
import types
from pathlib import Path

import pytest

from contract.errors import InvalidInput, UnreadableInput
from contract.jsonio import dumps
from review.game import engine
from review.game.problems import Problem
from review.game.protocol import (
    Protocol,
    format_problems,
    load_protocol,
    resolve_video_path,
    save_protocol,
    validate,
)

FIXTURES = Path(__file__).parents[1] / "fixtures" / "protocols"
COMPLETE = FIXTURES / "complete_rfm.protocol.json"


@pytest.fixture
def complete() -> dict:
    return json.loads(COMPLETE.read_text(encoding="utf-8"))


def _write(tmp_path: Path, data: object, name: str = "game.protocol.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _paths(problems: list[Problem]) -> list[str]:
    return [p.path for p in problems]


# ------------------------------------------------------------------------------------------ a sound protocol


def test_complete_game_fixture_has_a_sound_format():
    protocol = load_protocol(COMPLETE)
    assert format_problems(protocol.data) == []
    assert protocol.rules == "rfm"
    assert [p["seat"] for p in protocol.players] == list(range(1, 11))
    assert protocol.events[-1] == {"type": "result", "winner": "red", "t": protocol.events[-1]["t"],
                                   "x_note_for_tests": "unknown x_ fields survive a round trip"}
    assert protocol.folder == FIXTURES


def test_names_starting_with_formula_characters_are_plain_data(complete):
    # "=Charlie", "+Foxtrot", "@Hotel", "-India" are neutralised only on CSV export (spec §5), never refused.
    nicknames = {p["nickname"][0] for p in complete["players"]}
    assert {"=", "+", "@", "-"} <= nicknames
    assert format_problems(complete) == []


def test_paper_protocol_without_times_or_voters_is_valid(complete):
    for event in complete["events"]:
        for key in ("t", "cutoff", "announced", "end", "voters", "shots", "note", "reason", "clause"):
            event.pop(key, None)
    del complete["video"], complete["game"]
    for player in complete["players"]:
        del player["nickname"], player["role"]
    assert format_problems(complete) == []


def test_minor_version_is_read(tmp_path, complete):
    complete["format"] = "stopframe-protocol/1.4"
    assert load_protocol(_write(tmp_path, complete)).data["format"] == "stopframe-protocol/1.4"


# -------------------------------------------------------------------------------------------- round trip


def test_load_save_round_trip_is_byte_identical(tmp_path):
    out = tmp_path / "copy.protocol.json"
    save_protocol(load_protocol(COMPLETE), out)
    assert out.read_bytes() == COMPLETE.read_bytes()


def test_round_trip_keeps_unknown_and_x_fields_in_order(tmp_path, complete):
    complete["x_review"] = {"deep": [1, {"x": None}], "by": "judge"}
    complete["from_a_later_minor_version"] = [1.5, "kept"]
    complete["players"][3]["x_rating"] = 1234.5
    complete["events"][4]["x_cue_scores"] = {"t": 0.93}
    complete["events"][4]["future_field"] = True
    src = _write(tmp_path, complete)
    dst = tmp_path / "saved" / "again.protocol.json"
    save_protocol(load_protocol(src), dst)
    again = json.loads(dst.read_text(encoding="utf-8"))
    assert again == complete
    assert list(again) == list(complete)
    assert list(again["events"][4]) == list(complete["events"][4])


def test_save_accepts_a_plain_dict_and_leaves_no_temporary_file(tmp_path, complete):
    save_protocol(complete, tmp_path / "p.protocol.json")
    assert [p.name for p in tmp_path.iterdir()] == ["p.protocol.json"]
    assert json.loads((tmp_path / "p.protocol.json").read_text(encoding="utf-8")) == complete


# ----------------------------------------------------------------------------------------- format problems


def test_every_format_problem_is_reported_at_once_with_its_path(complete):
    data = complete
    data["rules"] = "poker"
    data["players"][0]["seat"] = 0  # seat 0; seat 1 now missing
    data["players"][9]["seat"] = 3  # seat 3 twice; seat 10 missing
    data["players"][4]["role"] = "werewolf"
    data["players"][5]["nickname"] = 42
    ev = data["events"]
    ev[2]["type"] = "applause"  # unknown event type
    ev[3]["target"] = 11  # nomination of seat 11
    del ev[4]["by"]  # nomination without a nominator
    ev[6]["count"] = "four"  # vote count as text
    ev[7]["cutoff"] = ev[7]["t"] - 0.5  # window closes before it opens
    ev[8]["round"] = True  # a boolean is not a number
    ev[10]["t"] = 1.0  # time goes back
    ev[11]["voters"] = [1, 3, 3]
    ev[16]["shots"] = {"11": 8, "7": 8}
    ev[17]["result"] = "black"  # the Don is answered sheriff / not_sheriff
    ev[20]["number"] = -1  # phase day -1
    ev[22]["named"] = [1, 2, 3, 4]
    ev.insert(0, "not an event")
    ev.append({"type": "fine", "seat": 2, "points": 0.2})
    ev.append({"type": "lift_vote", "day": 4, "candidates": [3], "count": 2})
    ev.append({"note": "no type"})
    problems = format_problems(data)
    assert all(p.clause is None for p in problems)
    assert _paths(problems) == [
        "rules",
        "players[0].seat",
        "players[4].role",
        "players[5].nickname",
        "players[9].seat",
        "players",
        "events[0]",
        "events[3].type",
        "events[4].target",
        "events[5].by",
        "events[7].count",
        "events[8].cutoff",
        "events[9].round",
        "events[11].t",
        "events[12].voters",
        "events[17].shots",
        "events[18].result",
        "events[21].number",
        "events[23].named",
        "events[57].points",
        "events[58].candidates",
        "events[59].type",
    ]
    by_path = {p.path: p.message for p in problems}
    assert "seat 0 does not exist" in by_path["players[0].seat"]
    assert "seat 3 appears twice" in by_path["players[9].seat"]
    assert by_path["players"].startswith("seats 1, 10 missing")
    assert "unknown rule profile \"poker\"" in by_path["rules"]
    assert "unknown event type \"applause\"" in by_path["events[3].type"]
    assert "seat 11 does not exist" in by_path["events[4].target"]
    assert "goes back before events[10]" in by_path["events[11].t"]


def test_missing_required_fields_are_named_per_event_type():
    data = {"format": "stopframe-protocol/1", "rules": "mafclub",
            "players": [{"seat": s} for s in range(1, 11)],
            "events": [{"type": "vote", "day": 1}, {"type": "shooting", "night": 1}, {"type": "result"},
                       {"type": "check", "night": 1, "by": "sheriff", "target": 3}]}
    assert _paths(format_problems(data)) == [
        "events[0].round", "events[0].candidate", "events[0].count",
        "events[1].target", "events[2].winner", "events[3].result",
    ]


def test_a_miss_is_a_null_target_but_a_missing_target_is_a_problem(complete):
    shooting = next(e for e in complete["events"] if e["type"] == "shooting" and e["target"] is None)
    assert format_problems(complete) == []
    del shooting["target"]
    assert [p.message for p in format_problems(complete)] == ["missing (a shooting event needs it)"]


def test_day_0_does_not_exist_but_night_0_does(complete):
    complete["events"][1]["number"] = 0  # "phase day 0"
    assert [(p.path, p.message) for p in format_problems(complete)] == [
        ("events[1].number", "day 0 does not exist (day 1 follows night 0)")]


def test_fields_of_another_event_type_are_ignored_not_checked(complete):
    # found by the fuzzer: a phase carrying a speech's "end" (null) once crashed the time-order check
    complete["events"][0].update(end=None, cutoff="soon", candidate=99)
    assert format_problems(complete) == []


def test_not_a_number_time_is_a_problem():
    data = {"format": "stopframe-protocol/1", "rules": "rfm", "players": [{"seat": s} for s in range(1, 11)],
            "events": [{"type": "phase", "phase": "day", "number": 1, "t": float("nan")}]}
    assert _paths(format_problems(data)) == ["events[0].t"]


def test_missing_top_level_parts_are_problems_not_crashes():
    assert _paths(format_problems({"format": "stopframe-protocol/1"})) == ["rules", "players", "events"]
    assert _paths(format_problems([])) == [""]
    assert _paths(format_problems({"rules": "rfm", "players": "ten", "events": {}})) == ["format", "players", "events"]


# ------------------------------------------------------------------------------------------ unreadable input


@pytest.mark.parametrize(("text", "words"), [
    ('{"format": "stopframe-protocol/1", "rules": "rfm",', "not valid JSON at line 1"),
    ('["stopframe-protocol/1"]', "JSON array, not an object"),
    ('{"rules": "rfm", "players": [], "events": []}', 'no "format" field'),
    ('{"format": "stopframe-protocol/2", "rules": "rfm"}', 'format "stopframe-protocol/2" is not supported'),
    ('{"format": "stopframe-seats/1", "seats": {}}', 'is a "stopframe-seats/1" file, not a protocol'),
    ('{"format": 1}', '"format" is 1'),
    ('{"format": "stopframe-protocol/1", "rules": "rfm", "rules": "mafclub"}', 'repeats the key "rules"'),
    ('{"format": "stopframe-protocol/1", "x": ' + "9" * 5000 + "}", "not readable JSON"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_unreadable_protocols_are_refused_with_one_sentence_naming_the_file(tmp_path, text, words):
    path = tmp_path / "bad.protocol.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UnreadableInput) as info:
        load_protocol(path)
    message = str(info.value)
    assert words in message
    assert message.startswith(str(path)) and "\n" not in message


def test_not_utf8_and_missing_files_are_unreadable(tmp_path):
    latin = tmp_path / "latin1.protocol.json"
    latin.write_bytes(b'{"format": "stopframe-protocol/1", "rules": "rfm", "judge": "J\xe9r\xf4me"}')
    with pytest.raises(UnreadableInput, match="not UTF-8"):
        load_protocol(latin)
    with pytest.raises(UnreadableInput, match="cannot read"):
        load_protocol(tmp_path / "absent.protocol.json")


def test_a_100_mb_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.protocol.json"
    with path.open("wb") as fh:
        fh.write(b'{"format": "stopframe-protocol/1", "x_padding": "')
        fh.truncate(100 * 1024 * 1024)  # sparse: the size is real, the disk is not filled
    with pytest.raises(UnreadableInput, match=r"is over 20 MB, too large"):
        load_protocol(path)


def test_deeply_nested_x_field_loads_and_saves_or_fails_cleanly(tmp_path, complete):
    nested: object = "bottom"
    for _ in range(900):
        nested = [nested]
    complete["x_deep"] = nested
    src = _write(tmp_path, complete)
    protocol = load_protocol(src)
    assert format_problems(protocol.data) == []
    assert isinstance(validate(protocol), list)  # the engine copes with it too
    try:
        save_protocol(protocol, tmp_path / "out.protocol.json")
    except InvalidInput as exc:
        assert "nested too deeply" in str(exc)
    else:
        assert json.loads((tmp_path / "out.protocol.json").read_text(encoding="utf-8")) == complete


# ---------------------------------------------------------------------------------------------- video path


@pytest.mark.parametrize("bad", ["../../etc/passwd", "/etc/passwd", "clips/../../game.mp4", "C:\\games\\g.mp4",
                                 "..\\..\\windows\\win.ini", "\\\\server\\share\\g.mp4"])
def test_video_path_outside_the_protocol_folder_is_refused(tmp_path, complete, bad):
    complete["video"]["path"] = bad
    protocol = load_protocol(_write(tmp_path, complete))
    assert _paths(format_problems(protocol.data)) == ["video.path"]
    with pytest.raises(InvalidInput, match="video.path"):
        resolve_video_path(protocol)


def test_video_path_inside_the_folder_resolves_next_to_the_protocol(tmp_path, complete):
    complete["video"]["path"] = "clips/./../clips/game 3.mp4"
    protocol = load_protocol(_write(tmp_path, complete))
    assert format_problems(protocol.data) == []
    assert resolve_video_path(protocol) == tmp_path / "clips/./../clips/game 3.mp4"


def test_protocol_without_video_has_no_video_path(complete):
    del complete["video"]
    with pytest.raises(InvalidInput, match="names no video"):
        resolve_video_path(Protocol(complete))


# -------------------------------------------------------------------------------------- validate + engine


def _fake_replay(monkeypatch: pytest.MonkeyPatch, problems: list[Problem], calls: list[dict]) -> None:
    """The engine's replay, recording what it was given and answering `problems`."""

    def replay(data: dict, profile: object = None) -> types.SimpleNamespace:
        calls.append(data)
        return types.SimpleNamespace(problems=problems, eliminations=[], result=None)

    monkeypatch.setattr(engine, "replay", replay)


def test_validate_adds_the_engines_game_problems_when_the_format_is_sound(monkeypatch, complete):
    game_problem = Problem("events[9]", "seat 5 votes after leaving the game", "rfm 4.4.1")
    calls: list[dict] = []
    _fake_replay(monkeypatch, [game_problem], calls)
    assert validate(Protocol(complete)) == [game_problem]
    assert calls == [complete]


def test_validate_does_not_replay_a_protocol_of_unsound_format(monkeypatch, complete):
    calls: list[dict] = []
    _fake_replay(monkeypatch, [], calls)
    complete["players"].pop()
    assert _paths(validate(complete)) == ["players"]
    assert calls == []


def test_problems_serialise_as_spec_objects(complete):
    complete["events"][3]["target"] = 0
    (problem,) = format_problems(complete)
    assert problem.to_json() == {"path": "events[3].target", "message": problem.message, "clause": None}
    assert dumps(problem.to_json())
