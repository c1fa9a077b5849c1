"""review.cases.sheet_draft: the votes and the nights' shots drafted from the sample game's video, offered to a typed
sheet box by box; only what the judge accepts enters the protocol. The cues are the sample's own times and the hands
its committed observations (as tests/audit/test_draft.py does), so no audio or video is read."""

from __future__ import annotations

import json

import pytest
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture
from test_sheet import SAMPLE, SAMPLE_SHEET

from contract.observations import observations_from_json, read_observations
from review.audit.align import VOTE_TYPES, VoteCue
from review.audit.audit import audit
from review.audit.draft import draft_votes
from review.audit.draft_nights import read_shootings, with_shots
from review.cases.sheet import Sheet, box_events, new_protocol
from review.cases.sheet_draft import Proposal, accept, night_proposals, proposals, shooting_protocol
from review.game.profiles import get_profile
from review.game.protocol import validate

RFM = get_profile("rfm")
NIGHTS = [(22.0, 48.0), (86.0, 112.0), (137.0, 157.0)]  # the sample's nights 1-3


@pytest.fixture(scope="module")
def drafted() -> dict:
    """The draft of the sample game's paper sheet typed without its votes."""
    require_current_sample_fixture()
    seen = observations_from_json(read_observations(SAMPLE_OBSERVATIONS), SAMPLE_OBSERVATIONS)
    whole = json.loads(SAMPLE.read_text(encoding="utf-8"))
    cues = [VoteCue(cutoff=e["cutoff"], cutoff_score=0.9, t=e["t"], t_score=0.8, announced=e["announced"],
                    announced_score=0.7) for e in whole["events"] if e.get("type") in VOTE_TYPES]
    return draft_votes(paper().protocol(), cues, NIGHTS, RFM, lambda data: audit(data, seen, profile=RFM)).data


def paper() -> Sheet:
    sheet = Sheet(new_protocol("rfm"))
    for slot, text in SAMPLE_SHEET:
        if not slot.startswith(("round.", "lift.")):
            sheet.enter(slot, text)
    return sheet


def test_each_drafted_round_is_one_proposal_and_nothing_enters_unaccepted(drafted: dict) -> None:
    sheet = paper()
    before = sheet.protocol()
    offered = proposals(drafted, sheet)
    assert [p.slot for p in offered] == ["round.1.1", "round.2.1", "round.2.2", "lift.2", "round.3.1", "round.4.1"]
    assert offered[0].line.startswith("6:6/1,2,4,5,7,10@3.15,4.7,5.55 3:1/3@")  # the video's counts and voters
    assert sheet.protocol() == before


def test_accepted_rounds_enter_with_their_times_and_a_rejected_one_does_not(drafted: dict) -> None:
    sheet = paper()
    offered = {p.slot: p for p in proposals(drafted, sheet)}
    for slot in ("round.1.1", "round.2.1", "round.2.2", "lift.2", "round.3.1"):
        assert accept(sheet, offered[slot])
    (first, *_) = box_events(sheet.data, "round.1.1")
    assert (first["count"], first["voters"], first["cutoff"]) == (6, [1, 2, 4, 5, 7, 10], 4.7)
    assert box_events(sheet.data, "round.4.1") == []  # rejected: left out
    assert [p.slot for p in proposals(drafted, sheet)] == ["round.4.1"]  # what is in is not offered again
    assert accept(sheet, offered["round.4.1"], "7:3/1,5,8 1:1/7")  # accepted as the judge edited it
    assert validate(sheet.protocol()) == [] and sheet.complete
    sheet.undo()
    assert box_events(sheet.data, "round.4.1") == []


def test_a_proposal_goes_through_the_session_as_json(drafted: dict) -> None:
    for p in proposals(drafted, paper()):
        assert Proposal.from_json(json.loads(json.dumps(p.to_json()))) == p


# ---- the nights' shots: the sample's night reading (stopframe audit --nights, saved in its observations)

def night_reading() -> dict:
    require_current_sample_fixture()
    return json.loads(SAMPLE_OBSERVATIONS.read_text(encoding="utf-8"))


def test_each_nights_shot_is_proposed_from_the_raised_hands_and_enters_only_when_accepted() -> None:
    """The paper sheet typed without its shootings (no times on it): each night's shooting is read from the hands
    raised in the video's nights, in order; night 2's blacks shot different seats, a miss."""
    sheet = paper()
    for night in (1, 2, 3):
        sheet.enter(f"shooting.{night}", "")
    before = sheet.protocol()
    read = read_shootings(shooting_protocol(sheet), night_reading(), RFM)
    assert read.unread is None and read.unseen == []
    offered = {p.slot: p for p in night_proposals(read.shots, sheet)}
    assert {slot: p.line for slot, p in offered.items()} == {
        "shooting.1": "2:10 7:10 9:10", "shooting.2": "2:4 7:8", "shooting.3": "7:4"}
    assert [e["target"] for p in offered.values() for e in p.events] == [10, None, 4]
    assert all(p.events[0]["x_fired"] and 0 < p.events[0]["x_draft_score"]["target"] <= 1 for p in offered.values())
    assert abs(offered["shooting.1"].events[0]["t"] - 26.2) < 0.1  # the count's first number, as the judge's protocol
    assert sheet.protocol() == before  # proposed, not entered
    assert accept(sheet, offered["shooting.1"]) and accept(sheet, offered["shooting.2"])
    shot = box_events(sheet.data, "shooting.1")
    assert shot[0]["target"] == 10 and shot[0]["shots"] == {"2": 10, "7": 10, "9": 10}
    assert box_events(sheet.data, "shooting.2")[0]["target"] is None
    assert [p.slot for p in night_proposals(read.shots, sheet)] == ["shooting.3"]  # what is in is not offered again


def test_a_shooting_the_sheet_already_holds_is_not_proposed_and_one_it_holds_otherwise_is() -> None:
    sheet = paper()  # the sample sheet with its shootings as the paper has them
    read = read_shootings(shooting_protocol(sheet), night_reading(), RFM)
    assert night_proposals(read.shots, sheet) == []
    sheet.enter("shooting.3", "5")  # a slip of the pen: the video says seat 4
    assert [(p.slot, p.line) for p in night_proposals(read.shots, sheet)] == [("shooting.3", "7:4")]


def test_observations_without_a_night_reading_say_why_no_night_is_proposed() -> None:
    protocol = shooting_protocol(paper())
    day_only = {k: v for k, v in night_reading().items() if k not in ("x_raised", "x_shown_numbers",
                                                                      "x_night_windows", "x_night_words")}
    assert read_shootings(protocol, day_only, RFM).unread == "not_analysed"
    nothing = {**day_only, "x_raised": [], "x_shown_numbers": [], "x_night_windows": []}
    assert read_shootings(protocol, nothing, RFM).unread == "no_night"
    # the nights looked at and no hand raised in them: no black shot, a miss each night, not "no night"
    still = {**night_reading(), "x_raised": []}
    read = read_shootings(protocol, still, RFM)
    assert read.unread is None and [(s.night, s.target) for s in read.shots] == [(1, None), (2, None), (3, None)]


def test_a_night_the_video_does_not_show_whole_is_listed_not_guessed() -> None:
    """Seat 9's raise zone out of sight: night 1's kill, which needs seat 9's shot, cannot be told."""
    seen = {**night_reading(), "x_night_blind": [9]}
    read = read_shootings(shooting_protocol(paper()), seen, RFM)
    assert 1 in read.unseen and 1 not in [s.night for s in read.shots]


def test_the_draft_carries_the_nights_reading_without_replacing_the_judges_values() -> None:
    sheet = paper()
    sheet.enter("shooting.3", "5")  # the judge's seat, which the video does not show
    sheet.enter("shooting.1", "10")  # the judge's kill without the shots
    data = sheet.protocol()
    marked = with_shots(data, read_shootings(data, night_reading(), RFM))
    shootings = {e["night"]: e for e in marked["events"] if e["type"] == "shooting"}
    assert shootings[1]["shots"] == {"2": 10, "7": 10, "9": 10} and shootings[1]["x_draft_score"]["shots"] > 0
    assert shootings[3]["target"] == 5 and "shots" not in shootings[3]  # the judge's seat stays the judge's
    assert shootings[3]["x_draft_shooting"]["target"] == 4 and "t" in shootings[3]
    assert validate(marked) == []
    unread = with_shots(data, read_shootings(data, {"hands": []}, RFM))
    assert unread["x_draft_nights_unread"] == "not_analysed"
