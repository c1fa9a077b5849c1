"""Voters filled from the video: a protocol that gives only counts made exportable to Polemica and
mafiaratings where the video's hands agree with the judge's count, and nothing guessed where they do not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clubgames import prepare
from corrections import GAME, decision, read, source

from pipeline.audit import audit_game
from review.audit.findings import finding_key
from review.cases.club_exports import ExportRefused, export_game
from review.cases.corrected import corrected_protocol
from review.cases.voters import MARK, fill_voters_from_video
from review.game.engine import replay
from review.game.importers import import_file
from review.game.protocol import validate


def _counts_only(protocol: dict) -> dict:
    """The club game as a paper protocol: every vote's count, nobody's seat."""
    out = json.loads(json.dumps(protocol))
    for e in out["events"]:
        e.pop("voters", None)
    return out


def _club_game(tmp_path: Path, club: str) -> tuple[dict, dict, object]:
    paths = prepare(club, tmp_path)
    played = read(paths["protocol"])
    paper = _counts_only(played)
    paths["protocol"].write_text(json.dumps(paper, ensure_ascii=False), encoding="utf-8")
    report = audit_game(protocol=paths["protocol"], seats=paths["seats"], observations=paths["observations"],
                        marks=paths["marks"])
    return played, paper, report


@pytest.mark.parametrize("target", ["polemica", "mafiaratings"])
def test_a_counts_only_game_goes_out_with_the_videos_voters_and_reads_back(tmp_path: Path, target: str) -> None:
    played, paper, report = _club_game(tmp_path, target)
    assert report.findings == ()  # every hand in time: nothing to decide
    with pytest.raises(ExportRefused, match="gives only the count"):
        export_game(paper, target)
    fill = fill_voters_from_video(paper, report.findings, report.votes, {})
    assert fill.left == () and validate(fill.protocol) == []
    votes = [e for e in fill.protocol["events"] if e["type"] == "vote"]
    assert [i for i, e in enumerate(fill.protocol["events"]) if e.get(MARK)] == list(fill.filled)
    assert all(e.get(MARK) is True for e in votes if e["count"])
    by_place = {(e["day"], e["round"], e["candidate"]): e for e in played["events"] if e["type"] == "vote"}
    for e in votes:  # the seats the club's own file had, recovered from the hands alone
        assert sorted(e.get("voters", [])) == sorted(by_place[(e["day"], e["round"], e["candidate"])].get("voters") or [])

    out = tmp_path / f"filled.{target}.json"
    out.write_text(json.dumps(export_game(fill.protocol, target), ensure_ascii=False), encoding="utf-8")
    again = import_file(target, out, rules=paper["rules"])
    assert validate(again) == []
    assert replay(again).eliminations == replay(paper).eliminations
    assert replay(again).result == replay(paper).result


def test_a_vote_whose_video_count_disagrees_keeps_its_count_and_the_export_names_it() -> None:
    protocol, findings, votes = source("sample_game", "rfm")
    rejected = {finding_key(f): decision(f, "rejected") for f in findings}
    corrected = corrected_protocol(protocol, rejected.values(), votes=votes)
    fill = fill_voters_from_video(corrected, findings, votes, rejected)
    assert validate(fill.protocol) == []
    first = fill.protocol["events"][6]
    assert (first["candidate"], first["count"]) == (6, 5) and "voters" not in first and MARK not in first
    assert fill.left[0] == ("the vote on candidate 6 on day 1: the video shows 6 votes (seats 1, 2, 4, 5, "
                            "7, 10), not the count 5.")
    assert 7 in fill.filled and fill.protocol["events"][7]["voters"] == [3]  # candidate 3: one hand, count 1
    for target in ("polemica", "mafiaratings"):
        with pytest.raises(ExportRefused, match=r"^events\[6\] \(the vote on candidate 6 on day 1\): the protocol gives "
                                                r"only the count \(5\)"):
            export_game(fill.protocol, target)


def test_an_undecided_finding_on_a_vote_leaves_it_and_a_confirmed_miscount_lets_the_videos_voters_in() -> None:
    protocol, findings, votes = source("sample_game", "rfm")
    fill = fill_voters_from_video(protocol, findings, votes, {})
    assert "voters" not in fill.protocol["events"][6]
    assert fill.left[0].startswith("the vote on candidate 6 on day 1: the early hand of seat 5")
    assert fill.left[0].endswith("is not decided yet.")
    decided = {finding_key(f): decision(f) for f in findings}
    corrected = corrected_protocol(protocol, decided.values(), votes=votes, strict=False)
    fill = fill_voters_from_video(corrected, findings, votes, decided)
    assert validate(fill.protocol) == []
    assert json.loads(json.dumps(fill.protocol)) == fill.protocol
    filled = [fill.protocol["events"][i] for i in fill.filled]
    assert filled and all(e[MARK] is True and len(e["voters"]) == e["count"] for e in filled)
    # the vote on candidate 8 leaves seat 1's hand to the judge (rfm: a repeated hand): never guessed
    eight = next(e for e in fill.protocol["events"] if e["type"] == "vote" and (e["day"], e["candidate"]) == (1, 8))
    assert "voters" not in eight
    assert any("whether to count seat 1" in s for s in fill.left)
    # the sample game's own protocol holds a vote on lifting (day 2), which neither club format has
    lift = next(i for i, e in enumerate(fill.protocol["events"]) if e["type"] == "lift_vote")
    assert fill.protocol["events"][lift]["count"] == 5
    assert read(GAME.with_suffix(".protocol.json")) == protocol | {"rules": "rfm"}


def test_the_sample_game_with_its_miscounts_confirmed_is_held_back_only_by_its_lift_vote() -> None:
    protocol, findings, votes = source("sample_game", "rfm")
    decided = {finding_key(f): decision(f, "confirmed" if f.kind == "count_mismatch" else "rejected") for f in findings}
    corrected = corrected_protocol(protocol, decided.values(), votes=votes)
    with pytest.raises(ExportRefused, match="gives only the count"):
        export_game(corrected, "polemica")
    fill = fill_voters_from_video(corrected, findings, votes, decided)
    assert validate(fill.protocol) == []
    counted = [i for i, e in enumerate(fill.protocol["events"]) if e["type"] == "vote"]
    # every candidate vote but day 1's last (seat 1's repeated hand is the judge's call; the export gives that
    # candidate the silent votes itself, rfm 4.4.10) has its voters from the video
    assert [i for i in counted if i not in fill.filled] == [8]
    assert len(fill.left) == 1 and fill.left[0].startswith("the vote on candidate 8 on day 1: ")
    with pytest.raises(ExportRefused, match=r"^events\[24\] \(the vote on lifting 9, 3 on day 2\): a Polemica file "
                                            r"lists votes for candidates and holds no vote on lifting"):
        export_game(fill.protocol, "polemica")
