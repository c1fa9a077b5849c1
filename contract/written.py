"""The files the command line wrote with --out, and what each held then, in the data folder.

Why: an --out may replace only the command's own earlier result, and a file's format alone cannot tell that: a
judge's protocol of another game, a club's game file or a JSON of notes look like Stopframe's outputs. A file is
Stopframe's own where this record has its path with the very bytes it holds now; one edited since, or never
written by Stopframe, is the judge's. The record is a small SQLite file beside the app's store.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import time
from pathlib import Path

from contract.data_folder import data_dir


def _record() -> sqlite3.Connection:
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(folder / "written.sqlite", timeout=30)
    con.execute("CREATE TABLE IF NOT EXISTS written (path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, at REAL NOT NULL)")
    return con


def _key_and_digest(path: str | os.PathLike[str]) -> tuple[str, str]:
    return os.path.realpath(path), hashlib.sha256(Path(path).read_bytes()).hexdigest()


def remember(path: str | os.PathLike[str]) -> None:
    """Record that Stopframe has just written `path`. A record that cannot be kept (a read-only home) costs only
    this: a later --out at that name is refused as the judge's file, never written over."""
    try:
        key, digest = _key_and_digest(path)
        with _record() as con:
            con.execute("INSERT OR REPLACE INTO written VALUES (?, ?, ?)", (key, digest, time.time()))
        con.close()
    except (OSError, sqlite3.Error):
        pass


def untouched(path: str | os.PathLike[str]) -> bool:
    """Whether `path` holds exactly what Stopframe last wrote there (False where it cannot be told)."""
    try:
        key, digest = _key_and_digest(path)
        con = _record()
        try:
            row = con.execute("SELECT sha256 FROM written WHERE path=?", (key,)).fetchone()
        finally:
            con.close()
    except (OSError, sqlite3.Error):
        return False
    return row is not None and row[0] == digest
