"""The vote audit on committed observations (no MediaPipe): what a judge is told, under each profile.

The fixture `day_vote` is day 1 of a game, candidates 3, 5, 8 (t / «Стоп» / count at 10.00 / 11.52 / 12.52,
14.00 / 15.52 / 16.52, 18.00 / 19.52 / 20.52), 25 fps. What its hands show:
seat 9 lands exactly at candidate 3's cutoff (late) and the judge counted it (3 instead of 2);
seat 7's hand is on the table 0.4 s before candidate 5 is named; seat 10 lifts after «Стоп» but before
the count; seat 2 votes for 3 and again for 8; seat 5 votes for 8 with an open palm; seat 8 places no hand;
seat 1 has an idle hand in its zone at 2–3 s, long before any vote.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from contract.observations import HandInterval as Hand
from contract.observations import observations_from_json
from review.audit.audit import audit, place
from review.audit.findings import AUDIT_FORMAT
from review.game.profiles import get_profile
from review.game.timeline import vote_windows

FIX = Path(__file__).parents[1] / "fixtures" / "audit"


def _load(name: str) -> dict:
    return json.loads((FIX / name).read_text(encoding="utf-8"))


@pytest.fixture()
def protocol() -> dict:
    return _load("day_vote.protocol.json")


@pytest.fixture()
def obs() -> dict:
    return _load("day_vote.observations.json")


def _by_id(report):
    return {f.identity: f for f in report.findings}


def _summary(report):
    """identity -> (clause, consequence type) for every finding."""
    return {f.identity: (f.clause, f.consequence.type) for f in report.findings}


# ---------------------------------------------------------------- exact findings per profile

EXPECTED = {
    "rfm": {
        ("late_vote", 1, 1, 3, 9): ("rfm 4.4.7", "not_counted"),
        ("count_mismatch", 1, 1, 3, None): ("rfm 7.1.2.3", "none"),
        ("early_hand", 1, 1, 5, 7): ("rfm 5.9.6", "foul"),
        ("lifted_early", 1, 1, 5, 10): ("rfm 4.4.8", "foul"),
        ("double_vote", 1, 1, 8, 2): ("rfm 5.10.4", "fine"),
        ("wrong_form", 1, 1, 8, 5): ("rfm 5.12.13", "removal"),
        ("no_vote", 1, 1, None, 8): ("rfm 5.10.1", "fine"),
        # Seat 8 gets everyone not counted for 3 or 5 (rfm 4.4.10): 10 - 2 - 4 = 4, not 3.
        ("count_mismatch", 1, 1, 8, None): ("rfm 7.1.2.3", "none"),
    },
    "mafclub": {
        ("late_vote", 1, 1, 3, 9): ("mafclub 2.4.5", "not_counted"),
        ("count_mismatch", 1, 1, 3, None): ("mafclub 2.4.6", "none"),
        ("early_hand", 1, 1, 5, 7): ("mafclub 2.4.5", "none"),
        ("lifted_early", 1, 1, 5, 10): None,  # clause checked below: the lift after «Спасибо»
        ("double_vote", 1, 1, 8, 2): ("mafclub 2.4.9", "warning"),
        ("wrong_form", 1, 1, 8, 5): ("mafclub 2.4.6", "not_counted"),
        ("no_vote", 1, 1, None, 8): ("mafclub 2.4.10", "counted_for_last"),
        # Seat 8 gets everyone not counted for 3 or 5 (2.4.10): at least 10 - 2 - 4 = 4, not 3.
        ("count_mismatch", 1, 1, 8, None): ("mafclub 2.4.6", "none"),
    },
    "lvi2015": {
        ("late_vote", 1, 1, 3, 9): ("lvi2015 5.3", "not_counted"),
        ("count_mismatch", 1, 1, 3, None): ("lvi2015 5.3", "none"),
        ("early_hand", 1, 1, 5, 7): ("lvi2015 5.3", "none"),
        # no lifted_early: under lvi2015 the hand need only stay until «спасибо» (5.3)
        ("double_vote", 1, 1, 8, 2): ("lvi2015 5.2", "none"),
        ("wrong_form", 1, 1, 8, 5): ("lvi2015 5.3", "none"),
        ("no_vote", 1, 1, None, 8): ("lvi2015 5.4", "counted_for_last"),
        ("count_mismatch", 1, 1, 8, None): ("lvi2015 5.3", "none"),
    },
    "showtime": {
        ("late_vote", 1, 1, 3, 9): ("showtime ¶10", "not_counted"),
        ("count_mismatch", 1, 1, 3, None): ("showtime ¶10", "none"),
        ("early_hand", 1, 1, 5, 7): ("showtime ¶10", "none"),
        ("double_vote", 1, 1, 8, 2): ("showtime ¶27", "warning"),
        ("wrong_form", 1, 1, 8, 5): ("showtime ¶10", "not_counted"),
        ("no_vote", 1, 1, None, 8): ("showtime ¶10", "none"),
        # showtime gives a silent player's vote to nobody: seat 8's count is only the hands (1-3).
    },
}


@pytest.mark.parametrize("rules", sorted(EXPECTED))
def test_every_finding_with_its_profiles_clause_and_consequence(protocol, obs, rules):
    protocol["rules"] = rules
    report = audit(protocol, obs)
    got = _summary(report)
    assert set(got) == set(EXPECTED[rules])
    for identity, expected in EXPECTED[rules].items():
        if expected is not None:
            assert got[identity] == expected, identity


def test_mafclub_2_4_8_lift_after_spasibo_cites_both_clauses(protocol, obs):
    protocol["rules"] = "mafclub"
    f = _by_id(audit(protocol, obs))[("lifted_early", 1, 1, 5, 10)]
    assert f.clause.startswith("mafclub 2.4.")
    assert f.t == pytest.approx(15.92)


def test_rfm_4_4_8_lift_between_stop_and_count_flags_5_9_5_too(protocol, obs):
    f = _by_id(audit(protocol, obs))[("lifted_early", 1, 1, 5, 10)]
    assert f.clause == "rfm 4.4.8" and f.extra["x_also_clause"] == "rfm 5.9.5"
    assert f.evidence.frames == (398, 413)  # the frame the hand is gone, the frame the count is announced


def test_the_rules_override_gives_the_same_as_the_protocols_rules(protocol, obs):
    from review.game.profiles import get_profile

    direct = audit(dict(protocol, rules="mafclub"), obs)
    overridden = audit(protocol, obs, profile=get_profile("mafclub"))
    assert direct.to_json()["findings"] == overridden.to_json()["findings"]
    assert overridden.rules == "mafclub"


# ---------------------------------------------------------------- window edges


def test_rfm_4_4_7_hand_exactly_at_the_cutoff_is_late_one_frame_before_is_in_time(protocol, obs):
    report = audit(protocol, obs)
    late = _by_id(report)[("late_vote", 1, 1, 3, 9)]
    assert late.t == 11.52 and late.extra["x_raw_confidence"] == pytest.approx(0.95 * 0.5, abs=1e-4)  # the audit's own score: half sure
    assert late.evidence.frames == (288,)  # the cutoff frame is the landing frame
    obs["hands"][2].update(on=11.48, on_frame=287)
    report = audit(protocol, obs)
    assert ("late_vote", 1, 1, 3, 9) not in _by_id(report)
    vote3 = report.votes[0]
    assert vote3.video_voters == (1, 2, 9) and vote3.video_count == 3
    assert ("count_mismatch", 1, 1, 3, None) not in _by_id(report)


def test_early_hand_must_still_be_there_when_the_candidate_is_named():
    protocol = _load("day_vote.protocol.json")
    windows = vote_windows(protocol)[:2]
    present = Hand(7, 13.6, 16.8)
    gone = Hand(7, 13.0, 13.9)
    exactly_at_t = Hand(7, 14.0, 16.8)
    assert place(present, windows).status == "early" and place(present, windows).window == 1
    assert place(gone, windows).status == "late" and place(gone, windows).window == 0
    assert place(exactly_at_t, windows).status == "in_time"
    assert place(Hand(1, 2.0, 3.0), windows) is None  # an idle hand long before the round


def test_a_two_frame_detector_blink_is_not_a_lift(protocol, obs):
    # seat 4's hand vanishes for two frames in the middle of its vote
    obs["hands"].append({"seat": 4, "on": 15.0, "off": 16.72, "pose": "thumb_up_fist", "confidence": 0.9,
                         "on_frame": 375, "off_frame": 418})
    obs["hands"][4].update(off=14.92, off_frame=373)
    assert ("lifted_early", 1, 1, 5, 4) not in _by_id(audit(protocol, obs))


def test_an_open_palm_read_on_only_some_frames_is_no_wrong_form_and_the_count_stands(protocol, obs):
    steady = audit(protocol, obs)
    palm = next(h for h in obs["hands"] if h["pose"] == "open_palm")
    palm["x_pose_share"] = 0.6  # the frames disagree: a fist misread as open on some of them
    flicker = audit(protocol, obs)
    ident = ("wrong_form", 1, 1, 8, palm["seat"])
    assert ident in _by_id(steady) and ident not in _by_id(flicker)
    assert [v.video_voters for v in flicker.votes] == [v.video_voters for v in steady.votes]


def test_a_plain_fist_read_unsure_is_no_wrong_form_where_the_thumb_must_be_up(protocol, obs):
    # vision weighs an unsure thumb reading in no pose's share, so a fist read so has a low
    # x_pose_share; under mafclub (thumb up only) a plain fist becomes a wrong_form only from a steady reading
    fist = next(h for h in obs["hands"] if h["seat"] == 1 and h["pose"] == "thumb_up_fist")
    fist["pose"] = "fist"
    ident = ("wrong_form", 1, 1, 3, 1)
    assert ident in _by_id(audit(protocol, obs, profile=get_profile("mafclub")))
    fist["x_pose_share"] = 0.3
    unsure = audit(protocol, obs, profile=get_profile("mafclub"))
    assert ident not in _by_id(unsure)


# ---------------------------------------------------------------- cannot see, dead seats


def test_a_seat_missing_from_the_seat_map_is_cannot_see_never_no_vote(protocol, obs):
    report = audit(protocol, obs, visible_seats=[s for s in range(1, 11) if s != 8])
    found = _by_id(report)
    assert ("no_vote", 1, 1, None, 8) not in found
    assert {i for i in found if i[0] == "cannot_see"} == {("cannot_see", 1, 1, c, 8) for c in (3, 5, 8)}
    last = report.votes[2]
    assert 8 not in last.silent_seats
    # seat 8 may have voted for 3, for 5 or for 8: the protocol's 3 for seat 8 is now possible
    assert last.extra["x_supported_count"] == [3, 4]
    assert ("count_mismatch", 1, 1, 8, None) not in found


def test_a_seat_vision_could_not_watch_during_one_window_is_cannot_see_there(protocol, obs):
    obs["x_unseen"] = [{"seat": 8, "start": 17.0, "end": 21.0, "why": "the seat's view is dark or covered"}]
    found = _by_id(audit(protocol, obs))
    assert ("cannot_see", 1, 1, 8, 8) in found and ("cannot_see", 1, 1, 3, 8) not in found
    assert found[("cannot_see", 1, 1, 8, 8)].text.endswith("its vote is unknown.")
    assert ("no_vote", 1, 1, None, 8) not in found


def test_hands_of_a_seat_killed_at_night_are_ignored(protocol, obs):
    events = protocol["events"]
    for ev in events:
        if "day" in ev:
            ev["day"] = 2
    killed = [{"type": "phase", "phase": "night", "number": 1}, {"type": "shooting", "night": 1, "target": 9},
              {"type": "phase", "phase": "day", "number": 2}]
    protocol["events"] = events[:2] + killed + [e for e in events[2:] if e.get("type") != "phase" or e["phase"] == "voting"]
    for ev in protocol["events"]:
        if ev["type"] == "phase" and ev["phase"] == "voting":
            ev["number"] = 2
    report = audit(protocol, obs)
    assert not [f for f in report.findings if f.seat == 9]
    assert 9 not in report.votes[2].silent_seats


# ---------------------------------------------------------------- assumed times


def test_findings_on_a_default_time_say_so_and_are_less_sure(protocol, obs):
    del protocol["events"][6]["cutoff"], protocol["events"][6]["announced"]  # cutoff = t + 1.5 = 11.5
    report = audit(protocol, obs)
    late = _by_id(report)[("late_vote", 1, 1, 3, 9)]
    assert late.assumed_times == ("cutoff",)
    assert late.extra["x_raw_confidence"] == pytest.approx(0.95 * 0.75 * 0.6, abs=1e-4)  # half a frame late, assumed
    assert report.votes[0].extra["x_assumed_times"] == ["cutoff", "announced"]
    assert _by_id(report)[("early_hand", 1, 1, 5, 7)].assumed_times == ()


def test_a_vote_without_any_time_is_listed_but_not_audited(protocol, obs):
    for ev in protocol["events"][6:9]:
        for k in ("t", "cutoff", "announced"):
            ev.pop(k)
    report = audit(protocol, obs)
    assert report.findings == ()
    assert [v.video_count for v in report.votes] == [None, None, None]
    assert len(report.to_json()["x_untimed_votes"]) == 3


# ---------------------------------------------------------------- what follows


def test_rfm_7_1_2_3_the_video_counts_would_have_tied_5_and_8(protocol, obs):
    report = audit(protocol, obs)
    outcome = report.votes[0].outcome
    assert outcome.changed
    assert "5" in outcome.protocol and "leave" in outcome.protocol
    assert "tie" in outcome.video and "5" in outcome.video and "8" in outcome.video
    assert [v.video_count for v in report.votes] == [2, 4, 3]  # hands seen in time: 1 2 | 4 6 7 10 | 2 3 5
    assert report.votes[2].silent_seats == (8, 9)


def test_rfm_7_1_2_3_another_player_would_have_left(protocol, obs):
    protocol["events"][6]["count"] = 5  # the judge saw 5 hands for seat 3: seat 3 leaves by the protocol
    protocol["events"][8]["count"] = 1
    report = audit(protocol, obs)
    outcome = report.votes[0].outcome
    assert outcome.changed and "3" in outcome.protocol
    mismatch = _by_id(report)[("count_mismatch", 1, 1, 3, None)]
    assert mismatch.seats == (9,) and mismatch.extra["x_video_count"] == 2


def test_when_the_protocol_lists_voters_the_differing_seats_are_named(protocol, obs):
    protocol["events"][7]["voters"] = [4, 6, 7, 9]  # seat 9 instead of seat 10
    mismatch = _by_id(audit(protocol, obs))[("count_mismatch", 1, 1, 5, None)]
    assert mismatch.seats == (9, 10)


def test_a_clean_vote_has_no_findings_and_no_changed_outcome(protocol, obs):
    clean = [h for h in obs["hands"] if h["seat"] not in (2, 5, 7, 9, 10) or h["on"] < 18]
    clean = [h for h in clean if h["seat"] not in (7, 9, 10)]
    clean += [
        {"seat": 7, "on": 14.2, "off": 16.8, "pose": "thumb_up_fist", "confidence": 0.9, "on_frame": 355, "off_frame": 420},
        {"seat": 10, "on": 14.32, "off": 16.8, "pose": "thumb_up_fist", "confidence": 0.9, "on_frame": 358, "off_frame": 420},
        {"seat": 9, "on": 18.28, "off": 20.8, "pose": "thumb_up_fist", "confidence": 0.9, "on_frame": 457, "off_frame": 520},
        {"seat": 5, "on": 18.36, "off": 20.8, "pose": "thumb_up_fist", "confidence": 0.9, "on_frame": 459, "off_frame": 520},
        {"seat": 8, "on": 18.44, "off": 20.8, "pose": "thumb_up_fist", "confidence": 0.9, "on_frame": 461, "off_frame": 520},
    ]
    obs["hands"] = clean
    # votes: 3 <- 1, 2 ; 5 <- 4, 6, 7, 10 ; 8 <- 3, 5, 8, 9
    for ev, count in zip(protocol["events"][6:9], (2, 4, 4), strict=True):
        ev["count"] = count
    report = audit(protocol, obs)
    assert report.findings == ()
    assert not report.votes[0].outcome.changed
    assert report.votes[2].silent_seats == ()


# ---------------------------------------------------------------- the report document


def test_report_is_stopframe_audit_1_with_spec_fields(protocol, obs):
    data = audit(protocol, obs, video="day_vote.mp4").to_json()
    assert data["format"] == AUDIT_FORMAT and data["video"] == "day_vote.mp4" and data["rules"] == "rfm"
    assert list(data["votes"][0])[:11] == ["kind", "day", "round", "candidate", "protocol_count", "protocol_voters",
                                          "video_voters", "video_count", "silent_seats", "confidence", "outcome"]
    for f in data["findings"]:
        assert {"kind", "seat", "seats", "day", "night", "round", "candidate", "t", "clause", "consequence",
                "confidence", "assumed_times", "evidence"} <= set(f)
        assert 0.0 <= f["confidence"] <= 1.0 and f["evidence"]["frames"]
    times = [f["t"] for f in data["findings"]]
    assert times == sorted(times)


def test_observations_json_is_checked(obs):
    """Spec §6: no observations file at all is unreadable (exit 2); one that does not fit is invalid (exit 1)."""
    from contract.errors import InvalidInput, UnreadableInput

    with pytest.raises(InvalidInput, match="fps"):
        observations_from_json(dict(obs, fps=0))
    with pytest.raises(UnreadableInput, match="stopframe-observations/2.*not supported"):
        observations_from_json(dict(obs, format="stopframe-observations/2"))
    bad = copy.deepcopy(obs)
    bad["hands"][0].pop("on")
    with pytest.raises(InvalidInput, match=r"hands\[0\]\.on: missing"):
        observations_from_json(bad)


# ---------------------------------------------------------------- fouls before the vote, lift votes


def test_rfm_5_10_3_a_lift_that_would_be_the_4th_foul_is_a_small_fine_instead(protocol, obs):
    fouls = [{"type": "foul", "seat": 10, "reason": "gesture", "clause": "rfm 5.9.7"}] * 3
    protocol["events"] = protocol["events"][:5] + fouls + protocol["events"][5:]
    f = _by_id(audit(protocol, obs))[("lifted_early", 1, 1, 5, 10)]
    assert (f.clause, f.consequence.type, f.consequence.points) == ("rfm 5.10.3", "fine", -0.2)


def _tie_then_lift(yes: int) -> dict:
    data = _load("day_vote.protocol.json")
    data["events"] = data["events"][:4] + [data["events"][5]] + [
        {"type": "vote", "day": 1, "round": 1, "candidate": 3, "count": 5},
        {"type": "vote", "day": 1, "round": 1, "candidate": 5, "count": 5},
        {"type": "vote", "day": 1, "round": 2, "candidate": 3, "count": 5},
        {"type": "vote", "day": 1, "round": 2, "candidate": 5, "count": 5},
        {"type": "lift_vote", "day": 1, "round": 3, "candidates": [3, 5], "count": yes,
         "t": 40.0, "cutoff": 41.52, "announced": 42.52},
    ]
    return data


def _hand(seat: int, on: float, off: float, pose: str = "thumb_up_fist") -> dict:
    return {"seat": seat, "on": on, "off": off, "pose": pose, "confidence": 0.9,
            "on_frame": round(on * 25), "off_frame": round(off * 25)}


def test_rfm_4_4_13_3_lift_vote_miscounted_the_tied_would_have_stayed():
    data = _tie_then_lift(6)
    obs = {"format": "stopframe-observations/1", "video": "tie.mp4", "fps": 25,
           "hands": [_hand(s, 40.4, 42.8) for s in (1, 2, 4, 6, 7)] + [_hand(9, 41.6, 42.8)]}
    report = audit(data, obs)
    (lift,) = [v for v in report.votes if v.kind == "lift"]
    assert lift.candidates == (3, 5) and lift.video_voters == (1, 2, 4, 6, 7)
    assert lift.outcome.changed and lift.outcome.protocol == "seats 3, 5 leave" and lift.outcome.video == "all stay"
    found = _by_id(report)
    assert set(found) == {("late_vote", 1, 3, None, 9), ("count_mismatch", 1, 3, None, None)}
    assert found[("late_vote", 1, 3, None, 9)].to_json()["x_candidates"] == [3, 5]
    assert found[("count_mismatch", 1, 3, None, None)].seats == (9,)
    # the earlier rounds have no times: listed, not audited, and nobody is blamed for "no vote" in a lift vote
    assert [v.video_count for v in report.votes[:4]] == [None] * 4


def test_a_hand_left_down_from_the_last_vote_is_early_for_the_next_candidate(protocol, obs):
    obs["hands"][0].update(off=14.4, off_frame=360)  # seat 1 votes for 3 and keeps the hand down past 14.0
    report = audit(protocol, obs)
    f = _by_id(report)[("early_hand", 1, 1, 5, 1)]
    assert f.t == 14.0 and "still on the table when candidate 5" in f.text
    assert ("double_vote", 1, 1, 5, 1) not in _by_id(report)
    # the judge may or may not have counted it for 5: the protocol's 4 and a 5 are both consistent
    assert report.votes[1].extra["x_supported_count"] == [4, 5]
    assert ("count_mismatch", 1, 1, 5, None) not in _by_id(report)


def test_a_hand_lifted_and_put_back_after_the_cutoff_is_one_vote_lifted_early_not_late(protocol, obs):
    obs["hands"][4].update(off=15.2, off_frame=380)  # seat 4 lifts at 15.2 ...
    obs["hands"].append(_hand(4, 15.8, 16.72))  # ... and puts it back after «Стоп»
    found = _by_id(audit(protocol, obs))
    assert ("lifted_early", 1, 1, 5, 4) in found
    assert ("late_vote", 1, 1, 5, 4) not in found


def test_a_vote_outside_the_stretches_vision_looked_at_is_cannot_see_never_no_vote(protocol, obs):
    """Spec §4: a seat nobody watched is "cannot see", never "did not vote"."""
    obs["x_windows"] = [[8.5, 14.5]]  # only candidate 3's window was decoded
    report = audit(protocol, obs)
    assert {f.kind for f in report.findings} == {"cannot_see"}  # nobody is blamed for "no vote"
    assert sorted(f.seat for f in report.findings) == list(range(1, 11))
    assert [v.video_count for v in report.votes] == [None, None, None]
    assert len(report.to_json()["x_unobserved_votes"]) == 3
    obs["x_windows"] = [[8.5, 22.0]]
    assert len(audit(protocol, obs).findings) == 8


