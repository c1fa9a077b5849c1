"""What a new judge meets on the Protocol page (and the frame viewer) with a phone video and a paper sheet: a save
that would write over a file is asked about first and never lands on a video; the rule profile is named by its
rulebook; the date box says how a date is written; a draft made without a name reads as one sentence; a draft's
refusal is about the video it tried, not the next one typed, and its steps show as it reads; the viewer's seconds
speak the reader's language."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from appcheck import goto, ok, renders
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture
from streamlit.testing.v1 import AppTest
from test_app_tournament import tournament  # noqa: F401 - the fixture: a tournament the runner made here

from contract import i18n
from review.cases.sheet import new_protocol
from review.cases.sheet_store import SheetStore
from review.cases.store import Store, default_db_path
from review.game.profiles import PROFILES
from review.game.protocol import validate
from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec
from stopframe_app.views.sheet import box_key

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _page(lang: str = "en", judge: str = "Chief Judge") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if judge:
        at.session_state["judge"] = judge
    at.session_state["lang"] = lang
    at.session_state["view"] = "Protocol"
    return at.run()


def _in_russian(view: str, judge: str | None = None) -> AppTest:
    """The app opened in Russian on `view`, as a judge who reads Russian finds it (`judge`: the name given)."""
    at = AppTest.from_file(APP, default_timeout=60)
    if judge:
        at.session_state["judge"] = judge
    at.session_state["lang"] = "ru"
    with i18n.using("ru"):  # AppTest formats the options of the page's choices in the test's own thread
        at.run()
        return goto(at, view)


def _sample_in_russian() -> AppTest:
    """The bundled sample game opened with its saved hands, in Russian, on the page the app opens on."""
    require_current_sample_fixture()
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["lang"] = "ru"
    at.session_state["game_spec"] = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
    with i18n.using("ru"):
        return at.run()


def _started(at: AppTest) -> str:
    at.button(key="sheet_new_start").click().run()
    ok(at)
    return str(at.session_state["sheet_id"])


def _save_to(at: AppTest, path: Path | str) -> None:
    at.text_input(key="sheet_save_path").input(str(path)).run()
    at.button(key="sheet_save").click().run()


def _replace(at: AppTest) -> list:
    return [c for c in at.checkbox if c.key and c.key.startswith("sheet_save_replace")]


def test_a_save_over_a_file_is_asked_first_and_never_lands_on_a_file_that_is_not_a_protocol(
        data: Path, tmp_path: Path) -> None:
    at = _page()
    sheet_id = _started(at)
    at.text_input(key=box_key(sheet_id, "nominations.1")).input("2:6 5:3 9:8").run()
    video = tmp_path / "table1.mp4"  # the game's video, typed into the wrong box by a slip
    video.write_bytes(b"\x00\x00\x00\x18ftypmp42 not a protocol")
    _save_to(at, video)
    assert at.error and "not a Stopframe protocol" in at.error[0].value
    assert not _replace(at)  # nothing to tick: a file that is not a protocol is never replaced
    assert video.read_bytes() == b"\x00\x00\x00\x18ftypmp42 not a protocol"

    earlier = tmp_path / "game3.protocol.json"  # a protocol saved before: replaced only when the judge ticks so
    shutil.copyfile(SAMPLE_PROTOCOL, earlier)
    _save_to(at, earlier)
    assert at.error and "already holds a protocol" in at.error[0].value
    assert _replace(at), "a protocol already there is offered to be replaced, not written over"
    assert earlier.read_bytes() == SAMPLE_PROTOCOL.read_bytes()
    _replace(at)[0].check().run()
    at.button(key="sheet_save").click().run()
    ok(at)
    saved = json.loads(earlier.read_text(encoding="utf-8"))
    assert validate(saved) == [] and [e["by"] for e in saved["events"] if e["type"] == "nomination"] == [2, 5, 9]
    assert not _replace(at)[0].value  # the next save over it is asked about again

    fresh = tmp_path / "new" / "game4.protocol.json"
    _save_to(at, fresh)
    ok(at)
    assert validate(json.loads(fresh.read_text(encoding="utf-8"))) == []


def test_the_sheets_rule_profile_pickers_name_the_rulebook(data: Path) -> None:
    with i18n.using("ru"):  # AppTest formats the options of the page's choices in the test's own thread
        at = _page("ru")
        new_rules = at.selectbox(key="sheet_new_rules")
        assert new_rules.value == "rfm" and "Федерации" in new_rules.options[0] and new_rules.options[0].endswith("· rfm")
        sheet_id = _started(at)
        on_sheet = at.selectbox(key=box_key(sheet_id, "rules"))
        assert [o.rsplit(" · ", 1)[-1] for o in on_sheet.options] == list(PROFILES), on_sheet.options
        assert on_sheet.options[0] == new_rules.options[0]
        at.radio(key="sheet_start_from").set_value("polemica").run()
        assert at.selectbox(key="sheet_import_rules").options == on_sheet.options


def test_the_date_box_says_how_a_date_is_written(data: Path) -> None:
    at = _page()
    sheet_id = _started(at)
    date_box = at.text_input(key=box_key(sheet_id, "game.date"))
    assert date_box.placeholder == "2026-11-29"
    date_box.input("07.12.2026").run()
    ok(at)
    assert [c.value for c in at.caption if "year-month-day" in c.value]
    at.text_input(key=box_key(sheet_id, "game.date")).input("2026-12-07").run()
    ok(at)
    assert not [c.value for c in at.caption if "year-month-day" in c.value]


def test_a_draft_kept_without_a_judges_name_reads_as_a_sentence(data: Path) -> None:
    book = SheetStore(Store(default_db_path()))
    sheet_id = book.start(new_protocol("rfm"), title="Table 1", source="new", who="")
    book.keep_draft(sheet_id, {"proposals": [], "untimed": [], "heard": True, "video": str(tmp_video(data)),
                               "the_games": False, "nights_unread": None, "nights_unseen": []}, who="")
    with i18n.using("ru"):
        at = _page("ru", judge="")
    ok(at)
    said = [c.value for c in at.caption if "Черновик" in c.value]
    assert said and said[0].startswith("Черновик составлен в "), said
    assert not [c for c in said if "—" in c]


def test_nights_not_read_are_explained_by_what_this_page_can_do(data: Path) -> None:
    """A draft that did not look at the nights says how to have them read. Here the video has no seat map with the
    seats' raise zones, so the box to tick is disabled: the sentence names the seat map it needs, not the box."""
    book = SheetStore(Store(default_db_path()))
    sheet_id = book.start(new_protocol("rfm"), title="Table 1", source="new", who="")
    book.keep_draft(sheet_id, {"proposals": [], "untimed": [], "heard": True, "video": str(tmp_video(data)),
                               "the_games": False, "nights_unread": "not_observed", "nights_unseen": []}, who="")
    with i18n.using("ru"):
        at = _page("ru", judge="")
    ok(at)
    assert at.checkbox(key="sheet_draft_nights").disabled
    said = [i.value for i in at.info if "Выстрелы ночей не предложены" in i.value]
    assert len(said) == 1 and "зонами поднятых рук" in said[0] and "отметьте" not in said[0], said


def tmp_video(data: Path) -> Path:
    """A file standing for the game's video (the page only checks that it is there)."""
    data.mkdir(parents=True, exist_ok=True)
    video = data / "table1.mp4"
    video.write_bytes(b"not a video")
    return video


def test_a_drafts_refusal_is_about_the_video_it_tried(data: Path, tmp_path: Path) -> None:
    at = _page()
    sheet_id = _started(at)
    not_video = tmp_path / "notes.mp4"
    not_video.write_text("the judge's notes, not a video", encoding="utf-8")
    at.text_input(key=f"sheet_video_{sheet_id}").input(str(not_video)).run()
    at.button(key="sheet_draft_run").click().run()
    assert not at.exception and len(at.error) == 1 and "notes.mp4" in at.error[0].value.replace("\\", "")
    other = tmp_path / "table1.mp4"
    other.write_bytes(b"another file")
    at.text_input(key=f"sheet_video_{sheet_id}").input(str(other)).run()
    ok(at)  # the refusal of notes.mp4 is not shown under table1.mp4, which has not been tried
    at.text_input(key=f"sheet_video_{sheet_id}").input(str(not_video)).run()
    assert len(at.error) == 1 and "notes.mp4" in at.error[0].value.replace("\\", "")  # back to the file it was about: said again


def test_the_viewers_seconds_steps_speak_russian(data: Path) -> None:
    at = _in_russian("Timeline & frames")
    renders(at)
    labels = {b.key: b.label for b in at.button if b.key and b.key.startswith("frames_step_")}
    assert labels["frames_step_−1 s"] == "−1 с" and labels["frames_step_+1 s"] == "+1 с", labels


def test_the_draft_tells_its_steps_as_it_goes(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Drafting reads the video (minutes for a video with no saved analysis): the page hands the draft a place to
    tell its steps while it runs (listening, finding the seats, the frames looked at), and clears it once the cards
    are there."""
    import pipeline.draft

    require_current_sample_fixture()
    real, told = pipeline.draft.draft_game, []

    def telling(**kwargs: object) -> object:
        progress = kwargs.get("progress")
        assert callable(progress), "the page gives the draft no way to tell its steps"
        kwargs["progress"] = lambda said: (told.append(said), progress(said))
        return real(**kwargs)

    monkeypatch.setattr(pipeline.draft, "draft_game", telling)
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["judge"] = "Chief Judge"
    at.session_state["view"] = "Protocol"
    at.session_state["game_spec"] = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
    at.run()
    sheet_id = _started(at)
    for slot, text in (("nominations.1", "2:6 5:3 9:8"), ("eliminated.1", "6")):
        at.text_input(key=box_key(sheet_id, slot)).input(text).run()
    at.text_input(key=f"sheet_video_{sheet_id}").input(str(SAMPLE_PROTOCOL.with_name("sample_game.mp4"))).run()
    at.button(key="sheet_draft_run").click().run()
    ok(at)
    assert told and any(said.startswith("draft: reading the audio") for said in told), told
    assert not [c.value for c in at.caption if c.value.startswith("draft")]  # cleared: the cards are the answer
    assert any(m.value.startswith("**Day 1, round 1**") for m in at.markdown)


def test_a_quiz_is_counted_in_questions_and_names_its_rulebook(data: Path) -> None:
    """A trainee reading Russian picks «Учебная игра — десять голосований (10 вопросов)», not «(10 голосов)» (ten
    votes cast), and the question names the rulebook, not its code alone."""
    at = _in_russian("Training", "Стажёр")
    with i18n.using("ru"):
        renders(at)
        picked = at.selectbox(key="quiz_set")
        assert all(o.endswith(("вопрос)", "вопроса)", "вопросов)")) for o in picked.options), picked.options
        at.button(key="quiz_start").click().run()
        renders(at)
    rules = [m.value for m in at.markdown if m.value.startswith("Регламент: ")]
    assert rules and "Турнирные правила" in rules[0] and "rfm" in rules[0], rules


def test_the_tournament_page_writes_its_date_and_points_as_a_russian_reader_does(data: Path, tournament: Path) -> None:  # noqa: F811
    """The run's time is a date in words, not the file's 2026-12-07T00:50:44Z; a fine of 0.2 points reads -0,2."""
    at = _in_russian("Tournament", "Главный судья")
    with i18n.using("ru"):
        at.text_input(key="tournament_path").set_value(str(tournament / "tournament.json"))
        at.button(key="tournament_open").click().run()
        renders(at)
    created = json.loads((tournament / "tournament.json").read_text(encoding="utf-8"))["created"]
    summary = [m.value for m in at.markdown if "Составлено" in m.value]
    said = summary[0].replace("\\", "") if summary else ""
    assert created not in said and "г., " in said, summary
    players = at.dataframe[-1].value
    points = [str(v) for v in players["баллы"]]
    assert "-0,2" in points and not [v for v in points if "." in v], points


def test_the_appeal_forms_subject_and_ground_are_told_apart_in_russian(data: Path) -> None:
    """The case's subject (the finding or event it is opened on) and its ground (the rulebook's clause) were both
    «Основание …» in Russian: a chief judge could not tell which box is the ground."""
    at = _in_russian("Appeals", "Главный судья")
    renders(at)
    subject = at.selectbox(key="appeal_from").label
    ground = next(s.label for s in at.selectbox if s.key and s.key.startswith("appeal_ground_"))
    assert subject.split()[0] != ground.split()[0], (subject, ground)


def test_recent_games_name_their_rulebook(data: Path) -> None:
    """«регламент: rfm» told a newcomer nothing; the list names the rulebook as the sidebar does, with its code."""
    at = _in_russian("Open a game", "Судья")
    renders(at)
    recent = [m.value for m in at.markdown if "регламент" in m.value]
    assert recent and all("Турнирные правила" in r and "rfm" in r for r in recent), recent


def test_a_drafted_round_says_which_number_is_the_candidate_and_what_its_line_is(data: Path) -> None:
    """«6: 6 голосов» left a newcomer guessing which 6 is the seat; the card says «кандидатура 6: 6 голосов», and its
    line box says it is the line for the sheet."""
    require_current_sample_fixture()
    book = SheetStore(Store(default_db_path()))
    sheet_id = book.start(new_protocol("rfm"), title="Стол 1", source="new", who="Судья")
    for slot, text in (("nominations.1", "2:6 5:3 9:8"), ("eliminated.1", "6")):
        book.enter(sheet_id, slot, text, who="Судья")
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["judge"] = "Судья"
    at.session_state["lang"] = "ru"
    at.session_state["view"] = "Protocol"
    at.session_state["game_spec"] = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
    with i18n.using("ru"):
        at.run()
        at.text_input(key=f"sheet_video_{sheet_id}").input(str(SAMPLE_PROTOCOL.with_name("sample_game.mp4"))).run()
        at.button(key="sheet_draft_run").click().run()
        ok(at)
    lines = [m.value.replace("\\", "") for m in at.markdown if "проголосовали" in m.value]
    assert lines and lines[0].startswith("кандидатура 6: 6 голосов · проголосовали места 1, 2, 4, 5, 7, 10 · "), lines
    # the box under the card is the line that enters the sheet, editable; «Исправьте строку …» read as an order
    # to correct something wrong in the draft
    line_box = at.text_input(key=f"sheet_draft_edit_{sheet_id}_round.1.1")
    assert line_box.label.startswith("Строка для бланка"), line_box.label


def test_the_seat_map_numbers_are_whole_pixels_and_degrees(data: Path) -> None:
    """«960.00» (an English decimal point, and hundredths of a pixel nobody places) in every box of the seat map;
    the boxes show whole pixels and degrees."""
    at = _in_russian("Seat calibration")
    renders(at)
    boxes = {n.key: n.proto.format for n in at.number_input if n.key and n.key.startswith("calib_")}
    assert set(boxes) >= {"calib_cx", "calib_cy", "calib_ax", "calib_ay", "calib_angle", "calib_s1x", "calib_s1y"}
    assert set(boxes.values()) == {"%.0f"}, boxes


def test_the_nights_table_heads_its_times_in_words(data: Path) -> None:
    """The nights' table read «с (с)» and «по (с)» (from, to — and «с» is also the seconds): a start and an end."""
    at = _sample_in_russian()
    renders(at)
    nights = [t.value for t in at.table if "ночь" in [t.value.index.name, *t.value.columns]]
    assert nights, [list(t.value.columns) for t in at.table]
    heads = [str(c).replace("\\", "") for c in nights[0].columns]  # static_table escapes its headings
    assert "начало (с)" in heads and "конец (с)" in heads and "с (с)" not in heads, heads


def test_the_draft_is_one_word_in_russian(data: Path) -> None:
    """The Protocol page heads it «Черновик голосований по видео»; its help beside the voting time and the steps it
    tells (and `stopframe draft`'s) said «набросок»: a newcomer reads two words as two things."""
    with i18n.using("ru"):
        said = [i18n._(m) for m in ("draft: reading the audio of {video} …",
                                    "Only where the video does not begin with the game: the time on the video (m:ss) "
                                    "at which a day's voting begins, for one day it shows. The draft hears every vote "
                                    "by itself; this time tells it which day the votes it hears belong to.")]
        heading = i18n._("Draft the votes from the video")
    assert heading.startswith("Черновик") and all("черновик" in s.lower() for s in said), said
    catalogue = (Path(i18n.po_path("ru"))).read_text(encoding="utf-8")
    assert "наброс" not in catalogue


def test_the_sheet_says_how_its_game_is_audited_and_whose_the_other_pages_are(data: Path) -> None:
    """After typing the sheet, «Выгрузки» and «Проверка голосований» still show the open game (the sample): the
    sheet says so, and how its own game gets there."""
    with i18n.using("ru"):
        at = _page("ru")
        _started(at)
    said = [c.value.replace("\\", "") for c in at.caption if "сохраните протокол" in c.value]
    assert said and "«Открыть игру»" in said[0] and "Stopframe sample tournament" in said[0], said


def test_a_club_file_that_is_not_json_is_named_once(data: Path, tmp_path: Path) -> None:
    """«файл (файл игры Polemica) — некорректный JSON»: the file named twice; it reads «файл игры Polemica — …»."""
    broken = tmp_path / "game.polemica.json"
    broken.write_text('{"players": [1, 2', encoding="utf-8")
    with i18n.using("ru"):
        at = _page("ru")
        at.radio(key="sheet_start_from").set_value("polemica").run()
        at.text_input(key="sheet_import_path").input(str(broken)).run()
        at.button(key="sheet_import_start").click().run()
    said = [e.value.replace("\\", "") for e in at.error]
    assert said and "файл игры Polemica — некорректный JSON" in said[0] and "файл (" not in said[0], said


def test_the_club_files_note_speaks_to_a_judge_not_to_a_command_line(data: Path) -> None:
    """Under the club files the Exports page said «импортируйте файл обратно с --rules rfm»: a command-line option
    on a page; a judge imports a club file on the Protocol page by picking the rule profile."""
    with i18n.using("ru"):
        at = goto(_sample_in_russian(), "Exports")
        renders(at)
    notes = [c.value.replace("\\", "") for c in at.caption if "регламента (rfm)" in c.value.replace("\\", "")]
    assert notes and all("--rules" not in n and "укажите регламент rfm" in n for n in notes), notes


def test_a_save_to_a_place_that_cannot_be_written_says_so_and_names_it(data: Path, tmp_path: Path) -> None:
    """The judge typed the path of a notes file as if it were a folder (…/notes.txt/game3.json): the page showed a
    traceback. It says, in Russian, that the protocol is not saved and which path could not be written, and the notes
    file is left as it was."""
    notes = tmp_path / "notes.txt"
    notes.write_text("the judge's notes", encoding="utf-8")
    with i18n.using("ru"):
        at = _page("ru")
        _started(at)
        _save_to(at, notes / "game3.protocol.json")
    renders(at)
    said = [e.value.replace("\\", "") for e in at.error]
    assert len(said) == 1 and said[0].startswith("Не сохранено: ") and "notes.txt/game3.protocol.json" in said[0], said
    assert "в пути есть файл вместо папки" in said[0], said
    assert not at.success and notes.read_text(encoding="utf-8") == "the judge's notes"


def test_undo_after_accepting_a_proposal_offers_it_again(data: Path) -> None:
    """The judge accepted the night's drafted shooting by a slip and pressed Undo: the box emptied, but the card was
    gone and the list of chosen proposals still said «accepted», so the video's reading could only be had again by
    drafting anew. The undo takes the acceptance back with the entry: the card is offered again, the other choices
    stay as they were."""
    book = SheetStore(Store(default_db_path()))
    sheet_id = book.start(new_protocol("rfm"), title="Table 1", source="new", who="Chief Judge")
    for slot, text in (("nominations.1", "2:6 5:3 9:8"), ("eliminated.1", "6")):
        book.enter(sheet_id, slot, text, who="Chief Judge")
    votes = [{"type": "vote", "day": 1, "round": 1, "candidate": c, "count": n} for c, n in ((6, 5), (3, 1), (8, 4))]
    shooting = {"type": "shooting", "night": 1, "target": 10, "shots": {"2": 10, "7": 10, "9": 10}}
    book.keep_draft(sheet_id, {"proposals": [{"slot": "round.1.1", "events": votes, "line": "6:5 3:1 8:4"},
                                             {"slot": "shooting.1", "events": [shooting], "line": "2:10 7:10 9:10"}],
                               "untimed": [], "heard": True, "video": str(tmp_video(data)), "the_games": False,
                               "nights_unread": None, "nights_unseen": []}, who="Chief Judge")
    at = _page()
    at.button(key="sheet_draft_accept_round.1.1").click().run()
    at.button(key="sheet_draft_accept_shooting.1").click().run()
    ok(at)
    assert at.text_input(key=box_key(sheet_id, "shooting.1")).value == "2:10 7:10 9:10"
    at.button(key="sheet_undo").click().run()
    ok(at)
    assert at.text_input(key=box_key(sheet_id, "shooting.1")).value == ""
    cards = {b.key for b in at.button if b.key and b.key.startswith("sheet_draft_accept_")}
    assert cards == {"sheet_draft_accept_shooting.1"}, cards  # the shooting back; the round still accepted
    chosen = [m.value.replace("\\", "") for m in at.markdown if "accepted" in m.value]
    assert len(chosen) == 1 and chosen[0].endswith("round 1: accepted «6:5 3:1 8:4»"), chosen
    at.button(key="sheet_draft_accept_shooting.1").click().run()
    ok(at)
    assert book.load(sheet_id).text("shooting.1") == "2:10 7:10 9:10"
    assert book.load(sheet_id).text("round.1.1") == "6:5 3:1 8:4"


def test_the_saved_sheets_say_where_they_started_and_when_they_were_changed(data: Path) -> None:
    """The list of saved sheets read «Новый бланк (5 записей, пустой бланк)»: five entries in an empty sheet, and two
    sheets left untitled read the same. Each says it was started empty and when it was last changed."""
    book = SheetStore(Store(default_db_path()))
    typed = book.start(new_protocol("rfm"), title="Новый бланк", source="new", who="Судья")
    for slot, text in (("nominations.1", "2:6 5:3 9:8"), ("round.1.1", "6:5 3:1 8:4"), ("eliminated.1", "6")):
        book.enter(typed, slot, text, who="Судья")
    book.start(new_protocol("rfm"), title="Новый бланк", source="new", who="Судья")
    with i18n.using("ru"):
        at = _page("ru")
        at.radio(key="sheet_start_from").set_value("saved").run()
        ok(at)
        options = at.selectbox(key="sheet_saved_pick").options
    assert len(options) == 2 and not [o for o in options if "пустой бланк" in o], options
    assert all("начат с пустого; изменён " in o and "г., " in o for o in options), options
    assert [o for o in options if o.startswith("Новый бланк (3 записи; ")], options


def test_the_printable_sheet_of_a_game_with_no_number_is_headed_by_the_sheets_title(
        data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet typed from paper rarely has a game number: its printable sheet (HTML, PDF) was headed «Протокол игры »
    with nothing after it, the title the judge gave the sheet nowhere. It is headed by that title; a game number,
    once typed, heads it as before."""
    import stopframe_app.views.sheet as page

    made: list[str] = []  # each printable sheet the page offers, as its downloads carry it
    real = page.printable

    def kept(*args: object, **kwargs: object) -> str:
        made.append(real(*args, **kwargs))  # type: ignore[arg-type]
        return made[-1]

    monkeypatch.setattr(page, "printable", kept)
    with i18n.using("ru"):
        at = _page("ru")
        at.text_input(key="sheet_new_title").input("Стол 1, игра 3").run()
        sheet_id = _started(at)
        assert "<h1>Протокол игры: Стол 1, игра 3</h1>" in made[-1], made[-1][:600]
        at.text_input(key=box_key(sheet_id, "game.id")).input("17").run()
        ok(at)
    assert "<h1>Протокол игры 17</h1>" in made[-1], made[-1][:600]


def test_paths_pasted_in_quotes_are_read_as_the_files_they_name(data: Path, tmp_path: Path) -> None:
    """Windows' «Copy as path» gives "C:\\…\\game.mp4" in quotes, a file manager may give '…': the page said «no
    video file there» and would have saved to a file whose name begins with a quote. Every path box of the page reads
    the path inside one pair of quotes, the spaces around them left out too."""
    given = tmp_path / "game 3.protocol.json"
    shutil.copyfile(SAMPLE_PROTOCOL, given)
    at = _page()
    at.radio(key="sheet_start_from").set_value("protocol").run()
    at.text_input(key="sheet_protocol_path").input(f' "{given}" ').run()
    at.button(key="sheet_protocol_start").click().run()
    ok(at)
    sheet_id = str(at.session_state["sheet_id"])
    assert at.text_input(key=box_key(sheet_id, "round.1.1")).value == "6:5 3:1 8:4"

    video = tmp_path / "table 1.mp4"
    video.write_bytes(b"not a video")
    at.text_input(key=f"sheet_video_{sheet_id}").input(f'"{video}"').run()
    ok(at)  # no «no video file there»
    assert at.button(key="sheet_draft_run").label == "Draft the votes"  # offered, from that video
    assert [c.value for c in at.caption if "table 1.mp4" in c.value.replace("\\", "")]

    out = tmp_path / "saved" / "game 3.sheet.protocol.json"
    _save_to(at, f"  '{out}'")
    ok(at)
    assert validate(json.loads(out.read_text(encoding="utf-8"))) == []

    at.radio(key="sheet_start_from").set_value("polemica").run()
    polemica = Path(__file__).resolve().parents[1] / "fixtures" / "import" / "polemica_game.json"
    at.text_input(key="sheet_import_path").input(f"'{polemica}'").run()
    at.button(key="sheet_import_start").click().run()
    ok(at)
    imported = str(at.session_state["sheet_id"])
    assert imported != sheet_id and at.text_input(key=box_key(imported, "round.1.1")).value
    assert not [p for p in tmp_path.rglob("*") if "'" in p.name or '"' in p.name]


def test_a_protocol_the_sheet_cannot_hold_is_named_with_the_place_and_what_to_do(data: Path, tmp_path: Path) -> None:
    """«В этот протокол нельзя вносить записи: его players — не список объектов; stopframe validate покажет, где»:
    no file named, a field of the file's own, and a command line to run. The page names the file and the place as the
    Vote audit page names it (игрок 3), and says what to do here: an empty sheet, or the file's problems listed."""
    broken = json.loads(SAMPLE_PROTOCOL.read_text(encoding="utf-8"))
    broken["players"][2] = 3  # the third player written as a bare number
    given = tmp_path / "стол 2, игра 5.json"
    given.write_text(json.dumps(broken, ensure_ascii=False), encoding="utf-8")
    with i18n.using("ru"):
        at = _page("ru")
        at.radio(key="sheet_start_from").set_value("protocol").run()
        at.text_input(key="sheet_protocol_path").input(str(given)).run()
        at.button(key="sheet_protocol_start").click().run()
    renders(at)
    said = [e.value.replace("\\", "") for e in at.error]
    assert len(said) == 1 and said[0].startswith("Файл стол 2, игра 5.json нельзя перенести в бланк: "), said
    assert "игрок 3 в списке игроков" in said[0], said
    assert "Начните пустой бланк" in said[0] and "«Открыть игру»" in said[0] and "«Проверка голосований»" in said[0]
    assert not [w for w in ("players", "stopframe", "validate", "объект") if w in said[0]], said
    assert at.session_state["sheet_id"] is None and not SheetStore(Store(default_db_path())).sheets()


def test_undo_after_rejecting_a_proposal_offers_it_again_and_keeps_the_boxes(data: Path) -> None:
    """The judge rejected the drafted round by a slip and pressed «Отменить»: the rejection made no entry, so Undo
    emptied the nominations typed before it, and the round could never be reconsidered. Undo takes the rejection
    back: the card is offered again, every box reads as it did, and the button says what it takes back."""
    book = SheetStore(Store(default_db_path()))
    sheet_id = book.start(new_protocol("rfm"), title="Стол 1", source="new", who="Судья")
    votes = [{"type": "vote", "day": 1, "round": 1, "candidate": c, "count": n} for c, n in ((6, 5), (3, 1), (8, 4))]
    book.keep_draft(sheet_id, {"proposals": [{"slot": "round.1.1", "events": votes, "line": "6:5 3:1 8:4"}],
                               "untimed": [], "heard": True, "video": str(tmp_video(data)), "the_games": False,
                               "nights_unread": None, "nights_unseen": []}, who="Судья")
    with i18n.using("ru"):
        at = _page("ru", judge="Судья")
        at.text_input(key=box_key(sheet_id, "nominations.1")).input("2:6 5:3 9:8").run()
        at.button(key="sheet_draft_reject_round.1.1").click().run()
        ok(at)
        assert not at.button(key="sheet_undo").disabled
        assert "отклонённое предложение" in (at.button(key="sheet_undo").help or "")
        at.button(key="sheet_undo").click().run()
        ok(at)
        assert at.text_input(key=box_key(sheet_id, "nominations.1")).value == "2:6 5:3 9:8"
        assert book.load(sheet_id).text("nominations.1") == "2:6 5:3 9:8"
        cards = {b.key for b in at.button if b.key and b.key.startswith("sheet_draft_accept_")}
        assert cards == {"sheet_draft_accept_round.1.1"}, cards  # offered again
        assert not [m.value for m in at.markdown if "отклонено" in m.value]
        assert "2\\:6 5\\:3 9\\:8" in (at.button(key="sheet_undo").help or "")  # next: the nominations typed
        at.button(key="sheet_draft_accept_round.1.1").click().run()
        ok(at)
    assert book.load(sheet_id).text("round.1.1") == "6:5 3:1 8:4"


def test_a_drafted_count_the_videos_hands_do_not_make_says_so(data: Path) -> None:
    """The judge typed the paper's counts (6:5 3:1 8:4) before drafting; the video saw six hands for 6, so the draft
    kept the paper's 5 and proposed no voters for it. The card read «кандидатура 6: 5 голосов · проголосовали —», as
    if nobody had voted; it says the count is the sheet's and that the video's hands do not agree with it."""
    book = SheetStore(Store(default_db_path()))
    sheet_id = book.start(new_protocol("rfm"), title="Стол 1", source="new", who="Судья")
    for slot, text in (("nominations.1", "2:6 5:3 9:8"), ("round.1.1", "6:5 3:1 8:4"), ("eliminated.1", "6")):
        book.enter(sheet_id, slot, text, who="Судья")
    times = {"t": 3.147, "cutoff": 4.694, "announced": 5.548}
    scores = {"t": 0.996, "cutoff": 0.998, "announced": 0.9}
    votes = [  # as the draft of the bundled sample game makes them from that sheet
        {"type": "vote", "day": 1, "round": 1, "candidate": 6, "count": 5, **times, "x_draft_score": scores},
        {"type": "vote", "day": 1, "round": 1, "candidate": 3, "count": 1, "voters": [3], "t": 9.894, "cutoff": 11.444,
         "announced": 12.298, "x_draft_score": {**scores, "voters": 0.804}},
        {"type": "vote", "day": 1, "round": 1, "candidate": 8, "count": 4, "t": 16.648, "cutoff": 18.394,
         "announced": 19.248, "x_draft_score": scores}]
    line = "6:5@3.147,4.694,5.548 3:1/3@9.894,11.444,12.298 8:4@16.648,18.394,19.248"

    def cards() -> dict[str, str]:
        """The page's line for each candidate of the draft kept as `votes` now says."""
        book.keep_draft(sheet_id, {"proposals": [{"slot": "round.1.1", "events": votes, "line": line}],
                                   "untimed": [], "heard": True, "video": str(tmp_video(data)), "the_games": False,
                                   "nights_unread": None, "nights_unseen": []}, who="Судья")
        with i18n.using("ru"):
            at = _page("ru", judge="Судья")
        ok(at)
        return {m.value.replace("\\", "").split(":")[0]: m.value.replace("\\", "") for m in at.markdown
                if m.value.replace("\\", "").startswith("кандидатура ")}

    lines = cards()
    six = lines["кандидатура 6"]
    assert six.startswith("кандидатура 6: 5 голосов по бланку · ") and "руки на видео с этим счётом не сходятся" in six
    assert "проголосовали" not in six, six
    # «1 голос · проголосовали 3» read as three voters: the one voter is said as a seat
    assert lines["кандидатура 3"].startswith("кандидатура 3: 1 голос · проголосовало место 3 · "), lines
    assert lines["кандидатура 8"].startswith("кандидатура 8: 4 голоса по бланку · руки на видео"), lines
    votes[2]["x_video_voters"] = [1, 6, 9]  # a draft that kept the hands the video saw: they are named
    eight = cards()["кандидатура 8"]
    assert eight.startswith("кандидатура 8: 4 голоса по бланку · руки на видео с этим счётом не сходятся: 3 руки, "
                            "места 1, 6, 9, проверьте их по видео"), eight
