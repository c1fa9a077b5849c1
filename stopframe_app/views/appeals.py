"""Appeals: the chief judge's case file — open a case from a finding or an event, attach the evidence,
record the judges' statements, decide with the profile's preconditions checked, amend, export the report."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import datetime
from typing import Any

import pandas as pd
import streamlit as st

from review.appeal_report import appeal_html, chromium, write_pdf
from review.appeals import (
    OUTCOME_TEXT,
    OUTCOMES,
    WINNERS,
    Adjustment,
    AppealCase,
    Decision,
    EvidenceItem,
    checks,
    grounds_for,
    suggested_ground,
)
from review.errors import StopframeError
from review.exports import KeyFrame
from review.jsonio import write_atomic
from review.store import data_dir, finding_key
from stopframe_app import state
from stopframe_app.decisions import evidence_frames, flash, md, show_flash, title
from stopframe_app.game import Game

CASE = "appeal_case"
NEW = "Open a new case"
TIME_FORMAT = "%Y-%m-%d %H:%M"
EVENT_TYPES = ("vote", "lift_vote", "shooting", "check", "nomination", "elimination", "removal", "foul", "result")


def roles(game: Game) -> dict[int, str | None]:
    return {p["seat"]: p.get("role") for p in game.protocol.players if isinstance(p, dict) and "seat" in p}


def protocol_winner(game: Game) -> str | None:
    return next((e.get("winner") for e in reversed(game.data["events"]) if e.get("type") == "result"), None)


def sources(game: Game) -> dict[str, dict[str, Any]]:
    """What a case can be opened from: every finding, then every protocol event worth appealing."""
    out: dict[str, dict[str, Any]] = {}
    for f in game.findings:
        out["finding: " + title(f, game.players)] = {"kind": "finding", "finding": f}
    for i, ev in enumerate(game.data["events"]):
        if ev.get("type") in EVENT_TYPES:
            what = {k: v for k, v in ev.items() if k not in ("type", "voters", "t", "cutoff", "announced", "note")}
            out[f"event {i}: {ev['type']} " + ", ".join(f"{k} {v}" for k, v in what.items())] = {
                "kind": "event", "index": i, "event": ev}
    return out


def vote_row(game: Game, day: Any, rnd: Any, candidate: Any = None) -> dict[str, Any] | None:
    """The audit's row for a vote (with the recomputed outcome), for the case's evidence."""
    return next((v for v in game.votes if v.get("day") == day and v.get("round") == rnd
                 and (candidate is None or v.get("candidate") == candidate)), None)


def evidence_for(game: Game, source: dict[str, Any]) -> tuple[EvidenceItem, ...]:
    """The evidence a case starts with: the finding and its frames, or the event, plus the vote it concerns."""
    items: list[EvidenceItem] = []
    if source["kind"] == "finding":
        f = source["finding"]
        frames = evidence_frames(game, f) if game.video_meta is not None else []
        items.append(EvidenceItem("finding", title(f, {}), frames[0] if frames else None, f))
        items += [EvidenceItem("frame", f"frame {i} ({f.get('kind')})", i) for i in frames[1:]]
        day, rnd, cand = f.get("day"), f.get("round"), f.get("candidate")
    else:
        ev = source["event"]
        items.append(EvidenceItem("event", f"protocol event {source['index']}: {ev['type']}", None, ev))
        day, rnd, cand = ev.get("day"), ev.get("round"), ev.get("candidate")
    row = vote_row(game, day, rnd, cand) if day is not None and rnd is not None else None
    if row is not None:
        what = f"candidate {row['candidate']}" if row.get("kind") == "vote" else "lift vote"
        items.append(EvidenceItem("vote", f"day {day} round {rnd} {what}: protocol {row.get('protocol_count')}, "
                                  f"video {row.get('video_count')}", None, row))
    return tuple(items)


def _parse_time(text: str, what: str) -> float:
    try:
        return datetime.strptime(text.strip(), TIME_FORMAT).timestamp()
    except ValueError as exc:
        raise StopframeError(f"{what}: write the time as YYYY-MM-DD HH:MM, not {text!r}.", 1) from exc


def _open_case(game: Game) -> None:
    s = st.session_state
    who = state.judge_name()
    if not who:
        flash("error", "Enter your name in the sidebar first: every case records who opened it.")
        return
    source = sources(game).get(s.get("appeal_from"))
    try:
        case = AppealCase(
            case_id="", game_id=game.game_id, profile=game.profile_id, appellant=str(s.get("appeal_who") or ""),
            appellant_seat=s.get("appeal_seat"), claim=str(s.get("appeal_claim") or ""),
            ground=str(s.get("appeal_ground") or "").split(" — ")[0],
            filed_at=_parse_time(str(s.get("appeal_filed")), "Filed at"),
            game_ended_at=_parse_time(str(s.get("appeal_ended")), "Game ended at"),
            opened_from={"kind": source["kind"], "label": s.get("appeal_from"),
                         "key": finding_key(source["finding"]) if source["kind"] == "finding" else source["index"]}
            if source else None,
            evidence=evidence_for(game, source) if source else (),
        )
        if not case.appellant.strip():
            raise StopframeError("Say who appeals (a seat or a name).", 1)
        opened = state.appeals().open_case(case, who=who)
    except StopframeError as exc:
        flash("error", str(exc))
        return
    s[CASE] = opened.case_id
    flash("success", f"Case {opened.case_id} opened with {len(opened.evidence)} piece(s) of evidence.")


def _new_case(game: Game) -> None:
    st.subheader("Open a new case")
    found = sources(game)
    if not found:
        st.info("This game has no findings or events to appeal.")
        return
    options = list(found)
    default = next((i for i, o in enumerate(options) if "count mismatch" in o), 0)
    picked = st.selectbox("Opened from (a finding or an event)", options, index=default, key="appeal_from")
    f = found[picked].get("finding")
    grounds = [f"{g.clause} — {g.text}" for g in grounds_for(game.profile_id)]
    suggested = suggested_ground(game.profile_id, f)
    st.selectbox("Grounds", grounds, index=next((i for i, g in enumerate(grounds) if g.startswith(suggested + " ")), 0),
                 key=f"appeal_ground_{picked}")
    st.session_state["appeal_ground"] = st.session_state[f"appeal_ground_{picked}"]
    left, right = st.columns(2)
    left.text_input("Who appeals", key="appeal_who", placeholder="seat 4, or the player's name")
    right.selectbox("Appellant's seat", [None, *range(1, 11)], key="appeal_seat",
                    format_func=lambda s: "—" if s is None else f"{s} {game.players.get(s, '')}")
    st.text_area("What the appeal claims", value=(f or {}).get("x_text") or "", key=f"appeal_claim_{picked}")
    st.session_state["appeal_claim"] = st.session_state[f"appeal_claim_{picked}"]
    now = time.strftime(TIME_FORMAT)
    left.text_input("Game ended at", value=now, key="appeal_ended")
    right.text_input("Appeal filed at", value=now, key="appeal_filed")
    if game.profile_id == "rfm":
        try:
            ends = _parse_time(str(st.session_state["appeal_ended"]), "Game ended at") + 600
            st.caption(f"Filing deadline (rfm 7.3.6, 10 minutes after the game): {time.strftime(TIME_FORMAT, time.localtime(ends))}")
        except StopframeError as exc:
            st.caption(str(exc))
    st.button("Open the case", key="appeal_open", type="primary", on_click=_open_case, args=(game,))


def _save(case: AppealCase, **changes: Any) -> None:
    who = state.judge_name()
    try:
        state.appeals().save(replace(case, **changes), who=who)
    except StopframeError as exc:
        flash("error", str(exc))
    else:
        flash("success", f"Case {case.case_id} saved.")


def _save_statements(case: AppealCase) -> None:
    s, k = st.session_state, case.case_id
    _save(case, side_judge_statement=str(s.get(f"{k}_side") or ""), table_judge_statement=str(s.get(f"{k}_table") or ""),
          club_member=bool(s.get(f"{k}_member")), protest_votes_for=tuple(s.get(f"{k}_protest") or ()))


def _attach(game: Game, case: AppealCase) -> None:
    picked = st.session_state.get(f"{case.case_id}_attach")
    item = attachable(game).get(picked)
    if item is None:
        flash("error", "Pick what to attach.")
        return
    _save(case, evidence=case.with_evidence(item).evidence)


def attachable(game: Game) -> dict[str, EvidenceItem]:
    """Evidence that can be added: the frame open in the frame viewer (as a still or a clip), any finding or vote."""
    out: dict[str, EvidenceItem] = {}
    if game.video_meta is not None:
        frame = state.frame()
        out[f"frame {frame} (open in the frame viewer)"] = EvidenceItem("frame", f"frame {frame}", frame)
        out[f"clip around frame {frame} (±2 s)"] = EvidenceItem("clip", f"clip around frame {frame}", frame)
    for f in game.findings:
        frames = evidence_frames(game, f) if game.video_meta is not None else []
        out["finding: " + title(f, game.players)] = EvidenceItem("finding", title(f, {}), frames[0] if frames else None, f)
    for v in game.votes:
        what = f"candidate {v.get('candidate')}" if v.get("kind") == "vote" else "lift vote"
        label = f"vote: day {v.get('day')} round {v.get('round')} {what}"
        out[label] = EvidenceItem("vote", label, None, v)
    return out


def decision_from_form(prefix: str, who: str) -> Decision:
    s = st.session_state
    outcome = s.get(f"{prefix}_outcome") or OUTCOMES[0]
    adjustments: tuple[Adjustment, ...] = ()
    if outcome == "points_adjusted" and s.get(f"{prefix}_adj_seat") is not None:
        adjustments = (Adjustment(int(s[f"{prefix}_adj_seat"]), float(s.get(f"{prefix}_adj_points") or 0),
                                  str(s.get(f"{prefix}_adj_clause") or "")),)
    return Decision(outcome=outcome, reasoning=str(s.get(f"{prefix}_reasoning") or ""), decided_by=who,
                    chief_judge_agrees=bool(s.get(f"{prefix}_agree")),
                    winner=s.get(f"{prefix}_winner") if outcome == "result_changed" else None,
                    adjustments=adjustments)


def _decide(game: Game, case: AppealCase, prefix: str, amend: bool) -> None:
    who = state.judge_name()
    if not who:
        flash("error", "Enter your name in the sidebar first: the decision records who decided.")
        return
    decision = decision_from_form(prefix, who)
    try:
        if amend:
            state.appeals().amend(case.case_id, decision, roles=roles(game), protocol_winner=protocol_winner(game))
        else:
            state.appeals().decide(case, decision, roles=roles(game), protocol_winner=protocol_winner(game))
    except StopframeError as exc:
        flash("error", str(exc))
    else:
        flash("success", f"Case {case.case_id}: {decision.summary} ({'amended' if amend else 'decided'} by {who}).")


def _decision_form(game: Game, case: AppealCase, prefix: str, amend: bool) -> None:
    outcome = st.radio("Decision", OUTCOMES, key=f"{prefix}_outcome", format_func=lambda o: OUTCOME_TEXT[o],
                       horizontal=True)
    if outcome == "result_changed":
        st.selectbox("New result", WINNERS, key=f"{prefix}_winner")
    if outcome == "points_adjusted":
        a, b, c = st.columns(3)
        a.selectbox("Seat", list(range(1, 11)), key=f"{prefix}_adj_seat")
        b.number_input("Points (+ takes a fine off, − adds one)", -2.0, 2.0, value=-1.2, step=0.1, key=f"{prefix}_adj_points")
        c.text_input("Clause", value=case.ground, key=f"{prefix}_adj_clause")
    st.text_area("Reasoning", key=f"{prefix}_reasoning")
    st.checkbox("The chief judge agrees", key=f"{prefix}_agree")
    draft = decision_from_form(prefix, state.judge_name())
    st.markdown("**Preconditions**  \n" + "  \n".join(
        (":green[✓ met]" if c.ok else ":red[✗ not met]" if c.blocking else ":orange[! advisory]")
        + f" — {md(c.text)}" + (f" ({c.clause})" if c.clause else "")
        for c in checks(case, draft, roles(game), protocol_winner(game))))
    st.button("Record the amendment" if amend else "Record the decision", key=f"{prefix}_go", type="primary",
              on_click=_decide, args=(game, case, prefix, amend))


def key_frames(game: Game, case: AppealCase) -> dict[int, list[KeyFrame]]:
    """Each evidence item's frame as a still for the report (a clip's middle frame)."""
    if game.video_meta is None:
        return {}
    from stopframe_app.viewer import render_frame

    out = {}
    for i, item in enumerate(case.evidence):
        if item.frame is not None:
            jpeg, caption = render_frame(game, item.frame)
            out[i] = [KeyFrame(caption, jpeg)]
    return out


def report_html(game: Game, case: AppealCase) -> str:
    book = state.appeals()
    decision = book.in_force(case.case_id) or case.decision
    shown = checks(case, decision, roles(game), protocol_winner(game)) if decision else []
    return appeal_html(case, title=game.title, protocol=game.data, checks=shown,
                       amendments=book.amendments(case.case_id), key_frames=key_frames(game, case))


def save_report(game: Game, case: AppealCase) -> list[str]:
    """The case report as HTML (and PDF where Chromium is installed) in the data folder."""
    text = report_html(game, case)
    folder = data_dir() / "appeals"
    out = [str(write_atomic(folder / f"{case.case_id}.html", text))]
    if chromium() is not None:
        out.append(str(write_pdf(text, folder / f"{case.case_id}.pdf")))
    return out


def _save_report(game: Game, case: AppealCase) -> None:
    try:
        paths = save_report(game, case)
    except StopframeError as exc:
        flash("error", str(exc))
    else:
        flash("success", "Written: " + ", ".join(paths))


def _evidence(game: Game, case: AppealCase, editable: bool) -> None:
    from stopframe_app.viewer import make_clips, render_frame

    st.subheader(f"Evidence ({len(case.evidence)})")
    for i, item in enumerate(case.evidence):
        with st.container(border=True):
            st.markdown(f"**{item.kind}** — {md(item.label)}")
            if item.data and item.kind == "finding":
                cons = item.data.get("consequence") or {}
                st.caption(f"{item.data.get('clause')}: {cons.get('text', '')} {item.data.get('x_text', '')}")
            if item.data and item.kind == "vote":
                out = item.data.get("outcome") or {}
                st.caption(f"voters on video: {item.data.get('video_voters')}; outcome by the protocol: "
                           f"{out.get('protocol')}, by the video: {out.get('video')}")
            if item.frame is not None and game.video_meta is not None:
                if item.kind == "clip" and st.toggle("play the clip", key=f"{case.case_id}_clip_{i}"):
                    normal, slow = make_clips(game, item.frame)
                    a, b = st.columns(2)
                    a.video(str(normal))
                    b.video(str(slow))
                    b.caption("quarter speed")
                else:
                    jpeg, caption = render_frame(game, item.frame)
                    st.image(jpeg, caption=caption, width=640)
    if editable:
        options = list(attachable(game))
        st.selectbox("Attach more evidence", options, key=f"{case.case_id}_attach")
        st.button("Attach", key=f"{case.case_id}_attach_go", on_click=_attach, args=(game, case))


def _case(game: Game, case: AppealCase) -> None:
    open_ = case.status == "open"
    st.subheader(f"Case {case.case_id} — {'open' if open_ else 'decided (read-only)'}")
    when = "%Y-%m-%d %H:%M"
    lines = [f"- appellant: {md(case.appellant)}" + (f" (seat {case.appellant_seat})" if case.appellant_seat else ""),
             f"- claim: {md(case.claim)}", f"- grounds: `{case.ground}`",
             f"- opened from: {md((case.opened_from or {}).get('label') or '—')}",
             f"- game ended {time.strftime(when, time.localtime(case.game_ended_at))}, appeal filed "
             f"{time.strftime(when, time.localtime(case.filed_at))}"]
    st.markdown("\n".join(lines))
    if case.deadline is not None:
        text = f"Filing deadline (rfm 7.3.6): {time.strftime(when, time.localtime(case.deadline))}"
        (st.success if case.filed_in_time else st.error)(text + (" — filed in time." if case.filed_in_time else " — filed late."))
    _evidence(game, case, open_)
    st.subheader("Statements")
    k = case.case_id
    st.text_area("The side judge's statement", value=case.side_judge_statement, key=f"{k}_side", disabled=not open_)
    st.text_area("The table judge's statement", value=case.table_judge_statement, key=f"{k}_table", disabled=not open_)
    if case.profile == "showtime":
        st.checkbox("The appellant is a club member (showtime ¶42)", value=case.club_member, key=f"{k}_member",
                    disabled=not open_)
        st.multiselect("Seats voting to accept the protest", list(range(1, 11)), default=list(case.protest_votes_for),
                       key=f"{k}_protest", disabled=not open_)
    if open_:
        st.button("Save the statements", key=f"{k}_save", on_click=_save_statements, args=(case,))
        st.subheader("Decision")
        _decision_form(game, case, f"{k}_d", amend=False)
    else:
        st.subheader("Decision")
        st.markdown(f"**{md(case.decision.summary)}** — {md(case.decision.reasoning)}  \n"
                    f"decided by {md(case.decision.decided_by)} at "
                    f"{time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(case.decision.decided_at))}")
        for n, a in enumerate(state.appeals().amendments(k), 1):
            st.markdown(f"Amendment {n}: **{md(a.decision.summary)}** — {md(a.decision.reasoning)} ({md(a.who)})")
        with st.expander("Amend the decision (a new record; the decision above stays)"):
            _decision_form(game, case, f"{k}_a", amend=True)
    st.subheader("Report")
    st.download_button("Download the case report (HTML)", data=report_html(game, case),
                       file_name=f"appeal_{k}.html", mime="text/html", key=f"{k}_dl")
    st.button("Save the report to the data folder" + (" (HTML + PDF)" if chromium() else " (HTML)"),
              key=f"{k}_report", on_click=_save_report, args=(game, case))
    with st.expander("History of the case"):
        st.dataframe(pd.DataFrame([{"action": h["action"], "who": h["who"], "version": h["version"],
                                    "at": time.strftime("%H:%M:%S", time.localtime(h["at"]))}
                                   for h in state.appeals().history(k)]), hide_index=True)


def render(game: Game) -> None:
    st.header("Appeals")
    show_flash()
    cases = state.appeals().cases(game.game_id)
    labels = {c.case_id: f"{c.case_id} · {c.status} · {c.appellant} · {c.ground}" for c in cases}
    options = [NEW, *labels]
    if st.session_state.get(CASE) not in options:
        st.session_state[CASE] = cases[-1].case_id if cases else NEW
    picked = st.selectbox("Case", options, key=CASE, format_func=lambda o: labels.get(o, o))
    if picked == NEW:
        _new_case(game)
    else:
        _case(game, state.appeals().case(picked))
