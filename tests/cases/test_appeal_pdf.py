"""The appeal case file's PDF shows its Cyrillic: the sample game's case on the miscounted vote for candidate 8,
in Russian, printed by headless Chromium as the app prints it (review.cases.pdf.write_pdf), and its
text read back from the PDF (tests/pdftext.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pdftext import pdf_text
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture

from contract import i18n
from review.cases.appeal_report import appeal_html
from review.cases.appeals import AppealCase, Decision, EvidenceItem, checks
from review.cases.pdf import chromium, write_pdf
from stopframe_app.decisions import plain_title
from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec, complete_spec, load_game, run_audit
from stopframe_app.report import evidence_in_words, header_protocol

pytestmark = pytest.mark.skipif(chromium() is None, reason="Chromium is not installed: it prints the PDF "
                                                            "(apt-get install chromium, as .ci/run does)")


def _case_file() -> str:
    """The sample game's case on candidate 8's miscount, decided, as the Appeals page writes it — in Russian."""
    require_current_sample_fixture()
    game = load_game(complete_spec(GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))))
    game.audit = run_audit(game)
    miscount = next(f for f in game.findings if f.kind == "count_mismatch" and f.candidate == 8)
    case = AppealCase(case_id="A1", game_id=game.game_id, profile="rfm", appellant="Зенит", appellant_seat=8,
                      claim="голос места 1 посчитан дважды", ground="rfm 7.1.2.3", filed_at=1.0e9, game_ended_at=1.0e9 - 60,
                      evidence=(EvidenceItem("finding", plain_title(miscount), None,
                                             evidence_in_words(miscount.to_json(), "finding")),),
                      side_judge_statement="Видел руку места 1 дважды.",
                      decision=Decision("result_stands", "Подсчёт не изменил итог голосования.", "Главный судья",
                                        chief_judge_agrees=True, decided_at=1.0e9 + 600))
    shown = checks(case, case.decision, {}, None)
    return appeal_html(case, title=game.title, protocol=header_protocol(game.data), checks=shown)


def test_the_case_file_pdf_shows_its_russian_text(tmp_path: Path) -> None:
    with i18n.using("ru"):
        page = _case_file()
        pdf = write_pdf(page, tmp_path / "case.pdf")
    text = pdf_text(pdf.read_bytes())
    assert re.search("[А-Яа-яЁё]{4}", text), text[:300]
    glued = re.sub(r"\s", "", text)  # Chromium draws some runs glyph by glyph: compare without the spaces
    for words in ("Апелляция A1", "Зенит", "ошибка в подсчёте голосов", "голос места 1 посчитан дважды", "боковой судья",
                  "Видел руку места 1 дважды.", "результат остаётся в силе", "Подсчёт не изменил итог голосования."):
        assert re.sub(r"\s", "", words) in glued, (words, text[:600])
    for english in ("Appeal", "countmismatch", "sidejudge", "tournament:"):  # no English left in the Russian file
        assert english not in glued, english
