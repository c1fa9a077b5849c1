"""The bundled two-camera clip (sample_videos/clips/two_cameras.*): its protocol with `videos` validates, both
videos decode and hear the same judge 1.72 s apart, each camera has its own seat map, the truth is the game's
(day 1's vote, as the single-camera clip's), and the vase hides seat 6's hand from the judge's camera only."""

from __future__ import annotations

import json
from pathlib import Path

import av
import numpy as np
import pytest

from contract.seats import load_seat_map
from review.audit.inputs import check_seat_geometry
from review.game.protocol import load_protocol, resolve_camera_path, validate
from sample_videos.build import STRESS_WINDOW, TWO_CAMERAS_LEAD, pad_to_gops, two_camera_protocol, windows_of
from sample_videos.game import VoteHand, Window, sample_game, truth
from sample_videos.scenarios import Conditions, Stage, render_window

CLIPS = Path(__file__).resolve().parents[2] / "sample_videos" / "clips"
PROTOCOL = CLIPS / "two_cameras.protocol.json"


def committed() -> dict:
    if not PROTOCOL.is_file():
        pytest.fail(f"{PROTOCOL} is missing: render it with `python3 -m sample_videos two-cameras`.")
    return json.loads(PROTOCOL.read_text(encoding="utf-8"))


def read(name: str) -> dict:
    return json.loads((CLIPS / name).read_text(encoding="utf-8"))


def test_the_protocol_names_both_cameras_and_validates() -> None:
    data = committed()
    proto = load_protocol(PROTOCOL)
    assert validate(proto) == []
    assert [(c.id, c.offset) for c in proto.videos] == [("judge", 0.0), ("far", TWO_CAMERAS_LEAD)]
    assert data["video"] == {"path": "two_cameras.mp4", "offset_s": 0.0}  # tools that know one video see the judge's
    for camera in proto.videos:
        assert resolve_camera_path(proto, camera).is_file()
        seats = resolve_camera_path(proto, camera, "seats")
        check_seat_geometry(load_seat_map(seats), seats)
    assert read("two_cameras.seats.json") != read("two_cameras.far.seats.json")  # one seat map per camera


def test_the_protocol_and_truth_are_what_the_script_generates_now() -> None:
    items = sample_game()
    window = next(pad_to_gops(w) for w in windows_of(items) if w.name == STRESS_WINDOW)
    zero = {window.name: 0.0}
    assert committed() == two_camera_protocol(items, zero, "two_cameras", "sample-game/two_cameras")
    tr = read("two_cameras.truth.json")
    assert {k: v for k, v in tr.items() if k != "x_camera_views"} == truth([window], zero)
    single = read(f"{STRESS_WINDOW}.truth.json")  # the truth is the game's, whichever camera films it
    assert tr["hands"] == single["hands"] and tr["expected_findings"] == single["expected_findings"]


def decode(path: Path) -> tuple[tuple[int, int], int, np.ndarray]:
    """(picture size, frames, mono audio at its rate) of a clip, checked to be H.264 at 25 fps with AAC sound."""
    with av.open(str(path)) as c:
        v = c.streams.video[0]
        assert v.codec_context.name == "h264" and v.average_rate == 25
        size = (v.codec_context.width, v.codec_context.height)
        frames = sum(1 for _ in c.demux(v) if _.size)
    with av.open(str(path)) as c:
        a = c.streams.audio[0]
        assert a.codec_context.name == "aac"
        sound = np.concatenate([f.to_ndarray().reshape(-1) for f in c.decode(a)])
    return size, frames, sound


def test_both_videos_decode_at_720p_and_hear_the_same_judge_the_cameras_offset_apart() -> None:
    committed()
    tr = read("two_cameras.truth.json")
    size_a, frames_a, sound_a = decode(CLIPS / "two_cameras.mp4")
    size_b, frames_b, sound_b = decode(CLIPS / "two_cameras.far.mp4")
    lead = round(TWO_CAMERAS_LEAD * 25)
    assert size_a == size_b == (1280, 720)
    assert frames_a == round(max(w["end"] for w in tr["x_windows"]) * 25) and frames_b == frames_a + lead
    rate = 22050
    step = 50  # envelopes at 441 Hz: the lag of the judge's words to 2.3 ms
    env_a = np.abs(sound_a[: len(sound_a) // step * step]).reshape(-1, step).mean(axis=1)
    env_b = np.abs(sound_b[: len(sound_b) // step * step]).reshape(-1, step).mean(axis=1)
    lags = range(0, int(3 * rate / step))
    score = [float(np.dot(env_a[: len(env_b) - k], env_b[k: k + len(env_a)][: len(env_b) - k])) for k in lags]
    assert abs(int(np.argmax(score)) * step / rate - TWO_CAMERAS_LEAD) < 0.01


def test_the_vase_hides_seat_6s_voting_hand_from_the_judges_camera_and_not_from_the_far_one() -> None:
    window = Window("w", "seat 6 votes", False, tuple(range(1, 11)), duration=1.2)
    window.hands = [VoteHand(6, 0.2, 5.0, "open_palm", "vote"), VoteHand(5, 0.2, 5.0, "thumb_up_fist", "vote")]
    shown = {}
    for camera in ("tripod", "far"):
        stage = Stage(Conditions(size=(640, 360), vase=6, camera=camera, seed=17))
        *_, (_, masks) = render_window(stage, window, seed=2, masks=True)
        shown[camera] = {seat: int(masks[seat][2].sum()) for seat in (5, 6)}
    assert shown["tripod"][6] < 0.05 * shown["far"][6]  # behind the vase
    assert shown["tripod"][5] > 0.5 * shown["far"][5]  # the next seat is not
    views = {v["id"]: v["hands"] for v in read("two_cameras.truth.json")["x_camera_views"]}
    palm = next(i for i, h in enumerate(views["judge"]) if h["seat"] == 6)
    assert views["judge"][palm]["visible_px"] < 0.05 * views["far"][palm]["visible_px"]


def test_stopframe_sync_finds_the_protocols_offset_between_the_two_cameras_from_their_sound() -> None:
    """vision.sync (what `stopframe sync` runs) on the two videos: the far camera's offset within 20 ms."""
    from vision.sync import sync_files

    proto = load_protocol(PROTOCOL)
    judge, far = proto.videos
    found = sync_files(resolve_camera_path(proto, judge), resolve_camera_path(proto, far))
    assert abs((judge.offset - found.offset_s) - far.offset) < 0.02  # b's offset = a's offset − offset_s
