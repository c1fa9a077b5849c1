"""Vote audit: per day and round, the candidates, protocol vs video counts, each seat's hands, the findings
with their evidence frames and decisions, and the outcome recomputed from the judge's decisions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from pipeline.game import outcome_with
from review.audit.calibration import shipped
from review.audit.findings import Finding, finding_key
from review.audit.tally import find_row, tally
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
    what = ("candidates " + ", ".join(str(w.candidate) for w in rnd.windows) if rnd.kind == "vote"
            else "lift " + ", ".join(map(str, rnd.windows[0].candidates)))
    return f"Day {rnd.day} · round {rnd.round} · {what}" + (f" · {n} finding{'s' * (n != 1)}" if n else "")


def render(game: Game) -> None:
    st.header(words.t("Vote audit"))
    show_flash()
    _problems(game)
    for key in ("observations", "audit"):
        if key in game.notes and not (key == "observations" and "video" in game.notes):  # the missing video is said above
            st.info(game.notes[key])
    if game.observations is None and "observations" in game.notes:
        from stopframe_app.views.open_game import analysis_panel

        analysis_panel(game)
    rounds = rounds_of(game)
    if not rounds:
        st.warning(game.notes.get("protocol") or "This protocol has no votes to audit.")
        _other_findings(game, set())
        return
    findings = shown_findings(game.findings)
    labels = [_round_label(r, findings) for r in rounds]
    if ROUND not in st.session_state or st.session_state[ROUND] not in labels:
        with_findings = [i for i, r in enumerate(rounds) if any(f.day == r.day and f.round == r.round for f in findings)]
        st.session_state[ROUND] = labels[with_findings[0] if with_findings else 0]
    label = st.selectbox("Vote", labels, key=ROUND)
    rnd = rounds[labels.index(label)]
    _round_tables(game, rnd)
    decisions = state.store().decisions(game.game_id)
    here = [f for f in findings if f.day == rnd.day and f.round == rnd.round]
    alone = False
    st.subheader(f"Findings ({len(here)})")
    if not here:
        st.write("The video shows nothing against this round." if game.audit is not None else "No audit yet.")
    else:
        st.caption("Select a row to see only that finding below.")
        picked = st.dataframe(pd.DataFrame([overview_row(f, decisions) for f in here]), hide_index=True, width="stretch",
                              on_select="rerun", selection_mode="single-row", key=f"overview_{rnd.day}_{rnd.round}")
        rows = list(getattr(getattr(picked, "selection", None), "rows", None) or [])
        if rows and rows[0] < len(here):
            here, alone = [here[rows[0]]], True
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
    least = shipped().default_threshold
    if least > 0 and st.toggle(f"Show the less sure suggestions too (confidence under {least:.2f})", key=LESS_SURE):
        least = 0.0
    kept = ranked(findings, least)
    if len(kept) < len(findings):
        st.caption(f"{len(findings) - len(kept)} less sure suggestions are hidden.")
    return kept


def ranked(findings: Sequence[Finding], least: float) -> list[Finding]:
    """The findings of at least `least` confidence, most confident first (ties in report order)."""
    return sorted((f for f in findings if f.confidence >= least), key=lambda f: -f.confidence)


def overview_row(f: Finding, decisions: dict[str, Decision]) -> dict[str, Any]:
    d = decisions.get(finding_key(f))
    return {"finding": words.kind(f.kind), "seat": words.who(f).removeprefix("seats ").removeprefix("seat "),
            "candidate": "" if f.candidate is None else str(f.candidate), "t (s)": words.number(f.t),
            "clause": f.clause or "—", "consequence": words.consequence_text(f.consequence),
            "confidence": words.number(f.confidence),
            "decision": f"{words.status(d.status)} ({d.who})" if d else "open"}


def _problems(game: Game) -> None:
    """The protocol's own problems (format, or the game against its rules), so the judge sees why."""
    if not game.problems:
        return
    head = "The protocol's format is broken" if "protocol" in game.notes else "The protocol disagrees with the rules"
    with st.expander(f"{head}: {len(game.problems)} problem(s)", expanded="protocol" in game.notes):
        st.markdown("\n".join(f"- {md(words.humanise(p.message))} ({md(words.json_place(p.path))})"
                               + (f" ({p.clause})" if p.clause else "") for p in game.problems[:50]))


def round_rows(game: Game, rnd: VoteRound) -> list[dict[str, Any]]:
    """The round's candidates: the protocol's count beside the audit's count (review.audit.tally), in words."""
    rows = []
    for w in rnd.windows:
        ev = game.data["events"][w.event_index]
        row = find_row(game.votes, w.day, w.round, w.candidate if w.kind == "vote" else None, w.kind)
        t = tally(row)
        rows.append({
            "candidate": str(w.candidate) if w.kind == "vote" else "lift " + " ".join(map(str, w.candidates)),
            "nickname": game.players.get(w.candidate, "") if w.kind == "vote" else "",
            "protocol count": words.number(ev.get("count")) or "—",
            "video count": t.count_text if row else "not analysed",
            "count mismatch": "yes" if t.mismatch else "",
            "protocol voters": words.seat_list(ev.get("voters")) if ev.get("voters") is not None else "not listed",
            "hands seen in time": words.seat_list(t.hands_seen) if row else "",
            "named · Stop · count (s)": " · ".join(words.number(x) or "—" for x in (w.t, w.cutoff, w.announced)),
            "assumed": words.assumed(w.assumed),
            "_how": t.breakdown() if row else "",
        })
    return rows


def _round_tables(game: Game, rnd: VoteRound) -> None:
    rows = round_rows(game, rnd)
    st.dataframe(pd.DataFrame([{k: v for k, v in r.items() if k != "_how"} for r in rows]), hide_index=True,
                 width="stretch")
    st.caption("How the video counts (the same count the findings, the outcome and the exports use):  \n" + "  \n".join(
        f"{md(r['candidate'] if r['candidate'].startswith('lift') else 'candidate ' + r['candidate'])}: "
        f"{md(r['video count'])} — {md(r['_how'])}" for r in rows if r["_how"]))
    with st.expander("Each seat in this round: hands seen, relative to the judge's call of the nearest candidate"):
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
            whose = f"candidate {w.candidate}'s call" if w is not None and w.kind == "vote" else "the lift vote's call"
            rel = f"{float(h['on']) - w.t:+.2f} s of {whose}" if w else f"at {float(h['on']):.2f} s"
            seen.append(f"{words.pose(h.get('pose', 'hand'))} on {rel}, off {float(h['off']) - (w.t if w else 0):+.2f} s")
        zone = game.seat_map is None or seat in game.seat_map.seats
        rows.append({"seat": seat, "nickname": game.players.get(seat, ""),
                     "protocol lists a vote for": words.seat_list(listed.get(seat, [])),
                     "video shows": "; ".join(seen) if seen else ("no hand" if zone else "cannot see (no zone)")})
    return rows


def _recomputed(game: Game, rnd: VoteRound, decisions: dict[str, Decision]) -> None:
    """The round's outcome by the protocol, by the video, and after the judge's decisions."""
    out = next((v.outcome for v in game.votes if v.day == rnd.day and v.round == rnd.round), None)
    st.subheader("Outcome")
    lines = []
    if out:
        lines.append(f"- protocol: **{md(words.vote_outcome_text(out.protocol))}**")
        lines.append(f"- video: **{md(words.vote_outcome_text(out.video))}**" + (" — differs" if out.changed else ""))
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
            lines.append(f"- after your decisions: **{md(words.humanise(after.text))}** (counts: {words.counts_text(counts)})")
    st.markdown("\n".join(lines) if lines else "No outcome to show yet.")


def night_rows(game: Game) -> list[dict[str, Any]]:
    """One row per shooting and check the audit looked at: what the protocol records and what the video shows."""
    rows = []
    nights = game.audit.extra.get("x_nights") if game.audit is not None else None  # the night audit's own rows
    for r in nights or []:
        if r.get("kind") == "shooting":
            what = "shooting"
            protocol = "miss" if r.get("protocol_target") is None else f"seat {r['protocol_target']} killed"
            outcome = r.get("video_outcome")
            video = {"kill": f"seat {r.get('video_target') or '?'} killed", "undetermined": "cannot tell (a black seat unseen)",
                     None: "—"}.get(outcome, f"miss: {outcome}")
        else:
            what = f"check by the {r.get('by') or 'checker'}" + (f" (seat {r['seat']})" if r.get("seat") is not None else "")
            protocol = "—" if r.get("protocol_target") is None else f"seat {r['protocol_target']}"
            video = "—" if r.get("video_number") is None else f"shows {r['video_number']}"
        rows.append({"night": r.get("night"), "what": what, "from (s)": words.number(r.get("start")),
                     "to (s)": words.number(r.get("end")), "protocol": protocol, "video": words.humanise(video),
                     "note": words.humanise(r.get("note") or "")})
    return rows


def _other_findings(game: Game, shown: set[tuple[int, int]], decisions: dict[str, Decision] | None = None,
                    findings: Sequence[Finding] | None = None) -> None:
    rest = [f for f in (game.findings if findings is None else findings) if (f.day, f.round) not in shown]
    nights = night_rows(game)
    if nights:
        st.subheader("Nights: the shootings and checks")
        st.table(pd.DataFrame(nights).set_index("night"))  # a static table: the interactive ones select findings
    if not rest:
        return
    decisions = decisions if decisions is not None else state.store().decisions(game.game_id)
    st.subheader(f"Night and other findings ({len(rest)})")
    finding_cards(game, rest, decisions)
