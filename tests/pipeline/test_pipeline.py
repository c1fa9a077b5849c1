"""The pipeline (pipeline.audit.audit_game) with a fake observer: the flow protocol → windows → observe →
audit is the same whether the hands come from vision, from a saved file or from a test."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from contract.clock import Clock
from contract.jsonio import read_json
from contract.observations import Observations, load_observations
from contract.seats import SeatMap
from pipeline.audit import audit_game
from pipeline.observer import Spans
from review.audit.findings import finding_key

FIX = Path(__file__).parents[1] / "fixtures" / "audit"
GAME = {"protocol": FIX / "day_vote.protocol.json", "seats": FIX / "day_vote.seats.json"}


class FakeObserver:
    """Hands from a saved observations file; remembers what the pipeline asked to look at."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.asked: list[tuple[Path, list[tuple[float, float]]]] = []
        self.clock = clock

    def day(self, video: Path, seat_map: SeatMap, windows: Spans, *, model: str,
            progress: Any) -> Observations:
        self.asked.append((video, list(windows)))
        progress(1, 1)
        return load_observations(FIX / "day_vote.observations.json")

    def nights(self, video: Path, seat_map: SeatMap, shootings: Spans, checks: Spans, *, model: str) -> dict[str, Any]:
        raise AssertionError("the day_vote game has no timed shooting or check to look at")

    def video_clock(self, video: Path) -> Clock | None:
        return self.clock


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


def test_evidence_frames_of_window_times_are_on_the_video_clock() -> None:
    """At a variable frame rate the frame at a window time comes from the video's own timestamps, not the
    observations' stated rate; the hands' own frames and every time stay as they are."""
    stated = audit_game(**GAME, observer=FakeObserver())
    vfr = Clock.variable([i * 20 for i in range(600)] + [12_000 + i * 40 for i in range(1, 1200)], Fraction(1, 1000), 25.0)
    timed = audit_game(**GAME, observer=FakeObserver(vfr))
    assert [finding_key(f) for f in stated.findings] == [finding_key(f) for f in timed.findings]
    moved = 0
    for a, b in zip(stated.findings, timed.findings, strict=True):
        assert set(a.evidence.times) == set(b.evidence.times)
        before = set(zip(a.evidence.frames, a.evidence.times, strict=True))
        for frame, t in zip(b.evidence.frames, b.evidence.times, strict=True):
            assert (frame, t) in before or frame == vfr.at(t).frame
            moved += (frame, t) not in before
    assert moved
