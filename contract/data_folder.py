"""Where the app and the command line keep what is theirs: the judges' decisions, sheets, caches and the record of
the files the command line wrote. One place, so every layer finds the same folder."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The data folder: $STOPFRAME_DATA, else ~/.stopframe — never inside the repository."""
    env = os.environ.get("STOPFRAME_DATA")
    return Path(env).expanduser() if env else Path.home() / ".stopframe"
