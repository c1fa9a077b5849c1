"""What a club's game file from Polemica or mafiaratings looks like, told from its shape alone.

Kept apart from the importers so that reading a protocol can say "this is a Polemica file, import it" without
the protocol module importing the importers, which read protocols themselves.
"""

from __future__ import annotations

from typing import Any

MAFIARATINGS_ROLES = {"civ": "civilian", "maf": "mafia", "srf": "sheriff", "don": "don"}
POLEMICA_RESULTS = {"RED_WIN": "red", "BLACK_WIN": "black", "DRAW": "draw"}


def detect_source(data: Any) -> str | None:
    """'polemica', 'mafiaratings' or None, from the file's shape alone."""
    if isinstance(data, dict) and isinstance(data.get("games"), list) and len(data["games"]) == 1:
        data = data["games"][0]
    if not isinstance(data, dict) or not isinstance(data.get("players"), list) or not data["players"]:
        return None
    players = data["players"]
    if all(isinstance(p, dict) and "position" in p for p in players) and (
        (isinstance(data.get("result"), str) and data["result"] in POLEMICA_RESULTS) or any(k in data for k in ("votes", "shots", "checks"))
    ):
        return "polemica"
    if len(players) == 10 and all(
        isinstance(p, dict) and isinstance(p.get("role"), str) and p["role"] in MAFIARATINGS_ROLES for p in players
    ):
        return "mafiaratings"
    return None
