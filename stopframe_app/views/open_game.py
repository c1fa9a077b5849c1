"""Open a game: the bundled sample, local paths (videos always by path), uploads of small files, recent games.

Uploaded files are kept in the app's data folder (never in memory for long, never outside that folder),
and a protocol's `video.path` is resolved inside its own folder by review.game.protocol.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import streamlit as st

from contract.i18n import _, ngettext
from review.cases.store import data_dir
from review.game.profiles import PROFILES
from stopframe_app import state, words
from stopframe_app.decisions import md
from stopframe_app.game import SAMPLE_PROTOCOL, Game, GameSpec, analyse, sample_spec

MAX_UPLOAD_BYTES = 20 * 1024 * 1024  # protocols and seat maps are kilobytes; videos are opened by path


def save_upload(name: str, data: bytes) -> Path:
    """Keep an uploaded file under the data folder, named by its content, and return its path."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise ValueError(_("{name} is {size} MB; upload only protocols and seat maps (videos by path).", name=name,
                           size=f"{len(data) / 1e6:.0f}"))
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in Path(name).name)[-80:] or "upload.json"
    folder = data_dir() / "uploads" / hashlib.sha256(data).hexdigest()[:16]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / safe
    path.write_bytes(data)
    return path


def upload_hint() -> None:
    """What to do with the upload boxes below, in the reader's words: Streamlit writes its own box's words in
    English only (the size limit, the button), and the app's style sheet hides them (stopframe_app.main)."""
    st.caption(words.t("Drop a JSON file on the box below, or click the button in it to choose one (up to {size} MB).",
                       size=MAX_UPLOAD_BYTES // (1024 * 1024)))


def pasted(text: object) -> str:
    """A path as the judge typed or pasted it into a box: the spaces around it and one pair of quotes around it
    taken off (Windows' «Copy as path» gives "C:\\games\\table1.mp4" in quotes, a file manager or a terminal may
    give '…')."""
    text = str(text or "").strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    return text


def _typed(value: str | None) -> str | None:
    """The path the judge typed, `~` expanded; ValueError with one sentence where it cannot name a file."""
    value = pasted(value)
    if not value:
        return None
    try:
        return str(Path(value).expanduser())
    except RuntimeError as exc:  # `~nosuchuser/x`: no such user's home folder
        raise ValueError(_("{path}: there is no such user's home folder to look in.", path=value[:200])) from exc


def _is_file(path: str) -> bool:
    """Whether a regular file is there; False for a name too long for the system or holding a NUL byte."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def is_folder(path: str | Path) -> bool:
    """Whether a folder is there, where the judge was asked for a file (said so, not «no file there»)."""
    try:
        return Path(path).is_dir()
    except (OSError, ValueError):
        return False


def _open_sample() -> None:
    state.try_open(sample_spec(), "sample")


def _open_paths() -> None:
    s = st.session_state
    try:
        path = _typed(s.get("path_protocol"))
        spec = GameSpec(path or "", _typed(s.get("path_video")), _typed(s.get("path_seats")),
                        _typed(s.get("path_observations")))
    except ValueError as exc:
        s[state.OPEN_ERROR] = ("paths", _("Not opened: {why}", why=exc))
        return
    if not path:
        s[state.OPEN_ERROR] = ("paths", _("Give the protocol's path first (the «Protocol» box)."))
    elif is_folder(path):
        s[state.OPEN_ERROR] = ("paths", _("Not opened: {path} is a folder; give the protocol file in it "
                                          "(NAME.protocol.json).", path=path[:200] + ("…" if len(path) > 200 else "")))
    elif not _is_file(path):
        s[state.OPEN_ERROR] = ("paths", _("Not opened: there is no protocol file at {path}.",
                                          path=path[:200] + ("…" if len(path) > 200 else "")))
    else:
        state.try_open(spec, "paths")


def _open_uploads() -> None:
    s = st.session_state
    up_protocol, up_seats = s.get("up_protocol"), s.get("up_seats")
    if not up_protocol and not up_seats:
        s[state.OPEN_ERROR] = ("uploads", _("Choose a protocol or a seat map to upload first."))
        return
    try:
        current = state.current_spec()
        protocol_path = str(save_upload(up_protocol.name, up_protocol.getvalue())) if up_protocol else current.protocol
        seats_path = str(save_upload(up_seats.name, up_seats.getvalue())) if up_seats else current.seats
    except (ValueError, OSError) as exc:
        s[state.OPEN_ERROR] = ("uploads", _("Not opened: {why}", why=exc))
        return
    try:
        video = current.video if not up_protocol else _typed(s.get("path_video"))
    except ValueError as exc:
        s[state.OPEN_ERROR] = ("uploads", _("Not opened: {why}", why=exc))
        return
    if not state.try_open(GameSpec(protocol_path, video, seats_path, None), "uploads"):
        kept = {protocol_path: up_protocol, seats_path: up_seats}
        said = state.open_error("uploads") or ""
        for path, upload in kept.items():
            said = as_uploaded(said, path, upload.name) if upload else said
        s[state.OPEN_ERROR] = ("uploads", said)


def as_uploaded(message: str, kept: str | Path, name: str) -> str:
    """A message about an uploaded file naming it as the judge chose it, not as the app keeps it in its data
    folder (uploads/3e62…/name.json, a place the judge never saw)."""
    return message.replace(str(kept), name)


def is_upload(path: str | Path) -> bool:
    """Whether `path` is an upload the app keeps in its data folder (uploads/3e62…/name.json)."""
    try:
        return Path(path).resolve().is_relative_to((data_dir() / "uploads").resolve())
    except (OSError, ValueError):
        return False


def shown_path(path: str) -> str:
    """A protocol's path as the judge knows it: an upload by its name and that it was uploaded, never the data
    folder's place for it, which the judge never saw."""
    return _("{name} (uploaded)", name=Path(path).name) if is_upload(path) else path


def _open_recent(g: object, where: str) -> None:
    state.try_open(GameSpec(g.protocol_path, g.video_path, g.seats_path, None, g.profile), where)  # type: ignore[attr-defined]


def _said(where: str) -> None:
    """The answer to the last open tried at this control, right under it."""
    error = state.open_error(where)
    if error:
        st.error(md(error) + " " + words.t("The game open before stays open."))


def render(game: Game | None) -> None:
    st.header(words.t("Open a game"))
    if game is not None:
        st.caption(words.t("Open now: {title} ({file}).", title=game.title, file=Path(game.spec.protocol).name))
    st.button(words.t("Open the bundled sample game"), key="open_sample", disabled=not SAMPLE_PROTOCOL.is_file(),
              on_click=_open_sample)
    _said("sample")
    with st.container(border=True):
        st.markdown(words.t("**By local path** (the video is read where it is; nothing is uploaded)"))
        st.text_input(words.t("Protocol (*.protocol.json)"), **state.kept_box("path_protocol"))
        st.text_input(words.t("Video (optional: else the video the protocol names)"), **state.kept_box("path_video"))
        st.text_input(words.t("Seat map (optional: NAME.seats.json beside the protocol)"), **state.kept_box("path_seats"))
        st.text_input(words.t("Observations (optional: an earlier analysis)"), **state.kept_box("path_observations"))
        st.button(words.t("Open"), key="open_paths", on_click=_open_paths)
        _said("paths")
    with st.container(border=True):
        st.markdown(words.t("**Or upload** a protocol and/or a seat map (small files; give the video by path above)"))
        upload_hint()
        st.file_uploader(words.t("Protocol"), type=["json"], key="up_protocol")
        st.file_uploader(words.t("Seat map"), type=["json"], key="up_seats")
        st.button(words.t("Open the uploaded files"), key="open_uploads", on_click=_open_uploads)
        _said("uploads")
    recent = state.store().recent_games()
    if recent:
        st.subheader(words.t("Recent games"))
        for i, g in enumerate(recent):
            cols = st.columns([4, 1])
            named = words.profile_label(g.profile) if g.profile in PROFILES else g.profile  # the rulebook, and its code
            profile = " · " + words.t("rules: {profile}", profile=named) if g.profile else ""
            cols[0].markdown(f"**{md(g.title)}** — {md(shown_path(g.protocol_path or ''))}{profile}")
            cols[1].button(words.t("Open"), key=f"recent_{i}", disabled=not (g.protocol_path and _is_file(g.protocol_path)),
                           on_click=_open_recent, args=(g, f"recent_{i}"))
            _said(f"recent_{i}")
    if game is not None:
        analysis_panel(game)


def analysis_panel(game: Game) -> None:
    """Run the hand analysis over the vote windows, with progress; the result is cached in the data folder."""
    st.subheader(words.t("Video analysis"))
    if game.observations is not None:
        st.write(words.t("Analysed: {hands} from {file}.", file=Path(game.spec.observations or "").name,
                         hands=ngettext("{n} hand interval", "{n} hand intervals", len(game.hands))))
    if not (game.spec.video and game.seat_map is not None):
        st.info(words.t("The analysis needs the game's video and a seat map (see Seat calibration)."))
        return
    label = words.t("Analyse the vote windows") if game.observations is None else words.t("Analyse again")
    if st.button(label, key="analyse"):
        analyse_and_open(game)
        st.rerun()


def analyse_and_open(game: Game) -> None:
    """Find the hands in the game's vote windows, with a progress bar, and open the game with them: the audit then
    runs on what was found (the live table's finished games come through here too)."""
    bar = st.progress(0.0, text=_("Finding hands in the vote windows…"))
    # the analysis reports its progress as a share; its own English line is not shown to the reader
    out = analyse(game, lambda done, _msg: bar.progress(done, text=_("{share} of the vote windows",
                                                                       share=f"{done:.0%}")))
    bar.progress(1.0, text=_("Done."))
    spec = game.spec
    state.open_spec(GameSpec(spec.protocol, spec.video, spec.seats, str(out), spec.profile))
