"""The Exports page on the bundled game: a confirmed finding the corrected protocol cannot take (night 2's faked
shot by seat 5, who played on) is refused before any download, in the judge's words, and nothing is saved; once
the judge decides otherwise, the corrected protocol and both club files are offered, the club files saying what
they leave out, and the "fill the voters" box sits with the club files it changes, never touching the protocol."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from appcheck import goto, renders, shown
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture
from test_app import app
from test_app_words import _walk

from review.audit.findings import Finding
from stopframe_app.decisions import card_key
from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec

SPEC = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
FAKED_SHOT = card_key(Finding.from_json({"kind": "night_hand", "night": 2, "seat": 5, "day": None}))
PROTOCOL = "sample_game.corrected.protocol.json"
CLUB = ("sample_game.corrected.polemica.json", "sample_game.corrected.mafiaratings.json")


def _downloads(at: Any) -> dict[str, str]:
    """file name -> where the page serves it; the address is made from the content, so it changes with it."""
    return {b.proto.id.split("-dl_", 1)[1]: b.proto.url for b in at.get("download_button")}


def test_a_confirmed_night_removal_is_refused_before_any_download_then_the_files_come(data: Path) -> None:
    require_current_sample_fixture(nights=True)
    at = app(SPEC)
    at.button(key=f"{FAKED_SHOT}_confirm").click().run()
    renders(at)
    goto(at, "Exports")
    renders(at)
    [error] = [shown(e.value) for e in at.error]
    assert error.startswith("No corrected protocol and no club file while a confirmed finding cannot go into them")
    assert ("- The hand raised at night of seat 5 on night 2 (rfm 5.12.10) cannot be applied: the game as played goes "
            "on with seat 5 after this removal (seat 7 nominating seat 5 on day 3: ") in error
    assert "events[" not in error and "None" not in error
    offered = _downloads(at)
    assert PROTOCOL not in offered and not set(CLUB) & set(offered)
    assert {"sample_game.findings.csv", "sample_game.review.html"} <= set(offered)  # the findings stay downloadable
    assert not at.get("checkbox") or all(c.key != "voters_from_video" for c in at.checkbox)
    at.button(key="save_exports").click().run()
    said = [shown(e.value) for e in at.error]
    assert any(s.startswith("Not saved: The hand raised at night of seat 5") for s in said), said
    assert not (data / "exports").exists() or not [p for p in (data / "exports").rglob("*") if p.is_file()]

    goto(at, "Vote audit")
    at.text_input(key=f"{FAKED_SHOT}_reason").set_value("the game went on with him; decided after the game")
    at.button(key=f"{FAKED_SHOT}_reject").click().run()
    renders(at)
    goto(at, "Exports")
    renders(at)
    assert not at.error
    offered = _downloads(at)
    assert PROTOCOL in offered and set(CLUB) <= set(offered)
    infos = [shown(i.value) for i in at.info]
    for name in ("Polemica", "mafiaratings"):
        said = next(i for i in infos if i.startswith(f"Left out of the {name} file, which cannot hold them:"))
        assert "the protocol gives only the count (5)" in said and "events[" not in said

    # the box sits below the corrected protocol's download and above the club files', and changes only those
    nodes = list(_walk(at._tree))
    where = {n.proto.id.split("-dl_", 1)[1]: k for k, n in enumerate(nodes) if type(n).__name__ == "DownloadButton"}
    box = next(k for k, n in enumerate(nodes) if getattr(n, "key", None) == "voters_from_video")
    assert where[PROTOCOL] < box < min(where[c] for c in CLUB)
    assert "club files" in at.checkbox(key="voters_from_video").label
    at.checkbox(key="voters_from_video").check().run()
    renders(at)
    ticked = _downloads(at)
    assert ticked[PROTOCOL] == offered[PROTOCOL]  # the corrected protocol is the same file
    assert any(ticked[c] != offered[c] for c in CLUB)  # the club files now carry the voters the video settles
    at.button(key="save_exports").click().run()
    renders(at)
    folder = next((data / "exports").glob("sample_game-*"))
    assert {p.name for p in folder.iterdir()} >= {PROTOCOL, *CLUB}
