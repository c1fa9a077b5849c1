"""review.cases.sheet_draft: the votes drafted from the sample game's video, offered to a typed sheet round by round;
only what the judge accepts enters the protocol. The cues are the sample's own times and the hands its committed
observations (as tests/audit/test_draft.py does), so no audio or video is read."""

from __future__ import annotations

import json

import pytest
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture
from test_sheet import SAMPLE, SAMPLE_SHEET

from contract.observations import observations_from_json, read_observations
from review.audit.align import VOTE_TYPES, VoteCue
from review.audit.audit import audit
from review.audit.draft import draft_votes
from review.cases.sheet import Sheet, box_events, new_protocol
from review.cases.sheet_draft import Proposal, accept, proposals
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
