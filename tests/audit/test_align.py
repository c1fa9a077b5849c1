"""Aligning a protocol with the cues heard on its video: pure data, no audio."""

from __future__ import annotations

import copy

import pytest

from review.audit.align import ClockFit, VoteCue, align_protocol, fit_clock, votes_on_video

PLAYERS = [{"seat": s, "nickname": f"P{s}", "role": None} for s in range(1, 11)]


def _cue(cutoff: float, score: float = 0.95) -> VoteCue:
    return VoteCue(cutoff=cutoff, cutoff_score=score, t=cutoff - 1.6, t_score=0.9, announced=cutoff + 0.7, announced_score=0.8)


def _protocol(days: list[list[int]]) -> dict:
    """Night 0, then per day its votes (candidates), nights between the days; no times."""
    events: list[dict] = [{"type": "phase", "phase": "night", "number": 0}]
    for d, cands in enumerate(days, start=1):
        if d > 1:
            events.append({"type": "phase", "phase": "night", "number": d - 1})
        events.append({"type": "phase", "phase": "day", "number": d})
        events += [{"type": "vote", "day": d, "round": 1, "candidate": c, "count": 2} for c in cands]
    return {"format": "stopframe-protocol/1", "rules": "rfm", "players": PLAYERS, "events": events}


def _votes(data: dict) -> list[dict]:
    return [e for e in data["events"] if e["type"] in ("vote", "lift_vote")]


TRUE_CUTOFFS = [100.0, 106.5, 113.2, 400.0, 407.0, 900.0, 905.5]
DAYS = [[2, 5, 7], [3, 9], [4, 6]]
NIGHTS = [(200.0, 300.0), (600.0, 700.0)]


def test_missing_times_filled_in_game_order_with_scores() -> None:
    data = _protocol(DAYS)
    cues = [_cue(c, 0.9 + i / 100) for i, c in enumerate(TRUE_CUTOFFS)]
    result = align_protocol(data, cues, NIGHTS)
    votes = _votes(result.data)
    assert [v["cutoff"] for v in votes] == TRUE_CUTOFFS
    assert [v["t"] for v in votes] == [round(c - 1.6, 3) for c in TRUE_CUTOFFS]
    assert [v["announced"] for v in votes] == [round(c + 0.7, 3) for c in TRUE_CUTOFFS]
    assert votes[0]["x_cue_scores"] == {"t": 0.9, "cutoff": 0.9, "announced": 0.8}
    assert result.unmatched == [] and result.unused_cues == 0


def test_the_input_protocol_is_never_modified() -> None:
    data = _protocol(DAYS)
    before = copy.deepcopy(data)
    align_protocol(data, [_cue(c) for c in TRUE_CUTOFFS], NIGHTS)
    assert data == before


def test_times_the_judge_wrote_are_kept_and_get_no_score() -> None:
    data = _protocol(DAYS)
    _votes(data)[1]["announced"] = 107.3  # the judge's own time, 0.1 s from what was heard
    result = align_protocol(data, [_cue(c) for c in TRUE_CUTOFFS], NIGHTS)
    second = _votes(result.data)[1]
    assert second["announced"] == 107.3
    assert set(second["x_cue_scores"]) == {"t", "cutoff"}


def test_offset_between_protocol_clock_and_video_is_fitted_from_anchors() -> None:
    data = _protocol(DAYS)
    offset = 37.25  # the protocol's times were taken on a stopwatch started 37.25 s into the video
    for i in (0, 4):
        _votes(data)[i]["cutoff"] = round(TRUE_CUTOFFS[i] - offset, 3)
    result = align_protocol(data, [_cue(c) for c in TRUE_CUTOFFS], NIGHTS)
    assert result.clock.offset == pytest.approx(offset, abs=1e-6) and result.clock.rate == 1.0
    assert result.data["video"]["offset_s"] == pytest.approx(offset)
    for v, true in zip(_votes(result.data), TRUE_CUTOFFS, strict=True):
        assert v["cutoff"] + result.data["video"]["offset_s"] == pytest.approx(true, abs=1e-3)


def test_drift_between_two_clocks_is_fitted_and_times_move_to_the_video_clock() -> None:
    data = _protocol(DAYS)
    clock = ClockFit(offset=12.0, rate=1.0004)  # a phone clock 400 ppm slow against the camera
    for i in (0, 3, 6):
        _votes(data)[i]["cutoff"] = round(clock.to_protocol(TRUE_CUTOFFS[i]), 4)
    result = align_protocol(data, [_cue(c) for c in TRUE_CUTOFFS], NIGHTS)
    assert result.clock.rate == pytest.approx(1.0004, abs=1e-6)
    assert result.data.get("video", {}).get("offset_s", 0.0) == 0.0
    for v, true in zip(_votes(result.data), TRUE_CUTOFFS, strict=True):
        assert v["cutoff"] == pytest.approx(true, abs=0.005)


def test_a_mistyped_protocol_time_is_an_outlier_not_an_anchor() -> None:
    data = _protocol(DAYS)
    offset = 5.0
    for i in (0, 2, 3, 5):
        _votes(data)[i]["cutoff"] = TRUE_CUTOFFS[i] - offset
    _votes(data)[3]["cutoff"] += 42.0  # 437 typed for 395
    result = align_protocol(data, [_cue(c) for c in TRUE_CUTOFFS], NIGHTS)
    assert result.clock.offset == pytest.approx(offset)
    vote_index = [i for i, e in enumerate(data["events"]) if e["type"] == "vote"][3]
    assert result.outliers == [f"events[{vote_index}].cutoff"]
    assert result.anchors == 3
    fixed = result.data["events"][vote_index]
    assert fixed["cutoff"] == pytest.approx(TRUE_CUTOFFS[3] - offset)  # on the protocol's clock
    assert fixed["x_replaced"] == {"cutoff": TRUE_CUTOFFS[3] - offset + 42.0}
    assert "cutoff" in fixed["x_cue_scores"]


def test_consensus_fit_ignores_one_outlier_among_drifting_anchors() -> None:
    true = ClockFit(3.0, 0.999)
    pairs = [(f"a{k}", p, [true.to_video(p) + 0.01 * (-1) ** k]) for k, p in enumerate((10.0, 200.0, 500.0, 800.0))]
    pairs.append(("typo", 300.0, [true.to_video(300.0) + 30.0]))
    clock, inliers, outliers = fit_clock(pairs)
    assert outliers == ["typo"] and len(inliers) == 4
    assert clock.rate == pytest.approx(0.999, abs=1e-4) and clock.offset == pytest.approx(3.0, abs=0.05)


def test_a_missed_cue_leaves_its_vote_empty_and_shifts_nothing_else() -> None:
    data = _protocol(DAYS)
    heard = [c for k, c in enumerate(TRUE_CUTOFFS) if k != 1]  # the second «Стоп» of day 1 was not heard
    result = align_protocol(data, [_cue(c) for c in heard], NIGHTS)
    votes = _votes(result.data)
    assert "cutoff" not in votes[1] or votes[1]["cutoff"] == TRUE_CUTOFFS[2]
    # whichever day-1 vote stays empty, the nights keep days 2 and 3 exact
    assert [v["cutoff"] for v in votes[3:]] == TRUE_CUTOFFS[3:]
    assert len(result.unmatched) == 1


def test_a_weak_false_cue_is_not_used() -> None:
    data = _protocol(DAYS)
    cues = [_cue(c) for c in TRUE_CUTOFFS] + [_cue(103.0, 0.5)]
    result = align_protocol(data, cues, NIGHTS)
    assert [v["cutoff"] for v in _votes(result.data)] == TRUE_CUTOFFS
    assert result.unused_cues == 1


def test_without_night_music_votes_still_fill_in_order() -> None:
    data = _protocol(DAYS)
    result = align_protocol(data, [_cue(c) for c in TRUE_CUTOFFS], nights=[])
    assert [v["cutoff"] for v in _votes(result.data)] == TRUE_CUTOFFS


def test_lift_votes_are_timed_like_votes() -> None:
    data = _protocol([[2, 5]])
    data["events"].append({"type": "lift_vote", "day": 1, "candidates": [2, 5], "count": 6})
    result = align_protocol(data, [_cue(c) for c in (50.0, 57.0, 70.0)])
    assert _votes(result.data)[2]["cutoff"] == 70.0


def test_a_vote_stays_between_its_timed_neighbours() -> None:
    data = _protocol([[2, 5, 7]])
    data["events"].insert(3, {"type": "speech", "day": 1, "seat": 4, "kind": "last", "t": 104.0, "end": 104.5})
    # the first vote comes before that speech, the second after it: the 107 cue (call at 105.4)
    # cannot be the first vote's however well it scores, nor the 103 cue the second's
    cues = [_cue(103.0, 0.7), _cue(107.0, 0.99), _cue(113.2)]
    result = align_protocol(data, cues)
    assert [v.get("cutoff") for v in _votes(result.data)] == [103.0, 107.0, 113.2]
    data["events"][3]["t"] = 108.0  # now both precede the speech: the first vote takes the surer one
    data["events"][3]["end"] = 109.0
    result = align_protocol(data, cues)
    assert [v.get("cutoff") for v in _votes(result.data)] == [107.0, 113.2, None]


def _clip_of_day(day: int, days: list[list[int]]) -> dict:
    """A clip's protocol: the whole game's votes, no vote times, only the clip's day's voting phase timed (at 0)."""
    data = _protocol(days)
    at = next(i for i, e in enumerate(data["events"]) if e["type"] == "phase" and e["number"] == day
              and e["phase"] == "day")
    data["events"].insert(at + 1, {"type": "phase", "phase": "voting", "number": day, "t": 0.0})
    return data


def test_a_clip_of_day_1_gives_no_cue_to_a_later_days_vote() -> None:
    """A word heard before the day's first vote and the three «Стоп» of a 22 s clip: four cues for day 1's three
    votes; a later day's vote, a night and a day's speeches later, cannot take one seconds after day 1's."""
    data = _clip_of_day(1, DAYS)
    cues = [_cue(2.0, 0.32), _cue(4.7), _cue(11.45), _cue(18.4)]
    votes = _votes(align_protocol(data, cues).data)
    assert [v.get("cutoff") for v in votes] == [4.7, 11.45, 18.4] + [None] * 4


def test_votes_of_two_days_take_cues_a_night_apart() -> None:
    cues = [_cue(c) for c in (100.0, 106.5, 113.2, 125.0)]  # no night heard; the fourth is seconds after day 1's
    votes = _votes(align_protocol(_protocol(DAYS), cues).data)
    assert [v.get("cutoff") for v in votes] == [100.0, 106.5, 113.2] + [None] * 4


def test_votes_on_video_counts_only_the_votes_its_timed_phases_allow() -> None:
    assert votes_on_video(_clip_of_day(3, DAYS), 0.0, 16.0) == 2  # days 1 and 2 voted before the clip's phase
    assert votes_on_video(_clip_of_day(2, DAYS), 0.0, 16.0) == 2  # day 3 is a night and 20 s or more later
    assert votes_on_video(_clip_of_day(2, DAYS), 0.0, 60.0) == 4  # ... which a minute of video may hold
    assert votes_on_video(_protocol(DAYS), 0.0, 16.0) == 7  # nothing timed: any vote may be on it
