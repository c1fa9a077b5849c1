"""Findings to confirm, for the corrected-protocol tests: the sample game's (from the committed observations
vision made of it, nights included) and every rendered clip's (from its truth's hands, raised hands and shown
numbers — what a perfect detector would report), audited under a profile. No MediaPipe runs."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from review.audit.audit import audit
from review.audit.findings import AuditReport, Finding, VoteReport
from review.audit.night import audit_nights
from review.cases.store import Decision, finding_key

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "sample_videos" / "game" / "sample_game"
CLIPS = ROOT / "sample_videos" / "clips"
PROFILES = ("rfm", "mafclub", "lvi2015", "showtime")
SAMPLE = {"protocol": GAME.with_suffix(".protocol.json"), "seats": GAME.with_suffix(".seats.json"),
          "observations": GAME.with_suffix(".observations.json")}  # audit_game's files for the sample game


def one_vote_game() -> dict[str, Any]:
    """A fresh rfm protocol with one day vote (5: four hands, 7: six) and a night after it."""
    return {
        "format": "stopframe-protocol/1", "rules": "rfm", "game": {"id": "G1"},
        "players": [{"seat": s, "nickname": f"P{s}", "role": None} for s in range(1, 11)],
        "events": [
            {"type": "phase", "phase": "day", "number": 1},
            {"type": "nomination", "day": 1, "by": 1, "target": 5},
            {"type": "nomination", "day": 1, "by": 2, "target": 7},
            {"type": "phase", "phase": "voting", "number": 1},
            {"type": "vote", "day": 1, "round": 1, "candidate": 5, "count": 4, "voters": [2, 3, 9, 10]},
            {"type": "vote", "day": 1, "round": 1, "candidate": 7, "count": 6},
            {"type": "phase", "phase": "night", "number": 1},
        ],
    }


def read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def source(name: str, rules: str) -> tuple[dict[str, Any], tuple[Finding, ...], tuple[VoteReport, ...]]:
    """(protocol played under `rules`, the audit's findings, its votes) for one game or clip, as the audit
    file has them (read back from its JSON)."""
    if name == "sample_game":
        from pipeline.audit import audit_game

        report = audit_game(**SAMPLE, rules=rules, nights=True).to_json()
        protocol = read(GAME.with_suffix(".protocol.json"))
    else:
        stem = CLIPS / name
        protocol = read(stem.with_suffix(".protocol.json"))
        truth = read(stem.with_suffix(".truth.json"))
        fps = truth["fps"]
        obs = {"format": "stopframe-observations/1", "fps": fps,
               "hands": [{**h, "confidence": 1.0, "on_frame": round(h["on"] * fps), "off_frame": round(h["off"] * fps)}
                         for h in truth["hands"]],
               "x_raised": truth["raised"], "x_shown_numbers": truth["shown_numbers"]}
        played = dict(protocol, rules=rules)
        visible = {int(k) for k in read(stem.with_suffix(".seats.json"))["seats"]}
        day = audit(played, obs, visible_seats=visible).to_json()
        night = audit_nights(played, obs, cues=truth.get("x_cues") or ())
        report = {**day, "findings": day["findings"] + [f.to_json() for f in night.findings]}
    read_back = AuditReport.from_json(report)
    return dict(protocol, rules=rules), read_back.findings, read_back.votes


def written_audit(files: Mapping[str, Path], out: Path, **options: Any) -> AuditReport:
    """The audit of a game from its saved observations (`files`: audit_game's protocol, seats, observations and
    marks), written to `out` as `stopframe correct --audit` reads it."""
    from pipeline.audit import audit_game

    report = audit_game(**files, **options)
    out.write_text(json.dumps(report.to_json()), encoding="utf-8")
    return report


def names() -> list[str]:
    return ["sample_game", *sorted(p.name[: -len(".protocol.json")] for p in CLIPS.glob("*.protocol.json"))]


def decision(f: Finding, status: str = "confirmed", edited: dict[str, Any] | None = None,
             reason: str = "seen on the video", at: float = 1.0) -> Decision:
    return Decision("test", finding_key(f), f, status, edited, reason, "Chief judge", at, 1)
