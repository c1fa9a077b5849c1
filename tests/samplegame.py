"""The bundled sample game's committed observations, checked current before a test relies on them (shared by
the app's tests and the command line's night audit)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from review.audit.inputs import video_fingerprint
from stopframe_app.game import SAMPLE_PROTOCOL

REPO = Path(__file__).resolve().parents[1]
SAMPLE_OBSERVATIONS = REPO / "sample_videos" / "game" / "sample_game.observations.json"
REFRESH_SAMPLE = "python3 bench/audit_accuracy.py sample_videos/game --fresh --refresh-fixture"


def require_current_sample_fixture(*, nights: bool = False) -> None:
    """Fail (never skip) when the committed observations of the sample game were not made from its video as
    it is now: a stale fixture would test nothing, so it must be refreshed."""
    obs = json.loads(SAMPLE_OBSERVATIONS.read_text(encoding="utf-8"))
    if obs.get("x_video_fingerprint") != video_fingerprint(SAMPLE_PROTOCOL.with_name("sample_game.mp4")):
        pytest.fail(f"{SAMPLE_OBSERVATIONS} was made from another rendering of the sample game's video: "
                    f"refresh it with `{REFRESH_SAMPLE}`.")
    if nights and "x_raised" not in obs:
        pytest.fail(f"{SAMPLE_OBSERVATIONS} holds no night observations (x_raised): refresh it with `{REFRESH_SAMPLE}`.")


def tournament_games(src: Path, games: dict[str, dict[str, str]]) -> Path:
    """A folder of games for `stopframe tournament`: a copy of the sample game per name (its header's fields
    replaced by the given ones, the committed observations beside it) and one broken protocol, t1-g3."""
    src.mkdir(parents=True, exist_ok=True)
    protocol = json.loads(SAMPLE_PROTOCOL.read_text(encoding="utf-8"))
    for name, header in games.items():
        data = dict(protocol, game={**protocol["game"], "id": name.upper(), **header})
        (src / f"{name}.protocol.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    (src / "t1-g3.protocol.json").write_text("{ this is not JSON", encoding="utf-8")
    for name in (*games, "t1-g3"):
        (src / f"{name}.seats.json").write_bytes(SAMPLE_PROTOCOL.with_name("sample_game.seats.json").read_bytes())
        (src / f"{name}.observations.json").write_bytes(SAMPLE_OBSERVATIONS.read_bytes())
    return src
