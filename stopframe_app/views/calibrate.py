"""Seat calibration: start from the game's own map, the map found from the video (vision.seat_finder: where the
hands rest during the votes) or an ellipse of ten seats, click the frame to move zones, see them drawn on the
game's own frame, save the seat map (spec §2). A found map is only a proposal: it is saved when the judge clicks
save, and a file already there is replaced only when the judge ticks so. A game filmed from several cameras
(`videos`) has a camera picker: the game opens on the chosen camera and its map is saved to that camera's `seats`
file, under the same rule."""

from __future__ import annotations

import base64
from pathlib import Path

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from contract.errors import StopframeError
from contract.i18n import _
from contract.jsonio import format_of
from contract.outputs import check_output, os_reason, same_kind
from contract.seats import Seat, SeatMap, save_seat_map
from review.cases.store import data_dir
from review.game.protocol import resolve_camera_path
from stopframe_app import state, words
from stopframe_app.decisions import game_inputs
from stopframe_app.game import Game, GameSpec, own_name
from stopframe_app.views.open_game import pasted
from vision.seat_finder import FoundMap, renumbered
from vision.seats import default_seat_map

CLICK = "calib_click"
PARAMS = ("calib_cx", "calib_cy", "calib_ax", "calib_ay", "calib_angle", "calib_s1x", "calib_s1y")
MOVES = "calib_moves"  # seat -> (dx, dy) shifts of single zones, in frame pixels
GRID = 24  # click resolution of the picture, in frame pixels
FOUND = "calib_found"  # (video path, FoundMap): the map found from this video since the tab was opened
TRIED = "calib_found_tried"  # video paths the finder has already run on (the page never loops on a failure)
CAMERA = "calib_camera"  # the camera whose seats are placed (a game of several cameras)
START = "calib_start"  # which zones the page starts from (one of OWN, FOUND_START, ELLIPSE)
# where the zones start from, by their English names (shown from the catalogue)
OWN, FOUND_START, ELLIPSE = "the game's seat map", "the seat map found from the video", "an ellipse of ten seats"
CENTRE, SEAT1 = "centre", "seat1"  # what a click places besides a seat's zone (a seat number)


def _target_words(target: str | int) -> str:
    if target == CENTRE:
        return _("table centre")
    if target == SEAT1:
        return _("seat 1")
    return _("zone of seat {seat}", seat=target)


def _defaults(w: int, h: int) -> dict[str, float]:
    return {"calib_cx": w / 2, "calib_cy": h * 0.58, "calib_ax": w * 0.36, "calib_ay": h * 0.26, "calib_angle": 0.0,
            "calib_s1x": w / 2, "calib_s1y": h * 0.58 + h * 0.26}


def build_map(size: tuple[int, int], p: dict[str, float], clockwise: bool,
              moves: dict[int, tuple[float, float]], base: SeatMap | None = None) -> SeatMap:
    """The ellipse layout (or `base`, the game's own map) with single zones moved by the judge's clicks."""
    if base is None:
        base = default_seat_map(size, (p["calib_cx"], p["calib_cy"]), (p["calib_ax"], p["calib_ay"]),
                                p["calib_angle"], seat1=(p["calib_s1x"], p["calib_s1y"]), clockwise=clockwise)
    seats = {}
    for n, seat in base.seats.items():
        shift = np.array(moves.get(n, (0.0, 0.0)))
        seats[n] = Seat(seat.zone + shift, None if seat.raise_ is None else seat.raise_ + shift)
    return SeatMap(base.frame_size, seats)


def click_chart(jpeg: bytes, size: tuple[int, int], display_width: int = 800) -> alt.LayerChart:
    """The frame as a chart background with an invisible grid: a click selects the nearest grid point."""
    w, h = size
    dw, dh = display_width, round(display_width * h / w)
    url = "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")
    xs, ys = np.meshgrid(np.arange(0, w + 1, GRID), np.arange(0, h + 1, GRID))
    grid = pd.DataFrame({"x": xs.ravel(), "y": ys.ravel()})
    x = alt.X("x:Q", scale=alt.Scale(domain=[0, w], nice=False), axis=None)
    y = alt.Y("y:Q", scale=alt.Scale(domain=[h, 0], nice=False), axis=None)
    pick = alt.selection_point(name="spot", fields=["x", "y"], on="click", nearest=True, clear=False)
    picture = alt.Chart(pd.DataFrame({"x": [w / 2], "y": [h / 2], "url": [url]})).mark_image(
        width=dw, height=dh).encode(x=x, y=y, url="url:N")
    points = alt.Chart(grid).mark_point(opacity=0, size=GRID * 4).encode(x=x, y=y).add_params(pick)
    return alt.layer(picture, points).properties(width=dw, height=dh)


def _apply_click(target: str | int, size: tuple[int, int]) -> None:
    picked = ((st.session_state.get(CLICK) or {}).get("selection") or {}).get("spot") or []
    if not picked:
        return
    x, y = float(picked[0]["x"]), float(picked[0]["y"])
    if target == CENTRE:
        st.session_state["calib_cx"], st.session_state["calib_cy"] = x, y
    elif target == SEAT1:
        st.session_state["calib_s1x"], st.session_state["calib_s1y"] = x, y
    else:
        seat = int(target)
        centre = st.session_state.get("_calib_centres", {}).get(seat)
        if centre is not None:
            moves = dict(st.session_state.get(MOVES, {}))
            dx, dy = moves.get(seat, (0.0, 0.0))
            moves[seat] = (dx + x - centre[0], dy + y - centre[1])
            st.session_state[MOVES] = moves


def found_map(game: Game) -> FoundMap | None:
    """The map found from this game's video since the tab was opened, if any."""
    entry = st.session_state.get(FOUND)
    return entry[1] if entry is not None and entry[0] == game.spec.video else None


def find_seats_now(game: Game) -> None:
    """Run the seat finder on the game's video (with its protocol's vote times), with a progress bar."""
    from pipeline.seat_finding import find_game_seats

    st.session_state[TRIED] = {*st.session_state.get(TRIED, set()), game.spec.video}
    bar = st.progress(0.0, text=_("Finding the seats: looking at the hands in the votes…"))

    def step(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=_("Finding the seats: frame {done} of {total} looked at", done=done,
                                                  total=total))

    try:
        found = find_game_seats(str(game.spec.video), game.spec.protocol, progress=step)
    except StopframeError as exc:
        st.error(words.t("The seats could not be found from the video: {why}", why=exc))
        return
    finally:
        bar.empty()
    st.session_state[FOUND] = (game.spec.video, found)
    st.session_state[MOVES] = {}
    st.session_state[START] = FOUND_START  # the map just found is shown at once, not the one shown before


def _renumber(game: Game, flip: bool, move: int) -> None:
    found = found_map(game)
    if found is not None:
        st.session_state[FOUND] = (game.spec.video, renumbered(found, flip=flip, move_seat1=move))
        st.session_state[MOVES] = {}


def found_panel(game: Game, found: FoundMap) -> None:
    """What the finder is sure of: each seat's confidence, every seat it could not place and why, and the
    judge's two corrections of the numbering."""
    players_only = found.mode != "votes" and found.table is not None
    how = (_("the hands in the protocol's votes") if found.mode == "votes" else
           _("the players and the table (no vote times yet)") if players_only else _("the hands seen over the whole video"))
    direction = _("counter-clockwise") if found.flipped else _("clockwise")
    said = [_("Found from {how} in {seconds} s; seat 1 on the judge's left, then {direction}", how=how,
              seconds=words.number(found.seconds, 1), direction=direction)
            + (_(", checked against the protocol's voters.") if found.checked_by_voters else ".")]
    if players_only:
        said.append(_("The chairs are spread evenly round the table's outline, fitted to the players seen; each zone "
                      "reaches from the rim to two hands in, as no vote has shown yet where this table's hands land: "
                      "check them, and find the map again once the protocol has vote times."))
    elif found.table is not None:
        said.append(_("The table's outline set the ring."))
    else:
        said.append(_("No table outline was found: check the seat numbers on the picture."))
    st.caption(words.md(" ".join(said)))
    cols = st.columns(2)
    cols[0].button(words.t("Flip direction"), key="calib_flip", on_click=_renumber, args=(game, True, 0),
                   help=_("Number the seats the other way round the table."))
    cols[1].button(words.t("Move seat 1"), key="calib_move1", on_click=_renumber, args=(game, False, 1),
                   help=_("Seat 1 moves one chair on; the others follow round the table."))
    rows = [{_("seat"): n, _("confidence"): words.number(c)} for n, c in sorted(found.confidence.items())]
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, key="calib_found_table")
    for why in found.unfound.values():
        st.warning(words.md(why))  # vision.seat_finder's own sentence


def _open_camera(game: Game) -> None:
    st.session_state[MOVES] = {}
    state.open_camera(game, str(st.session_state[CAMERA]), CAMERA)


def camera_picker(game: Game) -> None:
    """Which camera's seats to place, where the protocol names several: picking one opens the game on it."""
    ids = [c.id for c in game.cameras]
    if not ids:
        return
    if game.camera is not None:
        st.session_state[CAMERA] = game.camera.id
    st.radio(words.t("Camera"), ids, horizontal=True, key=CAMERA, on_change=_open_camera, args=(game,),
             help=_("Each camera has its own seat map, saved to that camera's seat map file (videos[].seats)."))
    if (why := state.open_error(CAMERA)) is not None:
        st.error(words.md(why))
    elif game.camera is None:
        st.caption(words.t("The open video is none of the protocol's cameras: pick one to place its seats."))


def _save_path(game: Game) -> tuple[Path, str]:
    """Where the seat map is saved by default, and the path box's key: the open camera's own seat map file, or
    the data folder's map of the game."""
    if game.camera is not None and game.camera.seats:
        try:
            return resolve_camera_path(game.protocol, game.camera, "seats"), f"calib_path_{game.camera.id}"
        except StopframeError:
            pass
    return data_dir() / "seatmaps" / f"{own_name(game.spec.protocol)}.seats.json", "calib_path"


def _save_target(game: Game, typed: str, folder: Path) -> tuple[Path | None, str | None]:
    """The file the judge typed to save the seat map to, and why it may not be written (None: it may): never one
    of the game's other files by any name (contract.outputs), never something other than a file. A bare name
    lands in `folder` (where the default map lives), never in whatever folder the app server was started from."""
    if not typed:
        return None, None
    try:
        target = Path(typed).expanduser()
        target = target if target.is_absolute() else folder / target
        check_output(target, game_inputs(game, seats=False), what="seat map")
        if target.is_file() and not _is_seat_map(target):  # never offered to be replaced by a seat map
            return target, _("{path} is a file that is not a seat map, and Stopframe writes a seat map over another "
                             "seat map only; give another file name.", path=typed[:200])
    except RuntimeError:  # `~nosuchuser/x`
        return Path(typed), _("{path}: there is no such user's home folder to save into.", path=typed[:200])
    except (StopframeError, ValueError) as exc:
        return Path(typed), str(exc)
    return target, None


def _is_seat_map(path: Path) -> bool:
    fmt = format_of(path)
    return isinstance(fmt, str) and fmt.startswith("stopframe-seats/")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or a.samefile(b)
    except (OSError, RuntimeError):
        return False



def render(game: Game) -> None:
    """The calibration tab: where the zones start from, the picture to click them into place, and saving the map."""
    st.header(words.t("Seat calibration"))
    camera_picker(game)
    if game.video_meta is None:
        st.info(words.md(game.notes.get("video") or "") or words.t("Open a game with a video to place its seats."))
        return
    w, h = game.video_meta.width, game.video_meta.height
    for k, v in _defaults(w, h).items():
        st.session_state.setdefault(k, float(v))
    from vision.overlay import draw_overlay, encode_jpeg

    frame = min(state.frame(), game.video_meta.frame_count - 1)
    with state.video(game) as source:
        image = source.frame_at(frame)
    start_from, found = _start_picker(game)
    target = _click_target(own=start_from != ELLIPSE)
    _shape_inputs(w, h)
    params = {k: float(st.session_state[k]) for k in PARAMS}
    base = {OWN: game.seat_map, FOUND_START: found.seat_map if found is not None else None}.get(start_from)
    seat_map = build_map((w, h), params, bool(st.session_state.get("calib_clockwise", True)),
                         st.session_state.get(MOVES, {}), base=base)
    st.session_state["_calib_centres"] = {n: tuple(s.zone.mean(axis=0)) for n, s in seat_map.seats.items()}
    preview = draw_overlay(image, seat_map=seat_map, caption=f"#{frame}")  # the overlay's font has Latin letters only
    st.altair_chart(click_chart(encode_jpeg(preview, 80), (w, h)), key=CLICK, on_select=lambda: _apply_click(target, (w, h)),
                    selection_mode="spot")
    st.caption(words.t("Click the picture to place what is chosen above; fine-tune with the numbers."))
    _save_panel(game, seat_map, frame)


def _start_picker(game: Game) -> tuple[str, FoundMap | None]:
    """Which zones the page starts from (one of OWN, FOUND_START, ELLIPSE) and the map found from the video, if
    any; a game without a seat map has the finder run on its video once, so it never starts from a bare ellipse."""
    if st.button(words.t("Find seats from the video"), key="calib_find",
                 help=_("Where each player's hand rests during the protocol's votes becomes that seat's zone.")):
        find_seats_now(game)
    elif game.seat_map is None and found_map(game) is None and game.spec.video not in st.session_state.get(TRIED, ()):
        find_seats_now(game)  # no map at all: start from the one the video shows, not from the ellipse
    found = found_map(game)
    starts = ([OWN] if game.seat_map is not None else []) + ([FOUND_START] if found is not None else []) + [ELLIPSE]
    start_from = st.radio(words.t("Start from"), starts, horizontal=True, key=START, format_func=_)
    if start_from == FOUND_START and found is not None:
        found_panel(game, found)
    return start_from, found


def _click_target(own: bool) -> str | int:
    """What a click on the picture places: a seat's zone, or (on the ellipse) also the centre or seat 1."""
    places: list[str | int] = list(range(1, 11))
    if st.session_state.get("calib_target") not in (places if own else [CENTRE, SEAT1, *places]):
        st.session_state.pop("calib_target", None)
    return st.radio(words.t("A click on the picture places"), places if own else [CENTRE, SEAT1, *places],
                    horizontal=True, key="calib_target", format_func=_target_words)


def _shape_inputs(w: int, h: int) -> None:
    """The ellipse's numbers to fine-tune by hand (kept in the session under PARAMS) and the reset of zone moves."""
    cols = st.columns(4)  # whole pixels and degrees: no «960.00» with an English decimal point on a Russian page
    cols[0].number_input(words.t("centre x"), 0.0, float(w), key="calib_cx", step=5.0, format="%.0f")
    cols[0].number_input(words.t("centre y"), 0.0, float(h), key="calib_cy", step=5.0, format="%.0f")
    cols[1].number_input(words.t("half width"), 10.0, float(w), key="calib_ax", step=5.0, format="%.0f")
    cols[1].number_input(words.t("half depth"), 10.0, float(h), key="calib_ay", step=5.0, format="%.0f")
    cols[2].number_input(words.t("rotation (°)"), -90.0, 90.0, key="calib_angle", step=1.0, format="%.0f")
    cols[2].checkbox(words.t("seats go clockwise on screen"), value=True, key="calib_clockwise")
    cols[3].number_input(words.t("seat 1 x"), 0.0, float(w), key="calib_s1x", step=5.0, format="%.0f")
    cols[3].number_input(words.t("seat 1 y"), 0.0, float(h), key="calib_s1y", step=5.0, format="%.0f")
    if cols[3].button(words.t("Reset zone moves"), key="calib_reset"):
        st.session_state[MOVES] = {}


def _save_panel(game: Game, seat_map: SeatMap, frame: int) -> None:
    """The file to save the map to, the tick that allows replacing one already there, and the save button."""
    default_path, path_key = _save_path(game)
    path = pasted(st.text_input(words.t("Save the seat map as"), value=str(default_path), key=path_key))
    target_file, refused = _save_target(game, path, default_path.parent)
    existing = target_file is not None and refused is None and target_file.exists()
    in_use = existing and bool(game.spec.seats) and _same_file(target_file, Path(game.spec.seats))
    replace_ok = True
    if existing:
        label = (words.t("Replace the game's seat map at {path} (its zones are lost)", path=path) if in_use
                 else words.t("Replace an existing seat map at {path} (its zones are lost)", path=path))
        replace_ok = st.checkbox(label, key="calib_replace")
    if not st.button(words.t("Save seat map and use it"), key="calib_save", type="primary"):
        return
    if target_file is None:
        st.error(words.t("Give the file to save the seat map to first (the «Save the seat map as» box)."))
        return
    if refused is not None:
        st.error(words.t("Not saved: {why}", why=refused))
        return
    if not replace_ok:
        st.error(words.t("Not saved: {path} already holds a seat map. Tick «Replace …» above to overwrite it, "
                         "or give another file name.", path=path))
        return
    _save(game, seat_map, frame, target_file, path)


def _save(game: Game, seat_map: SeatMap, frame: int, target_file: Path, path: str) -> None:
    """Write the map (never over a file of another kind nor one of the game's inputs) and open the game on it."""
    try:
        same_kind(target_file, "stopframe-seats/1", "a seat map", format_of)
        saved = save_seat_map(seat_map, str(check_output(target_file, game_inputs(game, seats=False),
                                                         what="seat map")))
    except (OSError, StopframeError) as exc:
        st.error(words.t("Could not save the seat map to {path}: {why}", path=path,
                         why=os_reason(exc) if isinstance(exc, OSError) else exc))
        return
    spec = game.spec
    state.open_spec(GameSpec(spec.protocol, spec.video, str(saved), None, spec.profile))
    st.session_state[state.FRAME] = frame
    st.session_state.pop("calib_replace", None)
    st.success(words.t("Saved {path}; the game now uses it (analyse the video again to use the new zones).",
                       path=saved))
