"""Paths a judge types or pastes into the app's boxes: one pasted in single quotes (a terminal's or a file manager's
copy) is read as the file it names on every page that takes a path, and a folder given where a file is asked for is
said to be a folder, with the file to give instead — never «there is no file there», which sends the judge looking
for a typo."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from appcheck import goto, sample_game_in_russian, shown
from streamlit.testing.v1 import AppTest

from stopframe_app.game import SAMPLE_PROTOCOL
from stopframe_app.views.tournament import folder_of


def _open_by_path(at: AppTest, typed: str) -> AppTest:
    goto(at, "Open a game")
    at.text_input(key="path_protocol").input(typed).run()
    return at.button(key="open_paths").click().run()


def test_a_folder_given_for_the_protocol_is_said_to_be_a_folder(data: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    at = _open_by_path(sample_game_in_russian(monkeypatch), str(tmp_path))
    said = [shown(e.value) for e in at.error]
    assert said == [f"Не открыто: {tmp_path} — это папка; укажите файл протокола в ней (ИМЯ.protocol.json). "
                    "Открытая ранее игра остаётся открытой."]
    assert at.session_state["game_spec"].protocol == str(SAMPLE_PROTOCOL)


def test_a_protocol_pasted_in_single_quotes_opens(data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "game 2.protocol.json"
    shutil.copyfile(SAMPLE_PROTOCOL, copy)
    at = _open_by_path(sample_game_in_russian(monkeypatch), f" '{copy}' ")
    assert not at.exception and not [e.value for e in at.error if "Не открыто" in e.value]
    assert at.session_state["game_spec"].protocol == str(copy)


def test_a_tournament_folder_pasted_in_single_quotes_is_that_folder(tmp_path: Path) -> None:
    assert folder_of(f"'{tmp_path}'") == tmp_path
    assert folder_of(f'"{tmp_path / "tournament.json"}"') == tmp_path


def test_a_seat_map_saved_to_a_quoted_path_lands_on_that_file(data: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    at = goto(sample_game_in_russian(monkeypatch), "Seat calibration")
    target = tmp_path / "table 1.seats.json"
    box = next(b for b in at.text_input if b.label == "Сохранить карту мест как")
    box.input(f"'{target}'").run()
    at.button(key="calib_save").click().run()
    assert not at.exception
    assert json.loads(target.read_text())["format"] == "stopframe-seats/1"
    assert not [p for p in (tmp_path, data) for p in p.rglob("*") if "'" in p.name]


def test_a_folder_given_for_the_sheets_video_is_said_to_be_a_folder(data: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    at = goto(sample_game_in_russian(monkeypatch), "Protocol")
    at.button(key="sheet_new_start").click().run()
    at.text_input(key=f"sheet_video_{at.session_state['sheet_id']}").input(str(tmp_path)).run()
    assert [shown(e.value) for e in at.error] == [f"{tmp_path} — это папка; укажите сам видеофайл в ней."]


def _tournament_said(typed: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    at = goto(sample_game_in_russian(monkeypatch), "Tournament")
    at.text_input(key="tournament_path").input(typed).run()
    at.button(key="tournament_open").click().run()
    assert not at.exception
    return [shown(e.value) for e in at.error]


def test_a_tournament_folder_that_is_not_one_says_what_is_there_and_what_to_give(data: Path, tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    give = "Укажите папку, в которую проверка турнира записала результаты (в ней лежит tournament.json)."
    assert _tournament_said(str(tmp_path / "nope"), monkeypatch) == [f"Не открыто: папки {tmp_path / 'nope'} нет."]
    video = tmp_path / "table 1.mp4"
    video.write_bytes(b"not a video")
    assert _tournament_said(str(video), monkeypatch) == [f"Не открыто: {video} — файл, а не папка турнира. {give}"]
    assert _tournament_said(str(tmp_path), monkeypatch) == [f"Не открыто: в {tmp_path} нет tournament.json. {give}"]


def test_a_seat_map_is_never_offered_to_replace_a_file_that_is_not_one(data: Path, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The page offered «Replace an existing seat map» for a text file named .json, then refused with the command
    line's «--replace»; it says at once what the file is and to give another name, and the file is left as it was."""
    notes = tmp_path / "notes.json"
    notes.write_text("**x** <b>y</b>", encoding="utf-8")
    at = goto(sample_game_in_russian(monkeypatch), "Seat calibration")
    next(b for b in at.text_input if b.label == "Сохранить карту мест как").input(str(notes)).run()
    assert not [c for c in at.checkbox if c.key == "calib_replace"]
    at.button(key="calib_save").click().run()
    assert [shown(e.value) for e in at.error] == [
        f"Не сохранено: {notes} — файл, который не является картой мест, а Stopframe записывает карту мест только "
        "поверх другой карты мест; укажите другое имя файла."]
    assert notes.read_text(encoding="utf-8") == "**x** <b>y</b>"
