"""The checks an app test makes after each run of the page (Streamlit's AppTest), and the move to a page."""

from __future__ import annotations

import json
import re

from streamlit.testing.v1 import AppTest


def ok(at: AppTest) -> None:
    """The page ran without an exception and showed no error at all."""
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def renders(at: AppTest) -> None:
    """The page ran without an exception and every part of it could be shown (a page may show an error that
    is the judge's to read, such as a refused file)."""
    assert not at.exception, [e.value for e in at.exception]
    assert not [e.value for e in at.error if "could not be shown" in e.value], [e.value for e in at.error]


def goto(at: AppTest, page: str) -> AppTest:
    """The app on another page of the sidebar."""
    at.sidebar.radio(key="view").set_value(page)
    return at.run()


def shown(text: str) -> str:
    """A message as the judge reads it: the page escapes text from files (paths, names) so Markdown shows it as
    written; the escapes themselves are not seen."""
    return re.sub(r"\\([\\`*_{}\[\]()<>#+\-.!|~$:])", r"\1", text)


def strip_args(at: AppTest) -> dict | None:
    """What the frame viewer's browser strip was sent (its frames around and the one it shows), if it is on."""
    strip = next((e for e in at.main if "json_args" in str(getattr(e, "proto", ""))[:2000]), None)
    return json.loads(strip.proto.json_args) if strip is not None else None


def viewer_caption(at: AppTest) -> str:
    """The caption of the frame the viewer shows: in the strip (stepping in the browser, the default) or under the
    server's picture (stepping on the server)."""
    args = strip_args(at)
    return args["frames"][args["at"]]["c"] if args is not None else at.get("image")[0].captions[0]


def sample_game_in_russian(monkeypatch) -> AppTest:
    """The app opened in Russian on the bundled sample game with its saved analysis, by a judge, after one run."""
    from pathlib import Path

    from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture

    from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec

    require_current_sample_fixture()
    monkeypatch.setenv("STOPFRAME_LANG", "ru")
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"), default_timeout=60)
    at.session_state["game_spec"] = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
    at.session_state["judge"] = "Судья"
    at.session_state["lang"] = "ru"
    return at.run()
