"""`stopframe audit --nights` from saved observations (no MediaPipe): night findings and `x_nights` rows."""

from __future__ import annotations

import json
from pathlib import Path

from samplegame import require_current_sample_fixture

from review.audit.findings import NIGHT_KINDS, identity_of
from review.game.profiles import get_profile
from stopframe_cli.main import main

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "audit"
CLIP = ROOT / "sample_videos" / "clips" / "night1_kill_checks"  # night 1: seats 2, 7, 9 kill seat 10 at t 4.2


def _args(obs: str, *extra: str) -> list[str]:
    return ["audit", "--protocol", str(CLIP.with_suffix(".protocol.json")), "--seats", str(CLIP.with_suffix(".seats.json")),
            "--observations", str(FIX / f"{obs}.observations.json"), *extra]


def test_protocol_kill_that_the_video_shows_as_a_miss_is_a_shot_mismatch(capsys):
    assert main([*_args("night1_miss", "--nights", "--json")]) == 0
    data = json.loads(capsys.readouterr().out)
    (f,) = [f for f in data["findings"] if f["kind"] == "shot_mismatch"]
    assert f["night"] == 1 and f["clause"] == get_profile("rfm").offence("shot_mismatch").clause == "rfm 7.1.2.4"
    (row,) = [r for r in data["x_nights"] if r["kind"] == "shooting"]
    assert row["protocol_target"] == 10 and row["video_target"] is None
    assert [r["video_number"] for r in data["x_nights"] if r["kind"] == "check"] == [4, 9]


def test_video_that_agrees_with_the_protocol_has_no_night_finding(capsys):
    assert main([*_args("night1_kill", "--nights", "--json", "--fail-on-findings")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert not [f for f in data["findings"] if f.get("night") is not None]
    (row,) = [r for r in data["x_nights"] if r["kind"] == "shooting"]
    assert row["video_target"] == row["protocol_target"] == 10


def test_without_nights_the_night_fields_are_ignored(capsys):
    assert main([*_args("night1_miss", "--json")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "x_nights" not in data and not [f for f in data["findings"] if f["kind"] == "shot_mismatch"]


def test_readable_table_lists_night_findings_and_rows(capsys):
    assert main([*_args("night1_miss", "--nights")]) == 0
    out = capsys.readouterr().out
    assert "shot mismatch" in out and "rfm 7.1.2.4" in out and " n1 " in out
    assert "Nights" in out and "protocol: seat 10 killed" in out and "None" not in out


def test_observations_without_night_fields_leave_the_nights_unaudited(capsys, tmp_path):
    day = json.loads((FIX / "day_vote.observations.json").read_text(encoding="utf-8"))
    obs = tmp_path / "clip.observations.json"  # day hands only, said to be of this clip's video
    obs.write_text(json.dumps({**day, "video": CLIP.with_suffix(".mp4").name}), encoding="utf-8")
    assert main(["audit", "--protocol", str(CLIP.with_suffix(".protocol.json")), "--seats", str(CLIP.with_suffix(".seats.json")),
                 "--observations", str(obs), "--nights", "--json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["x_nights"] and all("not audited" in r["note"] for r in data["x_nights"])
    assert not [f for f in data["findings"] if f.get("night") is not None]
    assert "no night fields" in err


GAME = ROOT / "sample_videos" / "game" / "sample_game"


def test_sample_game_nights_from_vision_flag_the_planted_night_hands_and_agree_on_shots_and_checks(capsys):
    """On what vision saw at the sample game's three nights: the red seat 5 faking a shot on night 2
    (rfm 5.12.10) and seat 1's hand up during the Don's check on night 3 (rfm 4.5.12) are flagged,
    and every shooting and check reads as the protocol records it — no shot or check mismatch."""
    require_current_sample_fixture(nights=True)
    assert main(["audit", "--protocol", str(GAME.with_suffix(".protocol.json")), "--seats", str(GAME.with_suffix(".seats.json")),
                 "--observations", str(GAME.with_suffix(".observations.json")), "--nights", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    night = {identity_of(f): f for f in data["findings"] if f["night"] is not None}
    truth = json.loads(GAME.with_suffix(".truth.json").read_text(encoding="utf-8"))
    assert set(night) == {identity_of(f) for f in truth["expected_findings"] if f["kind"] in NIGHT_KINDS} == {
        ("night_hand", 2, 5), ("night_hand", 3, 1)}
    faked, pose = night[("night_hand", 2, 5)], night[("night_hand", 3, 1)]
    assert (faked["clause"], faked["consequence"]["type"]) == ("rfm 5.12.10", "removal")
    assert (pose["clause"], pose["consequence"]["type"]) == ("rfm 4.5.12", "warning")
    assert faked["evidence"]["frames"] and pose["evidence"]["frames"]
    shootings = [(r["night"], r["video_target"], r["protocol_target"]) for r in data["x_nights"] if r["kind"] == "shooting"]
    assert shootings == [(1, 10, 10), (2, None, None), (3, 4, 4)]
    checks = [(r["night"], r["by"], r["video_number"], r["protocol_target"]) for r in data["x_nights"] if r["kind"] == "check"]
    assert checks == [(1, "don", 4, 4), (1, "sheriff", 9, 9), (2, "don", 1, 1), (2, "sheriff", 2, 2), (3, "don", 8, 8)]
