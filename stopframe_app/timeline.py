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
from review.audit.findings import Finding
from stopframe_app import words

PHASES = "phases"
TABLE = "table"
ROWS = [PHASES, *[f"seat {s}" for s in range(1, 11)], TABLE]
SELECTION = "pick"


def _row(seat: Any) -> str:
    return f"seat {seat}" if isinstance(seat, int) and 1 <= seat <= 10 else TABLE


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
        add(PHASES, e.get("phase", "phase"), f"{e.get('phase') or 'phase'} {e.get('number') or ''}".strip(), t, end)
    for e in events:
        t = e.get("t")
        if not isinstance(t, int | float) or isinstance(t, bool):
            continue
        t = clock.video_time(t)
        kind = e.get("type")
        if kind == "speech":
            end = clock.video_time(e["end"]) if isinstance(e.get("end"), int | float) else t + 1.0
            add(_row(e.get("seat")), "speech", f"{str(e.get('kind') or 'day').replace('_', ' ')} speech, seat {e.get('seat')}", t, end)
        elif kind in ("nomination", "withdrawal"):
            add(_row(e.get("by")), kind, f"seat {e.get('by')} {kind} of {e.get('target')}", t)
        elif kind == "shooting":
            shot = f"shot at {e['target']}" if e.get("target") is not None else "a miss"
            add(_row(e.get("target")), "shooting", f"night {e.get('night')}: {shot}", t)
        elif kind == "check":
            add(_row(e.get("target")), "check", f"night {e.get('night')}: the {e.get('by') or 'checker'} checks "
                f"{e.get('target') if e.get('target') is not None else '—'}", t)
        elif kind in ("foul", "fine", "removal"):
            add(_row(e.get("seat")), kind, f"{kind} seat {e.get('seat')} {e.get('clause') or ''}".strip(), t)
    for w in windows:
        if w.t is None:
            continue
        seats = [w.candidate] if w.kind == "vote" else list(w.candidates)
        for seat in seats:
            count = data["events"][w.event_index].get("count")
            add(_row(seat), "vote", f"vote {w.label}" + (f" (count {count})" if count is not None else ""),
                w.t, w.announced or w.t + 2.5, w.t)
    for h in hands:
        add(_row(h.get("seat")), "hand", f"hand seat {h.get('seat')}: {words.pose(h.get('pose'))}", float(h["on"]),
            float(h["off"]), float(h["on"]))
    for f in findings:
        t = f.t if f.t is not None else next(iter(f.evidence.times), None)
        if t is None:
            continue
        clause = f" ({f.clause})" if f.clause else ""
        add(_row(f.seat), "finding", f"{words.kind(f.kind)}, {words.who(f)}{clause}", float(t))
    return pd.DataFrame(out, columns=["row", "kind", "label", "start", "end", "jump"])


KIND_COLOURS = {
    "day": "#f2e6b3", "night": "#3b4a6b", "voting": "#c9e3c9", "speech": "#9ecae1", "vote": "#31a354",
    "hand": "#74c476", "nomination": "#fd8d3c", "withdrawal": "#fdd0a2", "shooting": "#252525",
    "check": "#756bb1", "foul": "#e6550d", "fine": "#a63603", "removal": "#7f0000", "finding": "#de2d26",
}


def timeline_chart(frame: pd.DataFrame, now: float | None = None, height: int = 390) -> alt.LayerChart:
    """Bars for spans, points for moments, a rule at the frame on screen; clicking a mark selects it."""
    kinds = [k for k in KIND_COLOURS if k in set(frame["kind"])] or list(KIND_COLOURS)
    colour = alt.Color("kind:N", scale=alt.Scale(domain=kinds, range=[KIND_COLOURS[k] for k in kinds]),
                       legend=alt.Legend(orient="bottom", columns=8, title=None))
    y = alt.Y("row:N", sort=ROWS, title=None, scale=alt.Scale(domain=ROWS), axis=alt.Axis(labelOverlap=False))
    pick = alt.selection_point(name=SELECTION, fields=["jump", "label"], on="click", clear=False)
    zoom = alt.selection_interval(bind="scales", encodings=["x"])
    tooltip = [alt.Tooltip("label:N"), alt.Tooltip("start:Q", format=".2f", title="t (s)")]
    spans = frame[frame["end"].notna() & (frame["kind"] != "hand")]
    hands = frame[frame["kind"] == "hand"]
    points = frame[frame["end"].isna()]
    bars = alt.Chart(spans).mark_bar(height=16, cornerRadius=2).encode(
        x=alt.X("start:Q", title="video time (s)"), x2="end:Q", y=y, color=colour, tooltip=tooltip,
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
