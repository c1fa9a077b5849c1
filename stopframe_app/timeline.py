"""The game on one time axis: phases, speeches, nominations, votes, hands, shootings, fouls and findings.

Rows are the phases band, one row per seat, and the table (findings about no single seat). Every mark
carries `jump`, the time the frame viewer goes to when the judge clicks it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import altair as alt
import pandas as pd

from contract.clock import Clock
from contract.i18n import _, term
from review.audit.findings import Finding
from stopframe_app import words

SELECTION = "pick"


def rows() -> list[str]:
    """The chart's rows top to bottom, in the reader's language: the phases, seats 1 to 10, the table."""
    return [_("phases"), *[_("seat {seat}", seat=s) for s in range(1, 11)], _("table")]


def _row(seat: Any) -> str:
    return _("seat {seat}", seat=seat) if isinstance(seat, int) and 1 <= seat <= 10 else _("table")


def timeline_rows(data: Mapping[str, Any], windows: Iterable[Any] = (), hands: Iterable[Mapping[str, Any]] = (),
                  findings: Iterable[Finding] = (), duration: float | None = None) -> pd.DataFrame:
    """One row per mark: row, kind, label, start, end (None for points), jump (seconds)."""
    clock = Clock.of_protocol(data)
    out: list[dict[str, Any]] = []

    def add(row: str, kind: str, label: str, start: float, end: float | None = None, jump: float | None = None) -> None:
        out.append({"row": row, "kind": kind, "label": label, "start": start, "end": end,
                    "jump": start if jump is None else jump})

    events = [e for e in data.get("events", []) if isinstance(e, dict)]
    phase_starts = [(clock.video_time(e["t"]), e) for e in events
                    if e.get("type") == "phase" and isinstance(e.get("t"), int | float)]
    for i, (t, e) in enumerate(phase_starts):
        end = phase_starts[i + 1][0] if i + 1 < len(phase_starts) else (duration or t + 1.0)
        phase = term("phase", e.get("phase") or "phase")
        add(_("phases"), e.get("phase", "phase"), f"{phase} {e.get('number') or ''}".strip(), t, end)
    for e in events:
        t = e.get("t")
        if not isinstance(t, int | float) or isinstance(t, bool):
            continue
        t = clock.video_time(t)
        kind = e.get("type")
        if kind == "speech":
            end = clock.video_time(e["end"]) if isinstance(e.get("end"), int | float) else t + 1.0
            add(_row(e.get("seat")), "speech", _("{speech}, seat {seat}", speech=term("speech", e.get("kind") or "day"),
                                                 seat=e.get("seat")), t, end)
        elif kind == "nomination":
            add(_row(e.get("by")), kind, _("seat {seat} nominates {target}", seat=e.get("by"), target=e.get("target")), t)
        elif kind == "withdrawal":
            add(_row(e.get("by")), kind, _("seat {seat} withdraws {target}", seat=e.get("by"), target=e.get("target")), t)
        elif kind == "shooting":
            shot = _("shot at {target}", target=e["target"]) if e.get("target") is not None else _("a miss")
            add(_row(e.get("target")), "shooting", _("night {night}: {what}", night=e.get("night"), what=shot), t)
        elif kind == "check":
            target = e.get("target") if e.get("target") is not None else "—"
            checks = (_("the don checks {target}", target=target) if e.get("by") == "don"
                      else _("the sheriff checks {target}", target=target))
            add(_row(e.get("target")), "check", _("night {night}: {what}", night=e.get("night"), what=checks), t)
        elif kind in ("foul", "fine", "removal"):
            add(_row(e.get("seat")), kind, f"{term('consequence', kind)} {_row(e.get('seat'))} {e.get('clause') or ''}".strip(), t)
    for w in windows:
        if w.t is None:
            continue
        seats = [w.candidate] if w.kind == "vote" else list(w.candidates)
        for seat in seats:
            count = data["events"][w.event_index].get("count")
            add(_row(seat), "vote", _("vote: {where}", where=words.window_label(w)) + (" " + _("(count {count})", count=count) if count is not None else ""),
                w.t, w.announced or w.t + 2.5, w.t)
    for h in hands:
        add(_row(h.get("seat")), "hand", _("hand, seat {seat}: {pose}", seat=h.get("seat"), pose=words.pose(h.get("pose"))), float(h["on"]),
            float(h["off"]), float(h["on"]))
    for f in findings:
        t = f.t if f.t is not None else next(iter(f.evidence.times), None)
        if t is None:
            continue
        clause = f" ({f.clause})" if f.clause else ""
        add(_row(f.seat), "finding", f"{words.kind(f.kind)}, {words.who(f)}{clause}", float(t))
    frame = pd.DataFrame(out, columns=["row", "kind", "label", "start", "end", "jump"])
    frame["what"] = [term("mark", k) for k in frame["kind"]]
    return frame


KIND_COLOURS = {
    "day": "#f2e6b3", "night": "#3b4a6b", "voting": "#c9e3c9", "speech": "#9ecae1", "vote": "#31a354",
    "hand": "#74c476", "nomination": "#fd8d3c", "withdrawal": "#fdd0a2", "shooting": "#252525",
    "check": "#756bb1", "foul": "#e6550d", "fine": "#a63603", "removal": "#7f0000", "finding": "#de2d26",
}


def timeline_chart(frame: pd.DataFrame, now: float | None = None, height: int = 390) -> alt.LayerChart:
    """Bars for spans, points for moments, a rule at the frame on screen; clicking a mark selects it."""
    kinds = [k for k in KIND_COLOURS if k in set(frame["kind"])] or list(KIND_COLOURS)
    colour = alt.Color("what:N", scale=alt.Scale(domain=[term("mark", k) for k in kinds],
                                                 range=[KIND_COLOURS[k] for k in kinds]),
                       legend=alt.Legend(orient="bottom", columns=8, title=None))
    order = rows()
    y = alt.Y("row:N", sort=order, title=None, scale=alt.Scale(domain=order), axis=alt.Axis(labelOverlap=False))
    pick = alt.selection_point(name=SELECTION, fields=["jump", "label"], on="click", clear=False)
    zoom = alt.selection_interval(bind="scales", encodings=["x"])
    tooltip = [alt.Tooltip("label:N", title=_("what")), alt.Tooltip("start:Q", format=".2f", title=_("t (s)"))]
    spans = frame[frame["end"].notna() & (frame["kind"] != "hand")]
    hands = frame[frame["kind"] == "hand"]
    points = frame[frame["end"].isna()]
    bars = alt.Chart(spans).mark_bar(height=16, cornerRadius=2).encode(
        x=alt.X("start:Q", title=_("video time (s)")), x2="end:Q", y=y, color=colour, tooltip=tooltip,
    ).add_params(pick, zoom)
    hand_bars = alt.Chart(hands).mark_bar(height=6, cornerRadius=2).encode(
        x="start:Q", x2="end:Q", y=y, color=colour, tooltip=tooltip,
    ).add_params(pick)
    dots = alt.Chart(points).mark_point(filled=True, size=90, shape="diamond").encode(
        x="start:Q", y=y, color=colour, tooltip=tooltip,
    ).add_params(pick)
    layers: list[alt.Chart] = [bars, hand_bars, dots]
    if now is not None:
        layers.append(alt.Chart(pd.DataFrame({"now": [now]})).mark_rule(color="red", strokeWidth=2).encode(x="now:Q"))
    return alt.layer(*layers).properties(height=height)
