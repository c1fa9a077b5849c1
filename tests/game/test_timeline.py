"""Vote windows: the times each vote is judged by, where missing ones come from, and what gets decoded."""

from __future__ import annotations

import json

import pytest

from contract.errors import UnreadableInput
from review.game.timeline import (
    analysis_windows,
    load_marks,
    marks_path_for,
    vote_rounds,
    vote_windows,
)


def _proto(events, offset=None):
    data = {"format": "stopframe-protocol/1", "rules": "rfm", "events": events}
    if offset is not None:
        data["video"] = {"path": "g.mp4", "offset_s": offset}
    return data


def test_protocol_times_are_used_with_the_video_offset_and_nothing_is_assumed():
    data = _proto([{"type": "vote", "day": 1, "round": 1, "candidate": 5, "count": 3,
                    "t": 10.0, "cutoff": 11.5, "announced": 12.6}], offset=2.0)
    (w,) = vote_windows(data)
    assert (w.t, w.cutoff, w.announced) == (12.0, 13.5, 14.6)
    assert w.assumed == () and w.event_index == 0 and w.kind == "vote"


def test_missing_cutoff_and_announced_take_the_stated_defaults_and_say_so():
    data = _proto([{"type": "vote", "day": 1, "round": 1, "candidate": 5, "count": 3, "t": 10.0}])
    (w,) = vote_windows(data)
    assert (w.cutoff, w.announced) == (11.5, 12.5)
    assert w.assumed == ("cutoff", "announced")


def test_only_a_cutoff_gives_t_before_it():
    data = _proto([{"type": "vote", "day": 1, "round": 1, "candidate": 5, "count": 3, "cutoff": 20.0}])
    (w,) = vote_windows(data)
    assert (w.t, w.cutoff, w.announced) == (18.5, 20.0, 21.0)
    assert w.assumed == ("t", "announced")


def test_an_untimed_vote_has_no_window():
    data = _proto([{"type": "vote", "day": 1, "round": 1, "candidate": 5, "count": 3}])
    (w,) = vote_windows(data)
    assert not w.timed
    assert analysis_windows(vote_rounds([w])) == []


def test_judges_marks_fill_missing_times_by_event_or_by_vote_and_are_not_assumed(tmp_path):
    data = _proto([
        {"type": "phase", "phase": "voting", "number": 1},
        {"type": "vote", "day": 1, "round": 1, "candidate": 5, "count": 3, "t": 100.0},
        {"type": "vote", "day": 1, "round": 1, "candidate": 7, "count": 7},
    ], offset=5.0)
    marks = tmp_path / "g.marks.json"
    marks.write_text(json.dumps({"format": "stopframe-marks/1", "marks": [
        {"event": 1, "cutoff": 106.4},
        {"day": 1, "round": 1, "candidate": 7, "t": 108.0, "cutoff": 109.6, "announced": 110.5},
    ]}))
    w1, w2 = vote_windows(data, load_marks(marks))
    assert (w1.t, w1.cutoff, w1.announced) == (105.0, 106.4, 107.4)  # marks are video times: no offset
    assert w1.sources == {"t": "protocol", "cutoff": "marks", "announced": "default"}
    assert w1.assumed == ("announced",)
    assert (w2.t, w2.cutoff, w2.announced) == (108.0, 109.6, 110.5) and w2.assumed == ()


def test_marks_file_errors_name_the_file_and_place(tmp_path):
    bad = tmp_path / "bad.marks.json"
    bad.write_text(json.dumps({"format": "stopframe-marks/1", "marks": [{"event": 1, "t": "soon"}]}))
    with pytest.raises(UnreadableInput, match=r"bad\.marks\.json: marks\[0\]\.t"):
        load_marks(bad)
    bad.write_text(json.dumps({"format": "stopframe-marks/2", "marks": []}))
    with pytest.raises(UnreadableInput, match="version"):
        load_marks(bad)
    assert marks_path_for(tmp_path / "game3.protocol.json") == tmp_path / "game3.marks.json"


def test_rounds_group_candidates_and_a_lift_vote_follows_the_last_round():
    data = _proto([
        {"type": "vote", "day": 2, "round": 1, "candidate": 3, "count": 4, "t": 1.0},
        {"type": "vote", "day": 2, "round": 1, "candidate": 5, "count": 4, "t": 4.0},
        {"type": "vote", "day": 2, "round": 2, "candidate": 3, "count": 4, "t": 40.0},
        {"type": "vote", "day": 2, "round": 2, "candidate": 5, "count": 4, "t": 43.0},
        {"type": "lift_vote", "day": 2, "candidates": [3, 5], "count": 5, "t": 60.0},
    ])
    rounds = vote_rounds(vote_windows(data))
    assert [(r.day, r.round, r.kind, len(r.windows)) for r in rounds] == [
        (2, 1, "vote", 2), (2, 2, "vote", 2), (2, 3, "lift", 1)]
    assert rounds[2].windows[0].candidates == (3, 5) and rounds[2].windows[0].candidate is None


def test_only_vote_windows_with_a_margin_are_decoded_and_overlaps_merge():
    data = _proto([
        {"type": "vote", "day": 1, "round": 1, "candidate": 3, "count": 4, "t": 100.0, "cutoff": 101.5, "announced": 102.5},
        {"type": "vote", "day": 1, "round": 1, "candidate": 5, "count": 6, "t": 104.0, "cutoff": 105.5, "announced": 106.5},
        {"type": "vote", "day": 2, "round": 1, "candidate": 1, "count": 4, "t": 900.0, "cutoff": 901.5, "announced": 902.5},
        {"type": "vote", "day": 2, "round": 1, "candidate": 2, "count": 4, "t": 903.0, "cutoff": 904.5, "announced": 905.5},
    ])
    spans = analysis_windows(vote_rounds(vote_windows(data)), lead=1.5, tail=1.5)
    assert spans == [(98.5, 108.0), (898.5, 907.0)]
    total = sum(b - a for a, b in spans)
    assert total < 25  # two rounds of a game: seconds of video, not its length


def test_a_default_count_time_never_runs_past_the_next_candidates_naming():
    data = _proto([
        {"type": "vote", "day": 1, "round": 1, "candidate": 3, "count": 4, "t": 10.0},
        {"type": "vote", "day": 1, "round": 1, "candidate": 5, "count": 6, "t": 12.0},
    ])
    w1, w2 = vote_windows(data)
    assert (w1.cutoff, w1.announced) == (11.5, 12.0) and w1.assumed == ("cutoff", "announced")
    assert (w2.cutoff, w2.announced) == (13.5, 14.5)


def test_a_votes_label_from_a_file_reads_in_the_readers_words() -> None:
    """The files keep a vote's label in English (`x_untimed_votes`, `x_draft_untimed`); a Russian judge reads it in
    Russian, and a label of another shape is shown as written."""
    from contract import i18n
    from review.game.timeline import label_words

    with i18n.using("ru"):
        assert label_words("day 2 round 1 candidate 9") == "день 2, голосование 1: кандидатура 9"
        assert label_words("day 2 round 3 lift 9, 3") == "день 2, голосование 3: подъём 9, 3"
        assert label_words("vote 4") == "vote 4"
    with i18n.using("en"):
        assert label_words("day 1 round 1 candidate 6") == "day 1, round 1: candidate 6"
