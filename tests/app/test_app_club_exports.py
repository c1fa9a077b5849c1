"""The Exports page's club files: a club's game imported, its late hand confirmed in the Vote audit,
and the corrected game downloaded or saved as a Polemica / mafiaratings file that our importer reads back as a
valid game; what a format cannot hold is left out of its file and named beside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from appcheck import ok, shown
from clubgames import prepare
from streamlit.testing.v1 import AppTest

from review.audit.findings import Finding
from review.game.importers import import_file
from review.game.protocol import validate
from stopframe_app.decisions import card_key
from stopframe_app.game import GameSpec

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.mark.parametrize(("source", "other"), [("mafiaratings", "polemica"), ("polemica", "mafiaratings")])
def test_confirm_then_save_the_club_files(data: Path, tmp_path: Path, source: str, other: str) -> None:
    paths = prepare(source, tmp_path / "game", late={(3, 1, 7): 1})
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["game_spec"] = GameSpec(str(paths["protocol"]), seats=str(paths["seats"]),
                                             observations=str(paths["observations"]))
    at.session_state["judge"] = "Chief Judge"
    at.run()
    ok(at)
    card = card_key(Finding.from_json({"kind": "late_vote", "day": 3, "round": 1, "candidate": 7, "seat": 1, "night": None}))
    at.selectbox(key="vote_round").set_value(next(o for o in at.selectbox(key="vote_round").options
                                                  if o.startswith("Day 3"))).run()
    at.button(key=f"{card}_confirm").click().run()
    ok(at)
    at.sidebar.radio(key="view").set_value("Exports").run()
    ok(at)
    infos = [shown(i.value) for i in at.info]
    if source == "polemica":  # the Polemica game names a best move's three seats: mafiaratings keeps only that it was made
        said = next(i for i in infos if i.startswith("Left out of the mafiaratings file, which cannot hold them:"))
        assert "not whom it named" in said and "events[" not in said, infos
    at.button(key="save_exports").click().run()
    ok(at)
    folder = next((data / "exports").glob("club-*"))
    for target in (source, other):
        saved = folder / f"club.corrected.{target}.json"
        again = import_file(target, saved)
        assert validate(again) == []
        vote = next(e for e in again["events"] if e["type"] == "vote" and (e["day"], e["candidate"]) == (3, 7))
        assert vote["count"] == 4 and 1 not in vote["voters"]
    captions = " ".join(c.value for c in at.caption)
    assert "reads back as the same game as far as it holds one" in captions and "None" not in captions
