"""`stopframe align` end to end: a paper protocol (no times) and a game video with the judge's voice."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_audio_synth import needs_espeak, protocol_for, synth_game, write_mp4

from review.game.protocol import format_problems
from stopframe_cli.main import main

pytestmark = needs_espeak
FRAME_S = 0.040


@pytest.fixture(scope="module")
def game_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("align")
    game = synth_game(days=((2, 5), (3, 7, 9)), speech_s=2.0, night_s=10.0, lifts=(1,))
    write_mp4(folder / "game.mp4", game.samples)
    (folder / "game.protocol.json").write_text(json.dumps(protocol_for(game), ensure_ascii=False), encoding="utf-8")
    return folder, game


def test_paper_protocol_gets_every_vote_time_within_a_frame(game_dir, capsys) -> None:
    folder, game = game_dir
    src = folder / "game.protocol.json"
    before = src.read_bytes()
    out = folder / "aligned.protocol.json"
    assert main(["align", str(folder / "game.mp4"), "--protocol", str(src), "--out", str(out)]) == 0
    assert src.read_bytes() == before  # the original is never written
    data = json.loads(out.read_text(encoding="utf-8"))
    assert format_problems(data) == []
    votes = [e for e in data["events"] if e["type"] in ("vote", "lift_vote")]
    assert votes[2]["type"] == "lift_vote"  # its question differs from the calls: a weak cue, still used
    for vote, truth in zip(votes, game.votes, strict=True):
        for name in ("t", "cutoff", "announced"):
            assert abs(vote[name] - truth[name]) < FRAME_S, (name, vote, truth)
            assert 0.0 < vote["x_cue_scores"][name] <= 1.0
    usual = [v["x_cue_scores"]["cutoff"] for v in votes if v["type"] == "vote"]
    assert min(usual) >= 0.8
    assert votes[2]["x_cue_scores"]["cutoff"] < min(usual)  # the judge sees which proposal to check first
    assert capsys.readouterr().out == ""  # --out alone prints nothing to stdout


def test_json_prints_the_retimed_protocol_and_video_defaults_to_the_protocols(game_dir, capsys) -> None:
    folder, game = game_dir
    assert main(["align", "--protocol", str(folder / "game.protocol.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "stopframe-protocol/1"
    cutoffs = [e["cutoff"] for e in data["events"] if e["type"] in ("vote", "lift_vote")]
    assert np.allclose(cutoffs, [v["cutoff"] for v in game.votes], atol=FRAME_S)


def test_table_without_json_names_each_proposed_time(game_dir, capsys) -> None:
    folder, _ = game_dir
    assert main(["align", str(folder / "game.mp4"), "--protocol", str(folder / "game.protocol.json")]) == 0
    table = capsys.readouterr().out
    assert "Stop" in table and "proposed, score" in table and "cutoff" not in table


def test_the_table_and_progress_in_russian_show_words_not_codes(game_dir, capsys) -> None:
    """A lift vote's candidates as numbers, the clock without an empty list of outliers, and how the closing word
    was learnt in words (not the code `discovered` or `protocol`)."""
    folder, _ = game_dir
    assert main(["--lang", "ru", "align", str(folder / "game.mp4"), "--protocol", str(folder / "game.protocol.json")]) == 0
    out, err = capsys.readouterr()
    lift = [line for line in out.splitlines() if "подъём" in line]
    assert lift and all(line.split("подъём ")[1].split(":")[0].replace(", ", "").isdigit() for line in lift)
    assert "выбросов нет" in out and ": нет)" not in out
    assert "закрывающее слово узнано" in err
    assert not [w for w in ("template", "discovered", "protocol", "marked", "шаблон") if w in err]


def test_out_naming_the_original_is_refused(game_dir, capsys) -> None:
    folder, _ = game_dir
    src = folder / "game.protocol.json"
    before = src.read_bytes()
    assert main(["align", str(folder / "game.mp4"), "--protocol", str(src), "--out", str(src)]) == 2
    assert src.read_bytes() == before
    assert "never overwrites" in capsys.readouterr().err


def test_unreadable_video_and_protocol_exit_2_invalid_protocol_exits_1(game_dir, tmp_path: Path, capsys) -> None:
    folder, _ = game_dir
    src = folder / "game.protocol.json"
    assert main(["align", str(tmp_path / "missing.mp4"), "--protocol", str(src)]) == 2
    assert "missing.mp4" in capsys.readouterr().err
    broken = tmp_path / "broken.protocol.json"
    broken.write_text("{not json", encoding="utf-8")
    assert main(["align", str(folder / "game.mp4"), "--protocol", str(broken)]) == 2
    bad = json.loads(src.read_text(encoding="utf-8"))
    bad["events"][0]["phase"] = "dusk"
    invalid = tmp_path / "invalid.protocol.json"
    invalid.write_text(json.dumps(bad), encoding="utf-8")
    assert main(["align", str(folder / "game.mp4"), "--protocol", str(invalid)]) == 1
    assert "events[0].phase" in capsys.readouterr().err


SAMPLE = Path(__file__).resolve().parents[2] / "sample_videos" / "game" / "sample_game"


def test_sample_game_paper_protocol_aligns_within_a_frame(tmp_path: Path) -> None:
    assert SAMPLE.with_suffix(".mp4").exists(), f"{SAMPLE}.mp4 is missing: render it with `python3 -m sample_videos`."
    truth = json.loads(SAMPLE.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    paper = json.loads(json.dumps(truth))
    for e in paper["events"]:
        for name in ("t", "cutoff", "announced", "end"):
            e.pop(name, None)
    src = tmp_path / "paper.protocol.json"
    src.write_text(json.dumps(paper, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "aligned.protocol.json"
    assert main(["align", str(SAMPLE.with_suffix(".mp4")), "--protocol", str(src), "--out", str(out)]) == 0
    aligned = json.loads(out.read_text(encoding="utf-8"))
    pairs = [(a, b) for a, b in zip(truth["events"], aligned["events"], strict=True) if a["type"] in ("vote", "lift_vote")]
    assert pairs
    for a, b in pairs:
        for name in ("t", "cutoff", "announced"):
            if name in a:
                assert abs(b[name] - a[name]) < FRAME_S, (name, a, b)
