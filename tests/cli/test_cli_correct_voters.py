"""`stopframe correct --voters-from-video`: a club game kept as a paper protocol (counts only) goes back
as the club's file with the voters the video shows; without the flag the file leaves out the count-only votes
and says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run_cli
from clubgames import prepare
from corrections import GAME, SAMPLE, written_audit


@pytest.mark.parametrize("source", ["polemica", "mafiaratings"])
def test_the_flag_fills_the_voters_and_the_file_reads_back(capsys, tmp_path: Path, source: str) -> None:
    paths = prepare(source, tmp_path)
    paper = json.loads(paths["protocol"].read_text(encoding="utf-8"))
    for e in paper["events"]:
        e.pop("voters", None)
    paths["protocol"].write_text(json.dumps(paper, ensure_ascii=False), encoding="utf-8")
    audit = tmp_path / "club.audit.json"
    written_audit(paths, audit)
    club = tmp_path / f"club.corrected.{source}.json"
    code, out, err = run_cli(capsys, "correct", paths["protocol"], "--audit", audit, "--confirm-all",
                          "--format", source, "--out", club)
    assert (code, err) == (0, "") and club.exists() and "gives only the count" in out and "events[" not in out

    code, out, err = run_cli(capsys, "correct", paths["protocol"], "--audit", audit, "--confirm-all",
                          "--format", source, "--voters-from-video", "--out", club)
    assert (code, err) == (0, "")
    filled = sum(1 for e in paper["events"] if e["type"] == "vote" and e["count"])
    assert f"Voters of {filled} votes filled from the video (marked x_voters_from_video)." in out
    assert "None" not in out
    again = tmp_path / "again.protocol.json"
    assert run_cli(capsys, "import", source, club, "--out", again)[0] == 0
    assert run_cli(capsys, "validate", again)[0] == 0

    corrected = tmp_path / "club.corrected.protocol.json"
    code, out, _ = run_cli(capsys, "correct", paths["protocol"], "--audit", audit, "--confirm-all",
                        "--voters-from-video", "--out", corrected)
    assert code == 0 and "filled from the video" in out
    votes = [e for e in json.loads(corrected.read_text())["events"] if e["type"] == "vote" and e["count"]]
    assert votes and all(e["x_voters_from_video"] is True and len(e["voters"]) == e["count"] for e in votes)
    assert run_cli(capsys, "validate", corrected)[0] == 0


def test_a_vote_the_video_does_not_settle_is_named_and_the_club_file_leaves_it_out(capsys, tmp_path: Path) -> None:
    audit = tmp_path / "sample.audit.json"
    written_audit(SAMPLE, audit)
    corrected = tmp_path / "sample.corrected.protocol.json"
    code, out, err = run_cli(capsys, "correct", GAME.with_suffix(".protocol.json"), "--audit", audit, "--confirm", "0",
                          "--voters-from-video", "--out", corrected)
    assert (code, err) == (0, "")
    assert "kept the count only, first the vote on candidate 6 on day 1: the " in out
    assert "is not decided yet." in out and "None" not in out
    events = json.loads(corrected.read_text())["events"]
    assert "voters" not in events[6] and "x_voters_from_video" not in events[6]
    assert events[7]["voters"] == [3] and events[7]["x_voters_from_video"] is True
    club = tmp_path / "sample.polemica.json"
    code, out, err = run_cli(capsys, "correct", GAME.with_suffix(".protocol.json"), "--audit", audit, "--confirm", "0",
                          "--voters-from-video", "--format", "polemica", "--out", club)
    assert (code, err) == (0, "") and club.exists()
    assert ("Left out of the Polemica file, which cannot hold them:\n  - everything from the vote on candidate 6 on "
            "day 1 on: the protocol gives only the count (5)") in out
