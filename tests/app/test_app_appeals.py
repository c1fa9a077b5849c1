"""Appeals and training end to end in the app, on the bundled sample game (hands from its committed
observations fixture, no MediaPipe): a chief judge opens an appeal on a miscounted vote, attaches the
evidence, decides it and exports the report; a trainee takes the ten-question quiz and sees the score."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from appcheck import goto, renders, shown
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture
from test_app import app

from contract.jsonio import read_json
from review.cases.appeal_store import AppealStore
from review.cases.pdf import chromium
from review.cases.store import Store, game_id_for
from review.cases.training import Response, mark, questions_from_truth
from review.cases.training_store import TrainingStore
from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec, load_game, run_audit

SPEC = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
GAME_ID = game_id_for(read_json(SAMPLE_PROTOCOL), SAMPLE_PROTOCOL)


@pytest.fixture(autouse=True)
def _current_sample() -> None:
    """A stale sample-game fixture fails every test here with how to refresh it."""
    require_current_sample_fixture()


def test_chief_judge_appeals_a_miscounted_vote_decides_and_exports(data: Path) -> None:
    at = goto(app(SPEC), "Appeals")
    renders(at)
    assert at.header[0].value == "Appeals"
    source = at.selectbox(key="appeal_from")
    miscount = next(o for o in source.options if "count mismatch" in o and "candidate 8" in o)
    source.set_value(miscount).run()
    assert at.selectbox(key=f"appeal_ground_{miscount}").value.startswith("rfm 7.1.2.3")  # suggested from the finding
    at.text_input(key="appeal_who").set_value("seat 8 (Theta)")
    at.selectbox(key="appeal_seat").set_value(8)
    at.button(key="appeal_open").click().run()
    renders(at)
    case_id = at.selectbox(key="appeal_case").value
    book = AppealStore(Store(data / "stopframe.sqlite"))
    case = book.case(case_id)
    assert [e.kind for e in case.evidence] == ["finding", "vote"]  # the finding with its frame, the recomputed vote
    assert case.evidence[0].frame is not None and case.deadline == case.game_ended_at + 600
    assert any("rfm 7.3.6" in shown(m.value) for m in at.success)  # the filing deadline is shown
    assert at.get("image"), "the evidence frames are shown"

    at.selectbox(key=f"{case_id}_attach").set_value(next(o for o in at.selectbox(key=f"{case_id}_attach").options
                                                          if o.startswith("clip around frame")))
    at.button(key=f"{case_id}_attach_go").click().run()
    at.text_area(key=f"{case_id}_side").set_value("Seat 9's hand came after «Стоп»; 3 votes, not 4.")
    at.button(key=f"{case_id}_save").click().run()
    renders(at)

    # A result change without the chief judge's agreement is refused (rfm 7.1.1.3) and the case stays open.
    at.radio(key=f"{case_id}_d_outcome").set_value("result_changed").run()
    at.text_area(key=f"{case_id}_d_reasoning").set_value("The count was wrong.")
    at.button(key=f"{case_id}_d_go").click().run()
    assert any("chief judge agrees" in e.value for e in at.error)
    assert book.case(case_id).status == "open"

    at.radio(key=f"{case_id}_d_outcome").set_value("result_stands").run()
    at.text_area(key=f"{case_id}_d_reasoning").set_value("Miscount confirmed, but seat 6 leaves either way (7.1.2.3).")
    at.button(key=f"{case_id}_d_go").click().run()
    renders(at)
    decided = book.case(case_id)
    assert decided.status == "decided" and decided.decision.outcome == "result_stands"
    assert at.text_area(key=f"{case_id}_side").disabled  # read-only once decided

    # A change of mind after the decision is an amendment: a new record, the decision itself stays.
    at.radio(key=f"{case_id}_a_outcome").set_value("replay").run()
    at.text_area(key=f"{case_id}_a_reasoning").set_value("Committee: replay.")
    at.checkbox(key=f"{case_id}_a_agree").check()
    at.button(key=f"{case_id}_a_go").click().run()
    renders(at)
    assert book.in_force(case_id).outcome == "replay" and book.case(case_id).decision == decided.decision

    at.button(key=f"{case_id}_report").click().run()
    renders(at)
    html = (data / "appeals" / f"{case_id}.html").read_text()
    for expected in ("rfm 7.1.2.3", "count mismatch", "Seat 9&#x27;s hand came after «Стоп»", "the result stands",
                     "Amendment 1", "the game is replayed", "rfm 7.2.1",
                     "data:image/jpeg;base64,", "rfm 7.3.6"):
        assert expected in html, expected
    assert html.count("<figure>") >= 2  # the finding's frame and the clip's still
    if chromium():
        assert (data / "appeals" / f"{case_id}.pdf").read_bytes().startswith(b"%PDF")
    # After a restart (a new store on the same file) the decided case is all there.
    again = AppealStore(Store(data / "stopframe.sqlite"))
    assert again.case(case_id).decision == decided.decision
    assert [h["action"] for h in again.history(case_id)] == ["open", "update", "update", "decide", "amend"]


def test_trainee_takes_the_ten_question_quiz_and_sees_score_and_explanations(data: Path) -> None:
    at = goto(app(SPEC, judge="Trainee One"), "Training")
    renders(at)
    at.selectbox(key="quiz_set").set_value("builtin-sample-game")
    at.button(key="quiz_start").click().run()
    truth = {q.qid: q for q in questions_from_truth(SAMPLE_PROTOCOL, SAMPLE_PROTOCOL.with_name("sample_game.truth.json"))}
    perfect = None
    for n in range(10):
        renders(at)
        assert at.subheader[0].value.startswith(f"Question {n + 1} of 10")
        qid = at.number_input[0].key.split("_")[1]
        q = truth[qid]
        if q.violations and perfect is None:  # answer one vote with violations exactly as the key
            perfect = q
            at.number_input(key=f"q_{qid}_count").set_value(q.count_range[0])
            at.multiselect(key=f"q_{qid}_voters").set_value(list(q.voters))
            for kind, seat in q.violations:
                if seat is None:
                    at.checkbox(key=f"q_{qid}_miscount").check()
                else:
                    widget = at.multiselect(key=f"q_{qid}_{kind}")
                    widget.set_value([*widget.value, seat])
        at.button(key=f"q_{qid}_submit").click().run()
        renders(at)
        assert any(m.label == "Score" for m in at.metric)
        if q is perfect:
            assert at.metric[0].value == "100 %"
            shown = next(m.value for m in at.markdown if m.value.startswith("- ✓")).replace("\\", "")
            clauses = {why.split(" — ")[-1].split(":")[0] for why in q.explanations.values()}
            assert clauses and all(c.startswith("rfm ") and c in shown for c in clauses), (clauses, shown)
        if n < 9:
            at.button(key=f"q_{qid}_next").click().run()
    assert at.subheader[-1].value == "Your result"
    answers = TrainingStore(Store(data / "stopframe.sqlite")).answers("Trainee One")
    assert len(answers) == 10 and len({a["qid"] for a in answers}) == 10
    assert max(a["score"] for a in answers) == 1.0
    progress = TrainingStore(Store(data / "stopframe.sqlite")).progress("Trainee One")
    assert len(progress) == 1 and progress[0]["questions"] == 10


def test_trainer_builds_a_set_from_confirmed_findings_and_sees_the_group(data: Path) -> None:
    at = app(SPEC, judge="Trainer")
    report_finding = {"kind": "late_vote", "seat": 9, "day": 1, "round": 1, "candidate": 8, "night": None}
    store = Store(data / "stopframe.sqlite")
    finding = next(f for f in run_audit(load_game(SPEC)).findings
                   if all(getattr(f, k) == v for k, v in report_finding.items()))
    store.decide(GAME_ID, finding, "confirmed", reason="seen at frame 460", who="Side judge", expected_version=0)
    book = TrainingStore(store)
    q = next(iter(questions_from_truth(SAMPLE_PROTOCOL, SAMPLE_PROTOCOL.with_name("sample_game.truth.json"))))
    book.record("T1", "Anna", "builtin-sample-game", q, Response(0, (), ()), mark(q, Response(0, (), ())))
    goto(at, "Training")
    at.radio(key="training_mode").set_value("Trainer").run()
    renders(at)
    picks = [o for o in at.multiselect(key="trainer_pick").options if "decided findings" in o]
    assert picks and all("candidate 8" in o for o in picks)
    at.multiselect(key="trainer_pick").set_value(picks)
    at.text_input(key="trainer_title").set_value("Late hands, day 1")
    at.button(key="trainer_save").click().run()
    renders(at)
    made = next(s for s in book.sets() if s.title == "Late hands, day 1")
    assert ("late_vote", 9) in made.questions[0].violations
    assert at.dataframe and "Anna" in at.dataframe[0].value["trainee"].tolist()




def test_quiz_pictures_carry_the_games_seat_numbers(tmp_path: Path) -> None:
    """A trainee names voters by seat: the quiz's stills are drawn with the seat map that sits beside the game's
    protocol (every seat's number on its zone), and a game without one says so instead of showing bare frames."""
    from stopframe_app.views.training import _quiz_seats

    q = questions_from_truth(SAMPLE_PROTOCOL, SAMPLE_PROTOCOL.with_name("sample_game.truth.json"))[0]
    seat_map = _quiz_seats(q)
    assert seat_map is not None and sorted(seat_map.seats) == list(range(1, 11))
    alone = tmp_path / "alone.protocol.json"  # the same game with no map beside it
    alone.write_bytes(SAMPLE_PROTOCOL.read_bytes())
    assert _quiz_seats(replace(q, protocol=str(alone))) is None
