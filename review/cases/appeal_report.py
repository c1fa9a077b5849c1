"""The case file of an appeal as one self-contained HTML page (and a PDF of it where Chromium is installed).

Why self-contained: the report is mailed to a federation's rules committee and archived with the
tournament; it must open anywhere, years later, with its key frames inside. Every value is escaped
(nicknames and statements are typed by anyone).
"""

from __future__ import annotations

import html
import time
from collections.abc import Mapping, Sequence
from typing import Any

from contract.i18n import _, term
from review.audit.findings import VoteReport
from review.audit.tally import tally
from review.cases.appeal_store import Amendment
from review.cases.appeals import AppealCase, Check, Decision, ground_name, grounds_for
from review.cases.exports import KeyFrame, figure, finding_said, nicknames, page_end, page_head
from review.game.profiles import get_profile


def _when(t: float | None) -> str:
    return "" if t is None else time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))


def _rows(pairs: Sequence[tuple[str, Any]]) -> str:
    e = html.escape
    return "<table>" + "".join(f"<tr><th>{e(k)}</th><td>{e('' if v is None else str(v))}</td></tr>"
                               for k, v in pairs) + "</table>"


def _decision_rows(d: Decision) -> str:
    return _rows([(_("decision"), d.summary), (_("reasoning"), d.reasoning), (_("decided by"), d.decided_by),
                  (_("decided at"), _when(d.decided_at)), (_("chief judge agrees"), _("yes") if d.chief_judge_agrees else _("no"))])


def _appellant(who: str, protocol: Mapping[str, Any] | None) -> str:
    """Who appealed as the case file names him: a seat typed as its number is said as the seat and the player's
    nickname from the protocol («место 8 — Ворон»); any other text as typed."""
    text = who.strip()
    if not (text.isdigit() and 1 <= int(text) <= 10):
        return who
    name = nicknames(protocol).get(int(text))
    return _("seat {seat} — {nickname}", seat=int(text), nickname=name) if name else _("seat {seat}", seat=int(text))


def appeal_html(case: AppealCase, *, title: str, protocol: Mapping[str, Any] | None,
                checks: Sequence[Check] = (), amendments: Sequence[Amendment] = (),
                key_frames: Mapping[int, Sequence[KeyFrame]] | None = None) -> str:
    """The whole case: the appeal, its grounds, evidence with frames, statements, checks, decision, amendments.
    `key_frames` maps an evidence item's position to its frames."""
    e = html.escape
    ground = next((g for g in grounds_for(case.profile) if g.clause == case.ground), None)
    parts = page_head(_("Appeal {case} — {title}", case=case.case_id, title=title), protocol)
    parts.append(f"<h2>{e(_('The appeal'))}</h2>")
    window = get_profile(case.profile).appeal_window  # the case's own rulebook: a deadline, or that none is written
    deadline = f"{_when(case.deadline)} ({_('in time') if case.filed_in_time else _('late')})" if case.deadline \
        else _(window.text)
    parts.append(_rows([
        (_("appellant"), _appellant(case.appellant, protocol)), (_("claim"), case.claim),
        (_("grounds"), f"{ground_name(case.ground)} — {_(ground.text) if ground else ''}"),
        (_("opened from"), (case.opened_from or {}).get("label")),
        (_("game ended"), _when(case.game_ended_at)), (_("filed"), _when(case.filed_at)),
        (_("filing deadline ({clause})", clause=window.clause), deadline), (_("status"), term("status", case.status)),
    ]))
    parts.append(f"<h2>{e(_('Evidence ({n})', n=len(case.evidence)))}</h2>")
    for i, item in enumerate(case.evidence):
        parts.append(f"<section><h3>{e(term('evidence', item.kind))}: {e(item.label)}</h3>")
        if item.data:
            parts.append(_rows(_evidence_pairs(item.data)))
        parts += [figure(kf) for kf in (key_frames or {}).get(i, ())]
        parts.append("</section>")
    parts.append(f"<h2>{e(_('Statements'))}</h2>")
    parts.append(_rows([(_("side judge"), case.side_judge_statement or "—"),
                        (_("table judge"), case.table_judge_statement or "—")]))
    if case.profile == "showtime":
        parts.append(_rows([(_("club member"), _("yes") if case.club_member else _("no")),
                            (_("voted to accept the protest"), ", ".join(map(str, case.protest_votes_for)) or "—")]))
    if checks:
        parts.append(f"<h2>{e(_('Preconditions'))}</h2><table><tr>"
                     + "".join(f"<th>{e(_(h))}</th>" for h in ("clause", "check", "met")) + "</tr>")
        parts += [f'<tr class="{"ok" if c.ok else "fail"}"><td>{e(c.clause or "")}</td><td>{e(c.text)}</td>'
                  f"<td>{e(_('yes') if c.ok else _('no') if c.blocking else _('no (advisory)'))}</td></tr>" for c in checks]
        parts.append("</table>")
    parts.append(f"<h2>{e(_('Decision'))}</h2>")
    parts.append(_decision_rows(case.decision) if case.decision else f"<p>{e(_('Not decided yet.'))}</p>")
    for n, a in enumerate(amendments, 1):
        parts.append(f"<h3>{e(_('Amendment {n} ({at}, {who})', n=n, at=_when(a.at), who=a.who))}</h3>" + _decision_rows(a.decision))
    return page_end(parts)


def _evidence_pairs(data: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The readable fields of an attached finding, vote or event (no internal x_ fields)."""
    keep = ("kind", "type", "day", "night", "round", "candidate", "candidates", "seat", "seats", "t", "clause",
            "protocol_count", "video_count", "video_voters", "silent_seats", "count", "target", "x_text")
    pairs = []
    for k in keep:
        v = data.get(k)
        if k == "video_count" and data.get("kind") in ("vote", "lift") and "video_voters" in data:
            v = tally(VoteReport.from_json(dict(data))).count_text  # the count every surface shows, not hands seen
        if v not in (None, [], ""):
            if k == "x_text":  # the finding's sentence in the reader's language
                pairs.append((_("what the video shows"), finding_said(data)))
            else:
                pairs.append((term("field", k), " ".join(map(str, v)) if isinstance(v, list) else v))
    cons, out = data.get("consequence"), data.get("outcome")
    if isinstance(cons, Mapping):
        pairs.append((_("consequence"), cons.get("text") or cons.get("type")))
    if isinstance(out, Mapping):
        pairs.append((_("outcome"), _("by the protocol: {protocol}; by the video: {video}", protocol=out.get("protocol"),
                                      video=out.get("video"))))
    return pairs
