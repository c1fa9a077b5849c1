"""The findings CSV, the HTML report and the appeal case file in Russian: the rulebooks' terms, Russian
headings, a decimal comma."""

from __future__ import annotations

import csv
import io

from corrections import one_vote_game

from contract import i18n
from review.audit.findings import Finding
from review.cases.appeal_report import appeal_html
from review.cases.appeals import AppealCase, Decision, EvidenceItem
from review.cases.exports import finding_rows
from stopframe_app.report import findings_csv, html_report

LATE = {"kind": "late_vote", "seat": 9, "seats": None, "day": 1, "night": None, "round": 1, "candidate": 5,
        "t": 31.456, "clause": "rfm 4.4.7", "consequence": {"type": "not_counted", "points": None},
        "confidence": 0.874, "text": "Seat 9's hand landed after «Стоп»."}


def _rows():
    return finding_rows([Finding.from_json(LATE)], {}, one_vote_game())


def test_the_findings_csv_in_russian():
    with i18n.using("ru"):
        text = findings_csv(_rows())
    header, row = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert header[:3] == ["нарушение", "день", "ночь"] and "что видно на видео" in header
    cells = dict(zip(header, row, strict=True))
    assert cells["нарушение"] == "голос после «Стоп»"
    assert cells["последствие"] == "голос не засчитывается"
    assert cells["решение"] == "открыто"


def test_the_html_report_in_russian():
    with i18n.using("ru"):
        page = html_report(title="Игра 1", protocol=one_vote_game(), rows=_rows())
    assert '<html lang="ru">' in page
    assert "Нарушения (1)" in page and "голос после «Стоп» — место 9 (P9) — день 1, голосование 1, кандидатура 5" in page
    assert "<th>время (с)</th><td>31,46</td>" in page and "<th>уверенность</th><td>0,87</td>" in page
    assert "Подготовлено Stopframe" in page and "Findings" not in page


def test_the_appeal_case_file_in_russian():
    case = AppealCase(case_id="A1", game_id="g", profile="rfm", appellant="Игрок 3", claim="голос не засчитан",
                      ground="rfm 7.1.2.3", filed_at=1e9, game_ended_at=1e9 - 60,
                      evidence=(EvidenceItem("vote", "голосование 1", None, {"candidate": 8, "protocol_count": 3}),),
                      status="decided", decision=Decision("result_stands", "видео подтверждает подсчёт", "Главный", decided_at=1e9))
    with i18n.using("ru"):
        page = appeal_html(case, title="Игра 1", protocol={"game": {}, "rules": "rfm"})
    assert "Апелляция A1 — Игра 1" in page and "<th>заявитель</th><td>Игрок 3</td>" in page
    assert "<th>статус</th><td>решено</td>" in page and "<th>обоснование</th><td>видео подтверждает подсчёт</td>" in page
    assert "<h3>голосование: голосование 1</h3>" in page and "<th>голосов по протоколу</th><td>3</td>" in page
    assert "appellant" not in page and "The appeal" not in page


def test_the_case_file_names_its_own_rulebooks_filing_deadline():
    """rfm 7.3.6 gives ten minutes; mafclub (3.8.12) writes no deadline after the game: a mafclub case file cites its
    own clause and says so, never rfm's."""
    common = {"game_id": "g", "appellant": "Игрок 3", "claim": "голос не засчитан", "filed_at": 1e9,
              "game_ended_at": 1e9 - 60}
    with i18n.using("ru"):
        rfm = appeal_html(AppealCase(case_id="A1", profile="rfm", ground="rfm 7.1.2.3", **common), title="Игра 1",
                          protocol={"game": {}, "rules": "rfm"})
        mafclub = appeal_html(AppealCase(case_id="A2", profile="mafclub", ground=None, **common), title="Игра 2",
                              protocol={"game": {}, "rules": "mafclub"})
    assert "<th>срок подачи (rfm 7.3.6)</th>" in rfm and "(в срок)" in rfm
    assert "rfm 7.3.6" not in mafclub and "<th>срок подачи (mafclub 3.8.12)</th>" in mafclub
    assert "срок после игры не прописан" in mafclub


def test_an_appellant_typed_as_a_seat_number_is_named_with_the_players_nickname():
    protocol = {"game": {}, "rules": "rfm", "players": [{"seat": 8, "nickname": "Ворон"}, {"seat": 3, "nickname": ""}]}
    common = {"game_id": "g", "profile": "rfm", "claim": "голос не засчитан", "ground": None, "filed_at": 1e9,
              "game_ended_at": 1e9 - 60}
    with i18n.using("ru"):
        pages = [appeal_html(AppealCase(case_id=f"A{k}", appellant=who, **common), title="Игра", protocol=protocol)
                 for k, who in enumerate((" 8", "3", "Капитан команды"))]
    assert "<th>заявитель</th><td>место 8 — Ворон</td>" in pages[0]
    assert "<th>заявитель</th><td>место 3</td>" in pages[1]
    assert "<th>заявитель</th><td>Капитан команды</td>" in pages[2]
