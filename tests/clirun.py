"""The `stopframe` command line run in-process, as the CLI tests call it."""

from __future__ import annotations

import pytest

from stopframe_cli.main import main


def run_cli(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of one command; a traceback on either stream fails the test."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err
