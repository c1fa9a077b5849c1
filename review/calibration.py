"""A finding's confidence as the share of such suggestions that turn out right.

The audit's raw confidence multiplies evidence scores (detector confidence, timing margins, pose
steadiness); it orders findings well but its numbers mean nothing on their own. An isotonic
(monotone) fit of "was it right" against the raw score, made by `bench/confidence_calibration.py`
on the project's own rendered clips only, turns it into a probability: of the findings shown at
0.9, about nine in ten were right there. The fit ships as a small table (`confidence.json`) and
is applied by linear interpolation between its points.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from review.findings import Finding

FORMAT = "stopframe-confidence/1"
TABLE = Path(__file__).with_name("confidence.json")


@dataclass(frozen=True)
class Calibration:
    raw: tuple[float, ...]  # increasing raw scores
    p: tuple[float, ...]  # non-decreasing share right at each
    default_threshold: float  # findings below it are hidden unless the judge asks for them

    def __call__(self, raw: float) -> float:
        """The calibrated confidence of a raw score (flat beyond the fitted range)."""
        if not self.raw:
            return raw
        return float(np.interp(raw, self.raw, self.p))

    def to_json(self, **extra: object) -> dict:
        return {"format": FORMAT, "raw": [round(x, 4) for x in self.raw], "p": [round(y, 4) for y in self.p],
                "default_threshold": self.default_threshold, **extra}


def isotonic(scores: Sequence[float], right: Sequence[bool]) -> Calibration:
    """Pool adjacent violators: the monotone step fit of `right` against `scores`, one point per block."""
    pairs = sorted(zip(scores, right, strict=True))
    blocks: list[list[float]] = []  # [sum right, count, lowest score, highest score]
    for s, r in pairs:
        blocks.append([float(r), 1.0, s, s])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            top = blocks.pop()
            blocks[-1][0] += top[0]
            blocks[-1][1] += top[1]
            blocks[-1][3] = top[3]
    raw, p = [], []
    for total, n, lo, hi in blocks:
        raw.append((lo + hi) / 2)
        p.append(total / n)
    return Calibration(tuple(raw), tuple(p), default_threshold=0.0)


@lru_cache(maxsize=1)
def shipped() -> Calibration:
    """The table fitted on our own clips; without one, raw scores pass through unchanged."""
    if not TABLE.exists():
        return Calibration((), (), 0.0)
    data = json.loads(TABLE.read_text(encoding="utf-8"))
    return Calibration(tuple(data["raw"]), tuple(data["p"]), float(data["default_threshold"]))


def calibrated(findings: Sequence[Finding]) -> tuple[Finding, ...]:
    """The findings with calibrated confidence; the audit's own score kept as `x_raw_confidence`."""
    cal = shipped()
    out = []
    for f in findings:
        raw = float(f.extra.get("x_raw_confidence", f.confidence))
        out.append(replace(f, confidence=cal(raw), extra={**f.extra, "x_raw_confidence": round(raw, 4)}))
    return tuple(out)

