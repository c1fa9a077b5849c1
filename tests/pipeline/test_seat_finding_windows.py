"""Which votes the seat finder watches: the first voting day with the judge's counts, and the next day only
where a living player's hand never rested on the first."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import pipeline.seat_finding
from pipeline.seat_finding import find_game_seats, finder_windows
from review.game.protocol import load_protocol
from vision.seat_finder import Place, number_places

GAME = Path(__file__).resolve().parents[2] / "sample_videos" / "game" / "sample_game"


def test_the_first_voting_day_with_the_judges_counts() -> None:
    data = load_protocol(f"{GAME}.protocol.json").data
    windows, living = finder_windows(data)
    assert [w.label for w in windows] == ["day 1, candidate 6", "day 1, candidate 3", "day 1, candidate 8"]
    assert [w.count for w in windows] == [5, 1, 4]
    assert living == frozenset(range(1, 11))
    two_days, _ = finder_windows(data, days=2)
    assert len(two_days) > len(windows) and all(w.label.startswith(("day 1", "day 2")) for w in two_days)


def _finder_without(monkeypatch: pytest.MonkeyPatch, silent: set[int]) -> list[tuple[int, object]]:
    """A finder that places every living seat but `silent` (whose zones it can only guess); returns, per look,
    the windows it was given and the earlier look it was to build on."""
    looks: list[tuple[int, object]] = []

    def look(_video, windows, *, before=None, **_kwargs):
        looks.append((len(windows), before))
        return SimpleNamespace(seconds=float(len(looks)))

    def seats_from(looked, living):
        places = [Place(100.0 + 80 * n, 300.0, np.array([[90.0 + 80 * n, 290, 110 + 80 * n, 310]]), 6,
                        frozenset({0})) for n in sorted(living) if n not in silent]
        return number_places(places, living, [], (1280, 720), "votes", looked.seconds)

    monkeypatch.setattr(pipeline.seat_finding, "look", look)
    monkeypatch.setattr(pipeline.seat_finding, "seats_from", seats_from)
    monkeypatch.setattr(pipeline.seat_finding, "hand_detector", lambda: SimpleNamespace(close=lambda: None))
    return looks


@pytest.mark.parametrize("silent,looks", [(set(), 1), ({8}, 2)])
def test_the_next_day_is_watched_only_for_a_seat_never_seen(monkeypatch: pytest.MonkeyPatch, silent: set[int],
                                                            looks: int) -> None:
    calls = _finder_without(monkeypatch, silent)
    found = find_game_seats(f"{GAME}.mp4", f"{GAME}.protocol.json")
    assert len(calls) == looks
    if looks == 2:  # the second look builds on the first (day 1's frames are not read again)
        (first, none), (second, earlier) = calls
        assert none is None and second > first and earlier is not None
        assert found.seconds == pytest.approx(2.0)  # the time of both looks
