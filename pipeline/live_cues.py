"""A filmed game's protocol given back to the live table as the judge's cues, each at its time: a recorded game
replayed at the table (`stopframe live` on a filmed game, the page, the bench and the tests)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from pipeline.live import VOTE_TYPES, LiveTable


class ProtocolCues:
    """A filmed game's protocol given back as the judge's cues at their times: a game replayed at the table
    (`stopframe live` on a recorded game, the bench and the tests). Each entry comes at its own time; one without
    a time comes with the entry before it."""

    def __init__(self, protocol: dict[str, Any], *, tap_lag_s: float | None = None) -> None:
        """`tap_lag_s`: each «Стоп» is tapped this long after the protocol's cutoff, and the table listens for the
        word (the bench's judge, whose finger follows the voice); None: given at the cutoff itself."""
        self.cues: deque[tuple[float, Callable[[LiveTable], None]]] = deque()
        at = 0.0
        for ev in protocol.get("events") or ():
            for t, cue in _cues_of(ev, tap_lag_s):
                at = max(at, t if t is not None else at)
                self.cues.append((at, cue))

    def until(self, table: LiveTable, t: float) -> None:
        """Give the table every cue due by video time `t`; a cue out of turn (a protocol whose entries do not follow
        the game's order) is left out, so the replay, and the recording it rides on, goes on."""
        while self.cues and self.cues[0][0] <= t + 1e-6:
            try:
                self.cues.popleft()[1](table)
            except ValueError:
                continue


def _cues_of(ev: dict[str, Any], tap_lag_s: float | None) -> list[tuple[float | None, Callable[[LiveTable], None]]]:
    kind, t, cutoff = ev.get("type"), ev.get("t"), ev.get("cutoff")
    if kind in VOTE_TYPES and not (isinstance(t, (int, float)) and isinstance(cutoff, (int, float))):
        held = {k: v for k, v in ev.items() if k not in ("t", "announced")}  # no «Стоп» to give: kept as written
        return [(t if isinstance(t, (int, float)) else None, lambda table: table.add(held))]
    if kind not in VOTE_TYPES:
        return [(t if isinstance(t, (int, float)) else None, lambda table: table.add(ev))]
    day, rnd = ev.get("day"), ev.get("round")
    if kind == "vote":
        cues: list[tuple[float | None, Callable[[LiveTable], None]]] = [
            (t, lambda table: table.name(ev["candidate"], t, day=day, round_=rnd) and None)]
    else:
        cues = [(t, lambda table: table.name_lift(ev["candidates"], t, day=day, round_=rnd) and None)]
    announced = ev.get("announced")
    if tap_lag_s is None:
        cues.append((cutoff, lambda table: table.stop(cutoff)))
    else:
        tap = cutoff + tap_lag_s
        cues.append((tap, lambda table: table.stop(tap, listen=True)))
    if isinstance(announced, (int, float)) and isinstance(ev.get("count"), int):
        cues.append((announced, lambda table: table.announce(ev["count"], announced)))
    return cues
