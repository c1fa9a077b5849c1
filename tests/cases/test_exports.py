"""Exports a club receives: the corrected protocol, the findings CSV and the HTML report (spec §5)."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest
from corrections import one_vote_game

from contract.errors import UnreadableInput
from review.audit.findings import Finding, VoteReport
from review.cases.corrected import (
    CorrectionError,
    check_corrections,
    corrected_name,
    corrected_protocol,
    write_corrected_protocol,
)
from review.cases.exports import KeyFrame, finding_rows, neutralise
from review.cases.store import Store
from review.game.protocol import validate
from stopframe_app.report import findings_csv, html_report

PROTOCOL = one_vote_game()
PROTOCOL["game"]["judge"] = "<b>Judge</b>"
PROTOCOL["players"][8]["nickname"] = '=HYPERLINK("http://evil.example","x")'
PROTOCOL["players"][2]["nickname"] = "<script>alert(1)</script>"

LATE = {"kind": "late_vote", "seat": 9, "seats": None, "day": 1, "night": None, "round": 1, "candidate": 5,
        "t": 12.64, "clause": "rfm 4.4.7", "confidence": 0.9, "assumed_times": [],
        "consequence": {"type": "not_counted", "points": None, "text": "the vote is not counted"},
        "evidence": {"frames": [316], "times": [12.64]}}
NOVOTE = {"kind": "no_vote", "seat": 3, "seats": None, "day": 1, "night": None, "round": 1, "candidate": None,
          "t": 14.0, "clause": "rfm 5.10.1", "confidence": 0.8, "assumed_times": [],
          "consequence": {"type": "fine", "points": -0.2, "text": "small fine"}, "evidence": {"frames": [], "times": []}}
LIFT = {"kind": "lifted_early", "seat": 4, "seats": None, "day": 1, "night": None, "round": 1, "candidate": 7,
        "t": 15.0, "clause": "rfm 4.4.8", "confidence": 0.7, "assumed_times": [],
        "consequence": {"type": "foul", "points": None, "text": "foul; the vote counts"}, "evidence": {}}
COUNT = {"kind": "count_mismatch", "seat": None, "seats": [6], "day": 1, "night": None, "round": 1, "candidate": 7,
         "t": 15.0, "clause": "rfm 7.1.2.3", "confidence": 0.9, "assumed_times": [],
         "consequence": {"type": "none", "points": None, "text": "count differs"}, "evidence": {}}


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "d.sqlite")


def test_corrected_protocol_applies_confirmed_decisions_only(store: Store) -> None:
    store.decide("G1", Finding.from_json(LATE), "confirmed", reason="after Stop", who="Chief", expected_version=0)
    store.decide("G1", Finding.from_json(NOVOTE), "confirmed", reason="no hand all round", who="Chief", expected_version=0)
    store.decide("G1", Finding.from_json(LIFT), "rejected", reason="hand stayed", who="Chief", expected_version=0)
    out = corrected_protocol(PROTOCOL, store.decisions("G1").values(), source="g.protocol.json")
    vote5 = next(e for e in out["events"] if e.get("type") == "vote" and e["candidate"] == 5)
    assert vote5["count"] == 3 and vote5["voters"] == [2, 3, 10] and vote5["x_original_count"] == 4
    fines = [e for e in out["events"] if e["type"] == "fine"]
    assert fines == [{"type": "fine", "seat": 3, "points": -0.2, "clause": "rfm 5.10.1", "reason": "small fine",
                      "x_review": fines[0]["x_review"], "t": 14.0}]
    assert not [e for e in out["events"] if e["type"] == "foul"]  # the rejected finding adds nothing
    # The new fine sits in the game where it happened: after day 1's voting, before night 1.
    kinds = [e["type"] for e in out["events"]]
    assert kinds.index("fine") < kinds.index("phase", 4)
    # The input dict is untouched.
    assert PROTOCOL["events"][4]["count"] == 4 and "x_review" not in PROTOCOL


def test_edited_count_mismatch_sets_the_count_and_the_last_gets_the_silent_votes(store: Store) -> None:
    """rfm 4.4.10: the last candidate's count is everyone at the table minus the votes for the others."""
    first = {**COUNT, "candidate": 5, "seats": [9]}
    store.decide("G1", Finding.from_json(first), "edited", reason="counted 3 hands frame by frame", who="Chief", expected_version=0,
                 edited={"count": 3})
    out = corrected_protocol(PROTOCOL, store.decisions("G1").values())
    vote5 = next(e for e in out["events"] if e.get("type") == "vote" and e["candidate"] == 5)
    vote7 = next(e for e in out["events"] if e.get("type") == "vote" and e["candidate"] == 7)
    assert vote5["count"] == 3 and vote5["x_original_count"] == 4 and vote5["x_original_voters"] == [2, 3, 9, 10]
    assert "voters" not in vote5  # the listed four no longer match the count; the video's voters are not known
    assert vote7["count"] == 7 and vote7["x_original_count"] == 6
    assert validate(out) == []


def test_count_mismatch_on_the_last_candidate_against_rfm_4_4_10_is_refused(store: Store) -> None:
    store.decide("G1", Finding.from_json(COUNT), "confirmed", reason="video", who="Chief", expected_version=0)
    rows = [VoteReport.from_json({"kind": "vote", "day": 1, "round": 1, "candidate": 7,
                                  "video_voters": [1, 2, 3, 4, 5, 6, 7]})]  # the video counts 7
    sentences = check_corrections(PROTOCOL, store.decisions("G1").values(), votes=rows)
    assert sentences == ["The miscount on day 1, the vote on candidate 7 (rfm 7.1.2.3) cannot be applied: the last "
                         "candidate's count is everyone at the table minus the votes for the others (rfm 4.4.10): "
                         "10 − 4 = 6, not 7."]
    with pytest.raises(CorrectionError, match="candidate 7"):
        corrected_protocol(PROTOCOL, store.decisions("G1").values(), votes=rows)


def test_original_protocol_is_never_overwritten(tmp_path: Path) -> None:
    original = tmp_path / "g.protocol.json"
    original.write_text(json.dumps(PROTOCOL))
    with pytest.raises(UnreadableInput, match="never overwrites the original protocol"):
        write_corrected_protocol(original, {"x": 1}, original)
    linked = tmp_path / "hard.protocol.json"
    os.link(original, linked)  # the same file by another name
    with pytest.raises(UnreadableInput, match="never overwrites the original protocol"):
        write_corrected_protocol(linked, {"x": 1}, original)
    out = write_corrected_protocol(tmp_path / corrected_name(original), {"x": 1}, original)
    assert out.name == "g.corrected.protocol.json" and json.loads(original.read_text()) == PROTOCOL


def test_neutralise_follows_spec_5() -> None:
    for bad in ("=1+2", "+7", "-cmd", "@SUM(A1)", "\tx", "\rx"):
        assert neutralise(bad) == "'" + bad
    assert neutralise(-0.2) == -0.2 and neutralise(3) == 3 and neutralise("Alpha") == "Alpha"


def test_csv_neutralises_player_names_and_keeps_numbers(store: Store, tmp_path: Path) -> None:
    store.decide("G1", Finding.from_json(LATE), "confirmed", reason="-late, see frame 316", who="@chief", expected_version=0)
    rows = finding_rows([Finding.from_json(LATE), Finding.from_json(NOVOTE)], store.decisions("G1"), PROTOCOL)
    text = findings_csv(rows).removeprefix("\ufeff")
    assert "\n=" not in text and ",=" not in text and ',"=' not in text
    table = list(csv.DictReader(io.StringIO(text)))
    assert table[0]["nickname"] == """'=HYPERLINK("http://evil.example","x")"""
    assert table[0]["reason"] == "'-late, see frame 316" and table[0]["decided by"] == "'@chief"
    assert table[0]["decision"].startswith("confirmed") and table[1]["decision"] == "open"
    # Numbers are written bare (no quote, no apostrophe): a spreadsheet reads -0.2 as a number.
    assert ",-0.2," in text and table[1]["points"] == "-0.2" and table[0]["time (s)"] == "12.64"


@pytest.mark.parametrize("separator", [",", ";"])
def test_csv_for_either_separator_holds_no_formula_and_opens_with_a_bom(store: Store, separator: str) -> None:
    """`;` is the separator Excel splits on in a Russian locale, `,` elsewhere: under either, no cell a spreadsheet
    reads as a formula, the text starts with the UTF-8 byte order mark, and with `;` numbers carry a decimal comma."""
    store.decide("G1", Finding.from_json(LATE), "confirmed", reason="=1+2;+3,@4", who="-chief", expected_version=0)
    rows = finding_rows([Finding.from_json(LATE), Finding.from_json(NOVOTE)], store.decisions("G1"), PROTOCOL)
    text = findings_csv(rows, separator)
    assert text.startswith("\ufeff")
    table = list(csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter=separator))
    header = table[0]
    assert len({len(r) for r in table}) == 1 and len(header) > 10  # split on the chosen separator, not the other
    for row in table[1:]:
        for cell in row:  # every field a spreadsheet may split out of the cell is safe, whichever it splits on
            for field in (cell, *cell.split(","), *cell.split(";")):
                assert not field.startswith(("=", "+", "-", "@")) or field.lstrip("-").replace(",", ".").replace(
                    ".", "", 1).isdigit(), (separator, cell)
    cells = dict(zip(header, table[1], strict=True))
    assert cells["nickname"] == """'=HYPERLINK("http://evil.example","x")"""
    assert cells["reason"].startswith("'=1+2") and cells["decided by"] == "'-chief"
    points = dict(zip(header, table[2], strict=True))["points"]
    assert points == ("-0,2" if separator == ";" else "-0.2")
    with pytest.raises(ValueError):
        findings_csv(rows, "\t")


def test_html_report_escapes_everything_and_embeds_frames() -> None:
    rows = finding_rows([Finding.from_json(LATE), Finding.from_json(NOVOTE)], {}, PROTOCOL)
    rows[0]["reason"] = '"><img src=x onerror=alert(1)>'
    page = html_report(title="Game <G1>", protocol=PROTOCOL, rows=rows,
                       votes=[VoteReport.from_json({"kind": "vote", "day": 1, "round": 1, "candidate": 5, "protocol_count": 4,
                                                    "video_count": 3, "video_voters": [2, 3, 10],
                                                    "outcome": {"protocol": "a", "video": "b"}})],
                       key_frames={0: [KeyFrame("frame 316 <late>", b"\xff\xd8jpegbytes")]})
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<b>Judge</b>" not in page and "<img src=x" not in page and "Game &lt;G1&gt;" in page
    assert 'src="data:image/jpeg;base64,/9hqcGVnYnl0ZXM="' in page
    assert "http://" not in page.replace("http://evil.example", "")  # no external resources
    assert "<link" not in page and "<script" not in page
