"""Appeals: the grounds, deadline and preconditions a chief judge must meet (rfm 7.1–7.3, showtime ¶42),
and the store that keeps cases read-only once decided (checked after a restart)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from contract.errors import StopframeError
from review.cases.appeal_store import AppealStore
from review.cases.appeals import (
    Adjustment,
    AppealCase,
    Decision,
    EvidenceItem,
    checks,
    failing,
    protest_accepted,
    suggested_ground,
)
from review.cases.store import ConflictError, Store

END = 1_700_000_000.0
VOTE = EvidenceItem("vote", "day 1 round 1 candidate 8", data={"candidate": 8})


def case(**kw) -> AppealCase:
    base = dict(case_id="", game_id="g1", profile="rfm", appellant="seat 8", appellant_seat=8,
                claim="the count for 8 was wrong", ground="rfm 7.1.2.3", filed_at=END + 300, game_ended_at=END)
    return AppealCase(**{**base, **kw})


def change(**kw) -> Decision:
    return Decision(**{**dict(outcome="result_changed", winner="black", reasoning="video shows 3 hands",
                              decided_by="Chief", chief_judge_agrees=True), **kw})


def failed(c: AppealCase, d: Decision, **kw) -> set[str]:
    return {f"{x.clause}: {x.text}" for x in failing(checks(c, d, **kw))}


def test_rfm_7_3_6_deadline_is_ten_minutes_after_the_game() -> None:
    assert case().deadline == END + 600
    assert case(filed_at=END + 599).filed_in_time
    assert not case(filed_at=END + 601).filed_in_time
    assert case(profile="mafclub").deadline is None


def test_rfm_7_3_6_a_late_appeal_blocks_a_cognitive_ground_but_not_a_technical_one_rfm_7_4() -> None:
    late = case(filed_at=END + 900, side_judge_statement="I saw it", evidence=(VOTE,))
    assert any("rfm 7.3.6" in f for f in failed(replace(late, ground="rfm 7.1.1.2"), change()))
    assert not failed(late, change(), protocol_winner="red")  # 7.1.2.3 is technical: 7.4 lets the chief judge act


def test_rfm_7_1_1_3_a_result_change_needs_video_side_judge_and_chief_judge() -> None:
    bare = case()
    problems = failed(bare, change(chief_judge_agrees=False), protocol_winner="red")
    assert {p.split(":")[0] for p in problems} == {"rfm 7.1.1.3"}
    assert len(problems) == 3
    ready = case(evidence=(VOTE,), side_judge_statement="Seat 9's hand came after «Стоп».")
    assert not failed(ready, change(), protocol_winner="red")


def test_rfm_7_2_1_a_replay_has_the_same_preconditions() -> None:
    problems = failed(case(), change(outcome="replay", winner=None))
    assert {p.split(":")[0] for p in problems} == {"rfm 7.2.1"}


def test_a_result_that_stands_needs_only_reasoning() -> None:
    assert not failed(case(), Decision("result_stands", "the count was right", "Chief"))
    assert failed(case(), Decision("result_stands", " ", "Chief"))


def test_the_new_result_must_differ_from_the_announced_one() -> None:
    ready = case(evidence=(VOTE,), side_judge_statement="yes")
    assert failed(ready, change(winner="red"), protocol_winner="red")


def test_rfm_7_1_1_4_allows_points_not_a_result_change() -> None:
    c = case(ground="rfm 7.1.1.4", evidence=(VOTE,), side_judge_statement="yes")
    assert any("rfm 7.1.1.4" in f for f in failed(c, change(), protocol_winner="red"))
    ok = Decision("points_adjusted", "foul was wrong", "Chief", adjustments=(Adjustment(3, 1.2, "rfm 7.1.1.4"),))
    assert not failed(c, ok)
    odd = replace(ok, adjustments=(Adjustment(3, 0.5, "rfm 7.1.1.4"),))
    warning = [x for x in checks(c, odd) if not x.ok]
    assert warning and not warning[0].blocking  # 1.2 is the rulebook's figure: shown, not enforced


def test_suggested_grounds_follow_the_finding_rfm_7_1_2() -> None:
    assert suggested_ground("rfm", "count_mismatch") == "rfm 7.1.2.3"
    assert suggested_ground("rfm", "shot_mismatch") == "rfm 7.1.2.4"
    assert suggested_ground("rfm", "check_mismatch") == "rfm 7.1.2.1"
    assert suggested_ground("showtime", None) == "showtime ¶42"


def test_a_missed_night_hand_suggests_a_missed_disqualifying_foul_rfm_7_1_1_6_not_a_miscount() -> None:
    """rfm 5.12.7/5.12.10 make a night hand a disqualifying foul; 7.1.2.3 is about counting votes."""
    assert suggested_ground("rfm", "night_hand") == "rfm 7.1.1.6"
    assert suggested_ground("rfm", "wrong_form") == "rfm 7.1.1.6"


def test_a_video_finding_under_mafclub_suggests_the_judges_error_not_an_automatic_replay_3_13() -> None:
    """mafclub 3.13 replays a game for an oath, bribery or threats; what the video shows is a judge's error."""
    assert suggested_ground("mafclub", "count_mismatch") == "other"
    assert suggested_ground("mafclub", None) == "mafclub 3.13"


def test_the_filing_deadline_is_the_profiles_rfm_7_3_6() -> None:
    """The deadline and its clause come from the profile; no deadline is written elsewhere."""
    (check,) = [c for c in checks(case(filed_at=END + 601), change()) if c.clause == "rfm 7.3.6"]
    assert not check.ok and check.text == "filed 10 min after the game; the chief judge may still act on a " \
        "technical error without an appeal (rfm 7.4)"
    assert not [c for c in checks(case(profile="lvi2015", ground="other", filed_at=END + 6000), change())
                if not c.ok and "filed" in c.text]


ROLES = {1: "civilian", 2: "mafia", 3: "civilian", 4: "sheriff", 5: "civilian", 6: "civilian", 7: "don",
         8: "civilian", 9: "mafia", 10: "civilian"}


def test_showtime_42_protest_needs_the_whole_team_and_one_opponent() -> None:
    black = case(profile="showtime", ground="showtime ¶42", appellant_seat=2, club_member=True)
    assert protest_accepted(replace(black, protest_votes_for=(2, 7, 9, 1)), ROLES)[0] is True
    assert protest_accepted(replace(black, protest_votes_for=(2, 7, 9)), ROLES)[0] is False  # no opponent
    assert protest_accepted(replace(black, protest_votes_for=(2, 7, 1, 3)), ROLES)[0] is False  # 9 did not
    assert protest_accepted(replace(black, appellant_seat=None), ROLES)[0] is None


def test_showtime_42_only_a_club_member_may_protest() -> None:
    c = case(profile="showtime", ground="showtime ¶42", appellant_seat=2, protest_votes_for=(2, 7, 9, 1))
    assert any("club member" in f for f in failed(c, change(), roles=ROLES, protocol_winner="red"))
    assert not failed(replace(c, club_member=True), change(), roles=ROLES, protocol_winner="red")


def test_clubs_without_an_appeal_procedure_still_change_a_result_only_with_video() -> None:
    c = case(profile="mafclub", ground="other")
    assert failed(c, change(), protocol_winner="red")
    assert not failed(replace(c, evidence=(VOTE,)), change(), protocol_winner="red")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "stopframe.sqlite"


def test_a_decided_case_survives_a_restart_read_only_and_amendments_are_new_records(db: Path) -> None:
    appeals = AppealStore(Store(db))
    opened = appeals.open_case(case(evidence=(VOTE,)), who="Side Judge")
    argued = appeals.save(replace(opened, side_judge_statement="Seat 9 was late."), who="Side Judge")
    decided = appeals.decide(argued, change(), protocol_winner="red")
    again = AppealStore(Store(db))  # a restart: a new process opening the same file
    kept = again.case(decided.case_id)
    assert kept.status == "decided" and kept.decision == decided.decision
    assert kept.side_judge_statement == "Seat 9 was late." and kept.evidence == (VOTE,)
    with pytest.raises(StopframeError, match="read-only"):
        again.save(replace(kept, claim="changed later"), who="Someone")
    with sqlite3.connect(db) as con, pytest.raises(sqlite3.DatabaseError, match="read-only"):
        con.execute("UPDATE appeals SET data='{}' WHERE case_id=?", (kept.case_id,))
    amended = again.amend(kept.case_id, Decision("result_stands", "the appeal committee disagreed", "Chief"))
    assert again.in_force(kept.case_id) == amended.decision
    assert again.case(kept.case_id).decision == decided.decision  # the original is untouched
    assert [h["action"] for h in again.history(kept.case_id)] == ["open", "update", "decide", "amend"]


def test_a_decision_that_fails_its_preconditions_is_not_recorded(db: Path) -> None:
    appeals = AppealStore(Store(db))
    opened = appeals.open_case(case(), who="Chief")
    with pytest.raises(StopframeError, match="side judge's testimony"):
        appeals.decide(opened, change(), protocol_winner="red")
    assert appeals.case(opened.case_id).status == "open"


def test_two_judges_saving_the_same_case_get_a_conflict_not_a_lost_edit(db: Path) -> None:
    appeals = AppealStore(Store(db))
    opened = appeals.open_case(case(), who="Chief")
    appeals.save(replace(opened, table_judge_statement="I counted 4."), who="Table Judge")
    with pytest.raises(ConflictError):
        appeals.save(replace(opened, side_judge_statement="I saw 3."), who="Side Judge")
    assert appeals.case(opened.case_id).table_judge_statement == "I counted 4."


def test_a_decided_appeal_reaches_the_corrected_protocol_and_it_stays_valid() -> None:
    from contract.jsonio import read_json
    from review.cases.corrected import corrected_protocol
    from review.game.engine import replay
    from review.game.protocol import format_problems

    sample = Path(__file__).resolve().parents[2] / "sample_videos" / "game" / "sample_game.protocol.json"
    data = read_json(sample)
    changed = change(winner="black")
    fined = Decision("points_adjusted", "foul missed", "Chief", adjustments=(Adjustment(3, -1.2, "rfm 7.1.1.6"),
                                                                           Adjustment(5, 1.2, "rfm 7.1.1.4")))
    out = corrected_protocol(data, [], appeals=[("A1", changed), ("A2", fined)])
    result = next(e for e in out["events"] if e["type"] == "result")
    assert (result["winner"], result["x_appeal"]["winner"], result["x_appeal"]["case"]) == ("red", "black", "A1")
    fines = [e for e in out["events"] if e["type"] == "fine"]
    assert [(e["seat"], e["points"], e["clause"]) for e in fines] == [(3, -1.2, "rfm 7.1.1.6")]
    assert [a["case"] for a in out["x_review"]["appeals"]] == ["A1", "A2"]
    assert out["x_review"]["appeals"][1]["adjustments"][1] == {"seat": 5, "points": 1.2, "clause": "rfm 7.1.1.4"}
    assert not format_problems(out) and not replay(out).problems  # the game as played stays valid
    assert data["events"][-1]["winner"] == "red"  # the original is untouched
