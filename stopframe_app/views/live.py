"""За столом (Live table): the judge's tablet or phone while the game is played. The judge taps the candidate,
«Стоп» and the count announced; a moment after «Стоп» the page shows each seat's hand and the video's count
(pipeline.live), so a count that does not match is seen before the game goes on.

The game runs in the server process (`GAMES`), not in the browser's session: a tablet whose connection drops, a
reload or a second tab finds the game under way and follows it. Once finished, the game's folder opens in the
review pages through the same door as any game (state.try_open), and its vote windows are analysed in full.
"""

from __future__ import annotations

import html
import os
import threading
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import streamlit as st

from contract.data_folder import data_dir
from contract.errors import StopframeError, UnreadableInput
from contract.i18n import _, ngettext
from contract.jsonio import read_json
from pipeline.live import SEAT_STATES, VOTE_TYPES, LiveState, LiveVote
from pipeline.live_game import Finished, LiveGame, camera_picture, finish_interrupted, interrupted, replayable
from pipeline.live_words import count_line, seat_state_words, stop_words
from review.game.protocol import load_protocol
from stopframe_app import state
from stopframe_app.game import Game, GameSpec, safe_name, stem_of
from stopframe_app.views.open_game import analyse_and_open, pasted
from stopframe_app.views.sheet import SHEET, book, start_from_file
from stopframe_app.words import md, number, t

REFRESH_S = 0.5  # the page follows the table about twice a second
SILENT_S = 2.0  # a camera silent this long has stopped sending video
SEATS = tuple(range(1, 11))
CHOICES = ("open", "sheet", "file")  # where the game's protocol comes from
FOLLOWED = "live_followed"  # session: the folder of the game this tab follows
SAID = "live_said"  # session: why the last start was refused
TAPPED = "live_tapped"  # session: why the last tap was refused (a count before «Стоп»)
CONFIRM = "live_confirm"  # session: «Завершить игру» tapped once, waiting for the second tap
REVIEW = "live_review"  # the control whose opening of the finished game failed (state.open_error)
NOMINATING = "live_nominating"  # this tab: the seat whose nomination was tapped, waiting for the seat nominated
REMOVING = "live_removing"  # this tab: the seat whose removal was tapped once, waiting for the second tap
LOOKED = "live_looked"  # session: the camera checked before the game (its picture, or why it could not be shown)
_LIVE_STYLE = """<style>
.st-key-live_cues button{min-height:4.5rem;min-width:4.5rem}
.st-key-live_cues button p{font-size:2rem;font-weight:600}
.st-key-live_cues .st-key-live_more button{min-height:3.5rem}
.st-key-live_cues .st-key-live_more button p{font-size:1.3rem;font-weight:400}
.st-key-live_end button{min-height:3.5rem}
.st-key-live_end button p{font-size:1.3rem}
.sf-seats{display:grid;grid-template-columns:repeat(5,1fr);gap:.5rem;margin:.5rem 0}
.sf-seat{border-radius:.6rem;padding:.6rem .3rem;text-align:center;border:3px solid transparent}
.sf-seat b{display:block;font-size:2.2rem;line-height:1.1}
.sf-seat span{display:block;font-size:1rem}
.sf-in_time{background:#1e8e3e;color:#fff}
.sf-late{background:#f29900;color:#000}
.sf-lifted{background:#d93025;color:#fff}
.sf-early{background:#8e24aa;color:#fff}
.sf-none{background:#f1f3f4;color:#202124;border-color:#bdc1c6}
.sf-unseen{background:repeating-linear-gradient(45deg,#bdc1c6 0 8px,#dadce0 8px 16px);color:#202124}
.sf-out{background:#5f6368;color:#dadce0}
.sf-pending{background:#fff;color:#5f6368;border:3px dashed #bdc1c6}
</style>"""
_CELL = "<div class='sf-seat sf-{kind}'><b>{seat}</b><span>{word}</span></div>"


@dataclass
class Running:
    """A game at the table as the server keeps it."""

    game: LiveGame
    name: str
    ending: threading.Lock = field(default_factory=threading.Lock)  # one tablet finishes it, the others wait

    @property
    def day(self) -> int:
        """The day the judge is on (the table's: a sheet's votes held before the recording come before it)."""
        return self.game.table.day

    @property
    def key(self) -> str:
        return str(self.game.folder)


@dataclass(frozen=True)
class Over:
    """A game finished at the table: its files (the game itself is let go, its table holds seconds of frames)."""

    name: str
    folder: Path
    files: Finished


GAMES: dict[str, Running] = {}  # the games under way in this server process, by their folder
OVER: dict[str, Over] = {}  # the games finished here, by their folder: a tablet that reconnects is told where
_LOCK = threading.Lock()


def _keep(game: LiveGame, name: str) -> Running:
    """Keep a game just begun in the server, where every tablet finds it."""
    entry = Running(game, name)
    with _LOCK:
        GAMES[entry.key] = entry
    return entry


def followed() -> Running | Over | None:
    """The game this tab follows: the one it started, else the newest under way (a reload, a new tab)."""
    key = str(st.session_state.get(FOLLOWED) or "")
    with _LOCK:
        chosen = GAMES.get(key) or OVER.get(key)
        playing = list(GAMES.values())
    if chosen is None and playing:
        chosen = playing[-1]
        st.session_state[FOLLOWED] = chosen.key
    return chosen


def render(game: Game | None) -> None:
    st.html(_LIVE_STYLE)
    st.header(t("Live table"))
    entry = followed()
    if entry is None:
        _before(game)
    elif isinstance(entry, Over):
        _after(entry)
    else:
        _table(entry.key)
        _camera_view(entry)
        _end(entry)


# ------------------------------------------------------------------------------------------ before the game


def _choice_words(choice: str) -> str:
    if choice == "open":
        return t("The open game's protocol")
    if choice == "sheet":
        return t("A saved paper sheet")
    return t("A protocol file")


def _before(game: Game | None) -> None:
    st.subheader(t("Before the game"))
    choices = CHOICES if game is not None else CHOICES[1:]
    if st.session_state.get("live_from") not in choices:
        st.session_state["live_from"] = choices[0]
    choice = st.radio(t("The game"), choices, format_func=_choice_words, horizontal=True, key="live_from")
    if choice == "open" and game is not None:
        st.caption(t("Its players and nominations: {title} ({file}).", title=game.title,
                     file=Path(game.spec.protocol).name))
        if replayable(game.data):
            st.caption(t("This protocol holds a filmed game's timed votes: the game is replayed, its cues come by "
                         "themselves."))
    elif choice == "sheet":
        sheets = {s.sheet_id: s for s in book().sheets()}
        if sheets:
            st.selectbox(t("Saved sheets"), list(sheets), key="live_sheet", format_func=lambda i: sheets[i].title)
        else:
            st.caption(t("No sheet is saved yet: enter one on the page «{page}».", page=t("Protocol")))
    else:
        st.text_input(t("Protocol file (players and nominations)"), **state.kept_box("live_protocol"))
    st.text_input(t("Source: a camera (/dev/video0), a stream (rtsp://…) or a video file"),
                  **state.kept_box("live_source"))
    st.caption(t("A video file is played at real speed, as a camera would send it."))
    own = _open_seats(game, choice) or ""
    st.text_input(t("The camera's seat map"), placeholder=own, **state.kept_box("live_seats"))
    st.caption(t("Empty: the open game's seat map.") if own else t(
        "Empty: the seats are found from the hands of the first day's votes, once that day is over, and every later "
        "round is counted at the table; the first day's votes are counted when the game ends."))
    st.text_input(t("Folder for the recording (new or empty)"), **state.kept_box("live_folder"),
                  placeholder=str(data_dir() / "live" / _("GAME-DATE-TIME")))
    _check_camera(game, choice)
    with st.container(key="live_end"):
        if st.button(t("Start the game"), key="live_start", type="primary", width="stretch"):
            _start(game, choice)
    if st.session_state.get(SAID):
        st.error(md(st.session_state[SAID]))
    _interrupted()


def _open_seats(game: Game | None, choice: str) -> str | None:
    """The seat map a game started from the open game's protocol is counted with when none is typed."""
    return game.spec.seats or None if choice == "open" and game is not None else None


def _seats(game: Game | None, choice: str) -> str | None:
    """The seat map the game is counted with: the one typed, else the open game's (None: found during the game)."""
    return _typed("live_seats") or _open_seats(game, choice)


def _check_camera(game: Game | None, choice: str) -> None:
    """The source's first picture with the seat zones on it, on request: the right camera, and the seats fitting
    it, are seen before the game rather than found wrong after it."""
    if st.button(t("Check the camera"), key="live_check"):
        st.session_state.pop(LOOKED, None)
        try:
            source = _typed("live_source")
            if not source:
                raise UnreadableInput(_("Give the source: a camera (/dev/video0), a stream (rtsp://…) or a video "
                                        "file."))
            st.session_state[LOOKED] = camera_picture(source, _seats(game, choice))
        except StopframeError as exc:
            st.session_state[LOOKED] = str(exc)
    looked = st.session_state.get(LOOKED)
    if isinstance(looked, bytes):
        st.image(looked, caption=t("The source's first picture and the seat zones: each player's hands should rest in "
                                   "his seat's zone.") if _seats(game, choice) else
                 t("The source's first picture."))
    elif looked:
        st.error(md(looked))


def _camera_view(entry: Running) -> None:
    """The newest picture with the seat zones, on request (a picture a second would weigh on a tablet's network)."""
    with st.expander(t("The camera's picture")):
        if st.button(t("Show the newest picture"), key="live_look"):
            picture = entry.game.picture()
            if picture is None:
                st.caption(t("No picture has come yet."))
            else:
                st.image(picture)


def _interrupted() -> None:
    """Games of the data folder cut short (the computer or the program stopped): their recording joined on a tap,
    then opened as any finished game."""
    root = data_dir() / "live"
    cut = [f for f in sorted(root.iterdir()) if interrupted(f) is not None] if root.is_dir() else []
    if not cut:
        return
    st.subheader(t("Games cut short"))
    st.caption(t("The recording stopped before the game was finished; every cue up to then is in its protocol."))
    for folder in cut:
        if st.button(t("Join the recording of {name} and open it", name=folder.name), key=f"live_join_{folder.name}",
                     width="stretch"):
            try:
                files = finish_interrupted(folder)
            except StopframeError as exc:
                st.session_state[SAID] = str(exc)
                st.rerun()
            with _LOCK:
                OVER[str(folder)] = Over(folder.name, folder, files)
            st.session_state[FOLLOWED] = str(folder)
            _open_for_review(files)
            st.rerun()


def _typed(key: str) -> str:
    """A path or address as typed: spaces and quotes around it off, `~` expanded (an address stays as it is)."""
    return os.path.expanduser(pasted(st.session_state.get(key)))


def _safe(name: str) -> str:
    """A name for the game's files, short enough for any file system."""
    return safe_name(name.strip())[:60] or "game"


def _chosen(game: Game | None, choice: str) -> tuple[dict[str, Any], str]:
    """The protocol the game starts from and the name of its files."""
    if choice == "open" and game is not None:
        return dict(game.data), _safe(stem_of(Path(game.spec.protocol)))
    if choice == "sheet":
        sheet_id = st.session_state.get("live_sheet")
        saved = {s.sheet_id: s for s in book().sheets()}.get(str(sheet_id or ""))
        if saved is None:
            raise UnreadableInput(_("Choose the saved sheet of the game first."))
        return book().load(saved.sheet_id).protocol(), _safe(saved.title)
    path = _typed("live_protocol")
    if not path:
        raise UnreadableInput(_("Give the path of the game's protocol file."))
    data = read_json(path, "protocol")
    if not isinstance(data, dict):
        raise UnreadableInput(_("{path}: not a protocol (a JSON object is expected).", path=path))
    return data, _safe(stem_of(Path(path)))


def _start(game: Game | None, choice: str) -> None:
    """Begin the game from the boxes; a refusal is one sentence under the button and nothing is started."""
    st.session_state.pop(SAID, None)
    try:
        protocol, name = _chosen(game, choice)
        source = _typed("live_source")
        seats = _seats(game, choice)
        if not source:
            raise UnreadableInput(_("Give the source: a camera (/dev/video0), a stream (rtsp://…) or a video file."))
        folder = Path(_typed("live_folder") or data_dir() / "live" / f"{name}-{datetime.now():%Y%m%d-%H%M%S}")
        live = LiveGame.begin(source, protocol=protocol, seats=seats, folder=folder, name=name)
    except StopframeError as exc:
        st.session_state[SAID] = str(exc)
        return
    st.session_state[FOLLOWED] = _keep(live, name).key
    st.rerun()


# ------------------------------------------------------------------------------------------ during the game


@st.fragment(run_every=REFRESH_S)
def _table(key: str) -> None:
    """What the judge sees at the table, followed twice a second without a reload."""
    entry = GAMES.get(key)
    if entry is None:  # finished from another tablet
        st.rerun(scope="app")
        return
    now = _status(entry)
    if now.votes:  # first: after «Стоп» the judge reads the hands here, then taps the count right below
        _under_way(now.votes[-1], counting=entry.game.table.seat_map is not None)
    else:
        st.caption(t("No vote yet: name the first candidate when the voting begins."))
    if entry.game.cues is not None:
        st.info(t("This game is replayed from its protocol: the judge's cues come by themselves, each at its time."))
    else:
        _cues(entry)
    if st.session_state.get(TAPPED):
        st.warning(md(st.session_state[TAPPED]))
    _earlier(now.votes[:-1])


def _status(entry: Running) -> LiveState:
    """Where the source and vision are: how far behind vision is, a camera gone silent, the source ended."""
    game = entry.game
    try:
        now = game.state()
    except StopframeError as exc:  # vision stopped: the cues are still recorded
        st.error(md(str(exc)))
        now = game.table.state()
    if game.seats_said:
        st.info(md(game.seats_said))
    if now.ended == "":
        st.warning(t("The video file has played to its end: finish the game below."))
    elif now.ended is not None:
        st.error(t("The source has ended: {why}", why=now.ended))
    elif game.source.silent_for() > SILENT_S:
        st.error(t("The camera has stopped sending video ({seconds} s without a frame).",
                   seconds=number(game.source.silent_for(), 0)))
    if now.dropped:
        st.warning(ngettext("Vision fell behind: {n} frame was not looked at live (the audit of the recording sees "
                            "it).", "Vision fell behind: {n} frames were not looked at live (the audit of the "
                            "recording sees them).", now.dropped))
    if not now.hearing and now.received_t > SILENT_S:  # a camera without a microphone, a stream without sound
        st.caption(t("No sound comes from the source: a tapped «Stop» closes the vote at the tap."))
    minutes, seconds = divmod(int(now.received_t), 60)
    st.caption(t("{name} · video {at} · vision {behind} s behind · recording into {folder}", name=entry.name,
                 at=f"{minutes}:{seconds:02d}", behind=number(now.behind_s, 1), folder=game.folder))
    return now


def _cues(entry: Running) -> None:
    """The judge's buttons: «Стоп» while a vote is open, the count after it, else the candidates."""
    data = entry.game.table.protocol()
    votes = [e for e in data["events"] if e.get("type") in VOTE_TYPES and "t" in e]  # untimed: held before it began
    last = votes[-1] if votes else None
    with st.container(key="live_cues"):
        if last is not None and "cutoff" not in last:
            st.button(t("Stop"), key="live_stop", type="primary", width="stretch", on_click=_cue,
                      args=(entry.key, "stop"))
            with st.container(key="live_more"):
                st.button(t("Not this candidate (take back)"), key="live_take_back", width="stretch",
                          on_click=_cue, args=(entry.key, "take_back"))
        elif last is not None and "count" not in last:
            st.markdown(t("The count the judge announces:"))
            with st.container(horizontal=True):
                for n in range(len(SEATS) + 1):
                    st.button(str(n), key=f"live_count_{n}", on_click=_cue, args=(entry.key, "count", n))
        elif (night := entry.game.table.night_open()) is not None:
            _shooting(entry, night)
        else:
            _candidates(entry, data)
    _fouls(entry)


def _candidates(entry: Running, data: dict[str, Any]) -> None:
    """The seats to name: after a tie the tied seats (a revote) or their lift vote, as the rules decide; else the
    day's nominated seats first, then the other seats still at the table; the next day."""
    left, outcome = entry.game.table.standing()
    living = [s for s in SEATS if s not in left]
    first = list(outcome.tied) if outcome is not None and outcome.next == "revote" else [
        e.get("target") for e in data["events"] if e.get("type") == "nomination" and e.get("day") == entry.day]
    nominated = [s for s in dict.fromkeys(first) if s in living]
    st.markdown(t("Day {day}: tap the candidate the judge names.", day=entry.day))
    rows = [(t("Nominated"), nominated), (t("Other seats"), [s for s in living if s not in nominated])]
    for caption, seats in rows:
        if not seats:
            continue
        if nominated:
            st.caption(caption)
        with st.container(horizontal=True):
            for seat in seats:
                st.button(str(seat), key=f"live_name_{seat}", type="primary" if seat in nominated else "secondary",
                          on_click=_cue, args=(entry.key, "name", seat))
    if not any(e.get("type") in VOTE_TYPES and e.get("day") == entry.day for e in data["events"]):
        _nominations(entry, living, nominated)
    with st.container(key="live_more"):
        if outcome is not None and outcome.next == "lift":
            tied = list(outcome.tied)
            st.button(t("Lift vote: {seats}", seats=", ".join(map(str, tied))), key="live_lift", width="stretch",
                      on_click=_cue, args=(entry.key, "lift", tied))
        st.button(t("Night {night}", night=entry.day), key="live_night", width="stretch",
                  on_click=_cue, args=(entry.key, "night"))
        st.button(t("Next day (day {day})", day=entry.day + 1), key="live_day", width="stretch",
                  on_click=_cue, args=(entry.key, "day"))


def _nominations(entry: Running, living: list[int], nominated: list[int]) -> None:
    """Nominations as the speeches go: the seat that nominates, then the seat nominated (two taps; the day's order
    of nominations is the order of its vote)."""
    by = st.session_state.get(NOMINATING)
    with st.expander(t("Nominations"), expanded=by is not None):
        if by not in living:
            st.caption(t("Tap the seat that nominates, then the seat nominated."))
            with st.container(horizontal=True):
                for seat in living:
                    st.button(str(seat), key=f"live_by_{seat}", on_click=st.session_state.update,
                              args=({NOMINATING: seat},))
            return
        st.caption(t("Seat {seat} nominates:", seat=by))
        with st.container(horizontal=True):
            for seat in living:
                if seat not in nominated:
                    st.button(str(seat), key=f"live_target_{seat}", type="primary", on_click=_cue,
                              args=(entry.key, "nominate", (by, seat)))
        st.button(t("Not this seat"), key="live_by_cancel", on_click=lambda: st.session_state.pop(NOMINATING, None))


def _shooting(entry: Running, night: int) -> None:
    """The night's shooting as the judge announces it: the seat shot, or a miss; the tap begins the next day."""
    left, _outcome = entry.game.table.standing()
    st.markdown(t("Night {night}: whom did the mafia shoot?", night=night))
    with st.container(horizontal=True):
        for seat in SEATS:
            if seat not in left:
                st.button(str(seat), key=f"live_shoot_{seat}", on_click=_cue, args=(entry.key, "shoot", seat))
    with st.container(key="live_more"):
        st.button(t("Miss"), key="live_miss", width="stretch", on_click=_cue, args=(entry.key, "shoot", None))


def _fouls(entry: Running) -> None:
    """Fouls and removals, folded away until the rules call for a removal: a foul is one tap on a living seat, a
    removal two (a slip of the finger removes nobody). The fouls are the rules engine's count."""
    table = entry.game.table
    left, _outcome = table.standing()
    given = table.fouls()
    living = [s for s in SEATS if s not in left]
    with st.expander(t("Fouls and removals"), expanded=bool(given.due)):
        for seat, clause in given.due.items():
            st.warning(t("Seat {seat}'s foul no. {n} removes him from the game at once ({clause}).", seat=seat,
                         n=given.fouls.get(seat, 0), clause=clause or "—"))
            st.button(t("Remove seat {seat}", seat=seat), key=f"live_due_{seat}", on_click=_removing, args=(seat,))
        st.caption(t("A foul: tap the seat (its fouls so far are on its button)."))
        with st.container(horizontal=True):
            for seat in living:
                n = given.fouls.get(seat, 0)
                label = ngettext("{seat} · {n} foul", "{seat} · {n} fouls", n, seat=seat) if n else str(seat)
                st.button(label, key=f"live_foul_{seat}", on_click=_cue, args=(entry.key, "foul", seat))
        asked = st.session_state.get(REMOVING)
        if asked in living or asked in given.due:
            st.warning(t("Remove seat {seat} from the game?", seat=asked))
            yes, no = st.columns(2)
            yes.button(t("Yes, remove seat {seat}", seat=asked), key="live_remove_yes", type="primary",
                       width="stretch", on_click=_cue, args=(entry.key, "remove", asked))
            no.button(t("No, he stays"), key="live_remove_no", width="stretch",
                      on_click=lambda: st.session_state.pop(REMOVING, None))
            return
        st.caption(t("A removal: tap the seat, then confirm."))
        with st.container(horizontal=True):
            for seat in living:
                st.button(str(seat), key=f"live_remove_{seat}", on_click=_removing, args=(seat,))


def _removing(seat: int) -> None:
    st.session_state[REMOVING] = seat


def _cue(key: str, what: str, value: Any = None) -> None:
    """A tap, given to the table at once (its time is the newest frame's); a tap out of turn is said, not kept."""
    entry = GAMES.get(key)
    st.session_state.pop(TAPPED, None)
    if entry is None:
        return
    table = entry.game.table
    try:
        if what == "name":
            table.name(value, day=entry.day)
        elif what == "lift":
            table.name_lift(value, day=entry.day)
        elif what == "stop":
            table.stop()
        elif what == "count":
            table.announce(value)
        elif what == "take_back":
            table.take_back()
        elif what == "night":
            table.night()
        elif what == "shoot":
            table.shoot(value)
        elif what == "nominate":
            st.session_state.pop(NOMINATING, None)
            table.nominate(*value)
        elif what == "foul":
            table.foul(value)
        elif what == "remove":
            st.session_state.pop(REMOVING, None)
            table.remove(value)
        else:
            table.next_day()
    except ValueError as exc:
        st.session_state[TAPPED] = str(exc)


def _under_way(vote: LiveVote, *, counting: bool) -> None:
    """The newest vote: each seat's hand in ten big cells, the video's count and the judge's (without a seat map,
    the judge's count and the «Стоп» only)."""
    st.subheader(vote.label)
    if not counting:
        st.info(t("No seat map yet: the seats are found from the hands of the first day's votes once that day is "
                  "over; until then the hands are counted when the game ends."))
        if vote.judge_count is not None:
            st.markdown("### " + t("Judge: {count}", count=vote.judge_count))
        if (placed := stop_words(vote)) is not None:
            st.caption(md(placed))
        return
    counted = vote.video_count is not None
    cells = []
    for seat in SEATS:
        kind = (vote.seats.get(seat, "out") if counted else "pending")
        word = seat_state_words(kind) if kind in SEAT_STATES else _("out of the game") if kind == "out" else "…"
        cells.append(_CELL.format(kind=kind, seat=seat, word=html.escape(word)))
    st.html("<div class='sf-seats'>" + "".join(cells) + "</div>")
    if not counted:
        st.markdown("### " + (t("Video: counting…") if vote.cutoff is not None
                              else t("Video: counted a moment after «Stop».")))
    else:
        said = [t("Video: {count}", count=vote.video_count)]
        if vote.judge_count is not None:
            said.append(t("Judge: {count}", count=vote.judge_count))
            said.append("✓ " + t("matches") if vote.matches else "✗ " + t("does not match"))
        st.markdown("### " + " · ".join(said))
        if not vote.final:
            st.caption(t("The count may still change until the round's video is looked at to its end."))
    if (placed := stop_words(vote)) is not None:
        st.caption(md(placed))
    for sentence in vote.findings:
        st.markdown("- " + md(sentence))


def _earlier(votes: tuple[LiveVote, ...]) -> None:
    """The earlier votes, newest first, one line each, with the audit's sentences."""
    if not votes:
        return
    st.subheader(t("Earlier votes"))
    for vote in reversed(votes):
        if vote.video_count is not None:
            line = count_line(vote)
        else:
            line = _("{vote}: the hands are not counted yet", vote=vote.label)
            if vote.judge_count is not None:
                line += " · " + _("judge {count}", count=vote.judge_count)
        st.markdown(md(line))
        for sentence in vote.findings:
            st.caption(md(sentence))


# ------------------------------------------------------------------------------------------ after the game


def _end(entry: Running) -> None:
    """«Завершить игру», tapped twice: a slip of the finger does not end a game."""
    with st.container(key="live_end"):
        if not st.session_state.get(CONFIRM):
            st.button(t("Finish the game"), key="live_finish", width="stretch",
                      on_click=lambda: st.session_state.update({CONFIRM: True}))
            return
        st.warning(t("Finish the game? The recording stops and the game opens for review."))
        yes, no = st.columns(2)
        no.button(t("No, go on"), key="live_finish_no", width="stretch",
                  on_click=lambda: st.session_state.pop(CONFIRM, None))
        if yes.button(t("Yes, finish"), key="live_finish_yes", type="primary", width="stretch"):
            st.session_state.pop(CONFIRM, None)
            _finish(entry)


def _finish(entry: Running) -> None:
    """The recording joined and the protocol written, then the game opened in the review pages and analysed."""
    joining = _("Joining the recording…") if entry.game.table.seat_map is not None else _(
        "Joining the recording and finding the seats from the votes' hands…")
    with entry.ending, st.spinner(joining):
        if entry.key in GAMES:
            try:
                files = entry.game.finish()
            except StopframeError as exc:
                st.error(md(str(exc)))
                return
            with _LOCK:
                OVER[entry.key] = Over(entry.name, entry.game.folder, files)
                GAMES.pop(entry.key, None)
    _open_for_review(OVER[entry.key].files)
    st.rerun()


def _open_for_review(files: Finished) -> None:
    """The finished game opened as any game is (video, protocol and seat map aligned), its votes analysed in full."""
    if not state.try_open(GameSpec(str(files.protocol), str(files.video), str(files.seats)), REVIEW):
        return
    game = state.current_game()
    if game.observations is None and game.seat_map is not None and game.video_meta is not None and game.windows:
        analyse_and_open(game)


def _is_open(files: Finished) -> bool:
    return Path(state.current_spec().protocol).resolve() == files.protocol.resolve()


def _after(entry: Over) -> None:
    """Where the finished game's files are, and the way into the review pages."""
    files = entry.files
    st.success(t("The game is over: {name}.", name=entry.name))
    st.markdown(t("Its files are in {folder}:", folder=entry.folder))
    st.markdown("\n".join(f"- {md(path)}" for path in (files.video, files.protocol, files.seats)))
    if state.open_error(REVIEW):
        st.error(md(state.open_error(REVIEW)))
    with st.container(key="live_end"):
        if _is_open(files):
            st.info(t("It is open in the review pages: the vote audit reads the recording."))
            st.button(t("Go to the vote audit"), key="live_to_audit", type="primary", width="stretch",
                      on_click=state.go_to_frame, args=(0, "Vote audit"))
        elif st.button(t("Open it for review"), key="live_open", type="primary", width="stretch"):
            _open_for_review(files)
            st.rerun()
        st.button(t("Complete the protocol on the sheet"), key="live_to_sheet", width="stretch",
                  on_click=_to_sheet, args=(str(files.protocol), entry.name),
                  help=t("The game's protocol goes on to a sheet on the page «{page}»: its roles, checks, best move "
                         "and result are filled in there.", page=t("Protocol")))
        st.button(t("Prepare the next game"), key="live_next", width="stretch",
                  on_click=lambda: st.session_state.pop(FOLLOWED, None))


def _to_sheet(path: str, name: str) -> None:
    """The finished game's protocol started as a sheet (once: a second tap finds it), then the page «Protocol» with
    it chosen, where the judge fills in what the table does not enter."""
    begun = next((s for s in book().sheets() if s.source_path == str(Path(path).resolve())), None)
    if begun is not None:
        st.session_state[SHEET] = begun.sheet_id
    else:
        try:
            if not start_from_file(load_protocol(path).data, (path, name), "protocol"):
                return
        except StopframeError as exc:
            st.error(md(str(exc)))
            return
    st.session_state[state.VIEW] = "Protocol"
