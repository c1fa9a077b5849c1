"""The Tournament page, driven through Streamlit's AppTest on a tournament the runner made here
(`stopframe tournament … --reuse-observations` over two copies of the sample game, judged by two judges, and a
broken file): the games with their status and counts in words, the judges' record, the players' fouls, a game's
Vote audit opened from the page, and a decision made there counted in the judges' record on the next visit."""

from __future__ import annotations

from pathlib import Path

import pytest
from appcheck import goto, renders, shown
from samplegame import require_current_sample_fixture, tournament_games
from streamlit.testing.v1 import AppTest
from test_app_words import assert_people_words

from review.audit.findings import Finding
from stopframe_app.decisions import card_key
from stopframe_cli.main import main

APP = str(Path(__file__).resolve().parents[2] / "app.py")
JUDGES = {"t1-g1": ("Иванов", "1"), "t1-g2": ("Петров", "2")}
LATE_CARD = card_key(Finding.from_json({"kind": "late_vote", "day": 1, "round": 1, "candidate": 8, "seat": 9, "night": None}))


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """OUT of `stopframe tournament DIR --out OUT --reuse-observations` (exit 1: one game is broken)."""
    require_current_sample_fixture()
    src = tournament_games(tmp_path_factory.mktemp("games"),
                           {name: {"judge": judge, "table": table} for name, (judge, table) in JUDGES.items()})
    out = tmp_path_factory.mktemp("out")
    with pytest.MonkeyPatch.context() as mp:  # no decisions database of the machine's is read
        mp.setenv("STOPFRAME_DATA", str(tmp_path_factory.mktemp("nodata")))
        assert main(["tournament", str(src), "--out", str(out), "--reuse-observations", "--jobs", "1"]) == 1
    return out


def _open(tournament: Path) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["judge"] = "Chief Judge"
    at.run()
    goto(at, "Tournament")
    at.text_input(key="tournament_path").set_value(str(tournament / "tournament.json"))
    at.button(key="tournament_open").click().run()
    renders(at)
    return at


def _frames(at: AppTest) -> list:
    return [d.value for d in at.dataframe]


def test_the_games_judges_and_players_in_words(data: Path, tournament: Path) -> None:
    at = _open(tournament)
    games, judges, players = _frames(at)
    assert list(games["game"]) == ["t1-g1", "t1-g2", "t1-g3"]
    by_game = games.set_index("game")
    assert (by_game.loc["t1-g1", "judge"], by_game.loc["t1-g1", "table"]) == ("Иванов", "1")
    assert by_game.loc["t1-g1", "status"] == "audited" and by_game.loc["t1-g1", "findings"] > 0
    broken = by_game.loc["t1-g3"]
    assert broken["status"].startswith("failed: ") and "t1-g3.protocol.json" in broken["status"]
    assert (broken["judge"], broken["table"], broken["decided"]) == ("not given", "not given", "not audited")
    assert by_game.loc["t1-g1", "decided"] == "0"
    text = games.astype(str).to_string() + judges.astype(str).to_string() + players.astype(str).to_string()
    assert "None" not in text and "nan" not in text and "late_vote" not in text
    assert set(judges["judge"]) == {"Иванов", "Петров", "not given"}
    assert set(judges.set_index("judge")["violations missed (confirmed)"]) == {"no decisions yet"}
    assert set(players["game"]) == {"t1-g1", "t1-g2"} and players["fouls"].sum() + players["fines"].sum() > 0
    assert "3 games: 2 audited, 0 from an earlier run, 1 failed" in " ".join(m.value for m in at.markdown)
    assert_people_words(at, "Tournament")  # no None, repr, internal code or unrounded float anywhere on the page


def test_open_a_game_confirm_a_finding_and_the_judges_record_counts_it(data: Path, tournament: Path) -> None:
    at = _open(tournament)
    at.selectbox(key="tournament_game").set_value("t1-g1").run()
    at.button(key="tournament_open_game").click().run()
    renders(at)
    assert at.sidebar.radio(key="view").value == "Vote audit"
    assert "t1-g1.protocol.json" in " ".join(m.value for m in at.sidebar.markdown)
    at.button(key=f"{LATE_CARD}_confirm").click().run()
    renders(at)
    goto(at, "Tournament")
    renders(at)
    games, judges, _ = _frames(at)
    record = judges.set_index("judge")
    assert record.loc["Иванов", "violations missed (confirmed)"] == "1"
    assert record.loc["Иванов", "games decided"] == 1
    assert record.loc["Петров", "violations missed (confirmed)"] == "no decisions yet"
    assert games.set_index("game").loc["t1-g1", "confirmed"] == "1"
    # the folder is remembered: a fresh session offers it among the recent ones
    again = AppTest.from_file(APP, default_timeout=60)
    again.run()
    goto(again, "Tournament")
    recent = [b for b in again.button if (b.key or "").startswith("tournament_recent_")]
    assert [shown(b.label) for b in recent] == [str(tournament.resolve())]
    recent[0].click().run()
    renders(again)
    assert len(_frames(again)) == 3


def test_a_folder_without_a_report_is_one_sentence(data: Path, tmp_path: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    goto(at, "Tournament")
    at.text_input(key="tournament_path").set_value(str(tmp_path))
    at.button(key="tournament_open").click().run()
    assert [shown(e.value) for e in at.error] == [f"Not opened: there is no tournament.json in {tmp_path}. Give the "
                                                  "folder the tournament's audit wrote its results to (it holds "
                                                  "tournament.json)."]
    (tmp_path / "tournament.json").write_text('{"format": "stopframe-tournament/9"}', encoding="utf-8")
    at.button(key="tournament_open").click().run()
    [said] = [shown(e.value) for e in at.error]
    assert said.startswith("Not opened: ") and "tournament.json" in said and not at.exception
