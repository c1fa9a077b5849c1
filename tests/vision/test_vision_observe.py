"""observe() end to end: composites of real hand cut-outs, a real camera clip, unseen seats, the CLI.

These run MediaPipe, so they stay few and short (CI has two cores).
"""

from __future__ import annotations

import json
from pathlib import Path

import av
import numpy as np
import pytest
from fixtures.vision.composite import Placement, assets_present, table_seat_map, write_composite

from contract.errors import InvalidInput, UnreadableInput
from contract.observations import Observations, load_observations
from contract.seats import Seat, SeatMap, save_seat_map
from stopframe_cli.main import main as stopframe
from vision.observe import observe
from vision.options import VisionOptions

pytestmark = pytest.mark.slow
REAL = Path(__file__).resolve().parents[3] / "shared" / "assets" / "real"
needs_hands = pytest.mark.skipif(not assets_present(), reason="../shared/assets/hands is absent (real hand cut-outs)")

# Votes on seats 1, 3, 6, 9 (fist, thumb-up, four fingers, one finger); an idle fist lies on the
# floor outside every zone the whole time; seat 9 keeps its hand past the window's end.
PLACEMENTS = [
    Placement(1, "hg_fist", 5, 30),
    Placement(3, "hg_like", 9, 36),
    Placement(6, "td_four_15a73593", 12, 28),
    Placement(9, "hg_one", 15, 45),
    Placement(None, "hg_fist", 0, 45, at=(110.0, 640.0)),
]


@pytest.fixture(scope="module")
def composite(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    if not assets_present():
        pytest.skip("../shared/assets/hands is absent (real hand cut-outs)")
    path = tmp_path_factory.mktemp("composite") / "votes.mp4"
    return path, write_composite(path, PLACEMENTS, n_frames=45)


@needs_hands
def test_every_vote_found_with_frame_exact_onsets_and_no_phantoms(composite: tuple[Path, dict]) -> None:
    path, truth = composite
    ticks: list[tuple[int, int]] = []
    seen = observe(path, table_seat_map(), progress=lambda done, total: ticks.append((done, total)))
    found = {h.seat: h for h in seen.hands}
    assert sorted(found) == [1, 3, 6, 9] and len(seen.hands) == 4  # the idle fist on the floor is nobody's vote
    for t in truth["hands"]:
        h = found[t["seat"]]
        assert abs(h.on_frame - t["on_frame"]) <= 2, (t, h)
        assert abs(h.off_frame - t["off_frame"]) <= 2, (t, h)
        assert h.on == pytest.approx(h.on_frame / 25) and h.confidence > 0.5
    assert found[6].pose == "open_palm" and found[9].pose == "finger"
    assert found[1].pose in ("fist", "thumb_up_fist") and found[3].pose in ("fist", "thumb_up_fist")
    assert ticks[-1] == (45, 45) and len(ticks) == 45
    assert seen.stats["gated"] > seen.stats["detector_runs"]  # still seats were skipped most of the time


@needs_hands
def test_gating_loses_no_event(composite: tuple[Path, dict]) -> None:
    path, _ = composite
    window = [(0.1, 1.0)]  # frames 3..24: onsets of seats 1, 3, 6 and 9
    whole = table_seat_map()
    voters = SeatMap(whole.frame_size, {n: whole.seats[n] for n in (1, 3, 6, 9)})
    gated = observe(path, voters, window, gating=True)
    full = observe(path, voters, window, gating=False)
    assert [(h.seat, h.on_frame, h.off_frame) for h in gated.hands] == [(h.seat, h.on_frame, h.off_frame) for h in full.hands]
    assert full.stats["gated"] == 0 and gated.stats["detector_runs"] < full.stats["detector_runs"] / 2


@needs_hands
def test_windows_shared_out_over_two_processes_give_the_same_hands(composite: tuple[Path, dict]) -> None:
    path, _ = composite
    windows = [(0.0, 0.9), (1.0, 1.8)]  # two separate windows: each is watched afresh, wherever it runs
    whole = table_seat_map()
    voters = SeatMap(whole.frame_size, {n: whole.seats[n] for n in (1, 3, 6, 9)})
    ticks: list[tuple[int, int]] = []
    one = observe(path, voters, windows, jobs=1)
    two = observe(path, voters, windows, jobs=2, progress=lambda done, total: ticks.append((done, total)))
    assert [h.to_json() for h in two.hands] == [h.to_json() for h in one.hands] and one.hands
    assert two.unseen == one.unseen and two.stats["frames"] == one.stats["frames"]
    assert ticks and ticks[-1] == (one.stats["frames"], one.stats["frames"])


@pytest.mark.skipif(not (REAL / "thumb_up_person.mp4").is_file(), reason="../shared/assets/real is absent")
def test_real_camera_hand_is_found_in_its_zone_and_dark_or_missing_seats_are_unseen() -> None:
    # A person raises a thumbs-up (hand visible from frame 23); seat 1's zone covers where it rises,
    # seat 2's zone is on the black backdrop, seat 3's lies outside the picture, seats 4-10 have none.
    seat_map = SeatMap((1280, 720), {
        1: Seat(np.array([[330, 300], [650, 300], [650, 650], [330, 650]], float)),
        2: Seat(np.array([[1000, 80], [1200, 80], [1200, 250], [1000, 250]], float)),
        3: Seat(np.array([[1300, 80], [1500, 80], [1500, 250]], float)),
    })
    # the hand rises through seat 1's zone and never comes to rest there: the detector finds it from its first
    # frames (plain hysteresis over its sightings keeps it), but the zone model's runs must come to rest, so it is
    # no hand resting on the table (a hand passing through, as the validation truth counts it)
    seen = observe(REAL / "thumb_up_person.mp4", seat_map, [(0.5, 1.4)], model="lite",
                   options=VisionOptions(zone_model=False))
    assert seen.windows == [(0.5, 1.4)]
    [hand] = seen.hands
    assert hand.seat == 1 and 21 <= hand.on_frame <= 27
    assert observe(REAL / "thumb_up_person.mp4", seat_map, [(0.5, 1.4)], model="lite").hands == []
    why = {u["seat"]: u["why"] for u in seen.unseen}
    assert why[2] == "the seat's view is dark or covered"
    assert why[3] == "the seat's zone lies outside the picture"
    assert all(why[n] == "no zone in the seat map" for n in range(4, 11))


def _dark_clip(path: Path) -> Path:
    with av.open(str(path), "w") as out:
        stream = out.add_stream("libx264", rate=25)
        stream.width, stream.height, stream.pix_fmt = 320, 180, "yuv420p"
        for i in range(10):
            img = np.zeros((180, 320, 3), np.uint8)
            if i >= 5:
                img[:, :] = 140  # the lights come on at frame 5
            out.mux(stream.encode(av.VideoFrame.from_ndarray(img, format="rgb24")))
        out.mux(stream.encode())
    return path


def test_a_dark_view_is_unseen_only_while_dark(tmp_path: Path) -> None:
    seat_map = SeatMap((640, 360), {5: Seat(np.array([[200, 100], [400, 100], [400, 250], [200, 250]], float))})
    seen = observe(_dark_clip(tmp_path / "dark.mp4"), seat_map)  # scaled to the 320x180 video
    dark = [u for u in seen.unseen if u["seat"] == 5]
    assert dark == [{"seat": 5, "start": 0.0, "end": 0.2, "why": "the seat's view is dark or covered"}]
    assert seen.hands == []


def test_observations_round_trip_through_json(tmp_path: Path) -> None:
    data = {"format": "stopframe-observations/1", "video": "g.mp4", "fps": 25.0,
            "hands": [{"seat": 2, "on": 1.04, "off": 2.6, "pose": "fist", "confidence": 0.9, "on_frame": 26, "off_frame": 65,
                       "x_pose_share": 0.8}],
            "x_unseen": [{"seat": 4, "start": 0.0, "end": 3.0, "why": "no zone in the seat map"}], "x_windows": [[0.0, 3.0]]}
    path = tmp_path / "o.json"
    path.write_text(json.dumps(data))
    assert load_observations(path).to_json() == data
    with pytest.raises(UnreadableInput, match="not supported"):
        Observations.from_json({**data, "format": "stopframe-observations/2"})
    with pytest.raises(InvalidInput, match="fps"):
        Observations.from_json({**data, "fps": 1e308})
    with pytest.raises(InvalidInput, match=r"hands\[0\]\.on"):
        Observations.from_json({**data, "hands": [{**data["hands"][0], "on": float("nan")}]})


@needs_hands
def test_cli_prints_observations_json_with_progress_on_stderr(composite: tuple[Path, dict], tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = composite
    seats = save_seat_map(table_seat_map(), tmp_path / "votes.seats.json")
    out = tmp_path / "obs.json"
    status = stopframe(["observe", str(path), "--seats", str(seats), "--start", "0.64", "--end", "1.04",
                        "--json", "--out", str(out), "--model", "lite"])
    captured = capsys.readouterr()
    assert status == 0
    data = json.loads(captured.out)
    assert data["format"] == "stopframe-observations/1" and data == json.loads(out.read_text())
    assert {h["seat"] for h in data["hands"]} == {1, 3, 6, 9}
    assert "observe: looked at 10/10 frames" in captured.err


def test_cli_unreadable_video_is_one_sentence_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seats = save_seat_map(table_seat_map(), tmp_path / "s.seats.json")
    bad = tmp_path / "broken.mp4"
    bad.write_bytes(b"\x00" * 100)
    assert stopframe(["observe", str(bad), "--seats", str(seats)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("stopframe: ") and "broken.mp4" in err and "\n" not in err
