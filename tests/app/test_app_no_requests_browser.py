"""Text from a file never makes the browser fetch anything: a protocol whose every text field holds Markdown and
HTML image links, a judge's name and an appeal's words of the same kind, shown on every page in headless Chromium
with every request logged. The only host asked is the app's own (127.0.0.1).

Why a real browser: Streamlit renders Markdown and (where allowed) HTML on the client; only the browser shows
whether an `![x](http://…)` reached an <img>. Needs Debian's chromium and Playwright (skipped only where absent).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
from test_app_browser import CHROMIUM, serving

from stopframe_app.game import SAMPLE_PROTOCOL

REPO = Path(__file__).resolve().parents[2]
FOREIGN = "203.0.113.7"  # TEST-NET-3: never a real host
PAGES = ("Vote audit", "Timeline & frames", "Seat calibration", "Exports", "Appeals", "Training", "Tournament", "Protocol",
         "Open a game")

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium (/usr/bin/chromium) is not installed"),
              pytest.mark.skipif(not SAMPLE_PROTOCOL.is_file(), reason="the bundled sample game is not built")]


def _bait(where: str) -> str:
    """One text holding every way a renderer could be led to fetch: a Markdown image, a link, raw HTML."""
    base = f"http://{FOREIGN}/{where}"
    return f"![i]({base}.png) [l]({base}) <img src=\"{base}.gif\"> <a href=\"{base}\">a</a>"


def _poisoned_game(folder: Path) -> tuple[Path, Path]:
    """The sample game with every text field baited, beside its own copy of the seat map; and an invalid
    protocol whose `rules` (quoted by the refusal) is baited."""
    data = json.loads(SAMPLE_PROTOCOL.read_text(encoding="utf-8"))
    data["video"]["path"] = "sample_game.mp4"  # the game's own copy of the video, beside its protocol
    (folder / "sample_game.mp4").write_bytes(SAMPLE_PROTOCOL.with_name("sample_game.mp4").read_bytes())
    for player in data["players"]:
        player["nickname"] = _bait(f"nick{player['seat']}")
    for key in ("id", "tournament", "judge", "side_judge"):
        data["game"][key] = _bait(key)
    good = folder / "baited.protocol.json"
    good.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    (folder / "baited.seats.json").write_bytes(SAMPLE_PROTOCOL.with_name("sample_game.seats.json").read_bytes())
    bad = folder / "bad.protocol.json"
    bad.write_text(json.dumps({**data, "rules": _bait("rules")}, ensure_ascii=False), encoding="utf-8")
    return good, bad


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path]]:
    good, bad = _poisoned_game(tmp_path_factory.mktemp("baited"))
    data = tmp_path_factory.mktemp("data")
    args = ["--", str(good), "--observations", str(SAMPLE_PROTOCOL.with_name("sample_game.observations.json"))]
    with serving(args, tmp_path_factory, data) as url:
        yield url, bad, data


def _type(page: object, label: str, text: str) -> None:
    """Words typed into the first box of that label and left with Tab (a box keeps its words once it is left)."""
    box = page.get_by_label(label, exact=True).first  # type: ignore[attr-defined]
    box.fill(text, timeout=15_000)
    box.press("Tab")
    _settle(page)
    page.mouse.wheel(0, 3000)  # type: ignore[attr-defined]
    assert page.locator('[data-testid="stException"]').count() == 0, label  # type: ignore[attr-defined]


def _settle(page: object) -> None:
    page.wait_for_function(  # type: ignore[attr-defined]
        """() => { const app = document.querySelector('[data-testid="stApp"]');
                   return app && app.getAttribute('data-test-script-state') === 'notRunning'; }""", timeout=90_000)
    page.wait_for_timeout(1500)  # type: ignore[attr-defined]  # images start loading after the script ends


def test_no_text_from_a_file_or_a_judge_makes_the_browser_fetch_anything(app: tuple[str, Path, Path]) -> None:
    from playwright.sync_api import sync_playwright

    url, bad, data = app
    asked: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                           "--disable-component-update", "--disable-dev-shm-usage"])
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 1500})
            page.on("request", lambda r: asked.append(r.url))
            page.goto(url)
            _settle(page)
            judge = page.get_by_label("Your name (recorded with each decision)")
            judge.fill(_bait("judge"))
            judge.press("Enter")
            _settle(page)
            page.get_by_text("Vote audit", exact=True).first.click()  # a decision's reason, kept and shown again
            _settle(page)
            _type(page, "reason", _bait("reason"))
            page.get_by_role("button", name="Reject").first.click()
            _settle(page)
            for name in PAGES:
                page.get_by_text(name, exact=True).first.click()
                _settle(page)
                page.mouse.wheel(0, 3000)  # lazy images below the fold load too
                page.wait_for_timeout(500)
                assert page.locator('[data-testid="stException"]').count() == 0, name
            page.get_by_text("Exports", exact=True).first.click()  # the decision history shows the reason as typed
            _settle(page)
            trail = page.locator('[data-testid="stTable"]').first.inner_text()
            assert _bait("reason").split(" <")[0] in trail and "\\" not in trail, trail
            page.get_by_text("Appeals", exact=True).first.click()  # an appeal's own words, typed by the judge
            _settle(page)
            page.get_by_label("Who appeals").fill(_bait("who"))
            page.get_by_label("What the appeal claims").fill(_bait("claim"))
            page.keyboard.press("Tab")  # a text area keeps its words once it is left
            _settle(page)
            page.get_by_role("button", name="Open the case").click()
            _settle(page)
            page.mouse.wheel(0, 3000)
            page.wait_for_timeout(500)
            assert page.locator('[data-testid="stException"]').count() == 0, "Appeals, the case"
            assert f"{FOREIGN}/who" in page.inner_text("body")  # the case shows who appeals, as text
            for label in ("The side judge's statement", "The table judge's statement", "Reasoning"):
                _type(page, label, _bait(label.split()[-1]))
            page.get_by_text("Training", exact=True).first.click()
            _settle(page)
            _type(page, "Trainee", _bait("trainee"))
            page.get_by_text("Trainer", exact=True).first.click()  # a quiz set's title, shown when it is saved
            _settle(page)
            _type(page, "Title of the set", _bait("quizset"))
            page.get_by_role("button", name="Save the quiz set").click()
            _settle(page)
            page.get_by_text("Seat calibration", exact=True).first.click()  # the typed save path, quoted back
            _settle(page)
            _type(page, "Save the seat map as", _bait("seatmap"))
            page.get_by_role("button", name="Save seat map and use it").click()
            _settle(page)
            assert f"{FOREIGN}/seatmap" in page.inner_text("body")
            # a bare typed name is saved in the app's data folder, not the folder the server started in
            assert not any(REPO.glob("!*")), "the typed seat-map name was written into the app's start folder"
            assert any(p.is_file() and "seatmap" in str(p) for p in data.rglob("*")), "the typed map was not saved"
            page.get_by_text("Tournament", exact=True).first.click()  # a typed folder, quoted back by the refusal
            _settle(page)
            _type(page, "Tournament folder (where the tournament's audit wrote its results)", _bait("tournament"))
            page.get_by_role("button", name="Open", exact=True).first.click()
            _settle(page)
            assert f"{FOREIGN}/tournament" in page.inner_text("body")
            page.get_by_text("Protocol", exact=True).first.click()  # a new sheet's title and a nickname on it
            _settle(page)
            page.get_by_text("an empty sheet", exact=True).first.click()
            _settle(page)
            _type(page, "The game (as the sheet names it)", _bait("sheet"))
            page.get_by_role("button", name="Start an empty sheet").click()
            _settle(page)
            _type(page, "Seat 1: nickname", _bait("sheetnick"))
            assert page.locator('[data-testid="stException"]').count() == 0, "Protocol"
            page.get_by_text("Open a game", exact=True).first.click()
            _settle(page)
            for label in ("Video (optional: else the video the protocol names)", "Seat map (optional: NAME.seats.json beside "
                          "the protocol)", "Observations (optional: an earlier analysis)"):
                _type(page, label, _bait(label.split()[0]))
            page.get_by_label("Protocol (*.protocol.json)").fill(str(bad))
            page.get_by_label("Protocol (*.protocol.json)").press("Enter")
            page.get_by_role("button", name="Open", exact=True).first.click()
            _settle(page)
            shown = page.inner_text("body")
            assert "rules" in shown and FOREIGN in shown  # the refusal quotes the value as text
        finally:
            browser.close()
    hosts = {urlparse(u).hostname for u in asked if urlparse(u).scheme in ("http", "https", "ws", "wss")}
    assert asked and hosts == {"127.0.0.1"}, sorted(u for u in asked if urlparse(u).hostname != "127.0.0.1")
