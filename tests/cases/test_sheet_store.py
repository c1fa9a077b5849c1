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


DRAFT = {"proposals": [{"slot": "round.1.1", "events": [], "line": "6:5/1,2,4,5,7@3.15,4.7,5.55 3:1/3"},
                       {"slot": "shooting.1", "events": [], "line": "2:10 7:10 9:10"},
                       {"slot": "round.2.1", "events": [], "line": "9:4 3:4"}],
         "heard": True, "video": "/games/table1.mp4", "nights_unread": None}


def test_a_draft_and_the_choices_on_it_survive_a_reload(tmp_path: Path) -> None:
    db = tmp_path / "stopframe.sqlite"
    book = SheetStore(Store(db))
    sheet_id = book.start(new_protocol("rfm"), title="g", source="new", who="Judge")
    book.enter(sheet_id, "nominations.1", "2:6 5:3", who="Judge")
    assert book.draft(sheet_id) is None  # no draft until the judge asks for one
    book.keep_draft(sheet_id, DRAFT, who="Judge")
    after = book.choose(sheet_id, "round.1.1", "accepted", who="Judge", line=DRAFT["proposals"][0]["line"])
    assert after.text("round.1.1") == DRAFT["proposals"][0]["line"]

    again = SheetStore(Store(db))  # the tab closed and opened again
    saved = again.draft(sheet_id)
    assert saved is not None and saved.draft == DRAFT and saved.who == "Judge"
    assert saved.choices == {"round.1.1": ("accepted", DRAFT["proposals"][0]["line"])}  # the other two still wait
    again.choose(sheet_id, "shooting.1", "edited", who="Judge", line="2:10 7:10 9:-")  # accepting after the reload
    again.choose(sheet_id, "round.2.1", "rejected", who="Judge")
    sheet = SheetStore(Store(db)).load(sheet_id)
    assert sheet.text("shooting.1") == "2:10 7:10 9:-" and sheet.text("round.2.1") == ""
    assert SheetStore(Store(db)).draft(sheet_id).choices == {
        "round.1.1": ("accepted", DRAFT["proposals"][0]["line"]), "shooting.1": ("edited", "2:10 7:10 9:-"),
        "round.2.1": ("rejected", None)}
    # each accepted proposal is an entry like a typed line: in the history, and undone like one (once the rejection
    # made after it, which Undo takes back first, is undone)
    assert [h["slot"] for h in book.history(sheet_id)] == ["nominations.1", "round.1.1", "shooting.1"]
    assert book.undo(sheet_id, who="Judge").text("shooting.1") == "2:10 7:10 9:-"
    assert "round.2.1" not in book.draft(sheet_id).choices
    assert book.undo(sheet_id, who="Judge").text("shooting.1") == ""


def test_a_proposal_is_chosen_on_once_and_a_new_draft_replaces_the_pending_ones(tmp_path: Path) -> None:
    book = SheetStore(Store(tmp_path / "db.sqlite"))
    sheet_id = book.start(new_protocol("rfm"), title="g", source="new", who="J")
    book.keep_draft(sheet_id, DRAFT, who="J")
    book.choose(sheet_id, "round.2.1", "rejected", who="J")
    book.choose(sheet_id, "round.2.1", "accepted", who="J", line="9:4 3:4")  # a second tab's late click: nothing
    book.choose(sheet_id, "round.9.1", "accepted", who="J", line="1:1")  # not proposed: nothing
    assert book.load(sheet_id).entries == [] and book.draft(sheet_id).choices == {"round.2.1": ("rejected", None)}
    newer = {**DRAFT, "proposals": DRAFT["proposals"][1:]}
    book.keep_draft(sheet_id, newer, who="J")  # the judge asked again
    saved = book.draft(sheet_id)
    assert saved.draft == newer and saved.choices == {}
    with pytest.raises(ValueError):
        book.choose(sheet_id, "round.2.1", "maybe", who="J")


def test_a_draft_and_its_choices_cannot_be_changed(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    book = SheetStore(store)
    sheet_id = book.start(new_protocol("rfm"), title="g", source="new", who="J")
    book.keep_draft(sheet_id, DRAFT, who="J")
    book.choose(sheet_id, "round.2.1", "rejected", who="J")
    for sql in ("UPDATE sheet_drafts SET draft='{}'", "DELETE FROM sheet_drafts",
                "UPDATE sheet_draft_choices SET choice='accepted'", "DELETE FROM sheet_draft_choices"):
        with pytest.raises(sqlite3.DatabaseError), store.transaction() as con:
            con.execute(sql)
    assert book.draft(sheet_id).choices == {"round.2.1": ("rejected", None)}


def test_a_store_made_before_drafts_were_kept_gains_their_tables_and_keeps_its_sheets(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    book = SheetStore(Store(db))
    sheet_id = book.start(new_protocol("rfm"), title="g", source="new", who="J")
    book.enter(sheet_id, "nominations.1", "2:6 5:3", who="J")
    with sqlite3.connect(db) as con:  # the file as an earlier version left it: no draft tables
        for name in ("sheet_drafts_no_update", "sheet_drafts_no_delete", "sheet_draft_choices_no_update",
                     "sheet_draft_choices_no_delete"):
            con.execute(f"DROP TRIGGER {name}")
        con.execute("DROP TABLE sheet_draft_choices")
        con.execute("DROP TABLE sheet_drafts")
    again = SheetStore(Store(db))
    assert again.load(sheet_id).text("nominations.1") == "2:6 5:3" and again.draft(sheet_id) is None
    again.keep_draft(sheet_id, DRAFT, who="J")
    assert SheetStore(Store(db)).draft(sheet_id).draft == DRAFT and Store(db).integrity_ok()


def test_a_draft_for_an_unknown_sheet_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(StopframeError, match="no protocol sheet nope"):
        SheetStore(Store(tmp_path / "db.sqlite")).keep_draft("nope", DRAFT, who="J")


def test_undo_after_a_rejection_offers_the_proposal_again_and_keeps_the_entries(tmp_path: Path) -> None:
    """A rejection makes no entry: Undo right after a mistaken «Reject» took back an earlier, unrelated entry and
    the proposal stayed rejected. Undo takes back whatever the judge did last, a rejection included."""
    db = tmp_path / "stopframe.sqlite"
    book = SheetStore(Store(db))
    sheet_id = book.start(new_protocol("rfm"), title="g", source="new", who="J")
    book.keep_draft(sheet_id, DRAFT, who="J")
    book.enter(sheet_id, "nominations.1", "2:6 5:3", who="J")
    book.choose(sheet_id, "round.1.1", "rejected", who="J")
    book.enter(sheet_id, "eliminated.1", "6", who="J")
    book.choose(sheet_id, "round.2.1", "rejected", who="J")

    sheet = book.undo(sheet_id, who="J")  # the last rejection: offered again, every entry kept
    assert sheet.text("eliminated.1") == "6" and sheet.text("nominations.1") == "2:6 5:3"
    took = book.to_undo(sheet_id)
    assert took is not None and (took.kind, took.slot, took.line) == ("entry", "eliminated.1", "6")
    again = SheetStore(Store(db))  # and so after a reload
    assert again.draft(sheet_id).choices == {"round.1.1": ("rejected", None)}
    assert again.load(sheet_id).text("eliminated.1") == "6"
    assert "undo" not in [h["action"] for h in again.history(sheet_id)]

    assert again.undo(sheet_id, who="J").text("eliminated.1") == ""  # then the entry made after the first rejection
    assert again.draft(sheet_id).choices == {"round.1.1": ("rejected", None)}
    took = again.to_undo(sheet_id)
    assert took is not None and (took.kind, took.slot, took.line) == ("rejected", "round.1.1", None)
    again.undo(sheet_id, who="J")  # then the first rejection, the nominations still there
    assert again.draft(sheet_id).choices == {} and again.load(sheet_id).text("nominations.1") == "2:6 5:3"
    again.choose(sheet_id, "round.1.1", "accepted", who="J", line="6:5 3:1")  # reconsidered: accepted now
    assert again.load(sheet_id).text("round.1.1") == "6:5 3:1"
    assert again.draft(sheet_id).choices == {"round.1.1": ("accepted", "6:5 3:1")}
    again.undo(sheet_id, who="J")
    again.undo(sheet_id, who="J")
    assert again.load(sheet_id).entries == [] and again.to_undo(sheet_id) is None
