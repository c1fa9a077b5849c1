"""What a protocol sheet hands on: the Stopframe protocol, the club's game files, and the paper form filled in.

Why these checks: the protocol is offered only once our validator passes it (format and rules), the club files
only as review.cases.club_exports writes them (read back with our importer and validated first), and nothing is
ever written over the file the sheet was started from (contract.outputs). The printable sheet carries nicknames
and titles typed by anyone: every value in it is escaped.
"""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from contract import i18n
from contract.errors import InvalidInput, StopframeError
from contract.i18n import _
from contract.jsonio import write_atomic
from contract.outputs import Input, check_output, os_reason
from review.cases.club_exports import export_game
from review.cases.sheet import Sheet, box_events
from review.cases.sheet_entry import GAME_FIELDS, Slot, box_name, write
from review.game.profiles import PROFILES, get_profile
from review.game.protocol import validate


def stem(title: str) -> str:
    """A file name stem from a sheet's title (a protocol's file name loses its `.protocol.json`)."""
    name = re.sub(r"(\.protocol)?\.json$", "", title.strip())
    return re.sub(r"[^\w.-]+", "_", name).strip("._")[:80] or "sheet"


def protocol_text(sheet: Sheet) -> str:
    """The sheet as a `stopframe-protocol/1` file; InvalidInput naming the first problem while it does not
    validate."""
    data = sheet.protocol()
    problems = validate(data)
    if problems:
        first = next((p for p in sheet.problems() if p.path is not None), None)
        where = box_name(first.slot) if first is not None and first.slot else _("the sheet")
        said = f"{first.message} ({i18n.clause(first.clause)})" if first is not None and first.clause else \
            first.message if first is not None else ""
        raise InvalidInput(i18n.ngettext("The protocol is offered once it validates; {n} problem left: {box}: {problem}",
                                         "The protocol is offered once it validates; {n} problems left, the first: "
                                         "{box}: {problem}", len(problems), box=where, problem=said))
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def club_text(sheet: Sheet, target: str) -> str:
    """The sheet as a Polemica or mafiaratings game file (review.cases.club_exports: read back and validated);
    its ExportRefused names what the format cannot hold."""
    return json.dumps(export_game(sheet.protocol(), target), ensure_ascii=False, indent=1) + "\n"


def save(path: str | os.PathLike[str], text: str, given: Iterable[Input] = ()) -> Path:
    """Write an export atomically, never over a file the sheet was given (by any name), a folder or a device; a
    place that cannot be written (no right to, no such folder to make) is StopframeError naming it."""
    target = check_output(path, given, what="export")
    try:
        return write_atomic(target, text)
    except OSError as exc:
        reason = _("no right to write there") if isinstance(exc, PermissionError) else os_reason(exc)
        raise StopframeError(_("Not saved: {path} cannot be written ({reason}); give a folder you can write to.",
                               path=target, reason=reason)) from exc


# ---------------------------------------------------------------------------------------- the paper form

_STYLE = """<style>
body{font-family:'DejaVu Sans',Arial,sans-serif;font-size:11pt;margin:1.5cm}
h1{font-size:15pt;margin:0 0 .3em} h2{font-size:12pt;margin:1em 0 .3em}
table{border-collapse:collapse;width:100%;margin-bottom:.6em} td,th{border:1px solid #333;padding:3px 6px;text-align:left}
th{background:#eee} .problems li{color:#900} @media print{body{margin:1cm}}
</style>"""


def _cell(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def _row(cells: Iterable[Any], head: bool = False) -> str:
    tag = "th" if head else "td"
    return "<tr>" + "".join(f"<{tag}>{_cell(c)}</{tag}>" for c in cells) + "</tr>"


def _col(code: str) -> str:
    """A heading of the printed sheet (the catalogue's terms "sheet_column")."""
    return i18n.term("sheet_column", code)


def _line(sheet: Sheet, slot: Slot) -> str:
    return write(slot, box_events(sheet.data, slot.key))


def printable(sheet: Sheet, title: str = "") -> str:
    """The paper protocol filled in, as one self-contained HTML page to print (every value escaped); headed by the
    game's number, else by the sheet's `title` (a sheet typed from paper often has no number)."""
    data = sheet.data
    rules = data.get("rules") if data.get("rules") in PROFILES else "rfm"
    profile = get_profile(rules)
    game: Mapping[str, Any] = data.get("game") if isinstance(data.get("game"), Mapping) else {}
    run = sheet.checked[1]
    state = run.final if run is not None else None
    left = {e["seat"]: e for e in (run.eliminations if run is not None else [])}
    number = str(game.get("id") or "").strip()
    head = _("Protocol of the game {game}", game=number) if number or not title.strip() else \
        _("Game protocol: {title}", title=title.strip())
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'>", f"<title>{_cell(head)}</title>", _STYLE,
             "</head><body>", f"<h1>{_cell(head)}</h1>",
             "<table>", _row([_("Rule profile"), profile.label()]),
             *(_row([i18n.term("sheet_game_field", k), game.get(k)]) for k in GAME_FIELDS if k != "id"), "</table>",
             f"<h2>{_cell(_('Players'))}</h2><table>",
             _row([_col("seat"), _col("nickname"), _col("role"), i18n.term("sheet_penalties", rules), _col("left")],
                  head=True)]
    for player in data.get("players") or []:
        seat = player.get("seat")
        role = player.get("role")
        fouls = state.fouls.get(seat, 0) if state is not None else 0
        fines = state.fines.get(seat) if state is not None else None
        marks = " ".join(filter(None, ["|" * fouls, i18n.number(fines) if fines else ""]))
        gone = left.get(seat)
        when = "" if gone is None else _("night {night}", night=gone["night"]) if "night" in gone \
            else _("day {day}", day=gone.get("day"))
        how = "" if gone is None else f"{i18n.term('sheet_left', gone['cause'])}, {when}"
        parts.append(_row([seat, player.get("nickname"), i18n.term("sheet_role_name", role) if role else "", marks,
                           how]))
    parts.append("</table>")
    parts.append(f"<h2>{_cell(_col('days'))}</h2><table>")
    parts.append(_row([_col(c) for c in ("day", "nominations", "votes", "lift", "left_by_vote", "shooting", "don_check",
                                         "sheriff_check")], head=True))
    for n in range(1, sheet.days() + 1):
        rounds = "; ".join(f"{r}: {_line(sheet, Slot('round', n, r))}" for r in sheet.rounds(n)
                           if _line(sheet, Slot("round", n, r)))
        parts.append(_row([n, _line(sheet, Slot("nominations", n)), rounds, _line(sheet, Slot("lift", n)),
                           _line(sheet, Slot("eliminated", n)), _line(sheet, Slot("shooting", n)),
                           _line(sheet, Slot("check", n, extra="don")), _line(sheet, Slot("check", n, extra="sheriff"))]))
    parts.append("</table><table>")
    if profile.best_move.value is not None:
        parts.append(_row([_col("best_move"), _line(sheet, Slot("best_move"))]))
    parts.append(_row([_col("result"), _line(sheet, Slot("result"))]))
    parts.append("</table>")
    problems = sheet.problems()
    if problems:
        parts.append(f"<h2>{_cell(_col('problems'))}</h2><ul class='problems'>")
        parts += [f"<li>{_cell(box_name(p.slot) + ': ' if p.slot else '')}{_cell(p.message)}"
                  f"{_cell(' — ' + i18n.clause(p.clause) if p.clause else '')}</li>" for p in problems]
        parts.append("</ul>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
