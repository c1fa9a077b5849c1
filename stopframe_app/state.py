"""Streamlit glue: the session's game, cached loading and analysis, the shared store and video readers.

Caching rules: the game and its audit are keyed on the files' paths and modification times plus the
rule profile (GameSpec.signature), so a rerun or a second session never recomputes; a changed file
or another profile does. Video readers are shared per file and used under a lock (PyAV is not
re-entrant), and keep their own small cache of decoded frames for stepping.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import streamlit as st

from contract import i18n
from contract.errors import StopframeError
from contract.jsonio import read_document
from review.audit.findings import AUDIT_FORMAT, AuditReport
from review.cases.appeal_store import AppealStore
from review.cases.store import Store, default_db_path
from review.cases.training_store import TrainingStore
from review.game.protocol import resolve_camera_path
from stopframe_app.game import Game, GameSpec, complete_spec, load_game, mtime, run_audit, sample_spec

SPEC = "game_spec"
FRAME = "frame"  # the viewer's position: plain session state, never a widget's key, so no page change drops it
FINDING = "finding"  # (finding key, the viewer's frame then): the finding last selected in the Vote audit's table
FRAME_BOX = "frame_box"  # the viewer's frame number box (a widget: Streamlit forgets it on other pages)
VIEW = "view"
JUDGE = "judge"
LANG = "lang"  # the language this browser tab shows its words in (ru, en)
KEPT = "kept:"  # session: a box's words as last typed, under the box's key (`kept`)
OPEN_ERROR = "open_error"  # why the last attempt to open a game failed (shown beside the control that tried)


def store() -> Store:
    """One Store per database file (it opens a connection per operation, so threads may share it)."""
    return _store(str(default_db_path()))


@st.cache_resource(show_spinner=False)
def _store(path: str) -> Store:
    return Store(path)


def appeals() -> AppealStore:
    """Appeal cases, in the same database file as the decisions."""
    return _appeals(str(default_db_path()))


@st.cache_resource(show_spinner=False)
def _appeals(path: str) -> AppealStore:
    return AppealStore(_store(path))


def training() -> TrainingStore:
    """Quiz sets and trainees' answers, in the same database file as the decisions."""
    return _training(str(default_db_path()))


@st.cache_resource(show_spinner=False)
def _training(path: str) -> TrainingStore:
    return TrainingStore(_store(path))


@st.cache_resource(show_spinner=False, max_entries=4)
def _video(path: str, modified: float | None) -> tuple[Any, threading.Lock]:
    from vision.video import open_video

    return open_video(path), threading.Lock()


@contextmanager
def video(game: Game) -> Iterator[Any]:
    """The game's shared video reader, held exclusively for the duration of the block."""
    if not game.spec.video or game.video_meta is None:
        raise StopframeError(game.notes.get("video") or i18n._("This game has no readable video."))
    with video_file(game.spec.video) as source:
        yield source


@contextmanager
def video_file(path: str) -> Iterator[Any]:
    """The shared reader of any video file (a quiz's clip may come from another game than the open one)."""
    source, lock = _video(path, mtime(path))
    with lock:
        yield source


def _opened(spec: GameSpec) -> Game:
    """The game of `spec`, read and audited once per language (its notes are sentences in the reader's words)."""
    with st.spinner(i18n._("Reading the game and auditing the votes…")):
        return _game((*spec.signature(), i18n.language()), spec)


@st.cache_resource(show_spinner=False, max_entries=8)
def _game(signature: tuple, spec: GameSpec) -> Game:
    game = load_game(spec)
    game.audit, notes, errors = saved_audit(game) if spec.audit else _audit(signature, game)
    game.notes.update(notes)
    game.errors.update(errors)
    return game


def saved_audit(game: Game) -> tuple[AuditReport | None, dict[str, str], dict[str, str]]:
    """The audit a tournament run saved for this game (OUT/games/NAME.audit.json), as it is: the judge sees the
    run's findings at once, with no second look at the video, and the hands it saw where the run kept them
    (OUT/games/NAME.observations.json). A game with no observations at all still needs the video analysed for
    the hands on the frames; the note says so instead of "not analysed yet"."""
    path = str(game.spec.audit)
    try:
        report = AuditReport.from_json(read_document(path, "audit report", AUDIT_FORMAT), path).at_file_precision()
    except StopframeError as exc:
        return None, {}, {"audit": str(exc)}
    except (KeyError, TypeError, ValueError) as exc:
        return None, {}, {"audit": i18n._("{path}: not an audit report this app can read ({kind}: {error}).",
                                          path=path, kind=type(exc).__name__, error=exc)}
    notes = {}
    if game.observations is None and not game.spec.observations and "observations" in game.notes:
        notes["observations"] = i18n._("The findings are the tournament's audit ({path}); the hands it saw were not "
                                       "kept with it: analyse the video to see them on the frames.", path=path)
    return report, notes, {}


@st.cache_data(show_spinner=False, max_entries=16)
def _audit(signature: tuple, _game: Game) -> tuple[AuditReport | None, dict[str, str], dict[str, str]]:
    """The audit report, cached on the files' paths, dates and the profile (the signature; the cache pickles it).
    An audit that fails is a message on the page; the rest of the game stays usable."""
    try:
        report = run_audit(_game)
    except StopframeError as exc:
        return None, {}, {"audit": str(exc)}
    except Exception as exc:  # noqa: BLE001 - a bug on one game's data must not take the workspace down
        return None, {}, {"audit": i18n._("The audit failed on this game ({kind}: {error}).", kind=type(exc).__name__,
                                         error=exc)}
    return report, {k: v for k, v in _game.notes.items() if k == "audit"}, {}


def current_spec() -> GameSpec:
    """The session's game (the bundled sample until another is opened), with its usual companions found."""
    spec = st.session_state.get(SPEC)
    if spec is None:
        spec = default_spec()
        st.session_state[SPEC] = spec
    return complete_spec(spec)


def default_spec() -> GameSpec:
    """`streamlit run app.py -- PROTOCOL [--video V] [--seats S] [--observations O]` opens that game;
    plain `streamlit run app.py` the bundled sample."""
    parser = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    parser.add_argument("protocol", nargs="?")
    for name in ("video", "seats", "observations"):
        parser.add_argument(f"--{name}")
    try:
        args, _ = parser.parse_known_args(sys.argv[1:])
    except (argparse.ArgumentError, SystemExit):
        return sample_spec()
    if not (args.protocol and args.protocol.endswith(".json")):
        return replace(sample_spec(), observations=args.observations)
    return GameSpec(args.protocol, args.video, args.seats, args.observations)


def open_spec(spec: GameSpec) -> None:
    """Switch the session to another game (its frame position starts over unless it is the same video)."""
    old = st.session_state.get(SPEC)
    st.session_state[SPEC] = spec
    if old is None or complete_spec(old).video != complete_spec(spec).video:
        st.session_state[FRAME] = 0
    st.session_state.pop(OPEN_ERROR, None)


def kept(key: str, default: object = "") -> str:
    """The key of a box whose words stay when the judge goes to another page and back (to the frame viewer from a
    finding or an appeal, say): Streamlit forgets a box it did not draw, so what was typed (`keep`) is put back."""
    if key not in st.session_state:
        st.session_state[key] = st.session_state.get(KEPT + key, default)
    return key


def keep(key: str) -> None:
    """The box at `key` was changed: what it holds now is what `kept` puts back."""
    st.session_state[KEPT + key] = st.session_state[key]


def kept_box(key: str, default: object = "") -> dict[str, Any]:
    """A widget's key and callback for a box that keeps its words across pages (`kept`, `keep`)."""
    return {"key": kept(key, default), "on_change": keep, "args": (key,)}


def try_open(spec: GameSpec, where: str) -> bool:
    """Open a game only if it can be read: a protocol that cannot be read, or a named video, seat map or
    observations file that cannot be used, leaves the game open before as it was, and the reason is kept
    for the control at `where` to show. The chosen rule profile goes with the game where it has none."""
    st.session_state.pop(OPEN_ERROR, None)
    if spec.profile is None and st.session_state.get(SPEC) is not None:
        old = st.session_state[SPEC]
        if old.protocol == spec.protocol and old.profile:
            spec = replace(spec, profile=old.profile)
    try:
        full = complete_spec(spec)
        game = _opened(full)
    except StopframeError as exc:
        st.session_state[OPEN_ERROR] = (where, i18n._("Not opened: {why}", why=exc))
        return False
    except Exception as exc:  # noqa: BLE001 - a hostile file must not take the workspace down
        st.session_state[OPEN_ERROR] = (where, i18n._("Not opened: the file could not be read ({kind}: {error}).",
                                                      kind=type(exc).__name__, error=exc))
        return False
    named = {"video": spec.video, "seats": spec.seats, "observations": spec.observations, "audit": spec.audit}
    bad = [game.errors[k] for k, path in named.items() if path and k in game.errors]
    if bad:
        st.session_state[OPEN_ERROR] = (where, i18n._("Not opened: {why}", why=" ".join(bad)))
        return False
    open_spec(spec)
    return True


def open_camera(game: Game, camera_id: str, where: str) -> bool:
    """Open the game on another of its cameras (`videos`): that camera's video, seat map and observations, on its
    own clock (the rule profile kept); False, with the reason kept for `where`, when it cannot be opened."""
    camera = next((c for c in game.cameras if c.id == camera_id), None)
    if camera is None:
        st.session_state[OPEN_ERROR] = (where, i18n._("Not opened: the protocol has no camera «{camera}».", camera=camera_id))
        return False
    try:
        video = resolve_camera_path(game.protocol, camera)
    except StopframeError as exc:
        st.session_state[OPEN_ERROR] = (where, i18n._("Not opened: {why}", why=exc))
        return False
    return try_open(GameSpec(game.spec.protocol, str(video), None, None, game.spec.profile), where)


def open_error(where: str) -> str | None:
    """The failed open's reason, if the control at `where` made it."""
    value = st.session_state.get(OPEN_ERROR)
    return value[1] if value and value[0] == where else None


def set_profile(profile_id: str) -> None:
    """Review the game under another rule profile: a saved audit (a tournament's) was made under its own profile,
    so the game is audited afresh."""
    st.session_state[SPEC] = replace(st.session_state.get(SPEC) or sample_spec(), profile=profile_id, audit=None)


def current_game() -> Game:
    spec = current_spec()
    return _opened(spec)


def apply_language() -> None:
    """Show this run's words in the session's language: the judge's choice, else the system's (contract.i18n).
    Set at the top of every run; the choice lives in the run's own context, so sessions never share it."""
    if st.session_state.get(LANG) not in i18n.LANGUAGES:
        st.session_state[LANG] = i18n.system_language()
    i18n.set_language(st.session_state[LANG])
    i18n.follow_session(session_language)  # the next run's callbacks, which run before it sets its language


def session_language() -> str | None:
    """The language chosen in the browser tab whose callback is running (contract.i18n.follow_session); None
    outside a Streamlit run."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if get_script_run_ctx(suppress_warning=True) is None:
        return None
    lang = st.session_state.get(LANG)
    return lang if lang in i18n.LANGUAGES else None


def remember_language() -> None:
    """The language switch's callback: keep the choice for the named judge (the store's per-judge memory)."""
    judge = judge_name()
    if judge and st.session_state.get(LANG) in i18n.LANGUAGES:
        store().set_judge_language(judge, st.session_state[LANG])


def recall_language() -> None:
    """The judge's name box's callback: the name is kept for the next tab or reload, and a judge who chose a
    language before gets it back."""
    judge = judge_name()
    store().set_last_judge(judge)
    lang = store().judge_language(judge) if judge else None
    if lang:
        st.session_state[LANG] = lang


def welcome_back() -> None:
    """A new tab or a reload starts with the name last given here and that judge's language: a judge is not asked
    to type their name again before each decision."""
    if JUDGE in st.session_state:
        return
    try:
        judge = store().last_judge()
        lang = store().judge_language(judge) if judge else None
    except StopframeError:  # a store that cannot be read is said where the decisions are made
        return
    if judge:
        st.session_state[JUDGE] = judge
        if lang and LANG not in st.session_state:
            st.session_state[LANG] = lang


def judge_name() -> str:
    return str(st.session_state.get(JUDGE) or "").strip()


def frame() -> int:
    """The frame the viewer is on (0 before any step)."""
    try:
        return max(0, int(st.session_state.get(FRAME, 0)))
    except (TypeError, ValueError):
        return 0


def go_to_frame(index: int, view: str | None = None) -> None:
    """Move the frame viewer (and optionally switch the page) — used as a button callback."""
    st.session_state[FRAME] = max(0, int(index))
    if view is not None:
        st.session_state[VIEW] = view
