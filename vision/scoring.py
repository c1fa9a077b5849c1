"""Observed hand intervals vs ground truth (spec §3 `hands`): matching, recall, precision, frame errors.

Used by the accuracy benchmark and by the tests that hold observe() to the sample clips' truth.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from contract.clock import Clock


@dataclass
class Score:
    matched: list[tuple[dict, dict]] = field(default_factory=list)  # (truth, observed)
    missed: list[dict] = field(default_factory=list)  # truth intervals nobody matched
    phantoms: list[dict] = field(default_factory=list)  # observed intervals matching no truth

    @property
    def recall(self) -> float:
        n = len(self.matched) + len(self.missed)
        return len(self.matched) / n if n else 1.0

    @property
    def precision(self) -> float:
        n = len(self.matched) + len(self.phantoms)
        return len(self.matched) / n if n else 1.0

    def onset_errors(self) -> list[int]:
        return [o["on_frame"] - t["on_frame"] for t, o in self.matched]

    def offset_errors(self) -> list[int]:
        return [o["off_frame"] - t["off_frame"] for t, o in self.matched]

    def poses(self) -> Counter:
        return Counter((t.get("pose", "other"), o.get("pose", "other")) for t, o in self.matched)

    def add(self, other: Score) -> None:
        self.matched += other.matched
        self.missed += other.missed
        self.phantoms += other.phantoms


def frames_of(interval: dict, fps: float) -> tuple[int, int]:
    """(on_frame, off_frame) of a truth or observed interval, from its seconds where frames are absent."""
    clock = Clock.constant(fps)
    on = interval.get("on_frame", clock.nearest(interval["on"]))
    off = interval.get("off_frame", clock.nearest(interval["off"]))
    return int(on), int(off)


def score_intervals(truth: list[dict], observed: list[dict], fps: float) -> Score:
    """Match each truth interval to the overlapping observed interval of the same seat nearest in onset."""
    result = Score()
    pool = [dict(o, on_frame=frames_of(o, fps)[0], off_frame=frames_of(o, fps)[1]) for o in observed]
    used: set[int] = set()
    for t in sorted(truth, key=lambda h: h["on"]):
        t = dict(t, on_frame=frames_of(t, fps)[0], off_frame=frames_of(t, fps)[1])
        best = None
        for i, o in enumerate(pool):
            overlaps = o["on_frame"] < t["off_frame"] and t["on_frame"] < o["off_frame"]
            if i in used or o["seat"] != t["seat"] or not overlaps:
                continue
            if best is None or abs(o["on_frame"] - t["on_frame"]) < abs(pool[best]["on_frame"] - t["on_frame"]):
                best = i
        if best is None:
            result.missed.append(t)
        else:
            used.add(best)
            result.matched.append((t, pool[best]))
    result.phantoms = [o for i, o in enumerate(pool) if i not in used]
    return result
