"""A judge's whole session in a real browser (Debian's Chromium driven by Playwright) on the bundled sample
game: open it, select a finding, step ±1/±5 in the browser (the default) and on the server, confirm one finding and
reject one with a reason, export the corrected protocol and validate it with `stopframe validate`, open an
appeal with the frame the viewer is on, and take a quiz question. Each step asserts what the judge checks
(the frame number under the picture, the saved decision beside its button, the file that validates, the
attached frame), not only that a page rendered. Skipped only where /usr/bin/chromium is absent.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_app_browser import CHROMIUM, ERROR_MARKERS, FLAGS, _wait_rendered, app_url, shots  # noqa: F401 - fixtures

from review.audit.calibration import shipped
from review.audit.findings import Finding
from stopframe_app.game import GameSpec, complete_spec, load_game, run_audit
from stopframe_app.views.votes import ranked

pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium (/usr/bin/chromium) "
                                                     "is not installed")]


def _rows(args: list[str]) -> list[Finding]:
    """Day 1 round 1's findings, in the order the findings table lists them (most confident first)."""
    spec = GameSpec(args[1], observations=args[3] if len(args) > 3 else None)
    game = load_game(complete_spec(spec))
    report = run_audit(game)
    shown = ranked(report.findings if report is not None else (), shipped().default_threshold)
    return [f for f in shown if f.day == 1 and f.round == 1]


def _click_row(page: Any, row: int) -> None:
    """Select a row of the findings table (a canvas grid: rows 35 px under a 35 px header)."""
    grid = page.locator('[data-testid="stDataFrame"]').last.bounding_box()  # the findings: the page's last grid
    page.mouse.click(grid["x"] + 12, grid["y"] + 35 * (row + 1) + 17)


def _ok(page: Any, where: str) -> str:
    text = page.inner_text("body")
    assert not [m for m in ERROR_MARKERS if m in text], f"{where}: {text[:3000]}"
    assert page.locator('[data-testid="stException"]').count() == 0, where
    return text


def _frame_shown(page: Any) -> int:
    """The frame number under the viewer's picture (its caption: `… · frame N · mm:ss.fff`)."""
    caption = page.locator('[data-testid="stImageCaption"]').first.inner_text()
    return int(re.search(r"frame (\d+)", caption).group(1))


def _page(page: Any, name: str, header: str) -> str:
    page.locator('[data-testid="stSidebar"]').get_by_text(name, exact=True).first.click()
    return _wait_rendered(page, header)


def _settle(page: Any) -> None:
    page.wait_for_timeout(400)
    page.wait_for_function(
        """() => { const app = document.querySelector('[data-testid="stApp"]');
                   return app && app.getAttribute('data-test-script-state') === 'notRunning'; }""", timeout=90_000)
    page.wait_for_timeout(600)


def test_a_judge_reviews_the_sample_game_in_chromium(app_url: tuple[str, list[str]],  # noqa: F811
                                                      tmp_path: Path, shots: Path) -> None:  # noqa: F811
    from playwright.sync_api import expect, sync_playwright

    url, args = app_url
    assert args, "the sample game's observations do not match its video: regenerate the fixture"
    day1 = _rows(args)
    late = next(i for i, f in enumerate(day1) if f.kind == "late_vote")
    miscount = next(i for i, f in enumerate(day1) if f.kind == "count_mismatch" and f.candidate == 8)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS[1:], headless=True)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 1400}, accept_downloads=True)
            page.goto(url)
            text = _wait_rendered(page, "Vote audit")
            _ok(page, "Vote audit")
            assert "sample_game.protocol.json" in page.locator('[data-testid="stSidebar"]').inner_text()
            page.locator('[data-testid="stSidebar"]').get_by_label("Your name (recorded with each decision)").fill("Anna")
            page.keyboard.press("Tab")
            _settle(page)

            # Select the late vote in the findings table: its card alone, with its frame and buttons.
            _click_row(page, late)
            text = _wait_rendered(page, "late vote — seat 9")
            assert "late vote — seat 9" in text and page.get_by_role("button", name="Confirm").count() == 1
            page.get_by_role("button", name="Confirm").click()
            _settle(page)
            text = _ok(page, "confirmed")
            assert "Saved: late vote — seat 9 — day 1, round 1, candidate 8 — confirmed by Anna." in text
            saved = page.get_by_text("Saved: late vote — seat 9", exact=False).first.bounding_box()
            button = page.get_by_role("button", name="Confirm").bounding_box()
            assert 0 < saved["y"] - button["y"] < 250, (saved, button)  # beside the button, not far above it

            # Reject the miscount of candidate 8 with a reason.
            _click_row(page, miscount)
            text = _wait_rendered(page, "count mismatch — the count for candidate 8")
            assert "video 3" in text and "2 silent votes (seats 8, 9)" in text  # one count, as on the table
            page.get_by_label("reason").fill("the judge's count of 4 stands: seat 1 voted once")
            page.keyboard.press("Tab")
            _settle(page)
            page.get_by_role("button", name="Reject").click()
            _settle(page)
            text = _ok(page, "rejected")
            assert "count mismatch — the count for candidate 8 — day 1, round 1 — rejected by Anna" in text
            assert "None" not in text

            # Step in the browser, the viewer's default, past the prefetched ±12 frames: the server is told and
            # sends more, and knows where the browser stopped.
            _page(page, "Timeline & frames", "Timeline and frames")
            strip = page.frame_locator('[data-testid="stCustomComponentV1"]').first
            strip.locator("#c").wait_for(timeout=30_000)
            start = int(re.search(r"frame (\d+)", strip.locator("#c").inner_text()).group(1))
            assert page.get_by_role("button", name="+1", exact=True).count() == 0  # no server round trip per frame
            for _ in range(2):
                strip.get_by_role("button", name="+5", exact=True).click()
            page.wait_for_timeout(1500)  # the page tells the server where it stopped (after a short pause)
            _settle(page)
            strip.get_by_role("button", name="+5", exact=True).click()
            page.wait_for_timeout(1500)
            _settle(page)
            # a loaded machine may take a while to bring the frames and the server's answer: both are waited for
            expect(strip.locator("#c")).to_contain_text(re.compile(rf"frame {start + 15}\b"), timeout=30_000)  # beyond ±12
            box = page.locator('[data-testid="stNumberInput"] input').first
            expect(box).to_have_value(str(start + 15), timeout=30_000)  # the server knows where the browser stopped
            # Quick steps past the frames in the page: none is lost, and the page never jumps back.
            for _ in range(5):
                strip.get_by_role("button", name="+5", exact=True).click()
            page.wait_for_timeout(2000)
            _settle(page)
            page.wait_for_timeout(1000)
            expect(strip.locator("#c")).to_contain_text(re.compile(rf"frame {start + 40}\b"), timeout=30_000)
            expect(box).to_have_value(str(start + 40), timeout=30_000)
            # Step on the server, the judge's other choice: ±1 and ±5, the frame number under the picture follows.
            page.get_by_text("Step in the browser", exact=False).first.click()
            _settle(page)
            start = _frame_shown(page)
            assert start == int(box.input_value())
            for label, delta in (("+5", 5), ("+1", 1), ("−1", -1), ("+5", 5), ("−5", -5), ("+1", 1)):
                page.get_by_role("button", name=label, exact=True).first.click()
                _settle(page)
                start, shown = start + delta, _frame_shown(page)
                assert shown == start, (label, shown, start)
            frame = start

            # Export and validate the corrected protocol with the command line.
            _page(page, "Exports", "Exports")
            _ok(page, "Exports")
            with page.expect_download() as got:
                page.get_by_role("button", name="Download Corrected protocol (JSON)").click()
            corrected = tmp_path / got.value.suggested_filename
            got.value.save_as(corrected)
            assert corrected.name == "sample_game.corrected.protocol.json"
            run = subprocess.run([sys.executable, "-c", "from stopframe_cli.main import main; main()", "validate", str(corrected)],
                                 capture_output=True, text=True, timeout=120)
            assert run.returncode == 0, run.stdout + run.stderr
            history = page.get_by_text("Decision history (audit trail)").first
            assert history.is_visible()
            page.screenshot(path=str(shots / "flow_exports.png"), full_page=True)

            # An appeal with the frame the viewer is on.
            _page(page, "Appeals", "Appeals")
            page.get_by_label("Who appeals").fill("seat 8")
            page.keyboard.press("Tab")
            _settle(page)
            page.get_by_role("button", name="Open the case").click()
            _settle(page)
            text = _ok(page, "appeal opened")
            assert re.search(r"Case \S+ opened with \d+ piece", text), text[:2000]
            # "Attach more evidence" offers first the frame the viewer is on; attach it as it is offered.
            page.get_by_role("button", name="Attach", exact=True).click()
            _settle(page)
            text = _ok(page, "attached")
            assert f"Attached: frame {frame}" in text
            page.get_by_role("button", name="Record the decision").click()
            _settle(page)
            text = _ok(page, "refused decision")
            assert "Not recorded yet. Missing:" in text and "Write the reasoning" in text
            assert "the reasoning is written down" not in text.split("Not recorded yet")[1][:600]
            page.screenshot(path=str(shots / "flow_appeal.png"), full_page=True)

            # A quiz question, answered and marked.
            _page(page, "Training", "Training")
            page.get_by_label("Trainee").fill("Ada")
            page.keyboard.press("Tab")
            _settle(page)
            page.get_by_role("button", name="Start the quiz").click()
            _wait_rendered(page, "Question 1 of")
            page.get_by_role("button", name="Check my answer").click()
            _settle(page)
            text = _ok(page, "quiz")
            assert "Score" in text and re.search(r"\d+ %", text), text[:2000]
        except Exception:
            page.screenshot(path=str(tmp_path / "failed.png"), full_page=True)
            print("screenshot of the failure:", tmp_path / "failed.png")
            raise
        finally:
            browser.close()
