"""A finding's confidence as the share of such suggestions that turn out right.

The audit's raw confidence multiplies evidence scores (detector confidence, timing margins, pose
steadiness); it orders findings well but its numbers mean nothing on their own. A logistic fit of
"was it right" against the raw score's log-odds (Platt scaling: two numbers, so a few dozen findings
cannot be over-fitted the way a free-form curve would be), made by `bench/confidence_calibration.py`
on the project's own rendered clips only, turns it into a probability: of the findings shown at 0.9,
about nine in ten were right there. The two numbers and the default threshold ship in `confidence.json`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

from review.audit.findings import Finding

FORMAT = "stopframe-confidence/1"
TABLE = Path(__file__).with_name("confidence.json")


EPS = 1e-3  # raw scores are clipped to [EPS, 1 - EPS] before taking log-odds


def _logit(raw: np.ndarray | float) -> np.ndarray:
    x = np.clip(np.asarray(raw, dtype=float), EPS, 1 - EPS)
    return np.log(x / (1 - x))


@dataclass(frozen=True)
class Calibration:
    slope: float  # on the raw score's log-odds
    offset: float
    default_threshold: float  # findings below it are hidden unless the judge asks for them

    def __call__(self, raw: float) -> float:
        """The calibrated confidence of a raw score."""
        return float(1 / (1 + np.exp(-np.clip(self.slope * _logit(raw) + self.offset, -30, 30))))

    def to_json(self, **extra: object) -> dict:
        return {"format": FORMAT, "slope": round(self.slope, 4), "offset": round(self.offset, 4),
                "default_threshold": self.default_threshold, **extra}


IDENTITY = Calibration(1.0, 0.0, 0.0)


def platt(scores: Sequence[float], right: Sequence[bool], prior: float = 1e-2) -> Calibration:
    """Maximum-likelihood logistic fit, with a small pull towards "raw as it is" so all-right data stays finite.

    The slope is held at zero or above: a higher raw score never means a less sure finding. With one wrong
    finding among dozens the free fit can tilt either way on that one point and would reverse the order.
    """
    x = _logit(np.asarray(scores, dtype=float))
    y = np.asarray(right, dtype=float)
    start = np.array([1.0, 0.0])

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = w[0] * x + w[1]
        nll = float(np.sum(np.logaddexp(0, z) - y * z)) + prior / 2 * float(np.sum((w - start) ** 2))
        p = 1 / (1 + np.exp(-np.clip(z, -30, 30)))
        return nll, np.array([np.sum((p - y) * x), np.sum(p - y)]) + prior * (w - start)

    w = minimize(loss, start, jac=True, method="L-BFGS-B", bounds=[(0.0, None), (None, None)]).x
    return Calibration(float(w[0]), float(w[1]), 0.0)


@lru_cache(maxsize=1)
def shipped() -> Calibration:
    """The fit made on our own clips; without one, raw scores pass through unchanged."""
    if not TABLE.exists():
        return IDENTITY
    data = json.loads(TABLE.read_text(encoding="utf-8"))
    return Calibration(float(data["slope"]), float(data["offset"]), float(data["default_threshold"]))


def calibrated(findings: Sequence[Finding]) -> tuple[Finding, ...]:
    """The findings with calibrated confidence; the audit's own score kept as `x_raw_confidence`."""
    cal = shipped()
    out = []
    for f in findings:
        raw = float(f.extra.get("x_raw_confidence", f.confidence))
        out.append(replace(f, confidence=cal(raw), extra={**f.extra, "x_raw_confidence": round(raw, 4)}))
    return tuple(out)

