"""The corrected protocol, finding by finding, with the rule clauses behind each change."""

from __future__ import annotations

import copy
from collections.abc import Sequence

import pytest
from corrections import decision, one_vote_game, source

from review.audit.findings import Finding, VoteReport
from review.cases.corrected import (
    CorrectionError,
    check_corrections,
    corrected_protocol,
    describe_finding,
)
from review.game.protocol import validate


def _rfm() -> tuple[dict, tuple[Finding, ...], tuple[VoteReport, ...]]:
    return source("sample_game", "rfm")


def _find(findings: Sequence[Finding], kind: str, seat: int | None = None, **where: object) -> Finding:
    return next(f for f in findings if f.kind == kind and (seat is None or f.seat == seat)
                and all(getattr(f, k) == v for k, v in where.items()))


def _vote(data: dict, day: int, candidate: int, rnd: int = 1) -> dict:
    return next(e for e in data["events"] if e["type"] == "vote" and e["day"] == day and e["candidate"] == candidate
                and e.get("round", 1) == rnd)


@pytest.mark.parametrize(("kind", "seat"), [("early_hand", 5), ("no_vote", 8), ("late_vote", 9), ("night_hand", 1)])
def test_each_finding_the_issue_names_confirmed_alone_validates(kind: str, seat: int) -> None:
    """Confirming one early_hand, no_vote, night_hand or late_vote gave a protocol `validate` refused."""
    protocol, findings, votes = _rfm()
    f = _find(findings, kind, seat)
    out = corrected_protocol(protocol, [decision(f)], votes=votes)
    assert validate(out) == []
    assert check_corrections(protocol, [decision(f)], votes=votes) == []


def test_rfm_5_9_6_early_hand_foul_goes_after_its_round_and_keeps_its_video_time_aside() -> None:
    protocol, findings, votes = _rfm()
    f = _find(findings, "early_hand", 5)
    out = corrected_protocol(protocol, [decision(f)], votes=votes)
    events = out["events"]
    foul = next(e for e in events if e["type"] == "foul")
    i = events.index(foul)
    assert events[i - 1] == _vote(out, 1, 8)  # after the last vote of day 1's round, before night 1
    assert foul["clause"] == "rfm 5.9.6" and foul["seat"] == 5
    assert "t" not in foul and foul["x_video_t"] == 1.88  # 1.88 s is before the round began: kept aside
    assert foul["x_review"]["finding"] == decision(f).finding_key


def test_rfm_5_10_1_fine_keeps_its_points_and_clause() -> None:
    protocol, findings, votes = _rfm()
    out = corrected_protocol(protocol, [decision(_find(findings, "no_vote", 8))], votes=votes)
    fine = next(e for e in out["events"] if e["type"] == "fine")
    assert (fine["seat"], fine["points"], fine["clause"]) == (8, -0.2, "rfm 5.10.1")


def test_rfm_4_4_10_a_late_hand_for_the_last_candidate_still_counts_for_him_as_a_silent_vote() -> None:
    """rfm 4.4.7 takes the late hand off; rfm 4.4.10 gives the silent player's vote to the last candidate."""
    protocol, findings, votes = _rfm()
    out = corrected_protocol(protocol, [decision(_find(findings, "late_vote", 9))], votes=votes)
    vote8 = _vote(out, 1, 8)
    assert vote8["count"] == 4 and "x_original_count" not in vote8  # 10 − 6 for the others, as announced
    assert validate(out) == []


PLAIN = one_vote_game()
LATE5_JSON = {"kind": "late_vote", "seat": 9, "seats": None, "day": 1, "night": None, "round": 1, "candidate": 5,
              "t": None, "clause": "rfm 4.4.7", "confidence": 0.9, "assumed_times": [],
              "consequence": {"type": "not_counted", "points": None, "text": "the vote is not counted"}}
LATE5 = Finding.from_json(LATE5_JSON)


@pytest.mark.parametrize("rules", ["rfm", "mafclub", "lvi2015"])
def test_silent_vote_to_last_a_hand_taken_off_an_earlier_candidate_goes_to_the_last(rules: str) -> None:
    """rfm 4.4.10, mafclub 2.4.10, lvi2015 5.4: the last candidate's count is everyone minus the others'."""
    data = dict(PLAIN, rules=rules)
    out = corrected_protocol(data, [decision(LATE5)])
    assert (_vote(out, 1, 5)["count"], _vote(out, 1, 5)["voters"]) == (3, [2, 3, 10])
    assert (_vote(out, 1, 7)["count"], _vote(out, 1, 7)["x_original_count"]) == (7, 6)
    assert any("go to the last candidate" in c["change"] for c in out["x_review"]["changes"])
    assert validate(out) == []


def test_showtime_has_no_silent_vote_so_only_the_hand_comes_off() -> None:
    data = dict(PLAIN, rules="showtime")
    out = corrected_protocol(data, [decision(LATE5)])
    assert _vote(out, 1, 5)["count"] == 3 and _vote(out, 1, 7)["count"] == 6
    assert validate(out) == []


def test_rfm_7_1_2_3_a_count_that_would_send_another_player_out_is_refused_as_an_appeal_matter() -> None:
    protocol, findings, votes = _rfm()
    f = _find(findings, "count_mismatch", None, candidate=6)
    edited = decision(f, "edited", {"count": 4})  # 4 for 6 gives 6 for 8 (10 − 4 − 1 for 3): seat 8 would leave
    [sentence] = check_corrections(protocol, [edited], votes=votes)
    assert sentence.startswith("The miscount on day 1, the vote on candidate 6 (rfm 7.1.2.3) cannot be applied:")
    assert "seat 6 leaves" in sentence and "appeal (rfm 7.1.2.3)" in sentence
    with pytest.raises(CorrectionError) as caught:
        corrected_protocol(protocol, [edited], votes=votes)
    assert str(caught.value) == sentence


def test_rfm_5_12_10_removal_of_a_player_who_played_on_is_refused_naming_him() -> None:
    protocol, findings, votes = _rfm()
    f = _find(findings, "night_hand", 5)
    [sentence] = check_corrections(protocol, [decision(f)], votes=votes)
    said = describe_finding(f)
    assert sentence.startswith(f"{said[0].upper()}{said[1:]} cannot be applied")
    assert "night 2" in sentence and "the game as played goes on with seat 5" in sentence
    # the event of the judge's own protocol it stumbles on, in words: never a place in the file
    assert "(seat 7 nominating seat 5 on day 3: " in sentence and "events[" not in sentence
    assert sentence.endswith("reject the finding, or edit its consequence to one the game as played can take, such as "
                             "a fine.") and sentence.count(". ") == 0


def test_rfm_5_12_13_removal_with_points_keeps_the_fine_beside_it() -> None:
    protocol, findings, votes = _rfm()
    out = corrected_protocol(protocol, [decision(_find(findings, "wrong_form", 6))], votes=votes)
    added = [e for e in out["events"] if e.get("x_review")]
    assert [(e["type"], e["seat"], e.get("points")) for e in added] == [("removal", 6, None), ("fine", 6, -1.2)]
    assert validate(out) == []


def test_rfm_5_6_a_fourth_foul_nobody_was_removed_for_is_refused() -> None:
    data = copy.deepcopy(PLAIN)
    data["events"][1:1] = [{"type": "foul", "seat": 4, "reason": "talk"} for _ in range(3)]
    lifted = Finding.from_json({**LATE5_JSON, "kind": "lifted_early", "seat": 4, "candidate": 7, "clause": "rfm 4.4.8",
                                "consequence": {"type": "foul", "points": None, "text": "foul; the vote counts"}})
    [sentence] = check_corrections(data, [decision(lifted)])
    assert "seat 4" in sentence and "removes him" in sentence and "rfm 5.6" in sentence


def test_a_fine_without_negative_points_is_refused() -> None:
    edited = decision(LATE5, "edited", {"consequence": {"type": "fine", "points": None, "text": "fine"}})
    [sentence] = check_corrections(PLAIN, [edited])
    assert sentence.endswith("cannot be applied: a fine needs its points as a negative number, not nothing.")


def test_rejected_findings_change_nothing_and_strict_false_lists_the_refused() -> None:
    protocol, findings, votes = _rfm()
    removal = decision(_find(findings, "night_hand", 5))
    rejected = decision(_find(findings, "no_vote", 8), "rejected")
    out = corrected_protocol(protocol, [removal, rejected], votes=votes, strict=False)
    assert [e for e in out["events"] if e.get("x_review")] == []
    assert [r["finding"] for r in out["x_review"]["refused"]] == [removal.finding_key]
    assert validate(out) == []


def test_an_invalid_original_is_said_before_any_finding() -> None:
    data = copy.deepcopy(PLAIN)
    data["events"][4]["count"] = 9  # 9 + 6 votes with 10 players
    [sentence] = check_corrections(data, [decision(LATE5)])
    assert sentence.startswith("The protocol itself does not validate") and "stopframe validate" in sentence


def test_the_input_protocol_is_not_changed() -> None:
    protocol, findings, votes = _rfm()
    before = copy.deepcopy(protocol)
    corrected_protocol(protocol, [decision(f) for f in findings], votes=votes, strict=False)
    assert protocol == before


def test_in_russian_the_notes_and_refusals_are_russian_and_the_protocol_still_validates() -> None:
    """What a judge signs reads in the chosen language; the codes other code reads back (event types, statuses,
    finding keys, clauses) stay as the formats have them."""
    from contract import i18n

    protocol, findings, votes = _rfm()
    removal = decision(_find(findings, "night_hand", 5))
    fine = decision(_find(findings, "no_vote", 8))
    with i18n.using("ru"):
        out = corrected_protocol(protocol, [removal, fine], votes=votes, strict=False)
        edited = corrected_protocol(PLAIN, [decision(LATE5)])
    assert validate(out) == [] and validate(edited) == []
    [refused] = out["x_review"]["refused"]
    assert refused["finding"] == removal.finding_key
    assert refused["why"].startswith("Движение руки ночью (место 5), ночь 2 (rfm 5.12.10): применить нельзя — ")
    added = next(e for e in out["events"] if e.get("x_review"))
    assert (added["type"], added["seat"], added["clause"], added["reason"]) == ("fine", 8, "rfm 5.10.1",
                                                                               "непоставленная рука")
    assert [c["change"] for c in out["x_review"]["changes"]] == ["добавлен штраф -0,2: место 8 (rfm 5.10.1)"]
    said = [c["change"] for c in edited["x_review"]["changes"]]
    assert said[0] == "кандидатура 5: рука места 9 не засчитана; голосов: 4 → 3"
    assert said[1] == ("кандидатура 7: голосов 6 → 7 — голоса не голосовавших отходят последней кандидатуре "
                       "(rfm 4.4.10)")


def test_a_finding_that_changes_no_event_is_listed_as_no_change() -> None:
    none = Finding.from_json({**LATE5_JSON, "consequence": {"type": "none", "points": None, "text": "no penalty"}})
    out = corrected_protocol(PLAIN, [decision(none)])
    [change] = out["x_review"]["changes"]
    assert change["applied"] is False and change["change"] == "no change: the rules give no penalty for it"
    assert out["events"] == PLAIN["events"]
