"""Several cameras (`videos`, docs/formats.md): the one parser, the validator's problems with their JSON paths,
and resolving a camera's files inside the protocol's folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from contract.errors import InvalidInput
from review.game.problems import Problem
from review.game.protocol import (
    MAX_VIDEOS,
    CameraVideo,
    Protocol,
    format_problems,
    load_protocol,
    resolve_camera_path,
    save_protocol,
)

COMPLETE = Path(__file__).parents[1] / "fixtures" / "protocols" / "complete_rfm.protocol.json"


@pytest.fixture
def game() -> dict:
    data = json.loads(COMPLETE.read_text(encoding="utf-8"))
    del data["video"]
    data["videos"] = [
        {"id": "a", "path": "game.a.mp4", "offset": 0.0, "seats": "game.a.seats.json"},
        {"id": "far", "path": "cams/game.b.mp4", "offset": -2.125, "x_lens": "wide"},
    ]
    return data


def _paths(problems: list[Problem]) -> list[str]:
    return [p.path for p in problems]


def _write(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "game.protocol.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_cameras_are_parsed_in_file_order_with_their_offsets_and_seat_maps(game):
    assert format_problems(game) == []
    assert Protocol(game).videos == (
        CameraVideo(id="a", path="game.a.mp4", offset=0.0, seats="game.a.seats.json"),
        CameraVideo(id="far", path="cams/game.b.mp4", offset=-2.125, seats=None),
    )


def test_a_protocol_without_videos_has_no_cameras(game):
    del game["videos"]
    assert Protocol(game).videos == ()
    game["videos"] = None
    assert format_problems(game) == [] and Protocol(game).videos == ()


def test_offset_defaults_to_zero_and_an_integer_offset_is_a_float(game):
    del game["videos"][0]["offset"]
    game["videos"][1]["offset"] = 3
    a, far = Protocol(game).videos
    assert (a.offset, far.offset) == (0.0, 3.0) and isinstance(far.offset, float)


def test_every_camera_problem_is_reported_at_once_with_its_path(game):
    game["videos"] += [
        {"id": "a", "path": "./game.a.mp4", "offset": float("nan"), "seats": "../elsewhere.seats.json", "lens": 1},
        {"path": "game.c.mp4", "offset": "2 s"},
        {"id": "", "path": "/abs/game.d.mp4", "offset": 1e9},
        {"id": 7, "seats": 5},
        "game.e.mp4",
    ]
    assert _paths(format_problems(game)) == [
        "videos[2].lens", "videos[2].id", "videos[2].path", "videos[2].offset", "videos[2].seats",
        "videos[3].id", "videos[3].offset",
        "videos[4].id", "videos[4].path", "videos[4].offset",
        "videos[5].id", "videos[5].path", "videos[5].seats",
        "videos[6]",
    ]


def test_messages_say_what_is_wrong_in_a_judges_words(game):
    game["videos"][1].update(id="a", offset=float("inf"))
    game["videos"][0]["seats"] = "C:\\maps\\a.seats.json"
    messages = {p.path: p.message for p in format_problems(game)}
    assert messages["videos[1].id"] == 'camera "a" appears twice (also videos[0])'
    assert messages["videos[1].offset"] == "must be a number of seconds, not Infinity"
    assert "absolute path" in messages["videos[0].seats"]
    assert all("None" not in m and "{" not in m for m in messages.values())


@pytest.mark.parametrize("bad", ["../game.b.mp4", "/srv/game.b.mp4", "cams/../../game.b.mp4", "D:\\game.b.mp4",
                                 "\\\\server\\share\\game.b.mp4"])
def test_a_camera_outside_the_protocols_folder_is_refused(game, bad):
    game["videos"][1]["path"] = bad
    assert _paths(format_problems(game)) == ["videos[1].path"]
    with pytest.raises(InvalidInput, match=r"videos\[1\]\.path"):
        _ = Protocol(game).videos


def test_the_same_file_for_two_cameras_is_a_problem(game):
    game["videos"][1]["path"] = ".\\game.a.mp4"
    (problem,) = format_problems(game)
    assert problem.path == "videos[1].path" and "videos[0]" in problem.message


def test_unknown_fields_of_a_camera_are_refused_unless_they_start_with_x(game):
    game["videos"][0]["x_note"] = {"any": ["thing"]}
    assert format_problems(game) == []
    game["videos"][0]["Offset"] = 1.0
    assert _paths(format_problems(game)) == ["videos[0].Offset"]


@pytest.mark.parametrize("value", [{"id": "a"}, "game.a.mp4", 3, True])
def test_videos_must_be_a_list(game, value):
    game["videos"] = value
    assert _paths(format_problems(game)) == ["videos"]


def test_more_cameras_than_any_table_has_are_refused(game):
    game["videos"] = [{"id": str(i), "path": f"g{i}.mp4"} for i in range(MAX_VIDEOS + 1)]
    assert [str(p) for p in format_problems(game)] == ["videos: 17 cameras are more than any table has (at most 16)"]
    game["videos"].pop()
    assert len(Protocol(game).videos) == MAX_VIDEOS


def test_video_beside_videos_must_be_one_of_the_cameras_on_the_same_clock(game):
    game["video"] = {"path": "cams/./game.b.mp4", "offset_s": -2.125}
    assert format_problems(game) == []
    game["video"]["offset_s"] = 0.0
    (problem,) = format_problems(game)
    assert problem.path == "video.offset_s" and "videos[1].offset" in problem.message
    game["video"] = {"path": "game.mp4"}
    (problem,) = format_problems(game)
    assert problem.path == "video.path" and "none of the cameras" in problem.message
    game["video"] = {"offset_s": 0.0}
    assert _paths(format_problems(game)) == ["video.path"]


def test_a_malformed_list_raises_one_sentence_naming_the_file_and_the_place(tmp_path, game):
    game["videos"][1]["offset"] = None
    protocol = load_protocol(_write(tmp_path, game))
    with pytest.raises(InvalidInput) as err:
        _ = protocol.videos
    assert str(err.value).startswith(str(tmp_path / "game.protocol.json") + ": videos[1].offset: must be")
    assert str(err.value).endswith(".")


def test_cameras_survive_a_load_save_round_trip(tmp_path, game):
    source = _write(tmp_path, game)
    saved = save_protocol(load_protocol(source), tmp_path / "copy.protocol.json")
    assert load_protocol(saved).videos == Protocol(game).videos


def test_a_cameras_files_resolve_inside_the_protocols_folder(tmp_path, game):
    protocol = load_protocol(_write(tmp_path, game))
    a, far = protocol.videos
    assert resolve_camera_path(protocol, a) == tmp_path / "game.a.mp4"
    assert resolve_camera_path(protocol, a, "seats") == tmp_path / "game.a.seats.json"
    assert resolve_camera_path(protocol, far) == tmp_path / "cams" / "game.b.mp4"
    with pytest.raises(InvalidInput, match="names no seat map"):
        resolve_camera_path(protocol, far, "seats")


def test_a_camera_linked_outside_the_folder_is_refused(tmp_path, game):
    home, outside = tmp_path / "game", tmp_path / "elsewhere"
    home.mkdir()
    outside.mkdir()
    (outside / "game.b.mp4").write_bytes(b"")
    (home / "cams").symlink_to(outside, target_is_directory=True)
    protocol = load_protocol(_write(home, game))
    with pytest.raises(InvalidInput, match=r"videos\[1\]\.path .* leads outside"):
        resolve_camera_path(protocol, protocol.videos[1])


def test_video_and_a_camera_are_held_to_one_offset_and_file_rule_in_the_same_words(game):
    """`video.offset_s` and `videos[].offset` mean the same shift of clocks; `video.path` and `videos[].path`
    both name a file in the protocol's folder."""
    lone = json.loads(COMPLETE.read_text(encoding="utf-8"))
    for offset, words in ((2e6, "2e+06 s is not an offset between two clocks of one game (at most 1,000,000 s)"),
                          ("soon", 'must be a number of seconds, not "soon"')):
        game["videos"][1]["offset"] = offset
        lone["video"] = {"path": "game.mp4", "offset_s": offset}
        assert {p.path: p.message for p in format_problems(game)} == {"videos[1].offset": words}
        assert {p.path: p.message for p in format_problems(lone)} == {"video.offset_s": words}
    game["videos"][1] = {"id": "far", "path": ""}
    lone["video"] = {"path": ""}
    assert [p.message for p in format_problems(game)] == [p.message for p in format_problems(lone)] == [
        'must be a file name, not ""']
