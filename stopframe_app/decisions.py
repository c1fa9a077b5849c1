"""A finding as the judge sees it: what, where, which clause, the evidence frame, and confirm / reject / edit.

Every decision goes through review.store with the version the judge was looking at, so a second judge
who decided meanwhile is never silently overwritten: the store's ConflictError is shown instead.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import streamlit as st

from review.errors import StopframeError
from review.store import ConflictError, Decision, finding_key
from stopframe_app import state
from stopframe_app.game import Game

FLASH = "flash"
FRAMES_VIEW = "Timeline & frames"
CONSEQUENCE_TYPES = ("foul", "fine", "warning", "removal", "not_counted", "counted_for_last", "none")


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:])")


def md(text: object) -> str:
    """Text from a file (a nickname, a note) made inert in Streamlit markdown: no links, no formatting."""
    return _MD_SPECIAL.sub(r"\\\1", str(text)).replace("\n", " ")


def flash(kind: str, message: str) -> None:
    st.session_state.setdefault(FLASH, []).append((kind, message))


def show_flash() -> None:
    for kind, message in st.session_state.pop(FLASH, []):
        (st.error if kind == "error" else st.success)(message)


def title(f: dict[str, Any], players: dict[int, str]) -> str:
    seats = ", ".join(map(str, f.get("seats") or []))
    who = f"seat {f['seat']}" if f.get("seat") is not None else f"seats {seats}" if seats else "the count"
    name = players.get(f.get("seat")) if f.get("seat") is not None else None
    where = (f"night {f.get('night')}" if f.get("night") is not None and f.get("day") is None
             else f"day {f.get('day')} round {f.get('round')}" + (f", candidate {f['candidate']}" if f.get("candidate") else ""))
    return f"{f.get('kind', '').replace('_', ' ')} — {who}{f' ({md(name)})' if name else ''} — {where}"


def evidence_frames(game: Game, f: dict[str, Any], most: int = 2) -> list[int]:
    """The frames that show the finding (the audit's evidence, e.g. the «Стоп» frame and the landing hand),
    else the frame at the finding's time."""
    frames = [int(x) for x in (f.get("evidence") or {}).get("frames") or []][:most]
    if not frames and f.get("t") is not None and game.video_meta is not None:
        with state.video(game) as source:
            frames = [source.index_at(float(f["t"]))]
    return frames


def evidence_frame(game: Game, f: dict[str, Any]) -> int | None:
    """The frame to step to: the one at the finding's time (the hand that landed late), else the first evidence."""
    if f.get("t") is not None and game.video_meta is not None:
        with state.video(game) as source:
            return source.index_at(float(f["t"]))
    frames = evidence_frames(game, f)
    return frames[-1] if frames else None


def _decide(game_id: str, finding: dict[str, Any], status: str, version: int, reason_key: str,
            edited: dict[str, Any] | None = None) -> None:
    """Button callback: store the decision, or say why not (no name, no reason, another judge was first)."""
    who = state.judge_name()
    reason = str(st.session_state.get(reason_key) or "").strip()
    if not who:
        flash("error", "Enter your name in the sidebar first: every decision records who made it.")
        return
    try:
        state.store().decide(game_id, finding, status, reason=reason, who=who, expected_version=version, edited=edited)
    except ConflictError as exc:
        flash("error", str(exc))
    except StopframeError as exc:
        flash("error", str(exc))
    else:
        flash("success", f"Saved: {finding.get('kind')} seat {finding.get('seat')} {status} by {who}.")


def _withdraw(game_id: str, finding: dict[str, Any], version: int, reason_key: str) -> None:
    who = state.judge_name()
    if not who:
        flash("error", "Enter your name in the sidebar first: every decision records who made it.")
        return
    try:
        state.store().withdraw(game_id, finding, reason=str(st.session_state.get(reason_key) or "reopened"), who=who,
                               expected_version=version)
    except StopframeError as exc:
        flash("error", str(exc))
    else:
        flash("success", f"Reopened: {finding.get('kind')} seat {finding.get('seat')}.")


def _edit(game_id: str, finding: dict[str, Any], version: int, key: str) -> None:
    s = st.session_state
    edited: dict[str, Any] = {}
    if finding.get("seat") is not None and s.get(f"{key}_seat") != finding.get("seat"):
        edited["seat"] = int(s[f"{key}_seat"])
    cons = finding.get("consequence") or {}
    ctype = s.get(f"{key}_ctype")
    points = s.get(f"{key}_points")
    change: dict[str, Any] = {}
    if ctype != cons.get("type"):
        change["type"] = ctype
    if ctype == "fine" and points != cons.get("points"):
        change["points"] = float(points)
    if change:
        edited["consequence"] = change
    if s.get(f"{key}_clause", "") != (finding.get("clause") or ""):
        edited["clause"] = s.get(f"{key}_clause")
    if finding.get("kind") == "count_mismatch" and s.get(f"{key}_count") is not None:
        edited["count"] = int(s[f"{key}_count"])
    if not edited:
        flash("error", "Nothing was changed: edit a field, or confirm the finding as it is.")
        return
    _decide(game_id, finding, "edited", version, f"{key}_reason", edited)


def card_key(finding: dict[str, Any]) -> str:
    """Widget keys of a finding's card, stable by the finding's identity (not its place in a list)."""
    return "f" + hashlib.sha1(finding_key(finding).encode()).hexdigest()[:12]


def _video_count(game: Game, f: dict[str, Any]) -> int:
    row = next((v for v in game.votes if v.get("kind") == "vote" and v.get("day") == f.get("day")
                and v.get("round") == f.get("round") and v.get("candidate") == f.get("candidate")), {})
    return int(f.get("x_video_count") or row.get("video_count") or 0)


def finding_cards(game: Game, findings: list[dict[str, Any]], decisions: dict[str, Decision]) -> None:
    seen: dict[str, int] = {}
    for f in findings:
        key = card_key(f)
        seen[key] = seen.get(key, 0) + 1
        finding_card(game, f, decisions, key if seen[key] == 1 else f"{key}_{seen[key]}")


def finding_card(game: Game, f: dict[str, Any], decisions: dict[str, Decision], key: str) -> None:
    """One finding with its evidence frame and the decision buttons (`key` prefixes its widgets' keys)."""
    from stopframe_app.viewer import render_frame

    fkey = finding_key(f)
    d = decisions.get(fkey)
    version = d.version if d else 0
    cons = f.get("consequence") or {}
    with st.container(border=True):
        status = f"**{d.status}** by {md(d.who)} — {md(d.reason)}" if d else "open"
        st.markdown(f"**{title(f, game.players)}**  \n{status}")
        left, right = st.columns([3, 2])
        frame = evidence_frame(game, f)
        shown = evidence_frames(game, f) if game.video_meta is not None else []
        if shown:
            for col, index in zip(left.columns(len(shown)), shown, strict=True):
                jpeg, caption = render_frame(game, index)
                col.image(jpeg, caption=caption, width="stretch")
        else:
            left.info("No frame to show: the game has no readable video.")
        points = "" if cons.get("points") is None else f" ({cons['points']})"
        lines = [f"- clause: `{f.get('clause') or '—'}`",
                 f"- consequence: {cons.get('type')}{points} — {md(cons.get('text') or '')}",
                 f"- confidence: {float(f.get('confidence') or 0):.2f}"]
        if f.get("assumed_times"):
            lines.append(f"- assumed times: {', '.join(f['assumed_times'])}")
        if f.get("x_text"):
            lines.append(f"- {md(f['x_text'])}")
        right.markdown("\n".join(lines))
        if frame is not None:
            right.button("Step through it in the frame viewer", key=f"{key}_go", on_click=state.go_to_frame,
                         args=(frame, FRAMES_VIEW))
        reason_key = f"{key}_reason"
        right.text_input("reason", value=f"Seen on video at frame {frame}" if frame is not None else "Seen on video",
                         key=reason_key)
        b1, b2, b3 = right.columns(3)
        b1.button("Confirm", key=f"{key}_confirm", type="primary", on_click=_decide,
                  args=(game.game_id, f, "confirmed", version, reason_key))
        b2.button("Reject", key=f"{key}_reject", on_click=_decide, args=(game.game_id, f, "rejected", version, reason_key))
        if d is not None:
            b3.button("Reopen", key=f"{key}_reopen", on_click=_withdraw, args=(game.game_id, f, version, reason_key))
        with right.expander("Edit"):
            if f.get("seat") is not None:
                st.number_input("seat", 1, 10, value=int(f["seat"]), key=f"{key}_seat")
            types = list(CONSEQUENCE_TYPES)
            st.selectbox("consequence", types, index=types.index(cons.get("type")) if cons.get("type") in types else 0,
                         key=f"{key}_ctype")
            st.number_input("points (fines)", -2.0, 0.0, value=float(cons.get("points") or 0.0), step=0.1, key=f"{key}_points")
            st.text_input("clause", value=f.get("clause") or "", key=f"{key}_clause")
            if f.get("kind") == "count_mismatch":
                st.number_input("correct count", 0, 10, value=_video_count(game, f), key=f"{key}_count")
            st.button("Save edit", key=f"{key}_edit", on_click=_edit, args=(game.game_id, f, version, key))
