"""Open a game: the bundled sample, local paths (videos always by path), uploads of small files, recent games.

Uploaded files are kept in the app's data folder (never in memory for long, never outside that folder),
and a protocol's `video.path` is resolved inside its own folder by review.protocol.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import streamlit as st

from review.store import data_dir
from stopframe_app import state
from stopframe_app.decisions import md
from stopframe_app.game import SAMPLE_PROTOCOL, Game, GameSpec, analyse, sample_spec

MAX_UPLOAD_BYTES = 20 * 1024 * 1024  # protocols and seat maps are kilobytes; videos are opened by path


def save_upload(name: str, data: bytes) -> Path:
    """Keep an uploaded file under the data folder, named by its content, and return its path."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise ValueError(f"{name} is {len(data) / 1e6:.0f} MB; upload only protocols and seat maps (videos by path).")
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in Path(name).name)[-80:] or "upload.json"
    folder = data_dir() / "uploads" / hashlib.sha256(data).hexdigest()[:16]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / safe
    path.write_bytes(data)
    return path


def _typed(value: str | None) -> str | None:
    value = (value or "").strip().strip('"')
    return str(Path(value).expanduser()) if value else None


def render(game: Game | None) -> None:
    st.header("Open a game")
    if st.button("Open the bundled sample game", key="open_sample", disabled=not SAMPLE_PROTOCOL.is_file()):
        state.open_spec(sample_spec())
        st.rerun()
    with st.form("open_paths"):
        st.markdown("**By local path** (the video is read where it is; nothing is uploaded)")
        protocol = st.text_input("Protocol (*.protocol.json)", key="path_protocol")
        video = st.text_input("Video (optional: the protocol's video.path)", key="path_video")
        seats = st.text_input("Seat map (optional: NAME.seats.json beside the protocol)", key="path_seats")
        observations = st.text_input("Observations (optional: an earlier analysis)", key="path_observations")
        if st.form_submit_button("Open"):
            path = _typed(protocol)
            if not path:
                st.error("Give the protocol's path.")
            elif not Path(path).is_file():
                st.error(f"{path}: no such protocol file.")
            else:
                state.open_spec(GameSpec(path, _typed(video), _typed(seats), _typed(observations)))
                st.rerun()
    st.markdown("**Or upload** a protocol and/or a seat map (small files; give the video by path above)")
    up_protocol = st.file_uploader("Protocol", type=["json"], key="up_protocol")
    up_seats = st.file_uploader("Seat map", type=["json"], key="up_seats")
    if st.button("Open the uploaded files", key="open_uploads"):
        try:
            current = state.current_spec()
            protocol_path = str(save_upload(up_protocol.name, up_protocol.getvalue())) if up_protocol else current.protocol
            seats_path = str(save_upload(up_seats.name, up_seats.getvalue())) if up_seats else current.seats
            video = current.video if not up_protocol else _typed(st.session_state.get("path_video"))
            state.open_spec(GameSpec(protocol_path, video, seats_path, None))
            st.rerun()
        except ValueError as exc:
            st.error(str(exc))
    recent = state.store().recent_games()
    if recent:
        st.subheader("Recent games")
        for i, g in enumerate(recent):
            cols = st.columns([4, 1])
            cols[0].markdown(f"**{md(g.title)}** — `{g.protocol_path}` ({g.profile})")
            if cols[1].button("Open", key=f"recent_{i}", disabled=not (g.protocol_path and Path(g.protocol_path).is_file())):
                state.open_spec(GameSpec(g.protocol_path, g.video_path, g.seats_path, None, g.profile))
                st.rerun()
    if game is not None:
        analysis_panel(game)


def analysis_panel(game: Game) -> None:
    """Run the hand analysis over the vote windows, with progress; the result is cached in the data folder."""
    st.subheader("Video analysis")
    if game.observations is not None:
        st.write(f"Analysed: {len(game.hands)} hand interval(s) from `{Path(game.spec.observations or '').name}`.")
    if not (game.spec.video and game.seat_map is not None):
        st.info("The analysis needs the game's video and a seat map (see Seat calibration).")
        return
    if st.button("Analyse the vote windows" if game.observations is None else "Analyse again", key="analyse"):
        bar = st.progress(0.0, text="Finding hands in the vote windows…")
        out = analyse(game, lambda done, msg: bar.progress(done, text=msg or f"{done:.0%} of the vote windows"))
        bar.progress(1.0, text="Done.")
        spec = game.spec
        state.open_spec(GameSpec(spec.protocol, spec.video, spec.seats, str(out), spec.profile))
        st.rerun()
