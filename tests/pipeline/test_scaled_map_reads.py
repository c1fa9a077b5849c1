"""A seat map scaled from another picture size is held to what it reads (pipeline.seat_fit.check_scaled_map_reads):
refused where the hands seen through it disagree with the protocol's count on most votes of a game, never for a
judge's odd miscount, never on a clip too short to tell, never for a map of the video's own size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from contract.errors import InvalidInput
from pipeline.seat_fit import MIN_VOTES_TO_JUDGE, check_scaled_map_reads
from review.audit.findings import AuditReport, VoteOutcome, VoteReport
from stopframe_app.game import GameSpec, load_game, run_audit

ROOT = Path(__file__).parents[2]
SAMPLE = ROOT / "sample_videos" / "game"
FAR_CAMERA = ROOT / "sample_videos" / "clips" / "two_cameras.far.seats.json"
NOTE = "x.seats.json: drawn on 1280x720, scaled to 1920x1080"


def _votes(pairs: list[tuple[int, int]]) -> AuditReport:
    """A report whose votes have these (protocol count, hands seen in time)."""
    outcome = VoteOutcome(protocol="seat 1 leaves", video="seat 1 leaves")
    votes = [VoteReport(kind="vote", day=1, round=1, protocol_count=p, protocol_voters=None,
                        video_voters=tuple(range(1, seen + 1)), silent_seats=(), confidence=0.9, outcome=outcome,
                        candidate=i + 1) for i, (p, seen) in enumerate(pairs)]
    return AuditReport(video="v.mp4", rules="rfm", votes=tuple(votes), findings=())


def test_most_counts_off_through_a_scaled_map_is_refused() -> None:
    with pytest.raises(InvalidInput) as refused:
        check_scaled_map_reads(_votes([(4, 1)] * 4 + [(3, 3)] * 3), NOTE, "x.seats.json")
    assert "4 of 7 votes" in str(refused.value) and NOTE in str(refused.value)


def test_a_judges_odd_miscount_a_short_clip_and_a_map_of_the_videos_size_pass() -> None:
    check_scaled_map_reads(_votes([(5, 6), (4, 3)] + [(2, 2)] * 11), NOTE, "x.seats.json")  # 2 of 13 off
    check_scaled_map_reads(_votes([(5, 6), (4, 3), (2, 2)][: MIN_VOTES_TO_JUDGE - 1]), NOTE, "x.seats.json")
    check_scaled_map_reads(_votes([(4, 1)] * 13), None, "x.seats.json")  # not scaled: the warning-free path


def test_the_app_refuses_the_audit_through_another_cameras_map(tmp_path: Path, monkeypatch) -> None:
    """The app's audit of a game opened with the far camera's map and hands that do not add up: the page's
    error names the map and says what to do; the protocol's own numbers are not shown as the video's."""
    monkeypatch.setenv("STOPFRAME_DATA", str(tmp_path / "data"))
    obs = json.loads((SAMPLE / "sample_game.observations.json").read_text(encoding="utf-8"))
    obs["hands"] = [h for h in obs["hands"] if h["seat"] in (1, 2)]  # what a wrong map lets through: a seat or two
    observations = tmp_path / "far.observations.json"
    observations.write_text(json.dumps(obs), encoding="utf-8")
    game = load_game(GameSpec(str(SAMPLE / "sample_game.protocol.json"), str(SAMPLE / "sample_game.mp4"),
                              str(FAR_CAMERA), str(observations)))
    assert "seat_size" in game.notes and game.observations is not None
    with pytest.raises(InvalidInput) as refused:
        run_audit(game)
    assert str(FAR_CAMERA) in str(refused.value) and "mark the seats on this video" in str(refused.value)
