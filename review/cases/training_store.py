"""Quiz sets and trainees' answers in the decisions database (same file as review.cases.store, its own tables).

Answers are append-only: a trainee's progress over time is the record of every answer as it was marked,
so a trainer can see a group's results and a trainee's accuracy per finding kind, attempt by attempt.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from contract.errors import StopframeError
from contract.i18n import _
from review.cases.store import Store, append_only
from review.cases.training import Marked, Question, Response, kind_accuracy

_SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS quiz_sets (
    set_id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at REAL NOT NULL,
    questions TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS quiz_answers (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    attempt_id TEXT NOT NULL,
    trainee TEXT NOT NULL,
    set_id TEXT NOT NULL,
    qid TEXT NOT NULL,
    answer TEXT NOT NULL,
    result TEXT NOT NULL,
    score REAL NOT NULL,
    at REAL NOT NULL
);
""" + append_only("quiz_answers", "the training record")
_SAVE_SET_SQL = ("INSERT INTO quiz_sets VALUES (?, ?, ?, ?, ?) ON CONFLICT(set_id) DO UPDATE SET "
                 "title=excluded.title, questions=excluded.questions")
_SETS_SQL = "SELECT * FROM quiz_sets ORDER BY created_at"
_RECORD_SQL = ("INSERT INTO quiz_answers (attempt_id, trainee, set_id, qid, answer, result, score, at) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
_ANSWERS_SQL = "SELECT * FROM quiz_answers ORDER BY seq"
_TRAINEE_ANSWERS_SQL = "SELECT * FROM quiz_answers WHERE trainee=? ORDER BY seq"


@dataclass(frozen=True)
class QuizSet:
    set_id: str
    title: str
    created_by: str
    created_at: float
    questions: tuple[Question, ...]


class TrainingStore:
    def __init__(self, store: Store) -> None:
        self.store = store
        with store.reading() as con:
            con.executescript(_SCHEMA_SQL)

    def save_set(self, title: str, questions: Sequence[Question], *, who: str, set_id: str | None = None) -> QuizSet:
        """Store a quiz set (a trainer's, or a built-in one under a fixed id, replaced when rebuilt)."""
        if not title.strip() or not who.strip():
            raise StopframeError(_("A quiz set needs a title and the trainer's name."), 1)
        if not questions:
            raise StopframeError(_("A quiz set needs at least one question."), 1)
        qs = QuizSet(set_id or "Q" + secrets.token_hex(4), title, who, time.time(), tuple(questions))
        with self.store.transaction() as con:
            con.execute(_SAVE_SET_SQL,
                        (qs.set_id, title, who, qs.created_at,
                         json.dumps([q.to_json() for q in questions], ensure_ascii=False)))
        return qs

    def sets(self) -> list[QuizSet]:
        with self.store.reading() as con:
            rows = con.execute(_SETS_SQL).fetchall()
        return [QuizSet(r[0], r[1], r[2], r[3], tuple(Question.from_json(q) for q in json.loads(r[4]))) for r in rows]

    def record(self, attempt_id: str, trainee: str, set_id: str, q: Question, r: Response, m: Marked) -> None:
        if not trainee.strip():
            raise StopframeError(_("Enter the trainee's name: answers are recorded per trainee."), 1)
        with self.store.transaction() as con:
            con.execute(_RECORD_SQL,
                        (attempt_id, trainee.strip(), set_id, q.qid, json.dumps(r.__dict__), json.dumps(m.to_json()),
                         m.score, time.time()))

    def answers(self, trainee: str | None = None) -> list[dict[str, Any]]:
        with self.store.reading() as con:
            con.row_factory = sqlite3.Row
            rows = (con.execute(_ANSWERS_SQL) if trainee is None
                    else con.execute(_TRAINEE_ANSWERS_SQL, (trainee.strip(),))).fetchall()
        return [{**dict(r), "answer": json.loads(r["answer"]), "result": json.loads(r["result"])} for r in rows]

    def progress(self, trainee: str) -> list[dict[str, Any]]:
        """Per attempt, oldest first: when, how many questions, the mean score and accuracy per finding kind."""
        return _attempts(self.answers(trainee))

    def group(self) -> list[dict[str, Any]]:
        """Every trainee's record: answers, mean score, latest attempt's score, accuracy per kind overall."""
        by: dict[str, list[dict[str, Any]]] = {}
        for a in self.answers():
            by.setdefault(a["trainee"], []).append(a)
        out = []
        for trainee, rows in sorted(by.items()):
            last = _attempts(rows)[-1]
            kinds = kind_accuracy(r["result"] for r in rows)
            out.append({"trainee": trainee, "answers": len(rows),
                        "mean score": round(sum(r["score"] for r in rows) / len(rows), 3),
                        "latest attempt": last["score"],
                        **{k: v["accuracy"] for k, v in kinds.items()}})
        return out


def _attempts(answers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    attempts: dict[str, list[dict[str, Any]]] = {}
    for a in answers:
        attempts.setdefault(a["attempt_id"], []).append(a)
    return [{"attempt": k, "at": rows[0]["at"], "questions": len(rows),
             "score": round(sum(r["score"] for r in rows) / len(rows), 3),
             "kinds": kind_accuracy(r["result"] for r in rows)} for k, rows in attempts.items()]


def new_attempt() -> str:
    return time.strftime("T%Y%m%d-%H%M%S-") + secrets.token_hex(2)
