"""What the frame viewer draws and the clips it writes (vision/overlay.py, vision/clips.py)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from contract import i18n
from vision import overlay
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


def _vote_frame(frame: np.ndarray, lang: str) -> np.ndarray:
    seats = default_seat_map((1280, 720), (640, 380), (470, 250))
    with i18n.using(lang):
        return draw_overlay(frame, seat_map=seats, hands=[HandMark(3, "fist", 0.9), HandMark(8, "open_palm", 0.7)],
                            flagged_seats=[7], marks={"t": 10.0, "cutoff": 11.5, "announced": 12.5}, now=11.6,
                            caption="#120 | 00:04.800", legend=True)


def test_a_russian_reader_sees_russian_words_on_the_frame() -> None:
    """The hands' poses, the strip's marks and the legend are drawn in Russian (Cyrillic glyphs from matplotlib's
    DejaVu Sans), and only the words' pixels differ from the English frame; the given frame is left alone."""
    assert overlay.font_file() is not None and overlay.font_file().name == "DejaVuSans.ttf"
    with i18n.using("ru"):
        assert overlay.pose_label("fist") == "кулак" and overlay.pose_label("open_palm") == "ладонь"
        assert [overlay.mark_label(m) for m in ("t", "cutoff", "announced")] == ["объявлена", "«Стоп»", "подсчёт"]
        words = [w for _, w in overlay.legend_items(with_now=True)]
        assert words[0] == "зона, руки нет" and words[-1] == "этот кадр на полосе голосования"
    # Every Cyrillic letter is a glyph of its own (a font without them draws one empty box for each).
    letters = [overlay.text_mask(c, 24).tobytes() for c in "кулакжю"]
    assert overlay.text_mask("к", 24).any() and len(set(letters)) == len(set("кулакжю"))
    frame = np.random.default_rng(1).integers(0, 255, (720, 1280, 3), np.uint8)
    before = frame.copy()
    ru, en = _vote_frame(frame, "ru"), _vote_frame(frame, "en")
    assert np.array_equal(frame, before)  # the video reader's cached frame is never drawn on
    assert ru.shape == en.shape
    differ = np.any(ru != en, axis=2)
    assert differ[720:].any()  # the legend and the strip's marks under the picture
    assert differ[:720].any()  # the hands' labels on the picture
    assert not differ[:720, :400].any()  # the caption and the picture away from the labels stay as they were
    tile = overlay.text_mask("кулак 0.90", 15)
    assert tile.any() and not tile.flags.writeable  # a cached label cannot be drawn over by a later frame


def test_an_english_reader_sees_the_english_words() -> None:
    with i18n.using("en"):
        assert overlay.pose_label("thumb_up_fist") == "thumb-up fist"
        assert [overlay.mark_label(m) for m in ("t", "cutoff", "announced")] == ["named", "Stop", "count"]
        assert overlay.legend_items()[-1][1] == "seat in a finding"


def test_a_hands_score_is_named_as_the_detectors_certainty() -> None:
    """A bare «0.93» beside a hand reads as a count or a seat; the chip says what the number is, in the reader's
    words, and a hand without a score shows only its form."""
    with i18n.using("ru"):
        assert overlay.hand_label("fist", 0.934) == "кулак, уверенность 93 %"
    with i18n.using("en"):
        assert overlay.hand_label("open_palm", 0.5) == "open palm, 50 % sure"
        assert overlay.hand_label("fist", None) == "fist"


def test_without_a_font_with_cyrillic_the_words_are_english_in_opencvs_font(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where matplotlib's font is missing, OpenCV's Latin-only font draws the English words, never «?????»."""
    monkeypatch.setattr(overlay, "_font", lambda px, bold=False: None)
    with i18n.using("ru"):
        assert overlay.pose_label("fist") == "fist" and overlay.mark_label("cutoff") == "Stop"
        assert overlay.legend_items()[0][1] == "zone, no hand"
    frame = np.zeros((720, 1280, 3), np.uint8)
    ru, en = _vote_frame(frame, "ru"), _vote_frame(frame, "en")
    assert np.array_equal(ru, en) and ru[720:].any() and not frame.any()


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
