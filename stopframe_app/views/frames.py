"""Timeline and frames: the whole game on one axis; picking an event (click or list) moves the viewer."""

from __future__ import annotations

import streamlit as st

from stopframe_app import state
from stopframe_app.game import Game
from stopframe_app.timeline import SELECTION, timeline_chart, timeline_rows
from stopframe_app.viewer import frame_viewer

EVENT = "timeline_event"
CHART = "timeline_chart"


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
    st.header("Timeline and frames")
    rows = timeline_rows(game.data, game.windows, game.hands, game.findings,
                         game.video_meta.duration if game.video_meta else None)
    now = None
    if game.video_meta is not None:
        with state.video(game) as source:
            frame = min(state.frame(), game.video_meta.frame_count - 1)
            now = source.time_of(frame)
    if rows.empty:
        st.info("The protocol has no times, so nothing can be placed on the video's time axis.")
    else:
        st.altair_chart(timeline_chart(rows, now), key=CHART, on_select=lambda: _picked_on_chart(game),
                        selection_mode=SELECTION, width="stretch")
        points = rows[rows["kind"] != "hand"].sort_values("jump")
        labels = {f"{r.jump:8.2f} s · {r.label}": float(r.jump) for r in points.itertuples()}
        st.selectbox("Go to an event", list(labels), index=None, placeholder="pick an event to jump to",
                     key=EVENT, on_change=_picked_from_list, args=(game, labels))
    frame_viewer(game, key="frames")
