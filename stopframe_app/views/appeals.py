"""Appeals: the chief judge's case file — open a case from a finding or an event, attach the evidence,
record the judges' statements, decide with the profile's preconditions checked, amend, export the report."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import datetime
from typing import Any

import pandas as pd
import streamlit as st

from contract.errors import StopframeError
from contract.jsonio import write_atomic
from review.audit.findings import Finding, VoteReport, finding_key
from review.audit.tally import tally
from review.cases.appeal_report import appeal_html, chromium, write_pdf
from review.cases.appeals import (
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
from review.cases.exports import KeyFrame
from review.cases.store import data_dir
from stopframe_app import state, words
from stopframe_app.decisions import NO_NAME, evidence_frames, flash, md, plain_title, show_flash, title
from stopframe_app.game import Game
from stopframe_app.report import evidence_in_words, header_protocol

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
            out[f"protocol event {i + 1}: {event_words(ev)}"] = {"kind": "event", "index": i, "event": ev}
    return out


def event_words(ev: dict[str, Any]) -> str:
    """A protocol event as a judge says it: `vote, day 1, round 1, candidate 8, count 4`."""
    parts = [str(ev.get("type", "event")).replace("_", " ")]
    for k, v in ev.items():
        if k in ("type", "voters", "t", "cutoff", "announced", "note", "end") or k.startswith("x_") or v in (None, "", []):
            continue
        if isinstance(v, list | tuple):
            v = ", ".join(map(str, v))
        elif isinstance(v, dict):
            continue
        value = words.number(v) if isinstance(v, float) else str(v).replace("_", " ") if isinstance(v, str) else v
        parts.append(f"{k.replace('_', ' ')} {value}")
    return ", ".join(parts)


def vote_row(game: Game, day: int | None, rnd: int | None, candidate: int | None = None) -> VoteReport | None:
    """The audit's row for a vote (with the recomputed outcome), for the case's evidence."""
    return next((v for v in game.votes if v.day == day and v.round == rnd
                 and (candidate is None or v.candidate == candidate)), None)


def evidence_for(game: Game, source: dict[str, Any]) -> tuple[EvidenceItem, ...]:
    """The evidence a case starts with: the finding and its frames, or the event, plus the vote it concerns."""
    items: list[EvidenceItem] = []
    if source["kind"] == "finding":
        f: Finding = source["finding"]
        frames = evidence_frames(game, f) if game.video_meta is not None else []
        items.append(EvidenceItem("finding", plain_title(f), frames[0] if frames else None, f.to_json()))
        items += [EvidenceItem("frame", f"frame {i} ({words.kind(f.kind)})", i) for i in frames[1:]]
        day, rnd, cand = f.day, f.round, f.candidate
    else:
        ev = source["event"]
        items.append(EvidenceItem("event", f"protocol event {source['index'] + 1}: {event_words(ev)}", None, ev))
        day, rnd, cand = ev.get("day"), ev.get("round"), ev.get("candidate")
    row = vote_row(game, day, rnd, cand) if day is not None and rnd is not None else None
    if row is not None:
        items.append(EvidenceItem("vote", vote_label(row), None, row.to_json()))
    return tuple(items)


def vote_label(row: VoteReport) -> str:
    """`day 1, round 1, candidate 8: protocol 4, video 3` — the counts as the Vote audit page gives them."""
    what = f"candidate {row.candidate}" if row.kind == "vote" else "lift vote"
    t = tally(row)
    return (f"day {row.day}, round {row.round}, {what}: protocol "
            f"{t.protocol if t.protocol is not None else '—'}, video {t.count_text}")


def _parse_time(text: str, what: str) -> float:
    try:
        return datetime.strptime(text.strip(), TIME_FORMAT).timestamp()
    except ValueError as exc:
        raise StopframeError(f"{what}: write the time as YYYY-MM-DD HH:MM, not {text!r}.", 1) from exc


def _open_case(game: Game) -> None:
    s = st.session_state
    who = state.judge_name()
    if not who:
        flash("error", NO_NAME, "appeal_open")
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
        flash("error", str(exc), "appeal_open")
        return
    s[CASE] = opened.case_id
    flash("success", f"Case {opened.case_id} opened with {len(opened.evidence)} piece(s) of evidence.", opened.case_id)


def _new_case(game: Game) -> None:
    st.subheader("Open a new case")
    found = sources(game)
    if not found:
        st.info("This game has no findings or events to appeal.")
        return
    options = list(found)
    default = next((i for i, o in enumerate(options) if "count mismatch" in o), 0)
    picked = st.selectbox("Opened from (a finding or an event)", options, index=default, key="appeal_from")
    f: Finding | None = found[picked].get("finding")
    grounds = [f"{g.clause} — {g.text}" for g in grounds_for(game.profile_id)]
    suggested = suggested_ground(game.profile_id, f.kind if f is not None else None)
    st.selectbox("Grounds", grounds, index=next((i for i, g in enumerate(grounds) if g.startswith(suggested + " ")), 0),
                 key=f"appeal_ground_{picked}")
    st.session_state["appeal_ground"] = st.session_state[f"appeal_ground_{picked}"]
    left, right = st.columns(2)
    left.text_input("Who appeals", key="appeal_who", placeholder="seat 4, or the player's name")
    right.selectbox("Appellant's seat", [None, *range(1, 11)], key="appeal_seat",
                    format_func=lambda s: "—" if s is None else f"{s} {game.players.get(s, '')}")
    st.text_area("What the appeal claims", value=f.extra.get("x_text") or "" if f is not None else "", key=f"appeal_claim_{picked}")
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
    show_flash("appeal_open")


def _save(case: AppealCase, where: str, what: str = "Saved", **changes: Any) -> None:
    who = state.judge_name()
    if not who:
        flash("error", NO_NAME, where)
        return
    try:
        state.appeals().save(replace(case, **changes), who=who)
    except StopframeError as exc:
        flash("error", str(exc), where)
    else:
        flash("success", f"{what} (case {case.case_id}).", where)


def _save_statements(case: AppealCase) -> None:
    s, k = st.session_state, case.case_id
    _save(case, f"{k}_save", "The statements are saved", side_judge_statement=str(s.get(f"{k}_side") or ""),
          table_judge_statement=str(s.get(f"{k}_table") or ""), club_member=bool(s.get(f"{k}_member")),
          protest_votes_for=tuple(s.get(f"{k}_protest") or ()))


def _attach(game: Game, case: AppealCase) -> None:
    picked = st.session_state.get(f"{case.case_id}_attach")
    item = attachable(game).get(picked)
    where = f"{case.case_id}_attach"
    if item is None:
        flash("error", "Pick what to attach first (the «Attach more evidence» list).", where)
        return
    _save(case, where, f"Attached: {item.label}", evidence=case.with_evidence(item).evidence)


def attachable(game: Game) -> dict[str, EvidenceItem]:
    """Evidence that can be added: the frame open in the frame viewer (as a still or a clip), any finding or vote."""
    out: dict[str, EvidenceItem] = {}
    if game.video_meta is not None:
        frame = min(state.frame(), game.video_meta.frame_count - 1)
        out[f"frame {frame} (the frame open in the frame viewer)"] = EvidenceItem("frame", f"frame {frame}", frame)
        out[f"clip around frame {frame} (±2 s)"] = EvidenceItem("clip", f"clip around frame {frame}", frame)
    for f in game.findings:
        frames = evidence_frames(game, f) if game.video_meta is not None else []
        out["finding: " + plain_title(f)] = EvidenceItem("finding", plain_title(f), frames[0] if frames else None,
                                                         f.to_json())
    for v in game.votes:
        label = "vote: " + vote_label(v)
        out[label] = EvidenceItem("vote", label, None, v.to_json())
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


MISSING = (  # a precondition's text (review.cases.appeals.checks) -> what the chief judge still has to do
    ("the decision is one of", "Pick a decision."),
    ("the reasoning is written down", "Write the reasoning (the «Reasoning» box)."),
    ("who decided is recorded", "Enter your name first (in the sidebar, under «Your name»)."),
    ("this ground allows", "This ground does not allow that decision: pick {allowed}, or another ground."),
    ("the new result differs", "Pick a new result other than the announced one."),
    ("each adjustment names", "Name the seat (1–10) and a number of points other than 0."),
    ("filed within", "The appeal was filed too late."),
    ("filed ", "The appeal was filed too late ({text})."),
    ("the video of the game or the vote", "Attach the video evidence: a finding, a frame, a clip or the vote."),
    ("a result is changed or replayed only with the video", "Attach the video evidence: a finding, a frame, a clip or the vote."),
    ("the side judge's testimony", "Record the side judge's statement and press «Save the statements»."),
    ("the chief judge agrees", "Tick «The chief judge agrees»."),
    ("only a club member", "Tick «The appellant is a club member» and save the statements (only a member may protest)."),
    ("the table's vote on the protest", "The table's vote does not accept the protest yet ({text})."),
)


def missing_text(c: Any) -> str:
    """What an unmet precondition asks for, as something to do (with its clause)."""
    text = words.humanise(c.text)
    allowed = text.split(":", 1)[1].strip() if ":" in text else ""
    phrase = next((m for start, m in MISSING if c.text.startswith(start)), "Still missing: {text}.")
    return phrase.format(text=text, allowed=allowed) + (f" ({c.clause})" if c.clause else "")


def unmet(game: Game, case: AppealCase, decision: Decision) -> list[str]:
    """Only the blocking preconditions that do not hold, each as what is missing."""
    return [missing_text(c) for c in checks(case, decision, roles(game), protocol_winner(game)) if c.blocking and not c.ok]


def _decide(game: Game, case: AppealCase, prefix: str, amend: bool) -> None:
    who = state.judge_name()
    where = f"{prefix}_go"
    decision = decision_from_form(prefix, who)
    missing = unmet(game, case, decision)
    if missing:
        flash("error", "Not recorded yet. Missing: \n" + "\n".join(f"- {m}" for m in missing), where)
        return
    try:
        if amend:
            state.appeals().amend(case.case_id, decision, roles=roles(game), protocol_winner=protocol_winner(game))
        else:
            state.appeals().decide(case, decision, roles=roles(game), protocol_winner=protocol_winner(game))
    except StopframeError as exc:
        flash("error", words.humanise(str(exc)), where)
    else:
        flash("success", f"Case {case.case_id}: {decision.summary} ({'amended' if amend else 'decided'} by {who}).",
              case.case_id)


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
        (":green[✓ met]" if c.ok else ":red[✗ missing]" if c.blocking else ":orange[! advisory]")
        + f" — {md(words.humanise(c.text) if c.ok or not c.blocking else missing_text(c))}"
        + (f" ({c.clause})" if c.clause and (c.ok or not c.blocking) else "")
        for c in checks(case, draft, roles(game), protocol_winner(game))))
    st.button("Record the amendment" if amend else "Record the decision", key=f"{prefix}_go", type="primary",
              on_click=_decide, args=(game, case, prefix, amend))
    show_flash(f"{prefix}_go")


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
    shown = [replace(c, text=words.humanise(c.text)) for c in shown]
    told = replace(case, evidence=tuple(replace(item, data=evidence_in_words(item.data, item.kind))
                                        for item in case.evidence))  # the file in words; the case itself unchanged
    return appeal_html(told, title=game.title, protocol=header_protocol(game.data), checks=shown,
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
        flash("error", str(exc), f"{case.case_id}_report")
    else:
        flash("success", "Saved: " + ", ".join(paths), f"{case.case_id}_report")


def _evidence(game: Game, case: AppealCase, editable: bool) -> None:
    from stopframe_app.viewer import make_clips, render_frame

    st.subheader(f"Evidence ({len(case.evidence)})")
    for i, item in enumerate(case.evidence):
        with st.container(border=True):
            st.markdown(f"**{item.kind}** — {md(item.label)}")
            if item.data and item.kind == "finding":
                cons = item.data.get("consequence") or {}
                clause = f"{item.data['clause']}: " if item.data.get("clause") else ""
                st.caption(md(f"{clause}{cons.get('text') or words.consequence_text(cons)}. "
                              f"{words.humanise(item.data.get('x_text') or '')}"))
            if item.data and item.kind == "vote":
                vote = VoteReport.from_json(item.data)  # the case file keeps the audit's row as its JSON
                t = tally(vote)
                st.caption(md(f"hands seen in time: {words.seat_list(t.hands_seen)}; the video counts {t.count_text} "
                              f"({t.breakdown()}); outcome by the protocol: {words.vote_outcome_text(vote.outcome.protocol)}, "
                              f"by the video: {words.vote_outcome_text(vote.outcome.video)}"))
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
        show_flash(f"{case.case_id}_attach")


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
        show_flash(f"{k}_save")
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
    show_flash(f"{k}_report")
    with st.expander("History of the case"):
        st.dataframe(pd.DataFrame([{"action": words.ACTIONS.get(h["action"], str(h["action"]).replace("_", " ")),
                                    "who": h["who"], "version": h["version"],
                                    "at": time.strftime("%H:%M:%S", time.localtime(h["at"]))}
                                   for h in state.appeals().history(k)]), hide_index=True)


def render(game: Game) -> None:
    st.header(words.t("Appeals"))
    show_flash()
    cases = state.appeals().cases(game.game_id)
    labels = {c.case_id: f"{c.case_id} · {words.status(c.status)} · {c.appellant} · {c.ground}" for c in cases}
    options = [NEW, *labels]
    if st.session_state.get(CASE) not in options:
        st.session_state[CASE] = cases[-1].case_id if cases else NEW
    picked = st.selectbox("Case", options, key=CASE, format_func=lambda o: labels.get(o, o))
    show_flash(picked)
    if picked == NEW:
        _new_case(game)
    else:
        _case(game, state.appeals().case(picked))
