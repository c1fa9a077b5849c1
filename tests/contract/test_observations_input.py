"""Inputs that do not fit are refused, never audited: saved observations with malformed
intervals, observations that cover none of the votes or were made from another video or frame rate, and seat
maps whose zones leave the frame or overlap each give exit 1 and one sentence naming the file and the JSON
path. A vote nobody watched is cannot_see, never no_vote. No MediaPipe runs; files go to tmp folders only."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from clirun import run_cli
from corrections import GAME, read

from contract.seats import polygons_overlap
from review.audit.audit import audit
from review.audit.inputs import video_fingerprint

PROTOCOL, SEATS, OBS = (GAME.with_suffix(s) for s in (".protocol.json", ".seats.json", ".observations.json"))
FORMAT = "stopframe-observations/1"


def _refused(capsys, path: Path, *words: str, seats: Path = SEATS, video: Path | None = None, code: int = 1) -> str:
    argv = [*([video] if video else []), "--protocol", PROTOCOL, "--seats", seats, "--observations", path]
    got, out, err = run_cli(capsys, "audit", *argv)
    lines = [ln for ln in err.splitlines() if ln.startswith("stopframe:")]
    assert (got, out, len(lines)) == (code, "", 1), err
    assert str(path) in lines[0] and lines[0].endswith(".")
    for w in words:
        assert w in lines[0], lines[0]
    for raw in ("None", "{'", "Errno", "'soon'"):
        assert raw not in lines[0]
    return lines[0]


def _write(tmp_path: Path, data: object, name: str = "obs.observations.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_issues_file_is_refused_not_audited_into_13_findings(capsys, tmp_path) -> None:
    path = _write(tmp_path, {"format": FORMAT, "fps": 25, "seats": {"1": [{"on": -5, "off": "soon"}]}})
    _refused(capsys, path, "hands: missing", '"seats"')


@pytest.mark.parametrize(("hand", "words"), [
    ({"seat": 1, "on": -5, "off": 2}, ["hands[0].on", "-5 s is before the video starts"]),
    ({"seat": 1, "on": 5, "off": "soon"}, ["hands[0].off", 'not the text "soon"']),
    ({"seat": 1, "on": 5.2, "off": 4.1}, ["hands[0].off", "4.1 s is not after on 5.2 s"]),
    ({"seat": 11, "on": 5, "off": 6}, ["hands[0].seat", "seat 11 does not exist"]),
    ({"seat": "one", "on": 5, "off": 6}, ["hands[0].seat", 'not the text "one"']),
    ({"seat": 1, "on": 5}, ["hands[0].off: missing (a hand interval needs seat, on and off)."]),
    ({"seat": 1, "on": 5, "off": 6, "pose": "wave"}, ["hands[0].pose", "no pose"]),
    ({"seat": 1, "on": 5, "off": 6, "confidence": 7}, ["hands[0].confidence", "from 0 to 1"]),
])
def test_malformed_intervals_are_exit_1_with_their_json_path(capsys, tmp_path, hand: dict, words: list[str]) -> None:
    good = read(OBS)
    path = _write(tmp_path, {**good, "hands": [hand, *good["hands"]]})
    _refused(capsys, path, *words)


def test_malformed_unseen_and_windows_are_refused(capsys, tmp_path) -> None:
    good = read(OBS)
    _refused(capsys, _write(tmp_path, {**good, "x_unseen": [{"seat": 2, "start": 9, "end": 3}]}), "x_unseen[0].end")
    _refused(capsys, _write(tmp_path, {**good, "x_unseen": [{"seat": 2, "start": 9}]}),
             "x_unseen[0].end: missing (an unseen stretch needs seat, start and end).")
    _refused(capsys, _write(tmp_path, {**good, "x_unseen": [{"seat": 0, "start": 1, "end": 3}]}),
             "x_unseen[0].seat: seat 0 does not exist (seats are 1–10).")
    plain = {k: v for k, v in good.items() if k != "x_unseen"}  # the spec's own key, read where x_unseen is not
    _refused(capsys, _write(tmp_path, {**plain, "unseen": [[2, 1, 3]]}),
             "unseen[0]: must be an object with seat, start and end, not a list.")
    _refused(capsys, _write(tmp_path, {**good, "x_windows": [[5, "end"]]}), "x_windows[0][1]")


def test_observations_that_cover_none_of_the_votes_are_refused(capsys, tmp_path) -> None:
    good = read(OBS)
    _refused(capsys, _write(tmp_path, {**good, "x_windows": [[500.0, 600.0]]}), "x_windows", "none of the protocol's 6 timed votes")
    elsewhere = [{"seat": 2, "on": 500.0, "off": 501.0}]
    _refused(capsys, _write(tmp_path, {"format": FORMAT, "fps": 25, "hands": elsewhere}), "hands", "no hand interval lies")


def test_observations_of_another_video_are_refused(capsys, tmp_path) -> None:
    _refused(capsys, _write(tmp_path, {**read(OBS), "video": "another_game.mp4"}), "video", "another_game.mp4", "sample_game.mp4")


def test_observations_of_another_version_of_the_video_are_refused(capsys, tmp_path) -> None:
    folder = tmp_path / "game"
    folder.mkdir()
    shutil.copy(PROTOCOL, folder / PROTOCOL.name)
    (folder / "sample_game.mp4").write_bytes(b"not the video the observations were made from")
    obs = _write(folder, read(OBS), "sample_game.observations.json")
    code, _, err = run_cli(capsys, "audit", "--protocol", folder / PROTOCOL.name, "--seats", SEATS, "--observations", obs)
    assert code == 1 and "x_video_fingerprint" in err and "another version of sample_game.mp4" in err


def test_observations_at_another_frame_rate_are_refused(capsys, tmp_path) -> None:
    frames = _write(tmp_path, {**read(OBS), "fps": 30})  # the frame numbers were counted at 25 fps
    _refused(capsys, frames, "_frame", "another frame rate than the file's fps")
    bare = read(OBS)
    bare["fps"] = 30
    for h in bare["hands"]:
        h.pop("on_frame", None)
        h.pop("off_frame", None)
    bare.pop("x_video_fingerprint", None)
    _refused(capsys, _write(tmp_path, bare, "bare.observations.json"), "fps", "made at 30 fps", "runs at 25 fps",
             video=GAME.with_suffix(".mp4"))


def test_good_observations_still_audit(capsys) -> None:
    code, out, err = run_cli(capsys, "audit", "--protocol", PROTOCOL, "--seats", SEATS, "--observations", OBS, "--json")
    assert code == 0 and json.loads(out)["findings"]


def test_not_an_observations_file_is_exit_2_in_words(capsys, tmp_path) -> None:
    path = tmp_path / "broken.observations.json"
    path.write_text('{"format": "stopframe-observations/1", "fps": 25, "hands": [', encoding="utf-8")
    message = _refused(capsys, path, "the observations file is not valid JSON at line 1", code=2)
    assert "the observations is" not in message
    _refused(capsys, _write(tmp_path, {"format": "stopframe-observations/2", "fps": 25, "hands": []}),
             "is not supported", code=2)


# ------------------------------------------------------------------------------------------------ seat maps


def _seats(tmp_path: Path, change) -> Path:
    data = read(SEATS)
    change(data)
    return _write(tmp_path, data, "bad.seats.json")


def test_a_zone_that_leaves_the_frame_is_refused(capsys, tmp_path) -> None:
    def move(data: dict) -> None:
        data["seats"]["3"]["zone"][1] = [2400, 300]

    seats = _seats(tmp_path, move)
    code, _, err = run_cli(capsys, "audit", "--protocol", PROTOCOL, "--seats", seats, "--observations", OBS)
    assert code == 1 and str(seats) in err and "seats.3.zone[1]" in err and "outside the 1920x1080 frame" in err


def test_overlapping_zones_are_refused(capsys, tmp_path) -> None:
    def copy_zone(data: dict) -> None:
        data["seats"]["4"]["zone"] = [list(p) for p in data["seats"]["5"]["zone"]]

    seats = _seats(tmp_path, copy_zone)
    code, _, err = run_cli(capsys, "audit", "--protocol", PROTOCOL, "--seats", seats, "--observations", OBS)
    assert code == 1 and "seats.4.zone and seats.5.zone overlap" in err


def test_polygons_sharing_an_edge_do_not_overlap() -> None:
    left, right = [(0, 0), (10, 0), (10, 10), (0, 10)], [(10, 0), (20, 0), (20, 10), (10, 10)]
    assert not polygons_overlap(left, right)
    assert polygons_overlap(left, [(5, 5), (15, 5), (15, 15), (5, 15)])
    assert polygons_overlap(left, [(2, 2), (4, 2), (4, 4)])  # one inside the other


def test_every_committed_seat_map_fits_its_frame() -> None:
    from contract.seats import load_seat_map
    from review.audit.inputs import check_seat_geometry

    root = GAME.parents[2]
    for path in [*root.glob("sample_videos/**/*.seats.json"), *root.glob("tests/fixtures/**/*.seats.json")]:
        check_seat_geometry(load_seat_map(path), path)


# ------------------------------------------------------------------------------------- a vote nobody watched


def test_a_round_with_no_observation_is_cannot_see_never_no_vote() -> None:
    """Spec §4: a seat the camera cannot see is never reported as a non-voter."""
    protocol = read(PROTOCOL)
    obs = read(OBS)
    obs.pop("x_windows")
    day1 = [h for h in obs["hands"] if h["on"] < 22.0]
    obs["hands"] = day1  # nothing observed after day 1's vote
    report = audit(protocol, obs)
    later = [f for f in report.findings if f.day and f.day > 1]
    assert later and {f.kind for f in later} == {"cannot_see"}
    assert not [f for f in report.findings if f.kind == "no_vote" and f.day != 1]
    assert all(v.video_count is None for v in report.votes if v.day > 1)


def test_video_fingerprint_matches_the_apps() -> None:
    assert read(OBS)["x_video_fingerprint"] == video_fingerprint(GAME.with_suffix(".mp4"))


def test_observe_refuses_a_seat_map_whose_zones_overlap_before_decoding(capsys, tmp_path) -> None:
    def copy_zone(data: dict) -> None:
        data["seats"]["2"]["zone"] = [list(p) for p in data["seats"]["1"]["zone"]]

    seats = _seats(tmp_path, copy_zone)
    code, out, err = run_cli(capsys, "observe", GAME.with_suffix(".mp4"), "--seats", seats)
    assert (code, out) == (1, "") and f"{seats}: seats.1.zone and seats.2.zone overlap" in err
