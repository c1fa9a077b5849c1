"""The checks of one JSON value that every reader of the project's formats shares: a whole number, a finite
number, a seat, the longest time a video can have.

Here so that the protocol (review.game.protocol) and the observations file (contract.observations) refuse a
seat or a number by one rule and in the same words; each reader says in its own way what the wrong value was
(`shown`), since the two formats' messages already differ there.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from contract.i18n import _

SEATS = range(1, 11)
MAX_SECONDS = 1_000_000.0  # 11 days of video: a time beyond it is a typo, and would overflow frame arithmetic


def is_int(v: Any) -> bool:
    """A JSON whole number (true and false are no numbers here)."""
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v: Any) -> bool:
    """A finite JSON number (true and false are no numbers here)."""
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def seat_problem(v: Any, shown: Callable[[Any], str]) -> str | None:
    """Why `v` is no seat 1–10, or None; `shown` puts the wrong value into the sentence."""
    if not is_int(v):
        return _("must be a seat number 1–10, not {value}", value=shown(v))
    if v not in SEATS:
        return _("seat {seat} does not exist (seats are 1–10)", seat=v)
    return None
