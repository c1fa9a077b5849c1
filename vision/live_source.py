"""A live game: a camera, a stream or a file played at its own pace, recorded while it is watched.

Why: a judge running a game live needs the hand detection to see each frame as it comes and, after the game,
the very same frames in a file to review. One reader thread reads the source's packets, writes every one (video
and audio) into short MPEG-TS segments and hands each decoded frame on (`LiveSource.start`). A segment is closed at
a keyframe every `segment_s` seconds, so a crash loses at most the segment being written (MPEG-TS reads even when
cut short); `join_recording` puts the segments back into one MP4 that `vision.video.open_video` reads with every
frame's index and time equal to the live ones.

Compressed video (H.264, HEVC: files, RTSP cameras) is copied as it came; raw or MJPEG pictures (a USB webcam)
are encoded to H.264 (libx264, ultrafast), and audio the segments cannot carry is encoded to AAC. Every timestamp
is moved by one constant, the first keyframe's start, so none is negative and the recording keeps the source's
clock: frame k's time is the same in the live stream and in the joined file.
"""

from __future__ import annotations

import bisect
import contextvars
import dataclasses
import functools
import math
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import numpy as np

from contract.i18n import _
from vision.audio import RATE
from vision.media_errors import reason
from vision.video import Picture, VideoError

COPIED_VIDEO = frozenset({"h264", "hevc"})  # compressed video both MPEG-TS and MP4 carry: copied, never re-encoded
COPIED_AUDIO = frozenset({"aac", "mp3", "ac3"})
OPEN_TIMEOUT_S = 10.0  # a camera or stream that answers nothing this long cannot be opened
READ_TIMEOUT_S = 10.0  # ... and one that sends nothing this long has stopped (the page says so sooner: silent_for)
SEGMENT = "segment_{:05d}.ts"
ROTATION_FILE = "display_rotation.txt"  # beside the segments: the rotation the joined video is shown at
TS_PACKET = 188  # MPEG-TS is written in packets of this many bytes: a segment of another length was cut short
AAC_FRAME = 1024  # samples per AAC frame
URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
SOUND_LEAD_S = 0.1  # a paced file's sound is handed on this far ahead of its pictures: a tap never waits for it


@dataclass(frozen=True)
class LiveMeta:
    source: str
    fps: float  # the rate the source states (a camera's may vary: frame times are its timestamps)
    width: int  # upright
    height: int
    rotation: int  # degrees counter-clockwise applied to make the picture upright
    has_audio: bool
    live: bool  # a camera or a stream (never paced); False: a file played at `speed`


@dataclass
class LiveStats:
    frames: int = 0  # decoded and handed on
    packets: int = 0  # written into the recording
    segments: int = 0  # segment files begun


class _WriteFailed(Exception):
    """Writing the recording failed (disk full, folder gone): told apart from the source failing."""


def _refusal(source: str, why: str, exc: BaseException | None = None) -> VideoError:
    """One sentence naming the source, the library's reason in brackets (as vision.video words a file's)."""
    text = reason(exc) if exc is not None else ""
    detail = f" ({text.rstrip('.').lower()})" if text else ""
    return VideoError(f"{source}: {why}{detail}.")


def _mono() -> Any:
    """The resampler to the listener's sound: mono float32 at vision.audio.RATE."""
    return av.AudioResampler(format="flt", layout="mono", rate=RATE)


def _check_folder(folder: Path) -> None:
    """A recording goes only into a new or empty folder: a judge's files are never written over."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise VideoError(_("{folder} is not a new or empty folder; a recording is written only into one, so no "
                           "file is ever overwritten.", folder=folder))


def _open_source(source: str, input_format: str | None) -> tuple[Any, bool]:
    """The opened container and whether it is live: a URL, a /dev/video* device or a named input format."""
    if input_format is None and source.startswith("/dev/video"):
        input_format = "v4l2"
    live = input_format is not None or bool(URL.match(source))
    if not live:
        path = Path(source)
        if not path.exists():
            raise _refusal(source, _("no such video file"))
        if path.is_dir():
            raise _refusal(source, _("is a folder, not a video file"))
        if path.stat().st_size == 0:
            raise _refusal(source, _("the video file is empty (0 bytes)"))
    elif source.startswith("/dev/") and not Path(source).exists():
        raise _refusal(source, _("no such camera device"))
    try:
        if live:
            return av.open(source, format=input_format, timeout=(OPEN_TIMEOUT_S, READ_TIMEOUT_S)), True
        return av.open(source), False
    except (av.FFmpegError, OSError, UnicodeDecodeError) as exc:
        why = _("the camera or stream cannot be opened") if live else _("cannot be read as a video")
        raise _refusal(source, why, exc) from exc


class _Recorder:
    """The MPEG-TS segments: packets written as they come, a new segment at the first keyframe after `segment_s`.

    Each stream's timestamps are moved by the same number of seconds (`begin`: the first keyframe's start), so
    nothing is negative (MPEG-TS cannot store it) and every segment keeps one clock with the others."""

    def __init__(self, folder: Path, segment_s: float, fps: float, templates: dict[str, Any], stats: LiveStats) -> None:
        self.folder, self.segment_s, self.templates, self.stats = folder, segment_s, templates, stats
        self.slack = 0.5 / fps  # a keyframe half a frame early (a camera's clock jitters) still ends a segment
        self.origin: Fraction | None = None
        self._out: Any = None
        self._streams: dict[str, Any] = {}
        self._shifts: dict[tuple[str, Fraction], int] = {}
        self._segment_start = Fraction(0)

    def begin(self, packet: Any) -> None:
        """The recording's zero: the first video keyframe's decoding time (its earliest)."""
        stamp = packet.dts if packet.dts is not None else packet.pts
        self.origin = Fraction(stamp or 0) * packet.time_base

    def write(self, packet: Any, kind: str) -> None:
        """Write one packet ("video" or "audio"); a video keyframe `segment_s` after the segment's first begins
        the next segment."""
        if self.origin is None or packet.time_base is None:
            return
        shift = self._shift(kind, packet.time_base)
        if packet.pts is not None:
            packet.pts -= shift
        if packet.dts is not None:
            packet.dts -= shift
        stamp = packet.pts if packet.pts is not None else packet.dts
        if stamp is None or stamp < 0:
            return  # sound from before the first picture
        try:
            if kind == "video" and packet.is_keyframe:
                start = Fraction(stamp) * packet.time_base
                if self._out is None or start - self._segment_start >= self.segment_s - self.slack:
                    self._next_segment(start)
            if self._out is None:
                return
            packet.stream = self._streams[kind]
            self._out.mux(packet)
        except (av.FFmpegError, OSError) as exc:
            raise _WriteFailed(exc) from exc
        self.stats.packets += 1

    def _shift(self, kind: str, time_base: Fraction) -> int:
        key = (kind, time_base)
        if key not in self._shifts:
            assert self.origin is not None
            self._shifts[key] = round(self.origin / time_base)
        return self._shifts[key]

    def _next_segment(self, start: Fraction) -> None:
        self.close()
        self._out = av.open(str(self.folder / SEGMENT.format(self.stats.segments)), "w", format="mpegts")
        self._streams = {kind: self._out.add_stream_from_template(t) for kind, t in self.templates.items()}
        self._segment_start = start
        self.stats.segments += 1

    def close(self) -> None:
        """Close the segment being written (the last one stays readable even when this never runs)."""
        if self._out is not None:
            out, self._out = self._out, None
            try:
                out.close()
            except (av.FFmpegError, OSError) as exc:
                raise _WriteFailed(exc) from exc


class _Encoders:
    """libx264 for raw or MJPEG pictures, AAC for sound the segments cannot carry as it came.

    Why in a container of FFmpeg's null format: each segment's stream copies an encoder's parameters (its
    extradata included) from a stream, and one encoder runs through all segments, so no picture or sound is
    encoded twice or cut at a segment's edge."""

    def __init__(self, video: Any, audio: Any, gop: int) -> None:
        self._holder = av.open(os.devnull, "w", format="null")
        self.video = self.audio = None
        self._resampler = None
        if video is not None:
            self.video = self._holder.add_stream("libx264", rate=video.average_rate or video.guessed_rate or 25,
                                                 options={"preset": "ultrafast"})
            ctx = self.video.codec_context
            ctx.width, ctx.height, ctx.pix_fmt = video.codec_context.width, video.codec_context.height, "yuv420p"
            ctx.time_base, ctx.gop_size = video.time_base, gop
        if audio is not None:
            rate = audio.codec_context.sample_rate or 48000
            layout = "mono" if audio.codec_context.layout.nb_channels == 1 else "stereo"
            self.audio = self._holder.add_stream("aac", rate=rate, layout=layout)
            self.audio.codec_context.time_base = Fraction(1, rate)
            self._resampler = av.AudioResampler(format="fltp", layout=layout, rate=rate, frame_size=AAC_FRAME)
        self._holder.start_encoding()

    def picture(self, frame: Any) -> list[Any]:
        """Packets of one picture; its own picture type is dropped so the encoder places the keyframes."""
        image = frame.reformat(format="yuv420p")
        image.pict_type = av.video.frame.PictureType.NONE
        return self._packets(self.video, self.video.encode(image))

    def sound(self, frame: Any) -> list[Any]:
        """Packets of one decoded stretch of sound (None: what the encoder still holds)."""
        assert self.audio is not None and self._resampler is not None
        frames = self._resampler.resample(frame)
        packets = [p for f in frames for p in self.audio.encode(f)]
        if frame is None:
            packets += self.audio.encode(None)
        return self._packets(self.audio, packets)

    def flush_pictures(self) -> list[Any]:
        return self._packets(self.video, self.video.encode(None))

    @staticmethod
    def _packets(stream: Any, packets: list[Any]) -> list[Any]:
        for packet in packets:
            packet.time_base = stream.codec_context.time_base
        return packets

    def close(self) -> None:
        self._holder.close()


class LiveSource:
    """A camera, a stream or a file, watched and recorded at once. Use as a context manager, or call close().

    `source`: a file, a device (/dev/video*: V4L2), a URL (rtsp://, http(s)://, udp://, srt:// ...) or, with
    `input_format`, any input FFmpeg names ("dshow", "avfoundation", "lavfi"). `speed` paces a file to the wall
    clock (1.0 real time, 4.0 four times faster, None as fast as it decodes); a live source is never paced.
    `record_dir` must be new or empty. The source is opened here (`meta`); a source that cannot be opened raises
    VideoError with one sentence naming it."""

    def __init__(self, source: str, record_dir: Path, *, speed: float | None = 1.0, segment_s: float = 2.0,
                 input_format: str | None = None) -> None:
        if speed is not None and not speed > 0:
            raise ValueError("speed must be above 0 or None")
        self.source, self.record_dir = str(source), Path(record_dir)
        self._speed, self._segment_s = speed, segment_s
        _check_folder(self.record_dir)
        self._container, live = _open_source(self.source, input_format)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._listener: threading.Thread | None = None  # a paced file's own reader of its sound
        self._stats = LiveStats()
        self._last_packet = time.monotonic()
        try:
            self.meta = self._setup(live)
        except BaseException:
            self._container.close()
            raise

    def _setup(self, live: bool) -> LiveMeta:
        c = self._container
        if not c.streams.video:
            raise _refusal(self.source, _("is an audio-only file; a video is needed") if c.streams.audio
                           else _("is a file without a video stream; a video is needed"))
        self._video = c.streams.video[0]
        self._audio = c.streams.audio[0] if c.streams.audio else None
        if self._video.codec_context is None:
            raise _refusal(self.source, _("uses a video codec this build cannot decode"))
        self._video.thread_type = "AUTO"
        self._tb = self._video.time_base or Fraction(1, 90000)
        self._rotation = 0 if live else self._file_rotation()
        fps = float(self._video.average_rate or self._video.guessed_rate or 0) or 25.0
        w, h = self._video.codec_context.width, self._video.codec_context.height
        if self._rotation in (90, 270):
            w, h = h, w
        return LiveMeta(self.source, fps, w, h, self._rotation, self._audio is not None, live)

    def _file_rotation(self) -> int:
        """A file's display rotation (a phone's): known from its first frame, read here and read again later."""
        try:
            first = next(self._container.decode(self._video), None)
            self._container.seek(0, stream=self._video)
        except av.FFmpegError as exc:
            raise _refusal(self.source, _("cannot be decoded"), exc) from exc
        if first is None:
            raise _refusal(self.source, _("contains no decodable video frames (truncated or damaged?)"))
        return int(round((first.rotation or 0) / 90.0)) * 90 % 360

    # ---------------------------------------------------------------- the reader
    def start(self, on_frame: Callable[[Picture], None], on_end: Callable[[str | None], None],
              on_sound: Callable[[float, np.ndarray], None] | None = None) -> None:
        """Start the reader thread. It calls `on_frame` with each frame in presentation order (index from 0, time
        from the first frame, as `vision.video` reads the joined recording) and never waits for the consumer,
        which must queue what it cannot take at once. `on_sound(t, samples)`, where given and the source has
        sound, gets the sound as it comes: mono float32 at vision.audio.RATE, `t` the first sample's time on the
        frames' clock (the judge's «Стоп» is heard in it). `on_end` comes once, last: None when a file ended or
        stop() was asked for, else one sentence saying why the source stopped (the recording so far is kept)."""
        if self._thread is not None:
            raise ValueError("start() is called once per LiveSource")
        _check_folder(self.record_dir)
        self.record_dir.mkdir(parents=True, exist_ok=True)
        if self._rotation:  # MPEG-TS keeps no display rotation: the join gives it back to the recording
            (self.record_dir / ROTATION_FILE).write_text(str(self._rotation), encoding="utf-8")
        copied_video = self._video.codec_context.name in COPIED_VIDEO
        copied_audio = self._audio is None or self._audio.codec_context.name in COPIED_AUDIO
        gop = max(1, round(self.meta.fps * self._segment_s))
        self._encoders = None if copied_video and copied_audio else _Encoders(
            None if copied_video else self._video, None if copied_audio else self._audio, gop)
        templates = {"video": self._video if copied_video else self._encoders.video}
        if self._audio is not None:
            templates["audio"] = self._audio if copied_audio else self._encoders.audio
        self._recorder = _Recorder(self.record_dir, self._segment_s, self.meta.fps, templates, self._stats)
        self._copied = {"video": copied_video, "audio": copied_audio}
        self._on_sound_heard = on_sound if self._audio is not None else None
        paced_file = not self.meta.live and self._speed is not None
        self._hearing = _mono() if self._on_sound_heard and not paced_file else None
        self._pts0: int | None = None
        self._shown_t = 0.0  # the newest picture handed on (a paced file's sound follows it)
        self._wall0: float | None = None
        self._last_packet = time.monotonic()
        run = contextvars.copy_context().run  # the reader speaks the language its starter chose
        self._thread = threading.Thread(target=run, args=(self._read, on_frame, on_end), name="live-source",
                                        daemon=True)
        self._thread.start()
        if self._on_sound_heard is not None and paced_file:
            self._listener = threading.Thread(target=contextvars.copy_context().run, args=(self._listen_file,),
                                              name="live-sound", daemon=True)
            self._listener.start()

    def _read(self, on_frame: Callable[[Picture], None], on_end: Callable[[str | None], None]) -> None:
        why: str | None = None
        try:
            self._pump(on_frame)
            self._finish(on_frame)
            self._recorder.close()
            if self.meta.live and not self._stop.is_set():
                why = _("{source}: the camera stopped sending video; the recording so far is kept in {folder}.",
                        source=self.source, folder=self.record_dir)
        except _WriteFailed as failed:
            why = _("{folder}: the recording could not be written further ({reason}); what was written so far is "
                    "kept.", folder=self.record_dir, reason=reason(failed.__cause__ or failed).rstrip(".").lower())
        except (av.FFmpegError, OSError) as exc:
            self._salvage(on_frame)
            if self.meta.live:  # a stream or camera that goes quiet ends in a read timeout: it stopped sending
                why = _("{source}: the camera stopped sending video; the recording so far is kept in {folder}.",
                        source=self.source, folder=self.record_dir)
            else:
                why = _("{source}: the video could not be read further ({reason}); the recording so far is kept in "
                        "{folder}.", source=self.source, reason=reason(exc).rstrip(".").lower(),
                        folder=self.record_dir)
        finally:
            self._close_files()
        on_end(why)

    def _pump(self, on_frame: Callable[[Picture], None]) -> None:
        streams = [s for s in (self._video, self._audio) if s is not None]
        for packet in self._container.demux(*streams):
            if self._stop.is_set() and self._at_clean_end(packet):
                return
            self._last_packet = time.monotonic()
            if packet.size == 0:
                continue  # the demuxer's end-of-stream marker
            if packet.stream is self._video:
                self._on_picture(packet, on_frame)
            elif self._recorder.origin is not None:
                self._on_sound(packet)

    def _at_clean_end(self, packet: Any) -> bool:
        """Where a stop may end the recording: before a keyframe of copied video, since pictures that come out of
        order (B-frames) are whole only with their group; encoded pictures come in order and end anywhere."""
        if self._recorder.origin is None or not self._copied["video"]:
            return True
        return packet.stream is self._video and packet.is_keyframe

    def _on_picture(self, packet: Any, on_frame: Callable[[Picture], None]) -> None:
        """Decode first (writing rebases the packet's times), then record, then hand the frames on."""
        if self._recorder.origin is None:
            if self._copied["video"] and not packet.is_keyframe:
                return  # a stream joined mid-way: nothing decodes before its first keyframe
            self._recorder.begin(packet)  # (pictures to encode each stand alone: the encoder begins with a keyframe)
        try:
            frames = self._video.decode(packet)
        except av.InvalidDataError:
            frames = []  # one damaged packet (a camera on Wi-Fi) costs its picture, not the game's recording
        if self._copied["video"]:
            self._recorder.write(packet, "video")
        for frame in frames:
            self._deliver(frame, on_frame)

    def _on_sound(self, packet: Any) -> None:
        """Decode where the sound is heard or encoded (before writing, which rebases the packet's times), record,
        then hand the sound on."""
        assert self._audio is not None
        frames: list[Any] = []
        if self._hearing is not None or not self._copied["audio"]:
            try:
                frames = self._audio.decode(packet)
            except av.InvalidDataError:
                frames = []  # a damaged packet of sound costs its stretch of the listening, never the recording
        if self._copied["audio"]:
            self._recorder.write(packet, "audio")
        else:
            assert self._encoders is not None
            for frame in frames:
                for encoded in self._encoders.sound(frame):
                    self._recorder.write(encoded, "audio")
        if self._hearing is not None and self._pts0 is not None:
            for frame in frames:
                self._hear(self._hearing, frame)

    def _hear(self, resampler: Any, frame: Any) -> None:
        """One decoded stretch of sound, as mono at RATE on the frames' clock, to the listener."""
        assert self._on_sound_heard is not None and self._pts0 is not None
        origin = float(self._pts0 * self._tb)
        for out in resampler.resample(frame):
            if out.pts is None or out.time_base is None:
                continue
            self._on_sound_heard(float(out.pts * out.time_base) - origin, out.to_ndarray().reshape(-1))

    def _listen_file(self) -> None:
        """A file played at real speed: its sound heard from a reader of its own, paced like its pictures (a little
        ahead), since a file stores its sound in stretches up to a second after the pictures beside it, which the
        pictures' reader would reach that much late. The recording still takes the sound from the pictures' reader."""
        resampler = _mono()
        try:
            with av.open(self.source) as container:
                for frame in container.decode(container.streams.audio[0]):
                    if frame.time is None:
                        continue
                    # each stretch once the pictures beside it are handed on (a little ahead): bound to the pictures,
                    # not the wall clock, so a busy machine's late pictures never find their sound gone by
                    while self._pts0 is None or float(frame.time) - float(self._pts0 * self._tb) > self._shown_t + SOUND_LEAD_S:
                        if self._stop.wait(0.01) or not self._thread or not self._thread.is_alive():
                            return
                    self._hear(resampler, frame)
        except (av.FFmpegError, OSError):
            return  # the sound is only listened to: the pictures and their recording go on without it

    def _deliver(self, frame: Any, on_frame: Callable[[Picture], None]) -> None:
        if frame.pts is None:
            return
        if self._pts0 is None:
            self._pts0 = frame.pts
        t = float((frame.pts - self._pts0) * self._tb)
        self._pace(t)
        if not self._copied["video"]:
            assert self._encoders is not None
            for packet in self._encoders.picture(frame):
                self._recorder.write(packet, "video")
        on_frame(Picture(self._stats.frames, t, frame, self._rotation))
        self._shown_t = t
        self._stats.frames += 1

    def _pace(self, t: float) -> None:
        """A file shown at `speed` times real time: wait until frame time t is due (a stop ends the wait)."""
        if self.meta.live or self._speed is None:
            return
        now = time.monotonic()
        if self._wall0 is None:
            self._wall0 = now - t / self._speed
        delay = self._wall0 + t / self._speed - now
        if delay > 0:
            self._stop.wait(delay)

    def _finish(self, on_frame: Callable[[Picture], None]) -> None:
        """The frames the decoder still holds, then what the encoders hold, into the recording."""
        if self._recorder.origin is None:
            return
        for frame in self._video.decode(None):
            self._deliver(frame, on_frame)
        if self._encoders is None:
            return
        if self._encoders.video is not None:
            for packet in self._encoders.flush_pictures():
                self._recorder.write(packet, "video")
        if self._encoders.audio is not None:
            for packet in self._encoders.sound(None):
                self._recorder.write(packet, "audio")

    def _salvage(self, on_frame: Callable[[Picture], None]) -> None:
        """After the source failed, the frames the decoder still holds handed on as well, so the live frames are
        the recording's; what cannot be had any more is left (the failure is what the judge is told)."""
        try:
            self._finish(on_frame)
        except (av.FFmpegError, OSError, _WriteFailed):
            return

    def _close_files(self) -> None:
        """Everything the reader opened, whatever ended it; a segment that cannot be closed after a failure is
        left as written (the failure is what the judge is told)."""
        try:
            self._recorder.close()
        except _WriteFailed:
            pass
        finally:
            if self._encoders is not None:
                self._encoders.close()
            self._container.close()

    # ---------------------------------------------------------------- the page's questions
    def silent_for(self) -> float:
        """Seconds since the source last sent a packet: the page says the camera stopped sending when it grows."""
        return time.monotonic() - self._last_packet

    @property
    def stats(self) -> LiveStats:
        """Frames handed on, packets written, segments begun so far (a copy)."""
        return dataclasses.replace(self._stats)

    # ---------------------------------------------------------------- lifetime
    def stop(self) -> None:
        """End the reader and close the current segment. The group of pictures being read is finished first (a
        camera's lasts a second or two, a file's is read at once), so the recording ends on whole pictures; a
        camera that sends nothing is given up after READ_TIMEOUT_S."""
        self._stop.set()
        for thread in (self._thread, self._listener):
            if thread is not None and thread is not threading.current_thread():
                thread.join()

    def close(self) -> None:
        self.stop()
        if self._thread is None:
            self._container.close()

    def __enter__(self) -> LiveSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def join_recording(record_dir: Path, out: Path, *, closed_only: bool = False) -> Path:
    """The segments of `record_dir`, in order, as one MP4 (video and audio copied, nothing re-encoded) that
    `vision.video.open_video` reads with the live frames' indices and times. After a crash it joins what reads:
    it stops at the first segment that cannot be opened, and leaves out the last picture of a segment cut short
    (its bytes may end mid-picture). `closed_only`: the recording goes on, and its newest segment, still being
    written, is left out. Refuses an `out` that exists: no file is written over."""
    segments = _segments(record_dir)
    _join(record_dir, segments[:-1] if closed_only else segments, out)
    return out


def join_since(record_dir: Path, out: Path, since: float) -> float:
    """The recording's closed segments from the one showing `since` (seconds on the recording's clock) on, joined
    as `join_recording` joins them all, and where the joined video begins on the recording's clock (its time 0
    is that moment). Why: a question about one stretch of a long game (the first day's votes) copies that
    stretch, not every gigabyte recorded before it."""
    segments = _segments(record_dir)[:-1]  # the newest is still being written
    keyframe = functools.cache(_first_keyframe)

    def begins(i: int) -> float:
        """Segment i's first picture on the recording's clock (time 0: the first segment's); an unreadable one
        never begins the stretch."""
        stamp, zero = keyframe(segments[i]), keyframe(segments[0])
        return math.inf if stamp is None or zero is None else float(stamp - zero)

    k = max(0, bisect.bisect_right(range(len(segments)), since, key=begins) - 1)
    _join(record_dir, segments[k:], out)
    return begins(k)


def _segments(record_dir: Path) -> list[Path]:
    record_dir = Path(record_dir)
    return sorted(record_dir.glob("segment_*.ts")) if record_dir.is_dir() else []


def _join(record_dir: Path, segments: list[Path], out: Path) -> None:
    """Join `segments` (of `record_dir`, in order) into `out`; see join_recording."""
    record_dir, out = Path(record_dir), Path(out)
    if out.exists():
        raise VideoError(_("{path} already exists; the joined recording is never written over a file.", path=out))
    inputs = _open_segments(segments)
    if not inputs:
        raise VideoError(_("{folder} holds no recording: there is no readable segment_00000.ts in it.",
                           folder=record_dir))
    part = out.with_name(out.name + ".part")  # a join cut short leaves no half video under the game's name
    try:
        with av.open(str(part), "w", format="mp4") as sink:
            _copy_segments(sink, inputs, _rotation_of(record_dir))
        if out.exists():
            raise VideoError(_("{path} already exists; the joined recording is never written over a file.", path=out))
        part.rename(out)
    except (av.FFmpegError, OSError) as exc:
        raise VideoError(_("{path}: the joined recording cannot be written ({reason}).", path=out,
                           reason=reason(exc).rstrip(".").lower())) from exc
    finally:
        part.unlink(missing_ok=True)
        for container, _whole in inputs:
            container.close()


def _first_keyframe(segment: Path) -> Fraction | None:
    """The time stamp (seconds) of a segment's first keyframe, None where the segment cannot be read."""
    try:
        with av.open(str(segment), format="mpegts") as container:
            if container.streams.video:
                for packet in container.demux(container.streams.video[0]):
                    if packet.is_keyframe and packet.pts is not None:
                        return Fraction(packet.pts) * packet.time_base
    except (av.FFmpegError, OSError):
        pass
    return None


def _rotation_of(record_dir: Path) -> int:
    """The display rotation the source had (a phone's file), kept beside the segments; 0 when none was kept."""
    try:
        return int((record_dir / ROTATION_FILE).read_text(encoding="utf-8").strip()) % 360
    except (OSError, ValueError):
        return 0


def _open_segments(segments: list[Path]) -> list[tuple[Any, bool]]:
    """The segments that open, in order up to the first that does not, each with whether it is whole."""
    opened: list[tuple[Any, bool]] = []
    for path in segments:
        size = path.stat().st_size
        try:
            container = av.open(str(path), format="mpegts") if size else None
        except (av.FFmpegError, OSError):
            container = None
        if container is None or not container.streams.video:
            if container is not None:
                container.close()
            break
        opened.append((container, size % TS_PACKET == 0))
    return opened


def _copy_segments(sink: Any, inputs: list[tuple[Any, bool]], rotation: int = 0) -> None:
    """Copy every packet of the whole segments, and of a cut one what makes whole pictures (`_whole_pictures`)."""
    first = inputs[0][0]
    streams = {"video": sink.add_stream_from_template(first.streams.video[0])}
    if rotation:
        streams["video"].set_display_rotation(rotation)
    if first.streams.audio:
        streams["audio"] = sink.add_stream_from_template(first.streams.audio[0])
    for container, whole in inputs:
        wanted = [s for s in container.streams.video[:1] + container.streams.audio[:1] if s.type in streams]
        packets = (p for p in container.demux(*wanted) if p.size and not p.is_corrupt)
        for packet in packets if whole else _whole_pictures(list(packets)):
            packet.stream = streams[packet.stream.type]
            sink.mux(packet)


def _whole_pictures(packets: list[Any]) -> list[Any]:
    """A cut segment's packets that give whole pictures with no gap in time. Its last picture may end mid-way, so
    it goes; where pictures come out of order (B-frames), a kept one may lean on one that is gone, so only the
    groups of pictures before the last keyframe stay. Sound stays as far as the pictures go."""
    video = [p for p in packets if p.stream.type == "video"]
    if not video:
        return []
    kept = video[:-1]
    if any(p.pts != p.dts for p in kept):
        kept = kept[:max((i for i, p in enumerate(kept) if p.is_keyframe), default=0)]
    end = min((Fraction(p.pts) * p.time_base for p in video[len(kept):] if p.pts is not None), default=Fraction(0))
    chosen = {id(p) for p in kept}
    return [p for p in packets if id(p) in chosen or (p.stream.type == "audio" and p.pts is not None
                                                      and Fraction(p.pts) * p.time_base < end)]
