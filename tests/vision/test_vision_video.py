"""Video input: frame-exact seeking on clips whose frames carry their own index, VFR, rotation, bad files."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from fixtures.vision.make_clips import read_barcode, write_clip

from contract.errors import UnreadableInput
from vision.video import VideoError, open_video


@pytest.fixture(scope="module")
def cfr_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_clip(tmp_path_factory.mktemp("v") / "cfr.mp4", 120, fps=25, gop=12)


VFR_TIMES = [i * 0.04 + (0.5 if i >= 30 else 0.0) + (0.013 if i % 3 == 1 else 0.0) for i in range(60)]


@pytest.fixture(scope="module")
def vfr_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_clip(tmp_path_factory.mktemp("v") / "vfr.mp4", 60, times=VFR_TIMES)


def test_metadata_of_a_constant_rate_clip(cfr_clip: Path) -> None:
    with open_video(cfr_clip) as v:
        m = v.meta
        assert (m.fps, m.frame_count, m.width, m.height, m.rotation, m.has_audio) == (25.0, 120, 320, 192, 0, False)
        assert m.duration == pytest.approx(4.8)


def test_seek_by_index_is_frame_exact_in_any_order(cfr_clip: Path) -> None:
    order = list(range(120))
    random.Random(3).shuffle(order)
    with open_video(cfr_clip) as v:
        assert [read_barcode(v.frame_at(i)) for i in order] == order


def test_seek_by_time_gives_the_frame_on_screen(cfr_clip: Path) -> None:
    with open_video(cfr_clip) as v:
        for t, expected in [(0.0, 0), (1.04, 26), (1.079, 26), (1.08, 27), (4.79, 119)]:
            index, image = v.frame_at_time(t)
            assert index == expected and read_barcode(image) == expected
            assert v.time_of(index) <= t + 1e-3


def test_window_iteration_with_stride_is_exact_and_half_open(cfr_clip: Path) -> None:
    with open_video(cfr_clip) as v:
        frames = list(v.iter_window(2.0, 3.0, stride=4))
        assert [f.index for f in frames] == [50, 54, 58, 62, 66, 70, 74]
        assert [read_barcode(f.image) for f in frames] == [f.index for f in frames]
        assert frames[0].t == pytest.approx(2.0)
        assert [f.index for f in v.iter_window(4.6, None)] == [115, 116, 117, 118, 119]


def test_a_worker_decoding_without_threads_gets_the_same_frames(cfr_clip: Path) -> None:
    # observe's worker processes decode on one thread (the workers already keep the cores busy): same pictures
    with open_video(cfr_clip) as threaded, open_video(cfr_clip, threads=False) as single:
        a, b = list(threaded.iter_pictures(1.0, 2.5)), list(single.iter_pictures(1.0, 2.5))
        assert [p.index for p in a] == [p.index for p in b] == list(range(25, 63))
        assert all(np.array_equal(p.image, q.image) and np.array_equal(p.luma, q.luma) for p, q in zip(a, b, strict=True))
        assert [read_barcode(p.image) for p in b] == list(range(25, 63))


def test_window_decodes_only_from_the_keyframe_before_it(cfr_clip: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_video(cfr_clip) as v:
        decoded: list[int] = []
        original = v._index_of_pts
        monkeypatch.setattr(v, "_index_of_pts", lambda pts: decoded.append(original(pts)) or decoded[-1])
        assert len(list(v.iter_window(3.0, 3.4))) == 10
        assert min(decoded) >= 75 - 12 and max(decoded) <= 85 + 2  # GOP is 12 frames


def test_variable_frame_rate_uses_container_timestamps(vfr_clip: Path) -> None:
    with open_video(vfr_clip) as v:
        assert v.meta.frame_count == 60
        for i in (0, 1, 29, 30, 31, 59):
            assert v.time_of(i) == pytest.approx(VFR_TIMES[i], abs=1e-3)
        index, image = v.frame_at_time(1.5)  # inside the half-second gap: frame 29 is still on screen
        assert index == 29 and read_barcode(image) == 29
        assert [f.index for f in v.iter_window(1.6, 1.873)] == [30, 31, 32, 33]
        order = list(range(60))
        random.Random(5).shuffle(order)
        assert [read_barcode(v.frame_at(i)) for i in order] == order


def test_rotated_phone_video_comes_out_upright(tmp_path: Path) -> None:
    clip = write_clip(tmp_path / "rot.mp4", 5, rotation=90)
    with open_video(clip) as v:
        assert (v.meta.width, v.meta.height, v.meta.rotation) == (192, 320, 90)
        image = v.frame_at(3)
    assert image.shape == (320, 192, 3)
    # The display matrix turns the picture 90° counter-clockwise (as ffmpeg's autorotate shows it):
    # the red square coded at the top-left ends bottom-left, and the barcode reads along the left edge.
    red = (image[:, :, 2] > 200) & (image[:, :, 0] < 80)
    ys, xs = np.nonzero(red)
    assert ys.mean() > 250 and xs.mean() < 60
    assert read_barcode(np.ascontiguousarray(np.rot90(image, k=-1))) == 3


def test_audio_track_is_reported(tmp_path: Path) -> None:
    with open_video(write_clip(tmp_path / "a.mp4", 10, audio=True)) as v:
        assert v.meta.has_audio and v.meta.frame_count == 10


@pytest.mark.parametrize("kind", ["missing", "empty", "text", "truncated", "audio_only"])
def test_unusable_files_give_one_sentence_naming_the_file(tmp_path: Path, kind: str) -> None:
    path = tmp_path / f"{kind}.mp4"
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "text":
        path.write_text("this is not a video\n")
    elif kind == "truncated":
        whole = write_clip(tmp_path / "whole.mp4", 50).read_bytes()
        path.write_bytes(whole[: len(whole) // 2])
    elif kind == "audio_only":
        import av

        with av.open(str(path), "w") as out:
            stream = out.add_stream("aac", rate=16000)
            frame = av.AudioFrame.from_ndarray(np.zeros((1, 16000), np.float32), format="fltp", layout="mono")
            frame.sample_rate = 16000
            out.mux(stream.encode(frame))
            out.mux(stream.encode())
    with pytest.raises(VideoError) as err:
        open_video(path).close()
    message = str(err.value)
    assert isinstance(err.value, UnreadableInput) and err.value.exit_code == 2
    assert str(path) in message and message.count("\n") == 0 and message.endswith(".")


def test_file_cut_after_its_index_fails_while_iterating_not_silently(tmp_path: Path) -> None:
    whole = write_clip(tmp_path / "whole.mp4", 100, faststart=True).read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(whole[: len(whole) * 2 // 3])
    with open_video(cut) as v, pytest.raises(VideoError, match="cut.mp4: ends at frame"):
        list(v.iter_window(0.0, None))


def test_frame_index_outside_the_video_is_refused(cfr_clip: Path) -> None:
    with open_video(cfr_clip) as v, pytest.raises(IndexError):
        v.frame_at(120)
