"""review.cases.sheet_exports: a typed sheet handed on as a protocol that validates, as club game files our importer
reads back as the same game, and as the paper form filled in with every value escaped; never over its own file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pdftext import pdf_text

from contract import i18n
from contract.errors import InvalidInput, UnreadableInput
from review.cases.club_exports import ExportRefused
from review.cases.pdf import chromium, write_pdf
from review.cases.sheet import Sheet, new_protocol
from review.cases.sheet_exports import club_text, printable, protocol_text, save, stem
from review.game.engine import replay
from review.game.importers import import_file
from review.game.protocol import validate

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "import"
SAMPLE = Path(__file__).resolve().parents[2] / "sample_videos" / "game" / "sample_game.protocol.json"


def test_the_protocol_is_offered_once_it_validates(tmp_path: Path) -> None:
    sheet = Sheet(new_protocol("rfm"))
    sheet.enter("nominations.1", "2:6 5:3 9:8")
    sheet.enter("round.1.1", "6:5 3:1 8:3")
    with pytest.raises(InvalidInput, match="rfm 4.4.10"):
        protocol_text(sheet)
    sheet.enter("round.1.1", "6:5 3:1 8:4")
    out = save(tmp_path / "g.protocol.json", protocol_text(sheet))
    assert validate(json.loads(out.read_text(encoding="utf-8"))) == []


@pytest.mark.parametrize("source", ["polemica", "mafiaratings"])
def test_a_club_game_typed_again_goes_back_as_the_same_game(tmp_path: Path, source: str) -> None:
    sheet = Sheet(import_file(source, FIXTURES / f"{source}_game.json"))
    first = next(k for k in ("round.1.1", "round.2.1") if sheet.text(k))
    sheet.enter(first, sheet.text(first))  # typed as it reads: still the same game
    path = save(tmp_path / f"g.{source}.json", club_text(sheet, source))
    again = import_file(source, path)
    assert validate(again) == []
    assert replay(again).eliminations == replay(sheet.protocol()).eliminations
    assert replay(again).result == replay(sheet.protocol()).result


def test_a_count_only_vote_cannot_go_to_polemica_and_says_which() -> None:
    sheet = Sheet(json.loads(SAMPLE.read_text(encoding="utf-8")))
    with pytest.raises(ExportRefused, match="event"):
        club_text(sheet, "polemica")


def test_the_printable_sheet_is_the_paper_form_filled_in_and_escaped() -> None:
    sheet = Sheet(json.loads(SAMPLE.read_text(encoding="utf-8")))
    sheet.enter("nickname.1", "<script>alert(1)</script>")
    sheet.enter("game.judge", "A & B")
    page = printable(sheet)
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "A &amp; B" in page
    for filled in ("2:6 5:3 9:8", "6:5 3:1 8:4", "9:4 3:4", "2:10 7:10 9:10", "10: 2 9 3", "Вега"):
        assert filled in page, filled


def test_an_export_is_never_written_over_the_file_the_sheet_came_from(tmp_path: Path) -> None:
    given = tmp_path / "game.protocol.json"
    given.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    sheet = Sheet(json.loads(given.read_text(encoding="utf-8")))
    sheet.enter("round.1.1", "6:6 3:1 8:3")
    with pytest.raises(UnreadableInput, match="never overwrites"):
        save(tmp_path / "." / "game.protocol.json", protocol_text(sheet), [(str(given), "the protocol")])
    assert given.read_text(encoding="utf-8") == SAMPLE.read_text(encoding="utf-8")


def test_file_names_from_titles() -> None:
    assert stem("sample_game.protocol.json") == "sample_game" and stem("Стол 1 / игра 3") == "Стол_1_игра_3"
    assert stem("  ") == "sheet"


def test_the_printable_sheet_prints_to_a_pdf_with_its_russian_words(tmp_path: Path) -> None:
    """The paper form filled in, as the Protocol page prints it for the chief judge and the players: the
    bundled sample game in Russian, printed by headless Chromium, its text read back from the PDF."""
    if chromium() is None:
        pytest.skip("Chromium is not installed: it prints the PDF (apt-get install chromium, as .ci/run does)")
    with i18n.using("ru"):
        pdf = write_pdf(printable(Sheet(json.loads(SAMPLE.read_text(encoding="utf-8")))), tmp_path / "sheet.pdf")
    glued = re.sub(r"\s", "", pdf_text(pdf.read_bytes()))  # Chromium draws some runs glyph by glyph
    for words in ("Протокол игры", "Турнирные правила Федерации (РФМ) · rfm", "Вега"):
        assert re.sub(r"\s", "", words) in glued, (words, glued[:400])
