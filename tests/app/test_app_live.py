"""За столом: the judge starts a game from the tablet, taps the candidate, «Стоп» and the count, sees each seat's hand
and the video's count, finds the game again after a reload, and ends it into the review pages.

The camera is played by a video file: the sample game's, handed to the table frame by frame by a source that goes
no further than the moment the test lets it reach, so each tap lands at the moment of the game the test means."""

from __future__ import annotations

import json
import re
import shutil
import sys
import threading
import time
import types
from pathlib import Path

import pytest
from appcheck import goto, renders, shown
from streamlit.testing.v1 import AppTest

from pipeline.live_words import seat_state_words
from stopframe_app.game import SAMPLE_PROTOCOL
from stopframe_app.views import live
from vision.audio import NoSound, read_audio
from vision.video import open_video

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SAMPLE_VIDEO = SAMPLE_PROTOCOL.with_name("sample_game.mp4")
SAMPLE_SEATS = SAMPLE_PROTOCOL.with_name("sample_game.seats.json")
SEGMENT = "segment.mp4"


class FileCamera:
    """A live source made of a video file: its frames at up to twice real speed, never past `until` (seconds)."""

    def __init__(self, source: str, folder: Path, speed: float | None = 1.0) -> None:
        self.video = open_video(source)
        self.meta = self.video.meta
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, folder / SEGMENT)  # what a recording of the whole file would hold
        self.until = 0.0
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, on_frame, on_end, on_sound=None) -> None:
        try:
            sound = read_audio(self.video.path) if on_sound is not None else None
        except NoSound:  # a camera without a microphone
            sound = None

        def play() -> None:
            began, heard = time.monotonic(), 0.0
            for picture in self.video.iter_pictures(0.0):
                while not self._closed.is_set() and (picture.t > self.until or picture.t > 2 * (time.monotonic() - began)):
                    time.sleep(0.01)
                if self._closed.is_set():
                    return
                while sound is not None and heard < picture.t:  # the sound up to the frame, as a camera sends it
                    part = sound.segment(heard, heard + 0.1)
                    on_sound(part.start, part.samples)
                    heard += 0.1
                on_frame(picture)
            on_end(None)

        self._thread = threading.Thread(target=play, daemon=True)
        self._thread.start()

    def silent_for(self) -> float:
        return 0.0  # held on purpose by the test, never silent

    def close(self) -> None:
        self._closed.set()
        if self._thread is not None:
            self._thread.join()
        self.video.close()


def join_recording(folder: Path, video: Path) -> None:
    shutil.copyfile(folder / SEGMENT, video)


@pytest.fixture
def games():
    """Every game still under way is ended after the test (the page keeps them in the server process)."""
    yield
    for entry in list(live.GAMES.values()):
        entry.game.source.close()
        entry.game.table.close()
    live.GAMES.clear()
    live.OVER.clear()


@pytest.fixture
def camera(monkeypatch, games):
    """The live source played by a file the test holds at the moment it means."""
    fake = types.ModuleType("vision.live_source")
    fake.LiveSource, fake.join_recording = FileCamera, join_recording
    monkeypatch.setitem(sys.modules, "vision.live_source", fake)


def _protocol_before_the_votes(tmp_path: Path) -> Path:
    """The sample game as the judge knows it before the first vote: its players, day 1 and its three nominations."""
    data = json.loads(SAMPLE_PROTOCOL.read_text(encoding="utf-8"))
    data["events"] = data["events"][:5]
    path = tmp_path / "table1.protocol.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["judge"] = "Судья"
    return goto(at.run(), "Live table")


def _start(at: AppTest, protocol: Path, source: Path, folder: Path) -> AppTest:
    at.radio(key="live_from").set_value("file").run()
    at.text_input(key="live_protocol").input(str(protocol))
    at.text_input(key="live_source").input(str(source))
    at.text_input(key="live_seats").input(str(SAMPLE_SEATS))
    at.text_input(key="live_folder").input(str(folder))
    return at.button(key="live_start").click().run()


def _play_to(entry: live.Running, t: float) -> None:
    """Let the camera reach video time `t` and wait for its frame to come."""
    entry.game.source.until = t
    deadline = time.monotonic() + 30
    while entry.game.table.now() < t - 0.05 and time.monotonic() < deadline:
        time.sleep(0.02)


def _cells(at: AppTest) -> dict[int, str]:
    """The ten seat cells of the vote under way: seat -> the words in its cell."""
    body = next(h.proto.body for h in at.get("html") if "sf-seats" in h.proto.body)
    return {int(seat): word for seat, word in re.findall(r"<b>(\d+)</b><span>([^<]*)</span>", body)}


def test_a_vote_tapped_at_the_table_is_counted_saved_and_opened_for_review(camera, tmp_path) -> None:
    folder = tmp_path / "table1"
    at = _start(_page(), _protocol_before_the_votes(tmp_path), SAMPLE_VIDEO, folder)
    renders(at)
    entry = live.GAMES[str(folder)]
    # the day's nominated seats first, then the other living seats
    named = [b.label for b in at.button if b.key and b.key.startswith("live_name_")]
    assert named[:3] == ["6", "3", "8"] and sorted(map(int, named)) == list(range(1, 11))

    _play_to(entry, 2.0)
    at.button(key="live_name_3").click().run()  # a slip of the finger: taken back before «Стоп»
    at.button(key="live_take_back").click().run()
    assert not [b for b in at.button if b.key == "live_stop"]
    _play_to(entry, 3.15)
    at.button(key="live_name_6").click().run()
    assert [b.key for b in at.button if b.key == "live_stop"]
    _play_to(entry, 5.2)  # the judge said «Стоп» at 4.7 s and taps half a second later (rfm 4.4.7)
    at.button(key="live_stop").click().run()
    assert [f"live_count_{n}" for n in range(11)] == [b.key for b in at.button if b.key.startswith("live_count_")]
    _play_to(entry, 5.55)
    at.button(key="live_count_5").click().run()

    # the protocol in the game's folder holds the vote with the moments of the taps, «Стоп» where it was said
    saved = json.loads((folder / "table1.protocol.json").read_text(encoding="utf-8"))
    vote = next(e for e in saved["events"] if e["type"] == "vote")
    assert vote["candidate"] == 6 and vote["count"] == 5
    assert 3.0 <= vote["t"] <= 3.15 and abs(vote["cutoff"] - 4.7) <= 0.04 and 5.1 <= vote["announced"] <= 5.55
    assert vote["x_stop_heard"] is True and 5.1 <= vote["x_stop_tapped"] <= 5.3
    assert (folder / "table1.seats.json").is_file()

    _play_to(entry, 12.0)
    deadline = time.monotonic() + 60
    while entry.game.table.state().votes[0].video_count is None and time.monotonic() < deadline:
        time.sleep(0.1)
    counted = entry.game.table.state().votes[0]
    at.run()
    renders(at)
    assert counted.video_count is not None
    assert counted.label in [s.value for s in at.subheader]
    cells = _cells(at)
    assert sorted(cells) == list(range(1, 11))
    assert all(cells[seat] == seat_state_words(kind) for seat, kind in counted.seats.items())
    verdict = " ".join(m.value for m in at.markdown)
    assert f"Video: {counted.video_count}" in verdict and "Judge: 5" in verdict
    assert ("✓ matches" if counted.matches else "✗ does not match") in verdict
    assert any(re.match(r"«Stop» heard 0\\?\.[4-6] s before the tap", c.value) for c in at.caption), [c.value for c in at.caption]

    # the tablet reloads the page's address (or another tablet opens it): the game under way is there
    again = AppTest.from_file(APP, default_timeout=120)
    again.query_params["page"] = "Live table"
    again.run()
    renders(again)
    assert counted.label in [s.value for s in again.subheader]
    assert again.button(key="live_name_3")

    at.button(key="live_finish").click().run()
    at.button(key="live_finish_yes").click().run()
    renders(at)
    assert not live.GAMES and str(folder) in live.OVER  # the recording is over and the game let go
    spec = at.session_state["game_spec"]
    assert Path(spec.video) == folder / "table1.mp4" and (folder / "table1.mp4").is_file()
    assert Path(spec.protocol) == folder / "table1.protocol.json" and Path(spec.seats) == folder / "table1.seats.json"
    assert spec.observations  # the recording's vote window analysed, as for any game opened
    assert any(str(folder / "table1.mp4") in m.value.replace("\\", "") for m in at.markdown)
    audit = goto(at, "Vote audit")
    renders(audit)


def test_a_folder_holding_files_or_a_missing_source_is_refused_and_nothing_starts(games, tmp_path) -> None:
    protocol = _protocol_before_the_votes(tmp_path)
    used = tmp_path / "used"
    used.mkdir()
    (used / "notes.txt").write_text("kept", encoding="utf-8")
    at = _start(_page(), protocol, SAMPLE_VIDEO, used)
    assert any("holds files already" in e.value for e in at.error)
    assert (used / "notes.txt").read_text(encoding="utf-8") == "kept" and len(list(used.iterdir())) == 1
    assert not live.GAMES

    at = _start(at, protocol, tmp_path / "no_such_video.mp4", tmp_path / "fresh")
    assert any("no_such_video.mp4" in e.value.replace("\\", "") for e in at.error)
    assert not live.GAMES
    assert [b.key for b in at.button if b.key == "live_start"]


def test_the_sample_game_replayed_through_the_live_source_shows_its_cues_coming(games, tmp_path) -> None:
    """The open game (the bundled sample) played from its video at real speed: its protocol's votes come back as
    the judge's cues by themselves, the first vote is counted, and the finished game opens for review."""
    folder = tmp_path / "replay"
    at = _page()
    at.text_input(key="live_source").input(str(SAMPLE_VIDEO))
    at.text_input(key="live_folder").input(str(folder))
    at.button(key="live_start").click().run()
    renders(at)
    game = live.GAMES[str(folder)].game
    assert game.cues is not None
    deadline = time.monotonic() + 90
    while not any(v.video_count is not None for v in game.table.state().votes) and time.monotonic() < deadline:
        time.sleep(0.1)
    at.run()
    renders(at)
    assert any("replayed" in i.value for i in at.info)
    assert not [b for b in at.button if b.key and b.key.startswith(("live_name_", "live_stop", "live_count_"))]
    said = [s.value for s in at.subheader] + [shown(m.value) for m in at.markdown]
    assert any(line.startswith("day 1, round 1: candidate 6") for line in said)
    at.button(key="live_finish").click().run()
    at.button(key="live_finish_yes").click().run()
    renders(at)
    assert Path(at.session_state["game_spec"].video) == folder / "sample_game.mp4"
    assert (folder / "sample_game.mp4").is_file()


def test_a_game_cut_short_is_offered_and_opens_once_its_recording_is_joined(games, tmp_path) -> None:
    """The program stopped during a game: the page lists the folder, joins its recording on a tap and opens the game
    with the cues saved up to then."""
    from contract.data_folder import data_dir
    from vision.live_source import LiveSource

    folder = data_dir() / "live" / "table3-20261207-190000"
    clip = Path(__file__).resolve().parents[2] / "sample_videos" / "clips" / "day4_final_vote"
    ended = threading.Event()
    with LiveSource(str(clip.with_suffix(".mp4")), folder / "recording", speed=None) as source:
        source.start(lambda picture: None, lambda why: ended.set())
        assert ended.wait(60)
    protocol = json.loads(clip.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    protocol["video"] = {"path": "table3.mp4", "offset_s": 0.0}
    (folder / "table3.protocol.json").write_text(json.dumps(protocol, ensure_ascii=False), encoding="utf-8")
    shutil.copyfile(clip.with_suffix(".seats.json"), folder / "table3.seats.json")

    at = _page()
    renders(at)
    assert "Games cut short" in [h.value for h in at.subheader]
    at.button(key=f"live_join_{folder.name}").click().run()
    renders(at)
    assert (folder / "table3.mp4").is_file()
    assert any("The game is over" in s.value for s in at.success)
    assert any("It is open in the review pages" in i.value for i in at.info)
    assert not [b for b in at.button if (b.key or "").startswith("live_join_")]


def _saved(folder: Path) -> list[dict]:
    return json.loads((folder / "table1.protocol.json").read_text(encoding="utf-8"))["events"]


def _named(at: AppTest) -> list[int]:
    return [int(b.key.removeprefix("live_name_")) for b in at.button if (b.key or "").startswith("live_name_")]


def test_the_night_s_shooting_tapped_at_the_table_is_saved_and_the_seat_shot_leaves(camera, tmp_path) -> None:
    """rfm 4.5.4: the seat the mafia shot leaves the table, a miss removes nobody. «Ночь 1» and the seat shot are
    tapped; the protocol in the game's folder holds the night and its shooting at the moments of the taps, and the
    next day's candidates are the seats still at the table."""
    folder = tmp_path / "table1"
    at = _start(_page(), _protocol_before_the_votes(tmp_path), SAMPLE_VIDEO, folder)
    entry = live.GAMES[str(folder)]
    assert not [b for b in at.button if (b.key or "").startswith("live_shoot_")]
    _play_to(entry, 22.0)
    at.button(key="live_night").click().run()
    renders(at)
    assert "Night 1: whom did the mafia shoot?" in [m.value for m in at.markdown]
    assert not _named(at)  # the night waits for its shooting: no candidate is named now
    _play_to(entry, 26.2)
    at.button(key="live_shoot_10").click().run()
    renders(at)
    night, shooting, day = _saved(folder)[-3:]
    assert night["type"] == "phase" and night["phase"] == "night" and night["number"] == 1
    assert shooting["type"] == "shooting" and shooting["night"] == 1 and shooting["target"] == 10
    assert 21.95 <= night["t"] <= 22.0 < 26.15 <= shooting["t"] <= 26.2
    assert (day["phase"], day["number"]) == ("day", 2)
    assert "Day 2: tap the candidate the judge names." in [m.value for m in at.markdown]
    assert _named(at) == list(range(1, 10))

    at.button(key="live_night").click().run()  # night 2: a miss
    assert [b.key for b in at.button if (b.key or "").startswith("live_shoot_")] == [
        f"live_shoot_{s}" for s in range(1, 10)]
    at.button(key="live_miss").click().run()
    renders(at)
    assert [e for e in _saved(folder) if e["type"] == "shooting"][-1]["target"] is None
    assert "Day 3: tap the candidate the judge names." in [m.value for m in at.markdown]
    assert _named(at) == list(range(1, 10))


def test_the_day_s_nominations_are_tapped_as_the_speeches_go_and_set_the_order_of_the_vote(camera, tmp_path) -> None:
    """rfm 4.4.4: the candidates are voted on in the order they were nominated. On day 2 seat 1 nominates 9 and
    seat 2 nominates 3 (two taps each, one taken back); the protocol holds both with their moments, and 9 and 3 are
    the first candidates offered. Once the vote begins, no nomination is offered."""
    folder = tmp_path / "table1"
    at = _start(_page(), _protocol_before_the_votes(tmp_path), SAMPLE_VIDEO, folder)
    entry = live.GAMES[str(folder)]
    _play_to(entry, 22.0)
    at.button(key="live_night").click().run()
    at.button(key="live_shoot_10").click().run()
    _play_to(entry, 30.0)
    at.button(key="live_by_4").click().run()
    at.button(key="live_by_cancel").click().run()  # the wrong speaker: taken back, nothing saved
    assert [e for e in _saved(folder) if e["type"] == "nomination" and e["day"] == 2] == []
    at.button(key="live_by_1").click().run()
    at.button(key="live_target_9").click().run()
    _play_to(entry, 34.0)
    at.button(key="live_by_2").click().run()
    assert not [b for b in at.button if b.key == "live_target_9"]  # nominated already
    at.button(key="live_target_3").click().run()
    renders(at)
    day2 = [e for e in _saved(folder) if e["type"] == "nomination" and e["day"] == 2]
    assert [(e["by"], e["target"]) for e in day2] == [(1, 9), (2, 3)]
    assert 29.95 <= day2[0]["t"] <= 30.0 and 33.95 <= day2[1]["t"] <= 34.0
    assert _named(at)[:2] == [9, 3] and sorted(_named(at)) == list(range(1, 10))
    at.button(key="live_name_9").click().run()
    at.button(key="live_stop").click().run()
    at.button(key="live_count_4").click().run()
    assert not [b for b in at.button if (b.key or "").startswith("live_by_")]


def test_the_camera_is_checked_with_its_seat_zones_before_the_game_and_looked_at_during_it(camera, tmp_path) -> None:
    """Before the game the judge sees the source's first picture with the seat zones on it (nothing is recorded and
    no folder is made); no source, or a seat map that cannot be read, is one sentence; during the game the newest
    picture is shown on request."""
    at = _page()
    at.button(key="live_check").click().run()
    assert [e.value for e in at.error if e.value.startswith("Give the source")], [e.value for e in at.error]
    at.text_input(key="live_source").input(str(SAMPLE_VIDEO))
    at.text_input(key="live_seats").input(str(tmp_path / "missing.seats.json"))
    at.button(key="live_check").click().run()
    assert len(at.error) == 1 and "missing\\.seats\\.json" in at.error[0].value and not at.get("image")
    at.text_input(key="live_seats").input("")  # empty: the open game's seat map (the sample's)
    at.button(key="live_check").click().run()
    renders(at)
    shown = at.get("image")
    assert len(shown) == 1 and "each player's hands should rest in his seat's zone" in shown[0].captions[0]
    assert not live.GAMES

    folder = tmp_path / "table1"
    at = _start(at, _protocol_before_the_votes(tmp_path), SAMPLE_VIDEO, folder)
    _play_to(live.GAMES[str(folder)], 1.0)
    at.button(key="live_look").click().run()
    renders(at)
    assert len(at.get("image")) == 1


def _started_without_seats(tmp_path: Path, source: Path) -> tuple[AppTest, Path]:
    """A game started from a protocol file and `source`, no seat map typed (the open game's is not offered)."""
    at = _page()
    at.radio(key="live_from").set_value("file").run()
    assert any("the seats are found from the hands of the first day's votes" in c.value for c in at.caption)
    at.text_input(key="live_protocol").input(str(_protocol_before_the_votes(tmp_path)))
    at.text_input(key="live_source").input(str(source))
    folder = tmp_path / "table1"
    at.text_input(key="live_folder").input(str(folder))
    return at.button(key="live_start").click().run(), folder


def test_a_game_without_a_seat_map_keeps_its_cues_and_counts_nothing_at_the_table(camera, tmp_path) -> None:
    """A judge with no seat map starts all the same: the vote is named, closed and its count tapped, with their
    times; the page says the hands are counted when the game ends, and shows no seat's hand it has not seen."""
    at, folder = _started_without_seats(tmp_path, SAMPLE_VIDEO)
    entry = live.GAMES[str(folder)]
    assert entry.game.table.seat_map is None and not (folder / "table1.seats.json").exists()
    _play_to(entry, 3.15)
    at.button(key="live_name_6").click().run()
    _play_to(entry, 5.2)
    at.button(key="live_stop").click().run()
    at.button(key="live_count_5").click().run()
    renders(at)
    assert any(i.value.startswith("No seat map yet: the seats are found from the hands") for i in at.info)
    assert not [h for h in at.get("html") if "<div class='sf-seats'>" in h.proto.body]
    vote = next(e for e in _saved(folder) if e["type"] == "vote")
    assert vote["count"] == 5 and abs(vote["cutoff"] - 4.7) <= 0.04  # «Стоп» still placed at the word heard


def test_a_source_without_sound_is_said_and_its_stop_is_the_tap(camera, tmp_path) -> None:
    """A camera without a microphone: the page says a tapped «Стоп» closes the vote at the tap, and it does."""
    from fixtures.vision.make_clips import write_clip

    at, folder = _started_without_seats(tmp_path, write_clip(tmp_path / "silent.mp4", 100))
    entry = live.GAMES[str(folder)]
    _play_to(entry, 2.5)
    at.button(key="live_name_6").click().run()
    _play_to(entry, 3.5)
    at.button(key="live_stop").click().run()
    renders(at)
    assert any(c.value.startswith("No sound comes from the source") for c in at.caption)
    vote = next(e for e in _saved(folder) if e["type"] == "vote")
    assert 3.4 <= vote["cutoff"] <= 3.5 and "x_stop_tapped" not in vote


def test_fouls_and_a_removal_are_tapped_at_the_table(camera, tmp_path) -> None:
    """rfm 5.6: a player's 4th foul removes him at once; the page says so and offers his removal. A foul is saved
    with its moment and counted on its seat's button; a removal takes two taps, and the seat removed is no longer
    a candidate."""
    folder = tmp_path / "table1"
    at = _start(_page(), _protocol_before_the_votes(tmp_path), SAMPLE_VIDEO, folder)
    entry = live.GAMES[str(folder)]
    _play_to(entry, 2.0)
    at.button(key="live_foul_3").click().run()
    renders(at)
    assert _saved(folder)[-1]["type"] == "foul" and _saved(folder)[-1]["seat"] == 3
    assert 1.95 <= _saved(folder)[-1]["t"] <= 2.0
    assert at.button(key="live_foul_3").label == "3 · 1 foul"

    at.button(key="live_remove_5").click().run()  # the first tap only asks
    assert 5 in _named(at) and _saved(folder)[-1]["type"] == "foul"
    assert any("Remove seat 5 from the game?" in w.value for w in at.warning)
    at.button(key="live_remove_no").click().run()
    assert 5 in _named(at) and not [b for b in at.button if b.key == "live_remove_yes"]
    at.button(key="live_remove_5").click().run()
    at.button(key="live_remove_yes").click().run()
    renders(at)
    assert {k: v for k, v in _saved(folder)[-1].items() if k != "t"} == {"type": "removal", "seat": 5}
    assert 5 not in _named(at) and not [b for b in at.button if b.key == "live_foul_5"]

    for _foul in range(3):
        at.button(key="live_foul_3").click().run()
    renders(at)
    assert any("Seat 3's foul no. 4 removes him from the game at once (rfm 5.6)" in shown(w.value) for w in at.warning)
    at.button(key="live_due_3").click().run()
    assert [e["type"] for e in _saved(folder)].count("removal") == 1
    at.button(key="live_remove_yes").click().run()
    renders(at)
    assert [e["seat"] for e in _saved(folder) if e["type"] == "removal"] == [5, 3]
    assert not [w for w in at.warning if "removes him" in w.value]
    assert _named(at) == [6, 8, 1, 2, 4, 7, 9, 10]


def test_the_finished_game_goes_on_to_a_sheet_on_the_protocol_page(games, data, tmp_path) -> None:
    """After the game the judge fills in roles, checks, best move and result on the sheet: one tap starts a sheet
    holding the game's votes and opens the page «Protocol» on it; a second tap finds the same sheet."""
    from pipeline.live_game import game_files
    from review.cases.sheet_store import SheetStore
    from review.cases.store import Store, default_db_path

    folder = tmp_path / "table1"
    folder.mkdir()
    files = game_files(folder, "table1")
    played = json.loads(SAMPLE_PROTOCOL.read_text(encoding="utf-8"))
    played["events"] = played["events"][:10]  # day 1 voted at the table
    files.protocol.write_text(json.dumps(played, ensure_ascii=False), encoding="utf-8")
    live.OVER[str(folder)] = live.Over("table1", folder, files)
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["judge"] = "Судья"
    at.session_state[live.FOLLOWED] = str(folder)
    at = goto(at.run(), "Live table")
    at.button(key="live_to_sheet").click().run()
    renders(at)
    assert at.session_state["view"] == "Protocol"
    assert "Protocol sheet" in [h.value for h in at.header]
    sheet_id = at.session_state["sheet_id"]
    sheets = SheetStore(Store(default_db_path()))
    votes = [(e["candidate"], e["count"]) for e in sheets.load(sheet_id).protocol()["events"] if e["type"] == "vote"]
    assert votes == [(6, 5), (3, 1), (8, 4)]
    assert [s.title for s in sheets.sheets()] == ["table1"]

    at = goto(at, "Live table")
    at.button(key="live_to_sheet").click().run()
    assert at.session_state["view"] == "Protocol" and at.session_state["sheet_id"] == sheet_id
    assert len(sheets.sheets()) == 1
