"""review.audit.draft on the bundled sample game: the votes a judge left out, drafted from the video's cues and hands.

The cues are the bundled protocol's own times (what the voice gives, without reading audio) and the hands its
committed observations, so these run in well under a second each.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest
from samplegame import SAMPLE_OBSERVATIONS, require_current_sample_fixture

from contract.observations import observations_from_json, read_observations
from pipeline.draft import votes_to_hear
from review.audit.align import VOTE_TYPES, VoteCue
from review.audit.audit import audit
from review.audit.draft import (
    ADDED,
    LISTEN_MARGIN_S,
    add_first_rounds,
    cues_to_look_at,
    draft_votes,
    first_cues,
    listening_spans,
    partial_problems,
    refusals,
)
from review.game.profiles import get_profile
from review.game.protocol import validate
from stopframe_app.game import SAMPLE_PROTOCOL

RFM = get_profile("rfm")
# What the sample game's video supports on day 1 under rfm (its truth: the early and the lifted hands count, seat 1's
# second hand is a double vote, seat 9's is late, and the silent 8 and 9 go to the last candidate). The bundled
# protocol's counts 5 and 4 are the two count_mismatch findings the sample carries on purpose.
DAY1 = {6: ([1, 2, 4, 5, 7, 10], 6), 3: ([3], 1), 8: ([6, 8, 9], 3)}


def truth() -> dict[str, Any]:
    return json.loads(SAMPLE_PROTOCOL.read_text(encoding="utf-8"))


def partial_of(data: dict[str, Any]) -> dict[str, Any]:
    """The judge's paper sheet: everything but the vote events."""
    return {**data, "events": [e for e in data["events"] if e.get("type") not in VOTE_TYPES]}


def cues_of(data: dict[str, Any]) -> list[VoteCue]:
    return [VoteCue(cutoff=e["cutoff"], cutoff_score=0.9, t=e["t"], t_score=0.8, announced=e["announced"],
                    announced_score=0.7) for e in data["events"] if e.get("type") in VOTE_TYPES]


NIGHTS = [(22.0, 48.0), (86.0, 112.0), (137.0, 157.0)]  # the sample's nights 1-3 (night 0 is before the video)


@pytest.fixture(scope="module")
def auditor():
    require_current_sample_fixture()
    seen = observations_from_json(read_observations(SAMPLE_OBSERVATIONS), SAMPLE_OBSERVATIONS)
    return lambda data: audit(data, seen, profile=RFM)


def votes(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in data["events"] if e.get("type") in VOTE_TYPES]


def test_first_rounds_follow_the_nominations_after_the_days_voting_phase() -> None:
    data = partial_of(truth())
    add_first_rounds(data, RFM)
    day1 = [(i, e) for i, e in enumerate(data["events"]) if e.get("type") == "vote" and e["day"] == 1]
    assert [e["candidate"] for _, e in day1] == [6, 3, 8]
    assert data["events"][day1[0][0] - 1] == {"type": "phase", "phase": "voting", "number": 1, "t": 0.0}
    assert all(e[ADDED] for _, e in day1)


def test_a_lone_candidate_on_day_one_gets_no_vote_under_rfm() -> None:
    data = partial_of(truth())
    data["events"] = [e for e in data["events"] if not (e.get("type") == "nomination" and e["day"] == 1 and e["target"] != 6)]
    add_first_rounds(data, RFM)
    assert not [e for e in votes(data) if e["day"] == 1]


def test_sample_game_drafted_from_its_cues_and_hands(auditor) -> None:
    whole = truth()
    partial = partial_of(whole)
    kept = copy.deepcopy(partial)
    draft = draft_votes(partial, cues_of(whole), NIGHTS, RFM, auditor)
    assert partial == kept  # the input is untouched
    drafted = votes(draft.data)
    assert [(e["day"], e["round"], e["type"]) for e in drafted] == [(e["day"], e["round"], e["type"]) for e in votes(whole)]
    for e in drafted:
        if e["day"] == 1:
            assert (e["voters"], e["count"]) == DAY1[e["candidate"]]
        assert set(e["x_draft_score"]) == {"t", "cutoff", "announced", "voters", "count"}
    # day 2 ties twice: the revote and the lift vote are added, the lift vote's candidates the tied ones
    lift = next(e for e in drafted if e["type"] == "lift_vote")
    assert lift["candidates"] == [9, 3] and lift["count"] == 5
    for a, b in zip(votes(whole), drafted, strict=True):
        assert abs(a["cutoff"] - b["cutoff"]) < 0.040
    assert validate(draft.data) == []
    assert draft.untimed == [] and draft.added == len(drafted)


def test_a_sheet_with_no_time_and_a_video_with_no_night_music_is_drafted_round_by_round(auditor) -> None:
    """Nothing tells a cue's day (no phase timed, no night music heard): the game's rounds take the heard cues in
    order, each round the next run closed seconds apart, a revote's once the counts call for it — not whichever
    cues the listener was surest of (here the first vote's «Стоп» is heard a little less sure)."""
    whole = truth()
    untimed = partial_of(whole)
    untimed["events"] = [{k: v for k, v in e.items() if k != "t"} for e in untimed["events"]]
    heard = [replace(c, cutoff_score=0.8 if c.cutoff < 5 else 0.9) for c in cues_of(whole)]
    drafted = votes(draft_votes(untimed, heard, [], RFM, auditor).data)
    assert [(e["day"], e["round"], e["type"]) for e in drafted] == [(e["day"], e["round"], e["type"]) for e in votes(whole)]
    for a, b in zip(votes(whole), drafted, strict=True):
        assert abs(a["cutoff"] - b["cutoff"]) < 0.040


def test_a_video_that_begins_on_a_later_day_times_that_days_votes_not_the_sheets_first(auditor) -> None:
    """A paper sheet with no time, days 1 and 2 counted by the judge and days 3 and 4 left to the video, and a
    recording that began on day 3 (no night music heard): its two runs of closing words are days 3 and 4, not the
    sheet's first two rounds; with the whole game's video every round takes its own run."""
    whole = truth()
    untimed = {**whole, "events": [{k: v for k, v in e.items() if k not in ("t", "cutoff", "announced")}
                                   for e in whole["events"] if e.get("type") not in VOTE_TYPES or e["day"] <= 2]}
    late = [c for c in cues_of(whole) if c.cutoff > 112]
    for heard in (late, cues_of(whole)):
        drafted = votes(draft_votes(untimed, heard, [], RFM, auditor).data)
        judges = [e.get("cutoff") for e in drafted if e["day"] <= 2]  # the judge's rounds: timed where shown
        assert judges == ([None] * 8 if heard is late else [e["cutoff"] for e in votes(whole) if e["day"] <= 2])
        later = [(e["day"], e["candidate"], e["cutoff"]) for e in drafted if e["day"] > 2]
        assert later == [(3, 2, 118.9), (3, 7, 125.75), (3, 5, 132.7), (4, 7, 163.8), (4, 1, 170.65)]


def test_a_sheet_typed_in_whole_needs_one_voting_time_for_a_video_that_begins_on_a_later_day(auditor) -> None:
    """Every vote counted by the judge, no time, and a recording that began on day 3 with no night music on it:
    runs of closing words alone cannot tell day 1's round of three from day 3's, so the video is taken to begin
    with the game; the time of day 3's voting on the video, typed on the sheet, puts the votes heard on days 3
    and 4."""
    whole = truth()
    typed = {**whole, "events": [{k: v for k, v in e.items() if k not in ("t", "cutoff", "announced")}
                                 for e in whole["events"]]}
    late = [c for c in cues_of(whole) if c.cutoff > 112]
    made = draft_votes(typed, late, [], RFM, auditor)
    assert [e.get("cutoff") for e in votes(made.data) if e["day"] == 1] == [118.9, 125.75, 132.7]  # taken for day 1
    assert made.in_order  # ... and the judge is told why, and what one time would do
    for e in typed["events"]:
        if e.get("phase") == "voting" and e["number"] == 3:
            e["t"] = 114.0
    made = draft_votes(typed, late, [], RFM, auditor)
    drafted = votes(made.data)
    assert not made.in_order
    assert [(e["day"], e.get("cutoff")) for e in drafted if "cutoff" in e] == \
        [(3, 118.9), (3, 125.75), (3, 132.7), (4, 163.8), (4, 170.65)]
    assert [e["count"] for e in drafted] == [e["count"] for e in votes(whole)]  # the judge's counts stay


def test_the_judges_values_are_never_changed(auditor) -> None:
    whole = truth()
    partial = partial_of(whole)
    judge_vote = {"type": "vote", "day": 1, "round": 1, "candidate": 6, "t": 3.15, "count": 6}
    at = next(i for i, e in enumerate(partial["events"]) if e.get("type") == "elimination")
    partial["events"].insert(at, judge_vote)
    draft = draft_votes(partial, cues_of(whole), NIGHTS, RFM, auditor)
    mine = next(e for e in votes(draft.data) if e["day"] == 1 and e["candidate"] == 6)
    assert mine["t"] == 3.15 and mine["count"] == 6 and ADDED not in mine
    assert "t" not in mine["x_draft_score"] and "count" not in mine["x_draft_score"]
    assert mine["voters"] == DAY1[6][0]  # added: they make the judge's count


def test_a_judges_count_the_hands_do_not_make_stands_and_the_hands_are_kept_beside_it(auditor) -> None:
    """The paper says 5 for candidate 6 and the video saw six hands in time: the judge's count stays, no voters are
    proposed for it, and the six seats the video saw ride along in `x_video_voters` for the judge to check; drafted
    again with a count they do make, they become the voters and the note goes."""
    whole = truth()
    partial = partial_of(whole)
    at = next(i for i, e in enumerate(partial["events"]) if e.get("type") == "elimination")
    partial["events"].insert(at, {"type": "vote", "day": 1, "round": 1, "candidate": 6, "count": 5})
    mine = next(e for e in votes(draft_votes(partial, cues_of(whole), NIGHTS, RFM, auditor).data)
                if e["day"] == 1 and e["candidate"] == 6)
    assert mine["count"] == 5 and "voters" not in mine and mine["x_video_voters"] == DAY1[6][0]
    assert len(DAY1[6][0]) == 6
    partial["events"][at]["count"] = 6
    mine = next(e for e in votes(draft_votes(partial, cues_of(whole), NIGHTS, RFM, auditor).data)
                if e["day"] == 1 and e["candidate"] == 6)
    assert mine["voters"] == DAY1[6][0] and "x_video_voters" not in mine


def test_a_draft_drafted_again_keeps_every_time_it_holds(auditor) -> None:
    """A DRAFT given back as the PARTIAL (the judge drafts again, or from another copy of the video with no sound):
    the times it holds are the judge's now, and nothing the video does not hear again is dropped."""
    whole = truth()
    first = draft_votes(partial_of(whole), cues_of(whole), NIGHTS, RFM, auditor).data
    again = draft_votes(first, [], [], RFM, auditor).data
    assert [(e["cutoff"], e["t"], e["announced"]) for e in votes(again)] == \
        [(e["cutoff"], e["t"], e["announced"]) for e in votes(first)]


def test_without_cues_the_added_votes_are_listed_untimed_not_guessed(auditor) -> None:
    partial = partial_of(truth())
    draft = draft_votes(partial, [], [], RFM, auditor)
    assert votes(draft.data) == []
    assert draft.untimed[:3] == ["day 1 round 1 candidate 6", "day 1 round 1 candidate 3", "day 1 round 1 candidate 8"]
    assert validate(draft.data) == []


def test_each_day_takes_its_own_first_cues() -> None:
    whole = truth()
    partial = partial_of(whole)
    add_first_rounds(partial, RFM)
    kept = first_cues(partial, cues_of(whole), NIGHTS)
    # day 2 has two first-round votes: its first two cues, not the revote's
    assert [c.cutoff for c in kept] == [4.7, 11.45, 18.4, 54.7, 61.45, 118.9, 125.75, 132.7, 163.8, 170.65]


def test_a_day_s_votes_are_its_round_of_closing_words_not_the_judge_s_thanks_after_each_speech() -> None:
    """A judge who closes a vote with «Спасибо» (mafclub 2.4.5) also thanks every speaker with it: on an hour's
    sound track day 3's speeches give five lone «Спасибо» a minute apart before its round of three votes, closed
    seconds apart, the last thanks 16 s before the first vote (the nominees named in between). The day's votes are
    the round, not its first thanks nor its last."""
    whole = truth()
    partial = partial_of(whole)
    add_first_rounds(partial, RFM)
    later = 300.0  # day 3's speeches put a minute apart before its votes: days 3 and 4 and night 3 come later

    def moved(c: VoteCue) -> VoteCue:
        return replace(c, cutoff=c.cutoff + later, t=c.t + later, announced=c.announced + later) if c.cutoff > 112 else c

    heard = [moved(c) for c in cues_of(whole)]
    thanks = [VoteCue(cutoff=t, cutoff_score=0.9) for t in (150.0, 210.0, 270.0, 330.0, 403.0)]
    nights = [*NIGHTS[:2], (NIGHTS[2][0] + later, NIGHTS[2][1] + later)]
    kept = [c.cutoff for c in first_cues(partial, sorted(heard + thanks, key=lambda c: c.cutoff), nights)]
    assert kept == [4.7, 11.45, 18.4, 54.7, 61.45, 418.9, 425.75, 432.7, 463.8, 470.65]
    # the hands are looked at from each day's first round on (a revote may follow it), never at the thanks before it
    looked = {c.cutoff for c in cues_to_look_at(partial_of(whole), heard + thanks, nights, RFM)}
    assert looked == {c.cutoff for c in heard}


def day1_typed(data: dict[str, Any]) -> dict[str, Any]:
    """A sheet typed part-way: day 1 up to its elimination (no votes, no times: paper has none), no night and no
    result yet."""
    night1 = next(i for i, e in enumerate(data["events"]) if e.get("phase") == "night" and e.get("number") == 1)
    events = [{k: v for k, v in e.items() if k != "t"} for e in data["events"][:night1]]
    return partial_of({**data, "events": events})


def test_a_sheet_typed_part_way_takes_the_first_cues_of_the_whole_games_video() -> None:
    whole = truth()
    partial = day1_typed(whole)
    add_first_rounds(partial, RFM)
    assert [c.cutoff for c in first_cues(partial, cues_of(whole), NIGHTS)] == [4.7, 11.45, 18.4]
    night0_heard = [(0.0, 2.0), *NIGHTS]  # night 0 on the sound track: day 1's votes come after its music
    assert [c.cutoff for c in first_cues(partial, cues_of(whole), night0_heard)] == [4.7, 11.45, 18.4]
    finished = {**partial, "events": [*partial["events"], {"type": "result", "winner": "red"}]}
    # days not told (the sheet's one night against the video's three): the game's rounds take the cues in order
    assert [c.cutoff for c in first_cues(finished, cues_of(whole), NIGHTS)] == [4.7, 11.45, 18.4]


def test_how_many_votes_to_hear_is_unknown_for_a_sheet_typed_part_way() -> None:
    assert votes_to_hear(day1_typed(truth())) == 0  # its video holds the days not typed yet
    assert votes_to_hear(partial_of(truth())) == 20  # ten nominations on days without a vote: up to twice that


def test_partial_may_leave_counts_out_but_not_break_the_format() -> None:
    partial = partial_of(truth())
    partial["events"].insert(6, {"type": "vote", "day": 1, "round": 1, "candidate": 6})
    assert partial_problems(partial) == []
    partial["events"][6]["candidate"] = "six"
    assert partial_problems(partial)


def test_a_nomination_by_a_seat_that_has_left_is_refused_with_its_clause() -> None:
    partial = partial_of(truth())
    at = next(i for i, e in enumerate(partial["events"]) if e.get("type") == "nomination" and e["day"] == 2)
    partial["events"].insert(at, {"type": "nomination", "day": 2, "by": 10, "target": 5})
    found = refusals(partial, RFM)
    assert len(found) == 1 and f"events[{at}]" in found[0] and "(rfm" in found[0]


def test_votes_on_the_sheet_without_counts_refuse_no_nomination_of_a_later_day() -> None:
    # the sheet lists every vote but no count (the judge counts from the video): the rules replay the days with a
    # vote not yet counted from the sheet's own eliminations, so day 4's nominations (rfm 4.4.4) are not refused as
    # made after the game was over; a seat that has left nominating is still refused, with its own event
    partial = truth()
    for e in partial["events"]:
        if e["type"] in VOTE_TYPES:
            for name in ("count", "voters", "t", "cutoff", "announced"):
                e.pop(name, None)
    assert refusals(partial, RFM) == []
    at = next(i for i, e in enumerate(partial["events"]) if e.get("type") == "nomination" and e["day"] == 2)
    partial["events"].insert(at, {"type": "nomination", "day": 2, "by": 10, "target": 5})
    found = refusals(partial, RFM)
    assert len(found) == 1 and found[0].startswith(f"events[{at}]") and "(rfm" in found[0]


def test_listening_spans_are_where_the_timed_phases_leave_the_votes() -> None:
    # the sample's voting phases (0, 50, 114, 159) and the nights after them (22, 86, 137) bound each day's votes
    m = LISTEN_MARGIN_S
    spans = listening_spans(partial_of(truth()), RFM)
    assert spans == [(0 - m, 22 + m), (50 - m, 86 + m), (114 - m, 137 + m), (159 - m, float("inf"))]
    for e in votes(truth()):  # every vote, its call to its count, lies inside one of them
        assert any(a <= e["t"] - 3 and e["announced"] + 3 <= b for a, b in spans)


def test_without_timed_phases_or_with_a_timed_vote_the_whole_track_is_listened_to() -> None:
    untimed = partial_of(truth())
    for e in untimed["events"]:
        e.pop("t", None)
    assert listening_spans(untimed, RFM) == [(-float("inf"), float("inf"))]
    one_timed = partial_of(truth())
    one_timed["events"].insert(6, copy.deepcopy(votes(truth())[0]))
    assert listening_spans(one_timed, RFM) is None
