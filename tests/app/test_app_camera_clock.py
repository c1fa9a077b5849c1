"""The app opens a game of several cameras on any of them: that camera's seat map and observations, the vote
windows and the audit on its own clock (the same report as `stopframe audit` on that camera); the main camera and
a one-video game open as before. The calibration page offers every camera and saves each one's map to that
camera's own `seats` file, replacing it only when the judge ticks so."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from appcheck import ok
from streamlit.testing.v1 import AppTest

from contract.jsonio import write_json
from pipeline.audit import audit_game
from stopframe_app.game import GameSpec, complete_spec, load_game, run_audit

REPO = Path(__file__).resolve().parents[2]
CLIPS = REPO / "sample_videos" / "clips"
CLIP = CLIPS / "two_cameras.protocol.json"
FAR = CLIPS / "two_cameras.far.mp4"
LEAD = 1.72  # the far camera's offset


def test_the_far_camera_opens_with_its_own_seat_map_observations_and_clock(data: Path) -> None:
    spec = complete_spec(GameSpec(str(CLIP), video=str(FAR)))
    assert Path(spec.seats) == CLIPS / "two_cameras.far.seats.json"
    assert Path(spec.observations) == CLIPS / "two_cameras.far.observations.json"
    far, main = load_game(spec), load_game(complete_spec(GameSpec(str(CLIP))))
    assert far.camera.id == "far" and main.camera.id == "judge"
    assert far.clock_data["video"] == {"path": "two_cameras.far.mp4", "offset_s": LEAD}
    assert far.data == main.data == json.loads(CLIP.read_text(encoding="utf-8"))  # exports see the file as read
    timed = [(a.cutoff, b.cutoff) for a, b in zip(far.windows, main.windows, strict=True) if b.cutoff is not None]
    assert timed and all(a == pytest.approx(b + LEAD) for a, b in timed)
    report = run_audit(far)
    cli = audit_game(protocol=CLIP, video=FAR, seats=spec.seats, observations=spec.observations).at_file_precision()
    assert report is not None and report.video == "two_cameras.far.mp4"
    assert report.to_json() == cli.to_json()


def test_the_main_camera_opens_as_before(data: Path) -> None:
    spec = complete_spec(GameSpec(str(CLIP)))
    assert Path(spec.video) == CLIPS / "two_cameras.mp4"
    assert Path(spec.seats) == CLIPS / "two_cameras.seats.json"
    assert Path(spec.observations) == CLIPS / "two_cameras.observations.json"
    game = load_game(spec)
    assert game.clock_data is game.data


def test_the_judges_marks_are_moved_onto_the_far_cameras_clock(data: Path, tmp_path: Path) -> None:
    for path in CLIPS.glob("two_cameras.*"):
        shutil.copy(path, tmp_path / path.name)
    protocol = tmp_path / "two_cameras.protocol.json"
    proto = json.loads(protocol.read_text(encoding="utf-8"))
    index = next(i for i, e in enumerate(proto["events"]) if e.get("type") == "vote")
    proto["events"][index].pop("cutoff", None)  # the cutoff then comes from the judge's mark on the main video
    write_json(protocol, proto)
    write_json(tmp_path / "two_cameras.marks.json",
               {"format": "stopframe-marks/1", "marks": [{"event": index, "cutoff": 4.25}]})
    main = load_game(complete_spec(GameSpec(str(protocol))))
    far = load_game(complete_spec(GameSpec(str(protocol), video=str(tmp_path / "two_cameras.far.mp4"))))
    (m,), (f,) = ([w for w in g.windows if w.event_index == index] for g in (main, far))
    assert m.cutoff == 4.25 and f.cutoff == pytest.approx(4.25 + LEAD)
    assert (m.sources["cutoff"], f.sources["cutoff"]) == ("marks", "marks")


def calibration(protocol: Path) -> AppTest:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
    at.session_state["game_spec"] = GameSpec(str(protocol))
    at.session_state["judge"] = "Chief Judge"
    at.run()
    at.sidebar.radio(key="view").set_value("Seat calibration")
    return at.run()


def test_the_calibration_page_places_each_cameras_seats_and_saves_them_to_that_cameras_file(
        data: Path, tmp_path: Path) -> None:
    folder = tmp_path / "game"
    folder.mkdir()
    for path in CLIPS.glob("two_cameras.*"):
        shutil.copy(path, folder / path.name)
    judge_seats, far_seats = folder / "two_cameras.seats.json", folder / "two_cameras.far.seats.json"
    before = {p: p.read_bytes() for p in (judge_seats, far_seats)}
    at = calibration(folder / "two_cameras.protocol.json")
    ok(at)
    picker = at.radio(key="calib_camera")
    assert picker.options == ["judge", "far"] and picker.value == "judge"
    assert Path(at.text_input(key="calib_path_judge").value) == judge_seats
    picker.set_value("far").run()
    ok(at)
    assert Path(at.session_state["game_spec"].video) == folder / "two_cameras.far.mp4"  # the game, on the far camera
    assert Path(at.text_input(key="calib_path_far").value) == far_seats
    at.radio(key="calib_start").set_value("an ellipse of ten seats").run()
    at.button(key="calib_save").click().run()
    assert any("Not saved" in e.value for e in at.error)  # the far camera's map stays until the judge says so
    assert {p: p.read_bytes() for p in before} == before
    at.checkbox(key="calib_replace").check().run()
    at.button(key="calib_save").click().run()
    ok(at)
    assert far_seats.read_bytes() != before[far_seats] and judge_seats.read_bytes() == before[judge_seats]
    assert Path(at.session_state["game_spec"].seats) == far_seats
    assert at.radio(key="calib_camera").value == "far"
