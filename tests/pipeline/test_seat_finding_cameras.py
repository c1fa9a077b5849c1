"""Finding the seats on a camera of a protocol's `videos`: the votes are watched on that camera's own clock."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import pipeline.seat_finding
from pipeline.seat_finding import find_game_seats
from review.game.protocol import load_protocol
from vision.seat_finder import Place, number_places

CLIPS = Path(__file__).resolve().parents[2] / "sample_videos" / "clips"
PROTOCOL = CLIPS / "two_cameras.protocol.json"


def _windows_seen(monkeypatch: pytest.MonkeyPatch, video: Path) -> list:
    """The windows of the finder's first look (every seat found there: no second look)."""
    looks: list[list] = []

    def look(_video, windows, **_kwargs):
        looks.append(list(windows))

    def seats_from(_looked, living):
        return number_places(_ring(living), living, [], (1280, 720), "votes", 0.0)

    monkeypatch.setattr(pipeline.seat_finding, "look", look)
    monkeypatch.setattr(pipeline.seat_finding, "seats_from", seats_from)
    monkeypatch.setattr(pipeline.seat_finding, "hand_detector", lambda: SimpleNamespace(close=lambda: None))
    find_game_seats(video, PROTOCOL)
    assert len(looks) == 1
    return looks[0]


def _ring(living: frozenset[int]) -> list[Place]:
    return [Place(100.0 + 100 * n, 300.0 + 20 * (n % 2), np.array([[90.0 + 100 * n, 290, 110 + 100 * n, 310]]), 6,
                  frozenset({0})) for n in sorted(living)]


def test_the_far_cameras_votes_are_watched_at_its_own_times(monkeypatch: pytest.MonkeyPatch) -> None:
    cameras = {c.id: c for c in load_protocol(PROTOCOL).videos}
    judge = _windows_seen(monkeypatch, CLIPS / cameras["judge"].path)
    far = _windows_seen(monkeypatch, CLIPS / cameras["far"].path)
    shift = cameras["far"].offset - cameras["judge"].offset
    assert judge and len(far) == len(judge) and abs(shift) > 1.0
    for a, b in zip(judge, far, strict=True):
        assert (b.t - a.t, b.cutoff - a.cutoff, b.announced - a.announced) == pytest.approx((shift,) * 3)
