"""`stopframe correct PROTOCOL --audit AUDIT.json (--confirm-all | --confirm I …) [--reason] --out FILE`
exit 0 and a file `stopframe validate` accepts, exit 1 with one sentence naming the finding
that cannot be applied, exit 2 for unreadable input or wrong arguments (spec §6). Files go to tmp folders only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run_cli
from corrections import GAME, SAMPLE, read, written_audit

PROTOCOL = GAME.with_suffix(".protocol.json")


@pytest.fixture(scope="module")
def audits(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("audits")
    out = {}
    for rules in ("rfm", "mafclub"):
        out[rules] = folder / f"sample_game.{rules}.audit.json"
        written_audit(SAMPLE, out[rules], rules=rules, nights=True)
    return out


def _index(audit: Path, kind: str, seat: int | None) -> int:
    findings = read(audit)["findings"]
    return next(i for i, f in enumerate(findings) if f["kind"] == kind and f["seat"] == seat)


def test_confirmed_findings_give_a_file_validate_accepts(capsys, audits, tmp_path) -> None:
    before = PROTOCOL.read_bytes()
    picks = [_index(audits["rfm"], k, s) for k, s in (("early_hand", 5), ("no_vote", 8), ("late_vote", 9), ("night_hand", 1))]
    out = tmp_path / "sample_game.corrected.protocol.json"
    code, stdout, err = run_cli(capsys, "correct", PROTOCOL, "--audit", audits["rfm"], "--confirm", *picks,
                             "--reason", "seen frame by frame", "--out", out)
    assert (code, err) == (0, "")
    assert "4 findings confirmed" in stdout and "valid under rfm" in stdout and "None" not in stdout
    assert run_cli(capsys, "validate", out)[0] == 0  # our own validator accepts the file a judge signs
    code, stdout, _ = run_cli(capsys, "replay", out, "--json")
    assert code == 0 and json.loads(stdout)["result"] == "red"
    data = read(out)
    assert {e["type"] for e in data["events"] if e.get("x_review")} == {"foul", "fine"}
    assert {c["reason"] for c in data["x_review"]["changes"] if c["finding"]} == {"seen frame by frame"}
    assert PROTOCOL.read_bytes() == before  # the original is never touched


def test_a_finding_that_cannot_be_applied_is_one_sentence_and_exit_1(capsys, audits, tmp_path) -> None:
    out = tmp_path / "c.json"
    code, stdout, err = run_cli(capsys, "correct", PROTOCOL, "--audit", audits["rfm"], "--confirm-all", "--out", out)
    assert code == 1 and stdout == "" and not out.exists()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith(".")
    i = _index(audits["rfm"], "night_hand", 5)
    assert f"{audits['rfm']}, finding {i}: The hand raised at night of seat 5 on night 2 (rfm 5.12.10)" in lines[0]
    assert "the game as played goes on with seat 5 after this removal (seat 7 nominating seat 5 on day 3: " in lines[0]
    assert "findings[" not in lines[0] and "events[" not in lines[0]


def test_mafclub_confirm_all_names_the_first_finding_and_how_many_more(capsys, audits, tmp_path) -> None:
    mafclub = json.loads(PROTOCOL.read_text(encoding="utf-8"))
    mafclub["rules"] = "mafclub"
    proto = tmp_path / "sample_game.protocol.json"
    proto.write_text(json.dumps(mafclub), encoding="utf-8")
    code, _, err = run_cli(capsys, "correct", proto, "--audit", audits["mafclub"], "--confirm-all", "--out", tmp_path / "c.json")
    assert code == 1 and "more cannot be applied either" in err and "None" not in err


@pytest.mark.parametrize(("argv", "words"), [
    (["--confirm", "99"], "--confirm 99"),
    (["--confirm", "two"], "whole number"),
    (["--confirm-all", "--confirm", "1"], "not allowed with"),
    ([], "required"),
])
def test_wrong_arguments_exit_2(capsys, audits, tmp_path, argv: list[str], words: str) -> None:
    code, _, err = run_cli(capsys, "correct", PROTOCOL, "--audit", audits["rfm"], *argv, "--out", tmp_path / "c.json")
    assert code == 2 and words in err and err.count("\n") == 1


def test_an_audit_under_other_rules_is_refused(capsys, audits, tmp_path) -> None:
    code, _, err = run_cli(capsys, "correct", PROTOCOL, "--audit", audits["mafclub"], "--confirm", "0", "--out", tmp_path / "c.json")
    assert code == 1 and "made under mafclub" in err and "--rules rfm" in err


def test_the_original_is_never_the_output(capsys, audits) -> None:
    before = PROTOCOL.read_bytes()
    code, _, err = run_cli(capsys, "correct", PROTOCOL, "--audit", audits["rfm"], "--confirm", "0", "--out", PROTOCOL)
    assert code == 2 and "never overwrites the protocol it reads" in err and PROTOCOL.read_bytes() == before


@pytest.mark.parametrize(("content", "words"), [
    ("{not json", "not valid JSON at line 1"),
    ('{"format": "stopframe-seats/1"}', "not an audit report"),
    ('{"format": "stopframe-audit/2", "findings": []}', "is not supported"),
    ('{"format": "stopframe-audit/1"}', "findings: missing"),
    ('{"format": "stopframe-audit/1", "findings": [{"kind": "hat"}]}', "findings[0]: not a finding"),
])
def test_an_unreadable_audit_report_exits_2(capsys, tmp_path, content: str, words: str) -> None:
    audit = tmp_path / "bad.audit.json"
    audit.write_text(content, encoding="utf-8")
    code, _, err = run_cli(capsys, "correct", PROTOCOL, "--audit", audit, "--confirm-all", "--out", tmp_path / "c.json")
    assert code == 2 and words in err and str(audit) in err


def test_an_audit_of_another_video_is_refused(capsys, audits, tmp_path) -> None:
    report = read(audits["rfm"])
    report["video"] = "other_game.mp4"
    audit = tmp_path / "other.audit.json"
    audit.write_text(json.dumps(report), encoding="utf-8")
    code, _, err = run_cli(capsys, "correct", PROTOCOL, "--audit", audit, "--confirm", "0", "--out", tmp_path / "c.json")
    assert code == 1 and "other_game.mp4" in err and "sample_game.mp4" in err
