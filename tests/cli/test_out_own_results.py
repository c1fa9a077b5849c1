"""--out replaces only what Stopframe itself wrote there and nobody changed since: a judge's protocol of another
game, a club's game file or a file edited after Stopframe wrote it is refused (exit 2) and kept as it was."""

from __future__ import annotations

import shutil
from pathlib import Path

from clirun import run_cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "import"
SAMPLE = Path(__file__).resolve().parents[2] / "sample_videos" / "game" / "sample_game.protocol.json"


def test_an_import_never_replaces_the_judges_protocol_of_another_game(capsys, tmp_path: Path) -> None:
    judges = tmp_path / "table1.protocol.json"
    shutil.copy(SAMPLE, judges)  # a protocol the judge made elsewhere: the same format as an import's result
    before = judges.read_bytes()
    code, _, err = run_cli(capsys, "import", "polemica", FIXTURES / "polemica_game.json", "--out", judges)
    assert code == 2 and judges.read_bytes() == before
    assert "did not write" in err and str(judges) in err


def test_a_rerun_replaces_its_own_result_until_the_judge_edits_it(capsys, tmp_path: Path) -> None:
    out = tmp_path / "imported.protocol.json"
    for _ in range(2):  # the command's own earlier result, as it left it: replaced
        assert run_cli(capsys, "import", "polemica", FIXTURES / "polemica_game.json", "--out", out)[0] == 0
    edited = out.read_text(encoding="utf-8") + "\n"  # the judge opened it in an editor and saved it
    out.write_text(edited, encoding="utf-8")
    code, _, err = run_cli(capsys, "import", "polemica", FIXTURES / "polemica_game.json", "--out", out)
    assert code == 2 and out.read_text(encoding="utf-8") == edited and "changed since" in err


def test_a_club_file_of_the_judges_is_never_replaced_by_a_report(capsys, tmp_path: Path) -> None:
    """A Polemica file is a JSON object without "format", as a report is: its format alone cannot tell them apart."""
    club = tmp_path / "polemica_game.json"
    shutil.copy(FIXTURES / "polemica_game.json", club)
    before = club.read_bytes()
    code, _, err = run_cli(capsys, "validate", SAMPLE, "--out", club)
    assert code == 2 and club.read_bytes() == before
