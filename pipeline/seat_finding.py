"""The protocol's side of finding the seats from the video: which votes to watch and who was still at the table.

vision.seat_finder knows hands and pictures, never rules; this module turns a protocol into what it needs
(vote windows with their voters, the living seats) and is what the command line and the app call.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from contract.errors import InvalidInput
from contract.i18n import _
from pipeline.cameras import camera_of, on_camera
from review.game.protocol import format_problems, load_protocol
from review.game.timeline import vote_windows
from vision.seat_finder import FoundMap, Window, hand_detector, look, seats_from

MAX_WINDOWS = 8  # the first votes with times; day 1 has every living player's hand, later ones add little
ENOUGH_WINDOWS = 2  # the first voting day's windows are enough when there are this many (every living player
# votes once that day); fewer (a day with one vote, or times recorded for one only): the next day's are added


def finder_windows(data: dict, most: int = MAX_WINDOWS, days: int = 1) -> tuple[list[Window], frozenset[int]]:
    """The vote windows that have times (plain votes, not lift votes: each candidate's voters rest in their own
    zones) of the first `days` voting days (and of the next ones while there are fewer than ENOUGH_WINDOWS), at
    most `most`, and the seats still at the table at the first of them. Why only the first day: every living
    player votes in it, and each window more costs time without adding a hand."""
    events = data.get("events", [])
    windows: list[Window] = []
    first_event: int | None = None
    seen_days: list[int] = []
    for w in vote_windows(data):
        if w.kind != "vote" or w.t is None or w.cutoff is None or w.announced is None:
            continue
        if w.day not in seen_days:
            if len(seen_days) >= days and len(windows) >= ENOUGH_WINDOWS:
                break
            seen_days.append(w.day)
        ev = events[w.event_index]
        voters = ev.get("voters")
        label = _("day {day}, candidate {candidate}", day=w.day, candidate=w.candidate)
        count = ev.get("count")
        windows.append(Window(w.t, w.cutoff, w.announced,
                              frozenset(int(v) for v in voters) if isinstance(voters, list) else None, label,
                              count if isinstance(count, int) and not isinstance(count, bool) else None))
        first_event = w.event_index if first_event is None else first_event
        if len(windows) >= most:
            break
    left = {int(ev["seat"]) for ev in events[:first_event if first_event is not None else len(events)]
            if isinstance(ev, dict) and ev.get("type") in ("elimination", "removal") and isinstance(ev.get("seat"), int)}
    return windows, frozenset(range(1, 11)) - left


def find_game_seats(video: str | os.PathLike[str], protocol: str | os.PathLike[str] | None = None, *,
                    progress: Callable[[int, int], None] | None = None, most: int = MAX_WINDOWS) -> FoundMap:
    """The seat map of `video` from the hands during the protocol's timed votes (no protocol, or none timed:
    from the whole video), numbered from the judge's left with the protocol's departures left empty. The first
    voting day is looked at; where a living seat stays unplaced, the second day's windows are added to what
    the first showed (no frame is read twice)."""
    path = str(Path(video))
    if protocol is None:
        return seats_from(look(path, [], progress=progress))
    proto = load_protocol(protocol)
    problems = format_problems(proto.data)
    if problems:
        raise InvalidInput(_("{path}: {problem} — run `stopframe validate` for every problem.", path=protocol,
                             problem=problems[0]))
    camera = camera_of(proto, video)  # a camera of `videos`: the votes on its own clock (offset and drift)
    data = on_camera(proto.data, camera) if camera else proto.data
    windows, living = finder_windows(data, most)
    detector = hand_detector()  # one for both looks
    try:
        looked = look(path, windows, backend=detector, progress=progress)
        found = seats_from(looked, living)
        silent = [n for n in living if n in found.unfound]
        more, _living = finder_windows(data, most, days=2)
        if not silent or len(more) <= len(windows):
            return found
        # a living player whose hand never rested on the first day (a silent vote, a hand lifted at once): the
        # next day's votes may show it; the map with fewer seats unplaced is kept
        again = seats_from(look(path, more, backend=detector, progress=progress, before=looked), living)
    finally:
        detector.close()
    if sum(n in again.unfound for n in living) < len(silent):
        return again
    return replace(found, seconds=again.seconds)
