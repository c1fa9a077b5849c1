"""Property tests: random legal games (tests/gamegen.py) replay without a problem under every profile,
to the eliminations and result the game came to; and replay is a pure function of the protocol."""

from __future__ import annotations

import copy
import json
import random

import pytest
from gamegen import generate
from hypothesis import given, settings
from hypothesis import strategies as st

from review.game.engine import replay

PROFILE_IDS = ["rfm", "mafclub", "lvi2015", "showtime"]
# A whole game per example: 40 % of the examples of tests/conftest.py's profile (40 in CI, 4000 in the fuzz run).
FEW = settings(max_examples=max(10, settings.default.max_examples * 2 // 5))


def _who(eliminations: list[dict]) -> list[tuple[int, str]]:
    return [(e["seat"], e["cause"]) for e in eliminations]


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
@FEW
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_legal_games_replay_without_a_problem(profile_id, seed):
    game = generate(profile_id, random.Random(seed))
    r = replay(game.protocol)
    assert [str(p) for p in r.problems] == []
    assert _who(r.eliminations) == _who(game.eliminations)
    assert r.result == game.result


@FEW
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), profile_id=st.sampled_from(PROFILE_IDS))
def test_replay_is_pure_and_repeatable(seed, profile_id):
    game = generate(profile_id, random.Random(seed))
    before = copy.deepcopy(game.protocol)
    first, second = replay(game.protocol), replay(game.protocol)
    assert game.protocol == before  # the protocol is not touched
    assert json.dumps(first.to_json(), sort_keys=True) == json.dumps(second.to_json(), sort_keys=True)


@FEW
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), profile_id=st.sampled_from(PROFILE_IDS),
       cut=st.floats(min_value=0, max_value=1))
def test_a_game_cut_short_is_still_legal_so_far(seed, profile_id, cut):
    """A protocol for a clip carries the game up to some point: what is there stays legal."""
    game = generate(profile_id, random.Random(seed))
    events = game.protocol["events"]
    game.protocol["events"] = events[: int(len(events) * cut)]
    game.protocol["events"] = [e for e in game.protocol["events"] if e["type"] != "result"]
    assert [str(p) for p in replay(game.protocol).problems] == []


_SEAT_FIELDS = ("seat", "by", "target", "candidate")
_NUMBER_FIELDS = ("day", "round", "night", "count", "number")


def _mutate(events: list[dict], rng: random.Random) -> None:
    """One change a typing slip could make, keeping every value in its format's domain (spec §1)."""
    if not events:
        return
    how = rng.randrange(6)
    i = rng.randrange(len(events))
    if how == 0:
        del events[i]
    elif how == 1:
        events.insert(rng.randrange(len(events) + 1), copy.deepcopy(events[i]))
    elif how == 2:
        j = rng.randrange(len(events))
        events[i], events[j] = events[j], events[i]
    else:
        event = events[i]
        fields = [f for f in (*_SEAT_FIELDS, *_NUMBER_FIELDS, "voters", "winner", "cause") if f in event]
        if not fields:
            return
        name = rng.choice(fields)
        if name in _SEAT_FIELDS:
            event[name] = None if name == "target" and event["type"] == "shooting" and rng.random() < 0.3 else rng.randint(1, 10)
        elif name in _NUMBER_FIELDS:
            event[name] = max(0 if name in ("count", "night", "number") else 1, event[name] + rng.choice((-2, -1, 1, 2)))
        elif name == "voters":
            event[name] = sorted(rng.sample(range(1, 11), rng.randint(0, 6)))
        elif name == "winner":
            event[name] = rng.choice(["red", "black", "draw"])
        else:
            event[name] = rng.choice(["vote", "lift", "shot", "removal"])


@FEW
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), profile_id=st.sampled_from(PROFILE_IDS),
       changes=st.integers(min_value=1, max_value=4))
def test_mutated_games_give_problems_never_a_crash(seed, profile_id, changes):
    rng = random.Random(seed)
    game = generate(profile_id, rng)
    for _ in range(changes):
        _mutate(game.protocol["events"], rng)
    r = replay(game.protocol)
    assert all(p.path.startswith("events[") and p.message.endswith(".") for p in r.problems)
    assert all(p.clause and p.clause.startswith(profile_id + " ") for p in r.problems)
    json.dumps(r.to_json())
