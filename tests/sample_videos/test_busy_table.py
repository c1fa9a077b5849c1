"""The busy table (sample_videos.busy): every living player's hands keep moving through the day windows, never
while its own vote hand travels or rests, and never at night."""

from __future__ import annotations

import numpy as np

from sample_videos.build import pad_to_gops, windows_of
from sample_videos.busy import CLEAR, busy_others
from sample_videos.game import sample_game
from sample_videos.scenarios import tracks_for
from sample_videos.scene import make_seats


def test_every_living_player_is_busy_all_day_and_its_right_hand_keeps_clear_of_its_votes() -> None:
    windows = [pad_to_gops(w) for w in windows_of(sample_game())]
    for w in windows:
        others = busy_others(w)
        if w.night:
            assert others == []
            continue
        for n in w.living:
            left = [o for o in others if o.seat == n and not o.right]
            assert [(o.on, o.off) for o in left] == [(0.0, w.duration)]
            for o in (o for o in others if o.seat == n and o.right):
                assert o.kind == "busy" and o.off - o.on >= 1.0
                for h in (h for h in w.hands if h.seat == n):
                    assert o.off <= h.on - CLEAR + 1 / 25 or o.on >= h.off + CLEAR - 1e-9  # snapped to a frame


def test_a_busy_hand_moves_on_most_frames_and_is_back_at_rest_by_its_end() -> None:
    w = pad_to_gops(windows_of(sample_game())[0])
    w.others = busy_others(w)
    tracks = tracks_for(w, make_seats(np.random.default_rng(1)), 7)
    track = tracks[(w.living[0], False)]
    keys = [track.at(i / 25)[1] for i in range(int(w.duration * 25))]
    assert sum(k is None for k in keys) > 0.5 * len(keys)  # in motion on most frames
    end, _ = track.at(w.duration)
    assert np.allclose(end.wrist, track.base.wrist)
