"""The app's frame: sidebar (game, rule profile, judge, page) and the page, with errors shown as one
sentence while the app keeps running."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from pathlib import Path

import streamlit as st

from contract import i18n
from contract.errors import StopframeError
from stopframe_app import state
from stopframe_app.game import SAMPLE_PROTOCOL, Game, profile_ids
from stopframe_app.views import (
    appeals,
    calibrate,
    exports,
    frames,
    live,
    open_game,
    tournament,
    training,
    votes,
)
from stopframe_app.views import sheet as protocol_sheet
from stopframe_app.words import md, profile_label, t

# The pages by their English names (the keys the app navigates by); the sidebar shows them from the catalogue.
PAGES: dict[str, Callable[[Game], None]] = {
    "Vote audit": votes.render,
    "Timeline & frames": frames.render,
    "Seat calibration": calibrate.render,
    "Exports": exports.render,
    "Appeals": appeals.render,
    "Training": training.render,
    "Tournament": tournament.render,
    "Protocol": protocol_sheet.render,
    "Live table": live.render,
    "Open a game": open_game.render,
}
PROFILE = "profile_pick"
LANGUAGE_NAMES = {"ru": "Русский", "en": "English"}  # each language in its own words, whatever is chosen
# Streamlit has no language setting: its upload box writes its size limit and its button in English. The box's
# instructions are hidden (the page says what to do above the box: open_game.upload_hint) and the button shows the
# catalogue's words in place of its own, and so does the note laid over the box while a file is dragged over it
# (the one element between the box's hidden input and its contents, there only then); nothing else is touched.
_DRAGGED = "[data-testid='stFileUploaderDropzone']>input+div:not(:last-child)"
_UPLOADER_STYLE = ("<style>"
                   "[data-testid='stFileUploaderDropzoneInstructions']{{display:none}}"
                   "[data-testid='stFileUploaderDropzone'] button{{font-size:0}}"
                   "[data-testid='stFileUploaderDropzone'] button *{{display:none}}"
                   "[data-testid='stFileUploaderDropzone'] button::after{{content:{button};font-size:0.875rem}}"
                   f"{_DRAGGED} *{{{{display:none}}}}"
                   f"{_DRAGGED}::after{{{{content:{{drop}}}}}}"
                   "</style>")


def guarded(fn: Callable[..., None], *args: object) -> bool:
    """Run a page; an input error becomes st.error with its one sentence, anything else a short message."""
    try:
        fn(*args)
        return True
    except StopframeError as exc:
        st.error(md(str(exc)))  # an input error quotes the file's own words: shown as written
    except Exception as exc:  # noqa: BLE001 - the app must keep running whatever a file contains
        where = traceback.extract_tb(exc.__traceback__)[-1]
        st.error(t("This could not be shown: {error} ({kind} at {file} line {line}).", error=exc,
                   kind=type(exc).__name__, file=Path(where.filename).name, line=where.lineno))
    return False


def css_string(text: str) -> str:
    """`text` as a CSS string: quoted, every character that could end the string or the style sheet escaped."""
    return '"' + "".join(c if c.isalnum() or c == " " else f"\\{ord(c):x} " for c in text) + '"'


def page_style() -> None:
    """The app's one style sheet, set once per run (a style-only st.html takes no room on the page)."""
    st.html(_UPLOADER_STYLE.format(button=css_string(i18n._("Choose a file")),
                                   drop=css_string(i18n._("Drop the file here"))))


def _sidebar(game: Game | None) -> str:
    with st.sidebar:
        st.title("Stopframe")
        st.radio("Язык · Language", i18n.LANGUAGES, key=state.LANG, format_func=LANGUAGE_NAMES.__getitem__,
                 horizontal=True, on_change=state.remember_language)
        if game is not None:
            st.markdown(f"**{md(game.title)}**  \n`{Path(game.spec.protocol).name}`")
            ids = profile_ids()
            if st.session_state.get(PROFILE) not in ids:
                st.session_state[PROFILE] = game.profile_id if game.profile_id in ids else ids[0]
            st.selectbox(t("Rule profile"), ids, key=PROFILE, format_func=profile_label,
                         on_change=lambda: state.set_profile(st.session_state[PROFILE]))
        st.text_input(t("Your name (recorded with each decision)"), key=state.JUDGE, on_change=state.recall_language)
        pages = list(PAGES)
        if st.session_state.get(state.VIEW) not in pages:  # a new tab or a reload: the page its address names
            asked = st.query_params.get("page")
            st.session_state[state.VIEW] = asked if asked in pages else pages[0] if game is not None else "Open a game"
        page = st.radio(t("Page"), pages, key=state.VIEW, format_func=t)
        st.query_params["page"] = page
        return page


def _go_to(page: str) -> None:
    st.session_state[state.VIEW] = page


def _is_sample(game: Game) -> bool:
    try:
        return Path(game.spec.protocol).resolve() == SAMPLE_PROTOCOL.resolve()
    except OSError:
        return False


def sample_note(game: Game, page: str) -> None:
    """On the page the app opens on, while the game is the bundled sample: the way to a game of one's own; a judge
    who holds a paper sheet would otherwise have to find the page for it among nine."""
    if page != "Vote audit" or not _is_sample(game):
        return
    st.info(t("This is Stopframe's sample game: every page can be tried on it. For a game of your own, enter "
              "its paper protocol sheet (page «{sheet}») or open its protocol file (page «{open}»).",
              sheet=t("Protocol"), open=t("Open a game")))
    left, right, _rest = st.columns([1, 1, 2])
    left.button(t("Enter a paper protocol sheet"), key="sample_to_sheet", on_click=_go_to, args=("Protocol",))
    right.button(t("Open my game"), key="sample_to_open", on_click=_go_to, args=("Open a game",))


def main() -> None:
    st.set_page_config(page_title="Stopframe", layout="wide")
    state.welcome_back()
    state.apply_language()
    page_style()
    game: Game | None = None
    error: str | None = None
    try:
        game = state.current_game()
        if not game.errors:  # a game whose files could not all be used is not remembered over a good one
            state.store().remember_game(game.game_id, game.title, protocol_path=game.spec.protocol,
                                        video_path=game.spec.video, seats_path=game.spec.seats, profile=game.profile_id)
    except StopframeError as exc:
        error = str(exc)
    except Exception as exc:  # noqa: BLE001
        error = i18n._("The game could not be opened: {kind}: {error}", kind=type(exc).__name__, error=exc)
    page = _sidebar(game)
    if error:
        st.error(md(error))
    if game is None:
        guarded(open_game.render, None)
        return
    for message in game.errors.values():
        st.error(md(message))
    for key in ("video", "seat_size"):
        if key in game.notes and page != "Open a game":
            st.warning(md(game.notes[key]))
    for key in ("engine", "seats", "marks"):
        if key in game.notes and page != "Open a game":
            st.caption(md(game.notes[key]))
    sample_note(game, page)
    guarded(PAGES[page], game)
