"""Training quizzes: the answer key comes from the truth (or a judge's decisions), answers are scored per part
with explanations citing the clauses, and a trainee's progress survives a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from contract.jsonio import read_json
from review.audit.findings import NIGHT_KINDS
from review.cases.appeal_report import appeal_html
from review.cases.appeals import AppealCase, Decision, EvidenceItem
from review.cases.pdf import chromium, write_pdf
from review.cases.store import Store, game_id_for
from review.cases.training import (
    Question,
    Response,
    kind_accuracy,
    mark,
    pick,
    questions_from_decisions,
    questions_from_truth,
)
from review.cases.training_store import TrainingStore

REPO = Path(__file__).resolve().parents[2]
GAME = REPO / "sample_videos" / "game" / "sample_game.protocol.json"
TRUTH = GAME.with_name("sample_game.truth.json")


@pytest.fixture(scope="module")
def questions() -> list[Question]:
    return questions_from_truth(GAME, TRUTH)


def vote(questions: list[Question], day: int, candidate: int) -> Question:
    return next(q for q in questions if q.day == day and q.candidate == candidate and q.round == 1)


def test_the_key_is_the_truth_late_hand_not_counted_rfm_4_4_7(questions: list[Question]) -> None:
    q = vote(questions, 1, 8)
    assert ("late_vote", 9) in q.violations and ("no_vote", 8) in q.violations  # round-level, on the last candidate
    assert ("count_mismatch", None) in q.violations and q.announced_count == 4
    assert 9 not in q.voters
    assert "rfm 4.4.7" in q.explanations["late_vote:9"]
    assert q.count_range == (3, 3)  # 10 at the table − 6 − 1 for the others: silent votes go to the last (rfm 4.4.10)


def test_every_violation_of_the_truth_becomes_part_of_some_question(questions: list[Question]) -> None:
    expected = {(f["kind"], f["seat"]) for f in read_json(TRUTH)["expected_findings"] if f["kind"] not in NIGHT_KINDS}
    asked = {v for q in questions for v in q.violations}
    assert expected <= asked


def test_a_perfect_answer_scores_one_and_each_mistake_is_explained(questions: list[Question]) -> None:
    q = vote(questions, 1, 8)
    perfect = mark(q, Response(q.count_range[0], q.voters, q.violations))
    assert perfect.score == 1.0 and not perfect.missed and not perfect.invented
    sloppy = mark(q, Response(4, (1, 6, 9), (("late_vote", 9), ("lifted_early", 3))))
    assert not sloppy.count_ok and sloppy.voters_score == pytest.approx(2 / 3, abs=1e-3)
    assert ("wrong_form", 6) in sloppy.missed and sloppy.invented == (("lifted_early", 3),)
    text = "\n".join(sloppy.lines)
    assert "Missed wrong form by seat 6" in text and "rfm 5.12.13" in text
    assert "Not so: lifted early by seat 3" in text
    assert 0 < sloppy.score < 0.5


def test_a_clean_vote_answered_clean_scores_full(questions: list[Question]) -> None:
    q = vote(questions, 1, 3)
    assert not q.violations
    assert mark(q, Response(1, q.voters, ())).score == 1.0
    assert mark(q, Response(1, q.voters, (("late_vote", 2),))).violations_score == 0.0


def test_a_quiz_takes_the_votes_with_violations_first(questions: list[Question]) -> None:
    chosen = pick(questions, 3)
    assert len(chosen) == 3 and sum(bool(q.violations) for q in chosen) == 2
    assert [q.t for q in chosen] == sorted(q.t for q in chosen)


def test_questions_from_decisions_use_what_the_judge_confirmed(tmp_path: Path) -> None:
    from review.audit.audit import audit
    from review.cases.training import seen_from_truth

    data = read_json(GAME)
    report = audit(data, seen_from_truth(read_json(TRUTH)))
    store = Store(tmp_path / "db.sqlite")
    gid = game_id_for(data, GAME)
    late = next(f for f in report.findings if f.kind == "late_vote")
    palm = next(f for f in report.findings if f.kind == "wrong_form")
    store.decide(gid, late, "confirmed", reason="seen", who="J", expected_version=0)
    store.decide(gid, palm, "rejected", reason="a fist, filmed badly", who="J", expected_version=0)
    qs = questions_from_decisions(GAME, data, report, store.decisions(gid), None)
    assert [q.candidate for q in qs] == [8]
    assert ("late_vote", 9) in qs[0].violations and ("wrong_form", 6) not in qs[0].violations


def test_progress_per_kind_survives_a_restart(tmp_path: Path, questions: list[Question]) -> None:
    q = vote(questions, 1, 8)
    book = TrainingStore(Store(tmp_path / "db.sqlite"))
    book.save_set("Day 1", [q], who="Trainer")
    book.record("A1", "Boris", "set", q, r := Response(3, q.voters, (("late_vote", 9),)), mark(q, r))
    book.record("A2", "Boris", "set", q, r := Response(3, q.voters, q.violations), mark(q, r))
    again = TrainingStore(Store(tmp_path / "db.sqlite"))
    progress = again.progress("Boris")
    assert [p["questions"] for p in progress] == [1, 1] and progress[0]["score"] < progress[1]["score"] == 1.0
    assert progress[0]["kinds"]["late_vote"]["accuracy"] == 1.0 and progress[0]["kinds"]["wrong_form"]["missed"] == 1
    assert again.sets()[0].questions == (q,)
    assert again.group()[0]["trainee"] == "Boris"


def test_kind_accuracy_counts_found_missed_and_invented() -> None:
    acc = kind_accuracy([{"found": [["late_vote", 9]], "missed": [["late_vote", 2]], "invented": [["no_vote", 1]]}])
    assert acc["late_vote"] == {"found": 1, "missed": 1, "invented": 0, "accuracy": 0.5}
    assert acc["no_vote"]["accuracy"] == 0.0


def _case() -> AppealCase:
    evil = '<script>alert("x")</script>'
    return AppealCase(case_id="A1", game_id="g", profile="rfm", appellant=evil, claim="=HYPERLINK(1)",
                      ground="rfm 7.1.2.3", filed_at=1e9, game_ended_at=1e9 - 60,
                      evidence=(EvidenceItem("vote", evil, None, {"candidate": 8, "outcome": {"protocol": evil}}),),
                      side_judge_statement=evil, status="decided",
                      decision=Decision("result_stands", evil, "Chief", decided_at=1e9))


def test_the_case_report_escapes_everything_typed_by_anyone() -> None:
    page = appeal_html(_case(), title="T", protocol={"game": {"id": "<b>"}, "rules": "rfm"})
    assert "<script>" not in page and "&lt;script&gt;" in page and "<b>" not in page
    assert "rfm 7.1.2.3" in page and "in time" in page


@pytest.mark.browser
@pytest.mark.skipif(chromium() is None, reason="Chromium is not installed (apt-get install chromium)")
def test_the_case_report_prints_to_pdf_offline(tmp_path: Path) -> None:
    pdf = write_pdf(appeal_html(_case(), title="T", protocol=None), tmp_path / "case.pdf")
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 1000


def test_a_trainees_record_cannot_be_rewritten(tmp_path: Path, questions: list[Question]) -> None:
    import sqlite3

    q = questions[0]
    TrainingStore(Store(tmp_path / "db.sqlite")).record("A1", "Boris", "set", q, r := Response(0, (), ()), mark(q, r))
    with sqlite3.connect(tmp_path / "db.sqlite") as con, pytest.raises(sqlite3.DatabaseError, match="append-only"):
        con.execute("UPDATE quiz_answers SET score = 1")
