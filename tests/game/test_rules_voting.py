"""Rule encyclopedia, part 1: RULES.md's voting table, row by row, under all four profiles.

Each test is named for the clause it checks; `offence()` answers what the audit reports, the engine what a
protocol's counts must be.
"""

from __future__ import annotations

import pytest
from gamegen import ballot, nom, phase, protocol, vote

from contract.observations import POSES
from review.game.engine import replay
from review.game.profiles import JUDGE_ERROR_KINDS, OFFENCE_KINDS, PROFILES

RFM, MAFCLUB, LVI, SHOWTIME = (PROFILES[k] for k in ("rfm", "mafclub", "lvi2015", "showtime"))
TEN = range(1, 11)


def day1(rules: str, *rounds: list[dict]) -> dict:
    """Day 1 with seats 5, 7, 3 nominated (in that order), then the given vote events."""
    return protocol(rules, phase("day", 1), nom(1, 2, 5), nom(1, 6, 7), nom(1, 9, 3), phase("voting", 1), *rounds)


def problems(data: dict) -> list[tuple[str, str | None]]:
    return [(p.path, p.clause) for p in replay(data).problems]


# ---------------------------------------------------------------- the vote gesture


def test_rfm_4_4_6_vote_is_a_vertical_fist():
    assert RFM.vote_forms.clause == "rfm 4.4.6"
    assert "fist" in RFM.accepted_forms and "open_palm" not in RFM.accepted_forms


def test_mafclub_2_4_6_only_a_fist_with_the_thumb_up_counts():
    assert MAFCLUB.accepted_forms == {"thumb_up_fist"}
    assert MAFCLUB.offence("wrong_form").type == "not_counted"
    assert MAFCLUB.offence("wrong_form").clause == "mafclub 2.4.6"


def test_lvi2015_5_3_any_hand_touching_the_table_counts():
    assert LVI.accepted_forms == frozenset(POSES)
    assert LVI.offence("wrong_form").type == "none"


def test_showtime_p3_fist_with_the_thumb_up_touches_the_table():
    assert SHOWTIME.accepted_forms == {"thumb_up_fist"}
    assert SHOWTIME.vote_forms.clause == "showtime ¶3"
    assert SHOWTIME.offence("wrong_form").type == "not_counted"


# ---------------------------------------------------------------- what closes the vote


def test_rfm_4_4_7_hand_after_stop_is_not_counted():
    assert RFM.vote_closer == "stop" and RFM.vote_closer.clause == "rfm 4.4.7"
    c = RFM.offence("late_vote")
    assert (c.type, c.clause) == ("not_counted", "rfm 4.4.7")


def test_mafclub_2_4_5_hand_with_spasibo_is_not_counted():
    assert MAFCLUB.vote_closer == "spasibo"
    assert (MAFCLUB.offence("late_vote").type, MAFCLUB.offence("late_vote").clause) == ("not_counted", "mafclub 2.4.5")


def test_lvi2015_5_3_hand_with_spasibo_is_not_accepted():
    assert LVI.vote_closer == "spasibo"
    assert (LVI.offence("late_vote").type, LVI.offence("late_vote").clause) == ("not_counted", "lvi2015 5.3")


def test_showtime_p10_hand_with_spasibo_is_not_counted():
    assert SHOWTIME.vote_closer == "spasibo"
    assert (SHOWTIME.offence("late_vote").type, SHOWTIME.offence("late_vote").clause) == ("not_counted", "showtime ¶10")


# ---------------------------------------------------------------- how long the hand must stay


def test_rfm_4_4_8_hand_stays_until_the_count_contradicting_5_9_5():
    assert RFM.lift_deadline == "announced"
    assert (RFM.lift_deadline.clause, RFM.lift_deadline.also) == ("rfm 4.4.8", "rfm 5.9.5")
    between = RFM.offence("lifted_early", after_cutoff=True)
    assert (between.type, between.clause, between.also) == ("foul", "rfm 4.4.8", "rfm 5.9.5")
    assert "follows 4.4.8" in between.text


def test_mafclub_2_4_6_hand_stays_until_the_count_but_2_4_8_warns_only_until_spasibo():
    assert MAFCLUB.lift_deadline == "announced"
    after = MAFCLUB.offence("lifted_early", after_cutoff=True)
    assert (after.type, after.clause, after.also) == ("none", "mafclub 2.4.6", "mafclub 2.4.8")


def test_lvi2015_5_3_hand_need_only_stay_until_spasibo():
    assert LVI.lift_deadline == "cutoff"
    assert LVI.offence("lifted_early", after_cutoff=True).type == "none"


def test_showtime_p10_hand_lifted_during_the_vote():
    assert SHOWTIME.lift_deadline == "cutoff"
    assert SHOWTIME.lift_deadline.clause == "showtime ¶10"


# ---------------------------------------------------------------- hand lifted too early


def test_rfm_4_4_8_hand_lifted_early_is_a_foul_and_the_vote_counts():
    c = RFM.offence("lifted_early")
    assert (c.type, c.clause) == ("foul", "rfm 4.4.8")
    assert "counts" in c.text


def test_rfm_5_10_3_hand_lifted_early_as_the_4th_foul_is_a_small_fine():
    c = RFM.offence("lifted_early", prior_fouls=3)
    assert (c.type, c.clause, c.points) == ("fine", "rfm 5.10.3", -0.2)


def test_mafclub_2_4_8_hand_lifted_early_is_a_warning_and_the_vote_counts():
    c = MAFCLUB.offence("lifted_early")
    assert (c.type, c.clause) == ("warning", "mafclub 2.4.8")


def test_mafclub_3_5_a_4th_warning_for_a_lifted_hand_removes_the_player():
    c = MAFCLUB.offence("lifted_early", prior_fouls=3)
    assert c.type == "removal" and "mafclub 3.5" in c.text


def test_lvi2015_5_3_hand_not_held_until_spasibo_is_not_accepted():
    assert LVI.offence("lifted_early").type == "not_counted"


def test_showtime_p10_hand_lifted_during_the_vote_is_a_remark_and_counts():
    c = SHOWTIME.offence("lifted_early")
    assert (c.type, c.clause) == ("warning", "showtime ¶10")
    assert SHOWTIME.offence("lifted_early", prior_fouls=3).type == "warning"  # a 4th remark: removal only "may"


# ---------------------------------------------------------------- hand on the table before the candidate is named


def test_rfm_5_9_6_early_hand_is_a_foul_and_counts_for_that_candidate():
    c = RFM.offence("early_hand")
    assert (c.type, c.clause) == ("foul", "rfm 5.9.6")


def test_rfm_5_10_2_early_hand_as_the_4th_foul_is_a_small_fine():
    c = RFM.offence("early_hand", prior_fouls=3)
    assert (c.type, c.clause, c.points) == ("fine", "rfm 5.10.2", -0.2)


@pytest.mark.parametrize("profile,clause", [(MAFCLUB, "mafclub 2.4.5"), (LVI, "lvi2015 5.3"), (SHOWTIME, "showtime ¶10")])
def test_silent_profiles_early_hand_has_no_consequence_but_the_nearest_clause(profile, clause):
    c = profile.offence("early_hand")
    assert (c.type, c.clause) == ("none", clause)


# ---------------------------------------------------------------- no hand placed in the whole round


def test_rfm_4_4_10_and_5_10_1_no_vote_goes_to_last_and_the_penalty_contradiction_is_cited():
    c = RFM.offence("no_vote")
    assert (c.type, c.points, c.clause, c.also) == ("fine", -0.2, "rfm 5.10.1", "rfm 4.4.10")
    assert RFM.silent_vote_to_last and RFM.silent_vote_to_last.clause == "rfm 4.4.10"


def test_mafclub_2_4_10_no_vote_counts_for_the_last_candidate():
    assert MAFCLUB.offence("no_vote").type == "counted_for_last"
    assert MAFCLUB.silent_vote_to_last


def test_lvi2015_5_4_no_vote_goes_to_the_last_candidate():
    assert (LVI.offence("no_vote").type, LVI.offence("no_vote").clause) == ("counted_for_last", "lvi2015 5.4")


def test_showtime_p10_no_rule_for_a_silent_player_only_placed_hands_count():
    assert not SHOWTIME.silent_vote_to_last
    assert SHOWTIME.offence("no_vote").type == "none"


# ---------------------------------------------------------------- voting for two candidates


def test_rfm_5_10_4_voting_for_two_candidates_is_a_small_fine():
    c = RFM.offence("double_vote")
    assert (c.type, c.clause, c.points) == ("fine", "rfm 5.10.4", -0.2)


def test_mafclub_2_4_9_voting_twice_is_a_warning_and_only_the_first_counts():
    assert (MAFCLUB.offence("double_vote").type, MAFCLUB.repeated_vote.value) == ("warning", "first")
    # seat 1 raised a hand for 5 and again for 7: only his first vote counts, so 7 has 2 votes, not 3
    hands = [vote(1, 1, 5, 3, [1, 2, 3]), vote(1, 1, 7, 2, [1, 4, 6]), vote(1, 1, 3, 5, [8, 9, 10])]
    assert problems(day1("mafclub", *hands)) == []
    hands[1] = vote(1, 1, 7, 3, [1, 4, 6])
    assert ("events[7].count", "mafclub 2.4.6") in problems(day1("mafclub", *hands))


def test_lvi2015_5_2_voting_for_two_candidates_is_forbidden_without_a_written_penalty():
    assert (LVI.offence("double_vote").type, LVI.offence("double_vote").clause) == ("none", "lvi2015 5.2")


def test_showtime_p27_repeated_voting_is_a_remark():
    assert (SHOWTIME.offence("double_vote").type, SHOWTIME.offence("double_vote").clause) == ("warning", "showtime ¶27")


# ---------------------------------------------------------------- gesturing during the vote; wrong form


def test_rfm_5_9_7_gesturing_during_the_vote_is_a_foul_and_5_11_3_a_big_fine_as_the_4th():
    assert RFM.offence("gesture").type == "foul"
    c = RFM.offence("gesture", prior_fouls=3)
    assert (c.type, c.points, c.clause) == ("fine", -0.5, "rfm 5.11.3")


def test_mafclub_2_4_1_gesturing_after_the_vote_is_announced_is_a_warning():
    assert (MAFCLUB.offence("gesture").type, MAFCLUB.offence("gesture").clause) == ("warning", "mafclub 2.4.1")


@pytest.mark.parametrize("profile,clause", [(LVI, "lvi2015 6.4"), (SHOWTIME, "showtime ¶22")])
def test_lvi2015_4_7_6_and_showtime_p22_disturbing_gestures_earn_a_warning(profile, clause):
    assert (profile.offence("gesture").type, profile.offence("gesture").clause) == ("warning", clause)


def test_rfm_5_12_13_wrong_form_of_vote_is_a_disqualifying_foul():
    c = RFM.offence("wrong_form")
    assert (c.type, c.clause, c.points) == ("removal", "rfm 5.12.13", -1.2)


def test_mafclub_3_8_8_a_red_hand_raised_during_the_shooting_is_a_removal():
    assert MAFCLUB.offence("night_hand").type == "removal"
    assert MAFCLUB.offence("night_hand").clause == "mafclub 3.8.8"


@pytest.mark.parametrize("profile", list(PROFILES.values()), ids=list(PROFILES))
def test_every_profile_answers_every_finding_kind_with_a_cited_consequence(profile):
    for kind in OFFENCE_KINDS + JUDGE_ERROR_KINDS:
        c = profile.offence(kind)
        assert c.clause.startswith(profile.id + " ") and c.text.endswith(".")
    with pytest.raises(ValueError):
        profile.offence("sneezing")


def test_rfm_7_1_2_3_a_miscount_is_a_judges_technical_error():
    assert RFM.offence("count_mismatch").clause == "rfm 7.1.2.3"
    assert RFM.offence("shot_mismatch").clause == "rfm 7.1.2.4"
    assert RFM.offence("check_mismatch").clause == "rfm 7.1.2.1"


# ---------------------------------------------------------------- counting (the engine)


def test_rfm_4_4_10_the_last_candidates_count_includes_the_silent_players():
    hands = {5: [1, 2, 3], 7: [4, 6], 3: [8]}  # 5, 9, 10 silent: they go to 3
    assert problems(day1("rfm", ballot(1, 1, hands, TEN))) == []
    wrong = day1("rfm", vote(1, 1, 5, 3, [1, 2, 3]), vote(1, 1, 7, 2, [4, 6]), vote(1, 1, 3, 1, [8]))
    assert problems(wrong) == [("events[8].count", "rfm 4.4.10")]


def test_mafclub_2_4_10_silent_votes_count_for_the_last_candidate():
    r = replay(day1("mafclub", vote(1, 1, 5, 4), vote(1, 1, 7, 0), vote(1, 1, 3, 6)))
    assert r.problems == [] and r.eliminations == [{"seat": 3, "cause": "vote", "day": 1}]


def test_lvi2015_5_4_silent_votes_go_to_the_last_candidate():
    assert problems(day1("lvi2015", vote(1, 1, 5, 2), vote(1, 1, 7, 2), vote(1, 1, 3, 2))) == [
        ("events[8].count", "lvi2015 5.4")
    ]


def test_showtime_p10_the_last_candidate_counts_only_the_hands_placed():
    data = day1("showtime", ballot(1, 1, {5: [1, 2, 3], 7: [4, 6], 3: [8]}, TEN, to_last=False))
    assert problems(data) == []
    assert replay(data).eliminations == [{"seat": 5, "cause": "vote", "day": 1}]


def test_rfm_4_4_12_the_player_with_most_votes_leaves():
    r = replay(day1("rfm", ballot(1, 1, {5: [1, 2, 3, 4, 6], 7: [8], 3: [9]}, TEN)))
    assert r.eliminations == [{"seat": 5, "cause": "vote", "day": 1}]
    assert r.outcomes[8].text == "seat 5 leaves" and r.outcomes[8].clause == "rfm 4.4.12"


def test_rfm_7_1_2_3_a_count_that_differs_from_the_listed_voters_is_a_problem():
    data = day1("rfm", vote(1, 1, 5, 4, [1, 2, 3]), vote(1, 1, 7, 2, [4, 6]), vote(1, 1, 3, 4, [8]))
    assert ("events[6].count", "rfm 7.1.2.3") in problems(data)


def test_rfm_4_4_12_more_votes_than_players_at_the_table_is_a_problem():
    data = day1("rfm", vote(1, 1, 5, 6), vote(1, 1, 7, 5), vote(1, 1, 3, 0))
    assert ("events[7].count", "rfm 7.1.2.3") in problems(data)


def test_rfm_4_4_4_candidates_are_voted_in_nomination_order():
    data = day1("rfm", vote(1, 1, 7, 2), vote(1, 1, 5, 3), vote(1, 1, 3, 5))
    assert ("events[6].candidate", "rfm 4.4.4") in problems(data)


def test_rfm_4_4_1_only_nominated_players_are_voted_on():
    data = day1("rfm", vote(1, 1, 8, 2))
    assert problems(data) == [("events[6].candidate", "rfm 4.4.4")]
