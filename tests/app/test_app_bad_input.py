"""Bad files in the app: each one is a visible sentence naming the file, never a traceback, and the app
keeps running (every page still renders)."""

from __future__ import annotations

import importlib.util
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from appcheck import shown as as_read
from streamlit.testing.v1 import AppTest

from stopframe_app.game import GameSpec

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "app"
_spec = importlib.util.spec_from_file_location("make_game", FIXTURE / "make_game.py")
make_game_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_game_mod)  # type: ignore[union-attr]
PAGES = ("Vote audit", "Timeline & frames", "Seat calibration", "Exports", "Open a game")


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_game_mod.make_game(tmp_path_factory.mktemp("game"), seconds=22).with_name("app_game.mp4")


def _protocol() -> dict:
    return json.loads((FIXTURE / "app_game.protocol.json").read_text())


def _write(folder: Path, name: str, content: str | bytes | dict) -> Path:
    path = folder / name
    if isinstance(content, dict):
        content = json.dumps(content)
    if isinstance(content, str):
        content = content.encode()
    path.write_bytes(content)
    return path


def _case_malformed_json(f: Path, v: Path) -> tuple[GameSpec, str]:
    return GameSpec(str(_write(f, "g.protocol.json", '{"format": "stopframe-protocol/1", "events": [1,'))), "not valid JSON"


def _case_huge_file(f: Path, v: Path) -> tuple[GameSpec, str]:
    path = f / "g.protocol.json"
    with path.open("wb") as fh:
        fh.truncate(25 * 1024 * 1024)
    return GameSpec(str(path)), "too large"


def _case_deep_nesting(f: Path, v: Path) -> tuple[GameSpec, str]:
    return GameSpec(str(_write(f, "g.protocol.json", "[" * 200_000 + "]" * 200_000))), "g.protocol.json"


def _case_seat_0_and_11(f: Path, v: Path) -> tuple[GameSpec, str]:
    data = _protocol()
    data["players"][0]["seat"] = 0
    data["events"][6]["candidate"] = 11
    return GameSpec(str(_write(f, "g.protocol.json", data))), "problem"


def _case_unknown_profile(f: Path, v: Path) -> tuple[GameSpec, str]:
    data = _protocol()
    data["rules"] = "poker"
    return GameSpec(str(_write(f, "g.protocol.json", data))), "poker"


def _case_video_outside_folder(f: Path, v: Path) -> tuple[GameSpec, str]:
    data = _protocol()
    data["video"]["path"] = "../../etc/passwd"
    return GameSpec(str(_write(f, "g.protocol.json", data))), "leaves the protocol's folder"


def _case_zero_byte_video(f: Path, v: Path) -> tuple[GameSpec, str]:
    return GameSpec(str(_write(f, "g.protocol.json", _protocol())), video=str(_write(f, "empty.mp4", b""))), "empty"


def _case_corrupt_video(f: Path, v: Path) -> tuple[GameSpec, str]:
    junk = _write(f, "junk.mp4", b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 40)
    return GameSpec(str(_write(f, "g.protocol.json", _protocol())), video=str(junk)), "junk.mp4"


def _case_bad_seat_map(f: Path, v: Path) -> tuple[GameSpec, str]:
    shutil.copy(v, f / "app_game.mp4")
    seats = _write(f, "s.seats.json", {"format": "stopframe-seats/1", "frame_size": [640, 480], "seats": {"0": {}}})
    return GameSpec(str(_write(f, "g.protocol.json", _protocol())), seats=str(seats)), "s.seats.json"


def _case_other_aspect_seat_map(f: Path, v: Path) -> tuple[GameSpec, str]:
    shutil.copy(v, f / "app_game.mp4")
    seats = json.loads((FIXTURE / "app_game.seats.json").read_text())
    seats["frame_size"] = [1000, 1000]
    return (GameSpec(str(_write(f, "g.protocol.json", _protocol())), seats=str(_write(f, "s.seats.json", seats))),
            "1000x1000")


def _case_bad_observations(f: Path, v: Path) -> tuple[GameSpec, str]:
    shutil.copy(v, f / "app_game.mp4")
    obs = _write(f, "o.observations.json", {"format": "stopframe-observations/1", "fps": 25, "hands": [{"seat": "x"}]})
    return GameSpec(str(_write(f, "g.protocol.json", _protocol())), observations=str(obs)), "o.observations.json"


def _case_observations_of_another_video(f: Path, v: Path) -> tuple[GameSpec, str]:
    shutil.copy(v, f / "app_game.mp4")
    obs = json.loads((FIXTURE / "app_game.observations.json").read_text())
    obs["x_video_fingerprint"] = "12:not-this-video"
    return (GameSpec(str(_write(f, "g.protocol.json", _protocol())), observations=str(_write(f, "o.json", obs))),
            "another version of the video")


def _case_formula_nickname(f: Path, v: Path) -> tuple[GameSpec, str]:
    shutil.copy(v, f / "app_game.mp4")
    data = _protocol()
    data["players"][1]["nickname"] = "=cmd|' /C calc'!A0"
    return GameSpec(str(_write(f, "g.protocol.json", data))), ""


CASES: dict[str, Callable[[Path, Path], tuple[GameSpec, str]]] = {
    name[len("_case_"):]: fn for name, fn in globals().items() if name.startswith("_case_")
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_a_visible_sentence(case: str, tmp_path: Path, video: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOPFRAME_DATA", str(tmp_path / "data"))
    folder = tmp_path / "in"
    folder.mkdir()
    spec, expected = CASES[case](folder, video)
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    at.session_state["game_spec"] = spec
    at.session_state["judge"] = "J"
    at.run()
    said = as_read(" ".join(e.value for e in [*at.error, *at.warning, *at.info, *at.caption, *at.markdown]) + " ".join(
        ex.label for ex in at.expander))
    assert not at.exception, [e.value for e in at.exception]
    assert expected.lower() in said.lower(), said
    assert "Traceback" not in said
    for page in PAGES:
        at.sidebar.radio(key="view").set_value(page).run()
        assert not at.exception, (page, [e.value for e in at.exception])
        assert not [e.value for e in at.error if "could not be shown" in e.value], (page, [e.value for e in at.error])
