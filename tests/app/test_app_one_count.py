"""One count, one label, one frame on every surface, as a judge meets them on the bundled sample game: the
command line's table, the app's Vote audit page (Streamlit AppTest), the appeal's case file and the exports
agree on each vote's video count and on which findings are less sure; a miscount is labelled by its count,
never by a seat; the frame a card shows is the frame confirming records and the case file prints; a seat map
of another video is refused at the app's open, the game open before staying open."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from appcheck import goto, renders, shown
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture
from test_app import app

from contract.i18n import using
from contract.jsonio import read_json
from review.audit.findings import about
from review.audit.tally import default_least, less_sure, tally
from review.cases.appeal_report import appeal_html
from review.cases.appeals import AppealCase, EvidenceItem
from review.cases.store import Store, game_id_for
from stopframe_app import report
from stopframe_app.decisions import card_key, plain_title
from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec, complete_spec, load_game, run_audit
from stopframe_app.views.appeals import evidence_for, vote_label
from stopframe_app.views.votes import LESS_SURE, ROUND, ranked, round_rows, rounds_of
from stopframe_cli.main import main

SPEC = GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS))
SEATS = SAMPLE_PROTOCOL.with_name("sample_game.seats.json")
VIDEO = SAMPLE_PROTOCOL.with_name("sample_game.mp4")
VOTE_LINE = re.compile(r"^\s+(\d+)\s+(\d+)\s+(lift \S+|\d+)\s+(\S+)\s+(\S+)\s+\d")


@pytest.fixture(autouse=True)
def _current_sample() -> None:
    require_current_sample_fixture()


def _game():
    game = load_game(complete_spec(SPEC))
    game.audit = run_audit(game)
    return game


def _cli_table(capsys) -> str:
    assert main(["--lang", "en", "audit", str(VIDEO), "--protocol", str(SAMPLE_PROTOCOL), "--seats", str(SEATS),
                 "--observations", str(SAMPLE_OBSERVATIONS), "--nights", "--min-confidence",
                 str(default_least())]) == 0  # the nights too, as the app audits them from these observations
    return capsys.readouterr().out


def test_every_vote_has_one_count_in_the_cli_the_app_and_the_case_file(capsys) -> None:
    table = _cli_table(capsys)
    cli = {(int(m[1]), int(m[2]), m[3]): m[5] for line in table.splitlines() if (m := VOTE_LINE.match(line))}
    with using("en"):
        game = _game()
        app_counts = {}
        for rnd in rounds_of(game):
            rows, _hows = round_rows(game, rnd)
            for w, row in zip(rnd.windows, rows, strict=True):
                who = str(w.candidate) if w.kind == "vote" else "lift " + ",".join(map(str, w.candidates))
                app_counts[(w.day, w.round, who)] = row["video count"]
        assert cli and cli == app_counts
        for v in game.votes:
            count = tally(v).count_text
            assert vote_label(v).endswith(f"video {count}")  # the appeal's evidence label
            assert f"video count {count} (" in report.evidence_in_words(v.to_json(), "vote")["x_text"]  # case file
            case = AppealCase("c1", "g", "rfm", "seat 8", "miscount", "rfm 7.1.2.3", 0.0, 0.0,
                              evidence=(EvidenceItem("vote", "v", None, v.to_json()),))
            html = appeal_html(case, title="t", protocol=None)
            assert f"<td>{count}</td>" in html
        assert any(line[4] == "3" for line in report.vote_lines(game.votes) if line[2] == "8")  # the exports' table
    assert cli[(1, 1, "8")] == "3"  # the judge's candidate 8: 1 counted hand and 2 silent votes


def test_the_same_findings_are_less_sure_in_the_cli_and_the_app(capsys, data: Path) -> None:
    table = _cli_table(capsys)
    listed_cli = {int(m) for m in re.findall(r"^\s+#(\d+)", table, flags=re.M)}
    hidden = re.search(r"and (\d+) less sure", table)
    game = _game()
    listed_app = {game.findings.index(f) for f in ranked(game.findings, default_least())}
    assert listed_cli == listed_app
    assert {i for i, f in enumerate(game.findings) if less_sure(f)} == set(range(len(game.findings))) - listed_cli
    at = goto(app(SPEC), "Vote audit")
    renders(at)
    said = [c.value for c in at.caption if "less sure" in c.value]
    n = int(hidden[1]) if hidden else 0
    assert (said and said[0].startswith(f"{n} less sure")) if n else not said


def test_a_miscount_is_about_the_count_for_its_candidate_everywhere(capsys, data: Path) -> None:
    table = _cli_table(capsys)
    assert re.search(r"count mismatch\s+the count for candidate 8 ", table)
    assert "count_mismatch seat" not in table
    game = _game()
    miscount = next(f for f in game.findings if f.kind == "count_mismatch" and f.candidate == 8)
    assert miscount.seats == (9,)  # the seat whose hand differs is still in the finding, not its label
    with using("en"):
        assert plain_title(miscount) == "count mismatch — the count for candidate 8 — day 1, round 1"
        assert "the count for candidate 8" in report.evidence_in_words(miscount.to_json(), "finding")["x_text"]
    with using("ru"):
        assert about(miscount) == "подсчёт голосов за кандидатуру 8"
    at = goto(app(SPEC), "Vote audit")
    at.toggle(key=LESS_SURE).set_value(True).run()
    titles = [m.value for m in at.markdown if m.value.startswith("**count mismatch")]
    assert titles and all("the count for candidate" in t and "seat" not in t.split("\n")[0] for t in titles)


def test_the_frame_a_card_shows_is_the_frame_confirming_records_and_the_case_file_prints(data: Path) -> None:
    game = _game()
    at = goto(app(SPEC), "Vote audit")
    at.toggle(key=LESS_SURE).set_value(True).run()
    for label in at.selectbox(key=ROUND).options:
        at.selectbox(key=ROUND).set_value(label).run()
        for f in game.findings:
            key = card_key(f)
            if not any(b.key == f"{key}_confirm" for b in at.button):
                continue
            captions = [i.caption for img in at.get("image") for i in img.proto.imgs]
            assert any(f"frame {f.frame} ·" in c for c in captions), (f.kind, f.frame, captions)
            at.button(key=f"{key}_confirm").click().run()
            renders(at)
    store = Store(data / "stopframe.sqlite")
    decided = store.decisions(game_id_for(read_json(SAMPLE_PROTOCOL), SAMPLE_PROTOCOL))
    day = [f for f in game.findings if f.day is not None]
    assert len(decided) == len(game.findings) > len(day)  # the nights' findings too
    for f in game.findings:
        frame = f.frame
        assert decided[next(k for k in decided if decided[k].finding.identity == f.identity)].reason == \
            f"Seen on video at frame {frame}"
        assert evidence_for(game, {"kind": "finding", "finding": f})[0].frame == frame  # the case file's frame
    double = next(f for f in day if f.kind == "double_vote")
    assert double.frame == next(h["on_frame"] for h in read_json(SAMPLE_OBSERVATIONS)["hands"]
                                if h["seat"] == double.seat and abs(h["on"] - double.t) < 0.05)
    late = next(f for f in day if f.kind == "late_vote")
    hands = [h for h in read_json(SAMPLE_OBSERVATIONS)["hands"] if h["seat"] == late.seat]
    assert any(h["on_frame"] <= late.frame < h["off_frame"] for h in hands)  # the hand is in the zone there


def test_a_seat_map_of_another_size_is_said_and_of_another_shape_refused(tmp_path: Path, data: Path) -> None:
    """Spec §2 scales a map of the same shape (a phone's smaller copy of the game): the game opens with a warning
    naming both sizes and both files; a map of another shape is refused and the game open before stays open."""
    far = json.loads(SEATS.read_text())
    far["frame_size"] = [1280, 720]
    far["seats"] = {k: {"zone": [[x * 2 / 3, y * 2 / 3] for x, y in v["zone"]]} for k, v in far["seats"].items()}
    seats = tmp_path / "far.seats.json"
    seats.write_text(json.dumps(far))
    at = goto(app(SPEC), "Open a game")
    at.text_input(key="path_protocol").set_value(str(SAMPLE_PROTOCOL))
    at.text_input(key="path_seats").set_value(str(seats))
    at.button(key="open_paths").click().run()
    goto(at, "Vote audit")
    warnings = [shown(w.value) for w in at.warning if "1280x720" in shown(w.value)]
    assert len(warnings) == 1 and "1920x1080" in warnings[0] and "far.seats.json" in warnings[0], warnings
    assert "sample_game.mp4" in warnings[0] and "check it is this camera's map" in warnings[0]
    square = json.loads(SEATS.read_text())
    square["frame_size"] = [1080, 1080]
    square["seats"] = {k: {"zone": [[x * 1080 / 1920, y] for x, y in v["zone"]]} for k, v in square["seats"].items()}
    other = tmp_path / "square.seats.json"
    other.write_text(json.dumps(square))
    goto(at, "Open a game")
    before = at.session_state["game_spec"]
    at.text_input(key="path_protocol").set_value(str(SAMPLE_PROTOCOL))
    at.text_input(key="path_seats").set_value(str(other))
    at.button(key="open_paths").click().run()
    errors = [shown(e.value) for e in at.error]
    assert len(errors) == 1 and "1080x1080" in errors[0] and "aspect ratio" in errors[0], errors
    assert "The game open before stays open." in errors[0]
    assert at.session_state["game_spec"] == before
