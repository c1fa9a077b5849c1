"""Video input with PyAV: metadata, frame-exact seeking, and streaming over time windows.

Frame indices are positions in the stream's presentation order; times come from the container's
presentation timestamps (relative to the first frame), so variable-frame-rate phone videos keep
their real clock. Frames come out BGR (OpenCV's order) and upright (the display matrix applied).
Nothing holds more than a small, byte-bounded cache of decoded frames, so memory stays flat
however long the file is.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import numpy as np

from contract.clock import TIME_EPS, Clock
from contract.errors import UnreadableInput
from contract.i18n import _
from vision.media_errors import reason

CACHE_BYTES = 192 * 1024 * 1024  # recent frames kept for stepping back and forth in a review
SEQUENTIAL_GAP = 48  # decoding this many frames forward beats a seek + decode from a keyframe


class VideoError(UnreadableInput):
    """The video cannot be opened or decoded (exit 2)."""


@dataclass(frozen=True)
class VideoMeta:
    path: Path
    fps: float
    frame_count: int
    duration: float
    width: int  # upright (after rotation)
    height: int
    rotation: int  # degrees counter-clockwise that were applied to make the picture upright
    has_audio: bool


@dataclass(frozen=True)
class Frame:
    index: int
    t: float
    image: np.ndarray  # BGR, upright


LIMITED_LUMA = np.clip(np.round((np.arange(256) - 16) * 255 / 219), 0, 255).astype(np.uint8)  # video-range luma
# (16-235) to the full-range grey that OpenCV's BGR -> grey gives of the same frame (within 1-2 levels)
PLANAR_LUMA = frozenset({"yuv420p", "yuvj420p", "yuv422p", "yuvj422p", "yuv444p", "yuvj444p", "nv12", "nv21"})


class Picture:
    """One decoded frame, converted only as far as it is looked at (vision.observe's frames).

    Why: turning a 1080p frame into BGR costs about half of decoding it, and the detector needs BGR only on the
    frames where some seat's detector runs; change gating and the zone model need grey, which a planar YUV frame
    already holds: its luma plane (`luma`), in video range where `lut` maps it to full range; mapping only the
    small pictures cut from it (`full_range`) spares a pass over the whole frame. `image`, `luma` and `grey` are
    made on first use and kept."""

    def __init__(self, index: int, t: float, frame: Any = None, rotation: int = 0,
                 image: np.ndarray | None = None) -> None:
        self.index, self.t = index, t
        self._frame, self._rotation = frame, rotation
        self._image, self._luma, self._grey = image, None, None
        self.lut: np.ndarray | None = None  # video-range luma -> full-range grey (None: `luma` is full range)

    @property
    def image(self) -> np.ndarray:
        """BGR, upright."""
        if self._image is None:
            self._image = _upright_array(self._frame.to_ndarray(format="bgr24"), self._rotation)
        return self._image

    @property
    def luma(self) -> np.ndarray:
        """Grey, upright: the luma plane where the frame has one (see `lut`), else the grey of `image`."""
        if self._luma is None:
            frame = self._frame
            if frame is not None and self._image is None and frame.format.name in PLANAR_LUMA:
                plane = frame.planes[0]
                luma = np.frombuffer(plane, np.uint8).reshape(-1, plane.line_size)[:frame.height, :frame.width]
                full = frame.format.name.startswith("yuvj") or getattr(frame, "color_range", 0) == 2
                self.lut = None if full else LIMITED_LUMA
                self._luma = _upright_array(luma, self._rotation)
            else:
                import cv2

                self._luma = cv2.cvtColor(self.image, cv2.COLOR_BGR2GRAY)
        return self._luma

    def full_range(self, part: np.ndarray) -> np.ndarray:
        """A picture cut from `luma` (uint8), in full-range grey."""
        if self._luma is None:
            self.luma  # noqa: B018 - decides `lut`
        if self.lut is None:
            return part
        import cv2

        return cv2.LUT(part, self.lut)

    @property
    def grey(self) -> np.ndarray:
        """Full-range grey of the whole frame, upright."""
        if self._grey is None:
            self._grey = self.full_range(self.luma)
        return self._grey


def _upright_array(image: np.ndarray, rotation: int) -> np.ndarray:
    return np.ascontiguousarray(np.rot90(image, k=rotation // 90)) if rotation else image


def open_video(path: str | Path, threads: bool = True) -> VideoSource:
    """Open a video file; raise VideoError with one sentence naming the file if it cannot be used. `threads`: let
    the decoder spread each frame over the cores (faster, ~40 % more CPU); False where worker processes already
    keep every core busy (the same frames either way)."""
    return VideoSource(Path(path), threads)


def _fail(path: Path, why: str, exc: BaseException | None = None) -> VideoError:
    """The refusal naming the file: `why` (a catalogue message) says what is wrong with it; the library's reason,
    where there is one, follows in brackets (`vision.media_errors.reason`)."""
    text = reason(exc) if exc is not None else ""
    detail = f" ({text.rstrip('.').lower()})" if text else ""
    return VideoError(f"{path}: {why}{detail}.")


class VideoSource:
    """An opened video. Use as a context manager, or call close()."""

    def __init__(self, path: Path, threads: bool = True) -> None:
        self.path = path
        self._threads = threads
        if not path.exists():
            raise _fail(path, _("no such video file"))
        if path.is_dir():
            raise _fail(path, _("is a folder, not a video file"))
        if path.stat().st_size == 0:
            raise _fail(path, _("the video file is empty (0 bytes)"))
        try:
            self._container = av.open(str(path), mode="r")
        except (av.FFmpegError, OSError, UnicodeDecodeError) as exc:
            raise _fail(path, _("cannot be read as a video"), exc) from exc
        try:
            self._setup()
        except BaseException:
            self._container.close()
            raise

    # ---------------------------------------------------------------- set-up
    def _setup(self) -> None:
        c = self._container
        if not c.streams.video:
            raise _fail(self.path, _("is an audio-only file; a video is needed") if c.streams.audio
                        else _("is a file without a video stream; a video is needed"))
        self._stream = c.streams.video[0]
        if self._stream.codec_context is None:
            raise _fail(self.path, _("uses a video codec this build cannot decode"))
        if self._threads:
            self._stream.thread_type = "AUTO"
        else:
            self._stream.thread_count = 1
        self._tb = self._stream.time_base or Fraction(1, 90000)
        self._cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self._cache_bytes = 0
        self._decoder: Iterator[Any] | None = None
        self._last_index = -10**9
        self._pts_table = self._read_pts_table()
        first = self._first_frame()
        self._rotation = int(round((first.rotation or 0) / 90.0)) * 90 % 360
        self._pts0 = first.pts if first.pts is not None else 0
        if self._pts_table is not None:
            self._pts0 = self._pts_table[0]
        fps_guess = float(self._stream.average_rate or self._stream.guessed_rate or 0) or 25.0
        if self._pts_table is not None:
            self.clock = Clock.variable(self._pts_table, self._tb, fps_guess)
        else:  # constant frame rate: index arithmetic is exact
            n = self._stream.frames or self._stream_frames(fps_guess)
            if n <= 0:
                raise _fail(self.path, _("contains no video frames"))
            self.clock = Clock.constant(fps_guess, n)
        h, w = first.height, first.width
        if self._rotation in (90, 270):
            w, h = h, w
        clock = self.clock
        assert clock.frame_count is not None and clock.duration is not None
        self.meta = VideoMeta(
            path=self.path, fps=clock.fps, frame_count=clock.frame_count, duration=clock.duration, width=w, height=h,
            rotation=self._rotation, has_audio=bool(self._container.streams.audio),
        )

    def _stream_frames(self, fps: float) -> int:
        """The frame count where the container does not state it: the stream's duration on a constant clock."""
        if self._stream.duration:
            seconds = float(self._stream.duration * self._tb)
        else:
            seconds = (self._container.duration or 0) / 1e6
        return Clock.constant(fps).nearest(seconds)

    def _read_pts_table(self) -> list[int] | None:
        """Presentation timestamps of every frame for variable-frame-rate files; None for constant rate.

        The container's index (mp4 sample table) tells cheaply whether frames are evenly spaced;
        only when they are not, or when there is no index, are the packets demuxed (not decoded).
        """
        entries = self._stream.index_entries
        if len(entries) > 1:
            stamps = [e.timestamp for e in entries]
            deltas = {b - a for a, b in zip(stamps, stamps[1:], strict=False)}
            if len(deltas) == 1:
                return None
        pts: list[int] = []
        try:
            for packet in self._container.demux(self._stream):
                if packet.pts is not None and packet.size:
                    pts.append(packet.pts)
        except av.FFmpegError as exc:
            raise _fail(self.path, _("is damaged: its packets cannot be read"), exc) from exc
        self._container.seek(0, stream=self._stream)
        pts.sort()
        if len(pts) > 2:
            deltas = {b - a for a, b in zip(pts, pts[1:], strict=False)}
            if len(deltas) == 1:
                return None
        return pts or None

    def _first_frame(self) -> Any:
        try:
            for frame in self._container.decode(self._stream):
                self._container.seek(0, stream=self._stream)
                return frame
        except av.FFmpegError as exc:
            raise _fail(self.path, _("cannot be decoded"), exc) from exc
        raise _fail(self.path, _("contains no decodable video frames (truncated or damaged?)"))

    # ---------------------------------------------------------------- time <-> index
    def time_of(self, index: int) -> float:
        """Seconds of frame `index` on the video's clock (container pts, first frame = 0)."""
        self._check_index(index)
        return self.clock.frame(index).seconds

    def index_at(self, t: float) -> int:
        """The frame on screen at time t (the last frame starting at or before t), times outside the video
        held to its first and last frames (a window may reach past either end)."""
        return self.clock.at(min(max(t, 0.0), self.meta.duration)).frame

    def _first_index_from(self, t: float) -> int:
        """The first frame starting at or after t (window starts are inclusive)."""
        if t > self.meta.duration:
            return self.meta.frame_count
        i = self.index_at(t)
        return i if self.time_of(i) >= t - TIME_EPS else i + 1

    def _index_of_pts(self, pts: int) -> int:
        if self._pts_table is not None:
            i = bisect.bisect_left(self._pts_table, pts)
            if i < len(self._pts_table) and self._pts_table[i] == pts:
                return i
            return max(0, i - 1)
        return self.clock.nearest(float((pts - self._pts0) * self._tb))

    def _pts_of(self, index: int) -> int:
        if self._pts_table is not None:
            return self._pts_table[index]
        return self._pts0 + int(round(self.clock.frame(index).seconds / float(self._tb)))

    def _check_index(self, index: int) -> None:
        if not 0 <= index < self.meta.frame_count:
            raise IndexError(_("{path}: frame {index} is outside 0..{last}", path=self.path, index=index,
                               last=self.meta.frame_count - 1))

    # ---------------------------------------------------------------- decoding
    def _upright(self, frame: Any) -> np.ndarray:
        return _upright_array(frame.to_ndarray(format="bgr24"), self._rotation)

    def _seek_before(self, index: int) -> None:
        """Position the decoder on a keyframe at or before frame `index`."""
        self._container.seek(self._pts_of(index), stream=self._stream, backward=True, any_frame=False)
        self._decoder = self._decode_indexed()
        self._last_index = -10**9

    def _decode_indexed(self) -> Iterator[tuple[int, Any]]:
        try:
            for frame in self._container.decode(self._stream):
                if frame.pts is None:
                    continue
                yield self._index_of_pts(frame.pts), frame
        except av.FFmpegError as exc:
            raise _fail(self.path, _("is damaged: decoding failed"), exc) from exc

    def _frames_from(self, index: int) -> Iterator[tuple[int, Any]]:
        """Decoded (index, av frame) pairs starting exactly at `index`, reusing the decoder when close."""
        if not (self._decoder is not None and self._last_index < index <= self._last_index + SEQUENTIAL_GAP):
            self._seek_before(index)
            backoff = 0
            while True:  # a seek may land after the target on odd files: step back further
                first = next(self._decoder, None)
                if first is not None and first[0] <= index:
                    break
                backoff += 1
                target = max(0, index - SEQUENTIAL_GAP * 2**backoff)
                if backoff > 12 or target == 0:
                    self._container.seek(self._pts0, stream=self._stream, backward=True, any_frame=True)
                    self._decoder = self._decode_indexed()
                    first = next(self._decoder, None)
                    break
                self._seek_before(target)
            if first is not None:
                self._last_index = first[0]
                if first[0] >= index:
                    yield first
        assert self._decoder is not None
        for i, frame in self._decoder:
            self._last_index = i
            if i >= index:
                yield i, frame

    def frame_at(self, index: int) -> np.ndarray:
        """The upright BGR image of frame `index` (exact, whatever the GOP)."""
        self._check_index(index)
        cached = self._cache.get(index)
        if cached is not None:
            self._cache.move_to_end(index)
            return cached
        for i, frame in self._frames_from(index):
            if i == index:
                image = self._upright(frame)
                self._remember(index, image)
                return image
            if i > index:
                break
        raise _fail(self.path, _("ends before frame {index} (truncated or damaged?)", index=index))

    def frame_at_time(self, t: float) -> tuple[int, np.ndarray]:
        """The frame on screen at time t, with its index."""
        index = self.index_at(t)
        return index, self.frame_at(index)

    def _remember(self, index: int, image: np.ndarray) -> None:
        self._cache[index] = image
        self._cache_bytes += image.nbytes
        while self._cache_bytes > CACHE_BYTES and len(self._cache) > 1:
            _oldest, old = self._cache.popitem(last=False)
            self._cache_bytes -= old.nbytes

    def frames_in(self, start_s: float, end_s: float | None = None) -> range:
        """Indices of the frames with start_s <= t < end_s (end None: to the end of the video)."""
        first = self._first_index_from(max(0.0, start_s))
        last = self.meta.frame_count if end_s is None else min(self.meta.frame_count, self._first_index_from(end_s))
        return range(first, max(first, last))

    def iter_window(self, start_s: float, end_s: float | None = None, stride: int = 1) -> Iterator[Frame]:
        """Frames with start_s <= t < end_s, every `stride`-th; decodes only from the keyframe before start_s."""
        for picture in self.iter_pictures(start_s, end_s, stride):
            yield Frame(picture.index, picture.t, picture.image)

    def iter_pictures(self, start_s: float, end_s: float | None = None, stride: int = 1) -> Iterator[Picture]:
        """As iter_window, each frame a Picture: converted to BGR or grey only when asked (vision.observe)."""
        if stride < 1:
            raise ValueError("stride must be at least 1")
        span = self.frames_in(start_s, end_s)
        if not span:
            return
        first, last = span.start, span.stop
        expected = first
        for i, frame in self._frames_from(first):
            if i >= last:
                return
            expected = i + 1
            if (i - first) % stride == 0:
                yield Picture(i, self.time_of(i), frame, self._rotation)
        if last - expected > 2:
            raise _fail(self.path, _("ends at frame {index} although it should have {count} (truncated?)", index=expected,
                                     count=self.meta.frame_count))

    # ---------------------------------------------------------------- lifetime
    def close(self) -> None:
        self._decoder = None
        self._cache.clear()
        self._container.close()

    def __enter__(self) -> VideoSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
