"""What a judge new to the app meets, walked in a real browser (Debian's Chromium driven by Playwright, the app
served by `streamlit run app.py` as in tests/app/test_app_browser.py) on the bundled sample game and a small
tournament run over it:

- *Open this game* on the Tournament page opens the game with the run's findings listed at once (as many as its
  audit report holds) and the hands the run saw, with no analysis asked for; the page is titled with the
  tournament's name, not its folder's;
- the evidence frame a finding's card and the frame viewer show is the frame its audit report records
  (`x_frame`), and confirming it records that frame;
- *Find seats from the video* shows the map it found at once;
- the appeal form starts on the finding in view and dates the game by its protocol;
- the rule profile picker names each rulebook beside its code.

Each step waits for what the page renders and asserts what the judge reads there. Skipped only where
/usr/bin/chromium is absent.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture
from test_app_browser import CHROMIUM, ERROR_MARKERS, FLAGS, serving
from test_app_tournament_open import CUP, tournament  # noqa: F401 - the tournament run, a fixture

from contract.i18n import using
from contract.jsonio import read_json
from review.audit.calibration import shipped
from review.cases.store import Store, game_id_for
from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec, complete_spec, load_game, profile_ids, run_audit
from stopframe_app.main import profile_label
from stopframe_app.views.votes import ranked

pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium (/usr/bin/chromium) "
                                                     "is not installed")]

WAIT = 120_000  # ms: a loaded machine renders a page in seconds; this only bounds a hang
ARGS = ["--", str(SAMPLE_PROTOCOL), "--observations", str(SAMPLE_OBSERVATIONS)]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app on the sample game with its committed observations; its URL and its data folder (the decisions)."""
    require_current_sample_fixture()
    data = tmp_path_factory.mktemp("newcomer-data")
    with serving(ARGS, tmp_path_factory, data) as url:
        yield url, data


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS[1:], headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any, served: tuple[str, Path], tmp_path: Path) -> Iterator[Any]:
    """A new tab (a session of its own) on the sample game's Vote audit; a screenshot is kept if the test fails."""
    tab = browser.new_page(viewport={"width": 1440, "height": 1400})
    tab.set_default_timeout(WAIT)
    try:
        tab.goto(served[0])
        _header(tab, "Vote audit")
        yield tab
    finally:
        tab.screenshot(path=str(tmp_path / "last.png"), full_page=True)
        print("the page as the test left it:", tmp_path / "last.png")
        tab.close()


# --- waiting for what the page shows --------------------------------------------------------------------------

def _idle(page: Any) -> None:
    """Wait until Streamlit has no script run going and no element still loading."""
    page.wait_for_function(
        """() => { const app = document.querySelector('[data-testid="stApp"]');
                   return app && app.getAttribute('data-test-script-state') === 'notRunning'
                          && !document.querySelector('[data-testid="stSkeleton"]'); }""", timeout=WAIT)


def _watch(page: Any) -> None:
    """Start noting the app's script runs (a rerun a click or a box starts is waited for by `_ran`)."""
    page.evaluate(
        """() => { window.__stopframeRuns = 0;
                   const app = document.querySelector('[data-testid="stApp"]');
                   if (window.__stopframeWatch) window.__stopframeWatch.disconnect();
                   window.__stopframeWatch = new MutationObserver(() => {
                       if (app.getAttribute('data-test-script-state') === 'running') window.__stopframeRuns += 1; });
                   window.__stopframeWatch.observe(app, {attributes: true,
                                                         attributeFilter: ['data-test-script-state']}); }""")


def _ran(page: Any) -> str:
    """Wait until a script run started since `_watch` has finished; the page's text then."""
    page.wait_for_function("() => window.__stopframeRuns > 0", timeout=WAIT)
    _idle(page)
    return _ok(page)


def _act(page: Any, do: Any) -> str:
    """Do something that reruns the app (a click, a box left) and wait until that run has finished."""
    _watch(page)
    do()
    return _ran(page)


def _ok(page: Any) -> str:
    text = page.inner_text("body")
    assert not [m for m in ERROR_MARKERS if m in text], text[:3000]
    assert page.locator('[data-testid="stException"]').count() == 0
    return text


def _header(page: Any, header: str) -> str:
    """Wait for a page's own header (not the sidebar's link to it) and the end of its run."""
    page.locator('[data-testid="stMain"] h2').filter(has_text=re.compile(f"^{re.escape(header)}$")).first.wait_for()
    _idle(page)
    return _ok(page)


def _to(page: Any, name: str, header: str) -> str:
    page.locator('[data-testid="stSidebar"]').get_by_text(name, exact=True).first.click()
    return _header(page, header)


def _judge(page: Any, name: str) -> None:
    """The judge's name in the sidebar; a tab opened after it was given here already holds it (the app keeps the
    name last given on this computer), and then there is nothing to type."""
    box = page.locator('[data-testid="stSidebar"]').get_by_label("Your name (recorded with each decision)")
    if box.input_value() != name:
        _act(page, lambda: (box.fill(name), box.press("Tab")))


def _options(page: Any, label: str) -> list[str]:
    """The choices a select box offers, as its open list shows them (then closed again)."""
    box = page.locator('[data-testid="stSelectbox"]').filter(has=page.get_by_text(label, exact=True)).first
    box.locator('[role="combobox"]').first.click()
    listed = page.locator('[role="listbox"] [role="option"]')
    listed.first.wait_for()
    shown = [o.inner_text().strip() for o in listed.all()]
    page.keyboard.press("Escape")
    page.locator('[role="listbox"]').wait_for(state="detached")
    return shown


def _chosen(page: Any, label: str) -> str:
    """What a select box shows chosen."""
    box = page.locator('[data-testid="stSelectbox"]').filter(has=page.get_by_text(label, exact=True)).first
    return box.locator('[role="combobox"]').first.input_value().strip()


# --- the findings table -----------------------------------------------------------------------------------------

def _sample_report() -> dict[str, Any]:
    """The sample game's audit report, as `stopframe audit` writes it (what the app audits on opening)."""
    game = load_game(complete_spec(GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))))
    report = run_audit(game)
    assert report is not None
    return {"report": report.to_json(), "findings": report.findings}


def _select_row(page: Any, row: int, title: str) -> str:
    """Select a row of the round's findings table (a canvas grid: 35 px rows under a 35 px header) and wait for
    that finding's card alone."""
    grid = page.locator('[data-testid="stDataFrame"]').last.bounding_box()  # the findings: the page's last grid
    _act(page, lambda: page.mouse.click(grid["x"] + 12, grid["y"] + 35 * (row + 1) + 17))
    page.get_by_text(title, exact=False).first.wait_for()
    return _ok(page)


def _frame_in(caption: str) -> int:
    return int(re.search(r"frame (\d+)", caption).group(1))


# --- the tests --------------------------------------------------------------------------------------------------

def test_open_this_game_lists_the_tournaments_findings_at_once(page: Any, tournament: Path) -> None:  # noqa: F811
    report = read_json(tournament / "tournament.json")
    [row] = report["games"]
    audit = read_json(tournament / row["audit"])
    kept = tournament / "games" / "cup-g1.observations.json"
    assert kept.is_file() and row["findings"] == len(audit["findings"]) > 0
    before = {p: p.stat().st_mtime_ns for p in tournament.rglob("*") if p.is_file()}

    _to(page, "Tournament", "Tournament")
    box = page.get_by_label("Tournament folder (where the tournament's audit wrote its results)")
    _act(page, lambda: (box.fill(str(tournament)), box.press("Tab")))  # the Open button follows that run
    main = page.locator('[data-testid="stMain"]')
    _act(page, lambda: main.get_by_role("button", name="Open", exact=True).click())
    title = page.locator('[data-testid="stMain"] h3').first
    title.wait_for()
    assert title.inner_text().strip() == CUP  # the tournament's name from its protocols, not the folder's
    assert tournament.name not in title.inner_text()

    _act(page, lambda: page.get_by_role("button", name="Open this game").click())
    text = _header(page, "Vote audit")
    assert "cup-g1.protocol.json" in page.locator('[data-testid="stSidebar"]').inner_text()
    for unwanted in ("No audit yet.", "has not been analysed yet", "The findings are the tournament's audit",
                     "Analyse the vote windows"):
        assert unwanted not in text, unwanted
    shown_here = int(re.search(r"Findings \((\d+)\)", text).group(1))
    assert shown_here > 0  # the page opens on a round with findings, their table and cards below
    less_sure = page.get_by_text("Show the less sure suggestions too", exact=False)
    if less_sure.count():
        text = _act(page, lambda: less_sure.first.click())
    per_round = [int(m.group(1)) for label in _options(page, "Vote") if (m := re.search(r"· (\d+) findings?$", label))]
    others = [int(n) for n in re.findall(r"Night and other findings \((\d+)\)", text)]
    assert sum(per_round) + sum(others) == len(audit["findings"])  # every finding of the run's report, listed

    text = _to(page, "Open a game", "Open a game")  # where the judge would otherwise analyse the video
    hands = len(read_json(kept)["hands"])
    assert f"Analysed: {hands} hand intervals from cup-g1.observations.json." in text  # the hands the run saw
    assert {p: p.stat().st_mtime_ns for p in tournament.rglob("*") if p.is_file()} == before  # nothing made again


@pytest.mark.parametrize("kind", ["double_vote", "late_vote"])
def test_the_evidence_frame_is_the_frame_the_audit_recorded(page: Any, served: tuple[str, Path], kind: str) -> None:
    audit = _sample_report()
    [recorded] = [f for f in audit["report"]["findings"] if f["kind"] == kind and f.get("day") == 1]
    frame = recorded["x_frame"]
    assert isinstance(frame, int)
    finding = next(f for f in audit["findings"] if f.kind == kind and f.day == 1)
    day1 = [f for f in ranked(audit["findings"], shipped().default_threshold) if f.day == 1 and f.round == 1]
    with using("en"):
        from stopframe_app.decisions import plain_title
        title = plain_title(finding)
    head = title.split(" — day ")[0]  # `double vote — seat 1`: the card's first words

    _judge(page, "Anna")
    _select_row(page, day1.index(finding), head)
    card = page.locator('[data-testid="stMain"]')  # the selected finding's card alone
    assert card.get_by_role("button", name="Confirm").count() == 1
    caption = card.locator('[data-testid="stImageCaption"]').first.inner_text()
    assert _frame_in(caption) == frame, caption  # the card's evidence frame is the report's

    _act(page, lambda: card.get_by_role("button", name="Confirm").click())
    card.get_by_text(f"Saved: {title} — confirmed by Anna.").first.wait_for()  # beside its buttons
    data = served[1]
    decided = Store(data / "stopframe.sqlite").decisions(game_id_for(read_json(SAMPLE_PROTOCOL), SAMPLE_PROTOCOL))
    [saved] = [d for d in decided.values() if d.finding.identity == finding.identity]
    assert saved.status == "confirmed" and saved.who == "Anna"
    assert saved.reason == f"Seen on video at frame {frame}"  # the decision records the frame shown
    assert saved.finding.to_json().get("x_frame") == frame

    _act(page, lambda: card.get_by_role("button", name="Step through it in the frame viewer").click())
    _header(page, "Timeline and frames")
    strip = page.frame_locator('[data-testid="stCustomComponentV1"]').first
    strip.locator("#c").wait_for()
    assert _frame_in(strip.locator("#c").inner_text()) == frame  # the viewer opens on the same frame
    assert int(page.locator('[data-testid="stNumberInput"] input').first.input_value()) == frame


def test_find_seats_from_the_video_shows_the_found_map_at_once(page: Any) -> None:
    _to(page, "Seat calibration", "Seat calibration")
    own, found = page.get_by_label("the game's seat map", exact=True), page.get_by_label(
        "the seat map found from the video", exact=True)
    assert own.is_checked() and found.count() == 0
    _act(page, lambda: page.get_by_role("button", name="Find seats from the video").click())
    text = _ok(page)
    assert found.is_checked() and not own.is_checked()  # the map just found, with no other option picked
    assert "Found from the hands in the protocol's votes" in text
    assert page.get_by_role("button", name="Flip direction").is_visible()
    assert page.get_by_role("button", name="Move seat 1").is_visible()


def test_the_appeal_starts_on_the_finding_in_view_and_on_the_games_date(page: Any) -> None:
    audit = _sample_report()
    day1 = [f for f in ranked(audit["findings"], shipped().default_threshold) if f.day == 1 and f.round == 1]
    late = next(f for f in day1 if f.kind == "late_vote")
    played = str(read_json(SAMPLE_PROTOCOL)["game"]["date"])
    assert played != date.today().isoformat()  # else the form's date could not tell the protocol's from today's
    _select_row(page, day1.index(late), "late vote — seat 9")
    _to(page, "Appeals", "Appeals")
    picked = _chosen(page, "Opened from (a finding or an event)")
    assert picked.startswith("finding: late vote — seat 9") and "candidate 8" in picked, picked
    for label in ("Game ended at", "Appeal filed at"):
        value = page.get_by_label(label, exact=True).input_value()
        assert value.startswith(played + " "), (label, value)  # the protocol's game.date, not today


def test_the_profile_picker_names_each_rulebook(page: Any) -> None:
    with using("en"):
        expected = [profile_label(code) for code in profile_ids()]
    assert expected[0] == "Federation tournament rules (РФМ) · rfm"
    label = "Rule profile"
    assert _chosen(page, label) == expected[0]  # the sample's rules, by the rulebook's name
    offered = _options(page, label)
    assert offered == expected
    assert all(not re.fullmatch(r"[a-z0-9]+", o) for o in offered)  # never a bare code


def test_a_file_dragged_over_the_upload_box_is_met_in_the_judges_language(page: Any) -> None:
    """Streamlit writes its own English note over the upload box while a file is dragged over it; the judge
    reading Russian sees the catalogue's words there instead, and no English."""
    _to(page, "Open a game", "Open a game")
    _act(page, lambda: page.locator('[data-testid="stSidebar"]').get_by_text("Русский", exact=True).click())
    _header(page, "Открыть игру")
    page.evaluate(
        """() => { const zone = document.querySelector('[data-testid="stFileUploaderDropzone"]');
                   const files = new DataTransfer();
                   files.items.add(new File(['{}'], 'game.json', {type: 'application/json'}));
                   zone.dispatchEvent(new DragEvent('dragenter', {bubbles: true, dataTransfer: files})); }""")
    note = page.locator("[data-testid='stFileUploaderDropzone']>input+div:not(:last-child)")
    note.wait_for()
    shown = note.evaluate("e => getComputedStyle(e, '::after').content")
    assert shown == '"Отпустите файл здесь"'
    box = page.locator('[data-testid="stFileUploaderDropzone"]').first.inner_text()
    assert "Drag" not in box and "drop" not in box.lower(), box
