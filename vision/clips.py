"""Short H.264 clips around a moment, for playback in the browser at normal and slow speed.

Why PyAV and H.264: browsers play H.264 (avc1) MP4 but not OpenCV's mp4v. A slow-motion clip keeps
every frame and only stretches their timestamps, so nothing is interpolated or dropped.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np

from vision.overlay import display_scale

Annotate = Callable[[int, float, np.ndarray], np.ndarray]


def write_clip(
    source: object,
    start_s: float,
    end_s: float,
    out_path: str | os.PathLike[str],
    *,
    slowdown: float = 1.0,
    annotate: Annotate | None = None,
    crf: int = 23,
) -> Path:
    """Write frames with start_s <= t < end_s of `source` (a vision.video.VideoSource) to an H.264 MP4.

    `slowdown` 4 plays the clip at a quarter of real speed. `annotate(index, t, bgr)` may draw an overlay
    on each frame. The file appears atomically (a partial clip is never left under `out_path`)."""
    if end_s <= start_s:
        raise ValueError("the clip must end after it starts")
    if slowdown <= 0:
        raise ValueError("slowdown must be positive")
    meta = source.meta  # type: ignore[attr-defined]
    scale = display_scale(meta.width)
    width = int(meta.width * scale) // 2 * 2  # yuv420p needs even sizes
    height = int(meta.height * scale) // 2 * 2
    rate = Fraction(meta.fps).limit_denominator(1001) / Fraction(slowdown).limit_denominator(100)
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.stem}.", suffix=".mp4", dir=out.parent)
    os.close(fd)
    try:
        with av.open(tmp, mode="w", format="mp4", options={"movflags": "+faststart"}) as container:
            stream = container.add_stream("libx264", rate=rate)
            stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
            stream.options = {"crf": str(crf), "preset": "veryfast", "tune": "fastdecode"}
            n = 0
            for frame in source.iter_window(start_s, end_s):  # type: ignore[attr-defined]
                image = annotate(frame.index, frame.t, frame.image) if annotate else frame.image
                if image.shape[1] != width or image.shape[0] != height:
                    image = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
                vf = av.VideoFrame.from_ndarray(np.ascontiguousarray(image), format="bgr24")
                vf.pts = n
                vf.time_base = 1 / rate
                for packet in stream.encode(vf):
                    container.mux(packet)
                n += 1
            for packet in stream.encode():
                container.mux(packet)
        if n == 0:
            raise ValueError(f"no frames between {start_s:.2f} s and {end_s:.2f} s")
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out
