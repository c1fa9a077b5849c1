"""Each night finding the audit makes (review/audit/night.py), confirmed alone on the bundled game under each
rule profile: it changes the corrected protocol the way its rule says (the event after that night, with its
clause; or a listed "no change" with the clause that says why), or it is refused, before any protocol exists, with
one sentence in the judge's words that names the finding and the event of the judge's protocol it clashes with.
The corrected protocol always validates."""

from __future__ import annotations

import re

import pytest
from corrections import PROFILES, decision, source

from contract import i18n
from review.audit.findings import Evidence, Finding, FindingConsequence
from review.cases.corrected import CorrectionError, check_corrections, corrected_protocol, describe_finding
from review.game.profiles import get_profile
from review.game.protocol import validate

PATH = re.compile(r"[A-Za-z_]+\[\d+\]")  # a place in a JSON file (events[34], findings[8]): never shown to a judge
ADDED = {"foul": "foul", "warning": "foul", "fine": "fine", "removal": "removal"}


def _made(profile_id: str, kind: str) -> Finding:
    """A shot or check mismatch as the night audit writes it under the profile (the sample game's nights agree
    with its protocol, so the audit makes none of them there)."""
    cons = get_profile(profile_id).offence(kind)
    consequence = FindingConsequence(cons.type, cons.text, cons.points)
    if kind == "shot_mismatch":  # night 2: the video shows seat 4 killed, the protocol a miss
        return Finding(kind, cons.clause, consequence, 0.9, seat=None, seats=(4,), night=2, t=95.5,
                       evidence=Evidence((2388,), (95.5,)), extra={"x_text": "Night 2: the video shows seat 4 killed."})
    # night 1: the Don (seat 7) shows 5 with the fingers; the protocol records a check of seat 4
    return Finding(kind, cons.clause, consequence, 0.9, seat=7, night=1, t=39.5, evidence=Evidence((988,), (39.5,)),
                   extra={"x_video_number": 5, "x_protocol_target": 4, "x_by": "don"})


def _cases() -> list[tuple[str, str]]:
    return [(p, what) for p in PROFILES for what in ("red_hand", "pose", "shot_mismatch", "check_mismatch")]


def _finding(profile_id: str, what: str) -> Finding:
    if what in ("shot_mismatch", "check_mismatch"):
        return _made(profile_id, what)
    _protocol, findings, _votes = source("sample_game", profile_id)
    seat = 5 if what == "red_hand" else 1  # night 2's faked shot, night 3's hand out of the night pose
    return next(f for f in findings if f.kind == "night_hand" and f.seat == seat)


def _night_end(events: list[dict], night: int) -> int:
    """The index of the night's last shooting or check."""
    return max(i for i, e in enumerate(events) if e.get("night") == night and e["type"] in ("shooting", "check"))


@pytest.mark.parametrize(("profile_id", "what"), _cases())
def test_a_confirmed_night_finding_changes_the_protocol_by_its_rule_or_is_refused_in_words(profile_id: str,
                                                                                          what: str) -> None:
    protocol, _findings, votes = source("sample_game", profile_id)
    f = _finding(profile_id, what)
    assert f.clause, f  # every night rule has its clause
    refused = check_corrections(protocol, [decision(f)], votes=votes)
    if refused:
        [sentence] = refused
        assert f.consequence.type == "removal"  # only a removal can clash with the game as played
        name = describe_finding(f)
        assert sentence.startswith(f"{name[0].upper()}{name[1:]} cannot be applied: the game as played goes on with "
                                   f"seat {f.seat} after this removal (")
        assert sentence.endswith("edit its consequence to one the game as played can take, such as a fine.")
        assert not PATH.search(sentence) and "None" not in sentence
        with pytest.raises(CorrectionError) as caught:
            corrected_protocol(protocol, [decision(f)], votes=votes)
        assert str(caught.value) == sentence
        return
    out = corrected_protocol(protocol, [decision(f)], votes=votes)
    assert validate(out) == []
    added = [e for e in out["events"] if e.get("x_review")]
    if f.consequence.type in ADDED:
        assert [(e["type"], e["seat"], e["clause"]) for e in added] == [(ADDED[f.consequence.type], f.seat, f.clause)]
        at = out["events"].index(added[0])
        assert at == _night_end(protocol["events"], f.night) + 1  # right after the night it happened in
    else:
        assert added == [] and out["events"] == protocol["events"]
        [change] = out["x_review"]["changes"]
        assert change["applied"] is False and change["change"].startswith("no change: ")
        assert change["change"].endswith(f"({f.clause})") or f.kind == "night_hand"


@pytest.mark.parametrize("profile_id", PROFILES)
def test_a_night_removal_edited_to_a_fine_goes_in_after_its_night_with_its_clause(profile_id: str) -> None:
    """The judge's way past the refusal: the faked shot's consequence edited to a fine (rfm 5.12: −1.2)."""
    protocol, _findings, votes = source("sample_game", profile_id)
    f = _finding(profile_id, "red_hand")
    edited = decision(f, "edited", edited={"consequence": {"type": "fine", "points": -1.2}})
    out = corrected_protocol(protocol, [edited], votes=votes)
    assert validate(out) == []
    [fine] = [e for e in out["events"] if e.get("x_review")]
    assert (fine["type"], fine["seat"], fine["points"], fine["clause"]) == ("fine", 5, -1.2, f.clause)
    assert out["events"].index(fine) == _night_end(protocol["events"], 2) + 1


def test_shot_and_check_mismatches_say_they_are_decided_as_an_appeal() -> None:
    protocol, _findings, votes = source("sample_game", "rfm")
    out = corrected_protocol(protocol, [decision(_made("rfm", "shot_mismatch")), decision(_made("rfm", "check_mismatch"))],
                             votes=votes)
    said = [c["change"] for c in out["x_review"]["changes"]]
    assert ("no change: the game went on from the shooting as the judge announced it; a wrongly announced miss or "
            "kill is decided as an appeal, not in the protocol (rfm 7.1.2.4)") in said
    assert ("no change: the game went on from the check as the judge answered it; a wrong answer to a check is "
            "decided as an appeal, not in the protocol (rfm 7.1.2.1)") in said


def test_the_refusal_is_russian_for_a_russian_reader() -> None:
    protocol, _findings, votes = source("sample_game", "rfm")
    with i18n.using("ru"):
        [sentence] = check_corrections(protocol, [decision(_finding("rfm", "red_hand"))], votes=votes)
    assert sentence.startswith("Движение руки ночью (место 5), ночь 2 (rfm 5.12.10): применить нельзя — в сыгранной "
                               "игре место 5 играет и после этого удаления (место 7 выставляет место 5 в день 3: ")
    assert sentence.endswith("отклоните находку или измените её последствие на такое, которое сыгранная игра может "
                             "принять, например на штраф.")
    assert not PATH.search(sentence) and not re.search(r"\b(?!rfm\b)[A-Za-z]{3,}", sentence)
