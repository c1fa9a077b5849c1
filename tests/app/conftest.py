"""What every app test shares: a data folder of its own, so no test reads or writes the machine's database."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("STOPFRAME_DATA", str(tmp_path / "data"))
    return tmp_path / "data"
