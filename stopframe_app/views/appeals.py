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
from contract.i18n import _, ngettext, term
from contract.jsonio import write_atomic
from review.audit.findings import Finding, VoteReport, finding_key
from review.audit.tally import tally
from review.cases.appeal_report import appeal_html
from review.cases.appeals import (
    OUTCOMES,
    WINNERS,
    Adjustment,
    AppealCase,
    Decision,
    EvidenceItem,
    checks,
    ground_name,
    grounds_for,
    outcome_words,
    suggested_ground,
)
from review.cases.exports import KeyFrame
from review.cases.pdf import chromium, write_pdf
from review.cases.store import data_dir
from review.game.profiles import get_profile
from stopframe_app import state, words
from stopframe_app.decisions import (
    evidence_frame,
    evidence_frames,
    flash,
    md,
    no_name,
    plain_title,
    show_flash,
    title,
)
from stopframe_app.game import Game
from stopframe_app.report import evidence_in_words, header_protocol

CASE = "appeal_case"
NEW = "new"  # the case picker's option for a new case, shown as «Open a new case»
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
        out[_("finding: {finding}", finding=title(f, game.players))] = {"kind": "finding", "finding": f}
    for i, ev in enumerate(game.data["events"]):
        if ev.get("type") in EVENT_TYPES:
            out[_("protocol event {n}: {event}", n=i + 1, event=event_words(ev))] = {"kind": "event", "index": i, "event": ev}
    return out


def event_words(ev: dict[str, Any]) -> str:
    """A protocol event as a judge says it: `vote, day 1, round 1, candidate 8, count 4`."""
    parts = [term("event", ev.get("type", "event"))]
    for k, v in ev.items():
        if k in ("type", "voters", "t", "cutoff", "announced", "note", "end") or k.startswith("x_") or v in (None, "", []):
            continue
        if isinstance(v, list | tuple):
            v = ", ".join(map(str, v))
        elif isinstance(v, dict):
            continue
        value = words.number(v) if isinstance(v, float) else words.humanise(term(f"event_{k}", v, str(v))) if isinstance(v, str) else v
        parts.append(f"{term('event_field', k)} {value}")
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
        items += [EvidenceItem("frame", _("frame {index} ({kind})", index=i, kind=words.kind(f.kind)), i) for i in frames[1:]]
        day, rnd, cand = f.day, f.round, f.candidate
    else:
        ev = source["event"]
        items.append(EvidenceItem("event", _("protocol event {n}: {event}", n=source["index"] + 1, event=event_words(ev)),
                                  None, ev))
        day, rnd, cand = ev.get("day"), ev.get("round"), ev.get("candidate")
    row = vote_row(game, day, rnd, cand) if day is not None and rnd is not None else None
    if row is not None:
        items.append(EvidenceItem("vote", vote_label(row), None, row.to_json()))
    return tuple(items)


def vote_label(row: VoteReport) -> str:
    """`day 1, round 1, candidate 8: protocol 4, video 3` — the counts as the Vote audit page gives them."""
    what = _("candidate {candidate}", candidate=row.candidate) if row.kind == "vote" else _("lift vote")
    t = tally(row)
    return _("day {day}, round {round}, {what}: protocol {protocol}, video {video}", day=row.day, round=row.round,
             what=what, protocol=t.protocol if t.protocol is not None else "—", video=t.count_text)


def _parse_time(text: str, what: str) -> float:
    try:
        return datetime.strptime(text.strip(), TIME_FORMAT).timestamp()
    except ValueError as exc:
        raise StopframeError(_("{what}: write the time as YYYY-MM-DD HH:MM, not «{text}».", what=what, text=text), 1) from exc


def _open_case(game: Game) -> None:
    s = st.session_state
    who = state.judge_name()
    if not who:
        flash("error", no_name(), "appeal_open")
        return
    source = sources(game).get(s.get("appeal_from"))
    try:
        case = AppealCase(
            case_id="", game_id=game.game_id, profile=game.profile_id, appellant=str(s.get("appeal_who") or ""),
            appellant_seat=s.get("appeal_seat"), claim=str(s.get("appeal_claim") or ""),
            ground=str(s.get("appeal_ground") or ""),
            filed_at=_parse_time(str(s.get("appeal_filed")), _("Appeal filed at")),
            game_ended_at=_parse_time(str(s.get("appeal_ended")), _("Game ended at")),
            opened_from={"kind": source["kind"], "label": s.get("appeal_from"),
                         "key": finding_key(source["finding"]) if source["kind"] == "finding" else source["index"]}
            if source else None,
            evidence=evidence_for(game, source) if source else (),
        )
        if not case.appellant.strip():
            raise StopframeError(_("Say who appeals (a seat or a name)."), 1)
        opened = state.appeals().open_case(case, who=who)
    except StopframeError as exc:
        flash("error", str(exc), "appeal_open")
        return
    s[CASE] = opened.case_id
    flash("success", words.t("Case {case} opened with {evidence}.", case=opened.case_id,
                             evidence=ngettext("{n} piece of evidence", "{n} pieces of evidence", len(opened.evidence))),
          opened.case_id)


def start_at(game: Game, found: dict[str, dict[str, Any]]) -> int:
    """The finding the form starts on: the one the judge is looking at — selected in the Vote audit (while the
    viewer has not moved since), else the one whose frames the viewer shows (within 2 s), else the one selected
    before; without any, the first count mismatch, else the first finding."""
    options = list(found)
    keys = [finding_key(v["finding"]) if v["kind"] == "finding" else None for v in found.values()]
    selected, at_frame = st.session_state.get(state.FINDING) or (None, None)
    if selected in keys and at_frame == state.frame():
        return keys.index(selected)
    if game.video_meta is not None:
        here, reach = state.frame(), max(1, round(2 * game.video_meta.fps))
        near = []  # (from the frame its card steps to, from its nearest evidence frame, its place)
        for k, v in enumerate(found.values()):
            if v["kind"] == "finding":
                step_to = evidence_frame(game, v["finding"])
                frames = [*evidence_frames(game, v["finding"]), *([step_to] if step_to is not None else [])]
                if frames:
                    near.append((abs(here - step_to) if step_to is not None else reach + 1,
                                 min(abs(here - i) for i in frames), k))
        close = min(near, default=None)
        if close is not None and min(close[:2]) <= reach:
            return close[2]
    if selected in keys:
        return keys.index(selected)
    mismatch = words.kind("count_mismatch")
    return next((i for i, o in enumerate(options) if mismatch in o), 0)


def game_day(game: Game, now: datetime) -> datetime:
    """When the game was played, as the form's times start: the protocol's game.date (at the present time of day
    where it gives the date alone), else now — an appeal is often written up after the tournament day."""
    header = game.data.get("game")
    given = str(header.get("date") or "").strip() if isinstance(header, dict) else ""
    try:
        day = datetime.fromisoformat(given)
    except ValueError:
        return now
    return datetime.combine(day.date(), now.time()) if len(given) <= 10 else day.replace(tzinfo=None)


def _new_case(game: Game) -> None:
    st.subheader(words.t("Open a new case"))
    found = sources(game)
    if not found:
        st.info(words.t("This game has no findings or events to appeal."))
        return
    options = list(found)
    picked = st.selectbox(words.t("Opened from (a finding or an event)"), options, index=start_at(game, found),
                          key="appeal_from")
    f: Finding | None = found[picked].get("finding")
    texts = {g.clause: _(g.text) for g in grounds_for(game.profile_id)}  # by clause; "other": no clause of its own
    grounds = list(texts)
    suggested = suggested_ground(game.profile_id, f.kind if f is not None else None)
    st.selectbox(words.t("Grounds"), grounds, index=grounds.index(suggested) if suggested in grounds else 0,
                 key=f"appeal_ground_{picked}",
                 format_func=lambda c: f"{ground_name(c)} — {texts[c]}")
    st.session_state["appeal_ground"] = st.session_state[f"appeal_ground_{picked}"]
    left, right = st.columns(2)
    left.text_input(words.t("Who appeals"), **state.kept_box("appeal_who", ""),
                    placeholder=_("seat 4, or the player's name"))
    right.selectbox(words.t("Appellant's seat"), [None, *range(1, 11)], **state.kept_box("appeal_seat", None),
                    format_func=lambda s: "—" if s is None else f"{s} {game.players.get(s, '')}")
    claim = f"appeal_claim_{picked}"
    st.text_area(words.t("What the appeal claims"), **state.kept_box(claim, words.said(f) if f is not None else ""))
    st.session_state["appeal_claim"] = st.session_state[claim]
    when = game_day(game, datetime.now()).strftime(TIME_FORMAT)
    left.text_input(words.t("Game ended at"), **state.kept_box("appeal_ended", when))
    right.text_input(words.t("Appeal filed at"), **state.kept_box("appeal_filed", when))
    if game.profile_id == "rfm":
        try:
            ends = _parse_time(str(st.session_state["appeal_ended"]), _("Game ended at")) + 600
            st.caption(words.t("Filing deadline (rfm 7.3.6, 10 minutes after the game): {when}",
                               when=time.strftime(TIME_FORMAT, time.localtime(ends))))
        except StopframeError as exc:
            st.caption(words.md(str(exc)))
    st.button(words.t("Open the case"), key="appeal_open", type="primary", on_click=_open_case, args=(game,))
    show_flash("appeal_open")


def _save(case: AppealCase, where: str, what: str, **changes: Any) -> None:
    who = state.judge_name()
    if not who:
        flash("error", no_name(), where)
        return
    try:
        state.appeals().save(replace(case, **changes), who=who)
    except StopframeError as exc:
        flash("error", str(exc), where)
    else:
        flash("success", _("{what} (case {case}).", what=what, case=md(case.case_id)), where)  # `what` is Markdown


def _save_statements(case: AppealCase) -> None:
    s, k = st.session_state, case.case_id
    _save(case, f"{k}_save", _("The statements are saved"), side_judge_statement=str(s.get(f"{k}_side") or ""),
          table_judge_statement=str(s.get(f"{k}_table") or ""), club_member=bool(s.get(f"{k}_member")),
          protest_votes_for=tuple(s.get(f"{k}_protest") or ()))


def _attach(game: Game, case: AppealCase) -> None:
    picked = st.session_state.get(f"{case.case_id}_attach")
    item = attachable(game).get(picked)
    where = f"{case.case_id}_attach"
    if item is None:
        flash("error", _("Pick what to attach first (the «Attach more evidence» list)."), where)
        return
    _save(case, where, _("Attached: {item}", item=md(item.label)), evidence=case.with_evidence(item).evidence)


def attachable(game: Game) -> dict[str, EvidenceItem]:
    """Evidence that can be added: the frame open in the frame viewer (as a still or a clip), any finding or vote."""
    out: dict[str, EvidenceItem] = {}
    if game.video_meta is not None:
        frame = min(state.frame(), game.video_meta.frame_count - 1)
        out[_("frame {index} (the frame open in the frame viewer)", index=frame)] = EvidenceItem(
            "frame", _("frame {index}", index=frame), frame)
        out[_("clip around frame {index} (±2 s)", index=frame)] = EvidenceItem(
            "clip", _("clip around frame {index}", index=frame), frame)
    for f in game.findings:
        frames = evidence_frames(game, f) if game.video_meta is not None else []
        out[_("finding: {finding}", finding=plain_title(f))] = EvidenceItem("finding", plain_title(f), frames[0] if frames else None,
                                                         f.to_json())
    for v in game.votes:
        label = _("vote: {where}", where=vote_label(v))
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


def missing_text(c: Any) -> str:
    """What an unmet precondition (review.cases.appeals.Check, by its code) asks for, as something to do (with its
    clause)."""
    text = words.humanise(c.text)
    allowed = text.split(":", 1)[1].strip() if ":" in text else ""
    todo = {
        "outcome": _("Pick a decision."),
        "reasoning": _("Write the reasoning (the «Reasoning» box)."),
        "decided_by": _("Enter your name first (in the sidebar, under «Your name»)."),
        "ground_allows": _("This ground does not allow that decision: pick {allowed}, or another ground.", allowed=allowed),
        "new_result": _("Pick a new result other than the announced one."),
        "adjustment": _("Name the seat (1–10) and a number of points other than 0."),
        "in_time": _("The appeal was filed too late."),
        "late": _("The appeal was filed too late ({text}).", text=text),
        "video": _("Attach the video evidence: a finding, a frame, a clip or the vote."),
        "side_judge": _("Record the side judge's statement and press «Save the statements»."),
        "chief_agrees": _("Tick «The chief judge agrees»."),
        "club_member": _("Tick «The appellant is a club member» and save the statements (only a member may protest)."),
        "protest_vote": _("The table's vote does not accept the protest yet ({text}).", text=text),
    }
    phrase = todo.get(c.code) or _("Still missing: {text}.", text=text)
    return phrase + (f" ({c.clause})" if c.clause else "")


def unmet(game: Game, case: AppealCase, decision: Decision) -> list[str]:
    """Only the blocking preconditions that do not hold, each as what is missing."""
    return [missing_text(c) for c in checks(case, decision, roles(game), protocol_winner(game)) if c.blocking and not c.ok]


def _decide(game: Game, case: AppealCase, prefix: str, amend: bool) -> None:
    who = state.judge_name()
    where = f"{prefix}_go"
    decision = decision_from_form(prefix, who)
    missing = unmet(game, case, decision)
    if missing:
        flash("error", _("Not recorded yet. Missing:") + " \n" + "\n".join(f"- {md(m)}" for m in missing), where)
        return
    try:
        if amend:
            state.appeals().amend(case.case_id, decision, roles=roles(game), protocol_winner=protocol_winner(game))
        else:
            state.appeals().decide(case, decision, roles=roles(game), protocol_winner=protocol_winner(game))
    except StopframeError as exc:
        flash("error", words.humanise(str(exc)), where)
    else:
        done = (_("Case {case}: {decision} (amended by {who}).", case=case.case_id, decision=decision.summary, who=who)
                if amend else
                _("Case {case}: {decision} (decided by {who}).", case=case.case_id, decision=decision.summary, who=who))
        flash("success", md(done), case.case_id)


def _decision_form(game: Game, case: AppealCase, prefix: str, amend: bool) -> None:
    outcome = st.radio(words.t("Decision"), OUTCOMES, key=f"{prefix}_outcome", format_func=outcome_words,
                       horizontal=True)
    if outcome == "result_changed":
        st.selectbox(words.t("New result"), WINNERS, key=f"{prefix}_winner", format_func=lambda w: term("winner", w))
    if outcome == "points_adjusted":
        a, b, c = st.columns(3)
        a.selectbox(words.t("Seat"), list(range(1, 11)), key=f"{prefix}_adj_seat")
        b.number_input(words.t("Points (+ takes a fine off, − adds one)"), -2.0, 2.0, value=-1.2, step=0.1,
                       key=f"{prefix}_adj_points")
        c.text_input(words.t("Clause"), value="" if case.ground == "other" else case.ground, key=f"{prefix}_adj_clause")
    st.text_area(words.t("Reasoning"), key=f"{prefix}_reasoning")
    st.checkbox(words.t("The chief judge agrees"), key=f"{prefix}_agree")
    draft = decision_from_form(prefix, state.judge_name())
    met, missing, advisory = words.t("✓ met"), words.t("✗ missing"), words.t("! advisory")
    st.markdown(f"**{words.t('Preconditions')}**  \n" + "  \n".join(
        (f":green[{met}]" if c.ok else f":red[{missing}]" if c.blocking else f":orange[{advisory}]")
        + f" — {md(words.humanise(c.text) if c.ok or not c.blocking else missing_text(c))}"
        + (f" ({c.clause})" if c.clause and (c.ok or not c.blocking) else "")
        for c in checks(case, draft, roles(game), protocol_winner(game))))
    st.button(words.t("Record the amendment") if amend else words.t("Record the decision"), key=f"{prefix}_go", type="primary",
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
    return appeal_html(told, title=game.title, protocol=header_protocol(game.data, case.profile),
                       checks=shown, amendments=book.amendments(case.case_id), key_frames=key_frames(game, case))


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
        flash("success", words.t("Saved: {paths}", paths=", ".join(paths)), f"{case.case_id}_report")


def _evidence(game: Game, case: AppealCase, editable: bool) -> None:
    from stopframe_app.viewer import make_clips, render_frame

    st.subheader(words.t("Evidence ({n})", n=len(case.evidence)))
    for i, item in enumerate(case.evidence):
        with st.container(border=True):
            st.markdown(f"**{md(term('evidence', item.kind))}** — {md(item.label)}")
            if item.data and item.kind == "finding":
                cons = item.data.get("consequence") or {}
                clause = f"{item.data['clause']}: " if item.data.get("clause") else ""
                st.caption(md(f"{clause}{words.consequence_text(cons)}. {words.said(item.data)}"))
            if item.data and item.kind == "vote":
                vote = VoteReport.from_json(item.data)  # the case file keeps the audit's row as its JSON
                t = tally(vote)
                st.caption(words.t("hands seen in time: {hands}; the video counts {count} ({how}); outcome by the "
                                   "protocol: {protocol}, by the video: {video}", hands=words.seat_list(t.hands_seen),
                                   count=t.count_text, how=words.breakdown(t),
                                   protocol=words.vote_outcome_text(vote.outcome.protocol),
                                   video=words.vote_outcome_text(vote.outcome.video)))
            if item.frame is not None and game.video_meta is not None:
                if item.kind == "clip" and st.toggle(words.t("play the clip"), key=f"{case.case_id}_clip_{i}"):
                    normal, slow = make_clips(game, item.frame)
                    a, b = st.columns(2)
                    a.video(str(normal))
                    b.video(str(slow))
                    b.caption(words.t("quarter speed"))
                else:
                    jpeg, caption = render_frame(game, item.frame)
                    st.image(jpeg, caption=caption, width=640)
    if editable:
        options = list(attachable(game))
        st.selectbox(words.t("Attach more evidence"), options, key=f"{case.case_id}_attach")
        st.button(words.t("Attach"), key=f"{case.case_id}_attach_go", on_click=_attach, args=(game, case))
        show_flash(f"{case.case_id}_attach")


def _case(game: Game, case: AppealCase) -> None:
    open_ = case.status == "open"
    st.subheader(words.t("Case {case} — {status}", case=case.case_id,
                         status=_("open") if open_ else _("decided (read-only)")))
    when = "%Y-%m-%d %H:%M"
    appellant = case.appellant + (" " + _("(seat {seat})", seat=case.appellant_seat) if case.appellant_seat else "")
    lines = ["- " + words.t("appellant: {who}", who=appellant), "- " + words.t("claim: {claim}", claim=case.claim),
             "- " + words.t("grounds: {ground}", ground=ground_name(case.ground)),
             "- " + words.t("opened from: {source}", source=(case.opened_from or {}).get("label") or "—"),
             "- " + words.t("game ended {ended}, appeal filed {filed}",
                            ended=time.strftime(when, time.localtime(case.game_ended_at)),
                            filed=time.strftime(when, time.localtime(case.filed_at)))]
    st.markdown("\n".join(lines))
    if case.deadline is not None:
        said = {"when": time.strftime(when, time.localtime(case.deadline)),
                "clause": get_profile(case.profile).appeal_window.clause}
        if case.filed_in_time:
            st.success(words.t("Filing deadline ({clause}): {when} — filed in time.", **said))
        else:
            st.error(words.t("Filing deadline ({clause}): {when} — filed late.", **said))
    _evidence(game, case, open_)
    st.subheader(words.t("Statements"))
    k = case.case_id
    st.text_area(words.t("The side judge's statement"), value=case.side_judge_statement, key=f"{k}_side",
                 disabled=not open_)
    st.text_area(words.t("The table judge's statement"), value=case.table_judge_statement, key=f"{k}_table",
                 disabled=not open_)
    if case.profile == "showtime":
        st.checkbox(words.t("The appellant is a club member (showtime ¶42)"), value=case.club_member, key=f"{k}_member",
                    disabled=not open_)
        st.multiselect(words.t("Seats voting to accept the protest"), list(range(1, 11)),
                       default=list(case.protest_votes_for), key=f"{k}_protest", disabled=not open_)
    if open_:
        st.button(words.t("Save the statements"), key=f"{k}_save", on_click=_save_statements, args=(case,))
        show_flash(f"{k}_save")
        st.subheader(words.t("Decision"))
        _decision_form(game, case, f"{k}_d", amend=False)
    else:
        st.subheader(words.t("Decision"))
        st.markdown(f"**{md(case.decision.summary)}** — {md(case.decision.reasoning)}  \n"
                    + words.t("decided by {who} at {when}", who=case.decision.decided_by,
                              when=time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(case.decision.decided_at))))
        for n, a in enumerate(state.appeals().amendments(k), 1):
            st.markdown(words.t("Amendment {n}: **{decision}** — {reasoning} ({who})", n=n, decision=a.decision.summary,
                                reasoning=a.decision.reasoning, who=a.who))
        with st.expander(words.t("Amend the decision (a new record; the decision above stays)")):
            _decision_form(game, case, f"{k}_a", amend=True)
    st.subheader(words.t("Report"))
    st.download_button(words.t("Download the case report (HTML)"), data=report_html(game, case),
                       file_name=f"appeal_{k}.html", mime="text/html", key=f"{k}_dl")
    st.button(words.t("Save the report to the data folder (HTML + PDF)") if chromium()
              else words.t("Save the report to the data folder (HTML)"),
              key=f"{k}_report", on_click=_save_report, args=(game, case))
    show_flash(f"{k}_report")
    with st.expander(words.t("History of the case")):
        st.dataframe(pd.DataFrame([{_("action"): words.ACTIONS.get(h["action"], str(h["action"]).replace("_", " ")),
                                    _("who"): h["who"], _("version"): h["version"],
                                    _("at"): time.strftime("%H:%M:%S", time.localtime(h["at"]))}
                                   for h in state.appeals().history(k)]), hide_index=True)


def render(game: Game) -> None:
    st.header(words.t("Appeals"))
    show_flash()
    cases = state.appeals().cases(game.game_id)
    labels = {c.case_id: f"{c.case_id} · {words.status(c.status)} · {c.appellant} · {ground_name(c.ground)}" for c in cases}
    labels[NEW] = _("Open a new case")
    options = [NEW, *(c.case_id for c in cases)]
    if st.session_state.get(CASE) not in options:
        st.session_state[CASE] = cases[-1].case_id if cases else NEW
    picked = st.selectbox(words.t("Case"), options, key=CASE, format_func=labels.__getitem__)
    show_flash(picked)
    if picked == NEW:
        _new_case(game)
    else:
        _case(game, state.appeals().case(picked))
