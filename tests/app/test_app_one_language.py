"""Every page of the bundled sample game speaks one language: under Russian no English word is left, under
English no Russian one — outside names (the players' nicknames and the protocol's titles, rule profiles, file
names, formats and products), which are the same in both.

The walk is AppTest's (hands from the committed observations): every vote round, a finding confirmed, every
page, an appeal opened and a decision refused, a quiz question answered, the trainer's view, every vote round under
each other rule profile; and the Tournament page on a tournament run in that language."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from appcheck import goto, renders
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture, tournament_games
from streamlit.testing.v1 import AppTest
from test_app_words import page_texts

from review.audit.findings import Finding
from review.game.clause_text import _sentences
from stopframe_app.decisions import card_key
from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec
from stopframe_app.views.sheet import box_key
from stopframe_cli.main import main

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SPEC = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
LATE8 = card_key(Finding.from_json({"kind": "late_vote", "day": 1, "round": 1, "candidate": 8, "seat": 9, "night": None}))

# Names: the same words whatever the language.
NAMES = {"rfm", "mafclub", "lvi2015", "showtime", "Stopframe", "JSON", "CSV", "HTML", "PDF", "H.264", "MP4",
         "Polemica", "mafiaratings", "Chromium", "MediaPipe", "Excel", "UTF", "BOM", "Ray", "English", "Русский"}
SWITCH = "Язык · Language"  # the language switch speaks both, so either reader finds it
# file names and paths, a file's field (video.path, videos[].seats), Streamlit's colour markup (:green[…])
FILE_NAME = re.compile(r"[\w~.-]*[/\\][^\s,;:()«»]*|[\w-]+(?:\.[\w-]+)*\.(?:json|mp4|csv|html|pdf|sqlite|jpg|png)\b"
                       r"|\b[\w\[\]]+\.[a-z_][\w\[\]]*|:[a-z]+\["
                       r"|`[^`]*`|\bstopframe [a-z]+|--[a-z-]+"  # ... and a command, an option
                       r"|\b[a-z]+://[^\s,;()«»]*")  # ... and an address (rtsp://…)
LATIN_WORD = re.compile(r"[A-Za-z0-9']*[A-Za-z][A-Za-z0-9']*")  # a whole token: a case id's 99fdbf is one code
CASE_ID = re.compile(r"\bA\d{8}-[0-9a-f]{6}\b")  # an appeal's id: its random hex part may be all letters (cafcff)
IDENTIFIER = re.compile(r"\d")  # a word with a digit is a code (lvi2015, a case's id A20261206), not English
CYRILLIC = re.compile(r"[А-Яа-яЁё]+")
QUOTED = re.compile(r"«[^«»]*(?:«[^«»]*»[^«»]*)*»")


def protocol_names() -> set[str]:
    """The nicknames, judges and titles of the sample protocol, and the rulebooks' sentences quoted on a finding:
    shown as written in either language."""
    data = json.loads(SAMPLE_PROTOCOL.read_text(encoding="utf-8"))
    names = {str(p.get("nickname") or "") for p in data.get("players", [])}
    names |= {str(v) for v in data.get("game", {}).values() if isinstance(v, str)}
    names |= set(_sentences().values())
    return {n for n in names if re.search(r"[^\W\d_]", n)}  # a table "1" or a date is no name to take out


def foreign_words(text: str, lang: str, names: set[str]) -> list[str]:
    """The words of `text` that belong to the other language (names and file names taken out first)."""
    plain = text.replace("\\", "").replace(SWITCH, " ")
    for name in sorted(names, key=len, reverse=True):
        plain = plain.replace(name, " ")
    plain = CASE_ID.sub(" ", FILE_NAME.sub(" ", plain))
    if lang == "ru":
        return [w for w in LATIN_WORD.findall(plain)
                if len(w) > 1 and w not in NAMES and not IDENTIFIER.search(w) and not w.isupper()]
    plain = QUOTED.sub(" ", plain)  # the Russian words an English sentence quotes: «Стоп», «С»
    return [w for w in CYRILLIC.findall(plain) if w not in NAMES and not w.isupper()]  # ППК, РФМ: abbreviations


def leftovers(at: AppTest, lang: str, names: set[str]) -> list[str]:
    renders(at)
    out = []
    for text in page_texts(at):
        bad = foreign_words(text, lang, names)
        if bad:
            out.append(f"{bad[:4]} in {text[:120]!r}")
    return out


def walk(lang: str, check: Callable[[AppTest, str], None]) -> None:
    """Every page of the sample game under `lang`, `check(at, where)` after each step; the Vote audit again
    under each other rule profile."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["game_spec"] = SPEC
    at.session_state["judge"] = "Судья"
    at.session_state["lang"] = lang
    at.run()
    check(at, "Vote audit")
    for label in at.selectbox(key="vote_round").options:
        at.selectbox(key="vote_round").set_value(label).run()
        check(at, f"Vote audit, {label}")
    at.selectbox(key="vote_round").set_value(at.selectbox(key="vote_round").options[0]).run()
    at.button(key=f"{LATE8}_confirm").click().run()
    check(at, "Vote audit, a finding confirmed")
    for page in ("Timeline & frames", "Seat calibration", "Exports", "Appeals", "Training", "Tournament", "Open a game",
                 "Live table"):
        goto(at, page)
        check(at, page)
    goto(at, "Protocol")  # the paper sheet: the open game's protocol, box by box, then a slip the rules refuse
    at.radio(key="sheet_start_from").set_value("protocol").run()
    at.button(key="sheet_protocol_start").click().run()
    check(at, "Protocol, the sample game's sheet")
    at.text_input(key=box_key(at.session_state["sheet_id"], "nominations.2")).input("4:9 4:3").run()
    check(at, "Protocol, a slip beside its box")
    goto(at, "Appeals")
    at.text_input(key="appeal_who").set_value("8")
    at.button(key="appeal_open").click().run()
    check(at, "Appeals, the case")
    case_id = at.selectbox(key="appeal_case").value
    at.button(key=f"{case_id}_d_go").click().run()
    check(at, "Appeals, a refused decision")
    goto(at, "Training")
    at.text_input(key="trainee").set_value("Ада").run()
    at.button(key="quiz_start").click().run()
    check(at, "Training, a question")
    next(b for b in at.button if b.key and b.key.endswith("_submit")).click().run()
    check(at, "Training, marked")
    at.radio(key="training_mode").set_value("Trainer").run()
    check(at, "Training, the trainer")
    goto(at, "Vote audit")
    for profile in ("mafclub", "lvi2015", "showtime"):  # each rulebook's terms, clauses and quoted sentences
        at.sidebar.selectbox(key="profile_pick").set_value(profile).run()
        for label in at.selectbox(key="vote_round").options:
            at.selectbox(key="vote_round").set_value(label).run()
            check(at, f"{profile}: {label}")
        goto(at, "Appeals")  # the profile's grounds (mafclub and lvi2015: one with no clause of its own)
        at.selectbox(key="appeal_case").set_value("new").run()
        check(at, f"{profile}: Appeals, a new case")
        goto(at, "Vote audit")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_page_speaks_one_language(data: Path, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    require_current_sample_fixture()
    monkeypatch.setenv("STOPFRAME_LANG", lang)  # AppTest shows a widget's options in the test's own language too
    names = protocol_names() | {"Судья", "Ада"}
    found: list[str] = []

    def check(at: AppTest, where: str) -> None:
        found.extend(f"{where}: {bad}" for bad in leftovers(at, lang, names))

    walk(lang, check)
    assert not found, "\n".join(found[:60])


def tournament_folder(tmp: Path, lang: str) -> Path:
    """OUT of `stopframe --lang LANG tournament DIR --out OUT` over two copies of the sample game and a broken file."""
    src, out = tournament_games(tmp / "games", {"t1-g1": {"judge": "Иванов"}, "t1-g2": {"judge": "Петров"}}), tmp / "out"
    assert main(["--lang", lang, "tournament", str(src), "--out", str(out), "--reuse-observations", "--jobs", "1"]) == 1
    return out


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_tournament_page_speaks_one_language(data: Path, tmp_path: Path, lang: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament run in the judge's language, opened on the Tournament page: its games, judges and players."""
    require_current_sample_fixture()
    monkeypatch.setenv("STOPFRAME_LANG", lang)
    folder = tournament_folder(tmp_path, lang)
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["judge"] = "Судья"
    at.session_state["lang"] = lang
    at.run()
    goto(at, "Tournament")
    at.text_input(key="tournament_path").set_value(str(folder))
    at.button(key="tournament_open").click().run()
    assert len(at.dataframe) == 3, [e.value for e in at.error]
    found = leftovers(at, lang, protocol_names() | {"Судья", "Иванов", "Петров", folder.name})
    assert not found, "\n".join(found[:40])
