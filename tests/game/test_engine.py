"""The engine's interface: replay's results, vote contexts for the audit, purity of `step`, the profiles' data."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from gamegen import ballot, lift, nom, phase, protocol

from contract.errors import InvalidInput
from review.game.engine import initial_state, replay, step
from review.game.profiles import JUDGE_ERROR_KINDS, OFFENCE_KINDS, PROFILES, Cited, get_profile
from review.game.voting import VoteContext, vote_outcome, with_silent

FIXTURES = Path(__file__).parents[1] / "fixtures"
TEN = list(range(1, 11))


@pytest.mark.parametrize(
    "name,result,leavers",
    [
        ("protocols/complete_rfm", "red", [5, 8, 9, 7, 2, 4]),
        ("games/mafclub_draw", "draw", [1]),
        ("games/showtime_three_misses", "red", [5]),
        ("games/lvi2015_four_players", "red", [9, 1, 7, 2, 3, 5, 6, 4]),
    ],
)
def test_complete_legal_games_replay_to_their_result(name, result, leavers):
    data = json.loads((FIXTURES / f"{name}.protocol.json").read_text(encoding="utf-8"))
    r = replay(data)
    assert r.problems == []
    assert r.result == result and [e["seat"] for e in r.eliminations] == leavers
    out = r.to_json()
    assert out["result"] == result and out["problems"] == [] and out["eliminations"][0]["seat"] == leavers[0]
    assert set(out["eliminations"][0]) == {"seat", "cause", "day"} or set(out["eliminations"][0]) == {"seat", "cause", "night"}


def test_vote_contexts_are_keyed_by_the_vote_events_index():
    data = protocol("rfm", phase("day", 1), nom(1, 2, 5), nom(1, 6, 8),
                    ballot(1, 1, {5: [1, 2, 3, 4, 5], 8: [6, 7, 8, 9, 10]}, TEN),
                    ballot(1, 2, {5: [1, 2, 3, 4, 5], 8: [6, 7, 8, 9, 10]}, TEN), lift(1, [5, 8], 4))
    r = replay(data)
    assert sorted(r.vote_contexts) == [4, 5, 6, 7, 8]
    first, last, lift_ctx = r.vote_contexts[4], r.vote_contexts[5], r.vote_contexts[8]
    assert (first.day, first.round, first.kind, first.candidates, first.stage) == (1, 1, "vote", (5, 8), "first")
    assert first.living == tuple(TEN) and not first.is_last_candidate and last.is_last_candidate
    assert r.vote_contexts[6].stage == "revote"
    assert (lift_ctx.kind, lift_ctx.stage, lift_ctx.candidates, lift_ctx.candidate) == ("lift", "lift", (5, 8), None)
    assert r.outcomes[8].text == "all stay"


def test_impossible_votes_get_no_context():
    data = protocol("rfm", phase("day", 1), nom(1, 2, 5), {"type": "vote", "day": 1, "round": 1, "candidate": 5, "count": 10})
    assert replay(data).vote_contexts == {}


def test_hand_counts_and_announced_counts_give_the_same_outcome_rfm_4_4_10():
    rfm = PROFILES["rfm"]
    ctx = VoteContext(1, 1, "vote", (5, 8), tuple(TEN), True, "first", 8)
    assert with_silent(rfm, ctx, {5: 4, 8: 3}) == {5: 4, 8: 6}
    assert vote_outcome(rfm, ctx, {5: 4, 8: 3}).text == vote_outcome(rfm, ctx, {5: 4, 8: 6}).text == "seat 8 leaves"
    assert vote_outcome(PROFILES["showtime"], ctx, {5: 4, 8: 3}).text == "seat 5 leaves"


def test_step_is_a_pure_function_of_state_and_event():
    data = protocol("rfm", phase("day", 1), nom(1, 2, 5))
    state = initial_state(data)
    for i, event in enumerate(data["events"]):
        snapshot = repr(state)
        new, problems = step(PROFILES["rfm"], state, i, event)
        assert repr(state) == snapshot and problems == []
        state = new
    assert state.nominations[1] == [(2, 5)] and state.stage == "day" and state.number == 1


def test_get_profile_names_the_unknown_id():
    assert get_profile("mafclub") is PROFILES["mafclub"]
    with pytest.raises(InvalidInput, match='"chess"'):
        get_profile("chess")


@pytest.mark.parametrize("profile", list(PROFILES.values()), ids=list(PROFILES))
def test_every_profile_parameter_cites_a_clause_of_its_own_rulebook(profile):
    params = profile.parameters()
    assert len(params) >= 35
    for name, cited in params.items():
        assert isinstance(cited, Cited)
        assert cited.clause.startswith(profile.id + " "), name
        assert cited.also is None or cited.also.startswith(profile.id + " "), name
    rulebook = Path(__file__).parents[3] / "shared" / "rules" / profile.rulebook
    if not rulebook.parent.exists():
        pytest.skip("../shared is absent: the rulebooks are not here")
    assert rulebook.exists()


def test_cited_values_compare_like_their_value():
    rfm = PROFILES["rfm"]
    assert rfm.vote_closer == "stop" and rfm.vote_closer != "spasibo" and str(rfm.vote_closer) == "stop"
    assert bool(PROFILES["mafclub"].withdrawal) and not bool(rfm.withdrawal)


def _every_clause() -> set[str]:
    clauses: set[str] = set()
    for p in PROFILES.values():
        consequences = [p.offence(k, prior_fouls=f) for k in OFFENCE_KINDS + JUDGE_ERROR_KINDS for f in (0, 3)]
        consequences.append(p.lifted_after_cutoff)
        for c in [*p.parameters().values(), *consequences]:
            clauses.update(x for x in (c.clause, c.also) if x)
    return clauses


def test_every_cited_clause_exists_in_its_rulebook():
    """Numbered clauses start a line; «words» occur in the text; ¶N is a line of the file; lvi2015's unnumbered
    paragraphs (5.3, 6.6, RULES.md's convention) sit in a numbered section."""
    folder = Path(__file__).parents[3] / "shared" / "rules"
    if not folder.exists():
        pytest.skip("../shared is absent: the rulebooks are not here")
    for clause in sorted(_every_clause()):
        pid, ref = clause.split(" ", 1)
        text = (folder / PROFILES[pid].rulebook).read_text(encoding="utf-8")
        lines = text.splitlines()
        if ref.startswith("¶"):
            assert int(ref[1:]) <= len(lines), clause
        elif ref.startswith("«"):
            assert ref.strip("«»") in text, clause
        elif not any(re.match(re.escape(ref) + r"(\.|\s|[^\d])", line) for line in lines):
            assert pid == "lvi2015" and any(line.startswith(ref.split(".")[0] + ". ") for line in lines), clause


def test_a_malformed_protocol_gives_no_crash_only_what_can_be_read():
    """`validate` reports format problems first; the replay itself must survive any JSON it is given."""
    data = {
        "rules": "rfm",
        "players": [{"seat": [1], "role": {}}, None, "x"],
        "events": [None, 3, {"type": []}, {"type": "vote", "day": "1", "candidate": [5], "voters": [None]},
                   {"type": "shooting", "night": 1, "target": 11, "shots": {"4": "x"}}, {"type": "result", "winner": 7}],
    }
    r = replay(data)
    assert r.result is None and r.final.at_table == set(TEN)


def test_a_protocol_of_eliminations_only_is_taken_as_given():
    """A paper protocol typed in with no votes, phases or nominations: the eliminations are the facts."""
    events = [{"type": "elimination", "seat": s, "cause": c} for s, c in
              [(9, "vote"), (1, "shot"), (7, "vote"), (2, "shot"), (4, "vote")]]
    data = protocol("mafclub", events, {"type": "result", "winner": "red"}, start=False)
    r = replay(data)
    assert r.problems == [] and r.result == "red"
    assert [(e["seat"], e.get("day"), e.get("night")) for e in r.eliminations] == [
        (9, 1, None), (1, None, 1), (7, 2, None), (2, None, 2), (4, 3, None)]
