"""Exports: the corrected protocol (never over the original), the findings CSV and the HTML report."""

from __future__ import annotations

import json
from pathlib import Path

import streamlit as st

from review.corrected import corrected_name, corrected_protocol, write_corrected_protocol
from review.exports import KeyFrame, finding_rows, findings_csv, html_report, write_html_report
from review.jsonio import write_atomic
from review.store import data_dir
from stopframe_app import state
from stopframe_app.decisions import evidence_frames, show_flash
from stopframe_app.game import Game, stem_of


def export_folder(game: Game) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in stem_of(Path(game.spec.protocol)))
    return data_dir() / "exports" / safe


def build_exports(game: Game, with_frames: bool = True) -> dict[str, tuple[str, str | bytes, str]]:
    """file name -> (label, content, mime) for everything the judge may download."""
    decisions = state.store().decisions(game.game_id)
    book = state.appeals()
    appeals = [(c.case_id, book.in_force(c.case_id)) for c in book.cases(game.game_id) if c.status == "decided"]
    corrected = corrected_protocol(game.data, decisions.values(), votes=game.votes, source=Path(game.spec.protocol).name,
                                   appeals=appeals)
    rows = finding_rows(game.findings, decisions, game.data)
    key_frames: dict[int, list[KeyFrame]] = {}
    if with_frames and game.video_meta is not None:
        from stopframe_app.viewer import render_frame

        for i, f in enumerate(game.findings):
            key_frames[i] = []
            for index in evidence_frames(game, f):
                jpeg, caption = render_frame(game, index)
                key_frames[i].append(KeyFrame(caption, jpeg))
    notes = [f"{len(decisions)} decision(s) and {len(appeals)} appeal decision(s) recorded; corrected protocol: "
             f"{corrected_name(game.spec.protocol)}."]
    report = html_report(title=f"Stopframe review — {game.title}", protocol=game.data, rows=rows, votes=game.votes,
                         key_frames=key_frames, notes=notes)
    stem = stem_of(Path(game.spec.protocol))
    return {
        corrected_name(game.spec.protocol): ("Corrected protocol (JSON)",
                                             json.dumps(corrected, ensure_ascii=False, indent=2) + "\n", "application/json"),
        f"{stem}.findings.csv": ("Findings (CSV)", findings_csv(rows), "text/csv"),
        f"{stem}.review.html": ("Report (HTML, self-contained)", report, "text/html"),
    }


def save_all(game: Game) -> list[Path]:
    """Write every export atomically into the data folder (the protocol's own folder is left alone)."""
    folder = export_folder(game)
    files = build_exports(game)
    out = []
    for name, (_, content, _) in files.items():
        path = folder / name
        if name.endswith(".protocol.json"):
            out.append(write_corrected_protocol(path, json.loads(content), game.spec.protocol))
        elif name.endswith(".csv"):
            out.append(write_atomic(path, content))
        else:
            out.append(write_html_report(path, str(content)))
    return out


def render(game: Game) -> None:
    st.header("Exports")
    show_flash()
    decisions = state.store().decisions(game.game_id)
    st.write(f"{len(game.findings)} finding(s), {len(decisions)} decided. The original protocol "
             f"`{Path(game.spec.protocol).name}` is never changed; the corrected one is a new file.")
    files = build_exports(game)
    for name, (label, content, mime) in files.items():
        st.download_button(f"Download {label}", data=content, file_name=name, mime=mime, key=f"dl_{name}")
    if st.button("Save all to the data folder", key="save_exports"):
        paths = save_all(game)
        st.success("Written: " + ", ".join(str(p) for p in paths))
    with st.expander("Decision history (audit trail)"):
        trail = state.store().trail(game.game_id)
        st.dataframe(trail or [{"note": "no decisions yet"}], hide_index=True)
