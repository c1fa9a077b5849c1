"""The profiles' rule texts reach a Russian judge in Russian: the digest a finding's card shows next to its
consequence (a 4th foul's removal and a form the profile accepts included), every parameter's sentence and every
appeal ground, from the catalogue; in English they read exactly as the profiles write them."""

from __future__ import annotations

import re

import pytest

from contract.i18n import _, using
from review.game.profiles import (
    JUDGE_ERROR_KINDS,
    NIGHT_RULE_KINDS,
    OFFENCE_KINDS,
    PROFILES,
    RULE_TEXTS,
    Consequence,
    Profile,
    rule_words,
)

EACH = pytest.mark.parametrize("profile", list(PROFILES.values()), ids=list(PROFILES))
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9']+")
NAMES = {"rfm", "mafclub", "lvi2015", "showtime"}  # clause references («mafclub 3.5») read the same in Russian


def english_words(text: str) -> list[str]:
    """Latin words of a Russian text other than clause references and names in capitals (SHOWTIME, MAF CLUB)."""
    return [w for w in LATIN_WORD.findall(text) if w not in NAMES and not w.isupper()]


def shown(profile: Profile) -> list[Consequence]:
    """Every consequence a finding under `profile` can carry, so every digest its card can show: each kind at each
    foul count, a lift after the cutoff, the night rules, and a vote form the profile accepts."""
    out = [profile.offence(kind, prior_fouls=prior, after_cutoff=late)
           for kind in OFFENCE_KINDS + JUDGE_ERROR_KINDS for prior in range(4) for late in (False, True)]
    out += [profile.night_rule(what) for what in NIGHT_RULE_KINDS]
    out.append(profile.form_accepted(profile.vote_forms.clause))
    return out


@EACH
def test_every_digest_a_finding_shows_is_russian_under_russian_and_as_written_under_english(profile: Profile) -> None:
    texts = {c.text for c in shown(profile)}
    for text in texts:
        with using("ru"):
            words = rule_words(text)
        assert CYRILLIC.search(words) and not english_words(words), (text, words)
        assert profile.removal_at.clause not in text or profile.removal_at.clause in words  # clause kept as is
        with using("en"):
            assert rule_words(text) == text


def test_every_rule_text_of_every_profile_has_its_russian() -> None:
    """Parameters' sentences and appeal grounds too (the engine and the appeal pages show them with `_`)."""
    assert len(RULE_TEXTS) > 200
    with using("ru"):
        missing = [t for t in sorted(RULE_TEXTS) if not CYRILLIC.search(_(t)) or english_words(_(t))]
    assert missing == []


def test_the_rulebooks_words_in_the_russian_digests() -> None:
    rfm, mafclub = PROFILES["rfm"], PROFILES["mafclub"]
    with using("ru"):
        assert rule_words(rfm.offence("late_vote").text) == "Рука, поставленная на букве «С» в слове «Стоп» или позже, не засчитывается."
        assert "дисквалифицирующий фол (−1,2)" in rule_words(rfm.offence("wrong_form").text)
        assert rule_words(mafclub.offence("gesture", prior_fouls=3).text).endswith(
            "это 4-й фол игрока — удаление без последнего слова (mafclub 3.5).")


def test_a_sentence_no_profile_holds_is_never_shown_in_english_to_a_russian_reader() -> None:
    with using("ru"):
        assert rule_words("A digest written by another version.") == ""
    with using("en"):
        assert rule_words("A digest written by another version.") == "A digest written by another version."
