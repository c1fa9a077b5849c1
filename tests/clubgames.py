"""A club's game file made ready for the audit, for the export round trips: the committed Polemica and
mafiaratings fixtures imported, the judge's vote times given as a marks sidecar (what the judge marks while
stepping through the video, stopframe-marks/1) and hand observations scripted from the protocol's voters, with
chosen hands landing after «Стоп». No video and no MediaPipe: the audit reads the observations."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from review.game.importers import import_file

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CLUB_FILES = {"polemica": FIXTURES / "import" / "polemica_game.json",
              "mafiaratings": FIXTURES / "import" / "mafiaratings_game.json"}
SEATS = Path(__file__).resolve().parents[1] / "sample_videos" / "game" / "sample_game.seats.json"
FPS = 25
STEP_S = 10.0  # one vote every ten seconds of the (imagined) video


def vote_times(protocol: dict[str, Any]) -> dict[int, tuple[float, float, float]]:
    """Event index of each vote -> (t, cutoff, announced)."""
    out = {}
    for k, i in enumerate(i for i, e in enumerate(protocol["events"]) if e["type"] == "vote"):
        t = STEP_S * (k + 1)
        out[i] = (t, t + 1.5, t + 2.5)
    return out


def prepare(source: str, folder: Path, late: dict[tuple[int, int, int], int] | None = None) -> dict[str, Path]:
    """Import the club's file into `folder` with marks and observations; `late`: (day, round, candidate) -> the
    seat whose hand lands after «Стоп» in that vote. Returns the paths of protocol, marks, observations, seats."""
    late = late or {}
    folder.mkdir(parents=True, exist_ok=True)
    protocol = import_file(source, CLUB_FILES[source])
    times = vote_times(protocol)
    marks, hands = [], []
    for i, (t, cutoff, announced) in times.items():
        e = protocol["events"][i]
        marks.append({"day": e["day"], "round": e["round"], "candidate": e["candidate"], "t": t, "cutoff": cutoff,
                      "announced": announced})
        for seat in e.get("voters") or []:
            on = cutoff + 0.3 if late.get((e["day"], e["round"], e["candidate"])) == seat else t + 0.3
            hands.append({"seat": seat, "on": on, "off": announced + 0.5, "pose": "thumb_up_fist", "confidence": 0.95,
                          "on_frame": round(on * FPS), "off_frame": round((announced + 0.5) * FPS)})
    paths = {"protocol": folder / "club.protocol.json", "marks": folder / "club.marks.json",
             "observations": folder / "club.observations.json", "seats": folder / "club.seats.json"}
    paths["protocol"].write_text(json.dumps(protocol, ensure_ascii=False), encoding="utf-8")
    paths["marks"].write_text(json.dumps({"format": "stopframe-marks/1", "marks": marks}), encoding="utf-8")
    paths["observations"].write_text(json.dumps({"format": "stopframe-observations/1", "fps": FPS, "hands": hands,
                                                 "x_unseen": []}), encoding="utf-8")
    shutil.copy(SEATS, paths["seats"])
    return paths
