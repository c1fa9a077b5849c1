"""A newcomer judge's slips with paths and numbers, in Russian: each is refused in one sentence naming the file
or the option, with the exit status of spec §6, and no file of the judge's is touched."""

from __future__ import annotations

import json
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


@pytest.mark.parametrize(("option", "said"), [
    (["--min-confidence", "2"], "--min-confidence 2: уверенность — доля от 0 до 1."),
    (["--min-confidence", "-0.5"], "--min-confidence -0,5: уверенность — доля от 0 до 1."),
    (["--min-confidence", "nan"], "audit: аргумент --min-confidence: «nan» — не число."),
    (["--jobs", "0"], "--jobs 0: одновременно должна идти хотя бы одна игра."),
])
def test_an_audit_number_no_audit_can_use_is_refused(option, said, game, capsys):
    """`--min-confidence 2` hid every finding behind «и ещё менее уверенных: 8» with exit 0."""
    code, out, err = run_cli(capsys, "--lang", "ru", "audit", "--protocol", game / "sample_game.protocol.json",
                             "--seats", game / "sample_game.seats.json",
                             "--observations", game / "sample_game.observations.json", *option)
    assert (code, out, err.strip()) == (2, "", f"stopframe: {said}")


@pytest.mark.parametrize(("option", "said"), [
    (["--start", "10.5", "--end", "5"], "--end 5 должен быть позже --start 10,5."),
    (["--start", "inf"], "observe: аргумент --start: «inf» — не число."),
])
def test_an_observe_window_that_holds_no_second_is_a_wrong_argument(option, said, game, capsys):
    """A window no video has was exit 1 (an invalid file) with Python's «10.5», or looked at nothing and said 0."""
    code, _, err = run_cli(capsys, "--lang", "ru", "observe", game / "sample_game.mp4",
                           "--seats", game / "sample_game.seats.json", *option)
    assert (code, err.strip()) == (2, f"stopframe: {said}")


def test_decisions_that_are_not_a_database_are_refused_in_russian_before_any_game_runs(game, notes, tmp_path, capsys):
    """`--decisions заметки.txt`: every game was audited first, then SQLite's English «file is not a database»."""
    shutil.copy(GAME / "sample_game.mp4", game)
    out = tmp_path / "итоги"
    code, _, err = run_cli(capsys, "--lang", "ru", "tournament", game, "--out", out, "--decisions", notes,
                           "--reuse-observations", "--jobs", "1")
    assert code == 2
    assert err.strip().endswith(f"stopframe: {notes}: не удаётся открыть базу решений: в файле не база данных, а что-то другое.")
    assert not list(out.rglob("*.audit.json"))
    assert notes.read_text(encoding="utf-8") == "мои заметки"


def test_align_names_the_proposed_times_in_words_not_field_codes(game, capsys):
    """The table said «t 3,151; cutoff 4,697; announced 5,551»: the protocol's field names, not a judge's words."""
    shutil.copy(GAME / "sample_game.mp4", game)
    protocol = game / "sample_game.protocol.json"
    data = json.loads(protocol.read_text(encoding="utf-8"))
    for event in (e for e in data["events"] if e["type"] == "vote"):
        for name in ("t", "cutoff", "announced"):
            event.pop(name, None)
    paper = game / "бумажный.protocol.json"
    paper.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, out, err = run_cli(capsys, "--lang", "ru", "align", game / "sample_game.mp4", "--protocol", paper)
    assert code == 0, err
    first = next(line for line in out.splitlines() if "кандидатура 6" in line)
    assert "объявлена " in first and "«Стоп» " in first and "подсчёт " in first, first
    assert not {"t", "cutoff", "announced"} & set(out.replace(";", " ").replace(":", " ").split())


def test_seats_out_naming_notes_says_they_are_not_a_seat_map(game, notes, capsys):
    """`seats --out заметки.txt` said «карта мест уже есть; добавьте --replace» (exit 1): the notes are no seat map,
    and --replace would not replace them either."""
    code, _, err = run_cli(capsys, "--lang", "ru", "seats", game / "sample_game.mp4", "--out", notes)
    assert (code, err.strip()) == (2, f"stopframe: {notes}: здесь лежит файл другого рода, а не карта мест; Stopframe "
                                      "его не заменяет: укажите другое имя файла.")
    assert notes.read_text(encoding="utf-8") == "мои заметки"


def test_seats_out_naming_the_games_map_is_a_wrong_argument(game, capsys):
    seats = game / "sample_game.seats.json"
    code, _, err = run_cli(capsys, "--lang", "ru", "seats", game / "sample_game.mp4", "--out", seats)
    assert code == 2 and "добавьте --replace" in err


def test_observe_from_past_the_videos_end_is_refused(game, capsys):
    """`--start 600` on a three-minute video (seconds typed for 10:00) said «0 интервалов руки» with exit 0."""
    shutil.copy(GAME / "sample_game.mp4", game)
    code, out, err = run_cli(capsys, "--lang", "ru", "observe", game / "sample_game.mp4",
                             "--seats", game / "sample_game.seats.json", "--start", "600")
    assert (code, out, err.strip()) == (2, "", "stopframe: --start 600: видео длится всего 175 с.")


def test_align_stop_at_outside_the_sound_is_refused(game, capsys):
    """`--stop-at 9999` was dropped without a word: the closing word was learnt from the protocol instead, exit 0."""
    shutil.copy(GAME / "sample_game.mp4", game)
    code, out, err = run_cli(capsys, "--lang", "ru", "align", "--protocol", game / "sample_game.protocol.json",
                             "--stop-at", "9999")
    assert (code, out) == (2, "")
    assert err.strip().endswith("stopframe: --stop-at 9999: звук видео идёт с 0 по 175 с; укажите секунду, на которой "
                                "слышно закрывающее слово.")


def test_audit_batch_names_the_kinds_of_findings_in_russian(game, tmp_path, capsys):
    """The summary's columns were headed count_mismatch, late_vote… and its progress began «audit:»."""
    shutil.copy(GAME / "sample_game.mp4", game)
    code, out, err = run_cli(capsys, "--lang", "ru", "audit", "--batch", game, "--reuse-observations", "--jobs", "1",
                             "--out", tmp_path / "отчёты")
    assert code == 0, err
    assert out.splitlines()[:3] == ["игра          голоса    всего", "sample_game       13        8",
                                    "  ошибка в подсчёте голосов: 2"]
    assert "  голос после «Стоп»: 1" in out.splitlines()
    assert "_" not in out.replace("sample_game", "") and err.startswith("проверка: 1 игра, по 1 одновременно")


@pytest.mark.parametrize("text", ["", "\n  \n"])
def test_an_empty_protocol_is_called_empty(text, game, capsys):
    """An empty file (a save that failed) was «некорректный JSON: строка 1, столбец 1: ожидалось значение»."""
    empty = game / "пустой.protocol.json"
    empty.write_text(text, encoding="utf-8")
    code, _, err = run_cli(capsys, "--lang", "ru", "validate", empty)
    assert (code, err.strip()) == (2, f"stopframe: {empty}: протокол — пустой файл: в нём ничего нет.")


def test_out_naming_the_protocol_it_reads_is_refused_in_plain_russian(game, capsys):
    """«а файл (файл --out) — это …» said «file» twice; the protocol stays as it was."""
    protocol = game / "sample_game.protocol.json"
    before = protocol.read_bytes()
    code, _, err = run_cli(capsys, "--lang", "ru", "validate", protocol, "--out", protocol)
    assert (code, err.strip()) == (2, f"stopframe: {protocol}: Stopframe никогда не перезаписывает читаемый протокол, "
                                      f"а файл --out — это {protocol}, один из файлов, с которыми он работает; выберите другой файл.")
    assert protocol.read_bytes() == before


def test_draft_from_a_text_file_named_mp4_is_refused_not_drafted_as_silent(game, capsys):
    """A text file named .mp4 was «в видео нет звука» and a draft written from the saved hands, exit 0."""
    fake = game / "игра.mp4"
    fake.write_text("это не видео", encoding="utf-8")
    draft = game / "черновик.protocol.json"
    code, _, err = run_cli(capsys, "--lang", "ru", "draft", fake, "--protocol", game / "sample_game.protocol.json",
                           "--seats", game / "sample_game.seats.json",
                           "--observations", game / "sample_game.observations.json", "--out", draft)
    assert code == 2 and not draft.exists()
    assert err.strip().endswith(f"stopframe: {fake}: видео не читается: его данные повреждены или такого вида, "
                                "который программа не читает.")
    assert "нет звука" not in err


@pytest.mark.parametrize(("command", "words"), [("observe", "--observations"), ("seats", "карту мест камеры")])
def test_every_command_help_says_what_it_does(command, words, capsys):
    """`observe --help` and `seats --help` gave the usage and options only, not what the command is for."""
    with pytest.raises(SystemExit):
        run_cli(capsys, "--lang", "ru", command, "--help")
    out = " ".join(capsys.readouterr().out.split())
    assert out.split("позиционные аргументы")[0].count(words) == 1, out
