"""Back to the club's system: a game's confirmed corrections as a Polemica or mafiaratings game file.

The round trip a club makes: its game file imported, audited (the judge's vote times as marks, the hands from
scripted observations), a finding confirmed, the corrected game exported in the club's format and imported back:
the same game as the corrected protocol, as far as the format holds one, and valid under our own validator. The
strict writers (`to_polemica`, `to_mafiaratings`) refuse what the format cannot hold, naming the event; the file a
judge is handed (`club_file`) leaves that out instead and says so, in words."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from clubgames import CLUB_FILES, prepare
from corrections import GAME, decision, one_vote_game, read, source
from gamegen import generate

from contract import i18n
from pipeline.audit import audit_game
from review.cases.club_exports import (
    NAMES,
    ClubFile,
    ExportRefused,
    club_file,
    event_words,
    held,
    left_out,
    to_mafiaratings,
    to_polemica,
)
from review.cases.corrected import corrected_protocol
from review.cases.store import finding_key
from review.cases.voters import fill_voters_from_video
from review.game.engine import replay
from review.game.importers import convert, import_file
from review.game.protocol import validate

EXPORT = {"polemica": to_polemica, "mafiaratings": to_mafiaratings}
PROFILE_IDS = ["rfm", "mafclub", "lvi2015", "showtime"]
# The hand that lands after «Стоп» in each club game: (day, round, candidate) -> seat.
LATE = {"polemica": ((3, 1, 7), 1), "mafiaratings": ((3, 1, 7), 3)}


def _votes(protocol: dict) -> dict[tuple[int, int, int], int]:
    return {(e["day"], e["round"], e["candidate"]): e["count"] for e in protocol["events"] if e["type"] == "vote"}


@pytest.mark.parametrize("source", ["polemica", "mafiaratings"])
def test_import_audit_confirm_export_import_gives_the_corrected_game(source: str, tmp_path: Path) -> None:
    where, seat = LATE[source]
    paths = prepare(source, tmp_path, late={where: seat})
    report = audit_game(protocol=paths["protocol"], seats=paths["seats"], observations=paths["observations"],
                        marks=paths["marks"])
    late = next(f for f in report.findings if f.kind == "late_vote")
    assert (late.seat, late.day, late.round, late.candidate) == (seat, *where)
    original = read(paths["protocol"])
    corrected = corrected_protocol(original, [decision(late)], votes=report.votes)
    assert validate(corrected) == []
    assert _votes(corrected)[where] == _votes(original)[where] - 1  # the late hand is not counted (rfm 4.4.7)

    club_file = tmp_path / f"corrected.{source}.json"
    club_file.write_text(json.dumps(EXPORT[source](corrected), ensure_ascii=False), encoding="utf-8")
    again = import_file(source, club_file, rules=corrected["rules"])

    assert validate(again) == []
    assert _votes(again)[where] == _votes(corrected)[where]
    voters = next(e["voters"] for e in again["events"] if e["type"] == "vote"
                  and (e["day"], e["round"], e["candidate"]) == where)
    assert seat not in voters
    assert {k: v for k, v in _votes(again).items() if v} == {k: v for k, v in _votes(corrected).items() if v}
    assert replay(again).eliminations == replay(corrected).eliminations
    assert replay(again).result == replay(corrected).result == "red"
    assert [(p["seat"], p["nickname"], p["role"]) for p in again["players"]] == \
        [(p["seat"], p["nickname"], p["role"]) for p in corrected["players"]]
    assert held(again, source) == held(corrected, source)


def test_mafiaratings_export_of_an_imported_file_gives_back_the_fields_the_importer_reads() -> None:
    source = read(CLUB_FILES["mafiaratings"])
    out = to_mafiaratings(import_file("mafiaratings", CLUB_FILES["mafiaratings"]))
    keys = ("nick_name", "role", "voting", "nominating", "shooting", "checked_by_don", "checked_by_srf", "death_round",
            "death_type")
    for mine, theirs in zip(out["players"], source["players"], strict=True):
        assert {k: mine.get(k) for k in keys} == {k: theirs.get(k) for k in keys}
        assert mine.get("warnings", 0) == theirs.get("warnings", 0)
    assert (out["id"], out["winner"], out["start_time"]) == (source["id"], source["winner"], source["start_time"])


def test_polemica_export_of_the_imported_file_lists_the_same_votes_shots_checks_and_fouls() -> None:
    source = read(CLUB_FILES["polemica"])
    out = to_polemica(import_file("polemica", CLUB_FILES["polemica"]))

    def rows(data: dict, key: str, *fields: str) -> list[tuple]:
        return sorted(tuple(r.get(f) for f in fields) for r in data[key])

    assert rows(out, "votes", "day", "num", "voter", "candidate") == rows(source, "votes", "day", "num", "voter", "candidate")
    assert rows(out, "shots", "night", "shooter", "victim") == rows(source, "shots", "night", "shooter", "victim")
    assert rows(out, "checks", "night", "role", "player") == rows(source, "checks", "night", "role", "player")
    for mine, theirs in zip(out["players"], source["players"], strict=True):
        assert (mine["position"], mine["username"], mine["role"]) == (theirs["position"], theirs["username"], theirs["role"])
        assert [f["day"] for f in mine["fouls"] + mine["techs"]] == [f["day"] for f in theirs["fouls"] + theirs["techs"]]
        assert mine.get("guess") == theirs.get("guess")
    assert out["result"] == source["result"] == "RED_WIN"


def test_a_silent_vote_is_written_as_the_last_candidates_voter() -> None:
    """rfm 4.4.10: the protocol counts seat 5's vote for candidate 7 without listing him; the file lists it."""
    protocol = one_vote_game()  # 5: four hands listed, 7: six counted, none listed
    out = to_polemica(protocol)
    assert sorted(r["voter"] for r in out["votes"] if r["candidate"] == 7) == [1, 4, 5, 6, 7, 8]


# What each format cannot hold: the export is refused, naming the event (its index in the protocol) and why.
def _with_fine() -> dict:
    data = one_vote_game()
    data["events"].append({"type": "fine", "seat": 3, "points": -0.5, "clause": "rfm 5.10.1"})
    return data


def _count_only() -> dict:
    data = one_vote_game()
    del data["events"][4]["voters"]
    return data


def _check_unknown_role() -> dict:
    data = one_vote_game()
    data["events"].append({"type": "check", "night": 1, "by": "sheriff", "target": 3, "result": "red"})
    return data


def _sample() -> dict:
    return read(GAME.with_suffix(".protocol.json"))


def _imported(source: str) -> dict:
    return import_file(source, CLUB_FILES[source])


def _withdrawn() -> dict:
    """mafclub 2.3.9: seat 6 nominates seat 10 on day 3 and withdraws it; the day's voting goes on without it."""
    data = dict(_imported("mafiaratings"), rules="mafclub")
    i = max(i for i, e in enumerate(data["events"]) if e["type"] == "nomination" and e["day"] == 3)
    data["events"][i + 1:i + 1] = [{"type": "nomination", "day": 3, "by": 6, "target": 10},
                                   {"type": "withdrawal", "day": 3, "by": 6, "target": 10}]
    return data


REFUSED = [
    ("polemica", _with_fine, 7, "holds no fines"),
    ("mafiaratings", lambda: dict(_imported("mafiaratings"), events=[*_imported("mafiaratings")["events"],
                                                                     {"type": "fine", "seat": 3, "points": -0.5}]),
     None, "holds no fines"),
    ("polemica", _count_only, 4, "gives only the count (4)"),
    ("polemica", _check_unknown_role, 7, "seat 3's role is not given"),
    ("polemica", _sample, 6, "gives only the count (5)"),  # the earliest: the lift vote (24) comes later
    ("mafiaratings", _sample, 6, "gives only the count (5)"),  # before the best move (15)
    ("mafiaratings", lambda: _imported("polemica"), 13, "not whom it named"),
    ("mafiaratings", _withdrawn, 33, "cannot say one was withdrawn"),
]


# Found among random legal games (tests/gamegen.py): the first whose export is refused for the reason.
GENERATED = [
    ("polemica", "no vote on lifting", "lift_vote"), ("mafiaratings", "no vote on lifting", "lift_vote"),
    ("polemica", "holds no removals", "removal"), ("polemica", "without a recorded vote", "elimination"),
    ("mafiaratings", "Sheriff's check of each player", "check"), ("mafiaratings", "one nomination per player", "nomination"),
    ("mafiaratings", "cannot say one was withdrawn", "withdrawal"), ("mafiaratings", "not whom it named", "best_move"),
]


@pytest.mark.parametrize(("target", "why", "kind"), GENERATED)
def test_a_random_game_the_format_cannot_hold_names_that_event(target: str, why: str, kind: str) -> None:
    for seed in range(2000):
        data = generate(PROFILE_IDS[seed % 4], random.Random(seed)).protocol
        try:
            EXPORT[target](data)
        except ExportRefused as exc:
            if why in str(exc):
                assert exc.index is not None and data["events"][exc.index]["type"] == kind
                assert str(exc).startswith(f"events[{exc.index}] (")
                return
    pytest.fail(f"no random game refused for: {why}")


@pytest.mark.parametrize(("target", "make", "index", "why"), REFUSED)
def test_what_the_format_cannot_hold_refuses_the_export_naming_the_event(target, make, index, why) -> None:
    data = make()
    assert validate(data) == []  # a valid game: the refusal is the format's, not the protocol's
    with pytest.raises(ExportRefused) as caught:
        EXPORT[target](data)
    sentence = str(caught.value)
    assert why in sentence and sentence.endswith(".") and "None" not in sentence
    if index is None:
        assert sentence.startswith("events[")
    else:
        assert sentence.startswith(f"events[{index}] (")


def test_mafiaratings_needs_every_role() -> None:
    with pytest.raises(ExportRefused, match=r"^players: seat 1's role is not given"):
        to_mafiaratings(one_vote_game())


def test_an_invalid_protocol_is_never_exported() -> None:
    data = one_vote_game()
    data["events"][4]["count"] = 9  # 9 + 6 votes at a table of 10
    with pytest.raises(ExportRefused, match="does not validate"):
        to_polemica(data)


def test_what_the_file_leaves_out_is_said() -> None:
    sample = _sample()
    for target in ("polemica", "mafiaratings"):
        said = left_out(sample, target)
        assert said[0] == "the rule profile (rfm): import the file back with --rules rfm"
        assert any(s.startswith("video times (") for s in said)
    assert any(s.startswith("nominations (Polemica") for s in left_out(sample, "polemica"))
    assert any(s.startswith("the order of nominations") for s in left_out(sample, "mafiaratings"))


def test_the_input_protocol_is_not_changed() -> None:
    data = _imported("mafiaratings")
    before = copy.deepcopy(data)
    to_mafiaratings(data)
    to_polemica(data)
    assert data == before


# ------------------------------------------------------------------ what the judge is handed: club_file


def _departures(protocol: dict) -> list[tuple]:
    return [(e["seat"], e["cause"], e.get("day"), e.get("night")) for e in replay(protocol).eliminations]


def _round_trip(club: ClubFile, corrected: dict) -> dict:
    """The file read back by our importer: valid, the same game as the one the file holds, and that game the
    corrected one as far as the format holds it (its departures the corrected game's, or their first ones)."""
    again = convert(club.target, json.loads(json.dumps(club.file)), corrected["rules"])
    assert validate(again) == []
    assert held(again, club.target) == held(club.game, club.target)
    assert [(p["seat"], p["nickname"], p["role"]) for p in again["players"]] == \
        [(p["seat"], p["nickname"], p["role"]) for p in corrected["players"]]
    mine, full = _departures(again), _departures(corrected)
    if club.target == "mafiaratings":
        assert sorted(mine) == sorted(full[: len(mine)])
    else:
        assert mine == full[: len(mine)]
    if len(mine) == len(full):
        assert replay(again).result == replay(corrected).result
    return again


@pytest.mark.parametrize("fill", [False, True])
@pytest.mark.parametrize("target", ["polemica", "mafiaratings"])
def test_the_bundled_game_with_its_findings_confirmed_goes_to_each_club_format(target: str, fill: bool) -> None:
    """Every finding of the bundled game confirmed but the night removal it cannot take: each format gets a file of
    all it can hold, and a list, in words, of what it left out (the fines, the vote on lifting, …)."""
    protocol, findings, votes = source("sample_game", "rfm")
    decided = {finding_key(f): decision(f) for f in findings
               if not (f.kind == "night_hand" and f.consequence.type == "removal")}
    corrected = corrected_protocol(protocol, decided.values(), votes=votes)
    if fill:
        corrected = fill_voters_from_video(corrected, findings, votes, decided).protocol
    club = club_file(corrected, target)
    again = _round_trip(club, corrected)
    name = NAMES[target]
    assert all("events[" not in said and "None" not in said for said in club.notes)
    if fill:
        assert f"seat 8's fine of -0.2 points (rfm 5.10.1): a {name} file holds no fines" in club.dropped
        assert any("the vote on lifting 9, 3 on day 2" in said for said in club.dropped)
    else:
        assert any("the protocol gives only the count (6)" in said for said in club.dropped)
    if target == "mafiaratings":  # its deaths are its own: the whole game, each day's nominations and the result
        assert _departures(again) == _departures(club.game) and replay(again).result == "red"
        nominations = sorted((e["day"], e["by"], e["target"]) for e in corrected["events"] if e["type"] == "nomination")
        assert sorted((e["day"], e["by"], e["target"]) for e in again["events"] if e["type"] == "nomination") == nominations
    if target == "polemica" and fill:  # day 1 and night 1 as played: its votes voter by voter, the shot, the checks
        assert _departures(again) == [(6, "vote", 1, None), (10, "shot", None, 1)]
        assert [(e["candidate"], e["count"]) for e in again["events"] if e["type"] == "vote"] == \
            [(e["candidate"], e["count"]) for e in corrected["events"] if e["type"] == "vote" and e["day"] == 1]


@pytest.mark.parametrize(("target", "make", "index", "why"), REFUSED)
def test_what_the_format_cannot_hold_is_left_out_of_the_file_and_named(target, make, index, why) -> None:
    data = make()
    club = club_file(data, target)
    _round_trip(club, data)
    said = next(s for s in club.dropped if why in s)
    event = data["events"][index] if index is not None else next(e for e in data["events"] if e["type"] == "fine")
    assert event_words(event) in said and "events[" not in said and not said.endswith(".")


def test_a_fine_is_said_with_its_points_and_clause_in_the_readers_language() -> None:
    with i18n.using("ru"):
        club = club_file(_with_fine(), "polemica")
    assert club.dropped == ["штраф места 3 на -0,5 балла (rfm 5.10.1): файл Polemica не хранит штрафов"]


def test_a_game_no_file_can_be_made_of_is_still_refused() -> None:
    with pytest.raises(ExportRefused, match=r"^players: seat 1's role is not given"):
        club_file(one_vote_game(), "mafiaratings")
    data = one_vote_game()
    data["events"][4]["count"] = 9
    with pytest.raises(ExportRefused, match="does not validate"):
        club_file(data, "polemica")
