"""Which votes the seat finder watches: the first voting day with the judge's counts, and the next day only
where a living player's hand never rested on the first."""

from __future__ import annotations

from pathlib import Path

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


def _found_without(silent: set[int]):
    """A finder that places every living seat but `silent` (whose zones it can only guess)."""
    def find(_video, windows, living, **_kwargs):
        calls.append(len(windows))
        places = [Place(100.0 + 80 * n, 300.0, np.array([[90.0 + 80 * n, 290, 110 + 80 * n, 310]]), 6,
                        frozenset({0})) for n in sorted(living) if n not in silent]
        return number_places(places, living, [], (1280, 720), "votes", 1.0)
    calls: list[int] = []
    return find, calls


@pytest.mark.parametrize("silent,looks", [(set(), 1), ({8}, 2)])
def test_the_next_day_is_watched_only_for_a_seat_never_seen(monkeypatch: pytest.MonkeyPatch, silent: set[int],
                                                            looks: int) -> None:
    find, calls = _found_without(silent)
    monkeypatch.setattr(pipeline.seat_finding, "find_seats", find)
    found = find_game_seats(f"{GAME}.mp4", f"{GAME}.protocol.json")
    assert len(calls) == looks
    if looks == 2:
        assert calls[1] > calls[0] and found.seconds == pytest.approx(2.0)  # both looks' time counted
