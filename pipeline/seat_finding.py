"""The protocol's side of finding the seats from the video: which votes to watch and who was still at the table.

vision.seat_finder knows hands and pictures, never rules; this module turns a protocol into what it needs
(vote windows with their voters, the living seats) and is what the command line and the app call.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from contract.errors import InvalidInput
from pipeline.cameras import camera_of, on_camera
from review.game.protocol import format_problems, load_protocol
from review.game.timeline import vote_windows
from vision.seat_finder import FoundMap, Window, find_seats

MAX_WINDOWS = 8  # the first votes with times; day 1 has every living player's hand, later ones add little


def finder_windows(data: dict, most: int = MAX_WINDOWS) -> tuple[list[Window], frozenset[int]]:
    """The first `most` vote windows that have times (plain votes, not lift votes: each candidate's voters
    rest in their own zones), and the seats still at the table at the first of them."""
    events = data.get("events", [])
    windows: list[Window] = []
    first_event: int | None = None
    for w in vote_windows(data):
        if w.kind != "vote" or w.t is None or w.cutoff is None or w.announced is None:
            continue
        ev = events[w.event_index]
        voters = ev.get("voters")
        label = f"day {w.day}, candidate {w.candidate}"
        windows.append(Window(w.t, w.cutoff, w.announced,
                              frozenset(int(v) for v in voters) if isinstance(voters, list) else None, label))
        first_event = w.event_index if first_event is None else first_event
        if len(windows) >= most:
            break
    left = {int(ev["seat"]) for ev in events[:first_event if first_event is not None else len(events)]
            if isinstance(ev, dict) and ev.get("type") in ("elimination", "removal") and isinstance(ev.get("seat"), int)}
    return windows, frozenset(range(1, 11)) - left


def find_game_seats(video: str | os.PathLike[str], protocol: str | os.PathLike[str] | None = None, *,
                    progress: Callable[[int, int], None] | None = None, most: int = MAX_WINDOWS) -> FoundMap:
    """The seat map of `video` from the hands during the protocol's timed votes (no protocol, or none timed:
    from the whole video), numbered from the judge's left with the protocol's departures left empty."""
    windows: list[Window] = []
    living: frozenset[int] | None = None
    if protocol is not None:
        proto = load_protocol(protocol)
        problems = format_problems(proto.data)
        if problems:
            raise InvalidInput(f"{protocol}: {problems[0]} — run `stopframe validate` for every problem.")
        camera = camera_of(proto, video)  # a camera of `videos`: the votes on its own clock (offset and drift)
        windows, living = finder_windows(on_camera(proto.data, camera) if camera else proto.data, most)
    return find_seats(str(Path(video)), windows, living, progress=progress)
