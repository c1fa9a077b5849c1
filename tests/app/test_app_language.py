"""The app's language switch: Russian for a Russian system, English on demand, remembered for each judge."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from review.cases.store import Store, default_db_path
from tests.app.appcheck import renders

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _app(monkeypatch, lang_env: str | None) -> AppTest:
    if lang_env is None:
        monkeypatch.delenv("STOPFRAME_LANG", raising=False)
    else:
        monkeypatch.setenv("STOPFRAME_LANG", lang_env)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    return AppTest.from_file(APP, default_timeout=60)


def test_a_russian_system_gets_a_russian_sidebar_and_a_switch_to_english(data, monkeypatch):
    at = _app(monkeypatch, None).run()
    renders(at)
    assert at.sidebar.radio(key="lang").value == "ru"
    assert at.sidebar.radio(key="view").label == "Страница"
    assert "Открыть игру" in [at.sidebar.radio(key="view").format_func(o) for o in at.sidebar.radio(key="view").options]
    at.sidebar.radio(key="lang").set_value("en").run()
    renders(at)
    assert at.sidebar.radio(key="view").label == "Page"


def test_each_judge_gets_back_the_language_they_chose(data, monkeypatch):
    at = _app(monkeypatch, None)
    at.session_state["judge"] = "Анна"
    at.run()
    at.sidebar.radio(key="lang").set_value("en").run()
    assert Store(default_db_path()).judge_language("Анна") == "en"
    assert Store(default_db_path()).judge_language("Борис") is None

    again = _app(monkeypatch, None).run()  # a new session: Russian until the judge gives her name
    assert again.sidebar.radio(key="lang").value == "ru"
    again.sidebar.text_input(key="judge").input("Анна").run()
    renders(again)
    assert again.sidebar.radio(key="lang").value == "en"
    assert again.sidebar.radio(key="view").label == "Page"
