"""Stretches of time (start, end) in seconds: the video read, the sound listened to."""

from __future__ import annotations

from collections.abc import Iterable


def merged(spans: Iterable[tuple[float, float]], slack: float = 0.0) -> list[tuple[float, float]]:
    """The stretches in time order, each joined to the one before where they overlap or lie within `slack` of
    each other: a stretch of video or sound is read once, and reading a short gap costs less than a second seek."""
    out: list[tuple[float, float]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1] + slack:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out
