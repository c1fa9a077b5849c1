"""`stopframe live`: a filmed game replayed at the table prints each vote's count before the judge's, and leaves a
folder that opens as any other game; a folder that holds files is never written into."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from review.game.protocol import format_problems
from tests.clirun import run_cli
from vision.video import open_video

CLIPS = Path(__file__).resolve().parents[2] / "sample_videos" / "clips"
CLIP = CLIPS / "day4_final_vote"  # 16 s: day 4's two votes, timed; days 1-3's votes held before it, untimed


def test_a_replayed_clip_prints_each_count_and_leaves_a_game_to_audit(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    folder = tmp_path / "game"
    code, out, err = run_cli(capsys, "--lang", "en", "live", CLIP.with_suffix(".mp4"), "--protocol",
                             CLIP.with_suffix(".protocol.json"), "--seats", CLIP.with_suffix(".seats.json"),
                             "--record", folder, "--speed", "8")
    assert code == 0, err
    lines = [line for line in out.splitlines() if line]
    # the last line per vote is the count over its whole stretch: candidate 7 got 3 hands, candidate 1 one
    last = {line.split(": video")[0]: line for line in lines}
    assert set(last) == {"day 4, round 1: candidate 7", "day 4, round 1: candidate 1"}
    assert "video 3" in last["day 4, round 1: candidate 7"] and last["day 4, round 1: candidate 7"].endswith("judge 3 ✓")
    assert "video 1" in last["day 4, round 1: candidate 1"] and last["day 4, round 1: candidate 1"].endswith("judge 1 ✓")
    made = json.loads((folder / "day4_final_vote.protocol.json").read_text(encoding="utf-8"))
    assert not format_problems(made)
    given = json.loads(CLIP.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    times = ("t", "cutoff", "announced", "count")
    assert [[e.get(k) for k in times] for e in made["events"] if e["type"] == "vote"] == [
        [e.get(k) for k in times] for e in given["events"] if e["type"] == "vote"]
    assert made["video"]["path"] == "day4_final_vote.mp4"
    with open_video(folder / "day4_final_vote.mp4") as recording, open_video(CLIP.with_suffix(".mp4")) as clip:
        assert recording.meta.frame_count == clip.meta.frame_count
    assert (folder / "day4_final_vote.seats.json").read_bytes() == CLIP.with_suffix(".seats.json").read_bytes()
    assert "stopframe audit" in err and str(folder / "day4_final_vote.mp4") in err


def test_a_folder_holding_files_is_refused_and_left_as_it_was(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "notes.txt").write_text("the judge's own notes", encoding="utf-8")
    code, out, err = run_cli(capsys, "--lang", "en", "live", CLIP.with_suffix(".mp4"), "--protocol",
                             CLIP.with_suffix(".protocol.json"), "--seats", CLIP.with_suffix(".seats.json"),
                             "--record", folder)
    assert code == 2
    assert f"{folder}: a live game is recorded into a new or empty folder" in err
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "the judge's own notes"


def test_a_source_that_cannot_be_opened_is_one_sentence(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run_cli(capsys, "--lang", "en", "live", tmp_path / "no_such_camera.mp4", "--protocol",
                             CLIP.with_suffix(".protocol.json"), "--seats", CLIP.with_suffix(".seats.json"),
                             "--record", tmp_path / "game")
    assert code == 2
    assert "no_such_camera.mp4" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "game").exists()


CRASHING_GAME = """
import json, os, sys, time
from pathlib import Path
from pipeline.live_game import LiveGame
clip = Path(sys.argv[1])
protocol = json.loads(clip.with_suffix(".protocol.json").read_text(encoding="utf-8"))
game = LiveGame.begin(str(clip.with_suffix(".mp4")), protocol=protocol, seats=clip.with_suffix(".seats.json"),
                      folder=Path(sys.argv[2]), name="table2", speed=2.0)
while game.table.now() < 5.5:  # day 4's first vote («Стоп» at 4.8 s) is given, then the computer stops
    time.sleep(0.02)
os._exit(1)
"""


def test_a_game_cut_short_is_joined_afterwards_with_its_cues(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    folder = tmp_path / "table2"
    repo = Path(__file__).resolve().parents[2]
    crashed = subprocess.run([sys.executable, "-c", CRASHING_GAME, str(CLIP), str(folder)], cwd=repo, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(repo)}, capture_output=True, text=True)
    assert crashed.returncode == 1, crashed.stderr
    assert not (folder / "table2.mp4").exists()
    code, out, err = run_cli(capsys, "--lang", "en", "live", "--finish", folder)
    assert code == 0, err
    with open_video(folder / "table2.mp4") as recording:
        assert 3.0 <= recording.meta.duration <= 6.5  # every whole segment up to the stop: at most one lost
    saved = json.loads((folder / "table2.protocol.json").read_text(encoding="utf-8"))
    first = next(e for e in saved["events"] if e["type"] == "vote" and "t" in e)
    assert (first["candidate"], first["t"], first["cutoff"]) == (7, 3.15, 4.8)
    assert "stopframe audit" in err
    code, out, err = run_cli(capsys, "--lang", "en", "live", "--finish", folder)
    assert code == 2 and "no live game waiting to be finished" in err  # the joined video is never written over


def test_the_judge_s_keys_enter_the_whole_day_and_night(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    """Typed at the table, one cue a line: nominations (1>9), the candidate, «Стоп» (Enter), the count (=4), the
    night (n), its shot (x10), a foul (f5), a removal (r7); a line that is no cue is said and changes nothing."""
    import io
    import types

    from contract.seats import load_seat_map
    from pipeline.live import LiveTable
    from review.game.profiles import get_profile
    from stopframe_app.game import SAMPLE_PROTOCOL
    from stopframe_cli import live as live_cli

    protocol = json.loads(SAMPLE_PROTOCOL.read_text(encoding="utf-8"))
    table = LiveTable({**protocol, "events": protocol["events"][:2]}, load_seat_map(
        SAMPLE_PROTOCOL.with_name("sample_game.seats.json")), get_profile("rfm"), fps=25.0)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1>9\n2 > 3\n9\n\n=4\nzz\nn\nx10\nf5\nr7\nq\n"))
    live_cli._keys(types.SimpleNamespace(table=table))
    events = table.protocol()["events"][2:]
    assert [(e["type"], e.get("by"), e.get("target")) for e in events[:2]] == [("nomination", 1, 9),
                                                                              ("nomination", 2, 3)]
    vote = next(e for e in events if e["type"] == "vote")
    assert (vote["candidate"], vote["count"]) == (9, 4) and "cutoff" in vote
    night = [e for e in events if e["type"] in ("shooting", "foul", "removal")]
    assert [(e["type"], e.get("target", e.get("seat"))) for e in night] == [("shooting", 10), ("foul", 5),
                                                                           ("removal", 7)]
    assert table.state().ended == ""  # q: the game is over
    assert "«zz» is no cue" in capsys.readouterr().err


def test_without_a_seat_map_the_game_is_recorded_and_its_seats_found_at_the_end(capsys: pytest.CaptureFixture[str],
                                                                               tmp_path: Path) -> None:
    folder = tmp_path / "game"
    code, out, err = run_cli(capsys, "--lang", "en", "live", CLIP.with_suffix(".mp4"), "--protocol",
                             CLIP.with_suffix(".protocol.json"), "--record", folder, "--speed", "8")
    assert code == 0, err
    assert "no seat map" in err and not out.strip()  # nothing counted at the table
    found = json.loads((folder / "day4_final_vote.seats.json").read_text(encoding="utf-8"))
    assert found["format"] == "stopframe-seats/1" and found["x_found"]["mode"] == "votes"
    assert "stopframe audit" in err
