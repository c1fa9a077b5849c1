"""The night audit (review/audit/night.py): the shooting, the checks and the night pose, without pixels."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

import pytest

from contract.clock import Clock
from contract.night import NightSeen, Raised, ShownNumber
from review.audit.findings import NIGHT_KINDS, identity_of
from review.audit.night import (
    DEFAULT_CADENCE_S,
    audit_nights,
    called_seats,
    count_calls,
    night_windows,
    observe_spans,
)
from review.game.profiles import Consequence, get_profile

ROLES = {2: "mafia", 7: "don", 9: "mafia", 4: "sheriff"}
COUNT_START = 4.2  # the first number of the count; one a second (DEFAULT_CADENCE_S)


def game(rules: str = "rfm", target: int | None = 10, out: tuple[int, ...] = (), **shooting: object) -> dict:
    """Night 1 of a game: optional day-1 eliminations, the shooting at t = 4.2, the Don's and the Sheriff's checks."""
    events: list[dict] = [{"type": "phase", "phase": "night", "number": 0}, {"type": "phase", "phase": "day", "number": 1}]
    for s in out:
        events.append({"type": "removal", "seat": s, "reason": "test", "clause": "rfm 5.12.1"})
    events += [
        {"type": "phase", "phase": "night", "number": 1, "t": 0.0},
        {"type": "shooting", "night": 1, "target": target, "t": COUNT_START, **shooting},
        {"type": "check", "night": 1, "by": "don", "target": 4, "result": "sheriff", "t": 16.8},
        {"type": "check", "night": 1, "by": "sheriff", "target": 9, "result": "black", "t": 22.0},
    ]
    return {
        "format": "stopframe-protocol/1", "rules": rules,
        "players": [{"seat": s, "nickname": f"P{s}", "role": ROLES.get(s, "civilian")} for s in range(1, 11)],
        "events": events,
    }


def fire_on(k: int, cadence: float = DEFAULT_CADENCE_S) -> float:
    """A firing 0.28 s after the k-th number of the count is called."""
    return COUNT_START + (k - 1) * cadence + 0.28


def seen(fires: dict[int, float | None], shown: dict[int, tuple[float, int]] | None = None,
         extra: list[Raised] = ()) -> dict:
    raised = [Raised(s, 3.2, 14.2, 1, f).to_json() for s, f in fires.items()] + [r.to_json() for r in extra]
    numbers = [ShownNumber(s, t, n).to_json() for s, (t, n) in (shown or {7: (16.8, 4), 4: (22.0, 9)}).items()]
    return {"format": "stopframe-observations/1", "fps": 25, "hands": [], "x_raised": raised, "x_shown_numbers": numbers}


def kinds(result) -> set[tuple]:
    return {f.identity for f in result.findings}


# ---------------------------------------------------------------- the judge's count


def test_rfm_4_5_3_judge_calls_every_number_1_to_10() -> None:
    assert called_seats(get_profile("rfm"), (1, 2, 4, 5, 7, 8)) == tuple(range(1, 11))


@pytest.mark.parametrize("rules", ["mafclub", "showtime"])
def test_mafclub_2_5_2_judge_calls_only_seats_at_the_table(rules: str) -> None:
    assert called_seats(get_profile(rules), (8, 1, 2, 4, 5, 7)) == (1, 2, 4, 5, 7, 8)


def test_the_same_firing_aims_at_another_seat_when_only_living_seats_are_called() -> None:
    """The third number called is seat 3 under rfm but seat 4 under mafclub when seat 3 has left."""
    living = (1, 2, 4, 5, 6, 7, 8, 9, 10)
    ev = {"type": "shooting", "night": 1, "target": None, "t": COUNT_START}
    rfm = count_calls(ev, called_seats(get_profile("rfm"), living))
    mafclub = count_calls(ev, called_seats(get_profile("mafclub"), living))
    assert rfm.target_of(fire_on(3))[0] == 3
    assert mafclub.target_of(fire_on(3))[0] == 4


def test_count_times_from_the_protocol_win_over_heard_cues_and_the_default() -> None:
    ev = {"type": "shooting", "night": 1, "target": None, "t": 4.0, "x_count_times": [4.0, 5.5, 7.0]}
    calls = count_calls(ev, (1, 2, 3), clock=Clock(None, offset_s=10.0), cues=[{"kind": "shoot_count", "t": 99.0}])
    assert calls.source == "protocol" and calls.times == (14.0, 15.5, 17.0)
    assert calls.target_of(16.0)[0] == 2


def test_heard_count_is_used_from_the_shootings_time_on() -> None:
    cues = [{"kind": "stop", "t": 1.0}] + [{"kind": "shoot_count", "t": 4.0 + 1.3 * k} for k in range(3)]
    calls = count_calls({"t": 4.1}, (1, 2, 3), cues=cues)
    assert calls.source == "cues" and calls.times == pytest.approx((4.0, 5.3, 6.6))


def test_untimed_shooting_is_not_aligned() -> None:
    assert count_calls({"type": "shooting", "night": 1, "target": 3}, (1, 2, 3)) is None


def test_a_firing_before_the_count_or_long_after_it_aims_at_nobody() -> None:
    calls = count_calls({"t": COUNT_START}, tuple(range(1, 11)))
    assert calls.target_of(COUNT_START - 1.0)[0] is None
    assert calls.target_of(fire_on(10) + 3.0)[0] is None


# ---------------------------------------------------------------- kill or miss


def test_rfm_4_5_4_all_blacks_on_one_number_kill_as_recorded_is_no_finding() -> None:
    result = audit_nights(game(target=10), seen({2: fire_on(10), 7: fire_on(10), 9: fire_on(10)}))
    shooting = result.rows[0]
    assert shooting["video_target"] == 10 and shooting["video_outcome"] == "kill"
    assert not [f for f in result.findings if f.kind == "shot_mismatch"]


def test_rfm_4_5_5_different_numbers_is_a_miss_not_the_recorded_kill() -> None:
    result = audit_nights(game(target=10), seen({2: fire_on(10), 7: fire_on(10), 9: fire_on(9)}))
    (f,) = [f for f in result.findings if f.kind == "shot_mismatch"]
    assert f.identity == ("shot_mismatch", 1, None)
    assert f.clause == "rfm 7.1.2.4" and f.consequence.type == "none"
    assert f.assumed_times == ("count_times",)  # no count times in the protocol: the default cadence
    assert f.evidence.frames == (round(fire_on(9) * 25), round(fire_on(10) * 25))
    assert f.extra["x_video_shots"] == {"2": 10, "7": 10, "9": 9}


def test_rfm_4_5_5_a_black_who_does_not_fire_makes_a_miss() -> None:
    result = audit_nights(game(target=10), seen({2: fire_on(10), 7: fire_on(10), 9: None}))
    assert ("shot_mismatch", 1, None) in kinds(result)
    assert "seat 9 did not shoot" in result.rows[0]["video_outcome"]


def test_recorded_miss_that_the_video_shows_as_a_kill() -> None:
    result = audit_nights(game(target=None), seen({2: fire_on(5), 7: fire_on(5), 9: fire_on(5)}))
    (f,) = [f for f in result.findings if f.kind == "shot_mismatch"]
    assert f.seats == (5,) and "seat 5 killed" in f.text


def test_recorded_miss_with_different_numbers_is_no_finding() -> None:
    result = audit_nights(game(target=None), seen({2: fire_on(5), 7: fire_on(6), 9: fire_on(5)}))
    assert ("shot_mismatch", 1, None) not in kinds(result)


def test_a_black_the_camera_cannot_see_leaves_a_kill_open() -> None:
    result = audit_nights(game(target=3), seen({2: fire_on(10), 7: fire_on(10)}), visible_seats=set(range(1, 11)) - {9})
    assert ("shot_mismatch", 1, None) not in kinds(result)
    assert result.rows[0]["video_outcome"] == "undetermined" and result.rows[0]["blind_seats"] == [9]


def test_mafclub_2_5_2_kill_on_the_living_count() -> None:
    """Seat 3 has left: under mafclub the 9th number called is seat 10, under rfm it is seat 9."""
    fires = {2: fire_on(9), 7: fire_on(9), 9: fire_on(9)}
    assert audit_nights(game("mafclub", target=10, out=(3,)), seen(fires)).rows[0]["video_target"] == 10
    assert audit_nights(game("rfm", target=9, out=(3,)), seen(fires)).rows[0]["video_target"] == 9


def test_protocol_count_times_remove_the_assumption() -> None:
    times = [COUNT_START + 1.5 * k for k in range(10)]
    result = audit_nights(game(target=10, x_count_times=times), seen({2: fire_on(4, 1.5), 7: fire_on(4, 1.5), 9: fire_on(4, 1.5)}))
    (f,) = [f for f in result.findings if f.kind == "shot_mismatch"]
    assert f.assumed_times == () and f.seats == (4, 10)


# ---------------------------------------------------------------- hands at night


def test_mafclub_3_8_8_red_hand_raised_during_the_shooting_is_a_removal() -> None:
    fires = {2: fire_on(10), 7: fire_on(10), 9: fire_on(10), 5: fire_on(10)}
    result = audit_nights(game("mafclub", target=10), seen(fires))
    (f,) = [f for f in result.findings if f.seat == 5]
    assert f.identity == ("night_hand", 1, 5)
    assert f.clause == "mafclub 3.8.8" and f.consequence.type == "removal"
    assert result.rows[0]["video_target"] == 10  # a red's fake shot does not change the outcome


def test_mafclub_3_8_8_needs_an_imitated_shot_an_open_hand_is_only_out_of_pose() -> None:
    fires = {2: fire_on(10), 7: fire_on(10), 9: fire_on(10)}
    result = audit_nights(game("mafclub", target=10), seen(fires, extra=[Raised(5, 6.0, 7.0, 4, None)]))
    (f,) = [f for f in result.findings if f.seat == 5]
    assert f.clause == "mafclub 2.5.1" and f.confidence < 0.5


def test_rfm_red_hand_in_the_shooting_is_a_disqualifying_foul() -> None:
    result = audit_nights(game(target=10), seen({2: fire_on(10), 7: fire_on(10), 9: fire_on(10), 1: None}))
    (f,) = [f for f in result.findings if f.seat == 1]
    assert f.clause == "rfm 5.12.10" and f.consequence.points == -1.2


def test_night_hands_cost_what_the_profiles_night_rules_say() -> None:
    """The night audit asks the profile (`night_rules`), so a profile's own clause reaches the finding."""
    rfm = get_profile("rfm")
    fake = Consequence("warning", "rfm 4.5.12.1", "Only game actions at night.")
    profile = replace(rfm, night_rules=(("red_hand", fake), ("pose", rfm.night_rule("pose"))))
    result = audit_nights(game(target=10), seen({2: fire_on(10), 7: fire_on(10), 9: fire_on(10), 1: None}), profile=profile)
    (f,) = [f for f in result.findings if f.seat == 1]
    assert (f.clause, f.consequence.type, f.consequence.text) == ("rfm 4.5.12.1", "warning", "Only game actions at night.")


def test_rfm_4_5_12_hand_raised_outside_the_seats_turn_is_a_low_severity_suggestion() -> None:
    brief = Raised(3, 18.0, 18.8, 1, None)
    long = Raised(8, 23.0, 27.0, 2, None)
    result = audit_nights(game(target=10), seen({2: fire_on(10), 7: fire_on(10), 9: fire_on(10)}, extra=[brief, long]))
    pose = {f.seat: f for f in result.findings if f.kind == "night_hand"}
    assert set(pose) == {3, 8}
    assert pose[3].clause == "rfm 4.5.12" and pose[3].consequence.type == "warning"
    assert pose[3].confidence < pose[8].confidence < 0.7  # passing < sustained, both suggestions


def test_the_don_showing_his_check_is_in_his_own_moment() -> None:
    result = audit_nights(game(target=10), seen({2: fire_on(10), 7: fire_on(10), 9: fire_on(10)},
                                               extra=[Raised(7, 16.5, 19.0, 4, None), Raised(4, 21.8, 24.0, 4, None)]))
    assert not [f for f in result.findings if f.kind == "night_hand"]


def test_hands_on_the_table_at_night_leave_the_night_pose() -> None:
    obs = seen({2: fire_on(10), 7: fire_on(10), 9: fire_on(10)})
    obs["hands"] = [{"seat": 6, "on": 8.0, "off": 12.0, "pose": "open_palm", "confidence": 0.9, "on_frame": 200, "off_frame": 300}]
    (f,) = [f for f in audit_nights(game(target=10), obs).findings if f.kind == "night_hand"]
    assert f.seat == 6 and "on the table" in f.text


# ---------------------------------------------------------------- checks


def test_rfm_7_1_2_1_sheriff_showing_another_number_than_recorded() -> None:
    result = audit_nights(game(target=10), seen({2: fire_on(10), 7: fire_on(10), 9: fire_on(10)},
                                               shown={7: (16.8, 4), 4: (22.1, 8)}))
    (f,) = [f for f in result.findings if f.kind == "check_mismatch"]
    assert f.identity == ("check_mismatch", 1, 4)
    assert f.clause == "rfm 7.1.2.1" and f.extra["x_video_number"] == 8 and f.evidence.frames == (552,)


def test_checks_as_recorded_are_no_finding() -> None:
    result = audit_nights(game(target=10), seen({2: fire_on(10), 7: fire_on(10), 9: fire_on(10)}))
    assert [r["video_number"] for r in result.rows if r["kind"] == "check"] == [4, 9]
    assert not result.findings


def test_a_number_shown_by_another_seat_is_not_the_check() -> None:
    result = audit_nights(game(target=10), seen({2: fire_on(10), 7: fire_on(10), 9: fire_on(10)},
                                               shown={3: (17.0, 6), 4: (22.0, 9)}))
    assert not [f for f in result.findings if f.kind == "check_mismatch"]


# ---------------------------------------------------------------- plumbing


def test_observations_round_trip_keeps_every_night_field() -> None:
    night = NightSeen((Raised(2, 3.2, 14.2, 1, 13.48, 0.9, (9.48, 13.48), 337),), (ShownNumber(7, 16.8, 4, 0.8, 420),),
                      ((1.7, 37.0),), (5, 6))
    fields = night.to_json_fields()
    assert fields["x_raised"][0]["x_fires"] == [9.48, 13.48]
    assert NightSeen.of({"format": "stopframe-observations/1", "fps": 25, **copy.deepcopy(fields)}) == night


def test_night_windows_cover_the_shooting_and_each_check() -> None:
    windows = night_windows(game(target=10))
    assert [(w.kind, w.seat) for w in windows] == [("shooting", None), ("check", 7), ("check", 4)]
    shootings, checks = observe_spans(windows)
    assert shootings[0][0] < COUNT_START and shootings[0][1] > fire_on(10)
    assert checks[0] == (14.8, 22.0)


def test_findings_serialise_as_spec_night_findings() -> None:
    result = audit_nights(game(target=10), seen({2: fire_on(10), 7: fire_on(10), 9: fire_on(9)}))
    data = result.findings[0].to_json()
    assert data["night"] == 1 and data["day"] is None and data["kind"] == "shot_mismatch"


GAME = Path(__file__).resolve().parents[2] / "sample_videos" / "game" / "sample_game"


def test_sample_game_nights_from_their_truth_give_exactly_the_planted_night_findings() -> None:
    """The sample game's protocol against its truth's hands at night: the shootings and checks as announced."""
    assert GAME.with_suffix(".truth.json").exists(), f"{GAME}.truth.json is missing: render it with `python3 -m sample_videos`."
    protocol = json.loads(GAME.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    truth = json.loads(GAME.with_suffix(".truth.json").read_text(encoding="utf-8"))
    obs = {"format": "stopframe-observations/1", "fps": truth["fps"], "hands": [],
           "x_raised": truth["raised"], "x_shown_numbers": truth["shown_numbers"]}
    result = audit_nights(protocol, obs, cues=truth["x_cues"])
    expected = {identity_of(f) for f in truth["expected_findings"] if f["kind"] in NIGHT_KINDS}
    assert {f.identity for f in result.findings} == expected
    mismatched = {night for kind, night, _ in expected if kind == "shot_mismatch"}
    shootings = [r for r in result.rows if r["kind"] == "shooting" and r["night"] not in mismatched]
    assert shootings and all(r["video_target"] == r["protocol_target"] for r in shootings)


def test_count_times_follow_a_drifting_camera_clock() -> None:
    """A camera 1000 ppm fast: the protocol's count times an hour in land 3.6 s later on its video."""
    ev = {"type": "shooting", "night": 3, "target": None, "t": 3600.0, "x_count_times": [3600.0, 3601.0, 3602.0]}
    calls = count_calls(ev, (1, 2, 3), clock=Clock.protocol_to(0.0, 1000.0))
    assert calls.times == pytest.approx((3603.6, 3604.6010, 3605.6020))
    assert calls.target_of(3604.7)[0] == 2
