"""Bad input through the real command line: every file a player or a club might send ends in one sentence
naming the file and the status spec §6 gives (2 unreadable, 1 invalid), never a traceback, and no path
read from a file reaches outside the game's folder. The corpus is tests/badinput/ (see its README).

MediaPipe never runs here: every observe/audit case is refused before the hand detector starts, and the
detector is replaced by a tripwire that fails the test if it were reached.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from badinput import make_corpus as corpus

from contract.errors import InvalidInput
from review.game.protocol import MAX_EVENTS, load_protocol, resolve_video_path
from stopframe_cli.main import main
from vision.video import VideoError, open_video

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).resolve().parent / "badinput"
VIDEO, PROTOCOL, SEATS, IMPORT, OBSERVATIONS = (
    CORPUS / d for d in ("video", "protocol", "seats", "import", "observations"))
AUDIT_GAME = corpus.AUDIT_GAME
UNREADABLE, INVALID = 2, 1


@pytest.fixture(autouse=True)
def no_hand_detector(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail loudly if any case got as far as running MediaPipe (it must be refused before)."""
    import vision.detect

    class Tripwire:
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise AssertionError("a bad-input case reached the hand detector")

    monkeypatch.setattr(vision.detect, "SeatDetector", Tripwire)
    monkeypatch.setattr("vision.observe.SeatDetector", Tripwire)
    monkeypatch.setattr("vision.night.NightDetector", Tripwire)


@pytest.fixture(scope="module")
def good_seats(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("seats") / "game.seats.json"
    path.write_text(json.dumps(corpus.seat_map(64, 48)))
    return path


def cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def assert_refused(code: int, err: str, expected: int, path: Path | str, *words: str) -> str:
    """Exactly one error sentence on stderr, naming the file; progress lines ("audit: …") may precede it."""
    errors = [line for line in err.splitlines() if line.startswith("stopframe:")]
    assert len(errors) == 1, err
    message = errors[0]
    assert code == expected, message
    assert str(path) in message, message
    assert message.endswith("."), message
    for word in words:
        assert word in message, message
    return message


# ------------------------------------------------------------------------------------------ protocols

PROTOCOL_UNREADABLE = [
    ("malformed", "not valid JSON at line 3"),
    ("duplicate_key", 'repeats the key "rules"'),
    ("unknown_version", "stopframe-protocol/2"),
    ("another_format", "stopframe-seats/1"),
    ("not_an_object", "JSON array"),
    ("latin1", "not UTF-8"),
    ("huge_number", "too many digits"),
]


@pytest.mark.parametrize("command", ["validate", "replay"])
@pytest.mark.parametrize(("name", "words"), PROTOCOL_UNREADABLE)
def test_unreadable_protocol_is_one_sentence_and_exit_2(capsys, command: str, name: str, words: str) -> None:
    path = PROTOCOL / f"{name}.protocol.json"
    code, out, err = cli(capsys, command, path, "--json")
    assert_refused(code, err, UNREADABLE, path, words)
    assert out == ""


PROTOCOL_INVALID = [
    ("wrong_types", {"rules", "players", "events[1].number", "video.offset_s"}),
    ("seat_0_and_11", {"players[0].seat", "players[1].seat", "players"}),
    ("duplicate_event", {"events[3].target"}),
    ("unknown_profile", {"rules"}),
    ("video_path_escapes", {"video.path"}),
    ("video_path_absolute", {"video.path"}),
    ("video_path_windows", {"video.path"}),
    ("day_10e18", {"events[1].number"}),
    ("nan_offset", {"video.offset_s"}),
]


@pytest.mark.parametrize(("name", "paths"), PROTOCOL_INVALID)
def test_invalid_protocol_lists_its_problems_and_exits_1(capsys, name: str, paths: set[str]) -> None:
    path = PROTOCOL / f"{name}.protocol.json"
    code, out, err = cli(capsys, "validate", path, "--json")
    result = json.loads(out)
    assert code == INVALID and not result["valid"] and err == ""
    assert paths <= {p["path"] for p in result["problems"]}
    code, out, err = cli(capsys, "replay", path, "--json")
    assert code == INVALID and err == "" and json.loads(out)["problems"]
    code, out, _ = cli(capsys, "validate", path)  # the readable table names the file too
    assert code == INVALID and out.startswith(f"{path}: ")


def test_seat_0_and_11_are_named_as_seats_that_do_not_exist(capsys) -> None:
    code, out, _ = cli(capsys, "validate", PROTOCOL / "seat_0_and_11.protocol.json", "--json")
    messages = {p["path"]: p["message"] for p in json.loads(out)["problems"]}
    assert "seat 0 does not exist" in messages["players[0].seat"]
    assert "seat 11 does not exist" in messages["players[1].seat"]


def test_a_duplicated_event_is_a_game_problem_with_its_clause(capsys) -> None:
    code, out, _ = cli(capsys, "validate", PROTOCOL / "duplicate_event.protocol.json", "--json")
    (problem,) = json.loads(out)["problems"]
    assert "already nominated" in problem["message"] and problem["clause"] == "rfm 4.4.2"


def test_a_protocol_saved_with_a_byte_order_mark_is_read(capsys) -> None:
    code, out, err = cli(capsys, "validate", PROTOCOL / "bom.protocol.json", "--json")
    assert (code, json.loads(out)["valid"], err) == (0, True, "")


def test_player_names_that_look_like_formulas_stay_plain_data(capsys, tmp_path: Path) -> None:
    path = PROTOCOL / "formula_names.protocol.json"
    names = [p["nickname"] for p in json.loads(path.read_text())["players"]]
    code, out, err = cli(capsys, "validate", path)
    assert (code, err) == (0, "")
    protocol = load_protocol(path)
    assert [p["nickname"] for p in protocol.players] == names
    assert names[:4] == ['=HYPERLINK("http://x")', "+1+1", "-2-2", "@SUM(A1:A9)"]


@pytest.mark.parametrize("command", ["validate", "replay"])
def test_100_mb_protocol_is_refused_before_it_is_read(capsys, tmp_path: Path, command: str) -> None:
    path = corpus.sparse_file(tmp_path / "big.protocol.json", 100)
    code, _, err = cli(capsys, command, path)
    assert_refused(code, err, UNREADABLE, path, "too large")


@pytest.mark.parametrize("make", [corpus.deeply_nested, corpus.deep_x_field])
def test_deeply_nested_protocol_is_refused(capsys, tmp_path: Path, make) -> None:
    path = make(tmp_path / "deep.protocol.json")
    code, _, err = cli(capsys, "validate", path)
    assert_refused(code, err, UNREADABLE, path, "nested too deeply")


def test_more_events_than_a_game_has_is_one_problem_not_a_long_replay(capsys, tmp_path: Path) -> None:
    path = corpus.too_many_events(tmp_path / "long.protocol.json", MAX_EVENTS + 1)
    code, out, _ = cli(capsys, "replay", path, "--json")
    assert code == INVALID
    assert [p["path"] for p in json.loads(out)["problems"]] == ["events"]


@pytest.mark.parametrize("command", ["validate", "replay"])
def test_missing_protocol_and_a_folder_exit_2(capsys, tmp_path: Path, command: str) -> None:
    for path in (tmp_path / "nowhere.protocol.json", tmp_path):
        code, _, err = cli(capsys, command, path)
        assert_refused(code, err, UNREADABLE, path)


def test_a_video_given_as_protocol_or_seat_map_is_unreadable(capsys, good_seats: Path) -> None:
    video = VIDEO / "wrong_extension.txt"
    code, _, err = cli(capsys, "validate", video)
    assert_refused(code, err, UNREADABLE, video, "not UTF-8")
    code, _, err = cli(capsys, "observe", video, "--seats", video)
    assert_refused(code, err, UNREADABLE, video, "seat map")


# ------------------------------------------------------------------------------------------ seat maps

SEATS_CASES = [
    ("malformed", UNREADABLE, "not valid JSON"),
    ("unknown_version", UNREADABLE, "stopframe-seats/9"),
    ("not_a_seat_map", UNREADABLE, "not a seat map"),
    ("wrong_types", INVALID, "frame_size"),
    ("seat_0", INVALID, "seats.0"),
    ("seat_11", INVALID, "seats.11"),
    ("zone_not_polygon", INVALID, "seats.1.zone"),
]


@pytest.mark.parametrize(("name", "status", "words"), SEATS_CASES)
def test_bad_seat_map_is_one_sentence(capsys, name: str, status: int, words: str) -> None:
    path = SEATS / f"{name}.seats.json"
    code, out, err = cli(capsys, "observe", VIDEO / "wrong_extension.txt", "--seats", path)
    assert_refused(code, err, status, path, words)
    assert out == ""


def test_seat_map_frame_size_of_booleans_is_refused() -> None:
    from contract.seats import load_seat_map

    with pytest.raises(InvalidInput, match="frame_size"):
        load_seat_map(SEATS / "frame_size_booleans.seats.json")


def test_large_and_deep_seat_maps_are_refused(capsys, tmp_path: Path) -> None:
    for path, words in [(corpus.sparse_file(tmp_path / "big.seats.json", 100), "too large"),
                        (corpus.deeply_nested(tmp_path / "deep.seats.json"), "nested too deeply")]:
        code, _, err = cli(capsys, "observe", VIDEO / "wrong_extension.txt", "--seats", path)
        assert_refused(code, err, UNREADABLE, path, words)


# ------------------------------------------------------------------------------------------ videos

VIDEO_UNREADABLE = [
    ("empty.mp4", "empty (0 bytes)"),
    ("truncated.mp4", "video"),
    ("corrupt_header.mp4", "cannot be read as a video"),
    ("text.mp4", "cannot be read as a video"),
    ("audio_only.mp4", "audio-only"),
    ("unknown_codec.avi", "codec"),
]


@pytest.mark.parametrize(("name", "words"), VIDEO_UNREADABLE)
def test_unusable_video_is_one_sentence_and_exit_2(capsys, good_seats: Path, name: str, words: str) -> None:
    path = VIDEO / name
    with pytest.raises(VideoError) as err:
        open_video(path).close()
    assert str(path) in str(err.value) and words in str(err.value)
    code, out, err_text = cli(capsys, "observe", path, "--seats", good_seats, "--json")
    assert_refused(code, err_text, UNREADABLE, path, words)
    assert out == ""


def test_missing_folder_100_mb_and_json_as_video_exit_2(capsys, tmp_path: Path, good_seats: Path) -> None:
    cases = [(tmp_path / "nowhere.mp4", "no such"), (tmp_path, "folder"),
             (corpus.sparse_file(tmp_path / "zeros.mp4", 100), "cannot be read as a video"),
             (PROTOCOL / "bom.protocol.json", "cannot be read as a video")]
    for path, words in cases:
        code, _, err = cli(capsys, "observe", path, "--seats", good_seats)
        assert_refused(code, err, UNREADABLE, path, words)


def test_a_good_video_with_a_misleading_name_opens() -> None:
    with open_video(VIDEO / "wrong_extension.txt") as v:
        assert (v.meta.frame_count, v.meta.width, v.meta.height) == (10, 64, 48)
        assert v.frame_at(9).shape == (48, 64, 3)


def test_a_picture_renamed_mp4_is_a_one_frame_video_not_a_crash() -> None:
    with open_video(VIDEO / "png_renamed.mp4") as v:
        assert v.meta.frame_count == 1 and v.frame_at(0).shape == (8, 8, 3)


def test_4k_video_opens_and_a_seat_map_of_another_shape_is_refused(capsys, tmp_path: Path, good_seats: Path) -> None:
    path = corpus.uhd_clip(tmp_path / "uhd.mp4")
    with open_video(path) as v:
        assert (v.meta.width, v.meta.height, v.meta.frame_count) == (3840, 2160, 2)
        assert v.frame_at(1).shape == (2160, 3840, 3)
    code, _, err = cli(capsys, "observe", path, "--seats", good_seats)  # a 4:3 map on a 16:9 video
    assert code == INVALID and "another aspect ratio" in err and err.count("\n") == 1


@pytest.mark.parametrize("degrees", [90, -90, 180])
def test_rotated_phone_video_is_upright_and_a_landscape_map_is_refused(capsys, tmp_path: Path, good_seats: Path,
                                                                       degrees: int) -> None:
    path = corpus.rotated_clip(tmp_path / "phone.mp4", degrees)
    with open_video(path) as v:
        turned = degrees % 180 != 0
        assert (v.meta.width, v.meta.height) == ((48, 64) if turned else (64, 48))
        assert v.meta.rotation == degrees % 360
        assert v.frame_at(2).shape == ((64, 48, 3) if turned else (48, 64, 3))
    if turned:
        code, _, err = cli(capsys, "observe", path, "--seats", good_seats)
        assert code == INVALID and "48x64" in err and "Traceback" not in err


def test_aspect_ratio_refusal_names_the_seat_map(capsys, tmp_path: Path, good_seats: Path) -> None:
    path = corpus.rotated_clip(tmp_path / "phone.mp4")
    code, _, err = cli(capsys, "observe", path, "--seats", good_seats)
    assert_refused(code, err, INVALID, good_seats, "aspect ratio")


def test_variable_frame_rate_keeps_the_container_clock(tmp_path: Path) -> None:
    with open_video(corpus.vfr_clip(tmp_path / "vfr.mp4")) as v:
        assert v.meta.frame_count == len(corpus.VFR_TIMES)
        assert [round(v.time_of(i), 3) for i in range(v.meta.frame_count)] == corpus.VFR_TIMES
        assert v.index_at(1.0) == 4  # inside the 1.5 s gap the frame at 0.53 s is still on screen


@pytest.mark.parametrize("make", [corpus.ten_hour_clip, corpus.ten_hour_gap_clip])
def test_ten_hour_file_is_described_and_its_end_reached_without_decoding_it_all(tmp_path: Path, make) -> None:
    with open_video(make(tmp_path / "long.mp4")) as v:
        assert v.meta.duration >= corpus.TEN_HOURS
        last = v.meta.frame_count - 1
        assert v.time_of(last) >= corpus.TEN_HOURS - 600
        assert v.index_at(corpus.TEN_HOURS - 1) in (last - 1, last)
        assert v.frame_at(last).shape[2] == 3
        assert [f.index for f in v.iter_window(v.time_of(last), None)] == [last]


# ------------------------------------------------------------------------------------------ path security


@pytest.fixture
def linked_game(tmp_path: Path) -> Path:
    return corpus.game_folder_with_links(tmp_path)


@pytest.mark.parametrize(("name", "words"), [("absolute_link", "leads outside"), ("relative_link", "leads outside"),
                                             ("linked_folder", "leads outside"), ("loop", "cannot be followed")])
def test_a_link_inside_the_folder_that_leads_outside_is_refused(capsys, linked_game: Path, name: str,
                                                                words: str) -> None:
    protocol = linked_game / f"{name}.protocol.json"
    with pytest.raises(InvalidInput, match=words):
        resolve_video_path(load_protocol(protocol))
    seats = linked_game / "game.seats.json"
    code, _, err = cli(capsys, "audit", "--protocol", protocol, "--seats", seats)
    assert_refused(code, err, INVALID, protocol, "video.path", words)
    code, _, err = cli(capsys, "align", "--protocol", protocol)
    assert_refused(code, err, INVALID, protocol, "video.path", words)


def test_a_link_that_stays_inside_the_folder_is_followed(linked_game: Path) -> None:
    path = resolve_video_path(load_protocol(linked_game / "inside_link.protocol.json"))
    assert path == linked_game / "inside_link.mp4"
    with open_video(path) as v:
        assert v.meta.frame_count == 2


@pytest.mark.parametrize("name", ["video_path_escapes", "video_path_absolute", "video_path_windows"])
def test_video_path_outside_the_folder_is_never_opened(capsys, good_seats: Path, name: str) -> None:
    protocol = PROTOCOL / f"{name}.protocol.json"
    with pytest.raises(InvalidInput, match="protocol's folder"):
        resolve_video_path(load_protocol(protocol))
    for argv in (["audit", "--protocol", protocol, "--seats", good_seats], ["align", "--protocol", protocol]):
        code, _, err = cli(capsys, *argv)
        assert_refused(code, err, INVALID, protocol, "video.path")


# ------------------------------------------------------------------------------------------ imports

IMPORT_CASES = [
    ("polemica", "polemica_result_list", INVALID, '"result" must be one of RED_WIN, BLACK_WIN, DRAW, not a list'),
    ("polemica", "polemica_day_1e9", INVALID, "votes[0].day"),
    ("polemica", "polemica_seat_11", INVALID, "players[0].position"),
    ("mafiaratings", "mafiaratings_round_5000_digits", INVALID, "players[0].voting"),
    ("mafiaratings", "mafiaratings_warnings_1e9", INVALID, "players[0].warnings"),
    ("mafiaratings", "mafiaratings_start_time", INVALID, '"start_time"'),
    ("mafiaratings", "mafiaratings_winner_object", INVALID, '"winner" must be civ or maf, not an object'),
    ("polemica", "neither_shape", UNREADABLE, "not a Polemica or mafiaratings game"),
    ("mafiaratings", "polemica_seat_11", UNREADABLE, "import polemica"),
]


@pytest.mark.parametrize(("source", "name", "status", "words"), IMPORT_CASES)
def test_bad_game_file_from_another_system_is_one_sentence(capsys, tmp_path: Path, source: str, name: str,
                                                           status: int, words: str) -> None:
    path = IMPORT / f"{name}.json"
    out_file = tmp_path / "out.protocol.json"
    code, out, err = cli(capsys, "import", source, path, "--out", out_file)
    assert_refused(code, err, status, path, words)
    assert not out_file.exists() and out == ""


def test_imports_refuse_large_deep_and_binary_files(capsys, tmp_path: Path) -> None:
    for path, words in [(corpus.sparse_file(tmp_path / "big.json", 100), "too large"),
                        (corpus.deeply_nested(tmp_path / "deep.json"), "nested too deeply"),
                        (VIDEO / "wrong_extension.txt", "not UTF-8")]:
        code, _, err = cli(capsys, "import", "polemica", path)
        assert_refused(code, err, UNREADABLE, path, words)


# ------------------------------------------------------------------------------------------ observations


def _audit_with(capsys, observations: Path) -> tuple[int, str, str]:
    return cli(capsys, "audit", "--protocol", f"{AUDIT_GAME}.protocol.json", "--seats", f"{AUDIT_GAME}.seats.json",
               "--observations", observations)


@pytest.mark.parametrize(("name", "expected", "words"), [
    ("seat_text", INVALID, 'hands[0].seat: must be a seat number 1–10, not the text "one"'),
    ("zero_fps", INVALID, "fps: must be the video's frame rate"),
    ("hands_not_a_list", INVALID, 'hands: must be a list of hand intervals, not the text "none"'),
    ("a_protocol", UNREADABLE, "not an observations file"),
])
def test_bad_saved_observations_are_one_sentence(capsys, name: str, expected: int, words: str) -> None:
    """Spec §6: a file that is no observations file is unreadable (2); one that is but does not fit is invalid (1)."""
    path = OBSERVATIONS / f"{name}.observations.json"
    code, out, err = _audit_with(capsys, path)
    assert_refused(code, err, expected, path, words)
    assert out == ""


@pytest.mark.parametrize(("name", "place"), [("nan_time", "hands[0].on"), ("fps_1e308", "fps")])
def test_non_finite_numbers_in_saved_observations_are_refused(capsys, name: str, place: str) -> None:
    path = OBSERVATIONS / f"{name}.observations.json"
    code, _, err = _audit_with(capsys, path)
    assert_refused(code, err, INVALID, path, place)


def test_times_beyond_any_video_are_format_problems_not_overflows(capsys, tmp_path: Path) -> None:
    data = json.loads(Path(f"{AUDIT_GAME}.protocol.json").read_text())
    data["video"]["offset_s"] = 1e308
    vote = next(e for e in data["events"] if e["type"] == "vote")
    vote["t"] = 1e300
    path = tmp_path / "far.protocol.json"
    path.write_text(json.dumps(data))
    code, out, _ = cli(capsys, "validate", path, "--json")
    assert code == INVALID
    assert {"video.offset_s", f"events[{data['events'].index(vote)}].t"} <= {p["path"] for p in json.loads(out)["problems"]}
    code, _, err = cli(capsys, "audit", "--protocol", path, "--seats", f"{AUDIT_GAME}.seats.json",
                       "--observations", f"{AUDIT_GAME}.observations.json")
    assert_refused(code, err, INVALID, path, "video.offset_s")


# ------------------------------------------------------------------------------------------ real processes


@pytest.mark.parametrize("argv", [
    ["validate", "tests/badinput/protocol/malformed.protocol.json"],
    ["observe", "tests/badinput/video/truncated.mp4", "--seats", "tests/badinput/seats/seat_0.seats.json"],
    ["observe", "tests/badinput/video/corrupt_header.mp4", "--seats", "tests/fixtures/audit/day_vote.seats.json"],
])
def test_console_command_prints_no_traceback(argv: list[str]) -> None:
    done = subprocess.run([sys.executable, "-c", "import sys; from stopframe_cli.main import main; sys.exit(main())", *argv],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode in (INVALID, UNREADABLE)
    assert "Traceback" not in done.stderr + done.stdout
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("stopframe: ")


@pytest.mark.parametrize(("raw", "said"), [
    ("v.mp4: cannot read the video: [Errno 1094995529] Invalid data found when processing input: 'v.mp4'.",
     "v.mp4: cannot read the video: Invalid data found when processing input."),
    ("g.json: 'winner' must be civ or maf, not {'civ': True}.", 'g.json: "winner" must be civ or maf, not an object.'),
    ("g.json: 'result' must be one of RED_WIN, not ['RED_WIN']", 'g.json: "result" must be one of RED_WIN, not a list.'),
    ("p.json: events[7].voters[2]: seat 5's hand", "p.json: events[7].voters[2]: seat 5's hand."),
])
def test_cli_errors_are_peoples_words_not_pythons(raw: str, said: str) -> None:
    """No `[Errno 1094995529]`, no dict or list repr, one full stop (stopframe_cli.main.plain_words)."""
    from stopframe_cli.main import plain_words

    assert plain_words(raw) == said


def test_the_issues_observations_file_is_refused_not_audited(capsys, tmp_path: Path) -> None:
    """This file used to give 13 confident findings."""
    path = tmp_path / "seats_only.observations.json"
    path.write_text(json.dumps({"format": "stopframe-observations/1", "fps": 25,
                                "seats": {"1": [{"on": -5, "off": "soon"}]}}), encoding="utf-8")
    code, out, err = _audit_with(capsys, path)
    assert_refused(code, err, INVALID, path, "hands: missing")
    assert out == ""
