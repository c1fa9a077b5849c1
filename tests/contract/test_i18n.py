"""The message catalogue: Russian by default, English beside it, and the rules' own words for every code."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from contract import i18n
from contract.i18n import _, ngettext, term
from review.audit.findings import FINDING_KINDS
from review.game.profiles import CONSEQUENCE_TYPES, OUTCOMES


@pytest.fixture
def ru():
    with i18n.using("ru"):
        yield


@pytest.mark.parametrize(("n", "words"), [
    (0, "0 голосов"), (1, "1 голос"), (2, "2 голоса"), (4, "4 голоса"), (5, "5 голосов"), (11, "11 голосов"),
    (12, "12 голосов"), (14, "14 голосов"), (21, "21 голос"), (22, "22 голоса"), (25, "25 голосов"),
    (101, "101 голос"), (111, "111 голосов"),
])
def test_russian_plural_forms(ru, n, words):
    assert ngettext("{n} vote", "{n} votes", n) == words


def test_english_plural_forms():
    with i18n.using("en"):
        assert [ngettext("{n} vote", "{n} votes", n) for n in (1, 2, 21)] == ["1 vote", "2 votes", "21 votes"]


def test_numbers_and_dates_as_a_russian_reader_writes_them(ru):
    assert i18n.number(23.7) == "23,7"
    assert i18n.number(-0.5) == "-0,5"
    assert i18n.number(5.0) == "5"
    assert i18n.number(1234.5) == "1234,5"  # no thousands separator inside a protocol's numbers
    assert i18n.number(23.7, 2, fixed=True) == "23,70"
    # a camera synced with itself: an offset that rounds to nothing has no sign («-0,000 с» reads as a mistake)
    assert i18n.number(-0.0, 3, fixed=True) == "0,000" and i18n.number(-0.0004, 3, fixed=True, signed=True) == "+0,000"
    assert i18n.date(dt.date(2026, 12, 6)) == "6 декабря 2026\u202fг."  # CLDR keeps «г.» with the year (narrow no-break space)
    assert i18n.moment("2026-12-07T13:25:59Z") == "7 декабря 2026\u202fг., 13:25 UTC"  # a report's «made», not ISO
    assert i18n.moment("not a time") == "not a time"
    with i18n.using("en"):
        assert i18n.number(23.7) == "23.7"
        assert i18n.date(dt.date(2026, 12, 6)) == "December 6, 2026"


def test_clauses_in_each_language(ru):
    assert i18n.clause("4.4.7") == "п. 4.4.7"
    assert i18n.clause(None) == ""
    with i18n.using("en"):
        assert i18n.clause("4.4.7") == "clause 4.4.7"


@pytest.mark.parametrize(("environ", "lang"), [
    ({"STOPFRAME_LANG": "en", "LANG": "ru_RU.UTF-8"}, "en"),
    ({"STOPFRAME_LANG": "ru", "LANG": "en_US.UTF-8"}, "ru"),
    ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LC_ALL": "ru_UA.UTF-8", "LANG": "en_US.UTF-8"}, "ru"),  # LC_ALL wins over LANG, as in gettext
    ({"LANG": "C.UTF-8"}, "ru"),
    ({"LANG": "POSIX"}, "ru"),
    ({}, "ru"),
    ({"STOPFRAME_LANG": "fr", "LANG": "en_US"}, "en"),  # an unknown choice falls back to the locale
])
def test_the_language_is_chosen_from_the_environment(environ, lang):
    assert i18n.system_language(environ) == lang


def test_a_chosen_language_wins_over_the_environment_and_is_undone(monkeypatch):
    monkeypatch.setenv("STOPFRAME_LANG", "en")
    assert i18n.language() == "en"
    with i18n.using("ru"):
        assert i18n.language() == "ru"
    assert i18n.language() == "en"
    with pytest.raises(ValueError):
        i18n.set_language("fr")


def test_where_no_run_chose_a_language_the_session_is_asked_before_the_environment(monkeypatch):
    """A page's callback runs before its run sets the language: the app's session says which it is."""
    monkeypatch.setenv("STOPFRAME_LANG", "en")
    asked = {"lang": "ru"}
    monkeypatch.setattr(i18n, "_session", None)
    i18n.follow_session(lambda: asked["lang"])
    assert i18n.language() == "ru" and _("yes") == "да"
    with i18n.using("en"):
        assert i18n.language() == "en"  # a run's own choice wins
    asked["lang"] = None  # outside a session: the environment's
    assert i18n.language() == "en"
    i18n.follow_session(None)
    assert i18n.language() == "en"


def _entries(lang):
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in i18n.catalogue(lang) if m.id}


def test_every_catalogue_entry_has_both_languages():
    ru, en = _entries("ru"), _entries("en")
    assert set(ru) == set(en)
    for key, message in ru.items():
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert len(strings) == (3 if isinstance(message.id, tuple) else 1), key
        assert all(strings), f"no Russian for {key}"
        en_strings = en[key].string if isinstance(en[key].string, tuple) else (en[key].string,)
        assert all(en_strings), f"no English for {key}"


def test_the_russian_catalogue_is_russian():
    """A Russian entry that is the English msgid was left untranslated (a code such as «Стоп» may match)."""
    same = [m.id for m in i18n.catalogue("ru") if m.id and isinstance(m.id, str) and m.string == m.id
            and re.search("[a-z]", re.sub(r"\{\w+\}", "", m.id))]
    assert same == []


@pytest.mark.parametrize(("context", "codes"), [
    ("kind", FINDING_KINDS), ("consequence", CONSEQUENCE_TYPES), ("outcome", OUTCOMES),
])
def test_every_finding_code_has_a_russian_term(ru, context, codes):
    for code in codes:
        words = term(context, code, default="")
        assert words and any("а" <= c.lower() <= "я" for c in words), (context, code)


def test_the_rulebooks_terms(ru):
    assert term("kind", "late_vote") == "голос после «Стоп»"
    assert term("kind", "lifted_early") == "снятие руки до объявления результата"
    assert term("consequence", "counted_for_last") == "голос отходит против последней кандидатуры"


def test_a_missing_message_shows_its_english_and_fills_values(ru):
    assert _("no such message {x}", x=3) == "no such message 3"
    assert term("kind", "new_kind") == "new kind"


def test_every_label_of_a_commands_input_has_russian_words(ru):
    """A refusal to overwrite names the file it protects in the judge's language (contract.outputs)."""
    from stopframe_cli.main import GAME_FILES, INPUT_ARGS

    labels = {*INPUT_ARGS.values(), *GAME_FILES.values(), "its inputs", "a camera's video", "the protocol",
              "the video", "the observations", "the seat map"}
    for label in labels:
        assert i18n.term("input", label, default="") not in ("", label), label
