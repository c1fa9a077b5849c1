"""The decisions store: a judge's review survives restarts, crashes and a second judge."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from contract import i18n
from contract.errors import StopframeError, UnreadableInput
from review.audit.findings import Finding
from review.cases.store import ConflictError, Store, data_dir, finding_key, game_id_for

LATE = Finding.from_json({
    "kind": "late_vote", "seat": 9, "seats": None, "day": 1, "night": None, "round": 1, "candidate": 5,
    "t": 2.64, "clause": "rfm 4.4.7",
    "consequence": {"type": "not_counted", "points": None, "text": "the vote is not counted"},
    "confidence": 0.9, "assumed_times": [], "evidence": {"frames": [66, 67], "times": [2.64, 2.68]},
})
SHOT = Finding.from_json({"kind": "shot_mismatch", "seat": 4, "seats": None, "day": None, "night": 1, "round": None,
                          "candidate": None, "t": 40.0, "clause": "rfm 7.1.2.4",
                          "consequence": {"type": "none", "points": None, "text": "the result may be changed"}})


def test_decision_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "d.sqlite"
    Store(db).decide("g1", LATE, "confirmed", reason="hand lands after Stop", who="Chief", expected_version=0)
    again = Store(db)  # a new process would do exactly this
    d = again.decision("g1", LATE)
    assert d is not None and d.status == "confirmed" and d.who == "Chief" and d.version == 1
    assert d.reason == "hand lands after Stop"
    assert again.integrity_ok()


def test_second_judge_cannot_silently_overwrite(tmp_path: Path) -> None:
    db = tmp_path / "d.sqlite"
    first, second = Store(db), Store(db)
    # Both judges open the finding while it has no decision (version 0).
    first.decide("g1", LATE, "confirmed", reason="late by 3 frames", who="Anna", expected_version=0)
    with pytest.raises(ConflictError, match=r"Anna already decided late vote \(seat 9\) as confirmed at "):
        second.decide("g1", LATE, "rejected", reason="looks on time", who="Boris", expected_version=0)
    d = first.decision("g1", LATE)
    assert d is not None and d.status == "confirmed" and d.who == "Anna"
    # After reloading (seeing version 1) Boris may change it, and the trail keeps both.
    second.decide("g1", LATE, "rejected", reason="frame 66 shows the fist before Stop", who="Boris", expected_version=1)
    trail = first.trail("g1")
    assert [(t["who"], t["status"], t["version"]) for t in trail] == [("Anna", "confirmed", 1), ("Boris", "rejected", 2)]


def test_a_russian_judge_reads_the_conflict_and_the_refusals_in_russian(tmp_path: Path) -> None:
    """The sentence a second judge gets names the finding and the first judge's decision in the judge's words."""
    db = tmp_path / "d.sqlite"
    first, second = Store(db), Store(db)
    first.decide("g1", LATE, "confirmed", reason="поздно на 3 кадра", who="Анна", expected_version=0)
    with i18n.using("ru"):
        with pytest.raises(ConflictError) as caught:
            second.decide("g1", LATE, "rejected", reason="вовремя", who="Борис", expected_version=0)
        with pytest.raises(StopframeError) as empty:
            second.decide("g1", LATE, "rejected", reason=" ", who="Борис", expected_version=1)
    said = str(caught.value)
    assert said.startswith("Анна в ") and "голос после «Стоп» (место 9): подтверждено" in said
    assert "решения не было" in said and "ничего не сохранено" in said
    assert str(empty.value) == "Укажите основание решения."


def test_edit_keeps_the_fields_the_judge_changed(tmp_path: Path) -> None:
    s = Store(tmp_path / "d.sqlite")
    d = s.decide("g1", LATE, "edited", reason="it was seat 8", who="Chief", expected_version=0,
                 edited={"seat": 8, "consequence": {"type": "foul"}})
    assert d.stands
    eff = s.decision("g1", replace(LATE, seat=9)).effective_finding  # identity is the audit's, seat 9
    assert eff.seat == 8 and eff.consequence.type == "foul" and eff.consequence.text == "the vote is not counted"


def test_withdraw_reopens_and_trail_is_append_only(tmp_path: Path) -> None:
    db = tmp_path / "d.sqlite"
    s = Store(db)
    s.decide("g1", SHOT, "confirmed", reason="miss on video", who="A", expected_version=0)
    s.withdraw("g1", SHOT, reason="pressed by mistake", who="A", expected_version=1)
    assert s.decision("g1", SHOT) is None
    assert [t["action"] for t in s.trail("g1")] == ["decide", "withdraw"]
    with sqlite3.connect(db) as con, pytest.raises(sqlite3.DatabaseError, match="append-only"):
        con.execute("DELETE FROM trail")


def test_day_and_night_identities_follow_the_spec() -> None:
    assert finding_key(LATE) == '["late_vote",1,1,5,9]'
    assert finding_key(SHOT) == '["shot_mismatch",1,4]'
    # Fields outside the identity (time, confidence) do not make a different finding.
    assert finding_key(replace(LATE, t=2.7, confidence=0.5)) == finding_key(LATE)


def test_game_id_prefers_the_protocols_own_id(tmp_path: Path) -> None:
    a = game_id_for({"game": {"id": "G3", "tournament": "Cup", "date": "2026-11-29"}}, tmp_path / "a.json")
    b = game_id_for({"game": {"id": "G3", "tournament": "Cup", "date": "2026-11-29"}}, tmp_path / "moved.json")
    assert a == b
    assert game_id_for({}, tmp_path / "a.json") != game_id_for({}, tmp_path / "b.json")


def test_recent_games_newest_first(tmp_path: Path) -> None:
    s = Store(tmp_path / "d.sqlite")
    s.remember_game("g1", "Game one", protocol_path="/a", video_path=None, seats_path=None, profile="rfm")
    time.sleep(0.01)
    s.remember_game("g2", "Game two", protocol_path="/b", video_path=None, seats_path=None, profile="mafclub")
    assert [g.game_id for g in s.recent_games()] == ["g2", "g1"]


def test_default_location_is_the_data_folder_not_the_repo(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STOPFRAME_DATA", str(tmp_path / "data"))
    assert Store().path == tmp_path / "data" / "stopframe.sqlite"
    monkeypatch.delenv("STOPFRAME_DATA")
    assert data_dir() == Path.home() / ".stopframe"


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "d.sqlite"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(UnreadableInput, match="d.sqlite"):
        Store(bad)


WRITER = textwrap.dedent(
    """
    import sys
    from review.audit.findings import Finding
    from review.cases.store import Store
    s = Store(sys.argv[1])
    i = 0
    while True:
        f = {"kind": "late_vote", "seat": i % 10 + 1, "day": i, "night": None, "round": 1, "candidate": 5,
             "clause": "rfm 4.4.7", "consequence": {"type": "not_counted"}, "evidence": {"frames": list(range(200))}}
        s.decide("crash", Finding.from_json(f), "confirmed", reason="x" * 500, who="writer", expected_version=0)
        print(i, flush=True)  # only after the commit returned
        i += 1
    """
)


def test_killed_writer_loses_no_confirmed_decision(tmp_path: Path) -> None:
    db = tmp_path / "d.sqlite"
    Store(db)
    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdout=subprocess.PIPE, text=True,
                            cwd=repo, env={**os.environ, "PYTHONPATH": str(repo)})
    acknowledged = []
    assert proc.stdout is not None
    while len(acknowledged) < 60:
        line = proc.stdout.readline()
        assert line, "the writer process died on its own"
        acknowledged.append(int(line))
    proc.send_signal(signal.SIGKILL)  # in the middle of the next write, most likely
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL

    store = Store(db)
    assert store.integrity_ok()
    stored = store.decisions("crash")
    for i in acknowledged:
        key = finding_key(replace(LATE, day=i, seat=i % 10 + 1))
        assert key in stored and stored[key].status == "confirmed", f"decision {i} was lost"
    # A fresh write still works after the crash.
    store.decide("crash", LATE, "confirmed", reason="after the crash", who="Chief", expected_version=0)


def test_a_decision_saved_under_the_old_identity_is_still_found(tmp_path: Path) -> None:
    """Schema 1 keyed a finding with a day and a night as a night one; reopening the file re-keys it."""
    db = tmp_path / "d.sqlite"
    both = replace(LATE, seat=3, night=1)
    Store(db).decide("g1", LATE, "confirmed", reason="late", who="Anna", expected_version=0)
    with sqlite3.connect(db) as con:  # what the old store wrote: its key, schema 1
        con.execute("INSERT INTO decisions VALUES ('g1', '[\"late_vote\",1,3]', ?, 'confirmed', NULL, 'both', 'Boris', 1.0, 1)",
                    (json.dumps(both.to_json()),))
        con.execute("UPDATE meta SET value='1' WHERE key='schema'")
    s = Store(db)
    old = s.decision("g1", both)
    assert old is not None and old.who == "Boris" and old.finding_key == finding_key(both) == '["late_vote",1,1,5,3]'
    assert s.decision("g1", LATE) is not None and set(s.decisions("g1")) == {finding_key(LATE), finding_key(both)}
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == ("2",)
