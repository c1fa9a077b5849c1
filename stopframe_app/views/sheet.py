"""Protocol sheet: a judge with a paper protocol types the game in, box by box, laid out like the paper sheet of the
rule profile. No form: each box is saved to the store the moment it is left (Tab moves down the day), checked at
once, and its problems are shown beside it with their clause; nothing typed is ever refused. Undo takes back the
last entry, or the last rejection of a drafted proposal, also after a reload (review.cases.sheet_store keeps every
entry and choice)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from contract import i18n
from contract.errors import StopframeError
from contract.jsonio import format_of, write_atomic, write_json
from contract.observations import load_observations
from contract.outputs import check_output
from contract.seats import load_seat_map
from review.cases.club_exports import FORMATS
from review.cases.pdf import chromium, write_pdf
from review.cases.sheet import Sheet, SheetProblem, new_protocol, shape_problem
from review.cases.sheet_draft import Proposal, night_proposals, proposals, shooting_protocol
from review.cases.sheet_entry import GAME_FIELDS, Slot, as_shown, box_name, role_hint, with_times
from review.cases.sheet_exports import club_text, printable, protocol_text, save, stem
from review.cases.sheet_store import SavedDraft, SavedSheet, SheetStore, Undoable
from review.cases.store import data_dir, default_db_path
from review.game.importers import import_file
from review.game.profiles import PROFILES, get_profile
from review.game.protocol import load_protocol
from review.game.timeline import label_words, vote_rounds, vote_windows
from stopframe_app import state, words
from stopframe_app.game import Game, GameSpec, own_name
from stopframe_app.views.open_game import as_uploaded, is_folder, is_upload, pasted, save_upload, upload_hint
from stopframe_app.words import md, t

SHEET = "sheet_id"  # session: the sheet on the page
PDF = "sheet_pdf_made"  # session: the printable sheet last printed to PDF, {"sheet", "page", "path"}
DRAFT_ERROR = "sheet_draft_error"  # session: why the last draft asked for could not be made, {"sheet", "error"}
SAVED_TO = "sheet_saved_to"  # session: where the protocol was saved last, {"sheet", "path"}
START = "sheet_start_from"
STARTS = ("new", "protocol", "polemica", "mafiaratings", "saved")


def book() -> SheetStore:
    """The sheets, in the same database file as the decisions."""
    return _book(str(default_db_path()))


@st.cache_resource(show_spinner=False)
def _book(path: str) -> SheetStore:
    return SheetStore(state.store())


def _who() -> str:
    return str(st.session_state.get(state.JUDGE) or "").strip()


def box_key(sheet_id: str, slot: str) -> str:
    """The widget key of a sheet box (tests type into it by this key); the video's box stands in the draft's panel."""
    return f"sheet_video_{sheet_id}" if slot == "video" else f"sheet_{sheet_id}_{slot}"


def _entered(sheet_id: str, slot: str) -> None:
    """A box was left: its line is saved at once (the store skips a line the box already reads)."""
    # a vote's video times, hidden from the box (as_shown), stay on the event its retyped line replaces (the sheet)
    book().enter(sheet_id, slot, str(st.session_state.get(box_key(sheet_id, slot)) or ""), who=_who())


def _undo(sheet_id: str) -> None:
    """Take back what the judge did last: an entry (its box shows the line before it), or a rejection of a drafted
    proposal (its card is offered again; no box changes)."""
    then = book().to_undo(sheet_id)
    if then is None:
        return
    after = book().undo(sheet_id, who=_who())
    if then.kind == "entry":
        st.session_state[box_key(sheet_id, then.slot)] = as_shown(after.text(then.slot))


def _undo_help(then: Undoable | None) -> str | None:
    """What the Undo button takes back, said on it."""
    if then is None:
        return None
    if then.kind == "rejected":
        return t("Takes back: {box}, the draft's proposal rejected (it is offered again)", box=box_name(then.slot))
    return t("Takes back: {box} «{line}»", box=box_name(then.slot), line=as_shown(then.line))


def _rules_entered(sheet_id: str) -> None:
    book().enter(sheet_id, "rules", str(st.session_state.get(box_key(sheet_id, "rules"))), who=_who())


# ------------------------------------------------------------------------------------------------- starting


def _start(base: dict, title: str, source: str, source_path: str | None = None) -> None:
    st.session_state[SHEET] = book().start(base, title=title, source=source, who=_who(), source_path=source_path)


def start_from_file(base: dict, chosen: tuple[str, str], source: str) -> bool:
    """Start a sheet from the file `chosen` (its path, its name) read as `base`; a file whose players, course of the
    game or header cannot hold entries is said with its name, the place and what to do here instead (False)."""
    why = shape_problem(base)
    if why is not None:
        said = t("{file} cannot be copied into a sheet: {why}. Start an empty sheet and type the game from the paper "
                 "protocol.", file=chosen[1], why=why)
        if source == "protocol":
            said += " " + t("To see every problem of the file, open it on «{open}»: «{audit}» lists them, each with "
                            "its place.", open=t("Open a game"), audit=t("Vote audit"))
        st.error(said)
        return False
    _start(base, chosen[1], source, str(Path(chosen[0]).resolve()))
    return True


def _read(reader: Callable[[], dict], chosen: tuple[str, str]) -> dict:
    """The file `chosen` read; a refusal of an upload names it as the judge chose it, not where it is kept."""
    try:
        return reader()
    except StopframeError as exc:
        raise StopframeError(as_uploaded(str(exc), chosen[0], chosen[1]) if is_upload(chosen[0]) else str(exc),
                             exc.exit_code) from exc


def _chosen_file(choice: str, typed: str, default: str = "") -> tuple[str, str] | None:
    """The file to start from, and its name: an upload (kept under the data folder), else the path typed, else
    `default`; None when there is none."""
    upload = st.session_state.get(f"sheet_upload_{choice}")
    if upload is not None:
        try:
            return str(save_upload(upload.name, upload.getvalue())), upload.name
        except (ValueError, OSError) as exc:
            raise StopframeError(i18n._("{name}: the upload cannot be kept ({error}); give the file by path.",
                                        name=upload.name, error=exc), 2) from exc
    typed = pasted(typed)
    path = str(Path(typed).expanduser()) if typed else default
    return (path, Path(path).name) if path else None


def _start_panel(game: Game | None, open_now: bool) -> None:
    with st.expander(t("Start a sheet"), expanded=not open_now):
        choice = st.radio(t("Start from"), STARTS, horizontal=True, format_func=lambda c: i18n.term("sheet_start", c),
                          **state.kept_box(START, STARTS[0]))
        if choice == "new":
            rules = st.selectbox(t("Rule profile"), list(PROFILES), key="sheet_new_rules", format_func=words.profile_label)
            title = st.text_input(t("The game (as the sheet names it)"), **state.kept_box("sheet_new_title"))
            if st.button(t("Start an empty sheet"), key="sheet_new_start"):
                _start(new_protocol(rules), title.strip() or i18n._("New sheet"), "new")
                st.rerun()
        elif choice == "protocol":
            given = game.spec.protocol if game is not None else ""
            path = st.text_input(t("Protocol file (empty: the open game's)"), **state.kept_box("sheet_protocol_path"),
                                 placeholder=given)
            upload_hint()
            st.file_uploader(t("Or upload it"), type=["json"], key="sheet_upload_protocol")
            if st.button(t("Start from this protocol"), key="sheet_protocol_start"):
                chosen = _chosen_file(choice, path, given)
                if chosen is None:
                    st.error(t("Give the protocol's path, or upload it."))
                    return
                if start_from_file(_read(lambda: load_protocol(chosen[0]).data, chosen), chosen, "protocol"):
                    st.rerun()
        elif choice in ("polemica", "mafiaratings"):
            path = st.text_input(t("Game file (path)"), **state.kept_box("sheet_import_path"))
            upload_hint()
            st.file_uploader(t("Or upload it"), type=["json"], key=f"sheet_upload_{choice}")
            rules = st.selectbox(t("Rule profile"), list(PROFILES), key="sheet_import_rules",
                                 format_func=words.profile_label)
            if st.button(t("Import and start"), key="sheet_import_start"):
                chosen = _chosen_file(choice, path)
                if chosen is None:
                    st.error(t("Give the game file's path, or upload it."))
                    return
                if start_from_file(_read(lambda: import_file(choice, chosen[0], rules), chosen), chosen, choice):
                    st.rerun()
        else:
            saved = book().sheets()
            if not saved:
                st.caption(t("No sheet is saved yet."))
                return
            names = {s.sheet_id: s for s in saved}
            pick = st.selectbox(t("Saved sheets"), list(names), key="sheet_saved_pick",
                                format_func=lambda i: _saved_label(names[i]))
            if st.button(t("Continue this sheet"), key="sheet_saved_open"):
                st.session_state[SHEET] = pick
                st.rerun()


def _saved_label(saved: SavedSheet) -> str:
    """A saved sheet as the list of them names it: its title, entries, where it started from and when it was last
    changed (sheets left with the same title, «New sheet», are told apart by the time)."""
    changed = time.localtime(saved.changed)
    when = f"{i18n.date(date(changed.tm_year, changed.tm_mon, changed.tm_mday))}, {time.strftime('%H:%M', changed)}"
    return i18n._("{title} ({entries}; {source}; changed {when})", title=saved.title,
                  entries=i18n.ngettext("{n} entry", "{n} entries", saved.entries),
                  source=i18n.term("sheet_source", saved.source), when=when)


# ---------------------------------------------------------------------------------------------------- boxes


def problem_words(p: SheetProblem) -> str:
    """One problem as the page shows it: what, and the clause that says so."""
    if p.clause:
        return t("⚠ {message} ({clause})", message=p.message, clause=i18n.clause(p.clause))
    return t("⚠ {message}", message=p.message)


def _input(sheet_id: str, sheet: Sheet, slot: str, label: str, where: DeltaGenerator, hint: str = "") -> None:
    """A box's text input (saved when left), its label kept for screen readers and tests but not shown: the
    sheet's row says what the box is, as the paper does."""
    key = box_key(sheet_id, slot)
    if key not in st.session_state:
        st.session_state[key] = as_shown(sheet.text(slot))
    where.text_input(label, key=key, placeholder=hint, on_change=_entered, args=(sheet_id, slot),
                     label_visibility="collapsed")


def _problems(sheet: Sheet, slots: list[str], where: DeltaGenerator) -> None:
    for slot in slots:
        for p in sheet.problems(slot):
            where.markdown(problem_words(p))


def _box(sheet_id: str, sheet: Sheet, slot: str, label: str, hint: str = "", note: str = "") -> None:
    """One row of the sheet: what the box is, the box, and its problems (and `note`) beside it."""
    head, box, side = st.columns([2, 3, 3], vertical_alignment="center")
    head.markdown(label)
    _input(sheet_id, sheet, slot, label, box, hint)
    _problems(sheet, [slot], side)
    if note:
        side.caption(note)


DATE_EXAMPLE = "2026-11-29"  # the protocol's game.date: year-month-day, as the club files and the appeal form read it


def _date_note(text: str) -> str:
    """What to say beside the date box: nothing for a year-month-day date (or none), else how to write it."""
    text = text.strip()
    try:
        if not text or (re.fullmatch(r"\d{4}-\d{2}-\d{2}", text) and date.fromisoformat(text)):
            return ""
    except ValueError:
        pass
    return t("Write the date as year-month-day, such as {example}: the club files and the appeal form read it so.",
             example=DATE_EXAMPLE)


def _header(sheet_id: str, sheet: Sheet) -> None:
    # the sheet's headings carry no link: Tab goes from box to box, never to a heading between them
    st.subheader(t("The game"), anchor=False)
    for name in GAME_FIELDS:
        slot = Slot("game", extra=name).key
        dated = name == "date"
        _box(sheet_id, sheet, slot, i18n.term("sheet_game_field", name), DATE_EXAMPLE if dated else "",
             _date_note(sheet.text(slot)) if dated else "")


def _players(sheet_id: str, sheet: Sheet) -> None:
    """The players' table of the paper sheet: a row per seat, its nickname then its role (Tab goes along the row,
    then down)."""
    st.subheader(t("Players"), anchor=False)
    st.caption(t("Role letters: {letters}; empty: not known.", letters=role_hint()))
    for seat in range(1, 11):
        number, name, role, side = st.columns([1, 4, 1, 6], vertical_alignment="center")
        number.markdown(f"**{seat}**")
        nickname, role_slot = Slot("nickname", seat).key, Slot("role", seat).key
        _input(sheet_id, sheet, nickname, t("Seat {seat}: nickname", seat=seat), name)
        _input(sheet_id, sheet, role_slot, t("Seat {seat}: role", seat=seat), role)
        _problems(sheet, [nickname, role_slot], side)


def _day(sheet_id: str, sheet: Sheet, day: int, penalties: str) -> None:
    with st.container(border=True):
        st.subheader(t("Day {day}", day=day), anchor=False)
        _box(sheet_id, sheet, Slot("penalties", day, extra="day").key, t("In the day: {what}", what=penalties),
             "3 7 5:-0,2 4!")
        _box(sheet_id, sheet, Slot("nominations", day).key, t("Nominations (who:whom, in order)"), "2:6 5:3 9:8")
        for rnd in sheet.rounds(day):
            label = t("Vote, round {round} (candidate:count, voters after /)", round=rnd)
            _box(sheet_id, sheet, Slot("round", day, rnd).key, label, "6:5 3:1 8:4")
        if sheet.lift_due(day):
            _box(sheet_id, sheet, Slot("lift", day).key, t("Lift vote: hands for all the tied leaving"), "5")
        _box(sheet_id, sheet, Slot("eliminated", day).key, t("Left by the vote (seats)"), "6")
        _box(sheet_id, sheet, Slot("penalties", day, extra="voting").key, t("During the vote: {what}", what=penalties))


def _night(sheet_id: str, sheet: Sheet, night: int, penalties: str) -> None:
    profile = get_profile(sheet.data.get("rules") if sheet.data.get("rules") in PROFILES else "rfm")
    with st.container(border=True):
        st.subheader(t("Night {night}", night=night), anchor=False)
        _box(sheet_id, sheet, Slot("shooting", night).key,
             t("Shooting: the seat killed, - for a miss, or shooter:target"), "2:10 7:10 9:10")
        if night >= profile.checks_from_night.value:
            _box(sheet_id, sheet, Slot("check", night, extra="don").key, t("Don's check (seat, + sheriff, − not)"), "4+")
            _box(sheet_id, sheet, Slot("check", night, extra="sheriff").key,
                 t("Sheriff's check (seat, + black, − red)"), "9+")
        if night == 1 and profile.best_move.value is not None:
            _box(sheet_id, sheet, "best_move", t("Best move of the player killed (three seats)"), "2 9 3")
        _box(sheet_id, sheet, Slot("penalties", night, extra="night").key, t("At night: {what}", what=penalties))


def _sheet(sheet_id: str, sheet: Sheet) -> None:
    rules = sheet.data.get("rules") if sheet.data.get("rules") in PROFILES else "rfm"
    profile = get_profile(rules)
    key = box_key(sheet_id, "rules")
    if key not in st.session_state:
        st.session_state[key] = rules
    st.selectbox(t("Rule profile"), list(PROFILES), key=key, format_func=words.profile_label,
                 on_change=_rules_entered, args=(sheet_id,))
    penalties = i18n.term("sheet_penalties", profile.id)
    for p in sheet.problems(""):
        st.warning(problem_words(p))
    _header(sheet_id, sheet)
    _players(sheet_id, sheet)
    nights = sheet.nights()
    for n in range(1, sheet.days() + 1):
        _day(sheet_id, sheet, n, penalties)
        if n in nights:
            _night(sheet_id, sheet, n, penalties)
    with st.container(border=True):
        _box(sheet_id, sheet, "result", t("Result (red, black, draw)"), i18n.term("sheet_result", "red"))
    _video_times(sheet_id, sheet)


def _video_times(sheet_id: str, sheet: Sheet) -> None:
    """Each day's voting time on the video, folded away (the paper has none, and Tab does not stop there): the
    draft hears the votes by itself, but a video that begins later than the game, with no night music between
    its days, needs one time to say which day it shows."""
    with st.expander(t("Where the votes are on the video (optional)")):
        st.caption(t("Only where the video does not begin with the game: the time on the video (m:ss) at which a "
                     "day's voting begins, for one day it shows. The draft hears every vote by itself; this time "
                     "tells it which day the votes it hears belong to."))
        for n in range(1, sheet.days() + 1):
            _box(sheet_id, sheet, Slot("voting_at", n).key, t("Day {day}: the voting begins at", day=n), "12:34")


# ------------------------------------------------------------------------------------- votes from the video


def _nights_choice(source: DraftSource) -> bool:
    """Whether the draft should also read the nights' shots from the video: offered where no saved analysis holds
    them, and only with a seat map that marks where each seat raises its hand (a map found from the video has none)."""
    if source.observations is not None:
        return False  # the saved analysis's night reading is used, as it is
    raising = source.can_read_nights()
    return st.checkbox(t("Also read the nights' shots from the video (slower)"), key="sheet_draft_nights",
                       disabled=not raising,
                       help=t("The raised hands in each night the music marks, each night's shooting timed by the "
                              "count heard in it.") if raising else
                       t("Needs the game's seat map with the seats' raise zones (Seat calibration): open this "
                         "video as the game with that map."))


def _draft(source: DraftSource, sheet_id: str, progress: Callable[[str], None] | None = None,
           nights: bool = False) -> None:
    """Draft the votes and the nights' shots of the sheet as it stands from its game's video (pipeline.draft, as
    `stopframe draft`); the proposals are kept in the store beside the sheet (so a reload keeps them and the
    judge's choices), nothing enters the sheet. A draft that cannot be made is said, the one before it kept.
    `progress` hears each step the draft tells (listening, finding the seats, the frames looked at); `nights`: read
    the nights' shots from the video too."""
    from pipeline.draft import draft_game

    sheet = book().load(sheet_id)
    partial = write_atomic(data_dir() / "sheets" / f"{sheet_id}.partial.protocol.json",
                           json.dumps(sheet.protocol(), ensure_ascii=False))
    try:
        made = draft_game(video=source.video, protocol=partial, seats=source.seats, observations=source.observations,
                          nights_of=shooting_protocol(sheet), progress=progress, look_at_nights=nights)
    except StopframeError as exc:
        st.session_state[DRAFT_ERROR] = {"sheet": sheet_id, "video": source.video, "error": str(exc)}
        return
    st.session_state.pop(DRAFT_ERROR, None)
    seen = write_json(data_dir() / "sheets" / f"{sheet_id}.observations.json", made.seen.to_json()) \
        if made.seen is not None else source.observations  # the hands it read, for the audit once the sheet is saved
    offered = sorted(proposals(made.draft.data, sheet) + night_proposals(made.nights.shots, sheet),
                     key=lambda p: (p.day, p.kind == "shooting"))  # in game order: each day's votes, then its night
    for proposal in offered:  # a new draft's lines, not the edits of the one before
        st.session_state.pop(_edit_key(sheet_id, proposal.slot), None)
    book().keep_draft(sheet_id, {
        "proposals": [p.to_json() for p in offered], "untimed": made.draft.untimed, "heard": made.heard,
        "in_order": made.draft.in_order,
        "found_seats": made.found_seats.to_json() if made.found_seats is not None else None,
        "seat_map": made.found_map.to_json() if made.found_map is not None else None, "seats": source.seats,
        "observations": str(seen) if seen else None,
        "video": source.video, "the_games": source.seats is not None or source.observations is not None,
        "nights_unread": made.nights.unread, "nights_unseen": made.nights.unseen}, who=_who())


def _decided(sheet_id: str, slot: str, how: str) -> None:
    """Accept a proposal (as drafted, or as the judge edited its line) into its box, or reject it; the choice is
    kept with the draft, the entry with the sheet, in one commit."""
    saved = book().draft(sheet_id)
    offered = {p["slot"]: Proposal.from_json(p) for p in (saved.draft.get("proposals") or [])} if saved else {}
    if slot not in offered:
        return
    line = offered[slot].line if how == "accepted" else \
        with_times(Slot.of(slot), str(st.session_state.get(_edit_key(sheet_id, slot)) or ""), offered[slot].line) \
        if how == "edited" else None
    after = book().choose(sheet_id, slot, how, who=_who(), line=line)
    st.session_state[box_key(sheet_id, slot)] = as_shown(after.text(slot))


def _edit_key(sheet_id: str, slot: str) -> str:
    return f"sheet_draft_edit_{sheet_id}_{slot}"


def _frame_at(game: Game | None, held: dict, at: float) -> tuple[bytes, str] | None:
    """The picture at `at` seconds: the open game's frame with its zones where the draft read that game's video,
    else the plain frame of the video the judge gave (no zones: its seat map was found for the draft only)."""
    if held.get("the_games") and game is not None and game.video_meta is not None:
        from stopframe_app.viewer import render_frame

        return render_frame(game, int(round(at * game.video_meta.fps)))
    from vision.overlay import encode_jpeg
    from vision.video import open_video

    try:
        with open_video(str(held.get("video"))) as video:
            index = min(int(round(at * video.meta.fps)), video.meta.frame_count - 1)
            return encode_jpeg(video.frame_at(index)), words.seconds(at)
    except StopframeError:
        return None


def _hands_disagree(e: dict) -> bool:
    """Whether a drafted vote keeps the count the judge typed while the video's hands, read in its time, do not make
    it: the draft then proposes no voters (a value the judge wrote is never replaced) and scores no count."""
    return isinstance(e.get("count"), int) and "voters" not in e and e.get("cutoff") is not None \
        and "count" not in (e.get("x_draft_score") or {})


def _round_lines(proposal: Proposal) -> float | None:
    """A drafted round in words (each candidate's count, voters, times); its «Стоп», for the frame. A count the
    judge typed that the video's hands do not make says so, never «voters —» (read as nobody voting)."""
    lift = proposal.kind == "lift"
    head = t("Day {day}, lift vote", day=proposal.day) if lift else \
        t("Day {day}, round {round}", day=proposal.day, round=proposal.round)
    st.markdown(f"**{head}**")
    for e in proposal.events:
        # «кандидатура 6: 6 голосов», not «6: 6 голосов»: which number is the seat, which the count
        who_for = i18n._("lift {seats}", seats=words.seat_list(e.get("candidates"))) if lift else \
            i18n._("candidate {candidate}", candidate=e.get("candidate"))
        count = i18n.ngettext("{n} vote", "{n} votes", int(e["count"]))
        times = {"t": words.seconds(e.get("t")), "cutoff": words.seconds(e.get("cutoff")),
                 "announced": words.seconds(e.get("announced"))}
        if isinstance(e.get("x_video_voters"), list):
            st.markdown(t("{candidate}: {count} on the sheet · the video's hands do not agree with this count: {hands}, "
                          "seats {voters}, check them on the video · named {t} · «Стоп» {cutoff} · count {announced}",
                          candidate=who_for, count=count, voters=words.seat_list(e["x_video_voters"]),
                          hands=i18n.ngettext("{n} hand", "{n} hands", len(e["x_video_voters"])), **times))
            continue
        if _hands_disagree(e):  # a draft kept from before the hands were kept with it
            st.markdown(t("{candidate}: {count} on the sheet · the video's hands do not agree with this count, check "
                          "them on the video · named {t} · «Стоп» {cutoff} · count {announced}",
                          candidate=who_for, count=count, **times))
            continue
        voters = list(e.get("voters") or [])  # «проголосовали 3» read as three voters: the seats are said as seats
        st.markdown(words.md(i18n.ngettext(
            "{candidate}: {count} · seat {voters} voted · named {t} · «Стоп» {cutoff} · count {announced}",
            "{candidate}: {count} · seats {voters} voted · named {t} · «Стоп» {cutoff} · count {announced}",
            len(voters), candidate=who_for, count=count, voters=words.seat_list(voters), **times)))
    cutoff = proposal.events[0].get("cutoff") if proposal.events else None
    return float(cutoff) if isinstance(cutoff, int | float) else None


def _shooting_lines(proposal: Proposal) -> float | None:
    """A drafted night's shooting in words (each black seat's shot, the seat killed or why a miss); the first shot's
    time, for the frame."""
    e = proposal.events[0]
    st.markdown(f"**{t('Night {night}, shooting', night=proposal.day)}**")
    shots = e.get("shots") or {}
    for seat, aim in shots.items():
        st.markdown(t("Seat {seat} shoots {target}", seat=seat, target=aim) if aim is not None
                    else t("Seat {seat}: no shot on one number", seat=seat))
    if e.get("target") is not None:
        st.markdown(t("Killed: seat {seat}", seat=e["target"]))
    elif None in shots.values():
        st.markdown(t("A miss: a black player did not shoot, shot on several numbers or outside the count"))
    else:
        st.markdown(t("A miss: the black players shot different seats"))
    fired = e.get("x_fired") or []
    return float(fired[0]) if fired else None


def _proposal_card(game: Game | None, held: dict, sheet_id: str, sheet: Sheet, proposal: Proposal) -> None:
    with st.container(border=True):
        night = proposal.kind == "shooting"
        at = _shooting_lines(proposal) if night else _round_lines(proposal)
        st.caption(t("The sheet now: {line}", line=as_shown(sheet.text(proposal.slot)) or "—"))
        shown = _frame_at(game, held, at) if at is not None else None
        if shown is not None:
            st.image(shown[0], width=480, caption=t("At the shot: {caption}", caption=shown[1]) if night
                     else t("At «Стоп»: {caption}", caption=shown[1]))
        key = _edit_key(sheet_id, proposal.slot)
        if key not in st.session_state:
            st.session_state[key] = as_shown(proposal.line)
        st.text_input(t("Edit the line before accepting"), key=key)
        cols = st.columns(3)
        cols[0].button(t("Accept this shooting") if night else t("Accept this round"),
                       key=f"sheet_draft_accept_{proposal.slot}", on_click=_decided,
                       args=(sheet_id, proposal.slot, "accepted"))
        cols[1].button(t("Accept as edited"), key=f"sheet_draft_edited_{proposal.slot}", on_click=_decided,
                       args=(sheet_id, proposal.slot, "edited"))
        cols[2].button(t("Reject this shooting") if night else t("Reject this round"),
                       key=f"sheet_draft_reject_{proposal.slot}", on_click=_decided,
                       args=(sheet_id, proposal.slot, "rejected"))


@dataclass(frozen=True)
class DraftSource:
    """The video a sheet's votes are drafted from, and the open game's seat map and saved analysis where they are
    of that same video (else the seat map is found from the video and the hands read afresh)."""

    video: str
    seats: str | None = None
    observations: str | None = None

    def can_read_nights(self) -> bool:
        """Whether the draft could read the nights' shots from the video itself: no saved analysis holds them, and
        the seat map marks where each seat raises its hand (a map found from the video has no raise zones)."""
        if self.observations is not None or self.seats is None:
            return False
        try:
            return any(seat.raise_ is not None for seat in load_seat_map(self.seats).seats.values())
        except StopframeError:
            return False


def _same_game(game: Game | None, this: SavedSheet) -> bool:
    """Whether the sheet was started from the open game's own protocol (so the game's video is the sheet's)."""
    if game is None or this.source != "protocol" or not this.source_path:
        return False
    try:
        return Path(this.source_path).resolve() == Path(game.spec.protocol).resolve()
    except (OSError, RuntimeError, ValueError):
        return False


def _draft_source(game: Game | None, sheet_id: str, sheet: Sheet, this: SavedSheet,
                  saved: SavedDraft | None) -> DraftSource | None:
    """The video the judge gives for this sheet, kept with the sheet's entries as it is typed (a reload finds it;
    never written into the protocol, whose `video.path` is relative). Until one is typed it is prefilled with the one its kept draft was made from, else
    with the open game's only when the sheet is that game's, so a sheet typed from paper is never drafted from
    another game's video. None, with the reason shown, while there is none to read. The open game's seat map and
    saved analysis go with its video, whichever sheet asks."""
    same = _same_game(game, this)
    key = box_key(sheet_id, "video")
    if key not in st.session_state:
        st.session_state[key] = sheet.text("video") if any(e.slot == "video" for e in sheet.entries) else \
            str(saved.draft.get("video") or "") if saved is not None else \
            str(game.spec.video) if same and game is not None and game.spec.video else ""
    typed = pasted(st.session_state.get(key))
    st.text_input(t("This game's video (path)"), key=key, placeholder=str(Path.home() / "table1.mp4"),  # a path as this computer writes one
                  on_change=_entered, args=(sheet_id, "video"))
    if not typed:
        st.caption(t("Give the path of this game's video to draft its votes from it."))
        return None
    try:
        path = Path(typed).expanduser()
        is_file = path.is_file()
    except (OSError, RuntimeError, ValueError):
        path, is_file = Path(typed), False
    if not is_file:
        st.error(t("{path} is a folder; give the video file in it.", path=typed[:300]) if is_folder(path) else
                 t("{path}: no video file there.", path=typed[:300]))
        return None
    if game is not None and game.spec.video and path.resolve() == Path(game.spec.video).resolve():
        return DraftSource(str(path), game.spec.seats, game.spec.observations)  # they describe this video
    return DraftSource(str(path))


def _draft_panel(game: Game | None, sheet_id: str, sheet: Sheet, this: SavedSheet) -> None:
    with st.container(border=True):
        st.subheader(t("Draft the votes from the video"))
        saved = book().draft(sheet_id)
        source = _draft_source(game, sheet_id, sheet, this, saved)
        if source is not None:
            st.caption(t("From {video}: the judge's voice gives each vote's times, the hands its voters and count. "
                         "Type the sheet first (players, nominations, nights); nothing enters it until you accept it.",
                         video=Path(source.video).name))
            nights = _nights_choice(source)
            if st.button(t("Draft the votes"), key="sheet_draft_run"):
                with st.spinner(t("Listening to the judge and reading the hands…")):
                    step = st.empty()  # the draft's latest step, so a long reading of a new video is seen moving
                    _draft(source, sheet_id, lambda said: step.caption(md(said)), nights)
                    step.empty()  # done: the cards below say what it found (its closing count is the command line's)
                saved = book().draft(sheet_id)
        failed = st.session_state.get(DRAFT_ERROR) or {}
        if failed.get("sheet") == sheet_id and source is not None and failed.get("video") == source.video:
            # said while the video it was about is the one in the box: another path is another try
            st.error(md(_in_boxes(sheet, failed["error"])))
        if saved is not None:
            _drafted(game, saved, sheet_id, sheet, source)


def _nights_said(held: dict, source: DraftSource | None) -> None:
    """Why the nights' shots are not proposed, in one sentence, where they are not; the way to have them read is
    the one the page offers now (the box to tick, or the seat map with raise zones it needs)."""
    how = (t("The nights' shots are not proposed: this video has no saved analysis of its nights "
             "and the draft did not look at them; tick «Also read the nights' shots from the video» "
             "and draft again.") if source is not None and source.can_read_nights() else
           t("The nights' shots are not proposed: this video has no saved analysis of its nights, and reading them "
             "needs the game's seat map with the seats' raise zones (Seat calibration): open this video as the game "
             "with that map and draft again."))
    why = {"not_observed": how,
           "not_analysed": t("The nights' shots are not proposed: this video's saved analysis was made without its "
                             "nights (--nights)."),
           "no_night": t("The nights' shots are not proposed: the analysis of the nights sees no night in this video.")}
    if held.get("nights_unread") in why:
        st.info(why[held["nights_unread"]])
    unseen = held.get("nights_unseen") or []
    if unseen:
        st.info(i18n.ngettext(
            "Night {nights}: the video does not show its whole shooting (a black player's hand out of sight, or the "
            "night not looked at); nothing is proposed for it.",
            "Nights {nights}: the video does not show their whole shootings (a black player's hand out of sight, or "
            "the night not looked at); nothing is proposed for them.", len(unseen), nights=words.seat_list(unseen)))


def _drafted(game: Game | None, saved: SavedDraft, sheet_id: str, sheet: Sheet, source: DraftSource | None) -> None:
    """The sheet's draft as kept in the store: the proposals still waiting as cards, the ones chosen on listed;
    `source`: the video the page drafts from now (what it offers for the nights)."""
    held = saved.draft
    when = time.strftime("%H:%M:%S", time.localtime(saved.at))
    st.caption(t("Drafted by {who} at {when}; kept until you draft again.", who=saved.who, when=when) if saved.who
               else t("Drafted at {when}; kept until you draft again.", when=when))
    if not held.get("heard"):
        st.warning(t("The judge's voice cannot be heard on this video: only votes with times are drafted."))
    if held.get("untimed"):
        st.info(t("No times heard for: {votes}", votes="; ".join(map(label_words, held["untimed"]))))
    if held.get("in_order"):
        st.info(t("No night music and no time on the sheet tell the days apart, so the votes heard were taken "
                  "in the game's order. If the video begins on a later day, type that day's voting time under "
                  "«Where the votes are on the video» and draft again."))
    from pipeline.draft import FoundSeats

    unsure = FoundSeats.from_json(held["found_seats"]).words() if held.get("found_seats") else []
    for said in unsure:
        st.warning(md(said))
    if unsure:
        st.caption(t("A seat map you checked on the Seat calibration page is used as it is: open this video as the "
                     "game with that map and draft again."))
    _nights_said(held, source)
    offered = [Proposal.from_json(p) for p in held.get("proposals") or []]
    waiting = [p for p in offered if p.slot not in saved.choices]
    if not waiting:
        st.caption(t("Nothing more to propose."))
    for proposal in waiting:
        _proposal_card(game, held, sheet_id, sheet, proposal)
    chosen = [p for p in offered if p.slot in saved.choices]
    if chosen:
        with st.expander(i18n.ngettext("Chosen: {n} proposal", "Chosen: {n} proposals", len(chosen))):
            for p in chosen:
                choice, line = saved.choices[p.slot]
                said = i18n.term("draft_choice", choice)
                st.markdown(t("{box}: {choice} «{line}»", box=box_name(p.slot), choice=said, line=as_shown(line)) if line
                            else t("{box}: {choice}", box=box_name(p.slot), choice=said))


# -------------------------------------------------------------------------------------------------- history


def _history(sheet_id: str) -> None:
    """Who typed what into which box, and each undo, oldest first (the store's log)."""
    log = book().history(sheet_id)
    with st.expander(i18n.ngettext("History: {n} change", "History: {n} changes", len(log))):
        for item in log:
            when = time.strftime("%H:%M:%S", time.localtime(item["at"]))
            who = item["who"] or "—"
            if item["action"] == "undo":
                st.markdown(t("{when} · {who} · undo", when=when, who=who))
            else:
                st.markdown(t("{when} · {who} · {box}: «{line}»", when=when, who=who, box=box_name(item["slot"]),
                              line=item["text"]))


# -------------------------------------------------------------------------------------------------- exports

_GIVEN = {"protocol": "the protocol", "polemica": "the file it imports", "mafiaratings": "the file it imports"}


def _in_data_folder(path: Path) -> Path:
    """A bare file name is saved among the app's protocols, never in whatever folder the server started in."""
    return path if path.is_absolute() else data_dir() / "protocols" / path


def _save_target() -> Path | None:
    """The file the judge typed to save the protocol to (a bare name in the data folder); None while none is typed
    or it names no place (`~nosuchuser/x`)."""
    typed = pasted(st.session_state.get("sheet_save_path"))
    try:
        return _in_data_folder(Path(typed).expanduser()) if typed else None
    except RuntimeError:
        return None


def _replace_key(path: Path | None) -> str:
    """The «Replace …» box of one file: ticked for one path, it says nothing about the next one typed."""
    return f"sheet_save_replace:{path}"


def _is_file(path: Path | None) -> bool:
    try:
        return path is not None and path.is_file()
    except (OSError, ValueError):
        return False


def _is_protocol(path: Path) -> bool:
    fmt = format_of(path)
    return isinstance(fmt, str) and fmt.startswith("stopframe-protocol/")


def _save_protocol(sheet_id: str, saved: SavedSheet) -> None:
    """Write the protocol where the judge asked, never over the file the sheet started from; a file already there
    only when the judge ticked «Replace …», and only when it is itself a protocol (never a video or another file
    typed by a slip)."""
    target = pasted(st.session_state.get("sheet_save_path"))
    if not target:
        st.session_state["sheet_saved"] = ("error", i18n._("Give the path to save the protocol to first."))
        return
    there = _save_target()
    given = [(saved.source_path, _GIVEN[saved.source])] if saved.source_path else []
    if _is_file(there):
        try:
            check_output(there, given, what="export")  # the sheet's own file: refused whatever is ticked
        except StopframeError as exc:
            st.session_state["sheet_saved"] = ("error", str(exc))
            return
        if not _is_protocol(there):
            st.session_state["sheet_saved"] = ("error", i18n._(
                "Not saved: {path} is a file that is not a Stopframe protocol, and Stopframe writes a protocol over "
                "another protocol only; give another file name.", path=there))
            return
        if not st.session_state.get(_replace_key(there)):
            st.session_state["sheet_saved"] = ("error", i18n._(
                "Not saved: {path} already holds a protocol. Tick «Replace …» above to overwrite it, or give another "
                "file name.", path=there))
            return
    try:
        out = save(_in_data_folder(Path(target).expanduser()), protocol_text(book().load(sheet_id)), given)
    except StopframeError as exc:
        st.session_state["sheet_saved"] = ("error", str(exc))
        return
    st.session_state.pop(_replace_key(there), None)  # the next save over the file is asked about again
    st.session_state["sheet_saved"] = ("success", i18n._("Saved: {path}", path=out))
    st.session_state[SAVED_TO] = {"sheet": sheet_id, "path": str(out)}


def _seat_map_for(protocol: str, held: dict) -> tuple[str | None, bool]:
    """The seat map to audit the saved game with, and whether it is the one the draft read the hands with: the map
    it was given, else the one it found, saved into the data folder under the game's own name (where the seat
    calibration saves it too). A file already there is the judge's own calibration, or this map saved before: it
    is used, never written over."""
    if held.get("seats"):
        return str(held["seats"]), True
    if not held.get("seat_map"):
        return None, False
    target = data_dir() / "seatmaps" / f"{own_name(protocol)}.seats.json"
    if not target.exists():
        write_atomic(target, json.dumps(held["seat_map"], ensure_ascii=False))
        return str(target), True
    try:
        return str(target), json.loads(target.read_text(encoding="utf-8")) == held["seat_map"]
    except (OSError, ValueError):
        return str(target), False


def _covers_every_vote(observations: str | None, protocol: str) -> bool:
    """Whether the hands the draft read cover every timed vote of the saved protocol, so that they serve as the
    game's analysis; a vote the draft did not look at (one typed in by hand) leaves the analysis to be run."""
    if not observations:
        return False
    try:
        seen = load_observations(observations)
        rounds = [r for r in vote_rounds(vote_windows(load_protocol(protocol).data)) if r.timed]
    except StopframeError:
        return False
    return bool(rounds) and all(seen.covers(r.start, r.end) for r in rounds)


def _open_to_audit(sheet_id: str, protocol: str) -> None:
    """Open the saved protocol on the vote audit with the sheet's video, the seat map its draft used and the hands
    it read there: from the paper sheet to the audit without typing a path or analysing the video again."""
    typed = pasted(st.session_state.get(box_key(sheet_id, "video")))
    try:
        video = str(Path(typed).expanduser()) if typed else None  # as the draft kept it (_draft_source)
    except RuntimeError:  # `~nosuchuser/…`: no draft was made from it
        video = typed
    kept = book().draft(sheet_id)
    held = kept.draft if kept is not None and video and kept.draft.get("video") == video else {}
    try:
        seats, own = _seat_map_for(protocol, held)
    except StopframeError as exc:
        st.session_state[state.OPEN_ERROR] = ("sheet_open", i18n._("Not opened: {why}", why=exc))
        return
    observations = held.get("observations") if own and _covers_every_vote(held.get("observations"), protocol) else None
    if state.try_open(GameSpec(protocol, video, seats, observations), "sheet_open"):
        st.session_state[state.VIEW] = "Vote audit"


def _in_boxes(sheet: Sheet, message: str) -> str:
    """A club export's refusal with each protocol place it names (`events[6]`) said as the sheet's box."""
    def box(m: re.Match[str]) -> str:
        key = sheet.box_at(m.group(0))
        return box_name(key) if key else words.json_place(m.group(0))

    return re.sub(r"(?:events|players)\[\d+\](?:\.\w+)?", box, message)


def _pdf(sheet_id: str, page: str, name: str) -> None:
    """The printable sheet (`page`, its HTML) as a PDF, printed on request (headless Chromium takes a second or
    two): the file is kept in the data folder and offered for download until the sheet changes."""
    if chromium() is None:
        st.caption(t("PDF needs Chromium (apt-get install chromium); the HTML page has everything."))
        return
    made = st.session_state.get(PDF)
    if st.button(t("Print the sheet to PDF"), key="sheet_pdf"):
        try:
            path = write_pdf(page, data_dir() / "sheets" / f"{sheet_id}.{name}.sheet.pdf")
        except StopframeError as exc:
            st.error(md(str(exc)))
            return
        made = st.session_state[PDF] = {"sheet": sheet_id, "page": page, "path": str(path)}
    if made and made["sheet"] == sheet_id and made["page"] == page and Path(made["path"]).is_file():
        st.download_button(t("Printable sheet (PDF)"), Path(made["path"]).read_bytes(), file_name=f"{name}.sheet.pdf",
                           mime="application/pdf", key="sheet_download_pdf")


def _exports(game: Game | None, sheet_id: str, sheet: Sheet, saved: SavedSheet) -> None:
    """Downloads of what the sheet holds (each only where it validates), and the protocol saved to a path."""
    with st.container(border=True):
        st.subheader(t("Hand on"))
        name = stem(saved.title)
        files: dict[str, tuple[str, str, str]] = {}
        refused: dict[str, str] = {}
        try:
            files[f"{name}.sheet.protocol.json"] = (i18n.term("sheet_export", "protocol"), protocol_text(sheet),
                                                    "application/json")
        except StopframeError as exc:
            refused["protocol"] = str(exc)  # the club files too: they are written only from a valid game
        for target in FORMATS if not refused else ():
            try:
                files[f"{name}.sheet.{target}.json"] = (i18n.term("sheet_export", target), club_text(sheet, target),
                                                        "application/json")
            except StopframeError as exc:
                refused[target] = _in_boxes(sheet, str(exc)) + (
                    " " + i18n._("On the sheet, the voters go after a slash in the round's box, such as 6:5/1,2,4,7,9.")
                    if getattr(exc, "needs_voters", False) else "")
        page = printable(sheet, saved.title)
        files[f"{name}.sheet.html"] = (t("Printable sheet (HTML)"), page, "text/html")
        for file_name, (label, content, mime) in files.items():
            st.download_button(label, content, file_name=file_name, mime=mime, key=f"sheet_download_{file_name}")
        _pdf(sheet_id, page, name)
        for what, why in refused.items():
            st.info(t("{what} is not offered: {why}", what=i18n.term("sheet_export", what), why=why))
        st.text_input(t("Save the protocol to (path)"), **state.kept_box("sheet_save_path"),
                      placeholder=f"{name}.sheet.protocol.json",
                      help=t("A file name without a folder is saved in {folder}.", folder=data_dir() / "protocols"))
        there = _save_target()
        if _is_file(there) and _is_protocol(there):  # any other file is never written over: nothing to tick
            st.checkbox(t("Replace the file already at {path} (what it holds is lost)", path=there),
                        key=_replace_key(there))
        st.button(t("Save the protocol"), key="sheet_save", on_click=_save_protocol, args=(sheet_id, saved))
        said = st.session_state.pop("sheet_saved", None)
        if said is not None:
            (st.error if said[0] == "error" else st.success)(md(said[1]))
        last = st.session_state.get(SAVED_TO) or {}
        if last.get("sheet") == sheet_id:
            st.button(t("Audit this game's votes"), key="sheet_open_audit", on_click=_open_to_audit,
                      args=(sheet_id, last["path"]),
                      help=t("Opens the saved protocol with this sheet's video and the seat map its draft used."))
            if (why := state.open_error("sheet_open")) is not None:
                st.error(md(why))
            return
        # the other pages are the open game's, not the sheet's: how the sheet's game gets there
        how = t("To audit this game's votes: save the protocol, then open it with its video on «{page}».",
                page=t("Open a game"))
        st.caption(how + (" " + t("The other pages show the game open now: {game}.", game=game.title)
                          if game is not None else ""))


def render(game: Game | None) -> None:
    st.header(t("Protocol sheet"))
    saved = book().sheets()
    if st.session_state.get(SHEET) not in {s.sheet_id for s in saved}:
        st.session_state[SHEET] = saved[0].sheet_id if saved else None  # a reload reopens the sheet typed last
    sheet_id = st.session_state.get(SHEET)
    try:
        _start_panel(game, sheet_id is not None)
    except StopframeError as exc:
        st.error(md(str(exc)))
    if sheet_id is None:
        st.info(t("Start a sheet above: an empty one, the open game's protocol, or a club's game file."))
        return
    sheet = book().load(sheet_id)
    this = next(s for s in saved if s.sheet_id == sheet_id)
    top = st.columns([4, 1])
    n = len(sheet.problems())
    status = t("complete and valid") if sheet.complete else i18n.ngettext("{n} problem", "{n} problems", n) if n \
        else t("no problems so far")
    top[0].markdown(t("**{title}** · {entries} · {status}", title=this.title, status=status,
                      entries=i18n.ngettext("{n} entry", "{n} entries", len(sheet.entries))))
    then = book().to_undo(sheet_id)
    top[1].button(t("Undo"), key="sheet_undo", disabled=then is None, on_click=_undo, args=(sheet_id,),
                  help=_undo_help(then))
    _sheet(sheet_id, sheet)
    _draft_panel(game, sheet_id, sheet, this)
    _exports(game, sheet_id, sheet, this)
    _history(sheet_id)
