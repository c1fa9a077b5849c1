"""The tournament report as people read it: a self-contained HTML page and a formula-safe CSV (spec §5).

Why so careful: the page and the sheet go to organisers and clubs and carry nicknames and judges' names typed
by anyone. Every HTML value is escaped and the page loads nothing (its sorting is a few lines of inline script,
its charts inline SVG); every CSV text cell that a spreadsheet would read as a formula is neutralised
(review.cases.exports.neutralise) and numbers stay numbers. JSON's nulls are worded here, never printed.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Sequence
from typing import Any

from contract.i18n import _, language, moment, ngettext, number, term
from review.audit.findings import FINDING_KINDS
from review.cases.exports import neutralise
from review.cases.tournament import BANDS, Tournament

_SORT_SCRIPT = """
document.querySelectorAll('table.sortable th').forEach(function (th, col) {
  th.addEventListener('click', function () {
    var body = th.closest('table').tBodies[0], up = th.dataset.dir !== 'up';
    th.closest('tr').querySelectorAll('th').forEach(function (o) { delete o.dataset.dir; });
    th.dataset.dir = up ? 'up' : 'down';
    var key = function (tr) { var c = tr.cells[col], v = c.dataset.v !== undefined ? c.dataset.v : c.textContent;
                              var n = parseFloat(v); return isNaN(n) || String(n) !== v.trim() ? v.toLowerCase() : n; };
    Array.from(body.rows).sort(function (a, b) { var x = key(a), y = key(b);
      var r = (typeof x === typeof y) ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === 'number' ? -1 : 1);
      return up ? r : -r; }).forEach(function (tr) { body.appendChild(tr); });
  });
});
"""

_STYLE = (
    "body{font-family:sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse;margin-bottom:1.5em}"
    "td,th{border:1px solid #999;padding:.2em .5em;text-align:left;vertical-align:top}"
    "th{cursor:pointer;background:#eee}th[data-dir=up]::after{content:' \\25B2'}th[data-dir=down]::after{content:' \\25BC'}"
    ".failed{background:#fde2e2}.num{text-align:right}svg text{font-size:12px;font-family:sans-serif}"
)
_BAND_COLOURS = {"high": "#c0392b", "medium": "#e67e22", "low": "#bbbbbb"}


def _e(value: Any) -> str:
    """A value for the page: escaped; null worded; a fraction as the reader writes it (0,5 in Russian)."""
    if value is None:
        return html.escape(_("not given"))
    if isinstance(value, float):
        return html.escape(number(value, 3))
    return html.escape(str(value))


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]], classes: Sequence[str] = ()) -> str:
    """A sortable table (numbers sort as numbers; a null cell sorts as text)."""
    out = ['<table class="sortable"><thead><tr>', *(f"<th>{html.escape(h)}</th>" for h in head), "</tr></thead><tbody>"]
    for i, row in enumerate(rows):
        cls = f' class="{html.escape(classes[i])}"' if i < len(classes) and classes[i] else ""
        cells = []
        for v in row:
            if isinstance(v, int | float) and not isinstance(v, bool):
                cells.append(f'<td class="num" data-v="{v:g}">{_e(v)}</td>')
            else:
                cells.append(f"<td>{_e(v)}</td>")
        out.append(f"<tr{cls}>{''.join(cells)}</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _bars(title: str, items: Sequence[tuple[str, dict[str, float]]], unit: str) -> str:
    """A horizontal stacked bar chart in inline SVG: one bar per item, one segment per confidence band."""
    if not items:
        return f"<p>{html.escape(_('{chart}: nothing to chart.', chart=title))}</p>"
    width, label_w, bar_h, gap = 640, 180, 16, 6
    most = max((sum(parts.values()) for _, parts in items), default=0) or 1
    scale = (width - label_w - 60) / most
    height = len(items) * (bar_h + gap) + 30
    out = [f'<figure><figcaption>{html.escape(title)}</figcaption>'
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
           f'aria-label="{html.escape(title)}">']
    for i, (label, parts) in enumerate(items):
        y = i * (bar_h + gap)
        out.append(f'<text x="{label_w - 6}" y="{y + bar_h - 4}" text-anchor="end">{html.escape(label[:28])}</text>')
        x = float(label_w)
        for name, value in parts.items():
            if value > 0:
                w = value * scale
                out.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="{_BAND_COLOURS.get(name, "#2c7fb8")}">'
                           f"<title>{html.escape(f'{label}: {number(value, 3)} {term(unit, name)}')}</title></rect>")
                x += w
        out.append(f'<text x="{x + 4:.1f}" y="{y + bar_h - 4}">{html.escape(number(sum(parts.values()), 3))}</text>')
    legend_y = len(items) * (bar_h + gap) + 14
    charted = {name for _, parts in items for name in parts}  # the legend names only the series drawn
    for k, (name, colour) in enumerate((n, c) for n, c in _BAND_COLOURS.items() if n in charted):
        out.append(f'<rect x="{label_w + k * 110}" y="{legend_y - 10}" width="12" height="12" fill="{colour}"/>'
                   f'<text x="{label_w + k * 110 + 16}" y="{legend_y}">{html.escape(term(unit, name))}</text>')
    out.append("</svg></figure>")
    return "".join(out)


def tournament_html(t: Tournament) -> str:
    """The whole report as one page that needs no other file and no network."""
    totals = t.totals
    e = html.escape
    title = _("Tournament audit")
    games = [g for g in t.games if g.status != "failed"]
    per_game = [(g.id, {b: float(g.by_confidence.get(b, 0)) for b in BANDS}) for g in games]
    per_judge = [(j.judge or _("not given"), {"high": float(j.suggestions_per_game or 0)}) for j in t.judges]
    no_decisions = _("no decisions yet")
    note = _("Suggestions are findings at or above the calibrated confidence; a player's record counts the findings a "
             "judge confirmed and the undecided suggestions, never a rejected one.")
    given = _("not given")
    summary = _("{folder} · made {created} · {games}: {audited} audited now, {reused} audited earlier, {failed} failed · "
                "{suggestions} (confidence at least {threshold}) of {findings} · code {code}", folder=t.folder or given,
                created=moment(t.created) if t.created else given, games=ngettext("{n} game", "{n} games", totals["games"]), audited=totals["audited"],
                reused=totals["reused"], failed=totals["failed"], threshold=number(t.threshold, 3),
                suggestions=ngettext("{n} suggestion", "{n} suggestions", totals["suggestions"]),
                findings=ngettext("{n} finding", "{n} findings", totals["findings"]), code=t.code_version or given)
    parts = [
        "<!DOCTYPE html>", f'<html lang="{language()}"><head><meta charset="utf-8">', f"<title>{e(title)}</title>",
        f"<style>{_STYLE}</style></head><body>", f"<h1>{e(title)}</h1>",
        f"<p>{e(summary)}</p>",
        f"<h2>{e(_('Games'))}</h2>",
        _table(
            [_("game"), _("table"), _("judge"), _("rules"), _("status"), _("votes"), _("suggestions"), _("findings"),
             *(term("confidence_band", b) for b in BANDS), _("outcomes changed"), _("confirmed"), _("error")],
            [[g.id, g.table, g.judge, g.rules, term("game_status", g.status), g.votes, g.suggestions, g.findings,
              *(g.by_confidence.get(b, 0) for b in BANDS), g.changed_outcomes,
              _("no decisions read") if g.confirmed is None else g.confirmed, g.error or ""] for g in t.games],
            ["failed" if g.status == "failed" else "" for g in t.games],
        ),
        _bars(_("Findings per game, by confidence"), per_game, "confidence_band"),
        f"<h2>{e(_('Findings by kind'))}</h2>",
        _table([_("game"), *(term("kind", k) for k in FINDING_KINDS)],
               [[g.id, *(g.by_kind.get(k, 0) for k in FINDING_KINDS)] for g in games]),
        f"<h2>{e(_('Judges'))}</h2>",
        _table(
            [_("judge"), _("games"), _("failed"), _("suggestions"), _("suggestions per game"), _("games decided"),
             _("missed (confirmed)"), _("missed per game"), _("miscounted votes")],
            [[j.judge, j.games, j.failed, j.suggestions, j.suggestions_per_game, j.decided_games,
              no_decisions if j.missed is None else j.missed,
              no_decisions if j.missed_per_game is None else j.missed_per_game, j.miscounted_votes] for j in t.judges],
        ),
        _bars(_("Suggestions per game, by judge"), per_judge, "per_game"),
        f"<h2>{e(_('Players: what the rules would have given'))}</h2>",
        _table([_("nickname"), _("game"), _("seat"), _("fouls"), _("warnings"), _("fines"), _("removals"), _("points"),
                _("findings")],
               [[p.nickname, p.game, p.seat, p.fouls, p.warnings, p.fines, p.removals, p.points, p.findings]
                for p in t.players]),
        f"<p>{e(note)}</p>",
        f"<script>{_SORT_SCRIPT}</script>", "</body></html>",
    ]
    return "\n".join(parts) + "\n"


CSV_HEAD = ["game", "game_id", "tournament", "date", "table", "judge", "rules", "status", "error", "votes", "findings",
            "suggestions", *FINDING_KINDS, *(f"confidence_{b}" for b in BANDS), "changed_outcomes", "decided", "confirmed",
            "seconds", "audit"]


def csv_header() -> list[str]:
    """CSV_HEAD in the reader's words: the file is opened in a spreadsheet by a person (the codes are
    tournament.json's)."""
    fields = {"game_id": "id", "tournament": "tournament", "date": "date", "table": "table", "judge": "judge"}
    words = {"game": _("game"), "rules": _("rules"), "status": _("status"), "error": _("error"), "votes": _("votes"),
             "findings": _("findings"), "suggestions": _("suggestions"), "changed_outcomes": _("outcomes changed"),
             "decided": _("decided"), "confirmed": _("confirmed"), "seconds": _("audit time (s)"),
             "audit": term("document", "audit report")}
    return [words[c] if c in words else term("game_field", fields[c]) if c in fields else
            term("kind", c) if c in FINDING_KINDS else
            _("findings: {band}", band=term("confidence_band", c.removeprefix("confidence_"))) for c in CSV_HEAD]


def tournament_csv(t: Tournament, separator: str = ",") -> str:
    """One row per game (UTF-8 with a BOM so spreadsheets read Cyrillic; every cell neutralised whichever of `,`
    and `;` a spreadsheet splits it on), headed and filled in the reader's words. `;` is what Excel in a Russian
    locale splits on; beside it a fraction carries a decimal comma, as that Excel reads it."""
    if separator not in (",", ";"):
        raise ValueError(f"a CSV separator is ',' or ';', not {separator!r}")
    buf = io.StringIO()
    buf.write("\ufeff")
    writer = csv.writer(buf, delimiter=separator, lineterminator="\r\n")
    writer.writerow(csv_header())
    for g in t.games:
        row = [g.id, g.game_id, g.tournament, g.date, g.table, g.judge, g.rules, term("game_status", g.status), g.error,
               g.votes, g.findings, g.suggestions, *(g.by_kind.get(k, 0) for k in FINDING_KINDS),
               *(g.by_confidence.get(b, 0) for b in BANDS), g.changed_outcomes, g.decided, g.confirmed, g.seconds, g.audit]
        writer.writerow([_decimal(neutralise(v), separator) for v in row])
    return buf.getvalue()


def _decimal(value: Any, separator: str) -> Any:
    """A fraction with the decimal mark the separator's spreadsheet expects (41,2 beside `;`)."""
    if separator == ";" and isinstance(value, float):
        return str(value).replace(".", ",")
    return value
