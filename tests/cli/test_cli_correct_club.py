"""`stopframe correct … --format polemica|mafiaratings`: the corrected game as the club's own game
file, which `stopframe import` reads back and `stopframe validate` accepts, holding all the format can and saying
what it left out; exit 1, before any file, only for a confirmed finding the corrected protocol cannot take. Files
go to tmp folders only."""

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


def _sample_audit(tmp_path: Path) -> tuple[Path, list[dict]]:
    """The bundled game audited from its committed observations, nights included, as `stopframe audit` writes it."""
    audit = tmp_path / "sample.audit.json"
    written_audit(SAMPLE, audit, nights=True)
    return audit, json.loads(audit.read_text(encoding="utf-8"))["findings"]


@pytest.mark.parametrize("target", ["polemica", "mafiaratings"])
def test_the_bundled_game_goes_to_the_clubs_file_saying_what_it_leaves_out(capsys, tmp_path: Path, target: str) -> None:
    """Every finding of the bundled game confirmed but the night removal the game as played cannot take: the file
    is written, says what it left out (fines, the vote on lifting, …) in words, and reads back as a valid game."""
    audit, findings = _sample_audit(tmp_path)
    removal = next(i for i, f in enumerate(findings) if f["kind"] == "night_hand" and f["consequence"]["type"] == "removal")
    keep = [str(i) for i in range(len(findings)) if i != removal]
    club = tmp_path / f"sample.{target}.json"
    code, out, err = run_cli(capsys, "correct", GAME.with_suffix(".protocol.json"), "--audit", audit, "--confirm", *keep,
                             "--voters-from-video", "--format", target, "--out", club)
    assert (code, err) == (0, "") and club.exists()
    name = {"polemica": "Polemica", "mafiaratings": "mafiaratings"}[target]
    left = out.split(f"Left out of the {name} file, which cannot hold them:\n")[1].split("Not in the file: ")[0]
    assert f"  - seat 8's fine of -0.2 points (rfm 5.10.1): a {name} file holds no fines\n" in left
    assert "the vote on lifting 9, 3 on day 2" in left
    assert "events[" not in out and "None" not in out
    again = tmp_path / "again.protocol.json"
    assert run_cli(capsys, "import", target, club, "--out", again, "--rules", "rfm")[0] == 0
    assert run_cli(capsys, "validate", again)[0] == 0
    players = json.loads(again.read_text(encoding="utf-8"))["players"]
    sample = json.loads(GAME.with_suffix(".protocol.json").read_text(encoding="utf-8"))["players"]
    assert [(p["seat"], p["role"]) for p in players] == [(p["seat"], p["role"]) for p in sample]


def test_a_confirmed_night_removal_is_refused_before_any_file_in_words(capsys, tmp_path: Path) -> None:
    """The night removal of a player who went on playing: one sentence naming the finding and the event of the
    judge's protocol it clashes with, in words, and no protocol or club file at all."""
    audit, findings = _sample_audit(tmp_path)
    removal = next(i for i, f in enumerate(findings) if f["kind"] == "night_hand" and f["consequence"]["type"] == "removal")
    for target in ("protocol", "polemica", "mafiaratings"):
        out = tmp_path / f"sample.{target}.json"
        code, stdout, err = run_cli(capsys, "correct", GAME.with_suffix(".protocol.json"), "--audit", audit,
                                    "--confirm-all", "--voters-from-video", "--format", target, "--out", out)
        assert code == 1 and stdout == "" and not out.exists()
        [line] = err.strip().splitlines()
        assert line.startswith(f"stopframe: {audit}, finding {removal}: The hand raised at night of seat 5 on night 2 "
                               "(rfm 5.12.10) cannot be applied: the game as played goes on with seat 5 after this "
                               "removal (seat 7 nominating seat 5 on day 3: ")
        assert "events[" not in line and "findings[" not in line
