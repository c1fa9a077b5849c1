"""Vote audit: per day and round, the candidates, protocol vs video counts, each seat's hands, the findings
with their evidence frames and decisions, and the outcome recomputed from the judge's decisions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from contract.i18n import _, clause, ngettext, number
from pipeline.game import outcome_with
from review.audit.findings import Finding, finding_key
from review.audit.tally import default_least, find_row, sure_first, tally
from review.cases.store import Decision
from review.game import timeline
from review.game.profiles import get_profile
from stopframe_app import report, state, words
from stopframe_app.decisions import card_key, finding_card, finding_cards, md, show_flash
from stopframe_app.game import Game
from stopframe_app.views.frames import cameras_evidence, cameras_of

if TYPE_CHECKING:
    from review.game.timeline import VoteRound

ROUND = "vote_round"
LESS_SURE = "show_less_sure"


def rounds_of(game: Game) -> list[VoteRound]:
    return timeline.vote_rounds(game.windows) if game.windows else []


def _round_label(rnd: VoteRound, findings: Sequence[Finding]) -> str:
    n = sum(1 for f in findings if f.day == rnd.day and f.round == rnd.round)
    what = (_("candidates {seats}", seats=", ".join(str(w.candidate) for w in rnd.windows)) if rnd.kind == "vote"
            else _("lift {seats}", seats=", ".join(map(str, rnd.windows[0].candidates))))
    label = _("Day {day} · round {round} · {what}", day=rnd.day, round=rnd.round, what=what)
    return label + (" · " + ngettext("{n} finding", "{n} findings", n) if n else "")


def render(game: Game) -> None:
    st.header(words.t("Vote audit"))
    show_flash()
    _problems(game)
    for key in ("observations", "audit"):
        if key in game.notes and not (key == "observations" and "video" in game.notes):  # the missing video is said above
            st.info(words.md(game.notes[key]))
    if game.observations is None and "observations" in game.notes:
        from stopframe_app.views.open_game import analysis_panel

        analysis_panel(game)
    rounds = rounds_of(game)
    if not rounds:
        st.warning(words.md(game.notes.get("protocol") or "") or words.t("This protocol has no votes to audit."))
        _other_findings(game, set())
        return
    findings = shown_findings(game.findings)
    labels = [_round_label(r, findings) for r in rounds]
    if ROUND not in st.session_state or st.session_state[ROUND] not in labels:
        with_findings = [i for i, r in enumerate(rounds) if any(f.day == r.day and f.round == r.round for f in findings)]
        st.session_state[ROUND] = labels[with_findings[0] if with_findings else 0]
    label = st.selectbox(words.t("Vote"), labels, key=ROUND)
    rnd = rounds[labels.index(label)]
    _round_tables(game, rnd)
    decisions = state.store().decisions(game.game_id)
    here = [f for f in findings if f.day == rnd.day and f.round == rnd.round]
    alone = False
    st.subheader(words.t("Findings ({n})", n=len(here)))
    if not here:
        st.write(words.t("The video shows nothing against this round.") if game.audit is not None
                 else words.t("No audit yet."))
    else:
        hidden = bool(night_rows(game)) or any((f.day, f.round) not in {(r.day, r.round) for r in rounds}
                                               for f in findings)
        st.caption(words.t("Select a row to see only that finding below; the nights table and the night findings "
                           "show when no finding is selected.") if hidden
                   else words.t("Select a row to see only that finding below."))
        picked = st.dataframe(pd.DataFrame([overview_row(f, decisions) for f in here]), hide_index=True, width="stretch",
                              column_config=overview_columns(), on_select="rerun", selection_mode="single-row",
                              key=f"overview_{rnd.day}_{rnd.round}")
        rows = list(getattr(getattr(picked, "selection", None), "rows", None) or [])
        if rows and rows[0] < len(here):
            here, alone = [here[rows[0]]], True
            st.session_state[state.FINDING] = (finding_key(here[0]), state.frame())  # the appeal form starts on it
    cards_with_cameras(game, here, decisions)
    _recomputed(game, rnd, decisions)
    if not alone:  # a selected row shows that finding alone
        _other_findings(game, {(r.day, r.round) for r in rounds}, decisions, findings)


def cards_with_cameras(game: Game, findings: Sequence[Finding], decisions: dict[str, Decision]) -> None:
    """The findings' cards; under each, for a game filmed from several cameras, its frames from every camera."""
    if not cameras_of(game):
        finding_cards(game, findings, decisions)
        return
    seen: dict[str, int] = {}
    for f in findings:  # finding_cards' keys, one card at a time so that the cameras' frames follow each card
        key = card_key(f)
        seen[key] = seen.get(key, 0) + 1
        finding_card(game, f, decisions, key if seen[key] == 1 else f"{key}_{seen[key]}")
        cameras_evidence(game, f)


def shown_findings(findings: Sequence[Finding]) -> list[Finding]:
    """The suggestions most confident first; the less sure ones (under the calibrated default) only when asked for."""
    least = default_least()
    if least > 0 and st.toggle(words.t("Show the less sure suggestions too (confidence under {least})",
                                                least=words.number(least)), key=LESS_SURE):
        least = 0.0
    kept = ranked(findings, least)
    if len(kept) < len(findings):
        st.caption(ngettext("{n} less sure suggestion is hidden.", "{n} less sure suggestions are hidden.",
                            len(findings) - len(kept)))
    return kept


def ranked(findings: Sequence[Finding], least: float) -> list[Finding]:
    """The findings not less sure under `least`, most confident first (ties in report order): the CLI's table
    lists the same (review.audit.tally.sure_first)."""
    return sure_first(findings, least)


def overview_columns() -> dict[str, Any]:
    """The findings table's seat column says, on its header's help, what its short cells stand for."""
    return {_("seat"): st.column_config.TextColumn(help=_("The seat the finding is about; «count» where it is about "
                                                         "the judge's count of the votes, not a seat."))}


def seat_cell(f: Finding) -> str:
    """The seat a finding is about, short enough for its narrow column: `7`, `1, 9`; a miscount is about the count,
    not a seat (`count`, its candidate in the next column)."""
    if f.kind == "count_mismatch":
        return _("count")
    if f.seat is not None:
        return str(f.seat)
    return words.seat_list(f.seats) if f.seats else words.who(f)


def overview_row(f: Finding, decisions: dict[str, Decision]) -> dict[str, Any]:
    d = decisions.get(finding_key(f))
    seat = seat_cell(f)
    return {_("finding"): words.kind(f.kind), _("seat"): seat,
            _("candidate"): "" if f.candidate is None else str(f.candidate), _("t (s)"): words.number(f.t),
            _("clause"): f.clause or "—", _("consequence"): words.consequence_text(f.consequence),
            _("confidence"): words.number(f.confidence),
            _("decision"): _("{status} ({who})", status=words.status(d.status), who=d.who) if d else words.status("open")}


def _problems(game: Game) -> None:
    """The protocol's own problems (format, or the game against its rules), so the judge sees why."""
    if not game.problems:
        return
    head = (_("The protocol's format is broken") if "protocol" in game.notes
            else _("The protocol disagrees with the rules"))
    n = len(game.problems)
    with st.expander(head + ": " + ngettext("{n} problem", "{n} problems", n), expanded="protocol" in game.notes):
        st.markdown("\n".join(f"- {md(words.humanise(p.message))} ({md(words.json_place(p.path))})"
                               + (f" ({md(clause(p.clause))})" if p.clause else "") for p in game.problems[:50]))


def round_rows(game: Game, rnd: VoteRound) -> tuple[list[dict[str, Any]], list[tuple[str, str, str]]]:
    """The round's candidates: the protocol's count beside the audit's count (review.audit.tally), in words;
    and for each, (whose vote, the video's count, how the video makes it up)."""
    rows, hows = [], []
    for w in rnd.windows:
        ev = game.data["events"][w.event_index]
        row = find_row(game.votes, w.day, w.round, w.candidate if w.kind == "vote" else None, w.kind)
        t = tally(row)
        rows.append({
            _("candidate"): str(w.candidate) if w.kind == "vote" else _("lift {seats}", seats=" ".join(map(str, w.candidates))),
            _("nickname"): game.players.get(w.candidate, "") if w.kind == "vote" else "",
            _("protocol count"): words.number(ev.get("count")) or "—",
            _("video count"): t.count_text if row else _("not analysed"),
            _("count mismatch"): _("yes") if t.mismatch else "",
            _("protocol voters"): words.seat_list(ev.get("voters")) if ev.get("voters") is not None else _("not listed"),
            _("hands seen in time"): words.seat_list(t.hands_seen) if row else "",
            _("named · Stop · count (s)"): " · ".join(words.number(x) or "—" for x in (w.t, w.cutoff, w.announced)),
            _("assumed"): words.assumed(w.assumed),
        })
        hows.append((_("candidate {candidate}", candidate=w.candidate) if w.kind == "vote"
                     else _("lift {seats}", seats=" ".join(map(str, w.candidates))),
                     t.count_text if row else "", words.breakdown(t) if row else ""))
    return rows, hows


def _round_tables(game: Game, rnd: VoteRound) -> None:
    rows, hows = round_rows(game, rnd)
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.caption(words.t("How the video counts (the same count the findings, the outcome and the exports use):")
               + "  \n" + "  \n".join(f"{md(whose)}: {md(count)} — {md(how)}" for whose, count, how in hows if how))
    with st.expander(words.t("Each seat in this round: hands seen, relative to the judge's call of the nearest candidate")):
        st.dataframe(pd.DataFrame(seat_rows(game, rnd)), hide_index=True)


def seat_rows(game: Game, rnd: VoteRound) -> list[dict[str, Any]]:
    """Per seat: the hands seen during the round and the candidate window each fell into."""
    windows = [w for w in rnd.windows if w.t is not None]
    start = min((w.t for w in windows), default=0.0) - 1.5
    end = max((w.announced or w.t for w in windows), default=0.0) + 1.5
    listed: dict[int, list[int]] = {}
    for w in rnd.windows:
        for s in game.data["events"][w.event_index].get("voters") or []:
            listed.setdefault(s, []).append(w.candidate)
    rows = []
    for seat in range(1, 11):
        seen = []
        for h in game.hands:
            if h.get("seat") != seat or not (float(h["on"]) < end and float(h["off"]) > start):
                continue
            w = min(windows, key=lambda w, t=float(h["on"]): abs(t - w.t)) if windows else None
            on, off = float(h["on"]), float(h["off"]) - (w.t if w else 0)
            if w is None:
                rel = _("at {t} s", t=number(on, 2, fixed=True))
            elif w.kind == "vote":
                rel = _("{t} s of candidate {candidate}'s call", t=number(on - w.t, 2, fixed=True, signed=True),
                        candidate=w.candidate)
            else:
                rel = _("{t} s of the lift vote's call", t=number(on - w.t, 2, fixed=True, signed=True))
            seen.append(_("{pose} on {when}, off {off} s", pose=words.pose(h.get("pose", "hand")), when=rel,
                          off=number(off, 2, fixed=True, signed=True)))
        zone = game.seat_map is None or seat in game.seat_map.seats
        rows.append({_("seat"): seat, _("nickname"): game.players.get(seat, ""),
                     _("protocol lists a vote for"): words.seat_list(listed.get(seat, [])),
                     _("video shows"): "; ".join(seen) if seen else (_("no hand") if zone else _("cannot see (no zone)"))})
    return rows


def _recomputed(game: Game, rnd: VoteRound, decisions: dict[str, Decision]) -> None:
    """The round's outcome by the protocol, by the video, and after the judge's decisions."""
    out = next((v.outcome for v in game.votes if v.day == rnd.day and v.round == rnd.round), None)
    st.subheader(words.t("Outcome"))
    lines = []
    if out:
        lines.append("- " + words.t("protocol: **{outcome}**", outcome=words.vote_outcome_text(out.protocol)))
        lines.append("- " + words.t("video: **{outcome}**", outcome=words.vote_outcome_text(out.video))
                     + (" — " + words.t("differs") if out.changed else ""))
    if game.replay is not None and rnd.kind == "vote":
        corrected = report.corrected(game.data, decisions.values(), votes=game.votes)
        counts = {}
        for w in rnd.windows:
            ev = game.data["events"][w.event_index]
            fixed = next((e for e in corrected["events"] if e.get("type") == "vote" and e.get("day") == ev.get("day")
                          and e.get("round") == ev.get("round") and e.get("candidate") == ev.get("candidate")), ev)
            counts[w.candidate] = int(fixed.get("count") or 0)
        after = outcome_with(get_profile(game.profile_id), game.replay, rnd.windows[-1].event_index, counts)
        if after is not None:
            lines.append("- " + words.t("after your decisions: **{outcome}** (counts: {counts})",
                                        outcome=words.humanise(after.text), counts=words.counts_text(counts)))
    st.markdown("\n".join(lines) if lines else words.t("No outcome to show yet."))


def night_rows(game: Game) -> list[dict[str, Any]]:
    """One row per shooting and check the audit looked at: what the protocol records and what the video shows."""
    rows = []
    nights = game.audit.extra.get("x_nights") if game.audit is not None else None  # the night audit's own rows
    for r in nights or []:
        if r.get("kind") == "shooting":
            what = _("shooting")
            protocol = (_("miss") if r.get("protocol_target") is None
                        else _("seat {seat} killed", seat=r["protocol_target"]))
            outcome = r.get("video_outcome")
            video = {"kill": _("seat {seat} killed", seat=r.get("video_target") or "?"),
                     "undetermined": _("cannot tell (a black seat unseen)"),
                     None: "—"}.get(outcome, _("miss: {why}", why=words.humanise(outcome)))
        else:
            what = {"don": _("check by the don"), "sheriff": _("check by the sheriff")}.get(r.get("by"), _("check"))
            if r.get("seat") is not None:
                what += " " + _("(seat {seat})", seat=r["seat"])
            protocol = "—" if r.get("protocol_target") is None else _("seat {seat}", seat=r["protocol_target"])
            video = "—" if r.get("video_number") is None else _("shows {number}", number=r["video_number"])
        rows.append({_("night"): r.get("night"), _("what"): what, _("from (s)"): words.number(r.get("start")),
                     _("to (s)"): words.number(r.get("end")), _("protocol"): protocol, _("video"): video,
                     _("note"): words.humanise(r.get("note") or "")})
    return rows


def _other_findings(game: Game, shown: set[tuple[int, int]], decisions: dict[str, Decision] | None = None,
                    findings: Sequence[Finding] | None = None) -> None:
    rest = [f for f in (game.findings if findings is None else findings) if (f.day, f.round) not in shown]
    nights = night_rows(game)
    if nights:
        st.subheader(words.t("Nights: the shootings and checks"))
        st.table(words.static_table(nights, _("night")))  # a static table: the interactive ones select findings
    if not rest:
        return
    decisions = decisions if decisions is not None else state.store().decisions(game.game_id)
    st.subheader(words.t("Night and other findings ({n})", n=len(rest)))
    finding_cards(game, rest, decisions)
