"""Timeline and frames: the whole game on one axis; picking an event (click or list) moves the viewer. A game
filmed from several cameras (the protocol's `videos`) is shown side by side, every camera at the same instant,
stepped together; its findings' frames from every camera (`cameras_evidence`) are on the Vote audit cards."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

from contract import i18n
from contract.clock import Clock
from contract.errors import StopframeError
from contract.jsonio import read_json
from contract.seats import SeatMap, load_seat_map
from pipeline.cameras import main_camera, observations_beside
from pipeline.seat_fit import check_seats_fit_video
from review.audit.findings import Finding
from review.game.protocol import CameraVideo, resolve_camera_path
from stopframe_app import state, words
from stopframe_app.game import Game
from stopframe_app.timeline import SELECTION, timeline_chart, timeline_rows
from stopframe_app.viewer import STEPS, flagged_seats, frame_viewer, hands_at, step_buttons, window_at

EVENT = "timeline_event"
CHART = "timeline_chart"
SIDE_BY_SIDE = "frames_side_by_side"


@dataclass(frozen=True)
class CameraSide:
    """One camera of a game filmed from several angles, as the viewer draws it: its video, its clock (offset and
    drift from the protocol's `videos`), its seat map (scaled to its video) and the hands its saved observations
    hold (on its own clock)."""

    id: str
    video: str
    clock: Clock
    seat_map: SeatMap | None
    hands: tuple[dict[str, Any], ...]
    main: bool


def cameras_of(game: Game) -> list[CameraSide]:
    """The game's cameras, the one open in the viewer first; [] where the protocol names fewer than two, the
    open video is none of them, or a camera's video is missing (then the game is shown from one camera)."""
    return _cameras(game.spec.signature(), game)


@st.cache_resource(show_spinner=False, max_entries=8)
def _cameras(signature: tuple, _game: Game) -> list[CameraSide]:
    game = _game
    try:
        cameras = game.protocol.videos
    except StopframeError:
        return []
    if len(cameras) < 2 or not game.spec.video or game.video_meta is None:
        return []
    main = main_camera(game.protocol)
    try:
        if resolve_camera_path(game.protocol, main).resolve() != Path(game.spec.video).resolve():
            return []
        out = []
        for camera in sorted(cameras, key=lambda c: c.id != main.id):
            video = resolve_camera_path(game.protocol, camera)
            if not video.is_file():
                return []
            if camera.id == main.id:
                out.append(CameraSide(camera.id, str(video), _clock(camera), game.seat_map, tuple(game.hands), True))
                continue
            with state.video_file(str(video)) as source:
                size = (source.meta.width, source.meta.height)
            seats = resolve_camera_path(game.protocol, camera, "seats") if camera.seats else None
            seat_map = load_seat_map(seats) if seats is not None else None
            if seats is not None and seat_map is not None:  # a map of another shape is never drawn on this camera
                check_seats_fit_video(seat_map, seats, video, size)
            saved = observations_beside(video)
            hands = tuple(read_json(saved, "observations file").get("hands") or ()) if saved.is_file() else ()
            out.append(CameraSide(camera.id, str(video), _clock(camera), seat_map, hands, False))
    except StopframeError:
        return []
    return out


def _clock(camera: CameraVideo) -> Clock:
    """Protocol times onto this camera's seconds."""
    return Clock.protocol_to(camera.offset, camera.drift_ppm)


def camera_time(source: CameraSide, target: CameraSide, t: float) -> float:
    """A time on `source`'s video clock as the same moment on `target`'s (offsets and drifts both applied)."""
    scale, shift = source.clock.moved_onto(target.clock)
    return t * scale + shift


def camera_frame(game: Game, camera: CameraSide, index: int, show_zones: bool = True) -> tuple[bytes, str]:
    """Frame `index` of one camera as JPEG with its own seat zones and hands, the vote window on its clock; cached."""
    return _camera_frame(game.spec.signature(), camera.id, index, show_zones, i18n.language(), game, camera)


@st.cache_data(show_spinner=False, max_entries=256)
def _camera_frame(signature: tuple, camera_id: str, index: int, show_zones: bool, lang: str, _game: Game,
                  _camera: CameraSide) -> tuple[bytes, str]:
    """One camera's frame per language: the caption is in the reader's words (`lang` keys the cache)."""
    from vision.overlay import draw_overlay, encode_jpeg

    game, camera = _game, _camera
    main = next(c for c in cameras_of(game) if c.main)
    with state.video_file(camera.video) as source:
        image = source.frame_at(index)
        t = source.time_of(index)
    window = window_at(game.windows, camera_time(camera, main, t))
    marks = ({k: (camera_time(main, camera, v) if v is not None else None) for k, v in
              (("t", window.t), ("cutoff", window.cutoff), ("announced", window.announced))} if window else None)
    minutes, seconds = divmod(t, 60)
    clock_text = f"{int(minutes):02d}:{seconds:06.3f}"
    caption = i18n._("camera {camera} · frame {index} · {clock}", camera=camera.id, index=index, clock=words.clock(t))
    drawn = f"{camera.id} | #{index} | {clock_text}"  # the picture's own caption: ids and numbers, the same in every language
    if window is not None:
        relative = camera_time(camera, main, t) - window.t
        caption = i18n._("{window} · t = {t} s · ", window=words.window_label(window),
                         t=i18n.number(relative, 2, fixed=True, signed=True)) + caption
        drawn += f" | t = {relative:+.2f}"
    picture = draw_overlay(image, seat_map=camera.seat_map, hands=hands_at(camera.hands, t),
                           flagged_seats=flagged_seats(game.findings, window), marks=marks, now=t,
                           caption=drawn, show_zones=show_zones, legend=True)
    return encode_jpeg(picture), caption


def same_instant(game: Game, cameras: list[CameraSide], index: int) -> list[int | None]:
    """Each camera's frame at the instant of the open video's frame `index` (None: that camera was not filming)."""
    with state.video(game) as source:
        t = source.time_of(index)
    main = next(c for c in cameras if c.main)
    out: list[int | None] = []
    for camera in cameras:
        own = camera_time(main, camera, t)
        with state.video_file(camera.video) as source:
            out.append(source.index_at(own) if 0.0 <= own <= source.meta.duration else None)
    return out


@st.fragment
def side_by_side(game: Game, cameras: list[CameraSide]) -> None:
    """Every camera at the same instant, side by side; the steps move them all together."""
    last = game.video_meta.frame_count - 1
    st.session_state[state.FRAME] = min(state.frame(), last)
    with state.video(game) as source:
        clock = source.clock
    cols = st.columns(len(STEPS) + 1)
    step_buttons(cols, "both", clock, last)
    show = cols[-1].toggle(words.t("zones"), value=True, key="both_zones")
    index = state.frame()
    pictures = st.columns(len(cameras))
    for col, camera, own in zip(pictures, cameras, same_instant(game, cameras, index), strict=True):
        if own is None:
            col.info(words.t("Camera {camera} was not filming at this moment.", camera=camera.id))
            continue
        jpeg, caption = camera_frame(game, camera, own, show_zones=show)
        col.image(jpeg, caption=caption, width="stretch")


def cameras_evidence(game: Game, finding: Finding) -> None:
    """A finding's first frame from every camera, side by side, each saying whether its evidence was used."""
    by_id = {c.id: c for c in cameras_of(game)}
    shown = [c for c in finding.cameras if c.id in by_id]
    if not shown:
        return
    with st.expander(words.t("The evidence from every camera ({cameras})", cameras=", ".join(c.id for c in shown))):
        for col, frames in zip(st.columns(len(shown)), shown, strict=True):
            used = i18n._("its evidence") if frames.evidence else i18n._("not used: the other angle sees this seat better")
            if not frames.frames:
                col.info(words.t("Camera {camera} was not filming then.", camera=frames.id))
                continue
            jpeg, caption = camera_frame(game, by_id[frames.id], int(frames.frames[-1]))
            col.image(jpeg, caption=f"{caption} — {used}", width="stretch")


def _jump_to(game: Game, t: float) -> None:
    with state.video(game) as source:
        st.session_state[state.FRAME] = source.index_at(float(t))


def _picked_from_list(game: Game, labels: dict[str, float]) -> None:
    label = st.session_state.get(EVENT)
    if label in labels:
        _jump_to(game, labels[label])


def _picked_on_chart(game: Game) -> None:
    event = st.session_state.get(CHART)
    picked = ((event or {}).get("selection") or {}).get(SELECTION) or []
    if picked and picked[0].get("jump") is not None:
        _jump_to(game, picked[0]["jump"])


def render(game: Game) -> None:
    st.header(words.t("Timeline and frames"))
    rows = timeline_rows(game.clock_data, game.windows, game.hands, game.findings,
                         game.video_meta.duration if game.video_meta else None)
    now = None
    if game.video_meta is not None:
        with state.video(game) as source:
            frame = min(state.frame(), game.video_meta.frame_count - 1)
            now = source.time_of(frame)
    if rows.empty:
        st.info(words.t("The protocol has no times, so nothing can be placed on the video's time axis."))
    else:
        st.altair_chart(timeline_chart(rows, now), key=CHART, on_select=lambda: _picked_on_chart(game),
                        selection_mode=SELECTION, width="stretch")
        points = rows[rows["kind"] != "hand"].sort_values("jump")
        labels = {f"{words.seconds(r.jump):>9} · {r.label}": float(r.jump) for r in points.itertuples()}
        st.selectbox(words.t("Go to an event"), list(labels), index=None, placeholder=i18n._("pick an event to jump to"),
                     key=EVENT, on_change=_picked_from_list, args=(game, labels))
    cameras = cameras_of(game)
    if cameras and st.toggle(words.t("Every camera side by side ({cameras}), at the same instant",
                                     cameras=", ".join(c.id for c in cameras)),
                             value=True, key=SIDE_BY_SIDE):
        side_by_side(game, cameras)
        return
    frame_viewer(game, key="frames")
