"""review.cases.sheet: a paper protocol typed box by box, each entry checked by the rules engine at once.

The rule tests name the clause the engine cites for what the judge typed; a problem never stops an entry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contract import i18n
from contract.errors import InvalidInput
from review.cases.sheet import Sheet, box_events, new_protocol
from review.cases.sheet_entry import GAME_FIELDS, Slot, box_name
from review.game.engine import replay
from review.game.importers import import_file
from review.game.protocol import validate

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_videos" / "game" / "sample_game.protocol.json"
POLEMICA = REPO / "tests" / "fixtures" / "import" / "polemica_game.json"

# The bundled sample game as a judge copies it from the paper sheet, box by box in the order of the sheet.
SAMPLE_SHEET = [
    *((f"role.{seat}", role) for seat, role in
      {1: "к", 2: "м", 3: "к", 4: "ш", 5: "к", 6: "к", 7: "д", 8: "к", 9: "м", 10: "к"}.items()),
    ("nominations.1", "2:6 5:3 9:8"), ("round.1.1", "6:5 3:1 8:4"), ("eliminated.1", "6"),
    ("shooting.1", "2:10 7:10 9:10"), ("check.1.don", "4"), ("check.1.sheriff", "9"), ("best_move", "2 9 3"),
    ("nominations.2", "4:9 9:3"), ("round.2.1", "9:4 3:4"), ("round.2.2", "9:4 3:4"), ("lift.2", "5"),
    ("eliminated.2", "9 3"), ("shooting.2", "2:4 7:8"), ("check.2.don", "1"), ("check.2.sheriff", "2"),
    ("nominations.3", "4:2 2:7 7:5"), ("round.3.1", "2:3 7:1 5:2"), ("eliminated.3", "2"),
    ("shooting.3", "7:4"), ("check.3.don", "8"),
    ("nominations.4", "1:7 7:1"), ("round.4.1", "7:3 1:1"), ("eliminated.4", "7"), ("result", "красные"),
]


def sample() -> dict[str, Any]:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


def typed(rules: str, entries: list[tuple[str, str]]) -> Sheet:
    sheet = Sheet(new_protocol(rules))
    for slot, text in entries:
        sheet.enter(slot, text)
    return sheet


def problems(sheet: Sheet) -> list[tuple[str, str | None]]:
    return [(p.slot, p.clause) for p in sheet.problems()]


def test_the_sample_game_typed_from_paper_is_the_sample_game() -> None:
    sheet = typed("rfm", SAMPLE_SHEET)
    data = sheet.protocol()
    assert validate(data) == [] and sheet.complete
    ours, theirs = replay(data), replay(sample())
    assert ours.eliminations == theirs.eliminations and ours.result == theirs.result == "red"
    kinds = ("nomination", "vote", "lift_vote", "shooting", "check", "best_move", "result")
    strip = ("t", "cutoff", "announced")
    assert [{k: v for k, v in e.items() if k not in strip} for e in data["events"] if e["type"] in kinds] == \
        [{k: v for k, v in e.items() if k not in strip} for e in sample()["events"] if e["type"] in kinds]


def test_every_box_of_an_opened_protocol_reads_as_its_events_and_typed_again_changes_nothing() -> None:
    sheet = Sheet(sample())
    keys = {"nominations.1", "round.1.1", "round.2.2", "lift.2", "eliminated.2", "shooting.2", "check.1.don",
            "check.2.sheriff", "best_move", "result", "role.7", "nickname.3", "game.judge", "rules"}
    texts = {k: sheet.text(k) for k in keys}
    assert texts["round.1.1"] == "6:5 3:1 8:4" and texts["check.1.don"] == "4+" and texts["lift.2"] == "5"
    assert texts["best_move"] == "10: 2 9 3" and texts["nickname.3"] == "Вега" and texts["shooting.2"] == "2:4 7:8"
    for key, text in texts.items():
        assert sheet.enter(key, text) is False, key  # the same line again is no entry
        assert sheet.enter(key, f"  {text} ") is False, key  # nor is it with spaces around it
    assert sheet.protocol() == sample()  # a box typed again as it reads leaves the protocol as it was


def test_a_vote_retyped_keeps_its_video_times() -> None:
    sheet = Sheet(sample())
    sheet.enter("round.1.1", "6:6 3:1 8:3")
    votes = box_events(sheet.data, "round.1.1")
    assert [(e["candidate"], e["count"], e["t"], e["cutoff"]) for e in votes] == [
        (6, 6, 3.15, 4.7), (3, 1, 9.9, 11.45), (8, 3, 16.65, 18.4)]
    assert sheet.problems() == []


def test_the_sheet_shows_the_next_day_until_the_result_and_no_night_after_the_last_day() -> None:
    sheet = typed("rfm", [("nominations.1", "2:6 5:3")])
    assert (sheet.days(), sheet.nights()) == (1, [1])
    sheet.enter("shooting.1", "10")
    assert (sheet.days(), sheet.nights()) == (2, [1, 2])
    whole = typed("rfm", SAMPLE_SHEET)
    assert (whole.days(), whole.nights()) == (4, [1, 2, 3])


def test_a_word_that_cannot_be_read_is_shown_and_the_rest_of_the_line_counts() -> None:
    sheet = typed("rfm", [("nominations.1", "2:6 5:x 9:8")])
    assert [e["target"] for e in box_events(sheet.data, "nominations.1")] == [6, 8]
    (problem,) = sheet.problems("nominations.1")
    assert "«5:x»" in problem.message and problem.clause is None
    assert sheet.text("nominations.1") == "2:6 5:x 9:8"  # the box keeps what was typed


def test_undo_takes_back_the_last_entry_only() -> None:
    sheet = typed("rfm", [("nominations.1", "2:6 5:3"), ("round.1.1", "6:6 3:4")])
    before = typed("rfm", [("nominations.1", "2:6 5:3")]).protocol()
    undone = sheet.undo()
    assert undone is not None and undone.slot == "round.1.1"
    assert sheet.protocol() == before and sheet.text("round.1.1") == ""
    assert sheet.undo() is not None and sheet.undo() is None
    assert sheet.protocol() == new_protocol("rfm")


def test_a_check_without_its_answer_needs_a_role_or_a_sign() -> None:
    sheet = typed("rfm", [("check.1.sheriff", "4")])
    assert box_events(sheet.data, "check.1.sheriff") == [] and sheet.problems("check.1.sheriff")
    sheet.enter("check.1.sheriff", "4+")
    assert box_events(sheet.data, "check.1.sheriff")[0]["result"] == "black"


def test_the_lift_vote_is_on_the_seats_tied_in_the_last_round() -> None:
    sheet = typed("rfm", [("nominations.2", "4:9 9:3 1:5"), ("round.2.1", "9:4 3:4 5:2"), ("round.2.2", "9:5 3:5")])
    assert sheet.lift_due(2) and sheet.rounds(2) == [1, 2]
    sheet.enter("lift.2", "6/1,2,4,5,6,7")
    (lift,) = box_events(sheet.data, "lift.2")
    assert lift["candidates"] == [9, 3] and lift["voters"] == [1, 2, 4, 5, 6, 7]


def test_a_tie_calls_for_the_next_round() -> None:
    sheet = typed("rfm", [("nominations.1", "2:6 5:3"), ("round.1.1", "6:5 3:5")])
    assert sheet.rounds(1) == [1, 2] and not sheet.lift_due(1)


def test_penalties_fines_and_removals() -> None:
    sheet = typed("rfm", [("penalties.day.1", "3 7 5:-0,2 4!")])
    assert [(e["type"], e["seat"], e.get("points")) for e in box_events(sheet.data, "penalties.day.1")] == [
        ("foul", 3, None), ("foul", 7, None), ("fine", 5, -0.2), ("removal", 4, None)]
    assert sheet.text("penalties.day.1") == "3 7 5:-0,2 4!"


def test_an_imported_polemica_game_opens_with_its_boxes_filled() -> None:
    sheet = Sheet(import_file("polemica", POLEMICA))
    assert sheet.problems() == []
    day1 = sheet.text("round.1.1")
    assert day1 and sheet.enter("round.1.1", day1) is False


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_box_has_words_in_both_languages(lang: str) -> None:
    keys = [f"game.{f}" for f in GAME_FIELDS] + ["rules", "nickname.3", "role.3", "nominations.1", "round.2.2",
                                                "lift.2", "eliminated.1", "shooting.1", "check.1.don", "check.2.sheriff",
                                                "penalties.day.1", "penalties.voting.1", "penalties.night.2",
                                                "best_move", "result", "voting_at.3"]
    with i18n.using(lang):
        names = [box_name(k) for k in keys]
    assert len(set(names)) == len(keys) and not [n for n in names if "_" in n or "." in n]
    assert (names[keys.index("round.2.2")] == "day 2, vote round 2") == (lang == "en")


def test_every_sheet_box_has_a_key_that_names_it_again() -> None:
    for slot in (Slot("round", 2, 3), Slot("check", 1, extra="don"), Slot("penalties", 0, extra="night"),
                 Slot("game", extra="side_judge"), Slot("rules"), Slot("nickname", 10), Slot("result"),
                 Slot("voting_at", 3), Slot("video")):
        assert Slot.of(slot.key) == slot
    for bad in ("round.1", "check.1.mayor", "nickname.11", "game.x", "nope"):
        with pytest.raises(ValueError):
            Slot.of(bad)


def voting_times(sheet: Sheet) -> dict[int, float]:
    return {e["number"]: e["t"] for e in sheet.protocol()["events"] if e.get("phase") == "voting" and "t" in e}


def test_a_days_voting_time_on_the_video_times_its_voting_phase_and_reads_back() -> None:
    """A video that begins later than the game: the judge types where one day's voting begins on it (m:ss,
    h:mm:ss, or seconds with a decimal comma), and the protocol's voting phase of that day carries the time."""
    sheet = typed("rfm", SAMPLE_SHEET)
    with i18n.using("ru"):
        for text, seconds, shown in (("1:58", 118.0, "1:58"), ("1:02:03", 3723.0, "1:02:03"), ("118,5", 118.5, "1:58,5")):
            sheet.enter("voting_at.3", text)
            assert voting_times(sheet) == {3: seconds}
            assert Sheet(sheet.protocol()).text("voting_at.3") == shown  # the box as a saved protocol reopens it
    assert validate(sheet.protocol()) == []
    sheet.enter("voting_at.3", "")
    assert voting_times(sheet) == {}
    sheet.undo()
    assert voting_times(sheet) == {3: 118.5}


def test_a_voting_time_that_is_no_time_is_shown_beside_its_box_and_changes_nothing() -> None:
    sheet = typed("rfm", [*SAMPLE_SHEET, ("voting_at.2", "0:52")])
    for bad in ("12:75", "полвторого", "1:60:00"):
        sheet.enter("voting_at.2", bad)
        assert voting_times(sheet) == {2: 52.0}
        assert [p.slot for p in sheet.problems()] == ["voting_at.2"]


# ---------------------------------------------------------------------- rules, each with the clause it cites


def test_rfm_4_4_10_the_last_candidate_gets_the_silent_players_votes() -> None:
    sheet = typed("rfm", [("nominations.1", "2:6 5:3 9:8"), ("round.1.1", "6:5 3:1 8:3")])
    assert problems(sheet) == [("round.1.1", "rfm 4.4.10")]


def test_mafclub_2_4_10_the_last_candidate_gets_the_silent_players_votes() -> None:
    sheet = typed("mafclub", [("nominations.1", "2:6 5:3 9:8"), ("round.1.1", "6:5 3:1 8:3")])
    assert problems(sheet) == [("round.1.1", "mafclub 2.4.10")]


def test_rfm_4_4_3_one_nomination_per_player_a_day() -> None:
    assert problems(typed("rfm", [("nominations.1", "2:6 2:3")])) == [("nominations.1", "rfm 4.4.3")]


def test_mafclub_a_nomination_may_be_withdrawn_in_the_same_speech_and_rfm_4_4_2_forbids_it() -> None:
    entries = [("nominations.1", "2:6 -2:6 5:3 9:8")]
    mafclub = typed("mafclub", entries)
    assert problems(mafclub) == [] and mafclub.text("nominations.1") == "2:6 -2:6 5:3 9:8"
    assert [e["type"] for e in box_events(mafclub.data, "nominations.1")] == ["nomination", "withdrawal", "nomination",
                                                                              "nomination"]
    assert problems(typed("rfm", entries)) == [("nominations.1", "rfm 4.4.2")]


def test_rfm_4_4_4_candidates_are_voted_in_the_order_of_nomination() -> None:
    sheet = typed("rfm", [("nominations.1", "2:6 5:3 9:8"), ("round.1.1", "3:1 6:5 8:4")])
    assert ("round.1.1", "rfm 4.4.4") in problems(sheet)


def test_rfm_4_4_11_a_single_candidate_on_day_one_is_not_voted_on() -> None:
    assert problems(typed("rfm", [("nominations.1", "2:6"), ("round.1.1", "6:5")])) == [("round.1.1", "rfm 4.4.11")]


def test_rfm_4_4_12_who_left_must_be_whom_the_vote_gives() -> None:
    sheet = typed("rfm", [("nominations.1", "2:6 5:3"), ("round.1.1", "6:6 3:4"), ("eliminated.1", "3")])
    assert problems(sheet) == [("eliminated.1", "rfm 4.4.12")]


def test_rfm_4_5_7_the_dons_check_is_answered_by_the_role() -> None:
    sheet = typed("rfm", [("role.1", "д"), ("role.2", "ш"), ("check.1.don", "2-")])
    assert problems(sheet) == [("check.1.don", "rfm 4.5.7")]


def test_rfm_5_6_a_fourth_foul_removes_the_player() -> None:
    assert problems(typed("rfm", [("penalties.day.1", "3 3 3 3")])) == [("penalties.day.1", "rfm 5.6")]
    assert problems(typed("rfm", [("penalties.day.1", "3 3 3 3 3!")])) == []


def test_video_times_after_an_at_sign_enter_the_vote_and_a_retyped_line_keeps_them() -> None:
    sheet = typed("rfm", [("nominations.1", "2:6 5:3"), ("round.1.1", "6:6/1,2,4,5,7,10@3.1,4.7,5.5 3:4@,11.4,")])
    six, three = box_events(sheet.data, "round.1.1")
    assert (six["t"], six["cutoff"], six["announced"], three["cutoff"]) == (3.1, 4.7, 5.5, 11.4) and "t" not in three
    sheet.enter("round.1.1", "6:5 3:5")
    six, three = box_events(sheet.data, "round.1.1")
    assert (six["count"], six["cutoff"], three["cutoff"]) == (5, 4.7, 11.4) and "voters" not in six


_BOXES = ["nominations.1", "round.1.1", "round.1.2", "lift.1", "eliminated.1", "shooting.1", "check.1.don",
          "check.1.sheriff", "penalties.day.1", "penalties.voting.1", "penalties.night.1", "best_move", "nominations.2",
          "round.2.1", "result", "role.3", "nickname.4", "game.id", "rules"]
_WORDS = ["2:6", "6:5", "3:4/1,2", "9", "-", "4+", "5!", "3:-0,5", "к", "red", "x", "12", "0", "6:5@1.5,2,", "rfm", "::",
          "2:10", "1,2", "@", "/"]


@settings(max_examples=60)
@given(st.lists(st.tuples(st.sampled_from(_BOXES), st.lists(st.sampled_from(_WORDS), max_size=4)), max_size=12))
def test_whatever_is_typed_the_sheet_answers_with_problems_never_an_error(typing: list[tuple[str, list[str]]]) -> None:
    sheet = Sheet(json.loads(SAMPLE.read_text(encoding="utf-8")))
    for slot, words in typing:
        sheet.enter(slot, " ".join(words))
        assert all(isinstance(p.message, str) and p.message for p in sheet.problems())
    sheet.days(), sheet.nights(), sheet.rounds(1), sheet.lift_due(2)
    while sheet.undo() is not None:
        pass
    assert sheet.protocol() == json.loads(SAMPLE.read_text(encoding="utf-8"))


def test_a_protocol_the_sheet_cannot_hold_is_one_sentence() -> None:
    with pytest.raises(InvalidInput, match="event 1 of the course of the game is not written as an event"):
        Sheet({"format": "stopframe-protocol/1", "rules": "rfm", "players": [], "events": [1]})


def test_a_line_accepted_from_the_draft_reads_as_its_box_without_the_video_times() -> None:
    from review.cases.sheet_entry import as_shown

    assert as_shown("6:6/1,2,4,5,7,10@3.147,4.7,5.55 3:1@,11.45,") == "6:6/1,2,4,5,7,10 3:1"
    assert as_shown("5/1,2,4@30.15,31.7,32.55") == "5/1,2,4" and as_shown("2:6 5:3") == "2:6 5:3"


def test_a_vote_box_typed_over_keeps_the_video_times_it_hides() -> None:
    """The box shows «6:5 3:1» for a round the draft timed; a count corrected by hand keeps when each vote
    happened on the video, a vote typed anew has no time, a lift vote keeps its own, other boxes are as typed."""
    from review.cases.sheet_entry import Slot, as_shown, with_times

    before = "6:5@3.147,4.694,5.548 3:1/3@9.894,11.444,12.298"
    assert as_shown(before) == "6:5 3:1/3"
    assert with_times(Slot.of("round.1.1"), "6:6 3:1/3 8:1", before) == \
        "6:6@3.147,4.694,5.548 3:1/3@9.894,11.444,12.298 8:1"
    assert with_times(Slot.of("round.1.1"), "6:6@1,2,3", before) == "6:6@1,2,3"  # times typed win
    assert with_times(Slot.of("lift.2"), "5/1,2,4,7,8", "4@140.2,141.9,142.6") == "5/1,2,4,7,8@140.2,141.9,142.6"
    assert with_times(Slot.of("eliminated.1"), "6", "6") == "6"
