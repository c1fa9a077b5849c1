"""The rulebooks' own words for every clause a finding cites, shipped with the package (review.game.clause_text)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from review.game.clause_text import DATA, cited, extract, find, mended, paragraphs, sentence
from review.game.profiles import JUDGE_ERROR_KINDS, NIGHT_RULE_KINDS, OFFENCE_KINDS, PROFILES

RULES = Path(__file__).resolve().parents[2].parent / "shared" / "rules"
CYRILLIC = re.compile("[А-Яа-яЁё]")


def _finding_clauses() -> list[tuple[str, str, str]]:
    """(profile, finding kind, clause) for every consequence a finding can carry, the 4th-foul ones too."""
    out = []
    for p in PROFILES.values():
        for kind in OFFENCE_KINDS + JUDGE_ERROR_KINDS:
            out.append((p.id, kind, p.offence(kind).clause))
            out.append((p.id, kind, p.offence(kind, prior_fouls=9).clause))
        out += [(p.id, what, p.night_rule(what).clause) for what in NIGHT_RULE_KINDS]
        out.append((p.id, "lifted_early after «Стоп»", p.lifted_after_cutoff.clause))
    return out


@pytest.mark.parametrize(("profile", "kind", "clause"), _finding_clauses())
def test_each_finding_kinds_clause_has_the_rulebooks_sentence(profile: str, kind: str, clause: str) -> None:
    text = sentence(clause)
    assert text and CYRILLIC.search(text), f"{profile} {kind}: no rulebook sentence for {clause}"


def test_the_sentence_is_the_clauses_own_words() -> None:
    assert sentence("rfm 4.4.7") == "Отсечением результата голосования является буква «С» в слове «Стоп»."
    assert sentence("rfm 99.9") is None and sentence(None) is None


def test_citations_find_their_paragraph() -> None:
    paras = paragraphs("1. Раздел\n\n1.1. Первый.\nВторой без номера.\n1.10. Десятый.\nИтак, «перестрелка» тут.\n")
    assert find(paras, "1.1") == "Первый."
    assert find(paras, "1.10") == "Десятый."
    assert find(paras, "1.2") == "Второй без номера."  # the second paragraph of section 1
    assert find(paras, "¶1") == "1. Раздел"
    assert find(paras, "«Итак»") == "Итак, «перестрелка» тут."
    assert find(paras, "«перестрелка»") == "Итак, «перестрелка» тут."
    assert find(paras, "7.7") is None


def test_the_shipped_file_is_what_the_rulebooks_give() -> None:
    """Made by `python3 -m review.game.clause_text ../shared/rules`; every cited clause is in it."""
    if not RULES.is_dir():
        pytest.skip(f"the rulebooks are not here ({RULES}): the shipped file cannot be compared with them")
    import json

    assert json.loads(DATA.read_text(encoding="utf-8")) == extract(RULES)
    assert set(extract(RULES)) == set().union(*(cited(p) for p in PROFILES.values()))


def test_a_sentence_wrapped_across_lines_is_one_paragraph() -> None:
    """A rulebook wrapped at a fixed width breaks its sentences across lines: a line that carries on the sentence
    of the line above joins it; a blank line, a numbered clause, a dash or «а)» item, and a line after a finished
    sentence start their own paragraph."""
    text = ("4.4.8 Игрок обязан держать руку до тех пор,\n"
            "пока Судья не объявит\n"
            "«количество» проголосовавших.\n"
            "Следующий абзац без номера.\n"
            "4.4.9 Запрещается:\n"
            "— первое\n"
            "а) второе\n"
            "Заголовок\n"
            "\n"
            "продолжение после пустой строки.\n")
    assert paragraphs(text) == ["4.4.8 Игрок обязан держать руку до тех пор, пока Судья не объявит «количество» "
                                "проголосовавших.", "Следующий абзац без номера.", "4.4.9 Запрещается:", "— первое",
                                "а) второе", "Заголовок", "продолжение после пустой строки."]
    assert find(paragraphs(text), "4.4.8").endswith("не объявит «количество» проголосовавших.")


def test_the_rulebooks_own_wrapped_sentence_is_joined_and_their_paragraphs_kept() -> None:
    if not RULES.is_dir():
        pytest.skip(f"the rulebooks are not here ({RULES})")
    mafclub = (RULES / PROFILES["mafclub"].rulebook).read_text(encoding="utf-8")
    assert [p for p in paragraphs(mafclub) if "к удалению, важен игровой контекст" in p]  # one sentence, two lines
    showtime = (RULES / PROFILES["showtime"].rulebook).read_text(encoding="utf-8")
    assert len(paragraphs(showtime)) == len([line for line in showtime.splitlines() if line.strip()])  # ¶N as before


def test_words_the_rulebooks_pdf_copy_broke_are_whole_in_the_quotes() -> None:
    """rfm 4.4.8 (a hand lifted before the count) and rfm 5.10.4 (a vote out of order) are quoted on every such
    finding: a judge reads «пока Судья не объявит», never «не объяви т», «голосования», never «голосо вания»."""
    assert "объявит количество" in sentence("rfm 4.4.8") and "объяви т" not in sentence("rfm 4.4.8")
    assert "порядка голосования" in sentence("rfm 5.10.4")
    text = "Судья не объяви т итог. Судья объявит счёт. В том числе и гроки, и игроки в том зале."
    assert mended(text) == "Судья не объявит итог. Судья объявит счёт. В том числе игроки, и игроки в том зале."
