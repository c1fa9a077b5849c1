"""What the Exports page hands on, in a judge's words: the corrected protocol (review.cases.corrected), the
findings CSV and the HTML report.

Why not review.cases.exports' rows as they are: those carry the audit's codes (`late_vote`, `counted_for_last`),
unrounded times and empty cells where a finding has no seat. The CSV and the report here are built from
the same rows (review.cases.exports.finding_rows), with every value put in words by stopframe_app.words, the
vote counts from review.audit.tally (the same numbers as the Vote audit page), and review.cases.exports' own
formula-safe CSV cells and escaped HTML.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from contract import i18n
from contract.i18n import _
from review.audit.findings import VoteReport
from review.audit.tally import tally
from review.cases import corrected as corrected_mod
from review.cases.exports import KeyFrame, figure, neutralise, nicknames, page_end, page_head
from review.cases.store import Decision
from review.game.profiles import PROFILES
from stopframe_app import words

# The columns by their English names (the keys this module reads cells by); the CSV and the report show them
# from the catalogue.
CSV_HEADER = ("finding", "day", "night", "round", "candidate", "seat", "nickname", "time (s)", "clause",
              "consequence", "points", "what the video shows", "confidence", "decision", "changed by the judge",
              "reason", "decided by", "decided at")


def corrected(data: Mapping[str, Any], decisions: Iterable[Decision], **kw: Any) -> dict[str, Any]:
    """The corrected protocol; decisions it cannot take are left out (and listed in it), never a crash."""
    return corrected_mod.corrected_protocol(data, list(decisions), strict=False, **kw)


def correction_warnings(data: Mapping[str, Any], decisions: Iterable[Decision], votes: Sequence[VoteReport]) -> list[str]:
    """One sentence per confirmed finding the corrected protocol cannot take, to show before the export."""
    return [words.humanise(s) for s in corrected_mod.check_corrections(data, list(decisions), votes=votes)]


def header_protocol(protocol: Mapping[str, Any] | None, profile: str | None = None) -> dict[str, Any]:
    """What a report's head shows of the protocol (its game block and rules), with the keys in words. The rules
    are the rule profile the game was reviewed under (`profile`, named as the sidebar names it), which the judge
    may have picked over the protocol's own: the report names the rulebook its findings cite."""
    game = (protocol or {}).get("game") or {}
    rules = words.profile_label(profile) if profile in PROFILES else (protocol or {}).get("rules", "")
    return {"game": {i18n.term("game_field", k, str(k).replace("_", " ")): v for k, v in game.items()
                     if not isinstance(v, dict | list)}
            if isinstance(game, Mapping) else {}, "rules": rules}


def evidence_in_words(data: Mapping[str, Any] | None, kind: str) -> dict[str, Any] | None:
    """An appeal's evidence item as the case file shows it: the finding or the vote told in words (the
    counts from review.audit.tally, as on the Vote audit page), not the audit's JSON fields."""
    if not data:
        return None
    where = {k: data[k] for k in ("day", "night", "round", "candidate", "seat") if data.get(k) is not None}
    if kind == "vote":
        vote = VoteReport.from_json(dict(data))  # the case file keeps the audit's row as its JSON
        t = tally(vote)
        text = _("protocol count {protocol}, video count {video} ({breakdown}); hands seen in time: {hands}; "
                 "outcome by the protocol: {by_protocol}, by the video: {by_video}",
                 protocol=t.protocol if t.protocol is not None else "—", video=t.count_text, breakdown=words.breakdown(t),
                 hands=words.seat_list(t.hands_seen), by_protocol=words.vote_outcome_text(vote.outcome.protocol),
                 by_video=words.vote_outcome_text(vote.outcome.video))
        return {**where, "x_text": text}
    if kind == "finding":
        cons = data.get("consequence") or {}
        text = "; ".join(x for x in (words.kind(data.get("kind")), words.who(data),
                                     i18n.clause(data.get("clause")),
                                     words.consequence_text(cons), words.said(data)) if x)
        return {**where, "x_text": text}
    return {**where, "x_text": ", ".join(f"{i18n.term('field', k)} {words.humanise(v) if isinstance(v, str) else v}"
                                         for k, v in data.items() if not str(k).startswith("x_")
                                         and v not in (None, "", []) and not isinstance(v, dict | list))}


def csv_rows(rows: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    """review.cases.exports.finding_rows in words: one list of cells per finding, in CSV_HEADER's order."""
    out = []
    for r in rows:
        seat = r.get("seat") if r.get("seat") is not None else r.get("seats")
        out.append([
            words.kind(r.get("kind")), r.get("day"), r.get("night"), r.get("round"), r.get("candidate"),
            words.who(r) if r.get("kind") == "count_mismatch" else seat if seat not in (None, "") else "",
            r.get("nickname"), _rounded(r.get("t")), r.get("clause"), words.consequence(r.get("consequence")),
            r.get("points"), words.said(r, r.get("text")), _rounded(r.get("confidence")),
            words.status(r.get("decision")), _edited(r.get("edited")), r.get("reason"), r.get("who"), r.get("decided_at"),
        ])
    return out


def _rounded(value: Any) -> Any:
    return round(float(value), 2) if isinstance(value, int | float) and not isinstance(value, bool) else value


def _edited(value: Any) -> str:
    return ", ".join(i18n.term("field", p.strip()) for p in str(value).split(",")) if value else ""


def default_separator() -> str:
    """`;` for a Russian reader (Excel in a Russian locale splits a CSV on it), `,` otherwise."""
    return ";" if i18n.language() == "ru" else ","


def findings_csv(rows: Sequence[Mapping[str, Any]], separator: str = ",") -> str:
    """CSV text (UTF-8 BOM so spreadsheets read Cyrillic nicknames), every cell neutralised (spec §5) whichever
    separator splits it. With `;` (Excel in a Russian locale) numbers carry a decimal comma, as that Excel reads
    them; with `,` a decimal point."""
    if separator not in (",", ";"):
        raise ValueError(f"a CSV separator is ',' or ';', not {separator!r}")
    buf = io.StringIO()
    buf.write("\ufeff")
    writer = csv.writer(buf, delimiter=separator, lineterminator="\r\n")
    writer.writerow([_(h) for h in CSV_HEADER])
    for cells in csv_rows(rows):
        writer.writerow(["" if c is None else _cell(neutralise(c), separator) for c in cells])
    return buf.getvalue()


def _cell(value: Any, separator: str) -> Any:
    """A number with the decimal mark the separator's spreadsheet expects (0,94 beside `;`)."""
    if separator == ";" and isinstance(value, float):
        return str(value).replace(".", ",")
    return value


def vote_lines(votes: Sequence[VoteReport]) -> list[list[str]]:
    """The votes table as the Vote audit page shows it: day, round, candidate, protocol, video, how, outcome."""
    out = []
    for v in votes:
        t = tally(v)
        cand = str(v.candidate) if v.kind != "lift" else _("lift {seats}", seats=", ".join(map(str, v.candidates or ())))
        out.append([str(v.day), str(v.round), cand, words.number(v.protocol_count) or "—",
                    t.count_text, words.breakdown(t), f"{words.vote_outcome_text(v.outcome.protocol)} / "
                    f"{words.vote_outcome_text(v.outcome.video)}"])
    return out


def html_report(*, title: str, protocol: Mapping[str, Any] | None, rows: Sequence[Mapping[str, Any]],
                votes: Sequence[VoteReport] = (), key_frames: Mapping[int, Sequence[KeyFrame]] | None = None,
                notes: Sequence[str] = (), profile: str | None = None) -> str:
    """One self-contained HTML page: the game, the rules it was reviewed under, the votes (with the audit's
    counts), every finding with the judge's decision and its key frames. Every value is escaped."""
    e = html.escape
    parts = page_head(title, header_protocol(protocol, profile))
    # Key frames large enough to read the seat numbers.
    parts.append("<style>figure img{max-width:min(100%,56em)}</style>")
    parts += [f"<p>{e(n)}</p>" for n in notes]
    players = nicknames(protocol)
    if players:
        parts.append(f"<h2>{e(_('Players'))}</h2><table><tr><th>{e(_('seat'))}</th><th>{e(_('nickname'))}</th></tr>")
        parts += [f"<tr><td>{e(str(s))}</td><td>{e(n)}</td></tr>" for s, n in sorted(players.items())]
        parts.append("</table>")
    if votes:
        parts.append(f"<h2>{e(_('Votes'))}</h2><table><tr>" + "".join(
            f"<th>{e(_(h))}</th>" for h in ("day", "round", "candidate", "protocol count", "video count",
                                            "how the video counts", "outcome (protocol / video)")) + "</tr>")
        parts += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in line) + "</tr>" for line in vote_lines(votes)]
        parts.append("</table>")
    parts.append(f"<h2>{e(_('Findings ({n})', n=len(rows)))}</h2>")
    if not rows:
        parts.append(f"<p>{e(_('No findings.'))}</p>")
    for i, (r, cells) in enumerate(zip(rows, csv_rows(rows), strict=True)):
        f = {k: r.get(k) for k in ("kind", "day", "night", "round", "candidate", "seat")}
        f["seats"] = str(r.get("seats") or "").split() or None
        nick = f" ({r['nickname']})" if r.get("nickname") else ""
        parts.append(f'<section class="{e(str(r.get("decision")))}">')
        parts.append(f"<h3>{e(words.kind(r.get('kind')))} — {e(words.who(f))}{e(nick)} — {e(words.where(f))}</h3>")
        shown = dict(zip(CSV_HEADER, cells, strict=True))
        parts.append("<table>" + "".join(
            f"<tr><th>{e(_(k))}</th><td>{e(words.number(shown[k]) if isinstance(shown[k], float) else str(shown[k]))}</td></tr>"
            for k in ("time (s)", "clause", "consequence", "points", "what the video shows", "confidence", "decision",
                      "changed by the judge", "reason", "decided by", "decided at")
            if shown[k] not in (None, "")) + "</table>")
        parts += [figure(kf) for kf in (key_frames or {}).get(i, ())]
        parts.append("</section>")
    return page_end(parts)
