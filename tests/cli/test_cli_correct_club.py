"""`stopframe correct … --format polemica|mafiaratings`: the corrected game as the club's own game
file, which `stopframe import` reads back and `stopframe validate` accepts; exit 1 naming the event a format
cannot hold. Files go to tmp folders only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run_cli
from clubgames import prepare
from corrections import GAME, SAMPLE, written_audit


@pytest.mark.parametrize("source", ["polemica", "mafiaratings"])
def test_the_corrected_game_goes_back_as_the_clubs_file(capsys, tmp_path: Path, source: str) -> None:
    paths = prepare(source, tmp_path, late={(3, 1, 7): 1})
    audit = tmp_path / "club.audit.json"
    report = written_audit(paths, audit)
    late = next(i for i, f in enumerate(report.findings) if f.kind == "late_vote")
    club = tmp_path / f"club.corrected.{source}.json"
    code, out, err = run_cli(capsys, "correct", paths["protocol"], "--audit", audit, "--confirm", late,
                          "--format", source, "--out", club)
    assert (code, err) == (0, "")
    assert "1 finding confirmed" in out and "reads back as the same game under rfm" in out
    assert "import the file back with --rules rfm" in out and "None" not in out
    again = tmp_path / "again.protocol.json"
    assert run_cli(capsys, "import", source, club, "--out", again)[0] == 0
    assert run_cli(capsys, "validate", again)[0] == 0
    votes = {(e["day"], e["candidate"]): e for e in json.loads(again.read_text())["events"] if e["type"] == "vote"}
    assert votes[(3, 7)]["count"] == 4 and 1 not in votes[(3, 7)]["voters"]  # seat 1's late hand is off


def test_a_game_the_format_cannot_hold_is_one_sentence_and_exit_1(capsys, tmp_path: Path) -> None:
    audit = tmp_path / "sample.audit.json"
    written_audit(SAMPLE, audit)
    out = tmp_path / "sample.polemica.json"
    code, stdout, err = run_cli(capsys, "correct", GAME.with_suffix(".protocol.json"), "--audit", audit, "--confirm", "0",
                             "--format", "polemica", "--out", out)
    assert code == 1 and stdout == "" and not out.exists()
    assert err.startswith(f"stopframe: {out}: no Polemica file written: in the corrected game, events[")
    assert "gives only the count" in err and err.count("\n") == 1
