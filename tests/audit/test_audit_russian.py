"""A Russian judge reads the audit in Russian: each finding's sentence with its own times and seats, the refusals
of observations and seat maps that do not fit, while the report's `x_text` stays the English of the contract."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from test_night import fire_on, game, seen

from contract import i18n
from contract.errors import InvalidInput
from contract.night import Raised
from contract.observations import load_observations, observations_from_json
from contract.seats import Seat, SeatMap
from review.audit.audit import audit
from review.audit.findings import AuditReport, Finding, message
from review.audit.inputs import check_seat_geometry
from review.audit.night import audit_nights
from review.cases.exports import finding_rows, finding_said
from stopframe_app.report import findings_csv, html_report

FIX = Path(__file__).parents[1] / "fixtures" / "audit" / "day_vote"
LATIN_WORD = re.compile(r"\b[A-Za-z]{3,}\b")


def _day_report() -> AuditReport:
    data = json.loads(FIX.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    report = audit(data, load_observations(FIX.with_suffix(".observations.json")))
    return AuditReport.from_json(json.loads(json.dumps(report.to_json())))  # as the report file reads back


def _in_russian(f: Finding) -> str:
    with i18n.using("ru"):
        return finding_said(f.to_json())


def _cyrillic(text: str) -> bool:
    return bool(re.search("[а-яё]", text, re.I))


def test_every_day_finding_reads_in_russian_with_its_times_and_stays_english_in_the_file() -> None:
    report = _day_report()
    assert {f.kind for f in report.findings} >= {"late_vote", "early_hand", "lifted_early", "double_vote", "wrong_form",
                                                 "no_vote", "count_mismatch"}
    for f in report.findings:
        said = _in_russian(f)
        assert _cyrillic(said) and not LATIN_WORD.findall(said), (f.kind, said)
        assert not _cyrillic(f.text), f.text  # the report's x_text: the contract's English
        with i18n.using("en"):
            assert finding_said(f.to_json()) == f.text  # the same sentence, read in English
    early = next(f for f in report.findings if f.kind == "early_hand")
    assert early.text == "Seat 7's hand was on the table 0.40 s before candidate 5 was named."
    assert _in_russian(early) == "Рука места 7 лежала на столе уже за 0,40 с до того, как объявили голосование за кандидатуру 5."
    silent = next(f for f in report.findings if f.kind == "count_mismatch" and f.candidate == 8)
    assert _in_russian(silent) == "В протоколе за кандидатуру 8 — 3; по видео — 4 (в том числе 2 молчаливых голоса)."
    form = next(f for f in report.findings if f.kind == "wrong_form")
    assert _in_russian(form) == "Место 5 проголосовало за кандидатуру 8 открытой ладонью."


def test_the_night_findings_read_in_russian() -> None:
    pose = Raised(3, 30.0, 34.5, 5, None)  # seat 3 holds a hand up long after the checks: out of the night pose
    result = audit_nights(game(target=10), seen({2: fire_on(10), 7: fire_on(10), 9: None},
                                                 shown={7: (16.8, 5), 4: (22.0, 9)}, extra=[pose]))
    said = {f.kind: _in_russian(f) for f in result.findings}
    assert said["shot_mismatch"] == "Ночь 1: на видео — промах (место 9 не стреляло); в протоколе — убит игрок 10."
    assert said["check_mismatch"] == "Ночь 1: дон (место 7) показывает пальцами 5; в протоколе записана проверка места 4."
    assert said["night_hand"] == "Ночь 1: место 3 нарушает ночную позу — поднятая рука не в свой черёд (30,00–34,50 с)."
    shot = next(f for f in result.findings if f.kind == "shot_mismatch")
    assert shot.text == "Night 1: the video shows a miss (seat 9 did not shoot); the protocol records seat 10 killed."
    assert result.rows[0]["video_outcome"] == "seat 9 did not shoot"  # a code the app reads back, kept English


def test_a_russian_audit_run_still_writes_the_english_report() -> None:
    with i18n.using("ru"):
        report = _day_report()
    assert all(not _cyrillic(f.text) for f in report.findings)
    assert all(not _cyrillic(json.dumps(v.to_json(), ensure_ascii=False)) for v in report.votes)


def test_the_russian_report_and_csv_show_the_sentence_with_its_time() -> None:
    report = _day_report()
    rows = finding_rows(report.findings, {}, None)
    with i18n.using("ru"):
        page = html_report(title="Игра", protocol=None, rows=rows)
        csv = findings_csv(rows, ";")
    for text in (page, csv):
        assert "за 0,40 с до того, как объявили голосование за кандидатуру 5" in text
        assert "before candidate" not in text and "placed no hand" not in text


def test_a_sentence_naming_an_edited_seat_or_a_foreign_message_falls_back_to_the_kinds_words() -> None:
    early = next(f for f in _day_report().findings if f.kind == "early_hand").to_json()
    with i18n.using("ru"):
        assert finding_said({**early, "seat": 4}).startswith("Рука места 4 была на столе")  # the judge moved it to seat 4
        for kept in (message("{seat.__class__}", seat=7), {"msgid": "Seat {seat}'s hand was on the table {seconds} s "
                                                                    "before {whom} was named.", "values": {"seat": 7}},
                     {"msgid": ["not", "text"]}, "a sentence"):
            assert finding_said({**early, "x_text_message": kept}).startswith("Рука места 7 была на столе"), kept


@pytest.mark.parametrize(("document", "said"), [
    ({"format": "stopframe-observations/1", "fps": 25, "hands": [{"seat": 3, "on": 5.0, "off": 4.0}]},
     "hands[0].off: 4 с не позже on 5 с (интервал — это [on, off))"),
    ({"format": "stopframe-observations/1", "fps": 25, "hands": [{"seat": 3, "on": 5.0}]},
     "hands[0].off: отсутствует (интервалу руки нужны seat, on и off)"),
    ({"format": "stopframe-observations/1", "fps": 25, "hands": [{"seat": 3, "on": "soon", "off": 6.0}]},
     "hands[0].on: должно быть временем в секундах, а не текст «soon»"),
])
def test_an_observations_refusal_reads_in_russian(document: dict, said: str) -> None:
    with i18n.using("ru"), pytest.raises(InvalidInput) as refused:
        observations_from_json(document, "game.observations.json")
    assert str(refused.value) == f"game.observations.json: {said}."


def test_a_seat_map_refusal_reads_in_russian() -> None:
    seats = SeatMap((100, 100), {1: Seat(np.array([(0, 0), (50, 0), (50, 50), (0, 50)], float)),
                                 2: Seat(np.array([(25, 25), (75, 25), (75, 75), (25, 75)], float))})

    with i18n.using("ru"), pytest.raises(InvalidInput) as refused:
        check_seat_geometry(seats, "game.seats.json")
    assert str(refused.value) == ("game.seats.json: seats.1.zone и seats.2.zone пересекаются: рука там засчиталась бы "
                                  "обоим местам; разведите зоны.")


def test_the_command_lines_table_gives_each_finding_in_russian() -> None:
    from stopframe_cli.audit import report_table

    with i18n.using("ru"):
        table = report_table(_day_report())
    assert "Рука места 7 лежала на столе уже за 0,40 с до того, как объявили голосование за кандидатуру 5." in table
    assert "placed no hand" not in table and "Seat 7" not in table
