"""Exports: the corrected protocol (never over the original), the corrected game as a Polemica and a
mafiaratings game file (all the format holds, and a note of what it left out; the voters filled from the video,
in the club files only, where the judge ticks it and the video agrees with the count), the findings CSV and the
HTML report. While a confirmed finding cannot go into the corrected protocol, the page says which and why and
offers neither the protocol nor the club files: a signed file never leaves a confirmed finding out."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import streamlit as st

from contract import i18n
from contract.errors import StopframeError
from contract.i18n import _, ngettext
from contract.jsonio import write_atomic
from contract.outputs import check_output
from review.audit.findings import finding_key
from review.cases.club_exports import FORMATS, NAMES, ClubFile, ExportRefused, club_file
from review.cases.corrected import corrected_name, corrected_protocol, write_corrected_protocol
from review.cases.exports import KeyFrame, finding_rows, write_html_report
from review.cases.store import data_dir
from review.cases.voters import fill_voters_from_video
from stopframe_app import report, state, words
from stopframe_app.decisions import evidence_frames, game_inputs, plain_title, show_flash
from stopframe_app.game import Game, own_name, stem_of


def export_folder(game: Game) -> Path:
    """The game's own folder under the data folder (never shared with another game of the same file name)."""
    return data_dir() / "exports" / own_name(game.spec.protocol)


def _corrected(game: Game) -> dict:
    """The corrected protocol with every standing decision in it, or CorrectionError saying which confirmed finding
    it cannot take and why: a file never leaves a confirmed finding out silently."""
    decisions = state.store().decisions(game.game_id)
    book = state.appeals()
    appeals = [(c.case_id, book.in_force(c.case_id)) for c in book.cases(game.game_id) if c.status == "decided"]
    return corrected_protocol(game.data, decisions.values(), votes=game.votes, source=Path(game.spec.protocol).name,
                              appeals=appeals)


FILL_LABEL = "Fill the voters in the club files from the video where the count agrees"  # shown with `t`
CSV_SEP = "csv_sep"  # the findings CSV's separator: ";" (Excel in a Russian locale) or ","


def csv_separator() -> str:
    """The separator the judge chose for the findings CSV; before a choice, `;` for a Russian reader (Excel in a
    Russian locale splits on it and reads 0,94 as a number) and `,` otherwise."""
    chosen = st.session_state.get(CSV_SEP)
    return chosen if chosen in (";", ",") else report.default_separator()


def club_files(game: Game, corrected: dict, voters_from_video: bool = False
               ) -> tuple[dict[str, tuple[str, str, str]], dict[str, ClubFile], dict[str, str]]:
    """The corrected game as each club system's file, holding all the format can: (file name -> (label, content,
    mime), format -> the file and what it left out, format -> the sentence saying why no file can be made). With
    `voters_from_video`, count-only votes get their voters from the audit where the video agrees with the count
    and every finding on them is decided; the corrected protocol itself is never changed by it."""
    stem = stem_of(Path(game.spec.protocol))
    files, made, refused = {}, {}, {}
    if voters_from_video:
        decisions = state.store().decisions(game.game_id)
        corrected = fill_voters_from_video(corrected, game.findings, game.votes, decisions).protocol
    for target in FORMATS:
        try:
            club = club_file(corrected, target)
        except ExportRefused as exc:
            refused[target] = str(exc)
            continue
        made[target] = club
        files[f"{stem}.corrected.{target}.json"] = (_("{format} game file (JSON)", format=NAMES[target]),
                                                    json.dumps(club.file, ensure_ascii=False, indent=1) + "\n",
                                                    "application/json")
    return files, made, refused


def protocol_files(game: Game, voters_from_video: bool = False) -> dict[str, tuple[str, str, str]]:
    """The corrected protocol and the club files made of it (CorrectionError while a confirmed finding cannot go
    into it)."""
    corrected = _corrected(game)
    return {corrected_name(game.spec.protocol): (_("Corrected protocol (JSON)"),
                                                 json.dumps(corrected, ensure_ascii=False, indent=2) + "\n",
                                                 "application/json"),
            **club_files(game, corrected, voters_from_video)[0]}


def review_files(game: Game, with_frames: bool = True, separator: str = ",") -> dict[str, tuple[str, str | bytes, str]]:
    """The findings CSV and the HTML report: every finding with its decision, whether or not it can be applied."""
    decisions = state.store().decisions(game.game_id)
    book = state.appeals()
    appeals = [c for c in book.cases(game.game_id) if c.status == "decided"]
    rows = finding_rows(game.findings, decisions, game.data)
    key_frames: dict[int, list[KeyFrame]] = {}
    if with_frames and game.video_meta is not None:
        from stopframe_app.viewer import render_frame

        for i, f in enumerate(game.findings):
            key_frames[i] = []
            for index in evidence_frames(game, f):
                jpeg, caption = render_frame(game, index)
                key_frames[i].append(KeyFrame(caption, jpeg))
    notes = [_("{decisions} and {appeals} recorded; corrected protocol: {name}.",
               decisions=ngettext("{n} decision", "{n} decisions", len(decisions)),
               appeals=ngettext("{n} appeal decision", "{n} appeal decisions", len(appeals)),
               name=corrected_name(game.spec.protocol))]
    page = report.html_report(title=_("Stopframe review — {title}", title=game.title), protocol=game.data, rows=rows,
                              votes=game.votes, key_frames=key_frames, notes=notes,
                              profile=game.profile_id)
    stem = stem_of(Path(game.spec.protocol))
    return {
        f"{stem}.findings.csv": (_("Findings (CSV)"), report.findings_csv(rows, separator), "text/csv"),
        f"{stem}.review.html": (_("Report (HTML, self-contained)"), page, "text/html"),
    }


def build_exports(game: Game, with_frames: bool = True, voters_from_video: bool = False,
                  separator: str = ",") -> dict[str, tuple[str, str | bytes, str]]:
    """file name -> (label, content, mime) for everything the judge may download; CorrectionError, before anything
    is made, while a confirmed finding cannot go into the corrected protocol."""
    return {**protocol_files(game, voters_from_video), **review_files(game, with_frames, separator)}


def save_all(game: Game, voters_from_video: bool = False, separator: str = ",") -> list[Path]:
    """Write every export atomically into the data folder (the protocol's own folder is left alone); nothing at all
    while a confirmed finding cannot go into the corrected protocol."""
    folder = export_folder(game)
    files = build_exports(game, voters_from_video=voters_from_video, separator=separator)
    inputs = game_inputs(game)
    for name in files:  # every file checked before any is written: all are saved, or none
        check_output(folder / name, inputs, what="export")
    out = []
    for name, (_label, content, _mime) in files.items():
        path = check_output(folder / name, inputs, what="export")
        if name.endswith(".protocol.json"):
            out.append(write_corrected_protocol(path, json.loads(content), game.spec.protocol))
        elif name.endswith((".csv", ".json")):  # a club file: checked by club_exports as it was made
            out.append(write_atomic(path, content))
        else:
            out.append(write_html_report(path, str(content), inputs))
    return out


def trail_rows(game: Game) -> list[dict[str, str]]:
    """The decision history in words: when, who, what they did to which finding, and why."""
    names = {finding_key(f): plain_title(f) for f in game.findings}
    rows = []
    for t in state.store().trail(game.game_id):
        edited = t.get("edited") or {}
        rows.append({
            _("when"): time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(t.get("at") or 0))),
            _("who"): str(t.get("who") or ""),
            _("finding"): names.get(t.get("finding_key"), _("a finding no longer in the audit")),
            _("decision"): words.status(t.get("status")) if t.get("action") != "withdraw" else _("reopened"),
            _("changed"): ", ".join(f"{i18n.term('field', k)} → {_value(v)}" for k, v in edited.items()) if edited else "",
            _("reason"): str(t.get("reason") or ""),
            _("version"): str(t.get("version") or ""),
        })
    return rows


def _value(v: object) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{i18n.term('field', k)} {words.consequence(x) if k == 'type' else words.number(x)}"
                         for k, x in v.items())
    return words.number(v) if isinstance(v, int | float) else str(v)


def _in_words(sentence: str) -> str:
    """A refusal's JSON places (`events[24]`) as a judge counts them: "the corrected protocol's event 25"."""
    placed = re.sub(r"events\[(\d+)\]", lambda m: _("the corrected protocol's event {n}", n=int(m.group(1)) + 1),
                    sentence)
    return words.humanise(placed[:1].upper() + placed[1:])


def _club_notes(made: dict[str, ClubFile], refused: dict[str, str]) -> None:
    """Below the club files: what each left out of this game, and what the formats never carry; why a format can
    make no file of it at all."""
    for target in FORMATS:
        if target in refused:
            st.info(words.t("No {format} file: {why}", format=NAMES[target], why=_in_words(refused[target])))
            continue
        club = made[target]
        if club.dropped:
            st.info(words.t("Left out of the {format} file, which cannot hold them:", format=NAMES[target]) + "\n"
                    + "\n".join(f"- {words.md(said)}" for said in club.dropped))
        st.caption(words.t("The {format} file reads back as the same game as far as it holds one; it does not carry "
                           "{what}.", format=NAMES[target], what="; ".join(club.never)))


def _broken(game: Game) -> str | None:
    """Why no corrected file can be made of a protocol whose format is broken, in the judge's words: what to fix
    and where the page lists it (the command line's `stopframe validate` is no help on this page)."""
    if "protocol" not in game.notes:
        return None
    return _("the format of the protocol {name} is broken ({problems}); «{audit}» lists each with its place. Fix them "
             "in the file and open it again.", name=Path(game.spec.protocol).name, audit=_("Vote audit"),
             problems=ngettext("{n} problem", "{n} problems", len(game.problems)))


def _save(game: Game) -> None:
    try:
        paths = save_all(game, voters_from_video=bool(st.session_state.get("voters_from_video")),
                         separator=csv_separator())
    except (OSError, ValueError, StopframeError) as exc:
        st.session_state["exports_said"] = ("error", words.t("Not saved: {why}", why=_broken(game) or exc))
    else:
        st.session_state["exports_said"] = ("success", words.t("Saved: {paths}", paths=", ".join(map(str, paths))))


def render(game: Game) -> None:
    st.header(words.t("Exports"))
    show_flash()
    decisions = state.store().decisions(game.game_id)
    st.write(words.t("{findings}, {decided} decided. The original protocol {name} is never changed; the corrected one "
                     "is a new file.", findings=ngettext("{n} finding", "{n} findings", len(game.findings)),
                     decided=len(decisions), name=Path(game.spec.protocol).name))
    st.subheader(words.t("The corrected protocol and the club files"))
    refusals = report.correction_warnings(game.data, decisions.values(), game.votes)
    broken = _broken(game)
    if broken:
        st.error(words.t("No corrected protocol and no club file: {why}", why=broken))
    elif refusals:
        st.error(words.t("No corrected protocol and no club file while a confirmed finding cannot go into them; reject "
                         "it or edit its consequence on its page:") + "\n"
                 + "\n".join(f"- {words.md(w)}" for w in refusals))
    else:
        corrected = _corrected(game)
        name = corrected_name(game.spec.protocol)
        st.download_button(words.t("Download {what}", what=_("Corrected protocol (JSON)")),
                           data=json.dumps(corrected, ensure_ascii=False, indent=2) + "\n", file_name=name,
                           mime="application/json", key=f"dl_{name}")
        fill = st.checkbox(words.t(FILL_LABEL), value=False, key="voters_from_video",
                           help=_("Polemica and mafiaratings list every voter's seat. Ticked, a vote the protocol gives "
                                  "only as a count gets, in these two files, the seats whose hands the video counted, "
                                  "where they are exactly that count and every finding on that vote is decided. The "
                                  "corrected protocol above keeps the counts as they are."))
        files, made, refused = club_files(game, corrected, fill)
        for file_name, (label, content, mime) in files.items():
            st.download_button(words.t("Download {what}", what=label), data=content, file_name=file_name, mime=mime,
                               key=f"dl_{file_name}")
        _club_notes(made, refused)
    st.subheader(words.t("The findings and the report"))
    if st.session_state.get(CSV_SEP) not in (";", ","):
        st.session_state[CSV_SEP] = report.default_separator()
    st.radio(words.t("The findings CSV for"), (";", ","), key=CSV_SEP, horizontal=True,
             format_func=lambda s: _("Excel in Russian (; and a decimal comma)") if s == ";"
             else _("other programs (, and a decimal point)"),
             help=_("Both start with a UTF-8 byte order mark, so Cyrillic opens right; no cell is ever read as a formula."))
    for name, (label, content, mime) in review_files(game, separator=csv_separator()).items():
        st.download_button(words.t("Download {what}", what=label), data=content, file_name=name, mime=mime,
                           key=f"dl_{name}")
    st.button(words.t("Save all to the data folder"), key="save_exports", on_click=_save, args=(game,))
    said = st.session_state.pop("exports_said", None)
    if said:
        (st.error if said[0] == "error" else st.success)(said[1])
    with st.expander(words.t("Decision history (audit trail)"), expanded=bool(decisions)):
        rows = trail_rows(game)
        if rows:
            st.table(words.static_table(rows, _("when")))  # a static table wraps: no column is cut off
        else:
            st.write(words.t("No decisions yet."))
