"""End to end through vision (MediaPipe): `stopframe audit` on the sample clip that shows every day-vote
finding kind.

Hands, their times, the counts and the findings must match the truth exactly: no thumb-up fist gives a
wrong_form (MediaPipe's tracker sometimes reads one as an open palm), the real open palm (seat 6) does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from review.audit.findings import DAY_KINDS, identity_of
from stopframe_cli.main import main

CLIP = Path(__file__).resolve().parents[2] / "sample_videos" / "clips" / "day1_vote_findings"


@pytest.mark.slow
def test_stopframe_audit_through_vision_reports_exactly_the_truths_findings_and_counts(capsys):
    args = ["audit", str(CLIP.with_suffix(".mp4")), "--protocol", f"{CLIP}.protocol.json",
            "--seats", f"{CLIP}.seats.json", "--json"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    truth = json.loads(Path(f"{CLIP}.truth.json").read_text(encoding="utf-8"))
    expected = {identity_of(f) for f in truth["expected_findings"] if f["kind"] in DAY_KINDS}
    found = {identity_of(f) for f in report["findings"]}
    assert found == expected
    day1 = [v for v in report["votes"] if v["video_voters"] is not None]
    assert [(v["candidate"], v["video_voters"]) for v in day1] == [(6, [1, 2, 4, 5, 7, 10]), (3, [3]), (8, [1, 6])]
    assert day1[-1]["silent_seats"] == [8, 9]
