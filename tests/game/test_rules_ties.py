"""Rule encyclopedia, part 2: single candidates and ties («автокатастрофа»), revotes and the lift vote."""

from __future__ import annotations

import pytest
from gamegen import UNKNOWN, ballot, lift, nom, phase, protocol, quiet_days, vote

from review.game.engine import replay
from review.game.profiles import PROFILES
from review.game.voting import VoteContext, lift_outcome, vote_outcome

TEN = list(range(1, 11))


def problems(data: dict) -> list[tuple[str, str | None]]:
    return [(p.path, p.clause) for p in replay(data).problems]


def ctx(day: int, rnd: int, candidates: tuple[int, ...], living: int, **kw) -> VoteContext:
    return VoteContext(day, rnd, "vote", candidates, tuple(range(1, living + 1)), True,
                       "first" if rnd == 1 else "revote", candidates[-1], **kw)


# ---------------------------------------------------------------- a single candidate


@pytest.mark.parametrize("rules,clause", [("rfm", "rfm 4.4.11"), ("mafclub", "mafclub 2.4.3"),
                                          ("lvi2015", "lvi2015 «Первый день»"), ("showtime", "showtime ¶10")])
def test_single_candidate_on_day_1_is_not_voted_rfm_4_4_11_mafclub_2_4_3_lvi2015_showtime_p10(rules, clause):
    quiet = protocol(rules, phase("day", 1), nom(1, 2, 5), phase("voting", 1), phase("night", 1))
    r = replay(quiet)
    assert r.problems == [] and r.eliminations == []
    voted = protocol(rules, phase("day", 1), nom(1, 2, 5), phase("voting", 1), vote(1, 1, 5, 10))
    assert problems(voted) == [("events[4]", clause)]


def test_rfm_4_4_11_a_single_candidate_on_a_later_day_is_voted():
    data = protocol("rfm", quiet_days([None]), phase("day", 2), nom(2, 3, 8), vote(2, 1, 8, 10, [1, 2, 3]))
    r = replay(data)
    assert r.problems == [] and r.eliminations == [{"seat": 8, "cause": "vote", "day": 2}]


def test_lvi2015_a_single_candidate_on_a_later_day_is_voted():
    data = protocol("lvi2015", quiet_days([None]), phase("day", 2), nom(2, 3, 8), vote(2, 1, 8, 10))
    assert replay(data).eliminations == [{"seat": 8, "cause": "vote", "day": 2}]


@pytest.mark.parametrize("rules,clause", [("mafclub", "mafclub 2.4.3"), ("showtime", "showtime ¶10")])
def test_mafclub_2_4_3_and_showtime_p10_a_single_later_candidate_leaves_without_a_vote(rules, clause):
    data = protocol(rules, quiet_days([None]), phase("day", 2), nom(2, 3, 8), phase("voting", 2), phase("night", 2))
    r = replay(data)
    assert r.problems == [] and r.eliminations == [{"seat": 8, "cause": "vote", "day": 2}]
    voted = protocol(rules, quiet_days([None]), phase("day", 2), nom(2, 3, 8), vote(2, 1, 8, 10))
    assert problems(voted) == [("events[6]", clause)]


# ---------------------------------------------------------------- ties


def test_rfm_4_4_13_a_tie_is_revoted_among_the_tied_only():
    out = vote_outcome(PROFILES["rfm"], ctx(1, 1, (5, 7, 3), 10), {5: 4, 7: 4, 3: 2})
    assert (out.text, out.next, out.tied, out.clause) == ("tie 5, 7: revote", "revote", (5, 7), "rfm 4.4.13")
    data = protocol("rfm", phase("day", 1), nom(1, 2, 5), nom(1, 6, 7), nom(1, 9, 3),
                    ballot(1, 1, {5: [1, 2, 3, 4], 7: [6, 8, 9, 10], 3: [5, 7]}, TEN),
                    vote(1, 2, 3, 2))
    assert problems(data) == [("events[8].candidate", "rfm 4.4.4")]


def test_rfm_4_4_13_1_tied_players_are_revoted_in_nomination_order():
    data = protocol("rfm", phase("day", 1), nom(1, 2, 5), nom(1, 6, 7),
                    ballot(1, 1, {5: [1, 2, 3, 4, 5], 7: [6, 7, 8, 9, 10]}, TEN),
                    vote(1, 2, 7, 4), vote(1, 2, 5, 6))
    assert ("events[6].candidate", "rfm 4.4.4") in problems(data)


def test_rfm_4_4_13_2_a_tie_again_among_fewer_is_revoted_again():
    out = vote_outcome(PROFILES["rfm"], ctx(1, 2, (5, 7, 3), 10), {5: 4, 7: 4, 3: 2})
    assert (out.next, out.tied, out.clause) == ("revote", (5, 7), "rfm 4.4.13.2")


def test_rfm_4_4_13_3_the_same_tie_again_goes_to_the_lift_vote_and_a_majority_lifts_both():
    days = [phase("day", 1), nom(1, 2, 5), nom(1, 6, 8), phase("voting", 1),
            ballot(1, 1, {5: [1, 2, 3, 4, 5], 8: [6, 7, 8, 9, 10]}, TEN),
            ballot(1, 2, {5: [1, 2, 3, 4, 5], 8: [6, 7, 8, 9, 10]}, TEN)]
    r = replay(protocol("rfm", days, lift(1, [5, 8], 6)))
    assert r.problems == []
    assert r.eliminations == [{"seat": 5, "cause": "lift", "day": 1}, {"seat": 8, "cause": "lift", "day": 1}]
    assert [o.text for _, o in sorted(r.outcomes.items())] == ["tie 5, 8: revote", "tie 5, 8: lift vote", "seats 5, 8 leave"]


@pytest.mark.parametrize("yes", [5, 4, 0])
def test_rfm_4_4_13_3_against_or_split_evenly_all_stay(yes):
    out = lift_outcome(PROFILES["rfm"], VoteContext(1, 3, "lift", (5, 8), tuple(TEN), False, "lift"), yes)
    assert (out.text, out.leaving) == ("all stay", ())


def test_rfm_4_4_13_3_a_lift_vote_must_follow_the_same_tie():
    days = [phase("day", 1), nom(1, 2, 5), nom(1, 6, 8),
            ballot(1, 1, {5: [1, 2, 3, 4, 5], 8: [6, 7, 8, 9, 10]}, TEN),
            ballot(1, 2, {5: [1, 2, 3, 4, 5], 8: [6, 7, 8, 9, 10]}, TEN), phase("night", 1)]
    data = protocol("rfm", days)
    assert problems(data) == [(f"events[{len(data['events']) - 1}]", "rfm 4.4.13")]


def test_rfm_4_4_19_no_lift_vote_for_five_of_ten():
    hands = {c: [c, c % 10 + 1] for c in (1, 3, 5, 7, 9)}  # five candidates, two hands each
    days = [phase("day", 1), *[nom(1, c + 1, c) for c in hands], ballot(1, 1, hands, TEN), ballot(1, 2, hands, TEN)]
    r = replay(protocol("rfm", days, roles=UNKNOWN))
    assert r.problems == [] and r.outcomes[16].text == "tie 1, 3, 5, 7, 9: all stay, no lift vote"
    assert r.outcomes[16].clause == "rfm 4.4.19"
    assert problems(protocol("rfm", days, lift(1, [1, 3, 5, 7, 9], 9), roles=UNKNOWN)) == [("events[17]", "rfm 4.4.19")]


def test_rfm_4_4_20_no_lift_vote_for_four_of_eight():
    living = [2, 4, 5, 6, 7, 8, 9, 10]
    hands = {5: [2, 4], 6: [5, 6], 8: [7, 8], 10: [9, 10]}
    days = [quiet_days([1, 3]), phase("day", 3), nom(3, 2, 5), nom(3, 4, 6), nom(3, 7, 8), nom(3, 9, 10),
            ballot(3, 1, hands, living), ballot(3, 2, hands, living), lift(3, [5, 6, 8, 10], 8)]
    data = protocol("rfm", days, roles=UNKNOWN)
    assert problems(data) == [(f"events[{len(data['events']) - 1}]", "rfm 4.4.20")]


def test_rfm_4_4_21_no_lift_vote_for_three_of_six():
    out = vote_outcome(PROFILES["rfm"], ctx(5, 2, (2, 8, 10), 6), {2: 2, 8: 2, 10: 2})
    assert (out.next, out.clause) == ("stay", "rfm 4.4.21")
    assert vote_outcome(PROFILES["mafclub"], ctx(5, 2, (2, 8, 10), 6), {2: 2, 8: 2, 10: 2}).next == "lift"


def test_rfm_4_4_18_no_vote_to_lift_everyone_at_the_table():
    living = [4, 8, 9, 10]
    hands = {4: [8], 8: [9], 9: [10], 10: [4]}
    days = [quiet_days([1, 2, 3, 5, 6, 7]), phase("day", 7), *[nom(7, s, s) for s in hands],
            ballot(7, 1, hands, living), ballot(7, 2, hands, living)]
    r = replay(protocol("rfm", days, roles=UNKNOWN))
    assert r.problems == [] and r.outcomes[max(r.outcomes)].clause == "rfm 4.4.18"


def test_rfm_4_4_13_4_three_players_split_twice_night_falls_without_a_lift_vote():
    out = vote_outcome(PROFILES["rfm"], ctx(8, 2, (1, 2, 3), 3), {1: 1, 2: 1, 3: 1})
    assert (out.text, out.clause) == ("tie 1, 2, 3: all stay, no lift vote", "rfm 4.4.13.4")
    assert vote_outcome(PROFILES["rfm"], ctx(8, 1, (1, 2, 3), 3), {1: 1, 2: 1, 3: 1}).next == "revote"


def test_mafclub_2_4_11_worked_example_four_tied_then_two_tied_are_revoted_again():
    """The comment to 2.4.11: four tie on 2 votes each; after the revote two tie on 4 each: another revote."""
    noms = [nom(1, s + 1, s) for s in (1, 2, 3, 4, 5, 6)]
    r1 = ballot(1, 1, {1: [2, 3], 2: [4, 5], 3: [6, 7], 4: [8, 9], 5: [10], 6: [1]}, TEN)
    r2 = ballot(1, 2, {1: [1, 2, 3, 5], 2: [4, 6, 7, 8], 3: [9], 4: [10]}, TEN)
    r3 = ballot(1, 3, {1: [1, 2, 3, 4, 5, 6], 2: [7, 8, 9, 10]}, TEN)
    r = replay(protocol("mafclub", phase("day", 1), noms, r1, r2, r3))
    assert r.problems == []
    assert [o.text for _, o in sorted(r.outcomes.items())] == ["tie 1, 2, 3, 4: revote", "tie 1, 2: revote", "seat 1 leaves"]
    assert r.eliminations == [{"seat": 1, "cause": "vote", "day": 1}]


@pytest.mark.parametrize("rules,clause", [("lvi2015", "lvi2015 «перестрелка»"), ("showtime", "showtime ¶12")])
def test_lvi2015_perestrelka_and_showtime_p12_any_tie_again_goes_to_the_lift_vote(rules, clause):
    out = vote_outcome(PROFILES[rules], ctx(1, 2, (1, 2, 3, 4), 10), {1: 4, 2: 4, 3: 1, 4: 1})
    assert (out.text, out.tied, out.clause) == ("tie 1, 2: lift vote", (1, 2), clause)


def test_lvi2015_perestrelka_with_four_at_the_table_a_tie_is_not_revoted():
    out = vote_outcome(PROFILES["lvi2015"], ctx(6, 1, (3, 8), 4), {3: 2, 8: 2})
    assert (out.text, out.leaving, out.clause) == ("tie 3, 8: all stay, no revote at 4", (), "lvi2015 «перестрелка»")
    assert vote_outcome(PROFILES["rfm"], ctx(6, 1, (3, 8), 4), {3: 2, 8: 2}).next == "revote"


def test_mafclub_2_4_11_a_lift_vote_needs_a_majority_of_the_table():
    living = tuple(range(1, 8))
    c = VoteContext(3, 3, "lift", (2, 5), living, False, "lift")
    assert lift_outcome(PROFILES["mafclub"], c, 4).leaving == (2, 5)
    assert lift_outcome(PROFILES["mafclub"], c, 3).leaving == ()


def test_rfm_4_4_13_3_a_lift_vote_where_none_is_due_is_a_problem():
    data = protocol("rfm", phase("day", 1), nom(1, 2, 5), nom(1, 6, 8),
                    ballot(1, 1, {5: [1, 2, 3, 4, 5], 8: [6, 7, 8, 9, 10]}, TEN), lift(1, [5, 8], 7))
    assert problems(data) == [("events[6]", "rfm 4.4.13.3")]


def test_rfm_4_4_16_exception_1_no_lifting_two_of_four_after_a_black_is_removed_at_six():
    """Blacks 4 and 7 at six; 7 is removed at night: at four players, two may not be lifted."""
    events = [phase("day", 1), nom(1, 2, 9), nom(1, 3, 1), ballot(1, 1, {9: [1, 2, 3, 5, 6, 8], 1: [4, 7]}, TEN),
              phase("night", 1), {"type": "shooting", "night": 1, "target": 1},
              phase("day", 2), nom(2, 2, 3), nom(2, 4, 10), ballot(2, 2 - 1, {3: [4, 6, 7, 8, 10], 10: [2]}, [2, 3, 4, 5, 6, 7, 8, 10]),
              phase("night", 2), {"type": "shooting", "night": 2, "target": 5},
              phase("day", 3), phase("night", 3), {"type": "removal", "seat": 7, "reason": "peeking"},
              {"type": "shooting", "night": 3, "target": 2},
              phase("day", 4), nom(4, 4, 6), nom(4, 6, 8)]
    tie = [ballot(4, 1, {6: [4, 6], 8: [8, 10]}, [4, 6, 8, 10]), ballot(4, 2, {6: [4, 6], 8: [8, 10]}, [4, 6, 8, 10])]
    r = replay(protocol("rfm", events, tie))
    assert r.problems == []
    assert r.outcomes[max(r.outcomes)].text == "tie 6, 8: all stay, no lift vote"
    assert r.outcomes[max(r.outcomes)].clause == "rfm 4.4.16"
    data = protocol("rfm", events, tie, lift(4, [6, 8], 3))
    assert problems(data) == [(f"events[{len(data['events']) - 1}]", "rfm 4.4.16")]
    # without exception 1 the same tie at four goes to the lift vote
    assert vote_outcome(PROFILES["rfm"], ctx(4, 2, (6, 8), 4), {6: 2, 8: 2}).next == "lift"
