"""vision.live_source: a game watched live is recorded as it plays, and the joined recording shows the judge the
very frames the live view showed, at the same index and time, with its sound, even after a crash."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import av
import numpy as np
import pytest
from fixtures.vision.make_clips import write_clip

from contract import i18n
from vision.audio import RATE, read_audio
from vision.live_source import LiveSource, join_recording, join_since
from vision.video import VideoError, open_video

REPO = Path(__file__).resolve().parents[2]
VFR_TIMES = [i * 0.04 + (0.3 if i >= 40 else 0.0) + (0.013 if i % 3 == 1 else 0.0) for i in range(80)]
RAW = "testsrc=size=320x240:rate=25:duration=2[out0];sine=frequency=440:duration=2[out1]"


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """3.2 s of 320x192 H.264 with B-frames, a keyframe every second, and sound."""
    return write_clip(tmp_path_factory.mktemp("live") / "game.mp4", 80, fps=25, gop=25, audio=True)


@pytest.fixture(scope="module")
def vfr_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A phone's variable frame rate: uneven frame times and a pause."""
    return write_clip(tmp_path_factory.mktemp("live") / "phone.mp4", 80, gop=25, times=VFR_TIMES)


class Watcher:
    """What a consumer of the live frames sees: each picture (index, time, image) and how the source ended."""

    def __init__(self) -> None:
        self.frames: list[tuple[int, float, np.ndarray]] = []
        self.threads: set[int] = set()
        self.ended = threading.Event()
        self.reason: str | None = None

    def on_frame(self, picture) -> None:
        self.threads.add(threading.get_ident())
        self.frames.append((picture.index, picture.t, picture.image.copy()))

    def on_end(self, reason: str | None) -> None:
        self.reason = reason
        self.ended.set()


def watch(source: str, record: Path, **options) -> tuple[Watcher, LiveSource]:
    watcher = Watcher()
    with LiveSource(source, record, **options) as live:
        live.start(watcher.on_frame, watcher.on_end)
        assert watcher.ended.wait(30)
    return watcher, live


def video_packets(segment: Path) -> int:
    with av.open(str(segment)) as c:
        return sum(1 for p in c.demux(video=0) if p.size)


def assert_same_as_source(joined: Path, source: Path, count: int) -> None:
    """Frame k of the joined recording is frame k of the source: same time (1 ms) and the same picture."""
    with open_video(joined) as rec, open_video(source) as src:
        assert rec.meta.frame_count >= count
        for i in range(rec.meta.frame_count):
            assert rec.time_of(i) == pytest.approx(src.time_of(i), abs=1e-3)
            assert np.array_equal(rec.frame_at(i), src.frame_at(i)), i


@pytest.mark.parametrize("name", ["clip", "vfr_clip"])
def test_every_live_frame_is_in_the_joined_recording_at_its_index_and_time(name: str, request, tmp_path: Path) -> None:
    source: Path = request.getfixturevalue(name)
    watcher, live = watch(str(source), tmp_path / "rec", speed=None, segment_s=1.0)
    assert watcher.reason is None and threading.get_ident() not in watcher.threads and len(watcher.threads) == 1
    assert [f[0] for f in watcher.frames] == list(range(80))
    segments = sorted(p.name for p in (tmp_path / "rec").iterdir())
    assert segments == [f"segment_{i:05d}.ts" for i in range(len(segments))] and len(segments) >= 3
    assert (live.stats.frames, live.stats.segments) == (80, len(segments)) and live.stats.packets >= 80
    joined = join_recording(tmp_path / "rec", tmp_path / "joined.mp4")
    with open_video(joined) as rec, open_video(source) as src:
        assert rec.meta.frame_count == 80 and rec.meta.has_audio == src.meta.has_audio
        for index, t, image in watcher.frames:
            assert t == pytest.approx(src.time_of(index), abs=1e-3)
            assert rec.time_of(index) == pytest.approx(t, abs=1e-3)
            assert np.array_equal(rec.frame_at(index), image)


@pytest.mark.parametrize("name", ["clip", "vfr_clip"])
def test_a_stretch_of_the_recording_joined_on_its_own_shows_the_same_frames(name: str, request,
                                                                         tmp_path: Path) -> None:
    """Finding the seats mid-game needs the first day's votes, not the hour before them: the stretch joined from a
    moment on begins at a segment's start no later than that moment, and its frame at time T is the whole
    recording's frame at T plus where it begins (B-frames and a phone's uneven frame times alike)."""
    source: Path = request.getfixturevalue(name)
    watch(str(source), tmp_path / "rec", speed=None, segment_s=1.0)
    whole = join_recording(tmp_path / "rec", tmp_path / "whole.mp4", closed_only=True)
    begins = join_since(tmp_path / "rec", tmp_path / "part.mp4", 1.5)
    assert 0.5 <= begins <= 1.5
    with open_video(whole) as rec, open_video(tmp_path / "part.mp4") as part:
        assert part.meta.frame_count < rec.meta.frame_count
        first = rec.index_at(begins)
        assert rec.time_of(first) == pytest.approx(begins, abs=1e-3)
        for i in range(part.meta.frame_count):
            assert part.time_of(i) + begins == pytest.approx(rec.time_of(first + i), abs=1e-3)
            assert np.array_equal(part.frame_at(i), rec.frame_at(first + i)), i
    assert join_since(tmp_path / "rec", tmp_path / "from_0.mp4", 0.0) == 0.0  # before the first segment ends: all of it
    with pytest.raises(VideoError, match="never written over"):
        join_since(tmp_path / "rec", tmp_path / "part.mp4", 1.5)


def test_the_sound_is_recorded_and_joined_without_re_encoding(clip: Path, tmp_path: Path) -> None:
    watch(str(clip), tmp_path / "rec", speed=None, segment_s=1.0)
    joined = join_recording(tmp_path / "rec", tmp_path / "joined.mp4")
    with av.open(str(clip)) as src, av.open(str(joined)) as rec:
        kept = [(p.size, p.duration * p.time_base) for p in rec.demux(audio=0) if p.size]
        came = [(p.size, p.duration * p.time_base) for p in src.demux(audio=0) if p.size]
        assert rec.streams.audio[0].codec_context.name == "aac"
        assert [size for size, _ in kept] == [size for size, _ in came]  # the very packets, none re-encoded
        assert float(sum(d for _, d in kept)) == pytest.approx(float(sum(d for _, d in came)), abs=0.01)


@pytest.mark.parametrize("speed", [None, 4.0])
def test_the_sound_comes_as_it_plays_on_the_frames_clock(speed: float | None, tmp_path: Path) -> None:
    """The judge's voice handed on while it plays is the file's own sound at the same times (a «Стоп» heard live is
    placed where the audit of the recording hears it); a file played at its pace hands each stretch on no later
    than the pictures beside it, although the file stores its sound up to a second after them."""
    voiced = REPO / "sample_videos" / "clips" / "day1_vote_findings.mp4"
    heard: list[tuple[float, np.ndarray, float]] = []
    seen = [0.0]
    ended = threading.Event()
    with LiveSource(str(voiced), tmp_path / "rec", speed=speed) as live:
        live.start(lambda picture: seen.append(picture.t), lambda why: ended.set(),
                   lambda t, samples: heard.append((t, samples, seen[-1])))
        assert ended.wait(60)
    track = read_audio(voiced)
    assert heard and abs(heard[0][0] - track.start) < 0.01
    for t, samples, _picture in heard[10::25]:  # every stretch where the file has it, sample for sample
        i = track.index_at(t)
        assert samples.dtype == np.float32
        assert np.abs(samples - track.samples[i:i + len(samples)]).max() < 1e-3, t
    assert heard[-1][0] + len(heard[-1][1]) / RATE == pytest.approx(track.end, abs=0.05)
    if speed is not None:
        assert all(t + len(samples) / RATE >= picture - 0.3 for t, samples, picture in heard if picture < 20.0)


def test_a_source_without_sound_hands_none_on(vfr_clip: Path, tmp_path: Path) -> None:
    heard: list[float] = []
    watcher = Watcher()
    with LiveSource(str(vfr_clip), tmp_path / "rec", speed=None) as live:
        live.start(watcher.on_frame, watcher.on_end, lambda t, samples: heard.append(t))
        assert watcher.ended.wait(30)
    assert len(watcher.frames) == 80 and heard == []


def test_a_file_at_four_times_speed_takes_a_quarter_of_its_length(clip: Path, tmp_path: Path) -> None:
    began = time.monotonic()
    watcher, _ = watch(str(clip), tmp_path / "rec", speed=4.0, segment_s=1.0)
    took = time.monotonic() - began
    assert len(watcher.frames) == 80
    assert 0.8 * 3.2 / 4 <= took < 3.2  # paced to the clock, faster than real time


def test_a_stop_half_way_keeps_every_frame_seen(clip: Path, tmp_path: Path) -> None:
    watcher = Watcher()
    with LiveSource(str(clip), tmp_path / "rec", speed=2.0, segment_s=0.5) as live:
        live.start(watcher.on_frame, watcher.on_end)
        while len(watcher.frames) < 40:
            time.sleep(0.02)
        live.stop()
        assert watcher.ended.is_set() and watcher.reason is None
        assert live.silent_for() >= 0
    seen = len(watcher.frames)
    assert 40 <= seen < 80
    joined = join_recording(tmp_path / "rec", tmp_path / "joined.mp4")
    assert_same_as_source(joined, clip, seen)


CRASHING = """
import sys, threading
from pathlib import Path
from vision.live_source import LiveSource
ended = threading.Event()
live = LiveSource(sys.argv[1], Path(sys.argv[2]), speed=1.0, segment_s=0.5)
live.start(lambda p: print(p.index, flush=True), lambda reason: ended.set())
ended.wait()
"""


def test_a_recording_cut_by_a_crash_joins_every_frame_up_to_its_last_whole_segment(clip: Path, tmp_path: Path) -> None:
    record = tmp_path / "rec"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    with subprocess.Popen([sys.executable, "-c", CRASHING, str(clip), str(record)], stdout=subprocess.PIPE,
                          text=True, env=env) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            if int(line) >= 55:  # 2.2 s in: two segments closed (a keyframe a second), the third being written
                break
        os.kill(proc.pid, signal.SIGKILL)  # no finishing step of any kind
    segments = sorted(record.glob("segment_*.ts"))
    whole = sum(video_packets(s) for s in segments[:-1])
    assert len(segments) >= 3 and whole >= 50
    joined = join_recording(record, tmp_path / "joined.mp4")
    assert_same_as_source(joined, clip, whole)


def test_a_last_segment_cut_mid_packet_joins_up_to_its_whole_pictures(clip: Path, tmp_path: Path) -> None:
    watch(str(clip), tmp_path / "rec", speed=None, segment_s=1.0)
    segments = sorted((tmp_path / "rec").glob("segment_*.ts"))
    whole = sum(video_packets(s) for s in segments[:-1])
    cut = segments[-1].stat().st_size * 6 // 10
    os.truncate(segments[-1], cut + (7 if (cut + 7) % 188 else 8))
    joined = join_recording(tmp_path / "rec", tmp_path / "joined.mp4")
    assert_same_as_source(joined, clip, whole)


def test_raw_pictures_are_recorded_as_h264_and_join_with_every_frame(tmp_path: Path) -> None:
    with i18n.using("ru"):  # the reader speaks the language of the page that started it
        watcher, live = watch(RAW, tmp_path / "rec", segment_s=0.5, input_format="lavfi")
    assert live.meta.live and live.meta.has_audio and (live.meta.width, live.meta.height) == (320, 240)
    assert watcher.reason == f"{RAW}: камера перестала передавать видео; запись до этого момента сохранена в " \
                             f"{tmp_path / 'rec'}."  # a live source that stops is told, not hidden
    assert [f[0] for f in watcher.frames] == list(range(50))
    segments = sorted((tmp_path / "rec").glob("segment_*.ts"))
    assert len(segments) >= 3
    with av.open(str(segments[0])) as c:
        assert [s.codec_context.name for s in c.streams] == ["h264", "aac"]
    joined = join_recording(tmp_path / "rec", tmp_path / "joined.mp4")
    with open_video(joined) as rec:
        assert rec.meta.frame_count == 50 and rec.meta.has_audio
        for index, t, image in watcher.frames:
            assert rec.time_of(index) == pytest.approx(t, abs=1e-3)
            assert np.abs(rec.frame_at(index).astype(int) - image).mean() < 8  # encoded: close, not equal


def test_a_missing_file_is_refused_naming_it_and_nothing_is_written(tmp_path: Path) -> None:
    missing = tmp_path / "нет.mp4"
    with pytest.raises(VideoError, match="^" + str(missing) + ": no such video file"):
        LiveSource(str(missing), tmp_path / "rec")
    assert not (tmp_path / "rec").exists()


def test_a_camera_that_is_not_there_and_a_stream_that_refuses_are_named(tmp_path: Path) -> None:
    with pytest.raises(VideoError, match="^/dev/video97: no such camera device"):
        LiveSource("/dev/video97", tmp_path / "rec")
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"rtsp://127.0.0.1:{port}/live"
    with pytest.raises(VideoError, match="^" + url + ": the camera or stream cannot be opened") as refused:
        LiveSource(url, tmp_path / "rec")
    assert str(refused.value).endswith(").") and not (tmp_path / "rec").exists()


def test_a_folder_that_holds_files_is_refused_and_left_as_it_was(clip: Path, tmp_path: Path) -> None:
    (tmp_path / "rec").mkdir()
    (tmp_path / "rec" / "notes.txt").write_text("судья", encoding="utf-8")
    with pytest.raises(VideoError, match="^" + str(tmp_path / "rec") + " is not a new or empty folder"):
        LiveSource(str(clip), tmp_path / "rec")
    assert [p.name for p in (tmp_path / "rec").iterdir()] == ["notes.txt"]


def test_joining_over_an_existing_file_is_refused_and_it_stays(clip: Path, tmp_path: Path) -> None:
    watch(str(clip), tmp_path / "rec", speed=None, segment_s=1.0)
    out = tmp_path / "game.mp4"
    out.write_bytes(b"the judge's own file")
    with pytest.raises(VideoError, match="^" + str(out) + " already exists"):
        join_recording(tmp_path / "rec", out)
    assert out.read_bytes() == b"the judge's own file"
    with pytest.raises(VideoError, match="holds no recording"):
        join_recording(tmp_path / "empty", tmp_path / "other.mp4")
    assert not (tmp_path / "other.mp4").exists()


def test_a_stream_over_the_network_is_recorded_and_its_silence_is_a_stopped_camera(clip: Path, tmp_path: Path) -> None:
    """A stream (here UDP MPEG-TS sent by ffmpeg at real speed, as a phone's camera app sends one) is never paced,
    every frame is handed on and recorded, and when the sender goes quiet the judge is told the camera stopped."""
    port = 23000 + os.getpid() % 2000
    sent: list[subprocess.Popen] = []

    def send() -> None:  # once the receiver listens (opening a stream waits for its first packets)
        time.sleep(1.0)
        sent.append(subprocess.Popen(["ffmpeg", "-loglevel", "error", "-re", "-i", str(clip), "-c", "copy", "-f",
                                      "mpegts", f"udp://127.0.0.1:{port}?pkt_size=1316"]))

    threading.Thread(target=send, daemon=True).start()
    try:
        watcher, live = watch(f"udp://127.0.0.1:{port}?timeout=2000000", tmp_path / "rec")
    finally:
        for sender in sent:
            sender.wait(30)
    assert live.meta.live
    assert "the camera stopped sending video" in (watcher.reason or "")
    joined = join_recording(tmp_path / "rec", tmp_path / "game.mp4")
    with open_video(joined) as rec:
        assert rec.meta.frame_count == len(watcher.frames) >= 70  # a stream joined mid-way begins at a keyframe
        for index, t, _image in watcher.frames:
            assert rec.time_of(index) == pytest.approx(t, abs=1e-3)


def test_a_phone_camera_app_s_mjpeg_over_http_is_watched_and_recorded(tmp_path: Path) -> None:
    """A phone's camera app serves its pictures as MJPEG over HTTP (http://PHONE:8080/video): each picture comes and
    is recorded (encoded to H.264, as MPEG-TS cannot carry MJPEG); when the app stops, the page is told so and the
    recording so far joins at the live frames' times."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    served = subprocess.Popen(["ffmpeg", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
                               "testsrc=size=320x240:rate=25:duration=3", "-c:v", "mjpeg", "-q:v", "5", "-f", "mpjpeg",
                               "-listen", "1", f"http://127.0.0.1:{port}/video"])
    try:
        deadline = time.monotonic() + 10
        while True:  # refused until the app listens (it serves one viewer: no knocking first)
            try:
                watcher, live = watch(f"http://127.0.0.1:{port}/video", tmp_path / "rec")
                break
            except VideoError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
    finally:
        served.kill()
        served.wait(10)
    assert live.meta.live and (live.meta.width, live.meta.height) == (320, 240)
    assert "the camera stopped sending video" in (watcher.reason or "")
    joined = join_recording(tmp_path / "rec", tmp_path / "game.mp4")
    with open_video(joined) as rec:
        assert rec.meta.frame_count == len(watcher.frames) >= 60
        for index, t, _image in watcher.frames[::10]:
            assert rec.time_of(index) == pytest.approx(t, abs=1e-3)


def test_a_phone_file_shown_rotated_records_and_joins_upright(clip: Path, tmp_path: Path) -> None:
    """A phone's file carries its rotation as display data, which MPEG-TS segments cannot hold: the joined recording
    is shown at the same rotation, so its upright pictures are the live ones and the seat map fits both."""
    phone = tmp_path / "phone.mp4"
    with av.open(str(clip)) as src, av.open(str(phone), "w", format="mp4") as out:
        video = out.add_stream_from_template(src.streams.video[0])
        video.set_display_rotation(90)
        for packet in src.demux(src.streams.video[0]):
            if packet.size:
                packet.stream = video
                out.mux(packet)
    watcher, live = watch(str(phone), tmp_path / "rec", speed=None)
    assert live.meta.rotation == 90 and (live.meta.width, live.meta.height) == (192, 320)
    joined = join_recording(tmp_path / "rec", tmp_path / "game.mp4")
    with open_video(joined) as rec:
        assert rec.meta.rotation == 90 and (rec.meta.width, rec.meta.height) == (192, 320)
        assert rec.meta.frame_count == len(watcher.frames)
        for index, t, image in watcher.frames[::10]:
            assert rec.time_of(index) == pytest.approx(t, abs=1e-3)
            assert np.array_equal(rec.frame_at(index), image)
