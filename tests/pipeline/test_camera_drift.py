"""A camera whose clock drifts (`videos[].drift_ppm`): its hands are put on the main camera's clock with the drift
corrected, so a hand near the end of an hour's game is judged where it really was; with the one constant offset
that is right at the middle of the game instead, the same hand is misjudged."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest
from corrections import one_vote_game
from fakes import ScriptedCameras

from contract.clock import Clock
from contract.jsonio import write_json
from contract.observations import HandInterval, Observations
from pipeline.audit import audit_game
from pipeline.cameras import audit_cameras, look
from review.audit.findings import AuditReport
from review.game.profiles import get_profile
from review.game.protocol import load_protocol

LATE = 3500.0  # the vote is near the end of an hour's game: drift has piled up
T5, CUT5, ANN5 = LATE + 2.0, LATE + 3.5, LATE + 4.3
T7, CUT7, ANN7 = LATE + 6.0, LATE + 7.5, LATE + 8.3
OFFSET, DRIFT = 2.0, 100.0  # camera b: started 2 s before a, and its clock runs 100 millionths slow
MIDDLE = 1800.0  # the game's middle: where the best constant offset is exact
CLOCK = Clock.constant(25.0, 25 * 3600)


def b_time(t: float) -> float:
    """A protocol time on camera b's clock (docs/formats.md, "Several cameras")."""
    return OFFSET + t * (1 + DRIFT * 1e-6)


def game(tmp_path: Path, drift: float | None) -> Path:
    """One vote near the end of the game, filmed by a (no drift) and b: with `drift`, b's offset and drift as
    measured; with None, the one constant offset exact at the game's middle."""
    data = one_vote_game()
    for ev in data["events"]:
        if ev.get("candidate") == 5:
            ev.update(t=T5, cutoff=CUT5, announced=ANN5)
        elif ev.get("candidate") == 7:
            ev.update(t=T7, cutoff=CUT7, announced=ANN7)
    b: dict[str, Any] = {"id": "b", "path": "b.mp4", "offset": OFFSET, "seats": "b.seats.json"}
    if drift is None:
        b["offset"] = b_time(MIDDLE) - MIDDLE
    else:
        b["drift_ppm"] = drift
    data["video"] = {"path": "a.mp4", "offset_s": 0.0}
    data["videos"] = [{"id": "a", "path": "a.mp4", "offset": 0.0, "seats": "a.seats.json"}, b]
    write_json(tmp_path / "g.protocol.json", data)
    write_json(tmp_path / "a.seats.json", seat_map(big=range(1, 6)))
    write_json(tmp_path / "b.seats.json", seat_map(big=range(6, 11)))
    return tmp_path / "g.protocol.json"


def seat_map(big: Collection[int]) -> dict[str, Any]:
    seats = {}
    for n in range(1, 11):
        side, x = (100 if n in big else 40), 120 * (n - 1) + 10
        seats[str(n)] = {"zone": [[x, 300], [x + side, 300], [x + side, 300 + side], [x, 300 + side]]}
    return {"format": "stopframe-seats/1", "frame_size": [1280, 720], "seats": seats}


def hands(on_seat_6: float, move: Any = float, leave_out: tuple[int, ...] = ()) -> list[HandInterval]:
    """Every seat votes for the protocol's candidate (seat 6's hand at `on_seat_6`), on a camera's clock (`move`)."""
    out = []
    for seat in (s for s in range(1, 11) if s not in leave_out):
        t, end = (T5, ANN5) if seat in (2, 3, 9, 10) else (T7, ANN7)
        on = on_seat_6 if seat == 6 else t + 0.3
        out.append(HandInterval(seat, move(on), move(end + 0.4), "thumb_up_fist", 0.9, None, None, 1.0))
    return out


def filmed(on_seat_6: float) -> ScriptedCameras:
    """Camera a misses seat 6's hand (a player leans in front of it); camera b shows every hand."""
    a = Observations(tuple(hands(on_seat_6, leave_out=(6,))), 25.0, (), None, ((LATE, LATE + 12),))
    b = Observations(tuple(hands(on_seat_6, b_time)), 25.0, (), None, ((b_time(LATE), b_time(LATE + 12)),))
    return ScriptedCameras(CLOCK, {"a.mp4": a, "b.mp4": b})


def both(protocol: Path, fake: ScriptedCameras) -> AuditReport:
    proto = load_protocol(protocol)
    views = look(proto, marks=[], model="full", observer=fake, observations=None, say=lambda _m: None,
                 progress=lambda _w: (lambda _d, _t: None))
    return audit_cameras(proto, views, profile=get_profile("rfm"))


def lates(report: AuditReport) -> list[tuple[int | None, float | None]]:
    return [(f.seat, f.t) for f in report.findings if f.kind == "late_vote"]


def test_a_hand_in_time_late_in_the_game_is_in_time_with_the_drift_and_late_with_one_constant_offset(
        tmp_path: Path) -> None:
    in_time = CUT7 - 0.1  # 0.1 s before «Стоп»; the constant offset puts it 0.17 s later at this point of the game
    assert lates(both(game(tmp_path, DRIFT), filmed(in_time))) == []
    assert [seat for seat, _ in lates(both(game(tmp_path, None), filmed(in_time)))] == [6]


def test_a_late_hand_seen_only_by_the_drifting_camera_is_late_at_its_true_time_with_frames_from_each(
        tmp_path: Path) -> None:
    late_on = CUT7 + 0.1
    report = both(game(tmp_path, DRIFT), filmed(late_on))
    (seat, t), = lates(report)
    assert seat == 6 and t == pytest.approx(late_on, abs=1e-6)
    late = next(f for f in report.findings if f.kind == "late_vote")
    cams = {c.id: c for c in late.cameras}
    assert cams["b"].evidence and not cams["a"].evidence
    assert list(cams["b"].times) == [pytest.approx(b_time(x), abs=1e-3) for x in cams["a"].times]


def test_the_drifting_camera_is_looked_at_over_the_same_moments_on_its_own_clock(tmp_path: Path) -> None:
    fake = filmed(CUT7 - 0.1)
    report = audit_game(protocol=game(tmp_path, DRIFT), observer=fake)
    assert lates(report) == []
    (a0, a1), = fake.asked["a.mp4"]
    (b0, b1), = fake.asked["b.mp4"]
    assert (b0, b1) == (pytest.approx(b_time(a0), abs=1e-9), pytest.approx(b_time(a1), abs=1e-9))


def test_the_drifting_camera_alone_is_audited_on_its_own_clock_with_its_drift(tmp_path: Path) -> None:
    """`audit_game(video=b.mp4)`: the vote windows are put on b's clock with the drift (Clock.of_protocol finds
    the camera's drift by its file), so the hand in time stays in time and the late one is late."""
    for on, late in ((CUT7 - 0.1, False), (CUT7 + 0.1, True)):
        report = audit_game(protocol=game(tmp_path, DRIFT), video=tmp_path / "b.mp4", observer=filmed(on))
        assert report.video == "b.mp4"
        assert lates(report) == ([(6, pytest.approx(b_time(on), abs=1e-6))] if late else [])
