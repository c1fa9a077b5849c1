"""The judges' decisions on audit findings, kept in SQLite so a review survives restarts and crashes.

Why SQLite with WAL and one transaction per write: a judge's confirmed decision must never be lost to a
crash or a second app session. Every change is committed atomically together with its audit-trail row,
and every decision carries a version: a judge saving over a decision they did not see gets a
ConflictError instead of silently overwriting it (optimistic concurrency).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract.data_folder import data_dir
from contract.errors import StopframeError, UnreadableInput
from contract.i18n import LANGUAGES, N_, _, term
from contract.outputs import os_reason
from review.audit.findings import Finding, finding_key

STATUSES = ("confirmed", "rejected", "edited")
# 2: decisions are keyed by review.audit.findings.finding_key (1 keyed a finding with a day and a night as a night one).
SCHEMA_VERSION = 2


def append_only(table: str, what: str) -> str:
    """SQL triggers that make the database itself refuse to change or delete a table's rows."""
    return "".join(_APPEND_ONLY_SQL.format(table=table, verb=verb, lower=verb.lower(), what=what)
                   for verb in ("UPDATE", "DELETE"))


_APPEND_ONLY_SQL = """CREATE TRIGGER IF NOT EXISTS {table}_no_{lower} BEFORE {verb} ON {table}
    BEGIN SELECT RAISE(ABORT, '{what} is append-only'); END;
"""
_SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    protocol_path TEXT,
    video_path TEXT,
    seats_path TEXT,
    profile TEXT,
    last_opened REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS decisions (
    game_id TEXT NOT NULL,
    finding_key TEXT NOT NULL,
    finding TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('confirmed', 'rejected', 'edited')),
    edited TEXT,
    reason TEXT NOT NULL,
    who TEXT NOT NULL,
    at REAL NOT NULL,
    version INTEGER NOT NULL,
    PRIMARY KEY (game_id, finding_key)
);
CREATE TABLE IF NOT EXISTS trail (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL,
    finding_key TEXT NOT NULL,
    action TEXT NOT NULL,
    status TEXT,
    edited TEXT,
    reason TEXT NOT NULL,
    who TEXT NOT NULL,
    at REAL NOT NULL,
    version INTEGER NOT NULL
);
""" + append_only("trail", "the audit trail")
_SCHEMA_V1_SQL = "SELECT value FROM meta WHERE key='schema'"
_INIT_SQL = "INSERT OR IGNORE INTO meta VALUES ('schema', ?)"
_PRAGMAS_SQL = ("PRAGMA journal_mode=WAL",
                "PRAGMA synchronous=FULL",  # a committed decision is on disk, not only in the WAL cache
                "PRAGMA foreign_keys=ON")
_BEGIN_SQL = "BEGIN IMMEDIATE"
_CURRENT_SQL = "SELECT version, status, who, at FROM decisions WHERE game_id=? AND finding_key=?"
_DECIDE_SQL = ("INSERT INTO decisions (game_id, finding_key, finding, status, edited, reason, who, at, version) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(game_id, finding_key) DO UPDATE SET "
               "finding=excluded.finding, status=excluded.status, edited=excluded.edited, reason=excluded.reason, "
               "who=excluded.who, at=excluded.at, version=excluded.version")
_TRAIL_DECIDE_SQL = ("INSERT INTO trail (game_id, finding_key, action, status, edited, reason, who, at, version) "
                     "VALUES (?, ?, 'decide', ?, ?, ?, ?, ?, ?)")
_WITHDRAW_SQL = "DELETE FROM decisions WHERE game_id=? AND finding_key=?"
_TRAIL_WITHDRAW_SQL = ("INSERT INTO trail (game_id, finding_key, action, status, edited, reason, who, at, version) "
                       "VALUES (?, ?, 'withdraw', NULL, NULL, ?, ?, ?, ?)")
_DECISION_SQL = "SELECT * FROM decisions WHERE game_id=? AND finding_key=?"
_DECISIONS_SQL = "SELECT * FROM decisions WHERE game_id=? ORDER BY at"
_TRAIL_SQL = "SELECT * FROM trail WHERE game_id=? ORDER BY seq"
_REMEMBER_SQL = ("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(game_id) DO UPDATE SET title=excluded.title, "
                 "protocol_path=excluded.protocol_path, video_path=excluded.video_path, seats_path=excluded.seats_path, "
                 "profile=excluded.profile, last_opened=excluded.last_opened")
_RECENT_SQL = "SELECT * FROM games ORDER BY last_opened DESC LIMIT ?"
_META_SQL = "SELECT value FROM meta WHERE key=?"
_SET_META_SQL = "INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value"
_INTEGRITY_SQL = "PRAGMA integrity_check"
_ALL_DECISIONS_SQL = "SELECT game_id, finding_key, finding FROM decisions"
_REKEY_SQL = "UPDATE decisions SET finding_key=? WHERE game_id=? AND finding_key=?"
_SCHEMA_VERSION_SQL = "UPDATE meta SET value=? WHERE key='schema'"

_LANGUAGE_KEY = "language:"  # meta rows "language:<judge's name>" -> ru | en
_LAST_JUDGE_KEY = "last_judge"  # meta row: the name last given in the app on this computer


class ConflictError(StopframeError):
    """Another judge changed the decision since this judge loaded it; nothing was written."""


def default_db_path() -> Path:
    return data_dir() / "stopframe.sqlite"


def game_id_for(protocol_data: Mapping[str, Any], protocol_path: str | os.PathLike[str] | None) -> str:
    """Which game decisions belong to: the protocol's own game id (with tournament and date) when it has
    one, so moving the files keeps the decisions; otherwise the protocol file's absolute path."""
    game = protocol_data.get("game") if isinstance(protocol_data.get("game"), Mapping) else {}
    if game and game.get("id"):
        return "game:" + "|".join(str(game.get(k) or "") for k in ("tournament", "date", "table", "id"))
    if protocol_path is not None:
        return "path:" + str(Path(protocol_path).resolve())
    digest = hashlib.sha256(json.dumps(protocol_data, sort_keys=True, default=str).encode()).hexdigest()
    return "sha256:" + digest[:16]


@dataclass(frozen=True)
class Decision:
    """The current decision on one finding of one game.

    `edited` is what the judge changed, as the JSON fields they changed (`count` for a miscount too)."""

    game_id: str
    finding_key: str
    finding: Finding
    status: str
    edited: dict[str, Any] | None
    reason: str
    who: str
    at: float
    version: int

    @property
    def effective_finding(self) -> Finding:
        """The finding as the judge decided it: the audit's fields with the judge's edits applied."""
        merged = self.finding.to_json()
        for key, value in (self.edited or {}).items():
            if key == "consequence" and isinstance(value, Mapping):
                merged["consequence"] = {**merged["consequence"], **value}
            else:
                merged[key] = value
        return Finding.from_json(merged)

    @property
    def stands(self) -> bool:
        """True when the judge accepted the finding (as found or as edited)."""
        return self.status in ("confirmed", "edited")


@dataclass(frozen=True)
class RecentGame:
    game_id: str
    title: str
    protocol_path: str | None
    video_path: str | None
    seats_path: str | None
    profile: str | None
    last_opened: float


# SQLite's own reasons are English ("file is not a database"): the words of each a judge can meet
_SQLITE_REASONS = (("not a database", N_("the file holds something other than a database")),
                   ("malformed", N_("the database is damaged")),
                   ("locked", N_("another program is writing to it; try again in a moment")),
                   ("readonly", N_("no right to write there")),
                   ("unable to open", N_("the file cannot be opened")))


def sqlite_reason(exc: sqlite3.DatabaseError) -> str:
    """Why SQLite refused the file, in the judge's words; its own phrase only for a reason nobody has met."""
    said = str(exc)
    return next((_(words) for key, words in _SQLITE_REASONS if key in said), said)


class Store:
    """Decisions, the audit trail and recent games in one SQLite file (WAL, one transaction per write).

    A connection is opened per operation, so one Store may be shared by Streamlit's threads and several
    processes may use the same file; SQLite serialises the writers."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, busy_timeout_s: float = 10.0) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self.busy_timeout_s = busy_timeout_s
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UnreadableInput(_("{path}: cannot create the data folder: {why}.", path=self.path.parent,
                                    why=os_reason(exc))) from exc
        with self.reading() as con:
            try:
                con.executescript(_SCHEMA_SQL)  # every statement is idempotent (IF NOT EXISTS)
            except sqlite3.DatabaseError as exc:
                raise UnreadableInput(_("{path}: not a Stopframe decisions database: {why}.", path=self.path,
                                        why=sqlite_reason(exc))) from exc
        with self.transaction() as con:
            con.execute(_INIT_SQL, (str(SCHEMA_VERSION),))
            if con.execute(_SCHEMA_V1_SQL).fetchone()[0] == "1":
                _rekey_decisions(con)

    # -- connections -------------------------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        try:
            con = sqlite3.connect(self.path, timeout=self.busy_timeout_s, isolation_level=None)
            for pragma in _PRAGMAS_SQL:
                con.execute(pragma)
        except sqlite3.DatabaseError as exc:
            raise UnreadableInput(_("{path}: cannot open the decisions database: {why}.", path=self.path,
                                    why=sqlite_reason(exc))) from exc
        return con

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken up front (BEGIN IMMEDIATE) so a check-then-write cannot race."""
        con = self._connect()
        try:
            con.execute(_BEGIN_SQL)
            try:
                yield con
            except BaseException:
                con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")
        finally:
            con.close()

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        con = self._connect()
        try:
            yield con
        finally:
            con.close()

    # -- decisions ---------------------------------------------------------------------------------------
    def decide(
        self,
        game_id: str,
        finding: Finding,
        status: str,
        *,
        reason: str,
        who: str,
        expected_version: int,
        edited: Mapping[str, Any] | None = None,
    ) -> Decision:
        """Record a judge's decision on a finding.

        `expected_version` is the version the judge was looking at (0 when they saw no decision). If the
        stored decision has moved on since, nothing is written and ConflictError says who changed it."""
        if status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}, not {status!r}")
        if not reason.strip():
            raise StopframeError(_("Give a reason for the decision."), 1)
        if not who.strip():
            raise StopframeError(_("Say who decides (the judge's name)."), 1)
        if status == "edited" and not edited:
            raise StopframeError(_("An edited decision needs the fields the judge changed."), 1)
        key = finding_key(finding)
        now = time.time()
        edited_text = json.dumps(dict(edited), ensure_ascii=False, sort_keys=True) if edited else None
        with self.transaction() as con:
            row = con.execute(_CURRENT_SQL, (game_id, key)).fetchone()
            current = row[0] if row else 0
            if current != expected_version:
                raise ConflictError(_conflict_message(finding, row, expected_version))
            version = current + 1
            con.execute(
                _DECIDE_SQL,
                (game_id, key, json.dumps(finding.to_json(), ensure_ascii=False), status, edited_text, reason, who, now, version),
            )
            con.execute(_TRAIL_DECIDE_SQL, (game_id, key, status, edited_text, reason, who, now, version))
        return Decision(game_id, key, finding, status, dict(edited) if edited else None, reason, who,
                        now, version)

    def withdraw(self, game_id: str, finding: Finding, *, reason: str, who: str, expected_version: int) -> None:
        """Take a decision back (the finding is open again); the trail keeps what it was."""
        key = finding_key(finding)
        with self.transaction() as con:
            row = con.execute(_CURRENT_SQL, (game_id, key)).fetchone()
            if row is None or row[0] != expected_version:
                raise ConflictError(_conflict_message(finding, row, expected_version))
            con.execute(_WITHDRAW_SQL, (game_id, key))
            con.execute(_TRAIL_WITHDRAW_SQL, (game_id, key, reason, who, time.time(), row[0] + 1))

    def decision(self, game_id: str, finding: Finding) -> Decision | None:
        with self.reading() as con:
            row = con.execute(_DECISION_SQL, (game_id, finding_key(finding))).fetchone()
        return _decision(row) if row else None

    def decisions(self, game_id: str) -> dict[str, Decision]:
        """Every current decision of a game, by finding key."""
        with self.reading() as con:
            rows = con.execute(_DECISIONS_SQL, (game_id,)).fetchall()
        return {r[1]: _decision(r) for r in rows}

    def trail(self, game_id: str) -> list[dict[str, Any]]:
        """The append-only history of every change to the game's decisions, oldest first."""
        with self.reading() as con:
            con.row_factory = sqlite3.Row
            rows = con.execute(_TRAIL_SQL, (game_id,)).fetchall()
        out = []
        for r in rows:
            item = dict(r)
            item["edited"] = json.loads(item["edited"]) if item["edited"] else None
            out.append(item)
        return out

    # -- recent games ------------------------------------------------------------------------------------
    def remember_game(
        self,
        game_id: str,
        title: str,
        *,
        protocol_path: str | None,
        video_path: str | None,
        seats_path: str | None,
        profile: str | None,
    ) -> None:
        with self.transaction() as con:
            con.execute(
                _REMEMBER_SQL,
                (game_id, title, protocol_path, video_path, seats_path, profile, time.time()),
            )

    def recent_games(self, limit: int = 10) -> list[RecentGame]:
        with self.reading() as con:
            rows = con.execute(_RECENT_SQL, (limit,)).fetchall()
        return [RecentGame(*r) for r in rows]

    # -- each judge's language -----------------------------------------------------------------------------
    def judge_language(self, judge: str) -> str | None:
        """The language `judge` last chose in the app (ru, en), or None if they never chose one."""
        with self.reading() as con:
            row = con.execute(_META_SQL, (_LANGUAGE_KEY + judge.strip(),)).fetchone()
        return row[0] if row and row[0] in LANGUAGES else None

    def last_judge(self) -> str | None:
        """The name last given in the app here (None: none yet): a reload or a new tab starts with it."""
        with self.reading() as con:
            row = con.execute(_META_SQL, (_LAST_JUDGE_KEY,)).fetchone()
        return row[0] if row and row[0] else None

    def set_last_judge(self, judge: str) -> None:
        with self.transaction() as con:
            con.execute(_SET_META_SQL, (_LAST_JUDGE_KEY, judge.strip()))

    def set_judge_language(self, judge: str, lang: str) -> None:
        """Remember the language `judge` reads the app in, so it opens in it next time they give their name."""
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}")
        with self.transaction() as con:
            con.execute(_SET_META_SQL, (_LANGUAGE_KEY + judge.strip(), lang))

    def integrity_ok(self) -> bool:
        with self.reading() as con:
            return con.execute(_INTEGRITY_SQL).fetchone()[0] == "ok"


def _rekey_decisions(con: sqlite3.Connection) -> None:
    """Schema 1 -> 2: key every stored decision by today's finding_key, computed from the finding kept in
    its row, so no judge's decision is lost to the change of identity (the trail keeps the keys it had)."""
    rows = con.execute(_ALL_DECISIONS_SQL).fetchall()
    taken = {(game_id, key) for game_id, key, _ in rows}
    for game_id, key, finding in rows:
        new = finding_key(Finding.from_json(json.loads(finding)))
        if new != key and (game_id, new) not in taken:
            con.execute(_REKEY_SQL, (new, game_id, key))
            taken.add((game_id, new))
    con.execute(_SCHEMA_VERSION_SQL, (str(SCHEMA_VERSION),))


def _decision(row: tuple) -> Decision:
    game_id, key, finding, status, edited, reason, who, at, version = row
    return Decision(game_id, key, Finding.from_json(json.loads(finding)), status, json.loads(edited) if edited else None,
                    reason, who, at, version)


def _conflict_message(finding: Finding, row: tuple | None, expected: int) -> str:
    what = f"{term('kind', finding.kind)} ({_('seat {seat}', seat=finding.seat)})"
    if row is None:
        return _("The decision on {finding} was withdrawn by another judge after you loaded it; nothing was saved — "
                 "reload and decide again.", finding=what)
    version, status, who, at = row
    when = time.strftime("%H:%M:%S", time.localtime(at))
    seen = _("no decision") if expected == 0 else _("version {version}", version=expected)
    return _("{who} already decided {finding} as {status} at {when} (you were looking at {seen}); nothing was saved — "
             "reload to see their decision, then decide again.", who=who, finding=what, status=term("status", status),
             when=when, seen=seen)
