"""What a judge new to the app met on the bundled sample game, through Streamlit's AppTest: the appeal form starts
on the finding the judge was looking at and dates the game by its protocol; the Vote audit says that a selected
finding hides the nights table; the rule profile picker names each rulebook with its code."""

from __future__ import annotations

from pathlib import Path

import pytest
from appcheck import goto, renders, shown
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture
from streamlit.testing.v1 import AppTest
from test_app import APP, app

from review.audit.findings import Finding
from stopframe_app.decisions import card_key
from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec

SPEC = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
LATE8 = card_key(Finding.from_json({"kind": "late_vote", "day": 1, "round": 1, "candidate": 8, "seat": 9, "night": None}))


def in_russian(spec: GameSpec) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["game_spec"] = spec
    at.session_state["lang"] = "ru"
    return at.run()


@pytest.fixture(autouse=True)
def _current_sample() -> None:
    require_current_sample_fixture(nights=True)


def test_the_appeal_starts_on_the_finding_in_the_viewer_and_on_the_games_date(data: Path) -> None:
    at = goto(app(SPEC), "Appeals")
    renders(at)
    first = at.selectbox(key="appeal_from").value
    assert at.text_input(key="appeal_ended").value.startswith("2026-11-29 ")  # the protocol's game.date, not today
    assert at.text_input(key="appeal_filed").value.startswith("2026-11-29 ")
    goto(at, "Vote audit")
    at.button(key=f"{LATE8}_go").click().run()  # the late vote's frame, in the viewer
    renders(at)
    assert at.session_state["view"] == "Timeline & frames"
    goto(at, "Appeals")
    renders(at)
    picked = at.selectbox(key="appeal_from").value
    assert picked.startswith("finding: late vote — seat 9") and "candidate 8" in picked, picked
    assert picked != first
    # the case opens from it: its evidence is the late vote
    at.text_input(key="appeal_who").set_value("seat 9")
    at.button(key="appeal_open").click().run()
    renders(at)
    assert any("opened with" in shown(m.value) for m in at.success)


def test_selecting_a_finding_says_the_nights_table_waits(data: Path) -> None:
    at = app(SPEC)
    renders(at)
    captions = [shown(c.value) for c in at.caption]
    assert ("Select a row to see only that finding below; the nights table and the night findings show when no "
            "finding is selected.") in captions
    assert any(s.value == "Nights: the shootings and checks" for s in at.subheader)
    ru = in_russian(SPEC)
    assert any("таблица ночей" in shown(c.value) for c in ru.caption), [c.value for c in ru.caption]


def test_the_profile_picker_names_each_rulebook_with_its_code(data: Path) -> None:
    at = app(SPEC)
    picker = at.sidebar.selectbox(key="profile_pick")
    assert picker.options[:2] == ["Federation tournament rules (РФМ) · rfm", "ACTORS MAFIA CLUB sport rules (MafClub) · mafclub"]
    assert all(o.endswith(f" · {code}") for o, code in zip(picker.options, ("rfm", "mafclub", "lvi2015", "showtime"),
                                                             strict=True))
    assert picker.value == "rfm"
    assert in_russian(SPEC).sidebar.selectbox(key="profile_pick").options[0] == "Турнирные правила Федерации (РФМ) · rfm"
    at.sidebar.selectbox(key="profile_pick").set_value("mafclub").run()
    renders(at)
    assert at.session_state["game_spec"].profile == "mafclub"
