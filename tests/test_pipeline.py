"""The pipeline (pipeline.audit.audit_game) with a fake observer: the flow protocol → windows → observe →
audit is the same whether the hands come from vision, from a saved file or from a test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from contract.jsonio import read_json
from contract.observations import Observations, load_observations
from pipeline.audit import Spans, audit_game
from vision.seats import SeatMap

FIX = Path(__file__).parent / "fixtures" / "audit"
GAME = {"protocol": FIX / "day_vote.protocol.json", "seats": FIX / "day_vote.seats.json"}


class FakeObserver:
    """Hands from a saved observations file; remembers what the pipeline asked to look at."""

    def __init__(self) -> None:
        self.asked: list[tuple[Path, list[tuple[float, float]]]] = []

    def day(self, video: Path, seat_map: SeatMap, windows: Spans, *, model: str,
            progress: Any) -> Observations:
        self.asked.append((video, list(windows)))
        progress(1, 1)
        return load_observations(FIX / "day_vote.observations.json")

    def nights(self, video: Path, seat_map: SeatMap, shootings: Spans, checks: Spans, *, model: str) -> dict[str, Any]:
        raise AssertionError("the day_vote game has no timed shooting or check to look at")

    def video_fps(self, video: Path) -> float | None:
        return None


def test_a_fake_observer_gives_the_audit_of_the_same_saved_observations() -> None:
    fake = FakeObserver()
    said: list[str] = []
    looked = audit_game(**GAME, observer=fake, progress=said.append, nights=True)
    saved = audit_game(**GAME, observations=FIX / "day_vote.observations.json", video=FIX / "day_vote.mp4")
    assert [(video.name, bool(windows)) for video, windows in fake.asked] == [("day_vote.mp4", True)]
    timed = [e for e in read_json(GAME["protocol"])["events"] if e["type"] == "vote"]
    (_, windows), = fake.asked
    assert all(any(a <= e["t"] < b for a, b in windows) for e in timed)  # every timed vote is looked at
    assert looked.findings and looked.to_json()["findings"] == saved.to_json()["findings"]
    assert any("looked at 1/1 frames" in s for s in said) and any("nights not audited" in s for s in said)
