"""A protocol with format problems, opened in Russian: the Vote audit page lists each problem with the file's path
exactly as written in it (a folder or file name with an underscore is never read as a code and turned into words),
and says in Russian which field of the protocol it is in: no English key (`video, path`) is left."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from appcheck import renders, shown
from streamlit.testing.v1 import AppTest

from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def problems_listed(folder: Path, video: str) -> str:
    """The Vote audit page's list of the format problems of the sample protocol with `video` as its video's path
    (absolute: refused) and a count written in words, opened in Russian."""
    protocol = json.loads(SAMPLE_PROTOCOL.read_text(encoding="utf-8"))
    protocol["video"]["path"] = video
    protocol["events"][6]["count"] = "пять"
    path = folder / "club_night.protocol.json"
    path.write_text(json.dumps(protocol, ensure_ascii=False), encoding="utf-8")
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["game_spec"] = GameSpec(str(path))
    at.session_state["judge"] = "Судья"
    at.session_state["lang"] = "ru"
    at.run()
    renders(at)
    return next(shown(m.value) for m in at.markdown if "абсолютный путь" in m.value)


def test_a_refused_path_is_shown_as_written(data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOPFRAME_LANG", "ru")
    video = str(tmp_path / "my_games" / "table_1.mp4")
    listed = problems_listed(tmp_path, video)
    assert f"«{video}»" in listed, listed  # the judge finds the file the protocol names


def test_the_field_of_each_problem_is_named_in_russian(data: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOPFRAME_LANG", "ru")
    listed = problems_listed(tmp_path, str(tmp_path / "game.mp4"))
    assert "(видео, путь к файлу)" in listed and "(событие 7, число голосов)" in listed, listed
    assert not re.search(r"\((?:[a-z_]+, )*[a-z_]+\)", listed), listed
