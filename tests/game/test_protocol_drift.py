"""A camera's clock drift (`videos[].drift_ppm`, docs/formats.md "Several cameras"): parsed, checked at its JSON
path, and read by the protocol's clock for the camera that `video` names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from contract.clock import Clock
from review.game.protocol import CameraVideo, Protocol, format_problems
from review.game.timeline import vote_windows

COMPLETE = Path(__file__).parents[1] / "fixtures" / "protocols" / "complete_rfm.protocol.json"


@pytest.fixture
def game() -> dict:
    data = json.loads(COMPLETE.read_text(encoding="utf-8"))
    data["video"] = {"path": "./game.b.mp4", "offset_s": 1.5}
    data["videos"] = [
        {"id": "a", "path": "game.a.mp4", "offset": 0.0},
        {"id": "far", "path": "game.b.mp4", "offset": 1.5, "drift_ppm": -40.0},
    ]
    return data


def test_a_camera_carries_its_drift_and_one_without_has_none(game):
    assert format_problems(game) == []
    a, far = Protocol(game).videos
    assert (a.drift_ppm, far.drift_ppm) == (0.0, -40.0) and isinstance(far.drift_ppm, float)
    assert far == CameraVideo(id="far", path="game.b.mp4", offset=1.5, seats=None, drift_ppm=-40.0)


@pytest.mark.parametrize(("value", "words"), [
    ("40", "must be a number of millionths, not \"40\""),
    (True, "must be a number of millionths, not true"),
    (float("nan"), "must be a number of millionths, not NaN"),
    (1000.5, "1000.5 ppm is not a camera clock's drift (at most 1000, 3.6 s an hour)"),
    (-2e6, "-2e+06 ppm is not a camera clock's drift (at most 1000, 3.6 s an hour)"),
])
def test_a_drift_that_is_no_number_or_too_large_is_a_problem_at_its_path(game, value, words):
    game["videos"][1]["drift_ppm"] = value
    problems = format_problems(game)
    assert [(p.path, p.message) for p in problems] == [("videos[1].drift_ppm", words)]
    game["videos"][1]["drift_ppm"] = -1000
    assert format_problems(game) == []


def test_the_protocols_clock_takes_the_drift_of_the_camera_video_names(game):
    clock = Clock.of_protocol(game)
    assert clock.video_time(3600.0) == pytest.approx(1.5 + 3600.0 * (1 - 40e-6))  # 0.144 s earlier in an hour
    assert clock.protocol_time(clock.video_time(3600.0)) == pytest.approx(3600.0)
    frames = Clock.of_protocol(game, Clock.constant(25.0))
    assert (frames.fps, frames.offset_s, frames.rate) == (25.0, 1.5, pytest.approx(1 - 40e-6))
    game["video"] = {"path": "game.a.mp4", "offset_s": 0.0}
    assert Clock.of_protocol(game).video_time(3600.0) == 3600.0


def test_vote_windows_on_a_drifting_camera_are_put_on_its_clock(game):
    cutoffs = [e["cutoff"] for e in game["events"] if e.get("type") == "vote" and "cutoff" in e]
    assert cutoffs, "the fixture's votes have cutoffs"
    windows = vote_windows(game)
    assert [w.cutoff for w in windows if w.cutoff is not None][: len(cutoffs)] == [
        pytest.approx(1.5 + c * (1 - 40e-6)) for c in cutoffs]
