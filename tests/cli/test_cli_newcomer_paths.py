"""A newcomer judge's slips with paths and numbers, in Russian: each is refused in one sentence naming the file
or the option, with the exit status of spec §6, and no file of the judge's is touched."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.clirun import run_cli

GAME = Path(__file__).resolve().parents[2] / "sample_videos" / "game"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """The sample game's protocol, seat map and observations in a folder named the way a judge names one."""
    folder = tmp_path / "Игра 1 тест"
    folder.mkdir()
    for suffix in (".protocol.json", ".seats.json", ".observations.json"):
        shutil.copy(GAME / f"sample_game{suffix}", folder)
    return folder


@pytest.fixture
def notes(game: Path) -> Path:
    """A notes file of the judge's, typed by mistake as a folder in an output path."""
    path = game / "заметки.txt"
    path.write_text("мои заметки", encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [
    ["validate", "{protocol}"],
    ["correct", "{protocol}", "--audit", "{protocol}", "--confirm-all"],
])
def test_an_output_under_a_file_is_refused_naming_that_file(command, game, notes, capsys):
    """`--out заметки.txt/отчёт.json`: a traceback before; now one Russian sentence naming the file on the way,
    exit 2, before anything runs, and the notes are as they were."""
    argv = [a.format(protocol=game / "sample_game.protocol.json") for a in command]
    code, out, err = run_cli(capsys, "--lang", "ru", *argv, "--out", notes / "отчёт.json")
    assert code == 2, err
    assert err.strip() == (f"stopframe: {notes / 'отчёт.json'}: сюда записать нельзя: {notes} — это файл, а не папка; "
                           "укажите папку, в которую записать.")
    assert notes.read_text(encoding="utf-8") == "мои заметки"


def test_a_missing_output_folder_is_still_made(game, capsys):
    out = game / "отчёты" / "проверка.json"
    code, _, err = run_cli(capsys, "--lang", "ru", "validate", game / "sample_game.protocol.json", "--out", out)
    assert code == 0, err
    assert out.is_file()


@pytest.mark.parametrize(("argv", "kind"), [
    (["align", "--protocol", "{game}/sample_game.protocol.json", "{game}"], "видео"),
    (["sync", "{game}/sample_game.protocol.json", "{game}"], "видео"),
    (["import", "polemica", "{game}"], "файл игры Polemica"),
])
def test_a_folder_given_for_a_file_is_called_a_folder(argv, kind, game, capsys):
    """The game's folder typed where its video goes: "no such file" before (the folder is right there)."""
    code, _, err = run_cli(capsys, "--lang", "ru", *[a.format(game=game) for a in argv])
    assert code == 2
    assert err.strip() == f"stopframe: {game}: это папка, а не файл ({kind})."
