"""What a newcomer reading Russian met on the pages and could not read: a frame box with no label, a seat cell cut
to «подсчёт г…», a quiz question titled by its file, a command-line option on the Tournament page, a rulebook quote
stopping where its text file wrapped the line, and Streamlit's English words in the upload boxes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from appcheck import renders, shown
from test_app_sheet_newcomer import _in_russian, _sample_in_russian
from test_app_tournament import tournament  # noqa: F401 - the fixture: a tournament the runner made here

from contract import i18n
from review.game import clause_text
from review.game.profiles import PROFILES
from stopframe_app import words
from stopframe_app.main import css_string

RULES = Path(__file__).resolve().parents[3] / "shared" / "rules"
FLAG = re.compile(r"(?<![\w-])--[a-z]")


def test_the_frame_number_box_has_a_label_a_judge_reads(data: Path) -> None:
    at = _in_russian("Timeline & frames")
    renders(at)
    box = at.number_input(key="frame_box")
    assert box.label == "Номер кадра", box.label
    shows = box.proto.label_visibility
    assert type(shows).LabelVisibilityOptions.Name(shows.value) == "VISIBLE"  # not collapsed: the judge reads it
    with i18n.using("en"):
        assert i18n._("Frame number") == "Frame number"


def test_the_findings_seat_column_holds_short_cells_and_says_what_they_stand_for(data: Path) -> None:
    """A miscount's cell read «подсчёт голосов за кандидатуру 8» in the seat column, cut to «подсчёт г…»: it reads
    «подсчёт» (the candidate is in the next column), and the column's help says what that means."""
    at = _sample_in_russian()
    renders(at)
    table = next(d for d in at.dataframe if "нарушение" in d.value.columns)
    seats = [str(v) for v in table.value["место"]]
    assert "подсчёт" in seats, seats  # the sample game has miscounts
    assert all(re.fullmatch(r"\d+(, \d+)*|подсчёт", s) for s in seats), seats
    miscounts = table.value[table.value["место"] == "подсчёт"]
    assert set(miscounts["нарушение"]) == {"ошибка в подсчёте голосов"} and all(miscounts["кандидат"] != "")
    help_said = json.loads(table.proto.columns)["место"]["help"]
    assert "«подсчёт» — если она о подсчёте голосов" in help_said, help_said


def test_the_quiz_question_is_a_sentence_and_its_file_is_small_print(data: Path) -> None:
    at = _in_russian("Training", "Стажёр")
    with i18n.using("ru"):
        renders(at)
        at.button(key="quiz_start").click().run()
        renders(at)
    title = at.subheader[0].value
    assert re.fullmatch(r"Вопрос 1 из 10\. День \d+, голосование \d+: сколько голосов за кандидатуру \d+\?", title), title
    assert ".json" not in title and "·" not in title
    assert [c.value for c in at.caption if shown(c.value) == "Файл игры: sample_game.protocol.json"]
    with i18n.using("ru"):
        next(b for b in at.button if b.key and b.key.endswith("_submit")).click().run()
        at.radio(key="training_mode").set_value("Trainer").run()
        renders(at)
    accuracy = [str(v) for d in at.dataframe if "точность" in d.value.columns for v in d.value["точность"]]
    assert accuracy and not [v for v in accuracy if "." in v], accuracy  # 0,5 as the reader writes it, not 0.5


def test_the_tournament_page_names_no_command_line_option(data: Path, tournament: Path) -> None:  # noqa: F811
    at = _in_russian("Tournament", "Главный судья")
    with i18n.using("ru"):
        renders(at)
        said = [at.text_input(key="tournament_path").label, *(m.value for m in at.markdown)]
        at.button(key="tournament_open").click().run()  # nothing typed: the page says what to give
        said += [e.value for e in at.error]
        assert at.error and "папку турнира" in at.error[0].value
        at.text_input(key="tournament_path").set_value(str(tournament))
        at.button(key="tournament_open").click().run()
        renders(at)
    said += [m.value for m in at.markdown] + [at.text_input(key="tournament_path").label]
    assert "проверка турнира записала" in said[0], said[0]
    assert not [s for s in said if FLAG.search(shown(s)) or "stopframe tournament" in shown(s)], said
    with i18n.using("ru"):
        named = {words.profile_label(p) for p in PROFILES}
    rules = set(at.dataframe[0].value["регламент"])
    assert "Турнирные правила Федерации (РФМ) · rfm" in rules and rules <= named | {"не указано"}, rules  # not «rfm»


def _rulebooks(folder: Path, rfm: str) -> Path:
    """A rules folder as ../shared/rules holds it, every profile's rulebook empty but the rfm one (`rfm`)."""
    folder.mkdir()
    for profile in PROFILES.values():
        (folder / profile.rulebook).write_text("", encoding="utf-8")
    (folder / PROFILES["rfm"].rulebook).write_text(rfm, encoding="utf-8")
    return folder


WRAPPED = ("4.4. Голосование\n"
           "4.4.7 Отсечением результата голосования является буква «С» в слове «Стоп».\n"
           "4.4.8 Игрок обязан держать руку на *столе* до тех пор,\n"
           "пока Судья не объявит <b>количество</b>\n"
           "проголосовавших.\n"
           "\n"
           "Если игрок отдёрнул руку, ему ставится фол.\n"
           "4.4.9 Следующий пункт.\n")


def test_a_rulebook_quote_wrapped_in_its_file_shows_as_one_sentence_escaped(data: Path, tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    quotes = clause_text.extract(_rulebooks(tmp_path / "rules", WRAPPED))
    joined = "Игрок обязан держать руку на *столе* до тех пор, пока Судья не объявит <b>количество</b> проголосовавших."
    assert quotes["rfm 4.4.8"] == joined  # the next paragraph (after the blank line) is not part of it
    monkeypatch.setattr(clause_text, "_sentences", lambda: quotes)
    at = _sample_in_russian()
    renders(at)
    cards = [m.value for m in at.markdown if f"регламент, {words.md('rfm 4.4.8')}: «" in m.value]
    assert cards and words.md(joined) in cards[0], cards  # whole, and escaped: shown as written, never as markup
    assert "<b>" not in cards[0] and "*столе*" not in cards[0]


def test_a_real_rulebooks_clause_shows_whole_on_its_card(data: Path) -> None:
    if not RULES.is_dir():
        pytest.skip(f"the rulebooks are not here ({RULES})")
    quote = clause_text.extract(RULES)["rfm 4.4.8"]
    assert quote.endswith("голос засчитывается."), quote
    at = _sample_in_russian()
    renders(at)
    assert [m.value for m in at.markdown if f"регламент, {words.md('rfm 4.4.8')}: «{words.md(quote)}»" in m.value]


def test_the_upload_boxes_say_what_to_do_in_russian_and_hide_streamlits_english(data: Path) -> None:
    at = _in_russian("Open a game")
    renders(at)
    assert [c.value for c in at.caption if c.value.startswith("Перетащите файл JSON в поле ниже")]
    styles = [h.proto.body for h in at.get("html") if "stFileUploaderDropzoneInstructions" in h.proto.body]
    assert len(styles) == 1, styles  # one style sheet per run
    assert "{display:none}" in styles[0] and f"content:{css_string('Выбрать файл')}" in styles[0]
    assert f"content:{css_string('Отпустите файл здесь')}" in styles[0]  # over the box while a file is dragged
    with i18n.using("ru"):
        at.radio(key="view").set_value("Protocol").run()
        at.radio(key="sheet_start_from").set_value("protocol").run()
    renders(at)
    assert [c.value for c in at.caption if c.value.startswith("Перетащите файл JSON в поле ниже")]


def test_a_css_string_cannot_end_the_style_sheet() -> None:
    assert css_string("Выбрать файл") == '"Выбрать файл"'
    assert "<" not in css_string('x"</style><script>') and css_string('a"b').count('"') == 2
