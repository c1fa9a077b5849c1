"""Drawing what the judge needs on a decoded frame: seat zones, hands seen there, and the vote window.

Why here and not in the app: the pages only arrange; every pixel operation lives in vision/. The
overlay never changes the frame it is given (the video reader's cache holds that array).

The words on the picture are in the reader's language: OpenCV's Hershey fonts have Latin letters only, so
the text is drawn with Pillow in DejaVu Sans, the TrueType font (with Cyrillic) that matplotlib ships and
mediapipe depends on. Where that file is missing, the labels are drawn in English with OpenCV's font.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from contract.i18n import N_, _, term

MAX_DISPLAY_WIDTH = 1280  # a 4K frame is shrunk before drawing: the browser shows it at ~1280 px anyway

ZONE = (200, 200, 200)
PANEL = 24  # the grey of the dark panel under the picture
ZONE_ACTIVE = (60, 200, 60)
ZONE_FLAGGED = (40, 40, 230)
POSE_COLOURS = {"fist": (60, 200, 60), "thumb_up_fist": (60, 200, 60), "open_palm": (0, 165, 255),
                "finger": (0, 165, 255), "other": (200, 120, 255)}
MARK_COLOURS = {"t": (255, 200, 0), "cutoff": (40, 40, 230), "announced": (200, 200, 200)}
MARK_LABELS = {"t": "named", "cutoff": "Stop", "announced": "count"}  # English; term("vote_mark", ...) in the catalogue
POSE_LABELS = {"fist": N_("fist"), "thumb_up_fist": N_("thumb-up fist"), "open_palm": N_("open palm"),
               "finger": N_("finger"), "other": N_("other hand")}
LEGEND = (  # what each colour on the frame means, drawn in the panel under the picture
    (ZONE, N_("zone, no hand")), (ZONE_ACTIVE, N_("fist / thumb-up fist")),
    (POSE_COLOURS["open_palm"], N_("open palm / finger")), (POSE_COLOURS["other"], N_("other hand")),
    (ZONE_FLAGGED, N_("seat in a finding")),
)
NOW_LEGEND = ((255, 255, 255), N_("this frame, on the vote's strip"))
FONT_PX_PER_SCALE = 30  # DejaVu Sans at 30 px has the capitals' height of OpenCV's Hershey font at scale 1
BOLD_FROM = 0.7  # text this size or larger (seat numbers, the caption) is drawn bold, as OpenCV drew it thicker
FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


@cache
def font_file(bold: bool = False) -> Path | None:
    """matplotlib's DejaVu Sans (`bold`: its bold face where there, else the regular one), found without importing
    matplotlib (its import costs about a quarter of a second); None where matplotlib or the file is absent."""
    spec = importlib.util.find_spec("matplotlib")
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    for name in ([FONT_FILES[True]] if bold else []) + [FONT_FILES[False]]:
        for folder in folders:
            path = Path(folder, "mpl-data", "fonts", "ttf", name)
            if path.is_file():
                return path
    return None


@lru_cache(maxsize=32)
def _font(px: int, bold: bool = False) -> ImageFont.FreeTypeFont | None:
    """The TrueType font at `px` pixels, loaded once per size; None where there is none to load."""
    path = font_file(bold)
    if path is None:
        return None
    try:
        return ImageFont.truetype(str(path), px)
    except (OSError, ImportError):  # a damaged file, or a Pillow built without FreeType
        return _font(px) if bold else None


def _style(scale: float) -> tuple[int, bool]:
    """The font's pixel size and weight for text at OpenCV's `scale`."""
    return max(6, round(FONT_PX_PER_SCALE * scale)), scale >= BOLD_FROM


def _drawn_in_truetype() -> bool:
    return _font(FONT_PX_PER_SCALE) is not None


def pose_label(pose: str) -> str:
    """A hand's pose as the frame names it: the reader's words, or English where only OpenCV's font draws."""
    english = POSE_LABELS.get(pose, pose.replace("_", " "))
    return _(english) if _drawn_in_truetype() else english


def hand_label(pose: str, confidence: float | None) -> str:
    """A hand's chip: its pose and, where the detector gave one, how sure it is, said as such (a bare number on a
    picture reads as a seat or a count)."""
    name = pose_label(pose)
    if confidence is None:
        return name
    sure = round(100 * confidence)
    return _("{pose}, {percent} % sure", pose=name, percent=sure) if _drawn_in_truetype() else f"{name}, {sure}% sure"


def mark_label(name: str) -> str:
    """A vote window's mark on the strip (the naming, «Стоп», the count), in the reader's words where drawable."""
    return term("vote_mark", name, default=MARK_LABELS[name]) if _drawn_in_truetype() else MARK_LABELS[name]


def legend_items(with_now: bool = False) -> tuple[tuple[tuple[int, int, int], str], ...]:
    """The legend's colours and words (with the strip's white line where a vote window is drawn)."""
    items = LEGEND + ((NOW_LEGEND,) if with_now else ())
    return tuple((colour, _(words) if _drawn_in_truetype() else words) for colour, words in items)


@lru_cache(maxsize=1024)
def text_mask(text: str, px: int, bold: bool = False) -> np.ndarray:
    """`text` drawn once at `px` pixels as a read-only coverage mask (0-255), from the capitals' top to the
    descenders' bottom, so chips of one size have one height; the labels repeat from frame to frame."""
    font = _font(px, bold)
    assert font is not None  # called only where the font loaded (_drawn_in_truetype)
    left, top, right, _bottom = font.getbbox(text)
    top = min(top, font.getbbox("H")[1])
    ascent, descent = font.getmetrics()
    canvas = Image.new("L", (max(1, math.ceil(max(right, font.getlength(text))) - min(0, left)), ascent + descent - top))
    ImageDraw.Draw(canvas).text((-min(0, left), -top), text, fill=255, font=font)
    mask = np.array(canvas)
    mask.flags.writeable = False
    return mask


def _text_size(text: str, scale: float) -> tuple[int, int]:
    """Width and height (capitals' top to descenders' bottom) of `text` drawn at `scale`."""
    if _drawn_in_truetype():
        h, w = text_mask(text, *_style(scale)).shape
        return w, h
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1 if scale < BOLD_FROM else 2)
    return w, h + base


@lru_cache(maxsize=1024)
def _text_tile(text: str, px: int, bold: bool, ink: tuple[int, int, int], ground: tuple[int, int, int]) -> np.ndarray:
    """`text` in `ink` on a tile of the flat `ground` colour it is drawn on (a chip, the legend's panel), blended
    once: each frame then only copies the tile."""
    alpha = text_mask(text, px, bold)[..., None].astype(np.float32) / 255.0
    tile = (np.asarray(ground, np.float32) * (1.0 - alpha) + np.asarray(ink, np.float32) * alpha + 0.5).astype(np.uint8)
    tile.flags.writeable = False
    return tile


def _put_text(image: np.ndarray, text: str, org: tuple[int, int], scale: float, ink: tuple[int, int, int],
              ground: tuple[int, int, int]) -> None:
    """`text` in `ink` with its box's top-left corner at `org` (the box of _text_size), clipped to `image`; the box
    lies on the flat colour `ground`."""
    x, y = org
    if not _drawn_in_truetype():
        thick = 1 if scale < BOLD_FROM else 2
        (_w, h), _base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        cv2.putText(image, text, (x, y + h), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, thick, cv2.LINE_AA)
        return
    tile = _text_tile(text, *_style(scale), tuple(ink), tuple(ground))
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(image.shape[1], x + tile.shape[1]), min(image.shape[0], y + tile.shape[0])
    if x1 > x0 and y1 > y0:
        image[y0:y1, x0:x1] = tile[y0 - y:y1 - y, x0 - x:x1 - x]


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
    legend: bool = False,
) -> np.ndarray:
    """A new BGR image: `image` (shrunk to display size) with zones, hands and a caption; below it, where
    there is a vote window (`marks` and `now`) or `legend` is asked for, a panel with the window's strip
    and the colours' legend, so neither covers any seat's zone.

    `seat_map` is a contract.seats.SeatMap (anything with `.seats[n].zone` in the map's `frame_size`);
    `marks` are the vote window's times (`t`, `cutoff`, `announced`) and `now` the frame's time. Labels
    are chips (a filled box in the zone's colour, dark or light text by contrast), readable on any cloth."""
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
            # The number on the zone's upper edge and the hand's label under it: the inside stays visible.
            top, low = int(poly[:, 1].min()), int(poly[:, 1].max())
            _chip(out, str(seat), (int(cx), top if hand is not None or seat in flagged else int(cy)), 0.8 * k, colour,
                  centred=True)
            if hand is not None:
                hand_colour = POSE_COLOURS.get(hand.pose, ZONE_ACTIVE)
                _chip(out, hand_label(hand.pose, hand.confidence), (int(cx), low + int(10 * k)), 0.5 * k, hand_colour,
                      centred=True)
    if caption:
        _chip(out, caption, (8, 8), 0.7 * k, (30, 30, 30))
    window = bool(marks) and now is not None
    if window or legend:
        out = _with_panel(out, marks if window else None, now, k)
    return out


def _with_panel(image: np.ndarray, marks: Mapping[str, float | None] | None, now: float | None, k: float) -> np.ndarray:
    """The picture with a dark panel under it: the vote window's strip (if any) and the legend."""
    h, w = image.shape[:2]
    strip_h = int(46 * k) if marks else 0
    legend_h = int(30 * k)
    panel = np.full((strip_h + legend_h + 6, w, 3), PANEL, np.uint8)
    if marks and now is not None:
        _draw_window_strip(panel[: strip_h + 4], marks, now, k)
    _draw_legend(panel, strip_h + 4, k, legend_items(with_now=bool(marks)))
    return np.vstack([image, panel])


def _draw_legend(panel: np.ndarray, top: int, k: float, items: Iterable[tuple[tuple[int, int, int], str]]) -> None:
    x = 10
    size = int(14 * k)
    for colour, label in items:
        y = top + int(8 * k)
        cv2.rectangle(panel, (x, y), (x + size, y + size), colour, -1)
        tw, th = _text_size(label, 0.5 * k)
        _put_text(panel, label, (x + size + 6, y + (size - th) // 2), 0.5 * k, (235, 235, 235), (PANEL,) * 3)
        x += size + 6 + tw + int(22 * k)


def _chip(image: np.ndarray, text: str, org: tuple[int, int], scale: float, colour: tuple[int, int, int],
          centred: bool = False) -> None:
    """Text on a filled box of `colour`, black or white by contrast."""
    tw, th = _text_size(text, scale)
    pad = max(2, int(th * 0.2))
    x, y = org
    if centred:
        x, y = x - tw // 2 - pad, y - th // 2 - pad
    x = min(max(0, x), max(0, image.shape[1] - tw - 2 * pad))
    y = min(max(0, y), max(0, image.shape[0] - th - 2 * pad))
    cv2.rectangle(image, (x, y), (x + tw + 2 * pad, y + th + 2 * pad), colour, -1)
    luminance = 0.114 * colour[0] + 0.587 * colour[1] + 0.299 * colour[2]
    ink = (0, 0, 0) if luminance > 140 else (255, 255, 255)
    _put_text(image, text, (x + pad, y + pad), scale, ink, colour)


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


def _draw_window_strip(image: np.ndarray, marks: Mapping[str, float | None], now: float, k: float = 1.0) -> None:
    """A bar across `image` (the panel under the picture): the window from 1.5 s before the naming to 1.5 s
    after the count, the time to vote in green, its three marks as labelled lines, the current frame in white."""
    known = {k_: v for k_, v in marks.items() if v is not None and k_ in MARK_COLOURS}
    if not known:
        return
    start = min(min(known.values()), now) - 1.5
    end = max(max(known.values()), now) + 1.5
    h, w = image.shape[:2]
    top, bottom, left, right = 4, h - 4, 10, w - 10

    def x_of(t: float) -> int:
        return int(left + (t - start) / (end - start) * (right - left))

    t0, cut = known.get("t"), known.get("cutoff")
    if t0 is not None and cut is not None:
        cv2.rectangle(image, (x_of(t0), top + int(18 * k)), (x_of(cut), bottom - 2), (60, 120, 60), -1)
    for name, t in known.items():
        x = x_of(t)
        cv2.line(image, (x, top), (x, bottom), MARK_COLOURS[name], 2)
        _chip(image, mark_label(name), (x + 3, top), 0.45 * k, MARK_COLOURS[name])
    x = x_of(now)
    cv2.line(image, (x, top), (x, bottom), (255, 255, 255), 3)


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
