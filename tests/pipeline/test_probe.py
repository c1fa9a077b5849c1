"""A tournament opens each game's video in a child process with a time limit (pipeline.probe): one damaged or
endless file costs its own game, never the run."""

from __future__ import annotations

import shutil
from pathlib import Path

from pipeline.probe import probe_video, probe_videos
from pipeline.tournament import Settings, run_tournament

SAMPLE = Path(__file__).parents[2] / "sample_videos" / "game" / "sample_game.mp4"
DAY = Path(__file__).parents[1] / "fixtures" / "audit" / "day_vote"


def test_a_sound_video_opens(tmp_path):
    assert probe_video(SAMPLE) is None


def test_a_video_that_does_not_open_in_time_is_left_out_with_one_sentence():
    said = probe_video(SAMPLE, seconds=0.01)  # the child cannot even start: it is killed at the limit
    assert said is not None and said.startswith(str(SAMPLE)) and "did not open within 0.01 s" in said
    assert "\n" not in said and "Traceback" not in said


def test_bytes_that_are_no_video_are_named(tmp_path):
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"\x13\x37" * 5000)
    said = probe_video(junk)
    assert said is not None and str(junk) in said and "Traceback" not in said
    assert probe_videos({"sound": SAMPLE, "junk": junk}, jobs=2) == {"junk": said}


def test_a_tournament_fails_only_the_game_whose_video_is_bad(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(f"{DAY}.protocol.json", folder / "g.protocol.json")
    shutil.copy(f"{DAY}.seats.json", folder / "g.seats.json")
    (folder / "g.mp4").write_bytes(b"\x13\x37" * 5000)
    said: list[str] = []
    result = run_tournament(folder, tmp_path / "out", Settings(), jobs=1, say=said.append)
    run = next(iter(result.games))
    assert run.status == "failed" and "g.mp4" in (run.error or "")
    assert (tmp_path / "out" / "tournament.html").is_file()
