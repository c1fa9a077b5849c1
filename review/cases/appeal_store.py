"""Appeal cases in the decisions database (same SQLite file as review.cases.store, its own tables).

Why these rules: an appeal's decision may change a tournament's standings, so it must survive restarts,
never be silently overwritten and never be edited after the fact. An open case is saved with optimistic
concurrency (the version the judge was looking at); deciding checks the profile's preconditions and
makes the case read-only — the database itself refuses to change a decided case — and a later change
of mind is an amendment, a new record beside the decision. Every action lands in an append-only log.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from dataclasses import asdict, dataclass, replace
from typing import Any

from contract.errors import StopframeError
from contract.i18n import _
from review.cases.appeals import AppealCase, Decision, checks, decision_from_json, require
from review.cases.store import ConflictError, Store, append_only

_SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS appeals (
    case_id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'decided')),
    data TEXT NOT NULL,
    version INTEGER NOT NULL,
    opened_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS appeal_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('open', 'update', 'decide', 'amend')),
    data TEXT NOT NULL,
    who TEXT NOT NULL,
    at REAL NOT NULL,
    version INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS appeal_decided_read_only BEFORE UPDATE ON appeals WHEN OLD.status = 'decided'
    BEGIN SELECT RAISE(ABORT, 'a decided appeal is read-only: record an amendment'); END;
CREATE TRIGGER IF NOT EXISTS appeal_no_delete BEFORE DELETE ON appeals
    BEGIN SELECT RAISE(ABORT, 'appeal cases are never deleted'); END;
""" + append_only("appeal_log", "the appeal log")
_OPEN_SQL = "INSERT INTO appeals VALUES (?, ?, 'open', ?, 1, ?)"
_SAVE_SQL = "UPDATE appeals SET data=?, version=? WHERE case_id=?"
_DECIDE_SQL = "UPDATE appeals SET data=?, version=?, status='decided' WHERE case_id=?"
_LOG_COUNT_SQL = "SELECT COUNT(*) FROM appeal_log WHERE case_id=?"
_CASES_SQL = "SELECT data FROM appeals WHERE game_id=? ORDER BY opened_at"
_HISTORY_SQL = "SELECT * FROM appeal_log WHERE case_id=? ORDER BY seq"
_LOG_SQL = "INSERT INTO appeal_log (case_id, action, data, who, at, version) VALUES (?, ?, ?, ?, ?, ?)"
_CASE_SQL = "SELECT data FROM appeals WHERE case_id=?"


@dataclass(frozen=True)
class Amendment:
    """A change to a decided case, recorded after it (the decision itself stays as it was)."""

    decision: Decision
    who: str
    at: float


class AppealStore:
    """Open, argue, decide and amend appeal cases; shares the file and connections of a review.cases.store.Store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        with store.reading() as con:
            con.executescript(_SCHEMA_SQL)

    def open_case(self, case: AppealCase, *, who: str) -> AppealCase:
        """Store a new case (it gets an id and version 1)."""
        _need_name(who)
        if not case.claim.strip():
            raise StopframeError(_("Say what the appeal claims."), 1)
        case = replace(case, case_id=case.case_id or _new_id(), status="open", decision=None, version=1)
        with self.store.transaction() as con:
            con.execute(_OPEN_SQL, (case.case_id, case.game_id, _dump(case.to_json()), time.time()))
            _log(con, case.case_id, "open", case.to_json(), who, 1)
        return case

    def save(self, case: AppealCase, *, who: str) -> AppealCase:
        """Save changes to an open case made from `case.version`; ConflictError if someone saved meanwhile."""
        _need_name(who)
        with self.store.transaction() as con:
            current = _current(con, case.case_id)
            _same_version(current, case)
            saved = replace(case, version=current.version + 1, status="open", decision=None)
            con.execute(_SAVE_SQL, (_dump(saved.to_json()), saved.version, case.case_id))
            _log(con, case.case_id, "update", saved.to_json(), who, saved.version)
        return saved

    def decide(self, case: AppealCase, decision: Decision, *, roles: dict[int, str | None] | None = None,
               protocol_winner: str | None = None) -> AppealCase:
        """Record the decision if every blocking precondition holds; the case is read-only from then on."""
        require(checks(case, decision, roles, protocol_winner))
        with self.store.transaction() as con:
            current = _current(con, case.case_id)
            _same_version(current, case)
            decided = replace(case, status="decided", decision=decision, version=current.version + 1)
            con.execute(_DECIDE_SQL, (_dump(decided.to_json()), decided.version, case.case_id))
            _log(con, case.case_id, "decide", asdict(decision), decision.decided_by, decided.version)
        return decided

    def amend(self, case_id: str, decision: Decision, *, roles: dict[int, str | None] | None = None,
              protocol_winner: str | None = None) -> Amendment:
        """A new decision on a decided case, checked like the first; the original decision is kept."""
        with self.store.reading() as con:
            case = _current(con, case_id)
        if case.status != "decided":
            raise StopframeError(_("Only a decided case is amended; decide this one first."), 1)
        require(checks(case, decision, roles, protocol_winner))
        with self.store.transaction() as con:
            n = con.execute(_LOG_COUNT_SQL, (case_id,)).fetchone()[0]
            _log(con, case_id, "amend", asdict(decision), decision.decided_by, n + 1)
        return Amendment(decision, decision.decided_by, decision.decided_at)

    def case(self, case_id: str) -> AppealCase:
        with self.store.reading() as con:
            return _current(con, case_id)

    def cases(self, game_id: str) -> list[AppealCase]:
        with self.store.reading() as con:
            rows = con.execute(_CASES_SQL, (game_id,)).fetchall()
        return [AppealCase.from_json(json.loads(r[0])) for r in rows]

    def amendments(self, case_id: str) -> list[Amendment]:
        return [Amendment(decision_from_json(r["data"]), r["who"], r["at"])
                for r in self.history(case_id) if r["action"] == "amend"]

    def in_force(self, case_id: str) -> Decision | None:
        """The decision that holds now: the latest amendment, else the decision."""
        amendments = self.amendments(case_id)
        return amendments[-1].decision if amendments else self.case(case_id).decision

    def history(self, case_id: str) -> list[dict[str, Any]]:
        """Every action on the case, oldest first (open, updates, the decision, amendments)."""
        with self.store.reading() as con:
            con.row_factory = sqlite3.Row
            rows = con.execute(_HISTORY_SQL, (case_id,)).fetchall()
        return [{**dict(r), "data": json.loads(r["data"])} for r in rows]


def _new_id() -> str:
    return time.strftime("A%Y%m%d-") + secrets.token_hex(3)


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def _need_name(who: str) -> None:
    if not who.strip():
        raise StopframeError(_("Say who records this (the judge's name)."), 1)


def _log(con: sqlite3.Connection, case_id: str, action: str, data: Any, who: str, version: int) -> None:
    con.execute(_LOG_SQL, (case_id, action, _dump(data), who, time.time(), version))


def _current(con: sqlite3.Connection, case_id: str) -> AppealCase:
    row = con.execute(_CASE_SQL, (case_id,)).fetchone()
    if row is None:
        raise StopframeError(_("There is no appeal case {case}.", case=repr(case_id)), 1)
    return AppealCase.from_json(json.loads(row[0]))


def _same_version(current: AppealCase, mine: AppealCase) -> None:
    if current.status == "decided":
        raise StopframeError(_("Case {case} is decided and read-only; record an amendment instead.",
                               case=current.case_id), 1)
    if current.version != mine.version:
        raise ConflictError(_("Case {case} was saved by someone else after you opened it (version {saved}, you had "
                              "{mine}); nothing was saved — reload it.", case=current.case_id, saved=current.version,
                              mine=mine.version))
