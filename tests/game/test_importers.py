"""Importers: Polemica and mafiaratings game files become protocols that tell the same game."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from contract.errors import InvalidInput, UnreadableInput
from review.game.importers import convert, detect_source, import_file
from review.game.protocol import format_problems

HERE = Path(__file__).parents[1] / "fixtures"
POLEMICA = HERE / "import" / "polemica_game.json"
MAFIARATINGS = HERE / "import" / "mafiaratings_game.json"
COMPLETE = json.loads((HERE / "protocols" / "complete_rfm.protocol.json").read_text(encoding="utf-8"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _of(events: list[dict], kind: str, *keys: str) -> list[tuple]:
    return [tuple(e.get(k) for k in keys) for e in events if e["type"] == kind]


# The fixtures tell the game of complete_rfm.protocol.json in each system's own shape.
SAME_IN_BOTH = [
    ("shooting", ("night", "target", "shots")),
    ("check", ("night", "by", "target", "result")),
    ("vote", ("day", "round", "candidate", "count")),
    ("result", ("winner",)),
]


@pytest.mark.parametrize("source, path", [("polemica", POLEMICA), ("mafiaratings", MAFIARATINGS)])
def test_import_tells_the_same_game_as_the_judges_protocol(source, path):
    protocol = import_file(source, path)
    assert format_problems(protocol) == []
    assert protocol["rules"] == "rfm"
    assert [(p["seat"], p["role"]) for p in protocol["players"]] == [(p["seat"], p["role"]) for p in COMPLETE["players"]]
    for kind, keys in SAME_IN_BOTH:
        assert _of(protocol["events"], kind, *keys) == _of(COMPLETE["events"], kind, *keys), kind
    assert protocol["x_import"]["source"] == source
    assert protocol["x_import"]["assumptions"]


def test_polemica_roles_follow_the_enum_order_don_mafia_peace_sheriff():
    protocol = import_file("polemica", POLEMICA)
    roles = {p["seat"]: p["role"] for p in protocol["players"]}
    assert (roles[4], roles[7], roles[1], roles[2]) == ("don", "mafia", "civilian", "sheriff")


def test_polemica_votes_one_row_per_voter_become_one_event_per_candidate():
    votes = [e for e in import_file("polemica", POLEMICA)["events"] if e["type"] == "vote"]
    day1_round2 = [e for e in votes if (e["day"], e["round"]) == (1, 2)]
    assert [(e["candidate"], e["count"], e["voters"]) for e in day1_round2] == [
        (5, 6, [2, 4, 6, 7, 9, 10]),
        (7, 4, [1, 3, 5, 8]),  # seat 5's silent vote, recorded by Polemica for the last candidate
    ]


def test_polemica_fouls_techs_and_guess():
    events = import_file("polemica", POLEMICA)["events"]
    fouls = [e for e in events if e["type"] == "foul"]
    assert [(f["seat"], f["reason"], f.get("x_polemica_kind")) for f in fouls] == [
        (3, "speech out of turn", None), (6, "technical foul", "tech")]
    day_of = {}
    day = 0
    for e in events:
        if e["type"] == "phase" and e["phase"] == "day":
            day = e["number"]
        day_of[id(e)] = day
    assert [day_of[id(f)] for f in fouls] == [2, 3]
    assert _of(events, "best_move", "seat", "named") == [(8, [4, 7, 9])]
    assert [e["type"] for e in events].index("best_move") == [e.get("number") for e in events].index(2) + 1


def test_polemica_days_counted_from_zero_are_shifted():
    data = _load(POLEMICA)
    for row in data["votes"]:
        row["day"] -= 1
    for row in data["shots"] + data["checks"]:
        row["night"] -= 1
    protocol = convert("polemica", data)
    original = import_file("polemica", POLEMICA)
    for kind, keys in SAME_IN_BOTH:
        assert _of(protocol["events"], kind, *keys) == _of(original["events"], kind, *keys)
    assert any("numbered from 0" in a for a in protocol["x_import"]["assumptions"])


def test_polemica_shooting_target_is_common_to_every_living_black():
    data = _load(POLEMICA)
    data["shots"] = [r for r in data["shots"] if not (r["night"] == 1 and r["shooter"] == 9)]  # 9 did not shoot
    night1 = next(e for e in convert("polemica", data)["events"] if e["type"] == "shooting")
    assert night1["target"] is None and night1["shots"] == {"4": 8, "7": 8}


def test_mafiaratings_nominations_in_speaking_order_and_eliminations():
    protocol = import_file("mafiaratings", MAFIARATINGS)
    events = protocol["events"]
    assert _of(events, "nomination", "day", "by", "target") == _of(COMPLETE["events"], "nomination", "day", "by", "target")
    assert _of(events, "elimination", "seat", "cause", "day", "night") == _of(
        COMPLETE["events"], "elimination", "seat", "cause", "day", "night")
    assert protocol["game"] == {"id": "4242", "date": "2026-11-29"}


def test_mafiaratings_extras_go_to_x_fields():
    protocol = import_file("mafiaratings", MAFIARATINGS)
    seat8 = protocol["players"][7]
    assert (seat8["x_best_move"], seat8["x_mafs_guessed"], seat8["x_user_id"]) == (True, 3, 108)
    assert protocol["players"][0]["x_best_player"] is True
    assert protocol["x_import"]["source_fields"]["moderator_id"] == 9
    assert any("does not say whom they named" in a for a in protocol["x_import"]["assumptions"])


def test_mafiaratings_fourth_warning_is_a_removal_right_after_the_last_foul():
    data = _load(MAFIARATINGS)
    seat6 = data["players"][5]
    seat6.update(warnings=4, death_round=1, death_type="warning")
    del seat6["voting"]["round_1"]
    protocol = convert("mafiaratings", data)
    assert format_problems(protocol) == []
    kinds = [(e["type"], e.get("seat")) for e in protocol["events"]]
    removal = kinds.index(("removal", 6))
    assert kinds[removal - 1] == ("foul", 6)
    assert kinds[removal + 1] == ("elimination", 6)
    assert kinds.count(("foul", 6)) == 4
    day = max(e["number"] for e in protocol["events"][:removal] if e["type"] == "phase" and e["phase"] == "day")
    assert day == 2
    assert protocol["events"][removal]["reason"] == "fourth warning"


def test_mafiaratings_revote_list_becomes_round_two():
    protocol = import_file("mafiaratings", MAFIARATINGS)
    rounds = _of(protocol["events"], "vote", "day", "round", "candidate")
    assert rounds[:5] == [(1, 1, 5), (1, 1, 7), (1, 1, 3), (1, 2, 5), (1, 2, 7)]


def test_a_games_list_with_one_game_is_accepted(tmp_path):
    path = tmp_path / "api.json"
    path.write_text(json.dumps({"games": [_load(MAFIARATINGS)]}), encoding="utf-8")
    assert import_file("mafiaratings", path)["game"]["id"] == "4242"
    path.write_text(json.dumps({"games": [_load(MAFIARATINGS)] * 2}), encoding="utf-8")
    with pytest.raises(UnreadableInput, match="holds 2 games"):
        import_file("mafiaratings", path)


# ------------------------------------------------------------------------------------------------ refusals


@pytest.mark.parametrize("content, words", [
    ({"players": [{"name": "x"}]}, "not a Polemica or mafiaratings game"),
    ([1, 2, 3], "not a Polemica or mafiaratings game"),
    ({"format": "stopframe-protocol/1", "players": []}, "already a Stopframe file"),
])
def test_a_file_in_neither_shape_is_unreadable(tmp_path, content, words):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    for source in ("polemica", "mafiaratings"):
        with pytest.raises(UnreadableInput, match=words) as info:
            import_file(source, path)
        assert str(info.value).startswith(str(path))


def test_the_wrong_system_is_named(tmp_path):
    with pytest.raises(UnreadableInput, match="this is a mafiaratings game, not a polemica one"):
        import_file("polemica", MAFIARATINGS)
    assert detect_source(_load(POLEMICA)) == "polemica"


@pytest.mark.parametrize("edit, words", [
    (lambda d: d["players"][0].update(role=7), r"players\[0\].role must be a whole number 0–3"),
    (lambda d: d["players"][0].update(position=11), r"players\[0\].position must be a whole number 1–10"),
    (lambda d: d["players"][1].update(position=1), "seat 1 appears twice"),
    (lambda d: d["votes"][0].update(candidate="five"), r"votes\[0\].candidate"),
    (lambda d: d["checks"][0].update(role=2), r"checks\[0\].role must be 0"),
    (lambda d: d.update(result="MAYBE"), "'result' must be one of"),
])
def test_unmappable_polemica_values_are_invalid_with_their_place(tmp_path, edit, words):
    data = copy.deepcopy(_load(POLEMICA))
    edit(data)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidInput, match=words):
        import_file("polemica", path)


def test_unmappable_mafiaratings_values_are_invalid(tmp_path):
    data = _load(MAFIARATINGS)
    data["players"][2]["voting"]["round_0"] = 10  # indices are 0–9
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidInput, match=r"players\[2\].voting.round_0 must be a whole number 0–9"):
        import_file("mafiaratings", path)


def test_a_single_candidate_on_day_1_gets_no_vote_events():
    data = _load(POLEMICA)
    data["votes"] = [r for r in data["votes"] if r["day"] != 1] + [
        {"day": 1, "num": 1, "voter": v, "candidate": 5} for v in range(1, 11)]
    protocol = convert("polemica", data)
    assert [e for e in protocol["events"] if e["type"] == "vote" and e["day"] == 1] == []
    assert protocol["x_import"]["dropped_votes"] == [{"5": list(range(1, 11))}]
    assert format_problems(protocol) == []
