"""People's words, not Python's: every page of the app and every export of the bundled sample game is
walked (AppTest, hands from the committed observations), and no `None`, dict or list repr, internal code
(`result_stands`, `counted_for_last`), unrounded float or JSON key may reach the judge. Also: the state a
judge builds up survives page changes and failed opens, messages appear beside the control that caused
them, and the vote count is one number on the table, the card and the export."""

from __future__ import annotations

import html as html_mod
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from appcheck import goto, renders, shown, viewer_caption
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture
from test_app import app

from review.audit.findings import Finding
from stopframe_app.decisions import card_key
from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec

SPEC = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
LATE8 = card_key(Finding.from_json({"kind": "late_vote", "day": 1, "round": 1, "candidate": 8, "seat": 9, "night": None}))
MISCOUNT8 = card_key(Finding.from_json({"kind": "count_mismatch", "day": 1, "round": 1, "candidate": 8, "seat": None, "night": None}))


@pytest.fixture(autouse=True)
def _current_sample() -> None:
    """A stale sample-game fixture fails every test here with how to refresh it."""
    require_current_sample_fixture()


RAW = {
    "None": re.compile(r"\bNone\b"),
    "dict repr": re.compile(r"\{\s*['\"]?[\w ]+['\"]?\s*:\s*[^{}]*\}"),
    "list repr": re.compile(r"\[\s*['\"]?\w+['\"]?\s*(?:,\s*['\"]?\w+['\"]?\s*)+\]|\[\s*\d+\s*\]"),
    "unrounded float": re.compile(r"(?<![\d:.])\d+\.\d{3,}(?!\d*\s*(?:MB|KB|%))"),
    "internal code": re.compile(r"(?<![\w./\\-])[a-z]+(?:_[a-z0-9]+)+(?![\w/.-])"),
    "Python object": re.compile(r"<\w[\w.]* object at 0x|Traceback"),
}


def raw_bits(text: str) -> list[tuple[str, str]]:
    """(what, the text around it) for every raw value in `text`."""
    plain = text.replace("\\", "")  # markdown escapes (md()) are not what the judge reads
    out = []
    for what, pattern in RAW.items():
        for m in pattern.finditer(plain):
            out.append((what, plain[max(0, m.start() - 60): m.end() + 60]))
    return out


def _walk(node: Any) -> Iterator[Any]:
    yield node
    kids = getattr(node, "children", None)
    if kids:
        for child in kids.values() if isinstance(kids, dict) else kids:
            yield from _walk(child)


TEXT_TYPES = {"Markdown", "Caption", "Header", "Subheader", "Title", "Text", "Error", "Warning", "Info", "Success",
              "Exception", "Toast", "Metric", "Code", "Latex"}


def page_texts(at: Any) -> list[str]:
    """Everything a judge can read on the page: texts, labels, options, table cells and headers, captions."""
    out: list[str] = []
    for node in _walk(at._tree):
        name = type(node).__name__
        if name in TEXT_TYPES and isinstance(getattr(node, "value", None), str):
            out.append(node.value)
        for attr in ("label", "help", "placeholder"):
            value = getattr(node, attr, None)
            if isinstance(value, str):
                out.append(value)
        options = getattr(node, "options", None)
        if isinstance(options, list | tuple):
            out += [str(o) for o in options]
        if name in ("Dataframe", "Table") and isinstance(getattr(node, "value", None), pd.DataFrame):
            frame = node.value
            out += [str(c) for c in frame.columns]
            out += [str(v) for v in frame.astype(str).to_numpy().ravel()]
        if name == "Image":
            out += [str(c) for c in getattr(node, "captions", []) or []]
        if name == "Metric":
            out.append(str(getattr(node, "value", "")))
    return out


def assert_people_words(at: Any, where: str) -> None:
    renders(at)
    bad = [b for text in page_texts(at) for b in raw_bits(text)]
    assert not bad, f"{where}: {bad[:8]}"


def messages_beside(at: Any, key: str, within: int = 8) -> list[str]:
    """Errors, warnings and successes that come right after the control with `key` on the page (among the
    next few elements, in the order the page shows them): where the judge is looking after the click."""
    nodes = list(_walk(at._tree))
    at_ = next((i for i, n in enumerate(nodes) if getattr(n, "key", None) == key), None)
    if at_ is None:
        return []
    return [_read(n.value) for n in nodes[at_ + 1: at_ + 1 + within] if type(n).__name__ in ("Error", "Warning", "Success")]


def _read(markdown: str) -> str:
    """A message as the judge reads it: the app escapes every value for Markdown (`\\_` shows as `_`)."""
    return re.sub(r"\\(.)", r"\1", markdown)


def messages_elsewhere(at: Any, key: str, within: int = 8) -> list[str]:
    """The same kinds of message anywhere else on the page."""
    beside = set(messages_beside(at, key, within))
    return [_read(n.value) for n in _walk(at._tree) if type(n).__name__ in ("Error", "Warning", "Success")
            and _read(n.value) not in beside]


def _html_text(page: str) -> str:
    page = re.sub(r"<style.*?</style>", " ", page, flags=re.S)
    page = re.sub(r'src="data:[^"]*"', " ", page)
    return html_mod.unescape(re.sub(r"<[^>]+>", " \n", page))


def test_every_page_and_export_speaks_in_words(data: Path) -> None:
    at = app(SPEC)
    assert_people_words(at, "Vote audit")
    for label in at.selectbox(key="vote_round").options:
        at.selectbox(key="vote_round").set_value(label).run()
        assert_people_words(at, label)
    at.selectbox(key="vote_round").set_value(at.selectbox(key="vote_round").options[0]).run()
    at.button(key=f"{LATE8}_confirm").click().run()
    at.text_input(key=f"{MISCOUNT8}_reason").set_value("the judge counted seat 1 twice")
    at.button(key=f"{MISCOUNT8}_reject").click().run()
    assert_people_words(at, "Vote audit after two decisions")
    for page in ("Timeline & frames", "Seat calibration", "Exports", "Appeals", "Training", "Open a game"):
        goto(at, page)
        assert_people_words(at, page)
    goto(at, "Timeline & frames")
    at.toggle(key="frames_strip").set_value(False).run()
    at.button(key="frames_step_+5").click().run()
    assert_people_words(at, "Timeline, stepping on the server")
    at.toggle(key="frames_strip").set_value(True).run()
    assert_people_words(at, "Timeline, stepping in the browser")

    goto(at, "Exports")
    at.button(key="save_exports").click().run()
    assert_people_words(at, "Exports after saving")
    folder = next((data / "exports").glob("sample_game-*"))
    csv_text = (folder / "sample_game.findings.csv").read_text(encoding="utf-8-sig")
    bad = raw_bits(csv_text)
    assert not bad, f"findings CSV: {bad[:8]}"
    report = _html_text((folder / "sample_game.review.html").read_text())
    bad = raw_bits(report)
    assert not bad, f"HTML report: {bad[:8]}"
    assert "late vote" in report and "rejected" in csv_text

    goto(at, "Appeals")
    source = at.selectbox(key="appeal_from")
    source.set_value(next(o for o in source.options if "count mismatch" in o and "candidate 8" in o)).run()
    at.text_input(key="appeal_who").set_value("seat 8")
    at.button(key="appeal_open").click().run()
    assert_people_words(at, "Appeals, the case")
    case_id = at.selectbox(key="appeal_case").value
    at.button(key=f"{case_id}_d_go").click().run()
    assert_people_words(at, "Appeals, a refused decision")
    from review.cases.appeal_store import AppealStore
    from review.cases.store import Store
    from stopframe_app.game import complete_spec, load_game, run_audit
    from stopframe_app.views.appeals import report_html

    game = load_game(complete_spec(SPEC))
    game.audit = run_audit(game)
    case = AppealStore(Store(data / "stopframe.sqlite")).case(case_id)
    bad = raw_bits(_html_text(report_html(game, case)))
    assert not bad, f"appeal case file: {bad[:8]}"

    goto(at, "Training")
    at.text_input(key="trainee").set_value("Ada").run()
    at.button(key="quiz_start").click().run()
    assert_people_words(at, "Training, question 1")
    submit = next((b for b in at.button if b.key and b.key.endswith("_submit")), None)
    assert submit is not None, [e.value for e in at.error]
    submit.click().run()
    assert_people_words(at, "Training, marked")
    at.radio(key="training_mode").set_value("Trainer").run()
    assert_people_words(at, "Training, trainer")

    goto(at, "Vote audit")
    for profile in ("mafclub", "lvi2015", "showtime"):
        at.sidebar.selectbox(key="profile_pick").set_value(profile).run()
        for label in at.selectbox(key="vote_round").options:
            at.selectbox(key="vote_round").set_value(label).run()
            assert_people_words(at, f"{profile}: {label}")


def _table(at: Any) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "video count" in d.value.columns)


def test_one_count_on_the_table_the_card_and_the_export(data: Path) -> None:
    at = app(SPEC)
    renders(at)
    row8 = _table(at).set_index("candidate").loc["8"]
    # The audit's count: seat 6's hand plus the two silent votes (rfm 4.4.10), as the finding says.
    assert (row8["protocol count"], row8["video count"], row8["count mismatch"]) == ("4", "3", "yes")
    how = next(c.value for c in at.caption if c.value.startswith("How the video counts")).replace("\\", "")
    assert "candidate 8: 3 — 1 hand counted (seat 6); 2 silent votes (seats 8, 9)" in how, how
    card = next(m.value for m in at.markdown if "the video supports 3 (with 2 silent votes)" in m.value.replace("\\", ""))
    assert "video 3" in card.replace("\\", "")
    # Rejected, it is saved and named as a judge says it — no "seat None".
    at.text_input(key=f"{MISCOUNT8}_reason").set_value("the count was right")
    at.button(key=f"{MISCOUNT8}_reject").click().run()
    said = messages_beside(at, f"{MISCOUNT8}_reject")
    # A miscount is about the count, not about seat 9, whose hand is only one that differs.
    assert said and "count mismatch — the count for candidate 8 — day 1, round 1 — rejected" in said[0], said
    assert "None" not in " ".join(said)
    # Under mafclub a plain fist may count or not: the video supports 3–4, so 4 is no mismatch — on the table too.
    at.sidebar.selectbox(key="profile_pick").set_value("mafclub").run()
    renders(at)
    row8 = _table(at).set_index("candidate").loc["8"]
    assert (row8["video count"], row8["count mismatch"]) == ("3–4", "")
    assert not [f for f in at.markdown if f.value.startswith("**count mismatch") and "candidate 8" in f.value]


def test_messages_appear_beside_the_button_that_caused_them(data: Path) -> None:
    at = app(SPEC, judge="")
    at.button(key=f"{LATE8}_confirm").click().run()
    renders(at)
    said = messages_beside(at, f"{LATE8}_confirm")
    assert said and said[0].startswith("Enter your name first"), said
    assert not [m for m in messages_elsewhere(at, f"{LATE8}_confirm") if m.startswith("Enter your name")]
    # Rejecting needs a reason: said beside the buttons, as what is missing.
    at.sidebar.text_input(key="judge").set_value("Anna").run()
    at.button(key=f"{LATE8}_reject").click().run()
    said = messages_beside(at, f"{LATE8}_reject")
    assert said and said[0].startswith("Write the reason first"), said

    # An appeal decision that cannot be recorded lists only what is missing, under its button.
    goto(at, "Appeals")
    at.text_input(key="appeal_who").set_value("seat 8")
    at.button(key="appeal_open").click().run()
    case_id = at.selectbox(key="appeal_case").value
    at.radio(key=f"{case_id}_d_outcome").set_value("result_changed").run()
    at.button(key=f"{case_id}_d_go").click().run()
    renders(at)
    said = messages_beside(at, f"{case_id}_d_go")
    assert said and said[0].startswith("Not recorded yet. Missing:"), said
    text = said[0]
    assert "Write the reasoning" in text and "Tick «The chief judge agrees»" in text
    assert "Record the side judge's statement" in text
    assert "is written down" not in text and "who decided is recorded" not in text  # nothing that sounds met


def test_the_viewer_frame_and_the_game_survive_page_changes_and_failed_opens(data: Path) -> None:
    at = goto(app(SPEC), "Timeline & frames")
    at.toggle(key="frames_strip").set_value(False).run()  # stepping on the server
    for _ in range(20):
        at.button(key="frames_step_+5").click().run()
    assert at.session_state["frame"] == 100
    goto(at, "Vote audit")
    goto(at, "Timeline & frames")
    assert at.session_state["frame"] == 100 and "frame 100 ·" in viewer_caption(at)
    # Appeals offers and attaches exactly that frame.
    goto(at, "Appeals")
    at.text_input(key="appeal_who").set_value("seat 8")
    at.button(key="appeal_open").click().run()
    case_id = at.selectbox(key="appeal_case").value
    box = at.selectbox(key=f"{case_id}_attach")
    assert box.options[0] == "frame 100 (the frame open in the frame viewer)"
    box.set_value(box.options[0])
    at.button(key=f"{case_id}_attach_go").click().run()
    renders(at)
    from review.cases.appeal_store import AppealStore
    from review.cases.store import Store

    case = AppealStore(Store(data / "stopframe.sqlite")).case(case_id)
    assert case.evidence[-1].kind == "frame" and case.evidence[-1].frame == 100
    assert any(s.startswith("Attached: frame 100") for s in messages_beside(at, f"{case_id}_attach_go"))

    # The judge picks mafclub, then a failed open: the game, the profile and the frame stay.
    at.sidebar.selectbox(key="profile_pick").set_value("mafclub").run()
    goto(at, "Open a game")
    at.text_input(key="path_protocol").set_value(str(data / "nowhere.protocol.json"))
    at.button(key="open_paths").click().run()
    renders(at)
    said = messages_beside(at, "open_paths")
    assert said and "no protocol file" in said[0] and "stays open" in said[0], said
    broken = data / "broken.protocol.json"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_text('{"format": "stopframe-protocol/1", "players": [')
    at.text_input(key="path_protocol").set_value(str(broken))
    at.button(key="open_paths").click().run()
    said = messages_beside(at, "open_paths")
    assert len(said) == 1 and "broken.protocol.json" in said[0].replace("\\", ""), said  # the old error is gone
    assert "sample_game.protocol.json" in " ".join(m.value for m in at.sidebar.markdown)
    assert at.session_state["game_spec"].protocol == str(SAMPLE_PROTOCOL)
    assert at.sidebar.selectbox(key="profile_pick").value == "mafclub" and at.session_state["frame"] == 100
    # A wrong video for the same game is refused too, and Recent games keeps the good paths.
    at.text_input(key="path_protocol").set_value(str(SAMPLE_PROTOCOL))
    at.text_input(key="path_video").set_value(str(broken))
    at.button(key="open_paths").click().run()
    said = messages_beside(at, "open_paths")
    assert said and "Not opened" in said[0], said
    from review.cases.store import Store as _Store

    recent = _Store(data / "stopframe.sqlite").recent_games()
    assert recent and recent[0].video_path and recent[0].video_path.endswith("sample_game.mp4")
    goto(at, "Timeline & frames")
    assert at.session_state["frame"] == 100


def test_a_missing_video_says_so_plainly(data: Path, tmp_path: Path) -> None:
    import json

    protocol = json.loads(SAMPLE_PROTOCOL.read_text())
    protocol["video"] = {**(protocol.get("video") or {}), "path": "gone.mp4"}
    path = tmp_path / "game.protocol.json"
    path.write_text(json.dumps(protocol, ensure_ascii=False))
    at = app(GameSpec(str(path)))
    renders(at)
    said = [shown(m.value) for m in [*at.warning, *at.info]]
    assert any(m.startswith("The video is missing:") and "gone.mp4 does not exist" in m for m in said), said
    assert not any("has not been analysed" in m for m in said), said
    for page in ("Timeline & frames", "Seat calibration", "Appeals"):
        goto(at, page)
        assert_people_words(at, page)
        assert any("The video is missing" in m.value for m in [*at.warning, *at.info]), page


def test_exports_refuse_before_export_what_the_corrected_protocol_cannot_take(
        data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from review.cases import corrected

    said = "The late vote of seat 9 for candidate 8 cannot be applied: the count would go below zero."
    monkeypatch.setattr(corrected, "check_corrections", lambda data, decisions, votes=(): [said], raising=False)
    at = goto(app(SPEC), "Exports")
    renders(at)
    error = next(e.value for e in at.error if "cannot go into them" in e.value)
    assert said in shown(error)
    nodes = list(_walk(at._tree))
    first_download = next(i for i, n in enumerate(nodes) if type(n).__name__ == "DownloadButton"
                          or "download" in type(n).__name__.lower())
    assert next(i for i, n in enumerate(nodes) if getattr(n, "value", None) == error) < first_download
    labels = [b.label for b in at.get("download_button")]
    assert not any("Corrected protocol" in label or "game file" in label for label in labels), labels
