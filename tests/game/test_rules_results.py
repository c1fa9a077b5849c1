"""Rule encyclopedia, part 5: nights, best moves, eliminations and results (wins, draws, misses)."""

from __future__ import annotations

import pytest
from gamegen import (
    UNKNOWN,
    ballot,
    best,
    check,
    elim,
    lift,
    nom,
    phase,
    protocol,
    quiet_days,
    result,
    shoot,
    vote,
)

from review.game.engine import replay
from review.game.profiles import PROFILES, best_move_points

TEN = list(range(1, 11))


def problems(data: dict) -> list[tuple[str, str | None]]:
    return [(p.path, p.clause) for p in replay(data).problems]


def last(data: dict) -> str:
    return f"events[{len(data['events']) - 1}]"


# ---------------------------------------------------------------- game time


def test_rfm_4_6_1_phases_alternate_and_only_go_forward():
    assert problems(protocol("rfm", phase("day", 1), phase("night", 1), phase("day", 1))) == [("events[3].number", "rfm 4.6.1")]
    assert problems(protocol("rfm", phase("day", 0))) == [("events[1].number", "rfm 4.6.1")]
    skipped = replay(protocol("rfm", phase("day", 1), phase("day", 3)))  # nights not recorded: unknown, not wrong
    assert skipped.problems == [] and skipped.final.incomplete


# ---------------------------------------------------------------- the night


def test_rfm_4_5_3_the_judge_calls_every_number_mafclub_2_5_2_only_the_seated():
    assert PROFILES["rfm"].shooting_calls == "all" and PROFILES["rfm"].shooting_calls.clause == "rfm 4.5.3"
    assert PROFILES["mafclub"].shooting_calls == "living" and PROFILES["showtime"].shooting_calls == "living"


def test_rfm_4_5_2_there_is_no_shooting_on_night_0():
    assert problems(protocol("rfm", shoot(0, 3))) == [("events[1].night", "rfm 4.5.4")]


def test_rfm_4_5_4_all_blacks_on_one_number_kill_that_player():
    data = protocol("rfm", quiet_days([8]), phase("day", 2))
    assert replay(data).eliminations == [{"seat": 8, "cause": "shot", "night": 1}]
    agreed = protocol("rfm", phase("day", 1), phase("night", 1), shoot(1, None, {4: 8, 7: 8, 9: 8}))
    assert problems(agreed) == [("events[3].target", "rfm 4.5.4")]


def test_rfm_4_5_5_different_numbers_are_a_miss():
    data = protocol("rfm", phase("day", 1), phase("night", 1), shoot(1, 8, {4: 8, 7: 8, 9: 3}))
    assert problems(data) == [("events[3].target", "rfm 4.5.4")]
    assert problems(protocol("rfm", phase("day", 1), phase("night", 1), shoot(1, None, {4: 8, 7: 8, 9: 3}))) == []


def test_rfm_4_5_4_a_player_already_out_cannot_be_killed():
    data = protocol("rfm", quiet_days([8, 8]))
    assert problems(data) == [("events[6].target", "rfm 4.5.4")]


def test_rfm_5_17_a_player_removed_at_night_may_also_be_shot():
    data = protocol("rfm", phase("day", 1), phase("night", 1), {"type": "removal", "seat": 8}, shoot(1, 8, {4: 8, 7: 8, 9: 8}))
    r = replay(data)
    assert r.problems == [] and r.eliminations == [{"seat": 8, "cause": "removal", "night": 1}]


def test_rfm_4_5_4_one_shooting_a_night():
    data = protocol("rfm", quiet_days([None]), shoot(1, 5))
    assert problems(data) == [("events[4]", "rfm 4.5.4")]


def test_rfm_4_5_9_no_checks_on_the_first_night():
    assert problems(protocol("rfm", check(0, "sheriff", 4, "black"))) == [("events[1].night", "rfm 4.5.9")]


def test_rfm_4_5_7_and_4_5_8_the_judges_check_answers_must_be_true():
    night = [phase("day", 1), phase("night", 1), shoot(1, None)]
    good = protocol("rfm", night, check(1, "don", 2, "sheriff"), check(1, "sheriff", 4, "black"))
    assert problems(good) == []
    bad = protocol("rfm", night, check(1, "don", 3, "sheriff"), check(1, "sheriff", 4, "red"))
    assert problems(bad) == [("events[4].result", "rfm 4.5.7"), ("events[5].result", "rfm 4.5.8")]


def test_rfm_4_5_9_one_check_a_night_and_only_by_a_living_checker():
    twice = protocol("rfm", quiet_days([None]), check(1, "don", 2, "sheriff"), check(1, "don", 3, "not_sheriff"))
    assert problems(twice) == [("events[5].by", "rfm 4.5.9")]
    dead = protocol("rfm", quiet_days([2]), phase("day", 2), phase("night", 2), shoot(2, None), check(2, "sheriff", 4, "black"))
    assert problems(dead) == [("events[7].by", "rfm 4.5.4")]


# ---------------------------------------------------------------- best move


def test_rfm_4_5_10_only_the_player_killed_on_night_1_has_a_best_move():
    assert problems(protocol("rfm", quiet_days([8]), best(8, [4, 7, 9]))) == []
    assert problems(protocol("rfm", quiet_days([8]), best(5, [4, 7, 9]))) == [("events[4].seat", "rfm 4.5.10")]
    assert problems(protocol("rfm", quiet_days([None]), best(5, [4, 7, 9]))) == [("events[4].seat", "rfm 4.5.10")]


def test_rfm_6_6_9_no_best_move_after_two_left_by_the_day_1_vote():
    day1 = [phase("day", 1), nom(1, 2, 5), nom(1, 6, 8), ballot(1, 1, {5: [1, 2, 3, 4, 5], 8: [6, 7, 8, 9, 10]}, TEN),
            ballot(1, 2, {5: [1, 2, 3, 4, 5], 8: [6, 7, 8, 9, 10]}, TEN), lift(1, [5, 8], 7)]
    data = protocol("rfm", day1, phase("night", 1), shoot(1, 3), best(3, [4, 7, 9]))
    assert problems(data) == [(last(data), "rfm 6.6.9")]
    assert problems(protocol("mafclub", day1, phase("night", 1), shoot(1, 3), best(3, [4, 7, 9]))) == []


def test_rfm_6_6_2_to_6_6_5_best_move_points():
    rfm = PROFILES["rfm"]
    assert best_move_points(rfm, "civilian", 3) == 0.8 and best_move_points(rfm, "civilian", 2) == 0.55
    assert best_move_points(rfm, "sheriff", 3) == 0.7 and best_move_points(rfm, "sheriff", 2) == 0.45
    assert best_move_points(rfm, "civilian", 1) == 0.0


def test_mafclub_2_6_3_best_move_points_2_1_and_a_half():
    mafclub = PROFILES["mafclub"]
    assert [best_move_points(mafclub, "civilian", n) for n in (3, 2, 1, 0)] == [2.0, 1.0, 0.5, 0.0]


@pytest.mark.parametrize("rules", ["lvi2015", "showtime"])
def test_lvi2015_and_showtime_have_no_best_move_so_nothing_is_checked(rules):
    assert PROFILES[rules].best_move.value is None
    assert problems(protocol(rules, quiet_days([None]), best(5, [4, 7, 9]))) == []
    assert best_move_points(PROFILES[rules], "civilian", 3) is None


# ---------------------------------------------------------------- eliminations recorded in the protocol


def test_an_elimination_the_rules_give_agrees_and_one_they_do_not_is_a_problem():
    shot = [phase("day", 1), phase("night", 1), shoot(1, 8)]
    assert problems(protocol("rfm", shot, elim(8, "shot", night=1))) == []
    assert problems(protocol("rfm", shot, elim(8, "vote"))) == [("events[4].cause", "rfm 4.5.4")]
    assert problems(protocol("rfm", shot, elim(5, "shot", night=1))) == [("events[4].seat", "rfm 4.5.4")]


def test_rfm_4_4_12_a_voted_out_player_cannot_vote():
    data = protocol("rfm", phase("day", 1), nom(1, 2, 5), nom(1, 6, 8), ballot(1, 1, {5: [1, 2, 3, 4, 6, 7], 8: [9]}, TEN),
                    phase("night", 1), shoot(1, None), phase("day", 2), nom(2, 1, 3), nom(2, 2, 4),
                    vote(2, 1, 3, 2, [5, 6]), vote(2, 1, 4, 7))
    assert ("events[11].voters[0]", "rfm 4.4.12") in problems(data)


# ---------------------------------------------------------------- wins


def test_rfm_1_4_red_wins_when_every_black_is_out():
    data = protocol("rfm", phase("day", 1), {"type": "removal", "seat": 4}, {"type": "removal", "seat": 7},
                    {"type": "removal", "seat": 9}, result("red"))
    r = replay(data)
    assert r.problems == [] and r.result == "red"


def test_rfm_1_4_black_wins_when_blacks_are_as_many_as_reds():
    kills = [1, 2, 3]
    data = protocol("rfm", quiet_days(kills), phase("day", 4), nom(4, 4, 5), nom(4, 7, 6),
                    ballot(4, 1, {5: [4, 7, 9], 6: [10]}, [4, 5, 6, 7, 8, 9, 10]), result("black"))
    r = replay(data)
    assert r.problems == [] and r.result == "black" and r.final.result_clause == "rfm 1.4"


def test_rfm_1_4_a_result_the_rules_do_not_give_is_a_problem():
    assert problems(protocol("rfm", phase("day", 1), result("red"))) == [("events[2].winner", "rfm 1.4")]
    wrong = protocol("rfm", phase("day", 1), {"type": "removal", "seat": 4}, {"type": "removal", "seat": 7},
                     {"type": "removal", "seat": 9}, result("black"))
    assert problems(wrong) == [("events[5].winner", "rfm 1.4")]


def test_rfm_1_4_nothing_is_played_after_the_result():
    data = protocol("rfm", phase("day", 1), {"type": "removal", "seat": 4}, {"type": "removal", "seat": 7},
                    {"type": "removal", "seat": 9}, phase("night", 1))
    assert problems(data) == [("events[5]", "rfm 1.4")]


def test_mafclub_2_7_1_the_black_team_may_concede():
    assert problems(protocol("mafclub", phase("day", 1), result("red"))) == []
    assert problems(protocol("mafclub", phase("day", 1), result("black"))) == [("events[2].winner", "mafclub 2.7.1")]


def test_lvi2015_a_result_with_roles_unknown_is_taken_as_announced():
    r = replay(protocol("lvi2015", phase("day", 1), result("black"), roles=UNKNOWN))
    assert r.problems == [] and r.result == "black"


# ---------------------------------------------------------------- draws and misses


def test_rfm_4_7_1_three_missed_nights_with_quiet_days_between_are_a_draw():
    data = protocol("rfm", quiet_days([None, None, None]), result("draw"))
    r = replay(data)
    assert r.problems == [] and r.result == "draw" and r.final.result_clause == "rfm 4.7.1"


def test_rfm_4_7_1_someone_leaving_on_a_day_between_breaks_the_draw():
    data = protocol("rfm", quiet_days([None]), phase("day", 2), nom(2, 1, 3), vote(2, 1, 3, 10),
                    phase("night", 2), shoot(2, None), quiet_days([None], first_day=3), result("draw"))
    assert problems(data) == [(last(data) + ".winner", "rfm 4.7.1")]
    longer = protocol("rfm", quiet_days([None]), phase("day", 2), nom(2, 1, 3), vote(2, 1, 3, 10),
                      phase("night", 2), shoot(2, None), quiet_days([None, None], first_day=3), result("draw"))
    assert problems(longer) == []


def test_mafclub_2_7_2_1_three_nights_and_three_days_with_nobody_leaving_are_a_draw():
    nights = protocol("mafclub", quiet_days([None, None, None]), phase("day", 4), result("draw"))
    assert problems(nights) == []
    early = protocol("mafclub", quiet_days([None, None, None]), result("draw"))
    assert problems(early) == [(last(early) + ".winner", "mafclub 2.7.2.1")]


def test_mafclub_2_7_2_2_everyone_lifted_on_the_last_day_is_a_draw():
    living = [4, 8, 9]
    hands = {4: [8], 8: [9], 9: [4]}
    days = [quiet_days([1, 2, 3, 5, 6, 7, 10]), phase("day", 8), [nom(8, s, s) for s in hands],
            ballot(8, 1, hands, living), ballot(8, 2, hands, living), lift(8, [4, 8, 9], 2), result("draw")]
    r = replay(protocol("mafclub", days, roles=UNKNOWN))
    assert r.problems == [] and r.result == "draw" and r.final.result_clause == "mafclub 2.7.2.2"
    assert replay(protocol("showtime", days[:-1], roles=UNKNOWN)).result == "black"  # showtime ¶19: 0 = 0


def test_showtime_p18_three_misses_with_no_one_voted_out_are_a_red_win():
    data = protocol("showtime", quiet_days([None, None, None]), result("red"))
    r = replay(data)
    assert r.problems == [] and r.result == "red" and r.final.result_clause == "showtime ¶18"


def test_lvi2015_misses_lead_to_no_draw():
    data = protocol("lvi2015", quiet_days([None, None, None, None]), result("draw"))
    assert problems(data) == [(last(data) + ".winner", "lvi2015 «Игра заканчивается»")]
