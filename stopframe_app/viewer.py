"""The frame viewer: server-decoded, frame-exact frames with the seat zones, hands and vote window drawn in.

Stepping runs inside st.fragment so only the viewer reruns. The clock shown is relative to the judge's
call of the vote on screen (t = 0 at «кто голосует»), which is how a judge talks about a late hand.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from collections.abc import Iterable, Sequence
from typing import Any

import streamlit as st

from review.store import data_dir
from stopframe_app import state
from stopframe_app.game import Game

STRIP_RADIUS = 12  # frames prefetched either side for stepping in the browser (±0.5 s at 25 fps)
STEPS: Sequence[tuple[str, str, float]] = (
    ("−1 s", "s", -1.0), ("−5", "f", -5), ("−1", "f", -1), ("+1", "f", 1), ("+5", "f", 5), ("+1 s", "s", 1.0),
)


def window_at(windows: Iterable[Any], t: float, margin: float = 3.0) -> Any | None:
    """The vote window the time belongs to: the one around t (with a margin); None far from every vote (a
    night, a speech), so a frame there is never labelled relative to an earlier vote."""
    around = [w for w in windows if w.t is not None
              and w.t - margin <= t <= (w.announced if w.announced is not None else w.t) + margin]
    return min(around, key=lambda w: abs(w.t - t)) if around else None


def hands_at(hands: Iterable[dict[str, Any]], t: float) -> list[Any]:
    """Hands resting in a zone at time t: intervals are half-open, [on, off)."""
    from vision.overlay import HandMark

    return [HandMark(int(h["seat"]), str(h.get("pose") or "other"), h.get("confidence"))
            for h in hands if float(h["on"]) <= t < float(h["off"])]


def flagged_seats(findings: Iterable[dict[str, Any]], window: Any | None) -> set[int]:
    if window is None:
        return set()
    seats: set[int] = set()
    for f in findings:
        if f.get("day") == window.day and f.get("round") == window.round and f.get("candidate") in (window.candidate, None):
            if f.get("seat") is not None:
                seats.add(int(f["seat"]))
            seats.update(int(s) for s in f.get("seats") or ())
    return seats


def _step(kind: str, amount: float, fps: float, last: int) -> None:
    frames = round(amount * fps) if kind == "s" else int(amount)
    st.session_state[state.FRAME] = min(max(0, int(st.session_state.get(state.FRAME, 0)) + frames), last)


def render_frame(game: Game, index: int, *, show_zones: bool = True, show_hands: bool = True) -> tuple[bytes, str]:
    """The frame as JPEG with its overlay, and its caption; cached, so revisiting a frame costs nothing."""
    return _cached_frame(game.spec.signature(), index, show_zones, show_hands, game)


@st.cache_data(show_spinner=False, max_entries=256)
def _cached_frame(signature: tuple, index: int, show_zones: bool, show_hands: bool, _game: Game) -> tuple[bytes, str]:
    return draw_frame(_game, index, show_zones=show_zones, show_hands=show_hands)


def draw_frame(game: Game, index: int, *, show_zones: bool = True, show_hands: bool = True) -> tuple[bytes, str]:
    """Decode the frame, draw the overlay, encode JPEG: the caption gives absolute and call-relative time."""
    from vision.overlay import draw_overlay, encode_jpeg

    with state.video(game) as source:
        image = source.frame_at(index)
        t = source.time_of(index)
    window = window_at(game.windows, t)
    marks = {"t": window.t, "cutoff": window.cutoff, "announced": window.announced} if window else None
    minutes, seconds = divmod(t, 60)
    caption = f"frame {index} · {int(minutes):02d}:{seconds:06.3f}"
    if window is not None:
        caption = f"{window.label} · t = {t - window.t:+.2f} s · " + caption
    picture = draw_overlay(
        image, seat_map=game.seat_map, hands=hands_at(game.hands, t) if show_hands else (),
        flagged_seats=flagged_seats(game.findings, window), marks=marks, now=t, caption=caption.replace(" · ", " | "),
        show_zones=show_zones,
    )
    return encode_jpeg(picture), caption


def frame_viewer(game: Game, key: str) -> None:
    """Buttons to step, the frame, and short clips around it."""
    if game.video_meta is None:
        st.info(game.notes.get("video", "This game has no video."))
        return
    _viewer_fragment(game, key)


@st.fragment
def _viewer_fragment(game: Game, key: str) -> None:
    meta = game.video_meta
    last = meta.frame_count - 1
    st.session_state[state.FRAME] = min(max(0, int(st.session_state.get(state.FRAME, 0))), last)
    cols = st.columns(len(STEPS) + 2)
    for col, (label, kind, amount) in zip(cols, STEPS, strict=False):
        col.button(label, key=f"{key}_step_{label}", on_click=_step, args=(kind, amount, meta.fps, last),
                   width="stretch")
    cols[-2].number_input("frame", min_value=0, max_value=last, step=1, key=state.FRAME, label_visibility="collapsed")
    show = cols[-1].toggle("zones", value=True, key=f"{key}_zones")
    index = int(st.session_state[state.FRAME])
    if st.toggle(f"Step in the browser (frames ±{STRIP_RADIUS} prefetched; ← → keys)", key=f"{key}_strip"):
        frames = strip_frames(game, index, show_zones=show)
        width = 960
        height = round(width * game.video_meta.height / game.video_meta.width) + 70
        start = next(k for k, f in enumerate(frames) if f[0] == index)
        st.iframe(strip_html(frames, start), height=height)  # our own page: every text in it is JSON-escaped
        return
    jpeg, caption = render_frame(game, index, show_zones=show)
    st.image(jpeg, caption=caption, width="stretch")
    clip_col, slow_col = st.columns(2)
    if clip_col.button("Clip around this frame (±2 s)", key=f"{key}_clip"):
        normal, slow = make_clips(game, index)
        clip_col.video(str(normal))
        slow_col.video(str(slow))
        slow_col.caption("quarter speed")


def strip_frames(game: Game, index: int, radius: int = 0, show_zones: bool = True) -> list[tuple[int, str, bytes]]:
    """The frames around `index`, rendered as the viewer would, for stepping without a server round trip."""
    radius = radius or STRIP_RADIUS
    last = game.video_meta.frame_count - 1
    out = []
    for i in range(max(0, index - radius), min(last, index + radius) + 1):
        jpeg, caption = render_frame(game, i, show_zones=show_zones)
        out.append((i, caption, jpeg))
    return out


def strip_html(frames: Sequence[tuple[int, str, bytes]], start: int) -> str:
    """A self-contained page that steps through prefetched JPEG frames in the browser (no round trip).

    Captions and data are JSON-encoded into the script (every `<` escaped), so no text from a file can
    close the script or inject markup."""
    data = [{"i": i, "c": caption, "u": "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")}
            for i, caption, jpeg in frames]
    payload = json.dumps({"frames": data, "at": start}).replace("<", "\\u003c")
    buttons = "".join(f'<button data-d="{d}">{html.escape(label)}</button>' for label, d in
                      (("−5", -5), ("−1", -1), ("+1", 1), ("+5", 5)))
    return (
        "<style>body{margin:0;font-family:sans-serif}img{width:100%;display:block}button{margin:2px 4px 4px 0}"
        "#c{font-size:14px;color:#333}</style>"
        f'<div>{buttons}<span id="c"></span></div><img id="f" alt="frame">'
        f"<script>const S={payload};"
        "const img=document.getElementById('f'),cap=document.getElementById('c');"
        "function show(){const f=S.frames[S.at];img.src=f.u;cap.textContent=f.c;}"
        "function step(d){S.at=Math.min(S.frames.length-1,Math.max(0,S.at+d));show();}"
        "document.querySelectorAll('button').forEach(b=>b.onclick=()=>step(+b.dataset.d));"
        "document.addEventListener('keydown',e=>{if(e.key==='ArrowLeft')step(e.shiftKey?-5:-1);"
        "if(e.key==='ArrowRight')step(e.shiftKey?5:1);});"
        "S.frames.forEach(f=>{const p=new Image();p.src=f.u;});show();</script>"
    )


def make_clips(game: Game, index: int, before_s: float = 2.0, after_s: float = 2.0) -> tuple[Any, Any]:
    """Normal and quarter-speed H.264 clips around a frame, kept in the data folder's clip cache."""
    from vision.clips import write_clip

    with state.video(game) as source:
        t = source.time_of(index)
        start, end = max(0.0, t - before_s), min(game.video_meta.duration, t + after_s)
        key = hashlib.sha256(f"{game.spec.signature()}|{index}".encode()).hexdigest()[:16]
        folder = data_dir() / "clips"
        out = []
        for slowdown in (1.0, 4.0):
            path = folder / f"{key}_x{slowdown:g}.mp4"
            if not path.is_file():
                write_clip(source, start, end, path, slowdown=slowdown)
            out.append(path)
    return out[0], out[1]
