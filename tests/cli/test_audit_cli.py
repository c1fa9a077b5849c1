"""`stopframe audit` from saved observations (no MediaPipe): output modes, exit codes, --batch."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from stopframe_cli.main import main

FIX = Path(__file__).parents[1] / "fixtures" / "audit"


def _args() -> list[str]:
    return [
        "audit", str(FIX / "day_vote.mp4"), "--protocol", str(FIX / "day_vote.protocol.json"),
        "--seats", str(FIX / "day_vote.seats.json"), "--observations", str(FIX / "day_vote.observations.json"),
    ]


def test_json_to_stdout_is_the_spec_report(capsys):
    assert main([*_args(), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "stopframe-audit/1" and data["video"] == "day_vote.mp4"
    assert {f["kind"] for f in data["findings"]} >= {"late_vote", "count_mismatch", "no_vote"}


def test_readable_table_by_default_and_progress_on_stderr(capsys):
    assert main(_args()) == 0
    out, err = capsys.readouterr()
    assert "late vote" in out and "rfm 4.4.7" in out and "CHANGED" in out
    assert not out.lstrip().startswith("{")
    assert "audit:" in err


def test_out_file_is_written_and_rules_override(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main([*_args(), "--rules", "showtime", "--out", str(out)]) == 0
    assert capsys.readouterr().out == ""
    data = json.loads(out.read_text())
    assert data["rules"] == "showtime"
    assert {f["clause"] for f in data["findings"] if f["kind"] == "late_vote"} == {"showtime ¶10"}


def test_a_sheet_without_times_is_said_not_audited_with_the_command_that_times_it(tmp_path, capsys):
    # a paper sheet typed in has counts but no times: a table of "0 findings" would read as a clean game, so the
    # table says the votes were not audited and how to time them from the judge's voice
    data = json.loads((FIX / "day_vote.protocol.json").read_text(encoding="utf-8"))
    for e in data["events"]:
        for name in ("t", "cutoff", "announced"):
            e.pop(name, None)
    untimed = tmp_path / "day_vote.protocol.json"
    untimed.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    args = _args()
    args[args.index("--protocol") + 1] = str(untimed)
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "votes are not on this video or have no times: not audited" in out
    assert "stopframe align VIDEO --protocol P --out TIMED.protocol.json" in out
    assert main(_args()) == 0 and "stopframe align" not in capsys.readouterr().out  # a timed game: no such line


def test_fail_on_findings_exits_1(capsys):
    assert main([*_args(), "--json", "--fail-on-findings"]) == 1


def test_unknown_profile_and_missing_files_are_one_sentence(tmp_path, capsys):
    assert main([*_args(), "--rules", "nope"]) == 2
    assert "nope" in capsys.readouterr().err
    args = _args()
    args[args.index("--seats") + 1] = str(tmp_path / "missing.seats.json")
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "missing.seats.json" in err and "Traceback" not in err
    assert main(["audit", "--protocol", str(FIX / "day_vote.protocol.json")]) == 2


def test_a_protocol_with_format_problems_is_refused(tmp_path, capsys):
    data = json.loads((FIX / "day_vote.protocol.json").read_text())
    data["events"][6]["candidate"] = 11
    bad = tmp_path / "bad.protocol.json"
    bad.write_text(json.dumps(data))
    args = _args()
    args[args.index("--protocol") + 1] = str(bad)
    assert main(args) == 1
    assert "events[6]" in capsys.readouterr().err


def _game(folder: Path, name: str, rules: str) -> None:
    data = json.loads((FIX / "day_vote.protocol.json").read_text())
    data["rules"] = rules
    (folder / f"{name}.protocol.json").write_text(json.dumps(data))
    shutil.copy(FIX / "day_vote.seats.json", folder / f"{name}.seats.json")
    shutil.copy(FIX / "day_vote.observations.json", folder / f"{name}.observations.json")


def test_batch_audits_every_game_in_parallel_with_a_summary(tmp_path, capsys):
    games = tmp_path / "games"
    games.mkdir()
    _game(games, "g1", "rfm")
    _game(games, "g2", "lvi2015")
    (games / "lonely.protocol.json").write_text("{}")  # no seat map: skipped with a note
    out = tmp_path / "reports"
    assert main(["audit", "--batch", str(games), "--jobs", "2", "--out", str(out), "--reuse-observations"]) == 0
    stdout, err = capsys.readouterr()
    assert "lonely" in err
    lines = stdout.splitlines()
    assert lines[0].split() == ["game", "votes", "total"]
    assert [ln.split()[0] for ln in lines[1:] if not ln.startswith(" ")] == ["g1", "g2"]
    assert "  late vote: 1" in lines and "late_vote" not in stdout
    r1 = json.loads((out / "g1.audit.json").read_text())
    r2 = json.loads((out / "g2.audit.json").read_text())
    assert r1["rules"] == "rfm" and r2["rules"] == "lvi2015"
    assert len(r1["findings"]) == 8 and len(r2["findings"]) == 7


def test_batch_of_an_empty_folder_is_an_error(tmp_path, capsys):
    assert main(["audit", "--batch", str(tmp_path)]) == 2
    assert "no game" in capsys.readouterr().err


@pytest.mark.parametrize("extra", [["--protocol", "x.json"], ["video.mp4"]])
def test_batch_takes_a_folder_only(tmp_path, capsys, extra):
    assert main(["audit", "--batch", str(tmp_path), *extra]) == 2


def test_the_judges_marks_sidecar_is_found_beside_the_protocol(tmp_path, capsys):
    data = json.loads((FIX / "day_vote.protocol.json").read_text())
    del data["events"][6]["cutoff"]  # the judge marked candidate 3's «Стоп» on the video instead
    (tmp_path / "g.protocol.json").write_text(json.dumps(data))
    (tmp_path / "g.marks.json").write_text(json.dumps({"format": "stopframe-marks/1", "marks": [{"event": 6, "cutoff": 11.52}]}))
    args = ["audit", "--protocol", str(tmp_path / "g.protocol.json"), "--seats", str(FIX / "day_vote.seats.json"),
            "--observations", str(FIX / "day_vote.observations.json"), "--json"]
    assert main(args) == 0
    late = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["kind"] == "late_vote"]
    assert late[0]["assumed_times"] == [] and late[0]["t"] == 11.52
    (tmp_path / "g.marks.json").unlink()  # without the marks the cutoff is assumed: t + 1.5 s
    assert main(args) == 0
    late = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["kind"] == "late_vote"]
    assert late[0]["assumed_times"] == ["cutoff"]
