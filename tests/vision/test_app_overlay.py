"""What the frame viewer draws and the clips it writes (vision/overlay.py, vision/clips.py)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from vision.clips import write_clip
from vision.overlay import HandMark, draw_overlay, encode_jpeg
from vision.seats import default_seat_map
from vision.video import open_video


def _video(path: Path, n: int = 50, size: tuple[int, int] = (320, 180), fps: int = 25) -> Path:
    with av.open(str(path), "w") as c:
        s = c.add_stream("libx264", rate=fps)
        s.width, s.height, s.pix_fmt = size[0], size[1], "yuv420p"
        for i in range(n):
            f = av.VideoFrame.from_ndarray(np.full((size[1], size[0], 3), i * 4 % 255, np.uint8), format="bgr24")
            f.pts, f.time_base = i, Fraction(1, fps)
            for p in s.encode(f):
                c.mux(p)
        for p in s.encode():
            c.mux(p)
    return path


def test_overlay_marks_the_hand_seat_and_leaves_the_frame_alone() -> None:
    frame = np.zeros((720, 1280, 3), np.uint8)
    seats = default_seat_map((1920, 1080), (960, 600), (700, 300))  # drawn on a smaller frame: scaled
    out = draw_overlay(frame, seat_map=seats, hands=[HandMark(3, "fist", 0.9)], flagged_seats=[7],
                       marks={"t": 10.0, "cutoff": 11.5, "announced": 12.5}, now=11.6, caption="t = +1.60 s")
    assert out.shape[1:] == frame.shape[1:] and out.shape[0] > frame.shape[0] and not frame.any()  # a new picture
    zone3 = (seats.seats[3].zone.mean(axis=0) * (1280 / 1920)).astype(int)
    assert out[zone3[1], zone3[0]].any()  # seat 3's zone is filled: a hand is there
    # The vote window's strip and the legend sit in a panel under the picture: no zone is covered.
    panel = out[frame.shape[0]:]
    assert (panel[:, 10:-10] > 40).any()
    bottom = max(int(p[:, 1].max() * (720 / 1080)) for p in (s.zone for s in seats.seats.values()))
    assert bottom < frame.shape[0]
    assert draw_overlay(frame, seat_map=seats).shape == frame.shape  # calibration's preview keeps the frame's size
    assert encode_jpeg(out)[:2] == b"\xff\xd8"


def test_4k_frames_are_shrunk_for_display() -> None:
    out = draw_overlay(np.zeros((2160, 3840, 3), np.uint8))
    assert out.shape == (720, 1280, 3)


def test_clips_are_h264_at_normal_and_quarter_speed(tmp_path: Path) -> None:
    with open_video(_video(tmp_path / "v.mp4")) as source:
        normal = write_clip(source, 0.4, 1.2, tmp_path / "n.mp4")
        slow = write_clip(source, 0.4, 1.2, tmp_path / "s.mp4", slowdown=4)
    for path, fps in ((normal, 25), (slow, 6.25)):
        with av.open(str(path)) as c:
            stream = c.streams.video[0]
            assert stream.codec_context.name == "h264" and stream.codec_context.pix_fmt == "yuv420p"
            assert sum(1 for _ in c.decode(stream)) == 20 and float(stream.average_rate) == fps
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind
