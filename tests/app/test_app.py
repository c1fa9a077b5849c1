"""The judge's workspace, driven through Streamlit's AppTest on a small rendered game (no MediaPipe:
the hands come from the committed observations fixture, tests/fixtures/app/app_game.observations.json)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from appcheck import goto, renders, shown, strip_args, viewer_caption
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture
from streamlit.testing.v1 import AppTest

from contract.observations import Observations
from review.audit.findings import Finding
from review.cases.store import Store, finding_key
from review.game.timeline import vote_windows
from stopframe_app.decisions import card_key
from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec, own_name

REPO = Path(__file__).resolve().parents[2]
APP = str(REPO / "app.py")
_spec = importlib.util.spec_from_file_location("make_game", REPO / "tests" / "fixtures" / "app" / "make_game.py")
make_game_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_game_mod)  # type: ignore[union-attr]

LATE_CARD = card_key(Finding.from_json({"kind": "late_vote", "day": 1, "round": 1, "candidate": 3, "seat": 9, "night": None}))


@pytest.fixture(scope="module")
def game_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_game_mod.make_game(tmp_path_factory.mktemp("game")).parent


def app(spec: GameSpec | None, judge: str = "Chief Judge") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if spec is not None:
        at.session_state["game_spec"] = spec
    at.session_state["judge"] = judge
    return at.run()


def spec_of(folder: Path) -> GameSpec:
    return GameSpec(str(folder / "app_game.protocol.json"))


def test_opens_on_the_sample_game_with_no_setup(data: Path) -> None:
    at = app(None)
    renders(at)
    assert at.header[0].value == "Vote audit"
    assert "sample_game.protocol.json" in " ".join(m.value for m in at.sidebar.markdown)


@pytest.fixture
def current_sample() -> None:
    """The sample game's observations fixture, checked current (require_current_sample_fixture)."""
    require_current_sample_fixture()


def test_sample_game_late_vote_is_found_confirmed_and_exported(data: Path, current_sample: None) -> None:
    """The issue's walk-through on the bundled game: opening shows day 1's vote with the late hand of seat 9
    for candidate 8 and its frame; one click confirms it; the export holds the corrected count."""
    at = app(GameSpec(str(SAMPLE_PROTOCOL), observations=str(SAMPLE_OBSERVATIONS)))
    renders(at)
    assert at.selectbox(key="vote_round").value.startswith("Day 1 · round 1")
    card = card_key(Finding.from_json({"kind": "late_vote", "day": 1, "round": 1, "candidate": 8, "seat": 9, "night": None}))
    assert any(m.value.startswith("**late vote — seat 9") for m in at.markdown)
    captions = [c for img in at.get("image") for c in img.captions]
    assert any("candidate 8" in c for c in captions), captions
    at.button(key=f"{card}_confirm").click().run()  # click 1
    renders(at)
    goto(at, "Exports")  # click 2
    at.button(key="save_exports").click().run()  # click 3 (or a download button)
    renders(at)
    corrected = json.loads((next((data / "exports").glob("sample_game-*")) / "sample_game.corrected.protocol.json").read_text())
    from review.game.protocol import validate

    assert not validate(corrected), validate(corrected)
    assert any(c.get("finding") == '["late_vote",1,1,8,9]' for c in corrected["x_review"]["changes"])


def test_each_page_renders_the_game(data: Path, game_folder: Path) -> None:
    at = app(spec_of(game_folder))
    renders(at)
    for page, header in (("Timeline & frames", "Timeline and frames"), ("Seat calibration", "Seat calibration"),
                         ("Exports", "Exports"), ("Open a game", "Open a game"), ("Vote audit", "Vote audit")):
        goto(at, page)
        renders(at)
        assert at.header[0].value == header
    # The game was remembered for "recent games".
    assert Store(data / "stopframe.sqlite").recent_games()[0].protocol_path.endswith("app_game.protocol.json")


def test_step_frames_and_jump_to_an_event(data: Path, game_folder: Path) -> None:
    at = goto(app(spec_of(game_folder)), "Timeline & frames")
    renders(at)
    at.toggle(key="frames_strip").set_value(False).run()  # stepping on the server: the judge's other choice
    at.button(key="frames_step_+1").click().run()
    at.button(key="frames_step_+5").click().run()
    assert at.session_state["frame"] == 6
    at.button(key="frames_step_+1 s").click().run()
    assert at.session_state["frame"] == 31
    at.button(key="frames_step_−1").click().run()
    assert at.session_state["frame"] == 30
    assert "frame 30 · 00:01.200" in at.get("image")[0].captions[0]
    # Picking the second candidate's vote from the list moves the viewer to its call (t = 14.0 s, frame 350).
    box = at.selectbox(key="timeline_event")
    label = next(o for o in box.options if "candidate 5" in o and "vote" in o)
    box.set_value(label).run()
    renders(at)
    assert at.session_state["frame"] == 350
    caption = at.get("image")[0].captions[0]
    assert "candidate 5" in caption and "t = +0.00 s" in caption


def test_stepping_in_the_browser_prefetches_the_frames_around(data: Path, game_folder: Path) -> None:
    at = goto(app(spec_of(game_folder)), "Timeline & frames")
    at.number_input(key="frame_box").set_value(100).run()
    renders(at)
    assert at.toggle(key="frames_strip").value  # the default: a step is a picture swap in the page
    assert not at.get("image") and "frames_step_+1" not in [b.key for b in at.button]  # no server round trip
    args = strip_args(at)
    assert args is not None  # a typed frame: the frames next to it come first, so it shows at once
    assert [f["i"] for f in args["frames"]] == [99, 100, 101] and args["at"] == 1 and args["radius"] == 12
    at.session_state["frames_strip_at"] = {"frame": 100, "seq": 0, "more": True}  # the strip asks for the rest
    at.run()
    args = strip_args(at)
    assert len(args["frames"]) == 25 and args["at"] == 12 and args["frames"][12]["i"] == 100  # frames 88..112
    assert all(f["u"].startswith("data:image/jpeg;base64,") for f in args["frames"])
    # The browser tells the server where it stopped: the server's viewer carries on from there.
    at.session_state["frames_strip_at"] = {"frame": 112, "seq": 1}
    at.run()
    renders(at)
    assert at.session_state["frame"] == 112
    args = strip_args(at)
    assert args["frames"][args["at"]]["i"] == 112 and args["frames"][-1]["i"] == 124  # recentred: more frames


def test_a_short_clip_is_written_for_playback(data: Path, game_folder: Path) -> None:
    at = goto(app(spec_of(game_folder)), "Timeline & frames")
    at.button(key="frames_step_+1 s").click().run()
    at.button(key="frames_clip").click().run()
    renders(at)
    clips = sorted((data / "clips").glob("*.mp4"))
    assert len(clips) == 2 and all(c.stat().st_size > 1000 for c in clips)
    assert len(at.get("video")) == 2


def test_confirm_a_late_vote_then_export_the_corrected_protocol(data: Path, game_folder: Path) -> None:
    at = app(spec_of(game_folder))
    renders(at)
    assert "finding" in at.selectbox(key="vote_round").value  # opens on the round with findings
    assert any(m.value.startswith("**late vote — seat 9") for m in at.markdown)
    at.button(key=f"{LATE_CARD}_confirm").click().run()
    renders(at)
    assert any("Saved" in s.value for s in at.success)
    game_id = "game:|||APP-FIXTURE-1"
    decisions = Store(data / "stopframe.sqlite").decisions(game_id)
    assert [(k, d.status, d.who) for k, d in decisions.items()] == [('["late_vote",1,1,3,9]', "confirmed", "Chief Judge")]
    # From the finding straight to its frame in the viewer.
    at.button(key=f"{LATE_CARD}_go").click().run()
    renders(at)
    assert at.session_state["view"] == "Timeline & frames" and at.header[0].value == "Timeline and frames"
    assert at.session_state["frame"] in (287, 288)  # the late hand lands at 11.5 s, with «Стоп»
    assert "candidate 3 · t = +1.4" in viewer_caption(at) or "t = +1.52" in viewer_caption(at)
    goto(at, "Exports")
    renders(at)
    # Here the late hand would turn the vote into a tie the game as played never had (rfm 7.1.2.3: an appeal's
    # matter): the page says so before any download, and saving writes nothing.
    assert any("The late vote of seat 9 on day 1, the vote on candidate 3 (rfm 4.4.7) cannot be applied" in shown(e.value)
               for e in at.error)
    at.button(key="save_exports").click().run()
    assert any(shown(e.value).startswith("Not saved: The late vote of seat 9") for e in at.error)
    assert not list((data / "exports").glob("app_game-*/*"))
    goto(at, "Vote audit")
    at.text_input(key=f"{LATE_CARD}_reason").set_value("the tie is for an appeal")
    at.button(key=f"{LATE_CARD}_reject").click().run()
    goto(at, "Exports")
    at.button(key="save_exports").click().run()
    renders(at)
    folder = next((data / "exports").glob("app_game-*"))
    corrected = json.loads((folder / "app_game.corrected.protocol.json").read_text())
    original = json.loads((game_folder / "app_game.protocol.json").read_text())
    from review.game.protocol import validate

    assert not validate(corrected), validate(corrected)
    assert original["events"][6]["count"] == 3  # the original file is untouched
    csv_text = (folder / "app_game.findings.csv").read_text(encoding="utf-8-sig")
    assert "rejected" in csv_text and "\n=" not in csv_text and ",=" not in csv_text
    html = (folder / "app_game.review.html").read_text()
    assert "data:image/jpeg;base64," in html and "<script" not in html


def test_second_judge_gets_a_clear_conflict_message(data: Path, game_folder: Path) -> None:
    first, second = app(spec_of(game_folder), "Anna"), app(spec_of(game_folder), "Boris")
    next(b for b in first.button if b.key and b.key.endswith("_confirm")).click().run()
    # Boris still sees the finding as open and rejects it: refused, with who decided first.
    reject = next(b for b in second.button if b.key and b.key.endswith("_reject"))
    second.text_input(key=reject.key.replace("_reject", "_reason")).set_value("not late on video")
    reject.click().run()
    renders(second)
    assert any("Anna already decided" in e.value for e in second.error), [e.value for e in second.error]
    decisions = Store(data / "stopframe.sqlite").decisions("game:|||APP-FIXTURE-1")
    assert {d.status for d in decisions.values()} == {"confirmed"}


def test_a_decision_needs_the_judges_name(data: Path, game_folder: Path) -> None:
    at = app(spec_of(game_folder), judge="")
    buttons = [b for b in at.button if b.key and b.key.endswith("_confirm")]
    assert buttons, "the app game's fixture gave no finding to decide: tests/fixtures/app/make_game.py plants a late vote"
    buttons[0].click().run()
    assert any("Enter your name" in e.value for e in at.error)


def test_bad_protocol_is_one_sentence_and_the_app_keeps_running(data: Path, tmp_path: Path) -> None:
    bad = tmp_path / "broken.protocol.json"
    bad.write_text('{"format": "stopframe-protocol/1", "players": [')
    at = app(GameSpec(str(bad)))
    assert not at.exception
    assert any("broken.protocol.json" in shown(e.value) and "not valid JSON" in shown(e.value) for e in at.error)
    assert at.header[0].value == "Open a game"  # the judge can open another game


def test_calibration_saves_a_seat_map_the_game_then_uses(data: Path, game_folder: Path) -> None:
    at = goto(app(spec_of(game_folder)), "Seat calibration")
    renders(at)
    # The game has its own seat map: calibration starts from it, not from the default ellipse.
    assert at.radio(key="calib_start").value == "the game's seat map"
    at.radio(key="calib_start").set_value("an ellipse of ten seats").run()
    at.number_input(key="calib_cx").set_value(300.0).run()
    at.button(key="calib_save").click().run()
    renders(at)
    saved = data / "seatmaps" / f"{own_name(spec_of(game_folder).protocol)}.seats.json"
    assert saved.name.startswith("app_game-")
    seats = json.loads(saved.read_text())
    assert seats["format"] == "stopframe-seats/1" and seats["frame_size"] == [640, 360] and len(seats["seats"]) == 10
    assert at.session_state["game_spec"].seats == str(saved)
    # Saving again would replace that map: refused until the judge ticks the replacement.
    before = saved.read_text()
    at.number_input(key="calib_cx").set_value(280.0).run()
    at.button(key="calib_save").click().run()
    assert any("already holds a seat map" in e.value for e in at.error) and saved.read_text() == before
    at.checkbox(key="calib_replace").check().run()
    at.button(key="calib_save").click().run()
    renders(at)
    assert saved.read_text() != before


def test_two_games_of_one_file_name_save_their_seat_maps_apart(data: Path, game_folder: Path, tmp_path: Path) -> None:
    """game1.protocol.json of two tournaments: the second game's map goes to a file of its own, not over the
    first's (and not refused as if the judge were replacing a map)."""
    import shutil

    other = shutil.copytree(game_folder, tmp_path / "another tournament")
    saved = []
    for folder in (game_folder, other):
        at = goto(app(spec_of(folder)), "Seat calibration")
        at.radio(key="calib_start").set_value("an ellipse of ten seats").run()
        at.button(key="calib_save").click().run()
        renders(at)
        assert not at.error
        saved.append(Path(at.session_state["game_spec"].seats))
    assert saved[0] != saved[1] and all(p.is_relative_to(data / "seatmaps") and p.is_file() for p in saved)


def test_a_game_of_ones_own_has_no_sample_note(data: Path, game_folder: Path) -> None:
    at = app(spec_of(game_folder))
    renders(at)
    assert not [b for b in at.button if b.key in ("sample_to_sheet", "sample_to_open")]
    assert not [i for i in at.info if "sample game" in i.value]


def test_upload_is_kept_in_the_data_folder(data: Path) -> None:
    from stopframe_app.views.open_game import save_upload

    path = save_upload("../../evil name.json", b"{}")
    assert path.is_relative_to(data / "uploads") and path.name == "evil_name.json"
    with pytest.raises(ValueError, match="upload only protocols"):
        save_upload("big.json", b" " * (21 * 1024 * 1024))


def test_recent_games_name_an_upload_as_the_judge_chose_it(data: Path, game_folder: Path) -> None:
    """An uploaded protocol is kept under the data folder's uploads/<hash>/: the list of recent games names it
    by its own name, never by that place the judge never saw; a protocol opened from its folder keeps its path."""
    from stopframe_app.views.open_game import save_upload

    kept = save_upload("tour3.protocol.json", (game_folder / "app_game.protocol.json").read_bytes())
    Store(data / "stopframe.sqlite").remember_game("uploaded-game", "Tour 3", protocol_path=str(kept), video_path=None,
                                                  seats_path=None, profile=None)
    at = goto(app(spec_of(game_folder)), "Open a game")
    listed = " ".join(m.value for m in at.markdown)
    assert "tour3.protocol.json (uploaded)" in shown(listed) and "uploads" not in listed
    assert str(game_folder / "app_game.protocol.json") in shown(listed)


def test_finding_keys_match_between_app_and_store() -> None:
    f = Finding.from_json({"kind": "late_vote", "day": 1, "round": 1, "candidate": 5, "seat": 9, "night": None})
    assert finding_key(f) == '["late_vote",1,1,5,9]'


def test_switching_the_rule_profile_audits_again(data: Path, game_folder: Path) -> None:
    at = app(spec_of(game_folder))
    assert any("rfm" in m.value for m in at.markdown if m.value.startswith("- clause"))
    at.sidebar.selectbox(key="profile_pick").set_value("mafclub").run()
    renders(at)
    assert at.session_state["game_spec"].profile == "mafclub"
    clauses = [m.value for m in at.markdown if m.value.startswith("- clause")]
    assert clauses and all("rfm" not in c for c in clauses), clauses


def test_timeline_places_votes_hands_and_findings_on_seat_rows() -> None:
    from stopframe_app.timeline import timeline_chart, timeline_rows

    data = json.loads((REPO / "tests" / "fixtures" / "app" / "app_game.protocol.json").read_text())
    windows = vote_windows(data)
    rows = timeline_rows(data, windows, [{"seat": 9, "on": 11.5, "off": 12.8, "pose": "fist"}],
                         [Finding.from_json({"kind": "late_vote", "seat": 9, "t": 11.5, "clause": "rfm 4.4.7"})])
    vote5 = rows[(rows["kind"] == "vote") & (rows["row"] == "seat 5")].iloc[0]
    assert (vote5["start"], vote5["end"], vote5["jump"]) == (14.0, 16.5, 14.0)
    assert set(rows[rows["row"] == "seat 9"]["kind"]) == {"hand", "finding"}
    spec = timeline_chart(rows, now=12.0).to_dict()
    assert "pick" in json.dumps(spec)  # the click selection that moves the frame viewer


def test_analysis_shows_progress_and_is_kept_for_the_next_run(data: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.observe

    folder = make_game_mod.make_game(tmp_path / "fresh", with_observations=False).parent
    fixture = json.loads((REPO / "tests" / "fixtures" / "app" / "app_game.observations.json").read_text())
    calls: list[tuple[float, float]] = []

    def fake_observe(video, seats, windows=None, *, progress=None, **kw):  # MediaPipe is not run in CI
        calls.append(windows[0])
        for done in range(0, 11, 5):
            progress(done, 10)
        return Observations.from_json(fixture)

    monkeypatch.setattr(vision.observe, "observe", fake_observe)
    at = app(spec_of(folder))
    renders(at)
    assert any("not been analysed" in i.value for i in at.info)
    at.button(key="analyse").click().run()
    renders(at)
    assert len(calls) == 1 and calls[0][0] < 10.0 < calls[0][1]  # only the vote windows are analysed
    assert at.session_state["game_spec"].observations.startswith(str(data / "observations"))
    assert any(m.value.startswith("**late vote") for m in at.markdown)
    # A new session on the same files finds the cached analysis without running it again.
    again = app(spec_of(folder))
    assert any(m.value.startswith("**late vote") for m in again.markdown) and len(calls) == 1


def test_edit_records_only_the_changed_fields(data: Path, game_folder: Path) -> None:
    at = app(spec_of(game_folder))
    key = LATE_CARD
    at.selectbox(key=f"{key}_ctype").set_value("fine").run()
    at.number_input(key=f"{key}_points").set_value(-0.2).run()
    at.text_input(key=f"{key}_reason").set_value("late by two frames: small fine as well").run()
    at.button(key=f"{key}_edit").click().run()
    renders(at)
    d = next(iter(Store(data / "stopframe.sqlite").decisions("game:|||APP-FIXTURE-1").values()))
    assert d.status == "edited" and d.edited == {"consequence": {"type": "fine", "points": -0.2}}
    assert d.reason == "late by two frames: small fine as well"


def test_a_night_frame_is_not_labelled_relative_to_an_earlier_vote() -> None:
    from contract.jsonio import read_json
    from review.game.timeline import vote_windows
    from stopframe_app.viewer import window_at

    windows = vote_windows(read_json(SAMPLE_PROTOCOL))
    assert window_at(windows, 18.0).candidate == 8  # during day 1's vote for 8
    assert window_at(windows, 30.0) is None  # night 1's shooting


def test_a_seat_map_saved_where_no_file_can_be_written_says_why_in_words(data: Path, game_folder: Path,
                                                                         tmp_path: Path) -> None:
    """A file where the path needs a folder: the page names the place and the reason, never `[Errno 20]` and
    Python's quoting of the path."""
    notes = tmp_path / "notes.txt"
    notes.write_text("the judge's notes")
    at = goto(app(spec_of(game_folder)), "Seat calibration")
    renders(at)
    box = next(t for t in at.text_input if t.label == "Save the seat map as")
    box.set_value(str(notes / "game.seats.json")).run()
    at.button(key="calib_save").click().run()
    said = " ".join(shown(e.value) for e in at.error)
    assert "game.seats.json" in said and "Not a directory" in said
    assert "Errno" not in said and "'" not in said
    assert notes.read_text() == "the judge's notes"
