"""Property tests over random legal games (tests/gamegen.py): a Polemica or mafiaratings export either refuses,
naming an event the format cannot hold, or reads back through our importer as a valid game that is the same game
on everything the format holds (export → import is the identity there)."""

from __future__ import annotations

import json
import random
import re

import pytest
from gamegen import generate
from hypothesis import given, settings
from hypothesis import strategies as st

from review.cases.club_exports import ExportRefused, club_file, held, to_mafiaratings, to_polemica
from review.game.engine import replay
from review.game.importers import convert
from review.game.protocol import validate

PROFILE_IDS = ["rfm", "mafclub", "lvi2015", "showtime"]
EXPORT = {"polemica": to_polemica, "mafiaratings": to_mafiaratings}
FEW = settings(max_examples=max(20, settings.default.max_examples), deadline=None)
# Each reason a format gives, and the event types it may name: a refusal is always one of these, never the
# read-back check's own sentence (which would mean a case the exporter does not know).
REASONS = {
    "holds no fines": {"fine"},
    "no vote on lifting": {"lift_vote"},
    "holds no removals": {"removal", "elimination"},
    "does not say who is black": {"shooting"},
    "not the result, which follows from the roles": {"check"},
    "gives only the count": {"vote"},
    "counts voter by voter": {"vote"},
    "one vote per player a round": {"vote"},
    "cannot show he was a candidate": {"vote"},
    "without a recorded vote": {"elimination", "nomination"},
    "one best move a game": {"best_move"},
    "not whom it named": {"best_move"},
    "cannot say one was withdrawn": {"withdrawal"},
    "one nomination per player a day": {"nomination"},
    "Sheriff's check of each player": {"check"},
    "Don's check of each player": {"check"},
    "shot at no one": {"shooting"},
    "keeps only the day of a removal": {"removal"},
    "without gaps": {"vote"},
}


def _votes(protocol: dict, nonzero: bool) -> list[tuple]:
    return sorted((e["day"], e["round"], e["candidate"], e["count"]) for e in protocol["events"]
                  if e["type"] == "vote" and (e["count"] or not nonzero))


def _fouls(protocol: dict) -> dict[int, int]:
    out: dict[int, int] = {}
    for e in protocol["events"]:
        if e["type"] == "foul":
            out[e["seat"]] = out.get(e["seat"], 0) + 1
    return out


def _check(target: str, data: dict) -> bool:
    """The property for one game and one format; True when the export was written."""
    try:
        club = EXPORT[target](data)
    except ExportRefused as exc:
        sentence = str(exc)
        if sentence.startswith("players: "):
            assert target == "mafiaratings" and "role is not given" in sentence
            return False
        m = re.match(r"events\[(\d+)\] \(", sentence)
        assert m, sentence
        kinds = [types for why, types in REASONS.items() if why in sentence]
        assert kinds, sentence
        assert data["events"][int(m.group(1))]["type"] in kinds[0], sentence
        return False
    again = convert(target, json.loads(json.dumps(club)), data["rules"])
    assert validate(again) == []
    first, second = replay(data), replay(again)
    assert second.eliminations == first.eliminations
    assert second.result == first.result
    assert _votes(again, target == "polemica") == _votes(data, target == "polemica")
    assert _fouls(again) == _fouls(data)
    checks = sorted((e["night"], e["by"], e["target"], e["result"]) for e in data["events"] if e["type"] == "check")
    assert sorted((e["night"], e["by"], e["target"], e["result"]) for e in again["events"] if e["type"] == "check") == checks
    shootings = [(e["night"], e["target"]) for e in data["events"] if e["type"] == "shooting"]
    assert [(e["night"], e["target"]) for e in again["events"] if e["type"] == "shooting"] == shootings
    assert held(again, target) == held(data, target)
    return True


@pytest.mark.parametrize("target", ["polemica", "mafiaratings"])
@FEW
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), profile_id=st.sampled_from(PROFILE_IDS))
def test_export_then_import_is_the_identity_on_what_the_format_holds(target: str, seed: int, profile_id: str) -> None:
    _check(target, generate(profile_id, random.Random(seed)).protocol)


@pytest.mark.parametrize("target", ["polemica", "mafiaratings"])
def test_the_identity_is_exercised_on_games_the_format_holds(target: str) -> None:
    """Not every random game fits a club format (most have no voters); enough of them do for the property."""
    written = sum(_check(target, generate(PROFILE_IDS[s % 4], random.Random(s)).protocol) for s in range(200))
    assert written >= 8


def _handed(target: str, data: dict) -> bool:
    """The file a judge is handed: made of every valid game (a mafiaratings one needs every role), read back as the
    game it holds, that game the original up to where the file ends; what it left out is named, never as a path.
    True when something had to be left out."""
    try:
        club = club_file(data, target)
    except ExportRefused as exc:
        assert target == "mafiaratings" and str(exc).startswith("players: ") and "role is not given" in str(exc)
        return False
    again = convert(target, json.loads(json.dumps(club.file)), data["rules"])
    assert validate(again) == []
    assert held(again, target) == held(club.game, target)
    mine = [(e["seat"], e["cause"]) for e in replay(again).eliminations]
    full = [(e["seat"], e["cause"]) for e in replay(data).eliminations]
    assert sorted(mine) == sorted(full[: len(mine)])
    assert all(not re.search(r"events\[\d+\]", said) for said in club.notes)
    return bool(club.dropped)


@pytest.mark.parametrize("target", ["polemica", "mafiaratings"])
@FEW
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), profile_id=st.sampled_from(PROFILE_IDS))
def test_the_file_a_judge_is_handed_holds_what_it_can(target: str, seed: int, profile_id: str) -> None:
    _handed(target, generate(profile_id, random.Random(seed)).protocol)


@pytest.mark.parametrize("target", ["polemica", "mafiaratings"])
def test_leaving_out_is_exercised_on_random_games(target: str) -> None:
    left = sum(_handed(target, generate(PROFILE_IDS[s % 4], random.Random(s)).protocol) for s in range(200))
    assert left >= 20
