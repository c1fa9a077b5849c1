"""review.audit.tally: the one vote count the app's table, cards, outcome and exports show, read from the audit.

On the bundled sample game under every profile: a vote shows a mismatch exactly where the audit reports a
count_mismatch for it, and the count the finding's text gives is the count the table gives."""

from __future__ import annotations

import re

import pytest
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture

from review.audit.findings import VoteReport
from review.audit.tally import VoteTally, seats, tally, tally_for
from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec, complete_spec, load_game, run_audit


@pytest.mark.parametrize("profile", ["rfm", "mafclub", "lvi2015", "showtime"])
def test_the_table_and_the_findings_agree_on_every_vote(profile: str) -> None:
    require_current_sample_fixture()
    game = load_game(complete_spec(GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS),
                                            profile=profile)))
    report = run_audit(game)
    for v in report.votes:
        t = tally(v)
        mine = [f for f in report.findings if f.kind == "count_mismatch" and f.day == v.day
                and f.round == v.round and f.candidate == v.candidate]
        if t.mismatch:
            assert mine, (profile, v)
        for f in mine:
            said = re.search(r"the video supports (\d+(?:–\d+)?)", f.extra.get("x_text") or "")
            assert said and said.group(1) == tally_for(report.votes, f).count_text, (profile, f, t)
            assert f.extra.get("x_video_count") == t.estimate


def test_a_row_in_words() -> None:
    row = {"kind": "vote", "day": 1, "round": 1, "candidate": 8, "protocol_count": 4, "video_voters": [1, 6],
           "video_count": 2, "silent_seats": [8, 9], "x_supported_count": 3, "x_counted_voters": [6],
           "x_uncertain_voters": [1]}
    t = tally(VoteReport.from_json(row))
    assert (t.count_text, t.mismatch, t.estimate, t.silent) == ("3", True, 3, (8, 9))
    assert t.breakdown() == ("1 hand counted (seat 6); 2 silent votes (seats 8, 9); "
                             "1 hand a judge may count or not (seat 1)")
    ranged = tally(VoteReport.from_json({**row, "x_supported_count": [3, 4]}))
    assert (ranged.count_text, ranged.mismatch, ranged.estimate) == ("3–4", False, 4)
    showtime = tally(VoteReport.from_json({**row, "x_supported_count": [0, 2], "x_counted_voters": [],
                                           "x_uncertain_voters": [1, 6]}))
    assert showtime.silent == () and showtime.mismatch  # no silent vote goes to anyone there
    assert tally(None) == VoteTally(None, None, None, (), (), (), (), (), ()) and tally(None).count_text == "not seen"
    assert seats([4]) == "seat 4" and seats([1, 9]) == "seats 1, 9" and seats([]) == "no seat"
