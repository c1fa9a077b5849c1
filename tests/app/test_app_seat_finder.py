"""The calibration page's seat finder through Streamlit's AppTest: a game without a seat map starts from the map
found from its video (MediaPipe on a committed rendered clip); the judge flips or moves seat 1, and saves; a
game's own map is never replaced without the judge's tick."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from appcheck import shown
from streamlit.testing.v1 import AppTest

from contract.seats import load_seat_map
from stopframe_app.game import GameSpec
from stopframe_app.views.calibrate import ELLIPSE, FOUND, FOUND_START, OWN

REPO = Path(__file__).resolve().parents[2]
APP = str(REPO / "app.py")
CLIP = REPO / "sample_videos" / "clips" / "top_view_clean_vote"


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("STOPFRAME_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


def calibration(spec: GameSpec) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300)
    at.session_state["game_spec"] = spec
    at.session_state["judge"] = "Chief Judge"
    at.run()
    at.sidebar.radio(key="view").set_value("Seat calibration")
    return at.run()


def ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def centres(seat_map) -> dict[int, tuple[float, float]]:
    return {n: tuple(np.round(s.zone.mean(axis=0), 1)) for n, s in seat_map.seats.items()}


def seen(found) -> dict[int, tuple[float, float]]:
    """Each place where hands were seen (not the guessed ones) under the seat whose zone holds it: a renumbering
    moves the numbers round the places (the zones are cut anew against the chairs guessed under it)."""
    out = {}
    for place in found.places:
        seats = [n for n, s in found.seat_map.seats.items() if s.contains(place.x, place.y)]
        assert len(seats) == 1
        out[seats[0]] = (round(place.x, 1), round(place.y, 1))
    return out


def copied_clip(folder: Path, with_map: bool) -> GameSpec:
    """The rendered clip's protocol and video (and, `with_map`, its seat map) in a folder of the test's own."""
    folder.mkdir()
    protocol, video, seats = folder / "clip.protocol.json", folder / "clip.mp4", folder / "clip.seats.json"
    video.write_bytes(Path(f"{CLIP}.mp4").read_bytes())
    protocol.write_text(Path(f"{CLIP}.protocol.json").read_text().replace("top_view_clean_vote.mp4", "clip.mp4"))
    if with_map:
        seats.write_bytes(Path(f"{CLIP}.seats.json").read_bytes())
    return GameSpec(str(protocol), str(video), str(seats) if with_map else None)


def test_a_game_without_a_map_starts_from_the_found_one_and_saves_it_when_the_judge_says(
        data: Path, tmp_path: Path) -> None:
    at = calibration(copied_clip(tmp_path / "game", with_map=False))
    ok(at)
    assert at.radio(key="calib_start").value == FOUND_START
    assert at.radio(key="calib_start").options == [FOUND_START, ELLIPSE]
    found = at.session_state[FOUND][1]
    assert len(found.seat_map.seats) >= 4
    warnings = [shown(w.value) for w in at.warning]
    assert "seat 3: the player had left the game before these votes; no zone." in warnings
    assert not list(data.glob("seatmaps/*.json"))  # nothing saved before the judge clicks save
    at.button(key="calib_flip").click().run()
    ok(at)
    flipped = at.session_state[FOUND][1]
    assert flipped.flipped and seen(flipped) == {11 - n: c for n, c in seen(found).items()}
    at.button(key="calib_move1").click().run()
    moved = at.session_state[FOUND][1]
    assert moved.shift == 1 and set(seen(moved).values()) == set(seen(found).values())
    at.button(key="calib_save").click().run()
    ok(at)
    saved = load_seat_map(at.text_input(key="calib_path").value)
    expected = centres(moved.seat_map)  # the file keeps a tenth of a pixel
    assert set(centres(saved)) == set(expected)
    assert all(np.allclose(c, expected[n], atol=0.2) for n, c in centres(saved).items())
    assert at.session_state["game_spec"].seats == str(Path(at.text_input(key="calib_path").value))


def test_finding_seats_never_replaces_the_games_own_map_unasked(data: Path, tmp_path: Path) -> None:
    spec = copied_clip(tmp_path / "game", with_map=True)
    own = Path(str(spec.seats))
    at = calibration(spec)
    ok(at)
    assert at.radio(key="calib_start").value == OWN and FOUND not in at.session_state  # no finding unasked
    at.button(key="calib_find").click().run()
    ok(at)
    assert at.radio(key="calib_start").options == [OWN, FOUND_START, ELLIPSE]
    at.radio(key="calib_start").set_value(FOUND_START).run()
    at.text_input(key="calib_path").set_value(str(own)).run()
    before = own.read_bytes()
    at.button(key="calib_save").click().run()
    assert own.read_bytes() == before
    assert any("Not saved" in e.value for e in at.error)
