"""What a review hands on: the pieces of the findings CSV and the self-contained HTML report (spec §5).

Why so careful: these files go to clubs and players, get opened in spreadsheets and browsers, and
carry player nicknames typed by anyone. A CSV text cell that could start a formula is neutralised
(numbers stay numbers), every HTML value is escaped, and every file is written atomically.
"""

from __future__ import annotations

import base64
import html
import os
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract import i18n
from contract.i18n import _, language, term
from contract.jsonio import write_atomic
from contract.outputs import Input, check_output
from review.audit.findings import Finding, finding_key, said
from review.cases.store import Decision

# A field that a spreadsheet may start a formula with: the cell's start, or after any separator a spreadsheet may
# split on when it opens the file (Russian-locale Excel reads ";", others a tab), spaces allowed before it.
_FORMULA_FIELD = re.compile(r"(^|[,;\t\r\n])( *)(?=[=+\-@\t\r])")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # tab, CR and LF are kept (and guarded)


def neutralise(value: Any) -> Any:
    """A CSV cell: numbers unchanged; control characters removed; every field of the text that a spreadsheet
    would read as a formula, whichever of `,`, `;` or tab it splits on, prefixed with '."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return value
    return _FORMULA_FIELD.sub(r"\1'\2", _CONTROL.sub("", str(value)))


def finding_said(data: Mapping[str, Any], text: Any = None) -> str:
    """What a finding (as JSON, or an export row with its `text`) says happened. The audit writes it in English
    with its times (`x_text`) and keeps the catalogue message it was made from (`x_text_message`): a reader gets
    that sentence in her language. Without one (an older report), or where the judge edited the seat or night it
    names, a Russian reader gets the catalogue's sentence for the finding's kind, with its seat, candidate and
    night, so no English sentence reaches a Russian page or file."""
    text = data.get("x_text") if text is None else text
    kept = data.get("x_text_message")
    own = said(kept) if isinstance(kept, Mapping) and _names_the_same(kept, data) else None
    if own is not None:
        return own
    template = term("finding_text", data.get("kind"), "")
    if language() == "en" or not template:
        return str(text or "")
    return template.format_map({k: "—" if data.get(k) is None else data.get(k) for k in ("seat", "candidate", "night")})


def _names_the_same(message: Mapping[str, Any], data: Mapping[str, Any]) -> bool:
    """Whether the sentence still names the finding's seat and night (a judge's edit may have changed them)."""
    values = message.get("values")
    if not isinstance(values, Mapping):
        return False
    return all(values[k] == data.get(k) for k in ("seat", "night") if k in values and k in data)


def nicknames(protocol: Mapping[str, Any] | None) -> dict[int, str]:
    players = (protocol or {}).get("players") or []
    return {p["seat"]: str(p.get("nickname") or "") for p in players if isinstance(p, Mapping) and "seat" in p}


def finding_rows(findings: Iterable[Finding], decisions: Mapping[str, Decision] | None = None,
                 protocol: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """One row per finding with the judge's decision beside it (the finding as edited, if edited)."""
    names = nicknames(protocol)
    rows = []
    for found in findings:
        d = (decisions or {}).get(finding_key(found))
        f = d.effective_finding if d and d.status == "edited" else found
        rows.append({
            "kind": f.kind, "day": f.day, "night": f.night, "round": f.round, "candidate": f.candidate, "seat": f.seat,
            "seats": " ".join(str(s) for s in f.seats) if f.seats else None,
            "nickname": names.get(f.seat) if f.seat is not None else None,
            "t": f.t, "clause": f.clause, "consequence": f.consequence.type, "points": f.consequence.points,
            "text": f.text, "x_text_message": f.extra.get("x_text_message"), "confidence": f.confidence,
            "decision": d.status if d else "open",
            "edited": ", ".join(sorted(d.edited)) if d and d.edited else None,
            "reason": d.reason if d else None, "who": d.who if d else None,
            "decided_at": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(d.at)) if d else None,
        })
    return rows


@dataclass(frozen=True)
class KeyFrame:
    """An evidence frame for the HTML report, already encoded (PNG or JPEG bytes)."""

    caption: str
    data: bytes
    mime: str = "image/jpeg"


def page_head(title: str, protocol: Mapping[str, Any] | None) -> list[str]:
    """The start of a self-contained report page: styles, the title, the game's header and its rules."""
    e = html.escape
    game = (protocol or {}).get("game") or {}
    return [
        "<!DOCTYPE html>", f'<html lang="{i18n.language()}"><head><meta charset="utf-8">',
        f"<title>{e(title)}</title>",
        "<style>body{font-family:sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse}"
        "td,th{border:1px solid #999;padding:.2em .5em;text-align:left;vertical-align:top}"
        "figure{display:inline-block;margin:.3em}img{max-width:32em;border:1px solid #333}"
        ".confirmed,.edited,.fail{background:#fde2e2}.rejected{color:#777}.ok{background:#e2f5e2}</style></head><body>",
        f"<h1>{e(title)}</h1>",
        "<p>" + e(" · ".join(f"{k}: {v}" for k, v in game.items() if v not in (None, ""))) + "</p>",
        "<p>" + e(_("Rules: {rules}", rules=(protocol or {}).get("rules", ""))) + "</p>",
    ]


def figure(kf: KeyFrame) -> str:
    """A key frame embedded in the page (data URI), so the report needs no other file."""
    e = html.escape
    b64 = base64.b64encode(kf.data).decode("ascii")
    return (f'<figure><img alt="{e(kf.caption)}" src="data:{e(kf.mime)};base64,{b64}">'
            f"<figcaption>{e(kf.caption)}</figcaption></figure>")


def page_end(parts: list[str]) -> str:
    stamp = html.escape(time.strftime("%Y-%m-%d %H:%M"))
    return "\n".join([*parts, f"<footer><p>{_('Made by Stopframe on {stamp}.', stamp=stamp)}</p></footer></body></html>"]) + "\n"


def write_html_report(path: str | os.PathLike[str], text: str, inputs: Iterable[Input] = ()) -> Path:
    """Write the report atomically, never over one of `inputs` (the game's protocol, video, seat map,
    observations) by any name, nor onto a folder, a device or a pipe (contract.outputs)."""
    return write_atomic(check_output(path, inputs, what="report"), text)
