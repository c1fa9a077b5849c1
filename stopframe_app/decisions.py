"""A finding as the judge sees it: what, where, which clause, the evidence frame, and confirm / reject / edit.

Every decision goes through review.cases.store with the version the judge was looking at, so a second judge
who decided meanwhile is never silently overwritten: the store's ConflictError is shown instead.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import streamlit as st

from contract.errors import StopframeError
from contract.i18n import _
from review.audit.findings import Finding, finding_key
from review.audit.tally import VoteTally, find_row, tally
from review.cases.store import ConflictError, Decision
from review.game.clause_text import sentence
from review.game.profiles import CONSEQUENCE_TYPES, rule_words
from review.game.protocol import resolve_camera_path
from stopframe_app import state, words
from stopframe_app.game import Game
from stopframe_app.words import md

FLASH = "flash"
FRAMES_VIEW = "Timeline & frames"
# the labels of the files a game reads, shown through the catalogue (term("input", ...)) by contract.outputs
INPUTS = ("the protocol", "the video", "the observations", "the seat map", "a camera's video")


def game_inputs(game: Game, seats: bool = True) -> list[tuple[str, str]]:
    """Every file the open game reads, each with what it is, for contract.outputs.check_output: a file the app
    writes is never one of them (the protocol, the video and each camera's video, the observations, and, unless
    the write is a seat map meant to replace it, the seat map)."""
    spec = game.spec
    named = [(spec.protocol, INPUTS[0]), (spec.video, INPUTS[1]), (spec.observations, INPUTS[2])]
    if seats:
        named.append((spec.seats, INPUTS[3]))
    for camera in game.cameras:
        try:
            named.append((str(resolve_camera_path(game.protocol, camera, "path")), INPUTS[4]))
        except StopframeError:
            continue
    return [(str(path), what) for path, what in named if path]


def flash(kind: str, message: str, where: str = "page") -> None:
    """Keep a message for the control at `where` (a card's key, a form's key) to show beside it."""
    st.session_state.setdefault(FLASH, []).append((kind, message, where))


def show_flash(where: str = "page", into: Any = None) -> None:
    """Show (and forget) the messages kept for the control at `where`, right where this is called; a
    success is also a toast, so it is seen wherever the page has scrolled to."""
    kept = st.session_state.get(FLASH, [])
    mine = [m for m in kept if (m[2] if len(m) > 2 else "page") == where]
    if not mine:
        return
    st.session_state[FLASH] = [m for m in kept if m not in mine]
    box = into if into is not None else st
    for kind, message, *_where in mine:
        if kind == "error":
            box.error(message)
        elif kind == "warning":
            box.warning(message)
        else:
            box.success(message)
            st.toast(message)


def title(f: Finding, players: dict[int, str]) -> str:
    """The card's heading: what, whom or what it is about (review.audit.findings.about: a miscount is about the
    count, never a seat), where."""
    name = players.get(f.seat) if f.seat is not None else None
    return f"{words.kind(f.kind)} — {words.who(f)}{f' ({md(name)})' if name else ''} — {words.where(f)}"


def plain_title(f: Finding) -> str:
    """The finding in words without markdown escapes (for saved messages and evidence labels)."""
    return f"{words.kind(f.kind)} — {words.who(f)} — {words.where(f)}"


def evidence_frames(game: Game, f: Finding, most: int = 2) -> list[int]:
    """The frames that show the finding: first the one the audit chose (Finding.frame), then its other evidence
    (e.g. the «Стоп» frame before a late hand)."""
    first = evidence_frame(game, f)
    rest = [int(x) for x in f.evidence.frames if int(x) != first]
    return ([first] if first is not None else []) + rest[: max(0, most - 1)]


def evidence_frame(game: Game, f: Finding) -> int | None:
    """The finding's frame, chosen once by the audit (Finding.frame): the card shows it, the viewer steps to it, a
    decision records it; only a finding with no frames at all falls back to the frame at its time."""
    if f.frame is not None:
        return f.frame
    if f.t is not None and game.video_meta is not None:
        with state.video(game) as source:
            return source.index_at(float(f.t))
    return None


def no_name() -> str:
    """Why a decision is not saved without a name."""
    return _("Enter your name first (in the sidebar, under «Your name»): every decision records who made it.")


def _decide(game_id: str, finding: Finding, status: str, version: int, reason_key: str,
            edited: dict[str, Any] | None = None, where: str = "page", default_reason: str = "") -> None:
    """Button callback: store the decision, or say what is missing (a name, a reason) or who was first —
    beside the buttons of this finding's card (`where`)."""
    who = state.judge_name()
    reason = str(st.session_state.get(reason_key) or "").strip()
    missing = []
    if not who:
        missing.append(no_name())
    if not reason and status == "confirmed" and default_reason:
        reason = default_reason
    if not reason:
        missing.append(_("Write the reason first (the «reason» box above): why is it {status}?",
                         status=words.status(status)))
    if missing:
        flash("error", " ".join(missing), where)
        return
    try:
        state.store().decide(game_id, finding, status, reason=reason, who=who, expected_version=version, edited=edited)
    except ConflictError as exc:
        flash("error", words.md(str(exc)), where)
    except StopframeError as exc:
        flash("error", words.md(str(exc)), where)
    else:
        flash("success", words.t("Saved: {finding} — {status} by {who}.", finding=plain_title(finding),
                                 status=words.status(status), who=who), where)


def _withdraw(game_id: str, finding: Finding, version: int, reason_key: str, where: str = "page") -> None:
    who = state.judge_name()
    if not who:
        flash("error", no_name(), where)
        return
    try:
        state.store().withdraw(game_id, finding, reason=str(st.session_state.get(reason_key) or _("reopened")), who=who,
                               expected_version=version)
    except StopframeError as exc:
        flash("error", words.md(str(exc)), where)
    else:
        flash("success", words.t("Reopened: {finding}.", finding=plain_title(finding)), where)


def _edit(game_id: str, finding: Finding, version: int, key: str, where: str = "page") -> None:
    s = st.session_state
    edited: dict[str, Any] = {}
    if finding.seat is not None and s.get(f"{key}_seat") != finding.seat:
        edited["seat"] = int(s[f"{key}_seat"])
    cons = finding.consequence
    ctype = s.get(f"{key}_ctype")
    points = s.get(f"{key}_points")
    change: dict[str, Any] = {}
    if ctype != cons.type:
        change["type"] = ctype
    if ctype == "fine" and points != cons.points:
        change["points"] = float(points)
    if change:
        edited["consequence"] = change
    if s.get(f"{key}_clause", "") != (finding.clause or ""):
        edited["clause"] = s.get(f"{key}_clause")
    if finding.kind == "count_mismatch" and s.get(f"{key}_count") is not None:
        edited["count"] = int(s[f"{key}_count"])
    if not edited:
        flash("error", _("Nothing was changed: edit a field, or confirm the finding as it is."), where)
        return
    _decide(game_id, finding, "edited", version, f"{key}_reason", edited, where)


def card_key(finding: Finding) -> str:
    """Widget keys of a finding's card, stable by the finding's identity (not its place in a list)."""
    return "f" + hashlib.sha1(finding_key(finding).encode()).hexdigest()[:12]


def _tally(game: Game, f: Finding) -> VoteTally:
    """The count of the finding's vote, as review.audit.tally gives it on the round's table."""
    return tally(find_row(game.votes, f.day, f.round, f.candidate))


def _video_count(game: Game, f: Finding) -> int:
    """The count a correction would write: the audit's estimate (the same number the table shows)."""
    if f.extra.get("x_video_count") is not None:
        return int(f.extra["x_video_count"])
    return int(_tally(game, f).estimate or 0)


def finding_cards(game: Game, findings: Sequence[Finding], decisions: dict[str, Decision]) -> None:
    seen: dict[str, int] = {}
    for f in findings:
        key = card_key(f)
        seen[key] = seen.get(key, 0) + 1
        finding_card(game, f, decisions, key if seen[key] == 1 else f"{key}_{seen[key]}")


def finding_card(game: Game, f: Finding, decisions: dict[str, Decision], key: str) -> None:
    """One finding with its evidence frame and the decision buttons (`key` prefixes its widgets' keys);
    what the buttons answer is shown right under them."""
    from stopframe_app.viewer import render_frame

    fkey = finding_key(f)
    d = decisions.get(fkey)
    version = d.version if d else 0
    cons = f.consequence
    with st.container(border=True):
        status = (words.t("**{status}** by {who} — {reason}", status=words.status(d.status), who=d.who, reason=d.reason)
                  if d else words.status("open"))
        st.markdown(f"**{title(f, game.players)}**  \n{status}")
        left, right = st.columns([3, 2])
        frame = evidence_frame(game, f)
        shown = evidence_frames(game, f) if game.video_meta is not None else []
        pictures = [render_frame(game, index) for index in shown]
        if pictures:
            jpeg, caption = pictures[0]
            left.image(jpeg, caption=caption, width="stretch")
            with left.expander(words.t("Enlarge the frames") if len(pictures) > 1 else words.t("Enlarge the frame")):
                for jpeg, caption in pictures:
                    st.image(jpeg, caption=caption, width="stretch")
        else:
            left.info(words.md(game.notes.get("video") or "") or words.t("No frame to show: the game has no readable video."))
        digest = rule_words(cons.text)  # our digest of the rule, in the reader's language
        lines = [f"- {words.t('clause')}: `{f.clause or '—'}`",
                 "- " + words.t("consequence: {consequence}", consequence=words.consequence_text(cons))
                 + (f" — {md(digest)}" if digest else ""),
                 "- " + words.t("confidence: {confidence}", confidence=words.number(f.confidence))]
        quote = sentence(f.clause)
        if quote:
            lines.append("- " + words.t("the rulebook, {clause}: «{text}»", clause=f.clause, text=quote))
        if f.candidate is not None and f.day is not None:
            t = _tally(game, f)
            if t.known:
                lines.append("- " + words.t("count for candidate {candidate}: protocol {protocol}, video {video} ({how})",
                                            candidate=f.candidate, protocol=t.protocol if t.protocol is not None else "—",
                                            video=t.count_text, how=words.breakdown(t)))
        if f.assumed_times:
            lines.append("- " + words.t("assumed times: {times}", times=words.assumed(f.assumed_times)))
        if f.extra.get("x_text"):
            lines.append(f"- {md(words.said(f))}")
        right.markdown("\n".join(lines))
        if frame is not None:
            right.button(words.t("Step through it in the frame viewer"), key=f"{key}_go", on_click=state.go_to_frame,
                         args=(frame, FRAMES_VIEW))
        reason_key = f"{key}_reason"
        default_reason = _("Seen on video at frame {frame}", frame=frame) if frame is not None else _("Seen on video")
        right.text_input(words.t("reason"), **state.kept_box(reason_key),
                         placeholder=_("{reason} (needed to reject or edit)", reason=default_reason))
        b1, b2, b3 = right.columns(3)
        b1.button(words.t("Confirm"), key=f"{key}_confirm", type="primary", on_click=_decide,
                  args=(game.game_id, f, "confirmed", version, reason_key, None, key, default_reason))
        b2.button(words.t("Reject"), key=f"{key}_reject", on_click=_decide,
                  args=(game.game_id, f, "rejected", version, reason_key, None, key))
        if d is not None:
            b3.button(words.t("Reopen"), key=f"{key}_reopen", on_click=_withdraw, args=(game.game_id, f, version, reason_key, key))
        show_flash(key, into=right)
        with right.expander(words.t("Edit")):
            if f.seat is not None:
                st.number_input(words.t("seat"), 1, 10, value=int(f.seat), key=f"{key}_seat")
            types = list(CONSEQUENCE_TYPES)
            st.selectbox(words.t("consequence"), types, index=types.index(cons.type) if cons.type in types else 0,
                         key=f"{key}_ctype", format_func=words.consequence)
            st.number_input(words.t("points (fines)"), -2.0, 0.0, value=float(cons.points or 0.0), step=0.1, key=f"{key}_points")
            st.text_input(words.t("clause"), value=f.clause or "", key=f"{key}_clause")
            if f.kind == "count_mismatch":
                st.number_input(words.t("correct count"), 0, 10, value=_video_count(game, f), key=f"{key}_count")
            st.button(words.t("Save edit"), key=f"{key}_edit", on_click=_edit, args=(game.game_id, f, version, key, key))
