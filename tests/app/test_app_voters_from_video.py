"""The Exports page's "Fill the voters in the club files from the video": off by default, so a club game kept as
counts only gets club files that leave its votes out and say so; ticked, the files carry the video's voters and
read back, while the corrected protocol above the box stays as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from appcheck import ok
from clubgames import prepare
from streamlit.testing.v1 import AppTest

from review.game.engine import replay
from review.game.importers import import_file
from review.game.protocol import validate
from stopframe_app.game import GameSpec
from stopframe_app.views.exports import FILL_LABEL

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _downloads(at: AppTest) -> dict[str, str]:
    """file name -> where the page serves it; the address is made from the content, so it changes with it."""
    return {b.proto.id.split("-dl_", 1)[1]: b.proto.url for b in at.get("download_button")}


def test_the_checkbox_fills_the_voters_for_the_club_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOPFRAME_DATA", str(tmp_path / "data"))
    paths = prepare("mafiaratings", tmp_path / "game")
    paper = json.loads(paths["protocol"].read_text(encoding="utf-8"))
    for e in paper["events"]:
        e.pop("voters", None)
    paths["protocol"].write_text(json.dumps(paper, ensure_ascii=False), encoding="utf-8")
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["game_spec"] = GameSpec(str(paths["protocol"]), seats=str(paths["seats"]),
                                             observations=str(paths["observations"]))
    at.session_state["judge"] = "Chief Judge"
    at.run()
    at.sidebar.radio(key="view").set_value("Exports").run()
    ok(at)
    box = at.checkbox(key="voters_from_video")
    assert box.label == FILL_LABEL and box.value is False
    infos = " ".join(i.value for i in at.info)
    assert "Left out of the mafiaratings file" in infos and "gives only the count" in infos and "None" not in infos
    before = _downloads(at)
    assert "club.corrected.mafiaratings.json" in before

    box.check().run()
    ok(at)
    assert not any("gives only the count" in i.value for i in at.info)
    after = _downloads(at)
    assert after["club.corrected.mafiaratings.json"] != before["club.corrected.mafiaratings.json"]  # other content
    assert after["club.corrected.protocol.json"] == before["club.corrected.protocol.json"]  # the box leaves it alone
    at.button(key="save_exports").click().run()
    ok(at)
    saved = next((tmp_path / "data" / "exports").glob("club-*")) / "club.corrected.mafiaratings.json"
    again = import_file("mafiaratings", saved, rules=paper["rules"])
    assert validate(again) == []
    assert replay(again).eliminations == replay(paper).eliminations
    assert replay(again).result == replay(paper).result
    votes = [e for e in again["events"] if e["type"] == "vote" and e["count"]]
    assert votes and all(len(e["voters"]) == e["count"] for e in votes)
