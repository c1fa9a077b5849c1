"""Rule encyclopedia, part 3: nominations — who may nominate whom, when, how often, and withdrawals."""

from __future__ import annotations

from dataclasses import replace

import pytest
from gamegen import ballot, nom, phase, protocol, quiet_days, shoot, speech, vote, withdraw

from review.game.engine import replay
from review.game.profiles import PROFILES, Cited, pick_nomination

TEN = list(range(1, 11))


def problems(data: dict) -> list[tuple[str, str | None]]:
    return [(p.path, p.clause) for p in replay(data).problems]


def test_mafclub_2_3_12_worked_example_the_last_name_not_yet_nominated_is_accepted():
    """3 and 6 are nominated; a player says 5, 3, 7, 6: «Принято 7»."""
    assert pick_nomination(PROFILES["mafclub"], [5, 3, 7, 6], {3, 6}) == 7
    assert pick_nomination(PROFILES["mafclub"], [5, 6], {6}) == 5  # only 5 is new: «Принято 5»


def test_rfm_4_4_2_the_first_name_not_yet_nominated_is_accepted():
    assert pick_nomination(PROFILES["rfm"], [5, 3, 7, 6], {3, 6}) == 5
    assert pick_nomination(PROFILES["rfm"], [3, 6], {3, 6}) is None


def test_showtime_p10_the_last_properly_named_candidate_is_accepted():
    assert pick_nomination(PROFILES["showtime"], [2, 4, 9], set()) == 9


def standing(data: dict, profile=None) -> list[tuple[int, int]]:
    """Day 1's standing nominations, (by, target) in nomination order, after the replay."""
    return replay(data, profile).final.nominations[1]


# 3 and 6 are nominated; seat 1 then names 5 and 7 in his speech (the protocol keeps only accepted names:
# 3 and 6 again would be refused as already nominated).
WORKED = [phase("day", 1), nom(1, 2, 3), nom(1, 4, 6), speech(1, 1), nom(1, 1, 5), nom(1, 1, 7)]


def test_mafclub_2_3_12_the_engine_accepts_the_last_name_of_the_speech_accepted_7():
    assert standing(protocol("mafclub", WORKED)) == [(2, 3), (4, 6), (1, 7)]


def test_rfm_4_4_2_the_engine_keeps_the_first_name_of_the_speech_and_refuses_the_second():
    data = protocol("rfm", WORKED)
    assert standing(data) == [(2, 3), (4, 6), (1, 5)]
    assert problems(data) == [("events[6].by", "rfm 4.4.3")]


def test_which_name_stands_is_the_profiles_nomination_pick_not_its_withdrawal_rule():
    """The engine asks `pick_nomination`: swap the pick and the outcome follows it, withdrawal unchanged."""
    first = replace(PROFILES["mafclub"], nomination_pick=Cited("first", "mafclub 2.3.12", "The first stands."))
    assert first.withdrawal.value and standing(protocol("mafclub", WORKED), first) == [(2, 3), (4, 6), (1, 5)]
    last = replace(PROFILES["rfm"], nomination_pick=Cited("last", "rfm 4.4.2", "The last stands."))
    assert not last.withdrawal.value and standing(protocol("rfm", WORKED), last) == [(2, 3), (4, 6), (1, 7)]


def test_mafclub_2_3_12_a_later_name_in_the_same_speech_replaces_the_earlier():
    data = protocol("mafclub", phase("day", 1), speech(1, 1), nom(1, 1, 5), nom(1, 1, 6), nom(1, 2, 3),
                    ballot(1, 1, {6: [1, 2, 3], 3: [4]}, TEN))
    r = replay(data)
    assert r.problems == [] and r.vote_contexts[6].candidates == (6, 3)


def test_rfm_4_4_3_one_nomination_per_player_per_day():
    data = protocol("rfm", phase("day", 1), speech(1, 1), nom(1, 1, 5), nom(1, 1, 6))
    assert problems(data) == [("events[4].by", "rfm 4.4.3")]


def test_lvi2015_5_1_one_candidate_per_player():
    data = protocol("lvi2015", phase("day", 1), nom(1, 1, 5), nom(1, 1, 6))
    assert problems(data) == [("events[3].by", "lvi2015 5.1")]


def test_mafclub_2_3_5_a_second_nomination_in_another_speech_is_refused():
    data = protocol("mafclub", phase("day", 1), speech(1, 1), nom(1, 1, 5), speech(1, 2), nom(1, 1, 6))
    assert problems(data) == [("events[5].by", "mafclub 2.3.5")]


def test_rfm_4_4_2_a_player_already_nominated_is_not_accepted_again():
    data = protocol("rfm", phase("day", 1), nom(1, 1, 5), nom(1, 2, 5))
    assert problems(data) == [("events[3].target", "rfm 4.4.2")]


def test_rfm_4_4_2_a_nomination_may_not_be_withdrawn():
    data = protocol("rfm", phase("day", 1), nom(1, 1, 5), withdraw(1, 1, 5))
    assert problems(data) == [("events[3]", "rfm 4.4.2")]


@pytest.mark.parametrize("rules", ["mafclub", "showtime"])
def test_mafclub_2_3_9_and_showtime_p10_a_player_may_withdraw_his_nomination(rules):
    data = protocol(rules, phase("day", 1), speech(1, 1), nom(1, 1, 5), withdraw(1, 1, 5), nom(1, 2, 3), nom(1, 4, 8),
                    ballot(1, 1, {3: [1, 2], 8: [3]}, TEN, to_last=rules != "showtime"))
    r = replay(data)
    assert r.problems == [] and r.vote_contexts[7].candidates == (3, 8)


def test_mafclub_2_3_10_only_a_nomination_of_the_current_speech_may_be_withdrawn():
    data = protocol("mafclub", phase("day", 1), speech(1, 1), nom(1, 1, 5), speech(1, 2), withdraw(1, 1, 5))
    assert problems(data) == [("events[5]", "mafclub 2.3.9")]


def test_mafclub_2_3_9_only_ones_own_standing_nomination_may_be_withdrawn():
    data = protocol("mafclub", phase("day", 1), nom(1, 1, 5), withdraw(1, 1, 6))
    assert problems(data) == [("events[3].target", "mafclub 2.3.9")]


def test_rfm_4_4_2_a_dead_player_cannot_nominate_or_be_nominated():
    killed = [quiet_days([4]), phase("day", 2)]
    assert problems(protocol("rfm", killed, nom(2, 4, 5))) == [("events[5].by", "rfm 4.5.4")]
    assert problems(protocol("rfm", killed, nom(2, 5, 4))) == [("events[5].target", "rfm 4.5.4")]


def test_rfm_4_4_2_nominations_belong_to_the_days_discussion():
    late = protocol("rfm", phase("day", 1), nom(1, 1, 5), nom(1, 2, 6), ballot(1, 1, {5: [1], 6: [2]}, TEN),
                    nom(1, 3, 7))
    assert problems(late) == [("events[6].day", "rfm 4.4.3")]
    earlier_day = protocol("rfm", quiet_days([None]), phase("day", 2), nom(1, 3, 7))
    assert problems(earlier_day) == [("events[5].day", "rfm 4.4.3")]


def test_rfm_4_4_2_a_nomination_for_the_next_day_starts_that_day():
    data = protocol("rfm", phase("day", 1), phase("night", 1), shoot(1, None), nom(2, 3, 7), nom(2, 4, 8),
                    ballot(2, 1, {7: [1, 2, 3, 4, 5, 6], 8: [7]}, TEN))
    r = replay(data)
    assert r.problems == [] and r.eliminations == [{"seat": 7, "cause": "vote", "day": 2}]


def test_mafclub_2_3_5_a_player_may_nominate_himself():
    data = protocol("mafclub", phase("day", 1), nom(1, 5, 5), nom(1, 2, 3), ballot(1, 1, {5: [1, 2, 3], 3: [4]}, TEN))
    assert problems(data) == []


def test_rfm_5_5_a_player_with_three_fouls_may_still_nominate():
    data = protocol("rfm", phase("day", 1), {"type": "foul", "seat": 2}, {"type": "foul", "seat": 2},
                    {"type": "foul", "seat": 2}, nom(1, 2, 5))
    r = replay(data)
    assert r.problems == [] and r.final.lost_speech == {2: 1}


def test_protocols_without_nomination_events_take_the_candidates_from_the_votes():
    """A system that keeps only votes (Polemica): the day's candidates are the first round's, in order."""
    data = protocol("rfm", phase("day", 1), vote(1, 1, 5, 3), vote(1, 1, 7, 7))
    r = replay(data)
    assert r.problems == [] and r.eliminations == [{"seat": 7, "cause": "vote", "day": 1}]
