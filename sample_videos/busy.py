"""The busy table: the bundled sample game with every seated player's hands moving all the time.

The rendered players of the sample game sit still between their votes, so change gating makes a still
seat cost nothing and hides what real players cost: they gesture, shift and tap the table edge all the
time. Here, over every day window, each living player's left hand and, between its votes, its right
hand keep moving among spots at the table edge (on the wood, outside the voting zone), the lap and the
chest (a gesture in the air), a move every quarter to two thirds of a second with short holds, so every
seat's crop changes on most frames while its voting zone shows only the votes. The votes, the protocol
and the findings are the sample game's; the moving hands are in the truth's `x_other_hands` (kind
`busy`). Rendered on demand (`python3 -m sample_videos busy --out DIR`, bench/audit_cost.py), never
committed.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from .build import _audio, encode_segment, join, pad_to_gops, windows_of, write_set
from .game import OtherHand, Window, sample_game
from .motion import snap
from .scenarios import Conditions, Stage, seats_json

CLEAR = 0.45  # seconds kept free before a vote hand's arrival and after its departure (the vote's own travel)


def busy_others(window: Window) -> list[OtherHand]:
    """The moving hands of one day window: the left hand of every living player over the whole window, the
    right hand over the stretches between its votes (a stretch shorter than a second is left alone)."""
    if window.night:
        return []
    others: list[OtherHand] = []
    for n in window.living:
        others.append(OtherHand(n, False, "busy", 0.0, window.duration))
        busy_from = 0.0
        for h in sorted((h for h in window.hands if h.seat == n), key=lambda h: h.on):
            if h.on - CLEAR - busy_from >= 1.0:
                others.append(OtherHand(n, True, "busy", busy_from, snap(h.on - CLEAR)))
            busy_from = snap(h.off + CLEAR)
        if window.duration - busy_from >= 1.0:
            others.append(OtherHand(n, True, "busy", busy_from, window.duration))
    return others


def build_busy(out_dir: Path, log: Callable[[str], None] = print) -> Path:
    """Render the busy sample game into out_dir (busy_game.mp4, .protocol/.truth/.seats.json); returns its stem."""
    items = sample_game()
    windows = [pad_to_gops(w) for w in windows_of(items)]
    for w in windows:
        w.others = list(w.others) + busy_others(w)
    stage = Stage(Conditions())
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        log("rendering the busy table (1920x1080)")
        segments = [encode_segment(stage, w, Path(tmp) / f"{w.name}.mp4", 100 + i, log) for i, w in enumerate(windows)]
        offsets, clock = {}, 0.0
        for w in windows:
            offsets[w.name] = round(clock, 2)
            clock += w.duration
        join([(s.path, 1) for s in segments], out_dir / "busy_game.mp4", _audio(windows, offsets, clock, 5))
    write_set(out_dir, "busy_game", "busy_game.mp4", items, windows, offsets, seats_json(stage), "sample-game/busy")
    return out_dir / "busy_game"
