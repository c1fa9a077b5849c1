"""The frame viewer: server-decoded, frame-exact frames with the seat zones, hands and vote window drawn in.

A frame step is a picture swap in the browser by default (the frames around are prefetched into the page); the
server path (a rerun per step, about a third of a second in the browser) is the choice and the fallback.
Stepping runs inside st.fragment so only the viewer reruns. The clock shown is relative to the judge's
call of the vote on screen (t = 0 at «кто голосует»), which is how a judge talks about a late hand.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import streamlit as st
import streamlit.components.v1 as components

from contract import i18n
from contract.clock import Clock
from contract.errors import StopframeError
from review.audit.findings import Finding
from review.cases.store import data_dir
from stopframe_app import state, words
from stopframe_app.game import Game

if TYPE_CHECKING:
    from review.game.timeline import VoteWindow

_strip_component = components.declare_component("stopframe_strip", path=str(Path(__file__).with_name("strip")))

STRIP_RADIUS = 12  # frames prefetched either side for stepping in the browser (±0.5 s at 25 fps)
FIRST_RADIUS = 1  # after a move of the server's own (a seconds' step, a jump), the frames sent first, so the frame
# shows at once; the strip then asks for the rest around it
# (label, s: seconds / f: frames, how many); a label is the button's key and, through the catalogue, its words
STEPS: Sequence[tuple[str, str, float]] = (
    (i18n.N_("−1 s"), "s", -1.0), ("−5", "f", -5), ("−1", "f", -1), ("+1", "f", 1), ("+5", "f", 5),
    (i18n.N_("+1 s"), "s", 1.0),
)


def window_at(windows: Iterable[VoteWindow], t: float, margin: float = 3.0) -> VoteWindow | None:
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


def flagged_seats(findings: Iterable[Finding], window: VoteWindow | None) -> set[int]:
    if window is None:
        return set()
    seats: set[int] = set()
    for f in findings:
        if f.day == window.day and f.round == window.round and f.candidate in (window.candidate, None):
            if f.seat is not None:
                seats.add(int(f.seat))
            seats.update(int(s) for s in f.seats or ())
    return seats


def step_frame(kind: str, amount: float, clock: Clock, last: int) -> None:
    """Step by frames, or by seconds on the video's own clock (variable frame rates step by time, not by a mean rate)."""
    now = min(state.frame(), last)
    to = clock.step(now, amount).frame if kind == "s" else now + int(amount)
    st.session_state[state.FRAME] = min(max(0, to), last)


def step_buttons(cols: Sequence[Any], key: str, clock: Clock, last: int,
                 steps: Sequence[tuple[str, str, float]] = STEPS) -> None:
    """One button per step of `steps` in the first columns of `cols` (keys `{key}_step_{label}`)."""
    for col, (label, kind, amount) in zip(cols, steps, strict=False):
        col.button(i18n._(label) if kind == "s" else label, key=f"{key}_step_{label}", on_click=step_frame,
                   args=(kind, amount, clock, last), width="stretch")


def _typed_frame() -> None:
    st.session_state[state.FRAME] = int(st.session_state.get(state.FRAME_BOX) or 0)


def render_frame(game: Game, index: int, *, show_zones: bool = True, show_hands: bool = True) -> tuple[bytes, str]:
    """The frame as JPEG with its overlay, and its caption; cached, so revisiting a frame costs nothing."""
    return _cached_frame(game.spec.signature(), index, show_zones, show_hands, i18n.language(), game)


@st.cache_data(show_spinner=False, max_entries=256)
def _cached_frame(signature: tuple, index: int, show_zones: bool, show_hands: bool, lang: str,
                  _game: Game) -> tuple[bytes, str]:
    """One frame per language: the caption is in the reader's words (`lang` keys the cache)."""
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
    clock_text = f"{int(minutes):02d}:{seconds:06.3f}"
    caption = i18n._("frame {index} · {clock}", index=index, clock=words.clock(t))
    drawn = f"#{index} | {clock_text}"  # the picture's own caption: the overlay's font has Latin letters only
    if window is not None:
        relative = i18n.number(t - window.t, 2, fixed=True, signed=True)
        caption = i18n._("{window} · t = {t} s · ", window=words.window_label(window), t=relative) + caption
        drawn += f" | t = {t - window.t:+.2f}"
    picture = draw_overlay(
        image, seat_map=game.seat_map, hands=hands_at(game.hands, t) if show_hands else (),
        flagged_seats=flagged_seats(game.findings, window), marks=marks, now=t, caption=drawn,
        show_zones=show_zones, legend=True,
    )
    return encode_jpeg(picture), caption


def frame_viewer(game: Game, key: str) -> None:
    """Buttons to step, the frame, and short clips around it."""
    if game.video_meta is None:
        st.info(words.md(game.notes.get("video") or "") or words.t("This game has no video."))
        return
    _viewer_fragment(game, key)


@st.fragment
def _viewer_fragment(game: Game, key: str) -> None:
    """Stepping in the browser by default (the frames around are prefetched into the page: a step is a picture
    swap, no round trip); stepping on the server where the judge switches it off or the frames around cannot be
    decoded for it. The seconds' steps, the frame number box and the clip go through the server either way."""
    meta = game.video_meta
    last = meta.frame_count - 1
    st.session_state[state.FRAME] = min(state.frame(), last)
    strip_key = f"{key}_strip_at"
    moved = st.session_state.get(strip_key)
    told = isinstance(moved, dict) and moved.get("seq") != st.session_state.get(f"{strip_key}_seen")
    if told:
        # The browser stepped on its own (or asks for the rest of the frames around): it told where it stopped,
        # and the server carries on from there.
        st.session_state[f"{strip_key}_seen"] = moved.get("seq")
        st.session_state[state.FRAME] = min(max(0, int(moved.get("frame") or 0)), last)
    st.session_state[state.FRAME_BOX] = st.session_state[state.FRAME]
    with state.video(game) as source:
        clock = source.clock
    in_browser = st.toggle(i18n.ngettext("Step in the browser (← → keys; {n} frame either side is kept in the page, "
                                         "and the server sends more where you stop)",
                                         "Step in the browser (← → keys; {n} frames either side are kept in the page, "
                                         "and the server sends more where you stop)", STRIP_RADIUS),
                           value=True, key=f"{key}_strip")
    index = state.frame()
    zones = f"{key}_zones"
    sent = f"{strip_key}_centre"  # the frame the strip's frames were last centred on
    radius = STRIP_RADIUS if told or st.session_state.get(sent) == index else FIRST_RADIUS
    frames, why = (_strip_or_why(game, index, bool(st.session_state.get(zones, True)), radius) if in_browser
                   else (None, None))
    st.session_state[sent] = index if frames is not None else None
    cols = st.columns(len(STEPS) + 2, vertical_alignment="bottom")  # the buttons level with the labelled box
    step_buttons(cols, key, clock, last, [s for s in STEPS if s[1] == "s"] if frames is not None else STEPS)
    cols[-2].number_input(words.t("Frame number"), min_value=0, max_value=last, step=1, key=state.FRAME_BOX,
                          on_change=_typed_frame)
    show = cols[-1].toggle(words.t("zones"), value=True, key=zones)
    if frames is not None:  # the frame steps are the strip's own buttons
        start = next(k for k, f in enumerate(frames) if f[0] == index)
        _strip_component(frames=strip_payload(frames), at=start, radius=STRIP_RADIUS, end=frames[-1][0] >= last,
                         loading=i18n.ngettext("Loading more frames from the server (only {n} is kept either side in "
                                               "the page)…", "Loading more frames from the server (only {n} are "
                                               "kept either side in the page)…", STRIP_RADIUS),
                         key=strip_key, default=None)
        st.caption(words.t("The server knows the frame you stopped at (now frame {index}): the steps above, the "
                           "appeal's frame and the clip start from it.", index=index))
    else:
        if why is not None:
            st.caption(words.t("Stepping in the browser is not available for this video ({why}): each step goes "
                               "through the server.", why=why))
        jpeg, caption = render_frame(game, index, show_zones=show)
        st.image(jpeg, caption=caption, width="stretch")
    clip_col, slow_col = st.columns(2)
    if clip_col.button(words.t("Clip around this frame (±2 s)"), key=f"{key}_clip"):
        normal, slow = make_clips(game, index)
        clip_col.video(str(normal))
        slow_col.video(str(slow))
        slow_col.caption(words.t("quarter speed"))


def _strip_or_why(game: Game, index: int, show_zones: bool,
                  radius: int) -> tuple[list[tuple[int, str, bytes]] | None, str | None]:
    """The frames around `index` for the browser, or why they cannot be had (a frame that will not decode)."""
    try:
        return strip_frames(game, index, radius, show_zones=show_zones), None
    except StopframeError as exc:
        return None, str(exc)


def strip_payload(frames: Sequence[tuple[int, str, bytes]]) -> list[dict[str, Any]]:
    """The prefetched frames as the browser strip takes them: index, caption, JPEG as a data URI."""
    return [{"i": i, "c": caption, "u": "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")}
            for i, caption, jpeg in frames]


def strip_frames(game: Game, index: int, radius: int = 0, show_zones: bool = True) -> list[tuple[int, str, bytes]]:
    """The frames around `index`, rendered as the viewer would, for stepping without a server round trip."""
    radius = radius or STRIP_RADIUS
    last = game.video_meta.frame_count - 1
    out = []
    for i in range(max(0, index - radius), min(last, index + radius) + 1):
        jpeg, caption = render_frame(game, i, show_zones=show_zones)
        out.append((i, caption, jpeg))
    return out


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
