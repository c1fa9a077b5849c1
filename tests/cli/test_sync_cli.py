"""`stopframe sync A B` end to end: the JSON result (stopframe-sync/1), the readable lines, --out, and the exit
statuses when the sound cannot tell (1) or a file has no sound track (2)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sync_copies import camera_copy, write_audio, write_video_only
from test_audio_synth import RATE, needs_espeak, synth_game, write_mp4

from stopframe_cli.main import main

pytestmark = needs_espeak
START = 17.32


@pytest.fixture(scope="module")
def cameras(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sync_cli")
    game = synth_game(days=((2, 5), (3, 7)), seed=4).samples
    a = write_mp4(folder / "a.mp4", game)
    b = write_audio(folder / "b", camera_copy(game, RATE, START, 40.0, gain_db=-12.0, snr_db=10.0), RATE, "mp3")
    return folder, a, b


def test_json_says_where_b_starts_on_as_clock(cameras, capsys):
    _, a, b = cameras
    assert main(["sync", str(a), str(b), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"format", "a", "b", "offset_s", "confidence", "drift_ppm", "drift_measured", "overlap_s",
                         "overlap_from_s", "windows"}
    assert (data["format"], data["a"], data["b"]) == ("stopframe-sync/1", str(a), str(b))
    assert abs(data["offset_s"] - START) < 0.020
    assert 0.3 <= data["confidence"] <= 1.0
    assert data["drift_ppm"] == 0.0 and data["drift_measured"] is False
    assert set(data["windows"]) == {"used", "heard"} and data["windows"]["used"] >= 1


def test_out_writes_the_json_and_prints_nothing(cameras, capsys):
    folder, a, b = cameras
    out = folder / "b.sync.json"
    assert main(["sync", str(a), str(b), "--out", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert abs(json.loads(out.read_text(encoding="utf-8"))["offset_s"] - START) < 0.020


def test_the_readable_lines_say_it_in_words(cameras, capsys):
    _, a, b = cameras
    assert main(["sync", str(a), str(b)]) == 0
    text = capsys.readouterr().out
    assert f"{b} starts at {START:.2f}" in text and f"on {a}'s clock" in text
    assert "drift: not measured" in text and "B's offset = A's offset" in text
    assert "None" not in text and "{" not in text


def test_silence_exits_1_with_one_sentence(cameras, capsys):
    folder, a, _ = cameras
    quiet = write_audio(folder / "quiet", np.zeros(20 * RATE, np.float32), RATE, "aac")
    assert main(["sync", str(a), str(quiet), "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    error = captured.err.splitlines()[-1]  # after the progress line
    assert error.startswith(f"stopframe: {quiet}: the sound track is silent") and error.endswith(".")


def test_a_video_without_sound_exits_2(cameras, capsys):
    folder, a, _ = cameras
    video = write_video_only(folder / "mute.mp4")
    assert main(["sync", str(video), str(a)]) == 2
    assert "no audio track, so there is no sound to sync it by" in capsys.readouterr().err


def test_out_never_overwrites_a_video(cameras, capsys):
    _, a, b = cameras
    before = b.read_bytes()
    assert main(["sync", str(a), str(b), "--out", str(b)]) == 2
    assert "never overwrites a video" in capsys.readouterr().err
    assert b.read_bytes() == before
