"""Rule encyclopedia, part 4: the foul ladder per profile, removals, and the votes removals cancel."""

from __future__ import annotations

from gamegen import (
    UNKNOWN,
    ballot,
    elim,
    foul,
    nom,
    phase,
    protocol,
    quiet_days,
    removal,
    shoot,
    speech,
    vote,
)

from review.game.engine import replay
from review.game.profiles import PROFILES

TEN = list(range(1, 11))
NINE_WITHOUT_3 = [s for s in TEN if s != 3]


def problems(data: dict) -> list[tuple[str, str | None]]:
    return [(p.path, p.clause) for p in replay(data).problems]


def fouls(seat: int, n: int) -> list[dict]:
    return [foul(seat) for _ in range(n)]


# ---------------------------------------------------------------- the ladder


def test_rfm_5_5_three_fouls_lose_the_next_speech():
    r = replay(protocol("rfm", phase("day", 1), fouls(3, 3)))
    assert r.final.fouls == {3: 3} and r.final.lost_speech == {3: 1}
    assert PROFILES["rfm"].speech_loss_at.clause == "rfm 5.5"


def test_rfm_5_5_a_3rd_foul_after_ones_speech_costs_tomorrows_speech():
    r = replay(protocol("rfm", phase("day", 1), speech(1, 1), speech(1, 2), fouls(1, 3), phase("night", 1)))
    assert r.final.lost_speech == {1: 2}
    assert replay(protocol("rfm", phase("day", 1), phase("night", 1), fouls(1, 3))).final.lost_speech == {1: 2}


def test_lvi2015_6_6_a_3rd_warning_ends_only_the_speech_being_made():
    during = replay(protocol("lvi2015", phase("day", 1), speech(1, 1), fouls(1, 3)))
    assert during.final.lost_speech == {1: 1}
    outside = replay(protocol("lvi2015", phase("day", 1), speech(1, 2), fouls(1, 3)))
    assert outside.final.lost_speech == {}


def test_rfm_5_6_the_4th_foul_removes_the_player_at_once():
    ok = protocol("rfm", phase("day", 1), fouls(3, 4), removal(3), phase("night", 1))
    assert replay(ok).problems == [] and replay(ok).eliminations == [{"seat": 3, "cause": "removal", "day": 1}]
    missing = protocol("rfm", phase("day", 1), fouls(3, 4), nom(1, 1, 5))
    r = replay(missing)
    assert [(p.path, p.clause) for p in r.problems] == [("events[5]", "rfm 5.6")]
    assert 3 not in r.final.at_table  # the rules remove him even if the protocol forgot


def test_rfm_5_6_an_elimination_by_removal_may_stand_for_the_removal_event():
    data = protocol("rfm", phase("day", 1), fouls(3, 4), elim(3, "removal", day=1), nom(1, 1, 5))
    r = replay(data)
    assert r.problems == [] and r.eliminations == [{"seat": 3, "cause": "removal", "day": 1}]


def test_rfm_5_6_a_removed_player_has_no_last_word():
    data = protocol("rfm", phase("day", 1), fouls(3, 4), removal(3), speech(1, 3, "last"))
    assert problems(data) == [("events[7].seat", "rfm 5.6")]


def test_mafclub_3_4_the_3rd_warning_loses_the_next_speech_and_3_5_the_4th_excludes():
    assert PROFILES["mafclub"].speech_loss_at.value == 3 and PROFILES["mafclub"].removal_at.value == 4
    data = protocol("mafclub", phase("day", 1), fouls(6, 4), phase("night", 1))
    assert problems(data) == [("events[5]", "mafclub 3.5")]


def test_lvi2015_6_6_the_3rd_warning_ends_the_word_and_no_4th_warning_removal_is_written():
    assert PROFILES["lvi2015"].removal_at.value is None
    r = replay(protocol("lvi2015", phase("day", 1), fouls(6, 4), phase("night", 1)))
    assert r.problems == [] and 6 in r.final.at_table


def test_showtime_p33_a_4th_remark_may_remove_but_does_not_have_to():
    r = replay(protocol("showtime", phase("day", 1), fouls(6, 4), phase("night", 1)))
    assert r.problems == [] and r.final.lost_speech == {}  # day 1's speech lost, and served
    assert "may" in PROFILES["showtime"].removal_at.text


def test_rfm_4_4_14_only_a_player_who_left_has_a_last_minute():
    data = protocol("rfm", phase("day", 1), speech(1, 4, "last"))
    assert problems(data) == [("events[2].seat", "rfm 4.4.12")]


def test_rfm_4_4_14_a_dead_player_does_not_speak_on_a_later_day():
    data = protocol("rfm", quiet_days([4]), phase("day", 2), speech(2, 4, "last"), speech(2, 4, "day"))
    assert problems(data) == [("events[6].seat", "rfm 4.5.4")]


# ---------------------------------------------------------------- removals and the votes they cancel


def test_rfm_4_4_16_a_removal_during_the_days_discussion_cancels_that_days_vote():
    data = protocol("rfm", phase("day", 1), nom(1, 1, 5), nom(1, 2, 6), removal(3), vote(1, 1, 5, 4))
    assert problems(data) == [("events[5]", "rfm 4.4.16")]
    r = replay(protocol("rfm", phase("day", 1), nom(1, 1, 5), nom(1, 2, 6), removal(3), phase("night", 1)))
    assert r.problems == [] and r.eliminations == [{"seat": 3, "cause": "removal", "day": 1}]


def test_rfm_4_4_16_a_removal_before_the_votes_result_cancels_the_current_vote():
    data = protocol("rfm", phase("day", 1), nom(1, 1, 5), nom(1, 2, 6), vote(1, 1, 5, 4), removal(3), vote(1, 1, 6, 5))
    assert problems(data) == [("events[6]", "rfm 4.4.16")]


def test_rfm_4_4_16_a_removal_after_the_result_keeps_the_vote_and_the_next_one():
    data = protocol("rfm", phase("day", 1), nom(1, 1, 5), nom(1, 2, 6), ballot(1, 1, {5: [1, 2, 3, 4, 5, 6], 6: []}, TEN),
                    removal(3), phase("night", 1), shoot(1, None),
                    phase("day", 2), nom(2, 1, 8), nom(2, 2, 9), ballot(2, 1, {8: [1, 2, 4, 6, 7], 9: [10]}, [1, 2, 4, 6, 7, 8, 9, 10]))
    r = replay(data)
    assert r.problems == []
    assert [e["seat"] for e in r.eliminations] == [5, 3, 8]


def test_rfm_5_7_a_removal_at_night_keeps_the_next_days_vote():
    data = protocol("rfm", phase("day", 1), phase("night", 1), removal(3), shoot(1, None),
                    phase("day", 2), nom(2, 1, 8), nom(2, 2, 9), ballot(2, 1, {8: [1, 2, 4, 5, 6], 9: [7]}, NINE_WITHOUT_3))
    assert problems(data) == []


def test_rfm_4_4_16_exception_2_the_closing_speakers_only_candidate_still_leaves():
    """The rulebook's example: a miss, ten at the table, all pass; seat 1 closes day 2 and nominates the only
    candidate; a civilian removes himself to save him — he is removed and the candidate still leaves."""
    day2 = [phase("day", 1), phase("night", 1), shoot(1, None), phase("day", 2), nom(2, 1, 2), removal(3)]
    r = replay(protocol("rfm", day2, vote(2, 1, 2, 9), elim(2, "vote", day=2), roles=UNKNOWN))
    assert r.problems == []
    assert r.eliminations == [{"seat": 3, "cause": "removal", "day": 2}, {"seat": 2, "cause": "vote", "day": 2}]
    assert r.final.closer[2] == 1 and r.final.opener[2] == 2
    # the same during the vote itself: the result of the day stands
    during = protocol("rfm", day2[:-1], phase("voting", 2), removal(3), vote(2, 1, 2, 9), roles=UNKNOWN)
    assert problems(during) == []
    # not the closing speaker (seat 5 speaks mid-circle): the removal cancels the vote as usual
    other = [phase("day", 1), phase("night", 1), shoot(1, None), phase("day", 2), nom(2, 5, 2), removal(3)]
    assert problems(protocol("rfm", other, vote(2, 1, 2, 9), roles=UNKNOWN)) == [("events[7]", "rfm 4.4.16")]


def test_rfm_4_4_17_a_removal_during_the_autocatastrophe_stops_the_vote():
    tie = [phase("day", 1), nom(1, 1, 5), nom(1, 2, 6), ballot(1, 1, {5: [1, 2, 3, 4, 5], 6: [6, 7, 8, 9, 10]}, TEN)]
    assert problems(protocol("rfm", tie, removal(8), vote(1, 2, 5, 4))) == [("events[7]", "rfm 4.4.16")]
    r = replay(protocol("rfm", tie, removal(8), phase("night", 1)))
    assert r.problems == [] and [e["seat"] for e in r.eliminations] == [8]


def test_mafclub_3_12_a_removal_at_night_cancels_the_next_vote():
    data = protocol("mafclub", phase("day", 1), phase("night", 1), removal(3), shoot(1, None),
                    phase("day", 2), nom(2, 1, 8), nom(2, 2, 9), vote(2, 1, 8, 5))
    assert problems(data) == [("events[8]", "mafclub 3.12")]


def test_mafclub_3_12_1_a_removal_during_an_undecided_vote_cancels_it():
    data = protocol("mafclub", phase("day", 1), nom(1, 1, 5), nom(1, 2, 6), vote(1, 1, 5, 4), removal(3), vote(1, 1, 6, 5))
    assert problems(data) == [("events[6]", "mafclub 3.12")]


def test_mafclub_3_12_2_a_removal_after_the_result_cancels_the_next_days_vote():
    data = protocol("mafclub", phase("day", 1), nom(1, 1, 5), nom(1, 2, 6),
                    ballot(1, 1, {5: [1, 2, 3, 4, 5, 6], 6: []}, TEN), removal(3), phase("night", 1), shoot(1, None),
                    phase("day", 2), nom(2, 1, 8), nom(2, 2, 9), vote(2, 1, 8, 5))
    r = replay(data)
    assert [(p.path, p.clause) for p in r.problems] == [("events[12]", "mafclub 3.12")]
    assert [e["seat"] for e in r.eliminations] == [5, 3]


def test_mafclub_3_12_3_on_day_1_with_one_candidate_the_cancelled_vote_is_day_1s():
    data = protocol("mafclub", phase("day", 1), nom(1, 1, 5), removal(3), phase("voting", 1), phase("night", 1),
                    shoot(1, None), phase("day", 2), nom(2, 1, 8), nom(2, 2, 9),
                    ballot(2, 1, {8: [1, 2, 4, 5, 6], 9: [7]}, NINE_WITHOUT_3))
    r = replay(data)
    assert r.problems == [] and [e["seat"] for e in r.eliminations] == [3, 8]


def test_mafclub_3_12_4_two_removals_cancel_two_votes():
    data = protocol("mafclub", phase("day", 1), nom(1, 1, 5), nom(1, 2, 6), removal(3), removal(4), phase("night", 1),
                    shoot(1, None), phase("day", 2), nom(2, 1, 8), nom(2, 2, 9), vote(2, 1, 8, 5))
    assert problems(data) == [("events[11]", "mafclub 3.12")]


def test_mafclub_3_12_a_killed_player_removed_afterwards_cancels_nothing():
    data = protocol("mafclub", phase("day", 1), phase("night", 1), shoot(1, 3), phase("day", 2), removal(3),
                    nom(2, 1, 8), nom(2, 2, 9), ballot(2, 1, {8: [1, 2, 4, 5, 6], 9: [7]}, NINE_WITHOUT_3))
    r = replay(data)
    assert r.problems == [] and [e["cause"] for e in r.eliminations] == ["shot", "vote"]


def test_showtime_p10_a_removal_does_not_cancel_the_vote():
    data = protocol("showtime", phase("day", 1), nom(1, 1, 5), nom(1, 2, 6), removal(3),
                    ballot(1, 1, {5: [1, 2, 4], 6: [7]}, NINE_WITHOUT_3, to_last=False))
    r = replay(data)
    assert r.problems == [] and [e["seat"] for e in r.eliminations] == [3, 5]


def test_lvi2015_a_removal_does_not_cancel_the_vote():
    data = protocol("lvi2015", phase("day", 1), nom(1, 1, 5), nom(1, 2, 6), removal(3),
                    ballot(1, 1, {5: [1, 2, 4, 5, 6], 6: [7]}, NINE_WITHOUT_3))
    assert problems(data) == []


def test_rfm_5_13_a_team_loss_removal_gives_the_other_team_the_win():
    data = protocol("rfm", phase("day", 1), removal(7, clause="rfm 5.13.1"), {"type": "result", "winner": "red"})
    r = replay(data)
    assert r.problems == [] and r.result == "red"
    assert replay(protocol("rfm", phase("day", 1), removal(7, clause="rfm 5.13.1"), nom(1, 1, 2))).problems[0].clause == "rfm 5.13.1"
