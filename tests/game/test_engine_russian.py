"""The rules engine's and the validator's problems read in Russian on a Russian page, and unchanged in English.

A judge reading Russian meets these sentences beside each box of the Protocol page and in `stopframe validate`:
no English word may be left in them (seat numbers, clause numbers and JSON places are not words).
"""

from __future__ import annotations

import re

import pytest
from gamegen import ballot, nom, phase, protocol, result, shoot, vote

from contract import i18n
from review.cases.club_exports import ExportRefused, to_polemica
from review.game.engine import replay
from review.game.importers import convert
from review.game.profiles import get_profile
from review.game.protocol import validate

TEN = range(1, 11)
_LATIN = re.compile(r"[A-Za-z]+")


def day1(*rounds: dict | list[dict]) -> dict:
    """Day 1 under rfm with seats 5, 7, 3 nominated (in that order), then the given vote events."""
    return protocol("rfm", phase("day", 1), nom(1, 2, 5), nom(1, 6, 7), nom(1, 9, 3), phase("voting", 1), *rounds)


def voted_out_then_nominates() -> dict:
    """Seat 5 leaves by the day-1 vote (rfm 4.4.12), then nominates on day 2."""
    return protocol("rfm", phase("day", 1), nom(1, 2, 5), nom(1, 6, 7), nom(1, 9, 3), phase("voting", 1),
                    ballot(1, 1, {5: [1, 2, 3, 4, 6], 7: [8], 3: [9]}, TEN), phase("night", 1), shoot(1, None),
                    phase("day", 2), nom(2, 5, 4))


def messages(data: dict, lang: str) -> dict[str, tuple[str, str | None]]:
    """Each problem of the replay in `lang`: path -> (message, clause)."""
    with i18n.using(lang):
        return {p.path: (p.message, p.clause) for p in replay(data).problems}


def no_latin(text: str) -> bool:
    return not _LATIN.search(text)


def test_a_nomination_by_a_seat_voted_out_reads_in_russian():
    ru = messages(voted_out_then_nominates(), "ru")
    assert ru["events[12].by"] == ("игрок 5 выбыл из игры (причина выбывания — голосование) и не может выставлять.",
                                   "rfm 4.4.12")
    en = messages(voted_out_then_nominates(), "en")
    assert en["events[12].by"] == ("seat 5 is out of the game (left by vote) and cannot nominate.", "rfm 4.4.12")


def test_a_vote_count_that_differs_from_its_voters_reads_in_russian():
    data = day1(vote(1, 1, 5, 4, [1, 2, 3]), vote(1, 1, 7, 2, [4, 6]), vote(1, 1, 3, 4, [8]))
    ru = messages(data, "ru")
    assert ru["events[6].count"] == ("число голосов 4 не равно числу указанных голосовавших: 3.", "rfm 7.1.2.3")
    assert messages(data, "en")["events[6].count"][0] == "the count 4 differs from the 3 voters listed."


def test_more_votes_than_players_reads_in_russian_with_the_plural_the_number_needs():
    data = day1(vote(1, 1, 5, 6), vote(1, 1, 7, 5), vote(1, 1, 3, 0))
    ru = messages(data, "ru")
    assert ru["events[7].count"][0] == "11 голосов в круге 1, а голосовать могут только игроков: 10."
    assert messages(data, "en")["events[7].count"][0] == "11 votes in round 1 but only 10 players may vote."


@pytest.mark.parametrize("data", [
    voted_out_then_nominates(),
    day1(vote(1, 1, 5, 4, [1, 2, 3]), vote(1, 1, 7, 2, [4, 6]), vote(1, 1, 3, 4, [8])),
    day1(vote(1, 1, 7, 2), vote(1, 1, 5, 3), vote(1, 1, 3, 5)),  # out of nomination order
    day1(vote(1, 1, 8, 2)),  # not a candidate
    protocol("rfm", phase("day", 1), nom(1, 2, 5), nom(1, 2, 7)),  # two nominations by one seat
    protocol("rfm", shoot(0, 3)),  # no shooting on night 0
    protocol("lvi2015", phase("day", 1), result("red")),  # a red win with blacks at the table, quoting the rulebook
    day1(ballot(1, 1, {5: [1, 2, 3, 4, 6], 7: [8], 3: [9]}, TEN), vote(1, 1, 5, 1)),  # quotes the vote's outcome
], ids=["left", "count", "order", "not-candidate", "twice", "night-0", "red-win", "decided"])
def test_the_engines_problems_hold_no_english_word(data):
    ru = messages(data, "ru")
    assert ru, "the scenario must show a problem"
    assert [m for m, _ in ru.values() if not no_latin(m)] == []


def test_the_validators_format_problems_read_in_russian():
    data = protocol("rfm", nom(1, 2, 12))
    data["players"][3]["seat"] = 3  # seat 3 twice, seat 4 missing
    with i18n.using("ru"):
        found = {p.path: p.message for p in validate(data)}
    assert found["events[1].target"] == "места 12 нет (места 1–10)"
    assert found["players[3].seat"] == "место 3 указано дважды (ещё в players[2])"
    assert found["players"] == "нет места 4 (каждое место 1–10 указывается ровно один раз)"
    with i18n.using("en"):
        assert {p.path: p.message for p in validate(data)}["players"] == \
            "seat 4 missing (every seat 1–10 appears exactly once)"


def test_an_export_refusal_and_an_import_refusal_read_in_russian():
    data = day1(ballot(1, 1, {5: [1, 2, 3, 4, 6], 7: [8], 3: [9]}, TEN))
    data["events"].append({"type": "fine", "seat": 4, "points": -0.5})
    with i18n.using("ru"), pytest.raises(ExportRefused) as refused:
        to_polemica(data)
    assert str(refused.value).endswith("): файл Polemica не хранит штрафов.")
    with i18n.using("ru"), pytest.raises(Exception) as unknown:
        convert("polemica", {"players": [{"position": 1}]}, rules="nosuch")
    assert str(unknown.value) == "неизвестный профиль правил 'nosuch' (известные: rfm, mafclub, lvi2015, showtime)."
    with i18n.using("ru"), pytest.raises(Exception) as profile:
        get_profile("rfm2")
    assert str(profile.value) == 'неизвестный профиль правил "rfm2"; известные профили: rfm, mafclub, lvi2015, showtime'


def test_a_decided_votes_outcome_is_quoted_in_the_readers_words():
    data = day1(ballot(1, 1, {5: [1, 2, 3, 4, 6], 7: [8], 3: [9]}, TEN), vote(1, 1, 5, 1))
    assert messages(data, "ru")["events[9]"][0] == "голосование дня 1 уже решено: место 5 покидает игру."
    assert messages(data, "en")["events[9]"][0] == "the voting of day 1 was already decided: seat 5 leaves."
