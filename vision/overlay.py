"""Drawing what the judge needs on a decoded frame: seat zones, hands seen there, and the vote window.

Why here and not in the app: the pages only arrange; every pixel operation lives in vision/. The
overlay never changes the frame it is given (the video reader's cache holds that array).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

MAX_DISPLAY_WIDTH = 1280  # a 4K frame is shrunk before drawing: the browser shows it at ~1280 px anyway

ZONE = (200, 200, 200)
ZONE_ACTIVE = (60, 200, 60)
ZONE_FLAGGED = (40, 40, 230)
POSE_COLOURS = {"fist": (60, 200, 60), "thumb_up_fist": (60, 200, 60), "open_palm": (0, 165, 255),
                "finger": (0, 165, 255), "other": (200, 120, 255)}
MARK_COLOURS = {"t": (255, 200, 0), "cutoff": (40, 40, 230), "announced": (200, 200, 200)}
MARK_LABELS = {"t": "named", "cutoff": "Stop", "announced": "count"}


@dataclass(frozen=True)
class HandMark:
    """A hand seen on the table at this frame: which seat's zone, in which pose, how sure."""

    seat: int
    pose: str
    confidence: float | None = None


def display_scale(width: int) -> float:
    return min(1.0, MAX_DISPLAY_WIDTH / max(1, width))


def draw_overlay(
    image: np.ndarray,
    *,
    seat_map: Any | None = None,
    hands: Iterable[HandMark] = (),
    flagged_seats: Iterable[int] = (),
    marks: Mapping[str, float | None] | None = None,
    now: float | None = None,
    caption: str | None = None,
    show_zones: bool = True,
) -> np.ndarray:
    """A new BGR image: `image` (shrunk to display size) with zones, hands, the window strip and a caption.

    `seat_map` is a vision.seats.SeatMap (anything with `.seats[n].zone` in the map's `frame_size`);
    `marks` are the vote window's times (`t`, `cutoff`, `announced`) and `now` the frame's time."""
    h, w = image.shape[:2]
    scale = display_scale(w)
    out = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else image.copy()
    hands = list(hands)
    flagged = set(flagged_seats)
    k = max(0.45, out.shape[1] / MAX_DISPLAY_WIDTH)  # text size follows the picture's width
    if seat_map is not None:
        zones = _zones_in(seat_map, out.shape[1], out.shape[0])
        by_seat = {hm.seat: hm for hm in hands}
        for seat, poly in zones.items():
            hand = by_seat.get(seat)
            if not show_zones and hand is None and seat not in flagged:
                continue
            colour = ZONE_FLAGGED if seat in flagged else (POSE_COLOURS.get(hand.pose, ZONE_ACTIVE) if hand else ZONE)
            if hand is not None:
                _fill(out, poly, colour, 0.30)
            cv2.polylines(out, [poly], True, colour, 3 if (hand or seat in flagged) else 1, cv2.LINE_AA)
            cx, cy = poly.mean(axis=0).astype(int)
            _text(out, str(seat), (int(cx) - int(8 * k), int(cy) + int(8 * k)), 0.9 * k, colour)
            if hand is not None:
                conf = f" {hand.confidence:.2f}" if hand.confidence is not None else ""
                _text(out, f"{hand.pose}{conf}", (int(cx) - int(40 * k), int(cy) + int(30 * k)), 0.5 * k, colour)
    if marks and now is not None:
        _draw_window_strip(out, marks, now)
    if caption:
        _text(out, caption, (12, int(12 + 20 * k)), 0.75 * k, (255, 255, 255))
    return out


def _zones_in(seat_map: Any, width: int, height: int) -> dict[int, np.ndarray]:
    """Each seat's zone polygon in pixels of a width x height picture."""
    fw, fh = seat_map.frame_size
    sx, sy = width / fw, height / fh
    zones = {}
    for seat, spec in seat_map.seats.items():
        zone = np.asarray(spec.zone, dtype=np.float64)
        if zone.ndim == 2 and len(zone) >= 3:
            zones[int(seat)] = np.round(zone * (sx, sy)).astype(np.int32)
    return zones


def _fill(image: np.ndarray, poly: np.ndarray, colour: tuple[int, int, int], alpha: float) -> None:
    x, y, w, h = cv2.boundingRect(poly)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(image.shape[1], x + w), min(image.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return
    roi = image[y0:y1, x0:x1]
    layer = roi.copy()
    cv2.fillPoly(layer, [poly - (x0, y0)], colour, cv2.LINE_AA)
    cv2.addWeighted(layer, alpha, roi, 1 - alpha, 0, dst=roi)


def _text(image: np.ndarray, text: str, org: tuple[int, int], scale: float, colour: tuple[int, int, int]) -> None:
    """Text with a dark outline, readable on any table cloth. (Hershey fonts are ASCII: callers pass ASCII.)"""
    outline = 2 if scale < 0.5 else 3 if scale < 0.7 else 4
    cv2.putText(image, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), outline, cv2.LINE_AA)
    cv2.putText(image, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1 if scale < 0.7 else 2, cv2.LINE_AA)


def _draw_window_strip(image: np.ndarray, marks: Mapping[str, float | None], now: float) -> None:
    """A bar along the bottom: the window from 1.5 s before the naming to 1.5 s after the count, its
    three marks, and the current frame's position."""
    known = {k: v for k, v in marks.items() if v is not None and k in MARK_COLOURS}
    if not known:
        return
    start = min(min(known.values()), now) - 1.5
    end = max(max(known.values()), now) + 1.5
    h, w = image.shape[:2]
    top, bottom, left, right = h - 46, h - 8, 10, w - 10
    _fill(image, np.array([[left, top], [right, top], [right, bottom], [left, bottom]], np.int32), (0, 0, 0), 0.55)

    def x_of(t: float) -> int:
        return int(left + (t - start) / (end - start) * (right - left))

    t0, cut = known.get("t"), known.get("cutoff")
    if t0 is not None and cut is not None:
        cv2.rectangle(image, (x_of(t0), top + 6), (x_of(cut), bottom - 6), (60, 120, 60), -1)
    for name, t in known.items():
        x = x_of(t)
        cv2.line(image, (x, top), (x, bottom), MARK_COLOURS[name], 2)
        _text(image, MARK_LABELS[name], (x + 3, top + 14), 0.45, MARK_COLOURS[name])
    x = x_of(now)
    cv2.line(image, (x, top - 6), (x, bottom + 4), (255, 255, 255), 3)


def encode_jpeg(image: np.ndarray, quality: int = 85) -> bytes:
    """JPEG bytes of a BGR image: what the browser is sent and what the HTML report embeds."""
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("the frame could not be encoded as JPEG")
    return buf.tobytes()


def encode_png(image: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("the frame could not be encoded as PNG")
    return buf.tobytes()
