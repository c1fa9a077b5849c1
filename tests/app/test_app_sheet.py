"""The Protocol page: a judge copies a paper sheet box by box; every box is saved as it is left, problems show
beside it with their clause, and a reload (a fresh AppTest on the same data folder) finds everything typed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from appcheck import ok
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture
from streamlit.testing.v1 import AppTest
from test_app_words import assert_people_words

from contract import i18n
from review.cases.pdf import chromium
from review.cases.sheet import new_protocol
from review.cases.sheet_entry import as_shown
from review.cases.sheet_store import SheetStore
from review.cases.store import Store, default_db_path
from review.game.engine import replay
from review.game.protocol import validate
from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec
from stopframe_app.views.sheet import box_key

APP = str(Path(__file__).resolve().parents[2] / "app.py")
POLEMICA = Path(__file__).resolve().parents[1] / "fixtures" / "import" / "polemica_game.json"
SAMPLE_SHEET = [  # the bundled sample game's paper sheet, box by box (tests/cases/test_sheet.py types it too)
    *((f"role.{seat}", role) for seat, role in {2: "м", 4: "ш", 7: "д", 9: "м"}.items()),
    ("nominations.1", "2:6 5:3 9:8"), ("eliminated.1", "6"), ("shooting.1", "2:10 7:10 9:10"), ("check.1.don", "4"),
    ("check.1.sheriff", "9"), ("best_move", "2 9 3"), ("nominations.2", "4:9 9:3"), ("eliminated.2", "9 3"),
    ("shooting.2", "2:4 7:8"), ("check.2.don", "1"), ("check.2.sheriff", "2"), ("nominations.3", "4:2 2:7 7:5"),
    ("eliminated.3", "2"), ("shooting.3", "7:4"), ("check.3.don", "8"), ("nominations.4", "1:7 7:1"),
    ("eliminated.4", "7"), ("result", "red"),
]
# Day 1 of the bundled sample game, as its paper sheet has it.
DAY1 = [("role.2", "м"), ("role.7", "д"), ("role.9", "м"), ("role.4", "ш"), ("nominations.1", "2:6 5:3 9:8"),
        ("round.1.1", "6:5 3:1 8:4"), ("eliminated.1", "6")]


def page(lang: str = "en") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["judge"] = "Chief Judge"
    at.session_state["lang"] = lang
    at.session_state["view"] = "Protocol"  # straight to the page, as a judge coming back to the tab
    return at.run()


def typed(at: AppTest, slot: str, text: str) -> None:
    at.text_input(key=box_key(at.session_state["sheet_id"], slot)).input(text).run()
    ok(at)


def test_day_one_typed_in_is_in_the_store_and_on_the_page_after_a_reload(data: Path) -> None:
    at = page()
    ok(at)
    at.button(key="sheet_new_start").click().run()
    sheet_id = at.session_state["sheet_id"]
    typed(at, "nominations.1", "2:6 5:3 9:8")
    typed(at, "round.1.1", "6:5 3:1 8:3")  # a slip of the pen: the silent players' votes go to the last candidate
    shown = " ".join(m.value for m in at.markdown)
    assert "rfm 4\\.4\\.10" in shown and "silent players" in shown
    for slot, text in DAY1:
        typed(at, slot, text)
    assert "rfm 4\\.4\\.10" not in " ".join(m.value for m in at.markdown)
    history = [m.value for m in at.expander[-1].markdown]
    assert history[0].endswith("· Chief Judge · day 1, nominations: «2\\:6 5\\:3 9\\:8»") and len(history) == 8  # the nominations typed again as they read: no entry

    again = page()  # the tab closed and opened again: a new session on the same store
    ok(again)
    assert again.session_state["sheet_id"] == sheet_id
    for slot, text in DAY1:
        assert again.text_input(key=box_key(sheet_id, slot)).value == text
    stored = SheetStore(Store(default_db_path())).load(sheet_id).protocol()
    assert replay(stored).eliminations == [{"seat": 6, "cause": "vote", "day": 1}]
    assert [e.get("count") for e in stored["events"] if e["type"] == "vote"] == [5, 1, 4]

    again.button(key="sheet_undo").click().run()  # undo works after the reload too
    ok(again)
    assert again.text_input(key=box_key(sheet_id, "eliminated.1")).value == ""
    assert not [e for e in SheetStore(Store(default_db_path())).load(sheet_id).protocol()["events"]
                if e["type"] == "elimination"]


def test_a_protocol_opens_with_its_boxes_filled_and_a_tie_shows_the_next_round(data: Path) -> None:
    at = page()
    at.radio(key="sheet_start_from").set_value("protocol").run()
    at.text_input(key="sheet_protocol_path").input(str(SAMPLE_PROTOCOL)).run()
    at.button(key="sheet_protocol_start").click().run()
    ok(at)
    sheet_id = at.session_state["sheet_id"]
    assert at.text_input(key=box_key(sheet_id, "round.1.1")).value == "6:5 3:1 8:4"
    assert at.text_input(key=box_key(sheet_id, "round.2.2")).value == "9:4 3:4"
    assert at.text_input(key=box_key(sheet_id, "lift.2")).value == "5"
    assert at.text_input(key=box_key(sheet_id, "nickname.1")).value == "Алмаз"
    assert any("complete and valid" in m.value for m in at.markdown)
    # the open game's own sheet drafts from the open game's video; a sheet from paper waits for its own
    assert at.text_input(key=f"sheet_video_{sheet_id}").value == str(SAMPLE_PROTOCOL.with_name("sample_game.mp4"))
    typed(at, "round.2.1", "9:4 3:3")  # the revote and the lift vote go: their boxes say why
    assert_people_words(at, "Protocol, a protocol with problems")
    html_page = next(d for d in at.get("download_button") if d.proto.label == "Printable sheet (HTML)")
    assert html_page is not None


def test_words_typed_are_shown_escaped_and_a_club_file_can_start_a_sheet(data: Path) -> None:
    at = page()
    at.button(key="sheet_new_start").click().run()
    typed(at, "nominations.1", "**x**")
    assert any("«\\*\\*x\\*\\*»" in m.value for m in at.markdown)
    at.radio(key="sheet_start_from").set_value("polemica").run()
    at.text_input(key="sheet_import_path").input(str(POLEMICA)).run()
    at.button(key="sheet_import_start").click().run()
    ok(at)
    assert at.text_input(key=box_key(at.session_state["sheet_id"], "round.1.1")).value


def test_a_file_that_is_not_a_game_is_one_sentence(data: Path, tmp_path: Path) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    at = page()
    at.radio(key="sheet_start_from").set_value("mafiaratings").run()
    at.text_input(key="sheet_import_path").input(str(bad)).run()
    at.button(key="sheet_import_start").click().run()
    assert not at.exception and len(at.error) == 1 and "notes\\.json" in at.error[0].value


def test_the_page_in_russian(data: Path) -> None:
    at = page("ru")
    ok(at)
    assert at.header[0].value == "Бланк протокола"
    with i18n.using("ru"):  # AppTest formats the options of the page's choices in the test's own thread
        at.button(key="sheet_new_start").click().run()
    labels = [ti.label for ti in at.text_input]
    assert "Выставления (кто:кого, по порядку)" in labels and "Место 1: ник" in labels


def test_a_days_voting_time_on_the_video_is_kept_and_a_wrong_one_said_in_russian(data: Path) -> None:
    at = page("ru")
    ok(at)
    with i18n.using("ru"):  # AppTest formats the options of the page's choices in the test's own thread
        at.button(key="sheet_new_start").click().run()
        sheet_id = at.session_state["sheet_id"]
        assert "Где голосования на видео (необязательно)" in [e.label for e in at.expander]
        typed(at, "voting_at.1", "1:05")
        stored = SheetStore(Store(default_db_path())).load(sheet_id).protocol()
        assert [e.get("t") for e in stored["events"] if e.get("phase") == "voting"] == [65.0]
        typed(at, "voting_at.1", "1:75")
        shown = " ".join(m.value for m in at.markdown)
        assert "не время на видео" in shown and "1\\:75" in shown
        assert page("ru").text_input(key=box_key(sheet_id, "voting_at.1")).value == "1:75"  # as typed, after a reload


def _kept_draft(**held: object) -> AppTest:
    """The page in Russian on a new sheet whose kept draft proposes nothing and says `held` of how it was made."""
    at = page("ru")
    with i18n.using("ru"):
        at.button(key="sheet_new_start").click().run()
        SheetStore(Store(default_db_path())).keep_draft(at.session_state["sheet_id"], {
            "proposals": [], "untimed": [], "heard": True, "video": "game.mp4", **held}, who="Судья")
        at.run()
    ok(at)
    return at


def test_a_draft_that_could_not_tell_the_days_apart_says_what_one_time_would_do(data: Path) -> None:
    said = " ".join(m.value for m in _kept_draft(in_order=True).info)
    assert "голосования взяты по порядку игры" in said and "Где голосования на видео" in said


def test_a_draft_made_with_a_seat_map_found_unsure_says_what_to_check_before_accepting(data: Path) -> None:
    # the draft found the seats itself, with no table outline and two chairs never seen with a hand
    at = _kept_draft(found_seats={"outline": False, "guessed": [7, 8]})
    said = [w.value for w in at.warning]
    assert any("без контура стола" in w and "сбиться на один стул" in w for w in said)
    assert any(w.startswith("Места 7, 8") and "угаданы между зонами соседей" in w for w in said)
    assert "Разметка мест" in " ".join(c.value for c in at.caption)


def test_the_exports_offer_what_validates_and_never_write_over_the_sheets_own_file(data: Path, tmp_path: Path) -> None:
    given = tmp_path / "game.protocol.json"
    given.write_text(SAMPLE_PROTOCOL.read_text(encoding="utf-8"), encoding="utf-8")
    at = page()
    at.radio(key="sheet_start_from").set_value("protocol").run()
    at.text_input(key="sheet_protocol_path").input(str(given)).run()
    at.button(key="sheet_protocol_start").click().run()
    ok(at)
    downloads = [d.proto.label for d in at.get("download_button")]
    assert "Protocol (Stopframe JSON)" in downloads and "Printable sheet (HTML)" in downloads
    infos = " ".join(i.value for i in at.info)
    assert "Polemica game file \\(JSON\\) is not offered" in infos  # the sample's votes are counts only
    # ... and the sheet says where its voters are written: after a slash in the round's box
    assert "On the sheet, the voters go after a slash in the round's box, such as 6:5/1,2,4,7,9." in \
        infos.replace("\\", "")
    assert_people_words(at, "Protocol, its exports")
    typed(at, "round.1.1", "6:6 3:1 8:3")
    at.text_input(key="sheet_save_path").input(str(given)).run()
    at.button(key="sheet_save").click().run()
    assert at.error and "never overwrites" in at.error[0].value
    assert given.read_text(encoding="utf-8") == SAMPLE_PROTOCOL.read_text(encoding="utf-8")
    out = tmp_path / "out" / "game.sheet.protocol.json"
    at.text_input(key="sheet_save_path").input(str(out)).run()
    at.button(key="sheet_save").click().run()
    ok(at)
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert validate(saved) == [] and [e["count"] for e in saved["events"] if e["type"] == "vote"][:3] == [6, 1, 3]
    at.text_input(key="sheet_save_path").input("bare.protocol.json").run()  # no folder: the app's, not the cwd
    at.button(key="sheet_save").click().run()
    ok(at)
    assert validate(json.loads((data / "protocols" / "bare.protocol.json").read_text(encoding="utf-8"))) == []
    assert not Path("bare.protocol.json").exists()


def test_the_video_typed_for_a_sheet_is_kept_with_it_and_never_enters_its_protocol(data: Path) -> None:
    """The judge gives the video's path before drafting and closes the tab: it is there again after the reload,
    as the boxes are; the protocol keeps no path of the judge's machine (its video.path is the file's business)."""
    at = page()
    at.button(key="sheet_new_start").click().run()
    sheet_id = at.session_state["sheet_id"]
    video = str(SAMPLE_PROTOCOL.with_name("sample_game.mp4"))
    at.text_input(key=box_key(sheet_id, "video")).input(video).run()
    ok(at)
    again = page()
    assert again.text_input(key=box_key(sheet_id, "video")).value == video
    stored = SheetStore(Store(default_db_path())).load(sheet_id)
    assert "video" not in stored.protocol() and validate(stored.protocol()) == []


def test_the_printable_sheet_is_printed_to_pdf_on_request_and_offered_until_the_sheet_changes(data: Path) -> None:
    if chromium() is None:
        pytest.skip("Chromium is not installed: it prints the PDF (apt-get install chromium, as .ci/run does)")
    at = page()
    at.radio(key="sheet_start_from").set_value("protocol").run()
    at.text_input(key="sheet_protocol_path").input(str(SAMPLE_PROTOCOL)).run()
    at.button(key="sheet_protocol_start").click().run()
    ok(at)
    labels = lambda: [d.proto.label for d in at.get("download_button")]  # noqa: E731
    assert "Printable sheet (PDF)" not in labels()  # printed only when asked: Chromium takes a second or two
    at.button(key="sheet_pdf").click().run()
    ok(at)
    assert "Printable sheet (PDF)" in labels()
    printed = list((data / "sheets").glob("*.sheet.pdf"))
    assert len(printed) == 1 and printed[0].read_bytes().startswith(b"%PDF")
    typed(at, "eliminated.4", "1")  # the sheet changed: the PDF printed before is no longer offered
    assert "Printable sheet (PDF)" not in labels()


def test_votes_drafted_from_the_video_enter_the_sheet_only_when_accepted(data: Path) -> None:
    """The sample game's paper sheet typed without its votes; the draft (its video's sound, its saved hands)
    proposes each round; one accepted, one accepted as edited, one rejected."""
    require_current_sample_fixture()
    book = SheetStore(Store(default_db_path()))
    sheet_id = book.start(new_protocol("rfm"), title="Sample, typed", source="new", who="Chief Judge")
    for slot, text in SAMPLE_SHEET:
        if not slot.startswith(("round.", "lift.")):
            book.enter(sheet_id, slot, text, who="Chief Judge")
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["judge"] = "Chief Judge"
    at.session_state["view"] = "Protocol"
    at.session_state["game_spec"] = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
    at.run()
    ok(at)
    assert at.session_state["sheet_id"] == sheet_id
    assert not [b for b in at.button if b.key == "sheet_draft_run"]  # a paper sheet has no video until given one
    at.text_input(key=f"sheet_video_{sheet_id}").input(str(SAMPLE_PROTOCOL.with_name("nowhere.mp4"))).run()
    assert [e.value for e in at.error] and "nowhere.mp4" in at.error[0].value.replace("\\", "")
    at.text_input(key=f"sheet_video_{sheet_id}").input(str(SAMPLE_PROTOCOL.with_name("sample_game.mp4"))).run()
    at.button(key="sheet_draft_run").click().run()
    ok(at)
    assert any(m.value.startswith("**Day 1, round 1**") for m in at.markdown)
    assert_people_words(at, "Protocol, the votes drafted")
    captions = [c for img in at.get("image") for c in img.captions]
    assert any(c.startswith("At «Стоп»") for c in captions), captions  # each round's frame at «Стоп»
    assert book.load(sheet_id).text("round.1.1") == ""  # proposed, not entered
    at.button(key="sheet_draft_accept_round.1.1").click().run()
    ok(at)
    at.text_input(key="sheet_draft_edit_" + sheet_id + "_round.4.1").input("7:3/1,5,8 1:1/7").run()
    at.button(key="sheet_draft_edited_round.4.1").click().run()
    at.button(key="sheet_draft_reject_round.3.1").click().run()
    ok(at)
    sheet = book.load(sheet_id)
    assert sheet.text("round.1.1").startswith("6:6/1,2,4,5,7,10@")
    # edited by hand, the round keeps when each vote happened on the video; the boxes show the judge's words only
    assert as_shown(sheet.text("round.4.1")) == "7:3/1,5,8 1:1/7" and sheet.text("round.4.1").startswith("7:3/1,5,8@")
    assert sheet.text("round.3.1") == ""
    assert at.text_input(key=box_key(sheet_id, "round.1.1")).value == as_shown(sheet.text("round.1.1"))
    assert "@" not in at.text_input(key=box_key(sheet_id, "round.1.1")).value


def test_the_sheet_is_laid_out_for_its_rule_profile(data: Path) -> None:
    at = page()
    at.button(key="sheet_new_start").click().run()
    sheet_id = at.session_state["sheet_id"]
    labels = [ti.label for ti in at.text_input]
    assert "In the day: fouls, fines, removals" in labels and box_key(sheet_id, "best_move") in [ti.key for ti in at.text_input]
    at.selectbox(key=box_key(sheet_id, "rules")).set_value("showtime").run()  # showtime: remarks, no best move
    ok(at)
    labels = [ti.label for ti in at.text_input]
    assert "In the day: remarks, removals" in labels and box_key(sheet_id, "best_move") not in [ti.key for ti in at.text_input]
    assert SheetStore(Store(default_db_path())).load(sheet_id).protocol()["rules"] == "showtime"


def test_a_draft_the_rules_refuse_is_one_sentence_naming_the_box(data: Path) -> None:
    book = SheetStore(Store(default_db_path()))
    sheet_id = book.start(new_protocol("rfm"), title="g", source="new", who="J")
    for slot, text in (("nominations.1", "2:6 5:3"), ("eliminated.1", "6"), ("shooting.1", "-"),
                       ("nominations.2", "6:3")):  # seat 6 left on day 1 and cannot nominate on day 2
        book.enter(sheet_id, slot, text, who="J")
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["view"] = "Protocol"
    at.session_state["game_spec"] = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
    at.run()
    at.text_input(key=f"sheet_video_{sheet_id}").input(str(SAMPLE_PROTOCOL.with_name("sample_game.mp4"))).run()
    at.button(key="sheet_draft_run").click().run()
    assert not at.exception and len(at.error) == 1 and "rfm 4.4.12" in at.error[0].value.replace("\\", "")
    assert "events[" not in at.error[0].value.replace("\\", "")
    assert book.load(sheet_id).text("round.1.1") == ""


def _draft_page(spec: GameSpec) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["judge"] = "Chief Judge"
    at.session_state["view"] = "Protocol"
    at.session_state["game_spec"] = spec
    return at.run()


def _waiting(at: AppTest) -> list[str]:
    """The boxes whose proposals wait for the judge (their accept buttons)."""
    return [b.key.removeprefix("sheet_draft_accept_") for b in at.button
            if b.key and b.key.startswith("sheet_draft_accept_")]


def test_the_draft_and_the_judges_choices_survive_a_reload_and_the_nights_shots_are_proposed(data: Path) -> None:
    """The sample's paper sheet typed without its votes and night 2's shooting: the draft proposes each round and
    night 2's shot (from the hands raised in the saved analysis of its nights: the blacks shot different seats, a
    miss); the tab closes after one round is accepted, and the new session finds the same proposals, the accepted
    one chosen, and accepts the shot."""
    require_current_sample_fixture()
    book = SheetStore(Store(default_db_path()))
    sheet_id = book.start(new_protocol("rfm"), title="Sample, typed", source="new", who="Chief Judge")
    for slot, text in SAMPLE_SHEET:
        if not slot.startswith(("round.", "lift.", "shooting.2")):
            book.enter(sheet_id, slot, text, who="Chief Judge")
    spec = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
    at = _draft_page(spec)
    at.text_input(key=f"sheet_video_{sheet_id}").input(str(SAMPLE_PROTOCOL.with_name("sample_game.mp4"))).run()
    at.button(key="sheet_draft_run").click().run()
    ok(at)
    offered = _waiting(at)
    assert offered[:1] == ["round.1.1"] and [s for s in offered if s.startswith("shooting.")] == ["shooting.2"]
    shown = " ".join(m.value for m in at.markdown)
    assert "**Night 2, shooting**" in shown and "Seat 2 shoots 4" in shown and "different seats" in shown
    assert any(c.startswith("At the shot") for img in at.get("image") for c in img.captions)
    assert not any("nights' shots are not proposed" in i.value for i in at.info)
    assert_people_words(at, "Protocol, the votes and shots drafted")
    assert book.load(sheet_id).text("shooting.2") == ""  # proposed, not entered
    at.button(key="sheet_draft_accept_round.1.1").click().run()
    ok(at)

    again = _draft_page(spec)  # the tab closed and opened again: a new session on the same store
    ok(again)
    assert again.session_state["sheet_id"] == sheet_id
    assert _waiting(again) == [slot for slot in offered if slot != "round.1.1"]  # the same proposals, one chosen
    assert any(e.label.startswith("Chosen: 1 proposal") for e in again.expander)
    again.button(key="sheet_draft_accept_shooting.2").click().run()
    again.button(key="sheet_draft_reject_round.3.1").click().run()
    ok(again)
    sheet = book.load(sheet_id)
    assert sheet.text("shooting.2") == "2:4 7:8" and sheet.text("round.3.1") == ""
    assert sheet.text("round.1.1").startswith("6:6/1,2,4,5,7,10@")
    assert again.text_input(key=box_key(sheet_id, "shooting.2")).value == "2:4 7:8"
    third = _draft_page(spec)
    assert not {"shooting.2", "round.3.1", "round.1.1"} & set(_waiting(third))
    assert any(e.label.startswith("Chosen: 3 proposals") for e in third.expander)


def test_a_draft_without_a_reading_of_the_nights_says_so_in_one_sentence(data: Path, tmp_path: Path) -> None:
    require_current_sample_fixture()
    day_only = tmp_path / "sample_game.observations.json"
    saved = json.loads(SAMPLE_OBSERVATIONS.read_text(encoding="utf-8"))
    day_only.write_text(json.dumps({k: v for k, v in saved.items() if k not in (
        "x_raised", "x_shown_numbers", "x_night_windows", "x_night_words")}), encoding="utf-8")
    book = SheetStore(Store(default_db_path()))
    sheet_id = book.start(new_protocol("rfm"), title="g", source="new", who="J")
    for slot, text in SAMPLE_SHEET:
        if not slot.startswith(("round.", "lift.", "shooting.2")):
            book.enter(sheet_id, slot, text, who="J")
    at = _draft_page(GameSpec(str(SAMPLE_PROTOCOL), observations=str(day_only)))
    at.text_input(key=f"sheet_video_{sheet_id}").input(str(SAMPLE_PROTOCOL.with_name("sample_game.mp4"))).run()
    at.button(key="sheet_draft_run").click().run()
    ok(at)
    said = [i.value for i in at.info if "nights' shots are not proposed" in i.value]
    assert len(said) == 1 and "without its nights" in said[0]
    assert not [s for s in _waiting(at) if s.startswith("shooting.")] and "round.1.1" in _waiting(at)


def test_the_draft_speaks_russian(data: Path) -> None:
    """A Russian judge's draft: the cards of the rounds and of the night's shot, the kept draft's line and the
    choices made, all in Russian."""
    from test_app_one_language import leftovers, protocol_names

    require_current_sample_fixture()
    book = SheetStore(Store(default_db_path()))
    sheet_id = book.start(new_protocol("rfm"), title="Стол 1", source="new", who="Судья")
    for slot, text in SAMPLE_SHEET:
        if not slot.startswith(("round.", "lift.", "shooting.2")):
            book.enter(sheet_id, slot, "к" if slot == "result" else text, who="Судья")  # «красные»
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["judge"] = "Судья"
    at.session_state["lang"] = "ru"
    at.session_state["view"] = "Protocol"
    at.session_state["game_spec"] = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
    names = protocol_names() | {"Судья"}
    with i18n.using("ru"):  # AppTest formats the options of the page's choices in the test's own thread
        at.run()
        at.text_input(key=f"sheet_video_{sheet_id}").input(str(SAMPLE_PROTOCOL.with_name("sample_game.mp4"))).run()
        at.button(key="sheet_draft_run").click().run()
        ok(at)
        assert any(m.value == "**Ночь 2, отстрел**" for m in at.markdown)
        assert leftovers(at, "ru", names) == []
        at.button(key="sheet_draft_accept_shooting.2").click().run()
        at.button(key="sheet_draft_reject_round.1.1").click().run()
        ok(at)
    assert any(e.label == "Решено: 2 предложения" for e in at.expander)
    assert leftovers(at, "ru", names) == []


def test_the_nights_are_read_from_the_video_only_when_asked_and_only_with_raise_zones(data: Path,
                                                                                      tmp_path: Path) -> None:
    """Reading the nights from the video is slow, so the judge asks for it; it needs the seats' raise zones, which a
    map found from the video lacks; with a saved analysis its night reading is used and nothing is asked."""
    folder = tmp_path / "game"  # the sample game without its saved analysis beside it
    folder.mkdir()
    (folder / "sample_game.mp4").symlink_to(SAMPLE_PROTOCOL.with_name("sample_game.mp4"))
    protocol = folder / SAMPLE_PROTOCOL.name
    protocol.write_text(SAMPLE_PROTOCOL.read_text(encoding="utf-8"), encoding="utf-8")
    video = str(folder / "sample_game.mp4")
    seats = SAMPLE_PROTOCOL.with_name("sample_game.seats.json")
    no_raise = tmp_path / "no_raise.seats.json"
    plain = json.loads(seats.read_text(encoding="utf-8"))
    plain["seats"] = {n: {"zone": s["zone"]} for n, s in plain["seats"].items()}
    no_raise.write_text(json.dumps(plain), encoding="utf-8")
    shown = {}
    for name, spec in (("raise zones", GameSpec(str(protocol), video=video, seats=str(seats))),
                       ("none", GameSpec(str(protocol), video=video, seats=str(no_raise))),
                       ("saved", GameSpec(str(protocol), video=video, seats=str(seats),
                                          observations=str(SAMPLE_OBSERVATIONS)))):
        at = _draft_page(spec)
        at.button(key="sheet_new_start").click().run()
        sheet_id = at.session_state["sheet_id"]
        at.text_input(key=f"sheet_video_{sheet_id}").input(video).run()
        ok(at)
        box = [c for c in at.checkbox if c.key == "sheet_draft_nights"]
        shown[name] = (len(box), box[0].disabled, box[0].value) if box else (0,)
    assert shown == {"raise zones": (1, False, False), "none": (1, True, False), "saved": (0,)}


@pytest.mark.parametrize("calibrated", [False, True])
def test_a_saved_sheet_opens_on_the_vote_audit_with_its_video_and_the_draft_s_seat_map(
        data: Path, tmp_path: Path, calibrated: bool) -> None:
    """Saved, the sheet's game is one click from the audit: its video, the seat map its draft found (kept in the
    data folder under the game's own name) and the hands it read there go with it, so nothing is analysed again; a
    map the judge calibrated there is used, not replaced, and the hands read with another map are not used."""
    given = tmp_path / "game.protocol.json"
    given.write_text(SAMPLE_PROTOCOL.read_text(encoding="utf-8"), encoding="utf-8")
    video = SAMPLE_PROTOCOL.with_name("sample_game.mp4")
    found = json.loads(SAMPLE_PROTOCOL.with_name("sample_game.seats.json").read_text(encoding="utf-8"))
    at = page()
    at.radio(key="sheet_start_from").set_value("protocol").run()
    at.text_input(key="sheet_protocol_path").input(str(given)).run()
    at.button(key="sheet_protocol_start").click().run()
    sheet_id = at.session_state["sheet_id"]
    SheetStore(Store(default_db_path())).keep_draft(sheet_id, {
        "proposals": [], "untimed": [], "heard": True, "video": str(video), "seat_map": found,
        "observations": str(SAMPLE_OBSERVATIONS)}, who="Chief Judge")
    at.text_input(key=f"sheet_video_{sheet_id}").input(str(video)).run()
    assert not [b for b in at.button if b.key == "sheet_open_audit"]  # not before the protocol is saved
    out = tmp_path / "out" / "game.sheet.protocol.json"
    at.text_input(key="sheet_save_path").input(str(out)).run()
    at.button(key="sheet_save").click().run()
    ok(at)
    from stopframe_app.game import own_name

    seat_file = data / "seatmaps" / f"{own_name(str(out))}.seats.json"
    mine = json.dumps({**found, "x_note": "calibrated by the judge"})
    if calibrated:
        seat_file.parent.mkdir(parents=True)
        seat_file.write_text(mine, encoding="utf-8")
    at.button(key="sheet_open_audit").click().run()
    ok(at)
    spec = at.session_state["game_spec"]
    assert at.session_state["view"] == "Vote audit" and at.header[0].value == "Vote audit"
    assert (spec.protocol, spec.video, spec.seats) == (str(out), str(video), str(seat_file))
    if calibrated:
        assert seat_file.read_text(encoding="utf-8") == mine and spec.observations != str(SAMPLE_OBSERVATIONS)
        assert any(b.key == "analyse" for b in at.button)  # the judge's map: the hands are read again with it
    else:
        assert json.loads(seat_file.read_text(encoding="utf-8")) == found
        assert spec.observations == str(SAMPLE_OBSERVATIONS) and not any(b.key == "analyse" for b in at.button)
