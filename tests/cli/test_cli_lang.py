"""The command line speaks the judge's language: Russian by default, English with --lang en; JSON stays JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from contract import i18n
from tests.clirun import run_cli


@pytest.fixture
def russian_system(monkeypatch):
    monkeypatch.delenv("STOPFRAME_LANG", raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)


def test_a_missing_protocol_is_refused_in_russian(russian_system, capsys, tmp_path):
    missing = tmp_path / "game.json"
    code, out, err = run_cli(capsys, "validate", missing)
    assert code == 2
    assert err.strip() == f"stopframe: {missing}: не удаётся прочитать файл (протокол): нет такого файла или папки."


def test_lang_en_refuses_in_english_on_a_russian_system(russian_system, capsys, tmp_path):
    missing = tmp_path / "game.json"
    code, out, err = run_cli(capsys, "--lang", "en", "validate", missing)
    assert code == 2
    assert err.strip() == f"stopframe: {missing}: cannot read the protocol: No such file or directory."
    assert i18n.language() == "ru"  # the flag held for that run only


def test_lang_ru_wins_over_an_english_environment(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("STOPFRAME_LANG", "en")
    bad = tmp_path / "game.json"
    bad.write_text('{"format": ', encoding="utf-8")
    code, out, err = run_cli(capsys, "--lang=ru", "validate", bad)
    assert code == 2
    assert "некорректный JSON: строка 1" in err and "protocol" not in err


def test_an_unknown_language_is_a_usage_error(capsys):
    code, out, err = run_cli(capsys, "--lang", "fr", "validate", "x.json")
    assert code == 2
    assert "--lang" in err and '"ru"' in err


def test_the_audit_table_in_russian_keeps_the_json_english(capsys):
    fix = Path(__file__).parents[1] / "fixtures" / "audit"
    args = ["audit", fix / "day_vote.mp4", "--protocol", fix / "day_vote.protocol.json",
            "--seats", fix / "day_vote.seats.json", "--observations", fix / "day_vote.observations.json"]
    code, out, err = run_cli(capsys, "--lang", "ru", *args)
    assert code == 0
    assert "Голосования" in out and "Нарушения (8, сначала самые уверенные)" in out and "ИЗМЕНЕНО — по протоколу" in out
    assert "место 9" in out and "голос не засчитывается" in out and "штраф -0,2" in out and "13,60 с" in out
    assert "Votes" not in out and "seat 9" not in out
    code, out, err = run_cli(capsys, "--lang", "ru", *args, "--json")
    data = json.loads(out)
    assert {f["kind"] for f in data["findings"]} >= {"late_vote", "no_vote"}
    assert {f["consequence"]["type"] for f in data["findings"]} >= {"not_counted", "fine"}


ARGPARSE_ENGLISH = ("usage", "positional arguments", "options:", "show this help", "argument ", "required",
                    "invalid", "expected", "unrecognized", "choose from")


def test_the_help_is_russian_through_and_through(russian_system, capsys):
    """argparse's own words (usage, the groups' titles, -h) come from the catalogue, not in English."""
    for argv in (["--help"], ["draft", "--help"]):
        with pytest.raises(SystemExit) as done:
            run_cli(capsys, *argv)
        assert done.value.code == 0
        out = capsys.readouterr().out
        assert out.startswith("использование: stopframe") and "параметры:" in out
        assert "показать эту справку и выйти" in out
        assert not [w for w in ARGPARSE_ENGLISH if w in out]


@pytest.mark.parametrize("argv,sentence", [
    (["draft"], "stopframe: draft: не хватает обязательных аргументов: VIDEO, --protocol, --out."),
    (["audit", "game.mp4", "--protocol"], "stopframe: audit: аргумент --protocol: после него нужно одно значение."),
    (["tournament", "games", "--jobs", "x"], "stopframe: tournament: аргумент --jobs: «x» — не целое число."),
    (["observe", "game.mp4", "--seats", "s.json", "--start", "abc"],
     "stopframe: observe: аргумент --start: «abc» — не число."),
    (["validate", "a.json", "b.json"], "stopframe: лишние аргументы: b.json."),
    (["drat"], 'stopframe: аргумент COMMAND: такого варианта нет: "drat" (можно: "validate", "replay", "import", '
               '"observe", "audit", "align", "correct", "seats", "tournament", "sync", "draft", "live", "app").'),
])
def test_wrong_arguments_are_refused_in_one_russian_sentence(russian_system, capsys, argv, sentence):
    """A judge who mistypes a command reads what is wrong in Russian, once, with the exit status of a usage error."""
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert err.strip() == sentence


def test_wrong_arguments_are_refused_in_english_with_lang_en(russian_system, capsys):
    code, out, err = run_cli(capsys, "--lang", "en", "tournament", "games", "--jobs", "2.5")
    assert code == 2
    assert err.strip() == 'stopframe: tournament: argument --jobs: "2.5" is not a whole number.'
    code, out, err = run_cli(capsys, "--lang", "en", "draft")
    assert err.strip() == "stopframe: draft: the following arguments are required: VIDEO, --protocol, --out."


def test_the_replay_table_says_how_each_seat_left_and_each_vote_ended_in_russian(russian_system, capsys):
    """How a seat left and what a vote decided are words (rfm 4.4.12, 4.4.13), never the protocol's codes."""
    game = Path(__file__).parents[2] / "sample_videos" / "game" / "sample_game.protocol.json"
    code, out, err = run_cli(capsys, "replay", game)
    assert code == 0
    assert "  1. место  6, день 1: голосование" in out and "  2. место 10, ночь 1: отстрел" in out
    assert "  3. место  9, день 2: голосование за подъём" in out
    assert "-> место 6 покидает игру (rfm 4.4.12)" in out and "-> равенство 9, 3: переголосование (rfm 4.4.13)" in out
    assert "-> места 9, 3 покидают игру (rfm 4.4.13.3)" in out
    assert not [w for w in (" vote", " shot", " lift", "leaves", "tie ", "revote") if w in out]


def test_out_never_writes_over_a_file_of_another_kind(russian_system, capsys, tmp_path):
    """A mistyped --out naming the judge's notes or another document is refused (exit 2) and the file kept; the
    command's own earlier result at that name is replaced, so a re-run works."""
    game = Path(__file__).parents[2] / "sample_videos" / "game" / "sample_game.protocol.json"
    club = Path(__file__).parents[1] / "fixtures" / "import" / "polemica_game.json"
    notes = tmp_path / "notes.json"
    notes.write_text('{"mine": 1}', encoding="utf-8")
    code, out, err = run_cli(capsys, "import", "polemica", club, "--out", notes)
    assert code == 2 and notes.read_text(encoding="utf-8") == '{"mine": 1}'
    assert err.strip().startswith(f"stopframe: {notes}: здесь уже лежит файл другого рода, а не прежний протокол")
    report = tmp_path / "report.json"
    for _ in range(2):  # a re-run writes over its own earlier result
        assert run_cli(capsys, "validate", game, "--out", report)[0] == 0
    protocol = tmp_path / "imported.protocol.json"
    assert run_cli(capsys, "import", "polemica", club, "--out", protocol)[0] == 0
    before = protocol.read_bytes()
    code, out, err = run_cli(capsys, "validate", game, "--out", protocol)  # a report over a protocol
    assert code == 2 and protocol.read_bytes() == before and "прежний отчёт" in err


def test_a_game_skipped_for_missing_files_is_said_in_russian(russian_system, tmp_path):
    """The tournament's and `audit --batch`'s note on a game it cannot audit names the files in Russian words."""
    from pipeline.batch import find_games

    (tmp_path / "g7.protocol.json").write_text("{}", encoding="utf-8")
    games, skipped = find_games(tmp_path, False)
    assert games == [] and skipped == ["g7: рядом с протоколом нет g7.seats.json, g7.mp4"]


def test_the_observe_table_says_why_a_seat_was_not_seen_in_russian(russian_system):
    """The observations keep an unseen seat's reason in English (a catalogue key); the table says it in Russian,
    with the form column as wide as the Russian words."""
    from stopframe_cli.observe import _table

    data = {"video": "game.mp4", "fps": 25.0, "hands": [
        {"seat": 5, "on": 3.0, "off": 5.0, "on_frame": 75, "off_frame": 125, "pose": "thumb_up_fist", "confidence": 0.5},
        {"seat": 4, "on": 3.6, "off": 5.0, "on_frame": 91, "off_frame": 125, "pose": "fist", "confidence": 0.7}],
        "x_unseen": [{"seat": 10, "start": 0.0, "end": 5.0, "why": "the seat's zone lies outside the picture"}]}
    lines = _table(data).splitlines()
    assert lines[-1] == "место 10 не видно 0,00–5,00 с: зона места лежит за пределами кадра"
    confidences = [line.rindex("0,") for line in lines[2:4]]
    assert confidences[0] == confidences[1]  # the column after the forms lines up


def test_every_argument_of_every_command_is_explained_in_its_help():
    """`stopframe CMD --help` names what each argument is: none is a bare PROTOCOL or FILE with nothing beside it."""
    import argparse

    from stopframe_cli.main import build_parser

    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    bare = [f"{name} {a.metavar or a.dest}" for name, parser in commands.items() for a in parser._actions
            if not a.help and not isinstance(a, argparse._HelpAction)]
    assert bare == []


def test_the_findings_table_lines_up_in_russian(russian_system, capsys):
    """A finding's Russian name runs longer than its English one: each column starts at one place on every line."""
    game = Path(__file__).parents[2] / "sample_videos" / "game"
    code, out, _ = run_cli(capsys, "audit", "--protocol", game / "sample_game.protocol.json", "--seats",
                           game / "sample_game.seats.json", "--observations", game / "sample_game.observations.json")
    rows = [line for line in out.splitlines() if line.startswith("  #")]
    assert code == 0 and len(rows) > 3
    assert len({row.index(" д1 г1 ") for row in rows}) == 1 and len({row.index(" rfm ") for row in rows}) == 1


def test_a_choice_refused_lists_the_choices_as_the_other_lists_do(russian_system, capsys, tmp_path):
    """The CSV separators are quoted like every other list of choices, not in Python's quotes."""
    code, _, err = run_cli(capsys, "tournament", tmp_path, "--out", tmp_path / "out", "--csv-sep", "abc")
    assert code == 2 and err.strip().endswith('такого варианта нет: "abc" (можно: ",", ";").')
