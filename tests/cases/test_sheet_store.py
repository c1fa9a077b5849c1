"""review.cases.sheet_store: every entry of a protocol sheet committed as it is made; a reload (a new Store on the
same file) rebuilds the sheet, its undo included, and an existing decisions database gains the tables untouched."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from contract.errors import StopframeError
from review.audit.findings import Finding
from review.cases.sheet import new_protocol
from review.cases.sheet_store import SheetStore
from review.cases.store import Store

LATE = Finding.from_json({"kind": "late_vote", "day": 1, "round": 1, "candidate": 8, "seat": 9, "night": None,
                          "clause": "rfm 4.4.7", "consequence": {"type": "not_counted", "points": None, "text": "x"},
                          "confidence": 0.9})


def test_each_entry_survives_a_reload_and_so_does_its_undo(tmp_path: Path) -> None:
    db = tmp_path / "stopframe.sqlite"
    book = SheetStore(Store(db))
    sheet_id = book.start(new_protocol("rfm"), title="Table 1, game 3", source="new", who="Judge")
    book.enter(sheet_id, "nominations.1", "2:6 5:3 9:8", who="Judge")
    book.enter(sheet_id, "round.1.1", "6:5 3:1 8:4", who="Judge")
    book.enter(sheet_id, "round.1.1", "6:6 3:1 8:3", who="Judge")
    book.undo(sheet_id, who="Judge")

    again = SheetStore(Store(db)).load(sheet_id)  # the app reloaded: a new store on the same file
    assert again.text("round.1.1") == "6:5 3:1 8:4" and again.text("nominations.1") == "2:6 5:3 9:8"
    assert [e.slot for e in again.entries] == ["nominations.1", "round.1.1"]
    book.undo(sheet_id, who="Judge")
    assert SheetStore(Store(db)).load(sheet_id).text("round.1.1") == ""
    assert [h["action"] for h in book.history(sheet_id)] == ["enter", "enter", "enter", "undo", "undo"]


def test_a_line_typed_again_as_the_box_reads_is_not_logged(tmp_path: Path) -> None:
    book = SheetStore(Store(tmp_path / "db.sqlite"))
    sheet_id = book.start(new_protocol("mafclub"), title="g", source="new", who="J")
    book.enter(sheet_id, "nominations.1", "2:6", who="J")
    book.enter(sheet_id, "nominations.1", " 2:6 ", who="J")
    assert len(book.history(sheet_id)) == 1 and book.sheets()[0].entries == 1
    book.undo(sheet_id, who="J")
    book.undo(sheet_id, who="J")  # nothing left to undo: not logged
    assert [h["action"] for h in book.history(sheet_id)] == ["enter", "undo"]


def test_the_log_and_the_starting_protocol_cannot_be_changed(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    book = SheetStore(store)
    sheet_id = book.start(new_protocol("rfm"), title="g", source="new", who="J")
    book.enter(sheet_id, "result", "red", who="J")
    for sql in ("UPDATE sheet_log SET text='black'", "DELETE FROM sheet_log", "UPDATE sheets SET base='{}'",
                "DELETE FROM sheets"):
        with pytest.raises(sqlite3.DatabaseError), store.transaction() as con:
            con.execute(sql)
    assert book.load(sheet_id).protocol()["events"][-1] == {"type": "result", "winner": "red"}


def test_an_existing_decisions_database_gains_the_sheet_tables_untouched(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    old = Store(db)
    old.decide("game:1", LATE, "confirmed", reason="seen on video", who="Judge", expected_version=0)
    book = SheetStore(Store(db))
    sheet_id = book.start(new_protocol("rfm"), title="g", source="new", who="J")
    assert Store(db).decisions("game:1")[next(iter(old.decisions("game:1")))].status == "confirmed"
    assert Store(db).integrity_ok() and SheetStore(Store(db)).load(sheet_id).entries == []


def test_an_unknown_sheet_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(StopframeError, match="no protocol sheet nope"):
        SheetStore(Store(tmp_path / "db.sqlite")).load("nope")
