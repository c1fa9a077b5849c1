"""`stopframe correct` in Russian (`--lang ru` or STOPFRAME_LANG=ru): the summary, the refusals and the notes the
corrected protocol carries (the reasons of the added fouls and fines, `x_review`'s changes and refusals) are in
Russian, and the file still validates; its keys and codes stay English."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from clirun import run_cli
from corrections import GAME, SAMPLE, read, written_audit

from review.game.protocol import validate

PROTOCOL = GAME.with_suffix(".protocol.json")
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
ENGLISH = re.compile(r"\b(?:added|count for|cannot|the|seat|finding|confirmed|valid|none)\b")


@pytest.fixture(scope="module")
def audit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("audit_ru") / "sample_game.rfm.audit.json"
    written_audit(SAMPLE, out, rules="rfm", nights=True)
    return out


def _index(audit: Path, kind: str, seat: int | None) -> int:
    return next(i for i, f in enumerate(read(audit)["findings"]) if f["kind"] == kind and f["seat"] == seat)


def test_the_corrected_protocol_written_in_russian_has_russian_notes_and_validates(capsys, audit, tmp_path) -> None:
    picks = [_index(audit, k, s) for k, s in (("early_hand", 5), ("no_vote", 8), ("late_vote", 9), ("night_hand", 1))]
    out = tmp_path / "sample_game.corrected.protocol.json"
    code, stdout, err = run_cli(capsys, "--lang", "ru", "correct", PROTOCOL, "--audit", audit, "--confirm", *picks,
                                "--out", out)
    assert (code, err) == (0, "")
    assert "подтверждено 4 нарушения" in stdout and "проходит проверку по регламенту rfm" in stdout
    assert not ENGLISH.search(stdout.replace(str(out), ""))
    data = read(out)
    assert validate(data) == []  # the validator of review.game
    assert run_cli(capsys, "--lang", "ru", "validate", out)[0] == 0  # and `stopframe validate`
    added = [e for e in data["events"] if e.get("x_review")]
    assert {e["type"] for e in added} == {"foul", "fine"}
    assert all(CYRILLIC.search(e["reason"]) for e in added)
    assert {e["reason"] for e in added} >= {"постановка руки до голосования", "непоставленная рука"}
    changes = data["x_review"]["changes"]
    assert changes and all(CYRILLIC.search(c["change"]) and not ENGLISH.search(c["change"]) for c in changes)
    assert any(c["change"].startswith("добавлен штраф -0,2: место 8 (rfm 5.10.1)") for c in changes)
    assert {c["reason"] for c in changes if c["finding"]} == {"подтверждено через stopframe correct"}
    assert {c["status"] for c in changes} <= {"confirmed", "derived"}  # codes stay English


def test_a_finding_that_cannot_be_applied_is_refused_in_russian(capsys, audit, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("STOPFRAME_LANG", "ru")
    out = tmp_path / "c.json"
    code, stdout, err = run_cli(capsys, "correct", PROTOCOL, "--audit", audit, "--confirm-all", "--out", out)
    assert code == 1 and stdout == "" and not out.exists()
    [line] = err.strip().splitlines()
    i = _index(audit, "night_hand", 5)
    assert f"{audit}, находка {i}: Движение руки ночью (место 5), ночь 2 (rfm 5.12.10): применить нельзя — " in line
    assert "в сыгранной игре место 5 играет и после этого удаления (место 7 выставляет место 5 в день 3: " in line
    assert "отклоните находку или измените её последствие" in line and "events[" not in line
    assert not ENGLISH.search(line.replace(str(audit), ""))


@pytest.mark.parametrize(("argv", "words"), [
    (["--confirm", "99"], "--confirm 99: в "),
    (["--confirm", "two"], "номер нарушения — целое число"),
])
def test_wrong_indexes_are_refused_in_russian(capsys, audit, tmp_path, argv: list[str], words: str) -> None:
    code, _, err = run_cli(capsys, "--lang", "ru", "correct", PROTOCOL, "--audit", audit, *argv, "--out", tmp_path / "c.json")
    assert code == 2 and words in err and "finding" not in err


def test_an_unreadable_audit_is_refused_in_russian(capsys, tmp_path) -> None:
    bad = tmp_path / "bad.audit.json"
    bad.write_text(json.dumps({"format": "stopframe-audit/1", "findings": [{"kind": "hat"}]}), encoding="utf-8")
    code, _, err = run_cli(capsys, "--lang", "ru", "correct", PROTOCOL, "--audit", bad, "--confirm-all",
                           "--out", tmp_path / "c.json")
    assert code == 2 and f"{bad}: findings[0]: это не нарушение" in err


def test_voters_from_the_video_are_reported_in_russian(capsys, tmp_path) -> None:
    audit = tmp_path / "sample.audit.json"
    written_audit(SAMPLE, audit)
    out = tmp_path / "sample.corrected.protocol.json"
    code, stdout, err = run_cli(capsys, "--lang", "ru", "correct", PROTOCOL, "--audit", audit, "--confirm", "0",
                                "--voters-from-video", "--out", out)
    assert (code, err) == (0, "")
    assert "заполнены по видео (с пометкой x_voters_from_video)" in stdout
    assert "осталось только число голосов, первое — голосование за кандидатуру 6 в день 1: " in stdout and "нет решения по нарушению: " in stdout
    assert "is not decided" not in stdout
    assert validate(read(out)) == []
