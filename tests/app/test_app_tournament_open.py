"""A game opened from the Tournament page opens with the tournament's own audit, as the judge met it: a tournament
run over a game's video (`stopframe tournament DIR --out OUT`, vision stood in for by the sample game's committed
observations), then *Open this game* — the Vote audit shows the run's findings at once and the frames the hands the
run saw (OUT/games/NAME.observations.json); nothing is looked at or audited again. A run that kept no observations
still opens with its findings and says why the frames show no hands. The page is titled with the tournament's name
from its games' protocols."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
from pathlib import Path
from typing import Any, NoReturn

import pytest
from appcheck import goto, renders, shown
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture
from streamlit.testing.v1 import AppTest

from contract.observations import Observations, observations_from_json, read_observations
from pipeline.observer import VisionObserver
from stopframe_app.game import SAMPLE_PROTOCOL, complete_spec, load_game
from stopframe_cli.main import main

APP = str(Path(__file__).resolve().parents[2] / "app.py")
CUP = "Осенний кубок «Стоп-кадр»"


class CommittedEyes(VisionObserver):
    """The sample game's committed observations in place of a look at its video (the video's clock stays real)."""

    def day(self, video: Path, seat_map: Any, windows: Any, *, model: str, progress: Any) -> Observations:
        return observations_from_json(read_observations(SAMPLE_OBSERVATIONS), SAMPLE_OBSERVATIONS)


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """OUT of `stopframe tournament DIR --out OUT` over one game audited from its video (no observations kept)."""
    require_current_sample_fixture()
    src = tmp_path_factory.mktemp("games")
    protocol = json.loads(SAMPLE_PROTOCOL.read_text(encoding="utf-8"))
    protocol["game"] = {**protocol["game"], "id": "C-1", "tournament": CUP}
    protocol["video"] = {**protocol["video"], "path": "cup-g1.mp4"}
    (src / "cup-g1.protocol.json").write_text(json.dumps(protocol, ensure_ascii=False), encoding="utf-8")
    shutil.copyfile(SAMPLE_PROTOCOL.with_name("sample_game.seats.json"), src / "cup-g1.seats.json")
    shutil.copyfile(SAMPLE_PROTOCOL.with_name("sample_game.mp4"), src / "cup-g1.mp4")
    out = tmp_path_factory.mktemp("out")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("STOPFRAME_DATA", str(tmp_path_factory.mktemp("nodata")))
        mp.setattr("pipeline.batch.VISION", CommittedEyes())
        assert main(["tournament", str(src), "--out", str(out), "--jobs", "1"]) == 0
    return out


def _refuse(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise AssertionError("the game was analysed or audited again")


def _open(tournament: Path) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["judge"] = "Chief Judge"
    at.run()
    goto(at, "Tournament")
    at.text_input(key="tournament_path").set_value(str(tournament))
    at.button(key="tournament_open").click().run()
    renders(at)
    return at


def _nothing_looked_at_again(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("vision.observe.observe", "stopframe_app.state.run_audit", "stopframe_app.game.run_audit",
                 "stopframe_app.game.analyse", "stopframe_app.views.open_game.analyse"):
        monkeypatch.setattr(name, _refuse)


def test_open_this_game_shows_the_tournaments_findings_and_hands_at_once(data: Path, tournament: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    report = json.loads((tournament / "tournament.json").read_text(encoding="utf-8"))
    [row] = report["games"]
    assert row["files"]["observations"] is None and row["findings"] > 0  # the run looked at the video itself
    saved = json.loads((tournament / row["audit"]).read_text(encoding="utf-8"))
    kept = tournament / "games" / "cup-g1.observations.json"
    at = _open(tournament)  # the game open before (the sample) was read and audited as usual
    assert not any("audited from its video" in shown(c.value) for c in at.caption)  # no analysis asked for
    _nothing_looked_at_again(monkeypatch)  # from here on, nothing may be looked at or audited again
    at.button(key="tournament_open_game").click().run()
    renders(at)
    assert at.sidebar.radio(key="view").value == "Vote audit"
    page = " ".join(shown(m.value) for m in (*at.markdown, *at.subheader, *at.info, *at.caption))
    assert "No audit yet." not in page and "has not been analysed yet" not in page
    assert "The findings are the tournament's audit" not in page and "run the analysis again" not in page
    spec = at.session_state["game_spec"]
    assert spec.observations == str(kept) and spec.audit == str(tournament / row["audit"])
    game = load_game(complete_spec(spec))
    committed = read_observations(SAMPLE_OBSERVATIONS)
    assert game.hands == committed["hands"] and game.hands  # the frames draw the hands the run saw
    goto(at, "Open a game")  # the page the judge would otherwise analyse the video on
    said = f"Analysed: {len(game.hands)} hand intervals from cup-g1.observations.json."
    assert said in [shown(m.value) for m in at.markdown]
    goto(at, "Vote audit")
    at.toggle(key="show_less_sure").set_value(True).run()
    per_round = [int(m.group(1)) for label in at.selectbox(key="vote_round").options
                 if (m := re.search(r"· (\d+) findings?$", label))]
    others = [int(m.group(1)) for s in at.subheader if (m := re.fullmatch(r"Night and other findings \((\d+)\)", s.value))]
    assert sum(per_round) + sum(others) == row["findings"] == len(saved["findings"])
    shown_here = next(int(m.group(1)) for s in at.subheader if (m := re.fullmatch(r"Findings \((\d+)\)", s.value)))
    assert shown_here > 0  # the page opens on a round with findings, their cards below


def test_a_run_that_kept_no_observations_opens_with_its_findings_and_says_why_no_hands(
        data: Path, tournament: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    shutil.copytree(tournament, out)
    (out / "games" / "cup-g1.observations.json").unlink()  # as a run made before they were kept left it
    at = _open(out)
    assert any("audited from its video" in shown(c.value) for c in at.caption)  # said before opening
    _nothing_looked_at_again(monkeypatch)
    at.button(key="tournament_open_game").click().run()
    renders(at)
    assert at.sidebar.radio(key="view").value == "Vote audit"
    assert at.session_state["game_spec"].observations is None
    page = " ".join(shown(m.value) for m in (*at.markdown, *at.subheader, *at.info, *at.caption))
    assert "The findings are the tournament's audit" in page  # why the frames show no hands yet


def test_the_page_is_titled_with_the_tournaments_name(data: Path, tournament: Path) -> None:
    at = _open(tournament)
    assert [shown(s.value) for s in at.subheader][0] == CUP


def test_a_run_going_on_is_counted_in_proper_plurals(data: Path, tournament: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(tournament, out)
    (out / "progress.json").write_text(json.dumps({
        "format": "stopframe-tournament-progress/1", "games": 1, "games_done": 0, "failed": 0, "windows": 1,
        "windows_done": 0, "elapsed_s": 3.0, "left_s": 20.0, "running": True, "pid": os.getpid(),
        "host": socket.gethostname()}), encoding="utf-8")
    at = _open(out)
    assert [shown(i.value) for i in at.info] == [
        "A run is going on: 0 of 1 game, 0 of 1 vision window, about 20 s left. Reload to see more."]
    ru = AppTest.from_file(APP, default_timeout=60)
    ru.session_state["lang"] = "ru"
    ru.session_state["tournament_folder"] = str(out.resolve())
    ru.session_state["view"] = "Tournament"
    ru.run()
    assert [shown(i.value) for i in ru.info] == [
        "Идёт запуск: 0 из 1 игры, 0 из 1 видеоокна, осталось около 20 с. Обновите страницу, чтобы увидеть больше."]
