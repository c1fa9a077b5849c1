"""The audit from several cameras (pipeline.cameras) on scripted observations: which camera's evidence a seat
takes, times moved onto the main camera's clock, disagreement, blindness, and the findings' `x_cameras`; then
the bundled two-camera clip from its saved observations, seat by seat against its truth."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest
from corrections import one_vote_game
from fakes import ScriptedCameras

from contract.clock import Clock
from contract.jsonio import write_json
from contract.observations import HandInterval, Observations, Unseen
from pipeline.audit import audit_game
from pipeline.cameras import CameraView, audit_cameras, look, merge
from review.audit.audit import audit
from review.audit.findings import AuditReport, identity_of
from review.game.profiles import get_profile
from review.game.protocol import load_protocol

ROOT = Path(__file__).resolve().parents[2]
CLIP = ROOT / "sample_videos" / "clips"
T5, CUT5, ANN5 = 2.0, 3.5, 4.3  # candidate 5: named, «Стоп», count (protocol clock)
T7, CUT7, ANN7 = 6.0, 7.5, 8.3
FAR_OFFSET = 2.0  # camera b started 2 s before camera a: b's time = protocol time + 2
CLOCK = Clock.constant(25.0, 25 * 14)  # each test video: 14 s at 25 fps


def game(tmp_path: Path, counts: tuple[int, int] = (4, 6)) -> Path:
    """One vote (5: seats 2, 3, 9, 10; 7: the other six), filmed by cameras a (offset 0) and b (offset 2 s)."""
    data = one_vote_game()
    for ev in data["events"]:
        if ev.get("candidate") == 5:
            ev.update(count=counts[0], t=T5, cutoff=CUT5, announced=ANN5)
        elif ev.get("candidate") == 7:
            ev.update(count=counts[1], t=T7, cutoff=CUT7, announced=ANN7)
    data["video"] = {"path": "a.mp4", "offset_s": 0.0}
    data["videos"] = [{"id": "a", "path": "a.mp4", "offset": 0.0, "seats": "a.seats.json"},
                      {"id": "b", "path": "b.mp4", "offset": FAR_OFFSET, "seats": "b.seats.json"}]
    write_json(tmp_path / "g.protocol.json", data)
    write_json(tmp_path / "a.seats.json", seat_map(big=range(1, 6), without=()))
    write_json(tmp_path / "b.seats.json", seat_map(big=range(6, 11), without=()))
    return tmp_path / "g.protocol.json"


def seat_map(big: Collection[int], without: tuple[int, ...]) -> dict[str, Any]:
    """Square zones in a row: 100 px wide for the seats `big` (near this camera), 40 px for the others."""
    seats = {}
    for n in range(1, 11):
        if n in without:
            continue
        side = 100 if n in big else 40
        x = 120 * (n - 1) + 10
        seats[str(n)] = {"zone": [[x, 300], [x + side, 300], [x + side, 300 + side], [x, 300 + side]]}
    return {"format": "stopframe-seats/1", "frame_size": [1280, 720], "seats": seats}


def hand(seat: int, on: float, off: float, shift: float = 0.0, pose: str = "thumb_up_fist", confidence: float = 0.9,
         share: float = 1.0) -> HandInterval:
    return HandInterval(seat, on + shift, off + shift, pose, confidence, None, None, share)


def truth_hands(shift: float = 0.0, leave_out: tuple[int, ...] = ()) -> list[HandInterval]:
    """Every seat votes once, in time, for the protocol's candidate: 2, 3, 9, 10 for 5, the rest for 7."""
    out = []
    for seat in range(1, 11):
        if seat in leave_out:
            continue
        t = T5 if seat in (2, 3, 9, 10) else T7
        out.append(hand(seat, t + 0.3, (ANN5 if t == T5 else ANN7) + 0.4, shift))
    return out


def observations(hands: list[HandInterval], shift: float = 0.0, unseen: tuple[Unseen, ...] = ()) -> Observations:
    return Observations(tuple(hands), 25.0, unseen, None, ((shift, 12.0 + shift),))


def run(protocol: Path, a: list[HandInterval] | None, b: list[HandInterval] | None,
        unseen_a: tuple[Unseen, ...] = (), unseen_b: tuple[Unseen, ...] = ()) -> AuditReport:
    """The audit from the cameras given (None: that camera left out, its observer never asked)."""
    proto = load_protocol(protocol)
    fake = ScriptedCameras(CLOCK, {"a.mp4": observations(a or [], 0.0, unseen_a),
                    "b.mp4": observations(b or [], FAR_OFFSET, unseen_b)})
    views = look(proto, marks=[], model="full", observer=fake, observations=None, say=lambda _m: None,
                 progress=lambda _w: (lambda _d, _t: None))
    keep = [v for v in views if (v.id == "a" and a is not None) or (v.id == "b" and b is not None)]
    return audit_cameras(proto, keep, profile=get_profile("rfm"))


def kinds(report: AuditReport) -> set[tuple]:
    return {(f.kind, f.seat, f.candidate) for f in report.findings}


def test_a_seat_hidden_from_one_camera_but_seen_by_the_other_gives_the_right_vote(tmp_path: Path) -> None:
    protocol = game(tmp_path)
    a = truth_hands(leave_out=(9,))  # a vase hides seat 9's hand from camera a
    b = truth_hands(FAR_OFFSET)
    assert ("no_vote", 9, None) in kinds(run(protocol, a, None))
    both = run(protocol, a, b)
    assert kinds(both) == set()  # seat 9's vote for 5 comes from camera b: the protocol's 4 hands are right
    row = next(v for v in both.votes if v.candidate == 5)
    assert row.video_voters == (2, 3, 9, 10)


def test_a_hand_the_nearer_camera_misses_is_taken_from_the_other(tmp_path: Path) -> None:
    """Seat 2 is near camera a, which still ranks first there; its missed hand comes from camera b."""
    protocol = game(tmp_path)
    report = run(protocol, truth_hands(leave_out=(2,)), truth_hands(FAR_OFFSET))
    assert kinds(report) == set()
    assert {c["id"]: c["best_seats"] for c in report.extra["x_cameras"]}["a"] == [1, 2, 3, 4, 5]


def test_the_hands_of_every_camera_are_moved_onto_the_main_clock_by_its_offset(tmp_path: Path) -> None:
    """A late hand seen only by camera b (2 s ahead) is late on camera a's clock, with the frames of each."""
    protocol = game(tmp_path)
    a = truth_hands(leave_out=(6,))
    b = [*truth_hands(FAR_OFFSET, leave_out=(6,)), hand(6, CUT7 + 0.2, ANN7 + 0.5, FAR_OFFSET)]
    late = next(f for f in run(protocol, a, b).findings if f.kind == "late_vote")
    assert (late.seat, late.t) == (6, pytest.approx(CUT7 + 0.2))
    cams = {c.id: c for c in late.cameras}
    assert cams["a"].evidence is False and cams["b"].evidence is True  # the hand is b's
    assert [round(t - FAR_OFFSET, 3) for t in cams["b"].times] == list(cams["a"].times)
    assert [f - 50 for f in cams["b"].frames] == list(cams["a"].frames)  # 2 s at 25 fps
    assert late.evidence.frames == cams["a"].frames  # the report's own frames are the main camera's


def test_a_finding_names_the_cameras_its_evidence_comes_from_and_gives_frames_from_each(tmp_path: Path) -> None:
    protocol = game(tmp_path)
    a = [*truth_hands(leave_out=(8,)), hand(1, T5 - 1.0, T5 + 0.5)]  # seat 1's early hand, seen by both
    b = [*truth_hands(FAR_OFFSET, leave_out=(8,)), hand(1, T5 - 1.0, T5 + 0.5, FAR_OFFSET)]
    report = run(protocol, a, b)
    early = next(f for f in report.findings if f.kind == "early_hand")
    assert {(c.id, c.evidence) for c in early.cameras} == {("a", True), ("b", True)}
    assert all(c.frames for c in early.cameras)
    silent = next(f for f in report.findings if f.kind == "no_vote")
    assert silent.seat == 8 and {c.id for c in silent.cameras if c.evidence} == {"a", "b"}  # neither shows a hand
    json_back = AuditReport.from_json(report.to_json())
    assert json_back.findings[0].cameras == report.findings[0].cameras
    assert {c["id"]: c["best_seats"] for c in report.extra["x_cameras"]} == {"a": [1, 2, 3, 4, 5], "b": [6, 7, 8, 9, 10]}


def test_the_form_comes_from_the_firmest_reading_and_a_camera_that_shows_no_hand_lowers_the_confidence(
        tmp_path: Path) -> None:
    """Seat 2 is near camera a: a's thumb-up fist wins over b's misread open palm. Seat 7 is near b, which could
    not read the hand's form ("other"); a read an open palm (a form rfm does not count): it is found."""
    protocol = game(tmp_path)
    a = [h if h.seat != 7 else hand(7, h.on, h.off, pose="open_palm") for h in truth_hands()]
    b = [hand(h.seat, h.on, h.off, pose={2: "open_palm", 7: "other"}.get(h.seat, h.pose),
              share=0.6 if h.seat == 7 else 1.0) for h in truth_hands(FAR_OFFSET)]
    both = kinds(run(protocol, a, b))
    assert ("wrong_form", 7, 7) in both and ("wrong_form", 2, 5) not in both
    assert ("wrong_form", 2, 5) in kinds(run(protocol, None, b))  # b alone misreads seat 2
    b = [hand(h.seat, h.on, h.off, pose="open_palm" if h.seat in (2, 7) else h.pose) for h in truth_hands(FAR_OFFSET)]
    # seat 3, seen as large by both: a's open palm, a little firmer, gives way to b's thumb-up fist, the form
    # vision seldom misreads a hand into
    write_json(tmp_path / "b.seats.json", seat_map(big=(3, 6, 7, 8, 9, 10), without=()))
    a3 = [hand(3, h.on, h.off, pose="open_palm", share=0.9) if h.seat == 3 else h for h in truth_hands()]
    b3 = [hand(3, h.on, h.off, share=0.8) if h.seat == 3 else h for h in truth_hands(FAR_OFFSET)]
    assert ("wrong_form", 3, 5) in kinds(run(protocol, a3, None))
    assert ("wrong_form", 3, 5) not in kinds(run(protocol, a3, b3))
    write_json(tmp_path / "b.seats.json", seat_map(big=range(6, 11), without=()))
    # a hand that a camera with a view of the seat does not show at all is less sure
    alone = next(f for f in run(protocol, None, b).findings if f.kind == "wrong_form" and f.seat == 7)
    doubted = next(f for f in run(protocol, [h for h in a if h.seat != 7], b).findings
                   if f.kind == "wrong_form" and f.seat == 7)
    assert doubted.confidence < alone.confidence


def test_a_seat_is_unseen_only_where_every_camera_is_blind(tmp_path: Path) -> None:
    protocol = game(tmp_path)
    dark = (Unseen(seat=4, start=0.0, end=12.0, why="covered"),)
    a = truth_hands(leave_out=(4,))
    b = truth_hands(FAR_OFFSET)
    assert ("cannot_see", 4, 7) in kinds(run(protocol, a, None, unseen_a=dark))
    assert kinds(run(protocol, a, b, unseen_a=dark)) == set()
    b_dark = (Unseen(seat=4, start=FAR_OFFSET, end=12.0 + FAR_OFFSET, why="a player leans in"),)
    blind = run(protocol, a, [h for h in b if h.seat != 4], unseen_a=dark, unseen_b=b_dark)
    assert ("cannot_see", 4, 7) in kinds(blind) and ("no_vote", 4, None) not in kinds(blind)


def test_a_seat_one_camera_has_no_zone_for_is_read_from_the_other(tmp_path: Path) -> None:
    protocol = game(tmp_path)
    write_json(tmp_path / "a.seats.json", seat_map(big=range(1, 6), without=(7,)))
    report = run(protocol, truth_hands(leave_out=(7,)), truth_hands(FAR_OFFSET))
    assert kinds(report) == set()


def test_one_camera_alone_is_the_audit_of_its_own_observations(tmp_path: Path) -> None:
    protocol = game(tmp_path, counts=(3, 6))
    a = [*truth_hands(leave_out=(3,)), hand(3, CUT5 + 0.1, ANN5 + 0.5)]
    report = run(protocol, a, None)
    plain = audit(load_protocol(protocol).data, observations(a), profile=get_profile("rfm"),
                  visible_seats=set(range(1, 11)), video="a.mp4", frames=CLOCK)
    strip = [{k: v for k, v in f.to_json().items() if k != "x_cameras"} for f in report.findings]
    assert strip == [f.to_json() for f in plain.findings] and strip
    assert report.to_json()["votes"] == plain.to_json()["votes"]


def test_audit_game_takes_a_protocol_with_videos_without_a_video_or_a_seat_map(tmp_path: Path) -> None:
    protocol = game(tmp_path)
    fake = ScriptedCameras(CLOCK, {"a.mp4": observations(truth_hands(leave_out=(9,))), "b.mp4": observations(truth_hands(FAR_OFFSET), FAR_OFFSET)})
    report = audit_game(protocol=protocol, observer=fake)
    assert kinds(report) == set() and set(fake.asked) == {"a.mp4", "b.mp4"}
    (a0, _), = fake.asked["a.mp4"]
    (b0, _), = fake.asked["b.mp4"]
    assert b0 == pytest.approx(a0 + FAR_OFFSET)  # each camera is looked at over the same moments, on its own clock
    alone = audit_game(protocol=protocol, video=tmp_path / "b.mp4", observer=fake)  # one camera: its seat map, its clock
    assert kinds(alone) == set() and alone.video == "b.mp4"


def test_the_bundled_two_camera_clip_audited_from_both_is_at_least_as_right_as_either_camera_on_every_seat() -> None:
    protocol = CLIP / "two_cameras.protocol.json"
    saved = {"judge": CLIP / "two_cameras.observations.json", "far": CLIP / "two_cameras.far.observations.json"}
    for path in [protocol, *saved.values()]:
        if not path.is_file():
            pytest.fail(f"{path} is missing: render the clip with `python3 -m sample_videos two-cameras` and "
                        "`python3 bench/two_cameras.py --refresh-fixture`.")
    truth = json.loads((CLIP / "two_cameras.truth.json").read_text(encoding="utf-8"))
    expected = {identity_of(f) for f in truth["expected_findings"]}
    proto = load_protocol(protocol)
    views = look(proto, marks=[], model="full", observer=ScriptedCameras(None, {}), observations=saved, say=lambda _m: None,
                 progress=lambda _w: (lambda _d, _t: None))

    def errors(selected: list[CameraView]) -> dict[int | None, int]:
        got = {f.identity for f in audit_cameras(proto, selected, profile=get_profile("rfm")).findings
               if f.kind != "cannot_see"}
        out: dict[int | None, int] = {}
        for i in got ^ expected:
            out[i[-1]] = out.get(i[-1], 0) + 1
        return out

    both = errors(views)
    for view in views:
        alone = errors([view])
        assert all(both.get(seat, 0) <= alone.get(seat, 0) for seat in {*both, *alone}), (view.id, both, alone)
    assert both == {}, both
    merged = merge(views, views[0])
    assert merged.best[6] == "far" and merged.best[10] == "judge"  # the vase hides seat 6 from the judge's camera


def test_stopframe_audit_of_the_two_camera_clip_needs_no_video_or_seat_map(tmp_path: Path) -> None:
    out = tmp_path / "audit.json"
    done = subprocess.run(
        [sys.executable, "-m", "stopframe_cli", "audit", "--protocol", str(CLIP / "two_cameras.protocol.json"),
         "--camera-observations", f"judge={CLIP / 'two_cameras.observations.json'}",
         f"far={CLIP / 'two_cameras.far.observations.json'}", "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["video"] == "two_cameras.mp4"
    assert all({c["id"] for c in f["x_cameras"]} == {"judge", "far"} for f in report["findings"])
    table = subprocess.run(
        [sys.executable, "-m", "stopframe_cli", "--lang", "en", "audit", "--protocol", str(CLIP / "two_cameras.protocol.json"),
         "--camera-observations", f"judge={CLIP / 'two_cameras.observations.json'}",
         f"far={CLIP / 'two_cameras.far.observations.json'}"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    palm = next(line for line in table.stdout.splitlines() if "wrong form" in line)
    assert palm.endswith("[seen by camera far]"), palm  # seat 6, behind the vase for the judge's camera
    bad = subprocess.run(
        [sys.executable, "-m", "stopframe_cli", "audit", "--protocol", str(CLIP / "two_cameras.protocol.json"),
         "--camera-observations", "judge"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and "CAMERA_ID=OBSERVATIONS_FILE" in bad.stderr
