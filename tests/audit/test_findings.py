"""The Finding type is the contract between the audit, the app, the store and the reports (spec §4)."""

from __future__ import annotations

import pytest

from contract.errors import UnreadableInput
from review.audit.findings import (
    AuditReport,
    Evidence,
    Finding,
    FindingConsequence,
    VoteOutcome,
    VoteReport,
    finding_key,
    identity_of,
)
from review.game.profiles import CONSEQUENCE_TYPES

SPEC_FINDING = {
    "kind": "late_vote", "seat": 9, "seats": None, "day": 1, "night": None, "round": 1, "candidate": 5,
    "t": 2.64, "clause": "rfm 4.4.7",
    "consequence": {"type": "not_counted", "points": None, "text": "the vote is not counted"},
    "confidence": 0.9, "assumed_times": [], "evidence": {"frames": [66, 67], "times": [2.64, 2.68]},
}


def test_spec_4_finding_object_round_trips_exactly():
    f = Finding.from_json(SPEC_FINDING)
    assert f.to_json() == SPEC_FINDING
    assert list(f.to_json()) == list(SPEC_FINDING)  # the spec's field order, for readable files


def test_spec_4_identity_of_day_and_night_findings():
    day = Finding.from_json(SPEC_FINDING)
    assert day.identity == ("late_vote", 1, 1, 5, 9)
    night = Finding("night_hand", "mafclub 3.8.8", FindingConsequence("removal", "removed"), 0.8, seat=4, night=2)
    assert night.identity == ("night_hand", 2, 4)
    # A truth file's expected_findings entry has the same identity as the audit's finding.
    assert identity_of({"kind": "late_vote", "seat": 9, "day": 1, "round": 1, "candidate": 5}) == day.identity


def test_extension_fields_survive_and_do_not_change_identity():
    data = dict(SPEC_FINDING, x_text="Seat 9's hand landed late.", x_also_clause="rfm 5.10.1")
    f = Finding.from_json(data)
    assert f.to_json() == data
    assert f.text == "Seat 9's hand landed late."
    assert f == Finding.from_json(SPEC_FINDING)


def test_fine_keeps_its_points_and_count_mismatch_names_seats():
    f = Finding(
        "count_mismatch", "rfm 7.1.2.3", FindingConsequence("none", "a counting error"), 0.95,
        seats=(2, 7), day=2, round=1, candidate=5, t=10.0, evidence=Evidence((250,), (10.0,)),
    )
    j = f.to_json()
    assert j["seat"] is None and j["seats"] == [2, 7]
    fine = FindingConsequence("fine", "small fine", -0.2)
    assert fine.to_json() == {"type": "fine", "points": -0.2, "text": "small fine"}


def test_vote_report_matches_spec_votes_row():
    row = {"kind": "vote", "day": 1, "round": 1, "candidate": 5, "protocol_count": 3, "protocol_voters": None,
           "video_voters": [2, 5, 7], "video_count": 3, "silent_seats": [], "confidence": 0.97,
           "outcome": {"protocol": "seat 5 leaves", "video": "seat 5 leaves", "changed": False}}
    v = VoteReport.from_json(row)
    assert v.to_json() == row
    lift = VoteReport("lift", 2, 3, 6, None, (1, 2, 3, 4, 6, 9), (), 0.9,
                      VoteOutcome("all stay", "3, 5 leave"), candidates=(3, 5))
    j = lift.to_json()
    assert j["candidates"] == [3, 5] and "candidate" not in j
    assert j["video_count"] == 6 and j["outcome"]["changed"] is True


def test_audit_report_refuses_unknown_major_version():
    report = AuditReport("g.mp4", "rfm", (), (Finding.from_json(SPEC_FINDING),))
    assert AuditReport.from_json(report.to_json()).to_json() == report.to_json()
    with pytest.raises(UnreadableInput, match="stopframe-audit/1"):
        AuditReport.from_json({"format": "stopframe-audit/2", "votes": [], "findings": []})


def test_one_identity_rule_for_findings_their_json_and_keys():
    both = Finding("late_vote", None, FindingConsequence("none", ""), 1.0, seat=3, day=1, night=1, round=1, candidate=5)
    assert both.identity == identity_of(both.to_json()) == ("late_vote", 1, 1, 5, 3)  # a day finding: it has a day
    assert finding_key(both) == '["late_vote",1,1,5,3]'


def test_every_consequence_type_has_words():
    from stopframe_app import words

    assert tuple(words.CONSEQUENCES) == CONSEQUENCE_TYPES


@pytest.mark.parametrize("profile", ["rfm", "mafclub", "lvi2015", "showtime"])
def test_the_sample_games_report_round_trips_through_its_file(profile: str):
    """What the app holds is what the report file gives back: typed, and equal through to_json/from_json."""
    from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec, complete_spec, load_game, run_audit

    report = run_audit(load_game(complete_spec(GameSpec(str(SAMPLE_PROTOCOL), profile=profile))))
    assert report is not None and report.findings and report.votes and report.rules == profile
    again = AuditReport.from_json(report.to_json())
    assert again == report and again.to_json() == report.to_json()  # the x_ fields too (not in ==)
    assert {f.identity for f in again.findings} == report.identities()
