"""Finding the seats on a camera of a protocol's `videos`: the votes are watched on that camera's own clock."""

from __future__ import annotations

from pathlib import Path

import pytest

import pipeline.seat_finding
from pipeline.seat_finding import find_game_seats
from review.game.protocol import load_protocol

CLIPS = Path(__file__).resolve().parents[2] / "sample_videos" / "clips"
PROTOCOL = CLIPS / "two_cameras.protocol.json"


def _windows_seen(monkeypatch: pytest.MonkeyPatch, video: Path) -> list:
    seen: list = []
    monkeypatch.setattr(pipeline.seat_finding, "find_seats", lambda _video, windows, *_a, **_k: seen.extend(windows))
    find_game_seats(video, PROTOCOL)
    return seen


def test_the_far_cameras_votes_are_watched_at_its_own_times(monkeypatch: pytest.MonkeyPatch) -> None:
    cameras = {c.id: c for c in load_protocol(PROTOCOL).videos}
    judge = _windows_seen(monkeypatch, CLIPS / cameras["judge"].path)
    far = _windows_seen(monkeypatch, CLIPS / cameras["far"].path)
    shift = cameras["far"].offset - cameras["judge"].offset
    assert judge and len(far) == len(judge) and abs(shift) > 1.0
    for a, b in zip(judge, far, strict=True):
        assert (b.t - a.t, b.cutoff - a.cutoff, b.announced - a.announced) == pytest.approx((shift,) * 3)
