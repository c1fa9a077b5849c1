"""Protocol sheets under entry, in the decisions database (same SQLite file as review.cases.store, tables of their own).

Why a log of entries: every box the judge types is committed at once, so a closed tab, a crash or a reload loses
nothing; the sheet is its starting protocol with the log replayed (an undo is a row of its own that takes back the
entry before it), so undo survives a reload too. The log is append-only and a sheet's starting protocol never
changes, enforced by the database itself. The tables are created where missing, so an existing store gains them
without touching its decisions.

A draft from the video (review.cases.sheet_draft) is kept the same way: each draft the judge asks for is a row of
its own (the newest is the sheet's draft), and each proposal the judge accepts, edits or rejects is a row naming
it, committed together with the entry it makes; so the draft, costly to make, and the judge's choices on it
survive a reload, and a proposal is never decided twice (the undo of the entry it made reopens it, as a draft kept
again with the other choices on it). A rejection makes no entry, yet Undo takes it back like one: the newest of the
rejections on the draft and the entries standing is the one Undo takes back (by the time each was made), so a
rejection by a slip is reopened the same way, and never costs an earlier entry.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from contract.errors import StopframeError
from contract.i18n import _
from review.cases.sheet import Entry, Sheet
from review.cases.store import Store, append_only

SOURCES = ("new", "protocol", "polemica", "mafiaratings")
CHOICES = ("accepted", "edited", "rejected")  # what the judge made of a proposal; one without any is pending

_SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS sheets (
    sheet_id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('new', 'protocol', 'polemica', 'mafiaratings')),
    source_path TEXT,
    base TEXT NOT NULL,
    who TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sheet_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    sheet_id TEXT NOT NULL REFERENCES sheets (sheet_id),
    action TEXT NOT NULL CHECK (action IN ('enter', 'undo')),
    slot TEXT,
    text TEXT,
    who TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS sheet_log_by_sheet ON sheet_log (sheet_id, seq);
CREATE TRIGGER IF NOT EXISTS sheets_base_fixed BEFORE UPDATE OF base, source, source_path ON sheets
    BEGIN SELECT RAISE(ABORT, 'a sheet keeps the protocol it started from'); END;
CREATE TRIGGER IF NOT EXISTS sheets_no_delete BEFORE DELETE ON sheets
    BEGIN SELECT RAISE(ABORT, 'sheets are never deleted'); END;
CREATE TABLE IF NOT EXISTS sheet_drafts (
    draft_id INTEGER PRIMARY KEY AUTOINCREMENT,
    sheet_id TEXT NOT NULL REFERENCES sheets (sheet_id),
    draft TEXT NOT NULL,
    who TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS sheet_drafts_by_sheet ON sheet_drafts (sheet_id, draft_id);
CREATE TABLE IF NOT EXISTS sheet_draft_choices (
    draft_id INTEGER NOT NULL REFERENCES sheet_drafts (draft_id),
    slot TEXT NOT NULL,
    choice TEXT NOT NULL CHECK (choice IN ('accepted', 'edited', 'rejected')),
    line TEXT,
    who TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (draft_id, slot)
);
""" + append_only("sheet_log", "the sheet log") + append_only("sheet_drafts", "the drafts of a sheet") \
    + append_only("sheet_draft_choices", "the choices on a draft")


@dataclass(frozen=True)
class SavedSheet:
    """A sheet in the store, as a list of them shows it."""

    sheet_id: str
    title: str
    source: str
    source_path: str | None
    created: float
    changed: float
    entries: int


@dataclass(frozen=True)
class SavedDraft:
    """A sheet's newest draft as it was made (`draft`: the JSON the page keeps) and the judge's choice on each of
    its proposals so far: slot -> (accepted | edited | rejected, the line entered)."""

    draft_id: int
    draft: dict[str, Any]
    choices: dict[str, tuple[str, str | None]]
    who: str
    at: float


@dataclass(frozen=True)
class Undoable:
    """What Undo takes back now: the last entry standing (`kind` "entry", the box and its line), or the judge's
    rejection of the newest draft's proposal for a box, made after it (`kind` "rejected", `line` None)."""

    kind: str
    slot: str
    line: str | None


class SheetStore:
    """Start sheets, record each entry and undo as it is made, load a sheet as it stands; shares the file and
    connections of a review.cases.store.Store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        with store.reading() as con:
            con.executescript(_SCHEMA_SQL)

    def start(self, base: dict[str, Any], *, title: str, source: str, who: str,
              source_path: str | None = None) -> str:
        """A new sheet starting from `base`; its id."""
        if source not in SOURCES:
            raise ValueError(f"source must be one of {', '.join(SOURCES)}, not {source!r}")
        Sheet(base)  # a protocol the sheet cannot hold is refused (InvalidInput) before anything is stored
        sheet_id = secrets.token_hex(8)
        with self.store.transaction() as con:
            con.execute("INSERT INTO sheets VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (sheet_id, title.strip() or sheet_id, source, source_path, json.dumps(base, ensure_ascii=False),
                         who.strip(), time.time()))
        return sheet_id

    def load(self, sheet_id: str) -> Sheet:
        """The sheet as it stands: its starting protocol with every entry replayed and every undo applied."""
        with self.store.reading() as con:
            return self._load(con, sheet_id)

    def _load(self, con: sqlite3.Connection, sheet_id: str) -> Sheet:
        return self._replayed(con, sheet_id)[0]

    def _replayed(self, con: sqlite3.Connection, sheet_id: str) -> tuple[Sheet, list[float]]:
        """The sheet its log makes (an undo takes back the last entry standing), and when each entry standing was
        made: Undo weighs that against the newest rejection."""
        row = con.execute("SELECT base FROM sheets WHERE sheet_id=?", (sheet_id,)).fetchone()
        log = con.execute("SELECT action, slot, text, at FROM sheet_log WHERE sheet_id=? ORDER BY seq",
                          (sheet_id,)).fetchall()
        if row is None:
            raise StopframeError(_("{path}: no protocol sheet {sheet} is kept there.", path=self.store.path, sheet=sheet_id), 1)
        entries: list[Entry] = []
        made: list[float] = []
        for action, slot, text, at in log:
            if action == "enter":
                entries.append(Entry(slot, text))
                made.append(at)
            elif entries:
                entries.pop()
                made.pop()
        return Sheet(json.loads(row[0]), entries), made

    def enter(self, sheet_id: str, slot: str, text: str, *, who: str) -> Sheet:
        """Record `text` typed into the box `slot` (nothing when the box already reads so); the sheet after it."""
        sheet = self.load(sheet_id)
        if sheet.enter(slot, text):
            self._log(sheet_id, "enter", slot, text.strip(), who)
        return sheet

    def undo(self, sheet_id: str, *, who: str) -> Sheet:
        """Take back what the judge did last (nothing when there is none); the sheet after it. That is the sheet's
        last entry standing, or a rejection of the newest draft's proposal made after it: a rejected proposal is
        pending again, no entry taken back. An entry a proposal of the newest draft made (accepted, or edited) takes
        its choice back with it: the proposal is pending again, so a slip of «Accept» or «Reject» is undone like a
        slip of the keyboard."""
        with self.store.transaction() as con:
            sheet, made = self._replayed(con, sheet_id)
            saved = self._draft(con, sheet_id)
            then = self._undoable(sheet, made, saved, con)
            if then is None:
                return sheet
            if then.kind == "rejected" and saved is not None:
                self._reopen(con, sheet_id, saved.draft_id, then.slot)
                return sheet
            undone = sheet.undo()
            if undone is None:
                return sheet
            self._log(sheet_id, "undo", None, None, who, con)
            choice = saved.choices.get(undone.slot) if saved is not None else None
            if saved is not None and choice is not None and choice[0] != "rejected" and choice[1] == undone.text:
                self._reopen(con, sheet_id, saved.draft_id, undone.slot)
        return sheet

    def to_undo(self, sheet_id: str) -> Undoable | None:
        """What Undo would take back now (None: nothing)."""
        with self.store.reading() as con:
            return self._undoable(*self._replayed(con, sheet_id), self._draft(con, sheet_id), con)

    def _undoable(self, sheet: Sheet, made: list[float], saved: SavedDraft | None,
                  con: sqlite3.Connection) -> Undoable | None:
        """The newer of the sheet's last entry standing (made when `made` says) and the newest rejection on its
        newest draft."""
        rejected = con.execute("SELECT slot, at FROM sheet_draft_choices WHERE draft_id=? AND choice='rejected' "
                               "ORDER BY at DESC LIMIT 1", (saved.draft_id,)).fetchone() if saved is not None else None
        if rejected is not None and (not made or rejected[1] > made[-1]):
            return Undoable("rejected", rejected[0], None)
        if sheet.entries:
            return Undoable("entry", sheet.entries[-1].slot, sheet.entries[-1].text)
        return None

    def _reopen(self, con: sqlite3.Connection, sheet_id: str, draft_id: int, slot: str) -> None:
        """Make the proposal for `slot` pending again. The drafts and choices are append-only: the draft is kept
        again as it was (its maker and time), with every other choice on it as it was."""
        cur = con.execute("INSERT INTO sheet_drafts (sheet_id, draft, who, at) SELECT sheet_id, draft, who, at "
                          "FROM sheet_drafts WHERE draft_id=?", (draft_id,))
        con.execute("INSERT INTO sheet_draft_choices (draft_id, slot, choice, line, who, at) SELECT ?, slot, choice, "
                    "line, who, at FROM sheet_draft_choices WHERE draft_id=? AND slot<>?", (cur.lastrowid, draft_id, slot))

    def _log(self, sheet_id: str, action: str, slot: str | None, text: str | None, who: str,
             con: sqlite3.Connection | None = None) -> None:
        if con is None:
            with self.store.transaction() as own:
                self._log(sheet_id, action, slot, text, who, own)
            return
        con.execute("INSERT INTO sheet_log (sheet_id, action, slot, text, who, at) VALUES (?, ?, ?, ?, ?, ?)",
                    (sheet_id, action, slot, text, who.strip(), time.time()))

    # -- the draft from the video ------------------------------------------------------------------------
    def keep_draft(self, sheet_id: str, draft: Mapping[str, Any], *, who: str) -> int:
        """Keep a new draft of the sheet (its proposals all pending); it replaces the one before. Its id."""
        with self.store.transaction() as con:
            if con.execute("SELECT 1 FROM sheets WHERE sheet_id=?", (sheet_id,)).fetchone() is None:
                raise StopframeError(_("{path}: no protocol sheet {sheet} is kept there.", path=self.store.path,
                                       sheet=sheet_id), 1)
            cur = con.execute("INSERT INTO sheet_drafts (sheet_id, draft, who, at) VALUES (?, ?, ?, ?)",
                              (sheet_id, json.dumps(draft, ensure_ascii=False), who.strip(), time.time()))
            return int(cur.lastrowid or 0)

    def draft(self, sheet_id: str) -> SavedDraft | None:
        """The sheet's newest draft with the judge's choices on it; None before the judge first asks for one."""
        with self.store.reading() as con:
            return self._draft(con, sheet_id)

    def _draft(self, con: sqlite3.Connection, sheet_id: str) -> SavedDraft | None:
        row = con.execute("SELECT draft_id, draft, who, at FROM sheet_drafts WHERE sheet_id=? ORDER BY draft_id DESC "
                          "LIMIT 1", (sheet_id,)).fetchone()
        if row is None:
            return None
        choices = con.execute("SELECT slot, choice, line FROM sheet_draft_choices WHERE draft_id=?",
                              (row[0],)).fetchall()
        return SavedDraft(row[0], json.loads(row[1]), {slot: (choice, line) for slot, choice, line in choices},
                          row[2], row[3])

    def choose(self, sheet_id: str, slot: str, choice: str, *, who: str, line: str | None = None) -> Sheet:
        """The judge's choice on the newest draft's proposal for the box `slot`: `accepted` or `edited` enter
        `line` into that box (the entry and the choice are one commit), `rejected` enters nothing. A proposal
        already chosen on, or not in the draft, is left as it is. The sheet after it."""
        if choice not in CHOICES:
            raise ValueError(f"choice must be one of {', '.join(CHOICES)}, not {choice!r}")
        with self.store.transaction() as con:
            sheet = self._load(con, sheet_id)
            saved = self._draft(con, sheet_id)
            offered = {str(p.get("slot")) for p in (saved.draft.get("proposals") or [])} if saved else set()
            if saved is None or slot not in offered or slot in saved.choices:
                return sheet
            text = (line or "").strip()
            if choice != "rejected" and sheet.enter(slot, text):
                self._log(sheet_id, "enter", slot, text, who, con)
            con.execute("INSERT INTO sheet_draft_choices (draft_id, slot, choice, line, who, at) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (saved.draft_id, slot, choice, text if choice != "rejected" else None, who.strip(), time.time()))
        return sheet

    def sheets(self) -> list[SavedSheet]:
        """Every sheet, the one changed last first."""
        with self.store.reading() as con:
            rows = con.execute(
                "SELECT s.sheet_id, s.title, s.source, s.source_path, s.created, "
                "COALESCE(MAX(l.at), s.created), COUNT(l.seq) FROM sheets s LEFT JOIN sheet_log l "
                "ON l.sheet_id = s.sheet_id GROUP BY s.sheet_id ORDER BY 6 DESC").fetchall()
        return [SavedSheet(*r) for r in rows]

    def history(self, sheet_id: str) -> list[dict[str, Any]]:
        """Every entry and undo of a sheet, oldest first (who typed what, when)."""
        with self.store.reading() as con:
            rows = con.execute("SELECT action, slot, text, who, at FROM sheet_log WHERE sheet_id=? ORDER BY seq",
                               (sheet_id,)).fetchall()
        return [dict(zip(("action", "slot", "text", "who", "at"), r, strict=True)) for r in rows]
