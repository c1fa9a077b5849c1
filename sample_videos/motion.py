"""Hand motion: each hand of each player follows a track of moves between held states.

A move lifts the hand in an arc and lands it fast (ease-in), and leaves fast (ease-out), so the
frame before a hand comes to rest and the frame it starts to leave already differ visibly from
the resting picture: the truth's [on, off) frames are where the hand really rests.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from .hands import HandState

FPS = 25
UP = np.array([0.0, 0.0, 1.0])


@dataclass(frozen=True)
class Move:
    t0: float
    t1: float
    dst: HandState
    lift: float
    arrive: bool  # True: ease-in (lands at t1); False: ease-out (leaves at t0)


@dataclass
class Track:
    """One hand's path through a clip: a starting state and time-ordered moves."""

    base: HandState
    moves: list[Move] = field(default_factory=list)

    def move(self, t0: float, t1: float, dst: HandState, lift: float = 0.06, arrive: bool = True) -> None:
        self.moves.append(Move(t0, t1, dst, lift, arrive))
        self.moves.sort(key=lambda m: m.t0)

    def at(self, t: float) -> tuple[HandState, int | None]:
        """The hand at time t, and a key that is the same for every frame of one hold (None in motion)."""
        state, key = self.base, -1
        for i, m in enumerate(self.moves):
            if t >= m.t1:
                state, key = m.dst, i
            elif t > m.t0:
                w = (t - m.t0) / (m.t1 - m.t0)
                e = w * w if m.arrive else 1 - (1 - w) ** 2
                mid = state.blend(m.dst, e)
                return replace(mid, wrist=mid.wrist + UP * m.lift * np.sin(np.pi * w)), None
            else:
                break
        return state, key


def frame_time(index: int) -> float:
    return index / FPS


def snap(t: float) -> float:
    """The time of the first frame at or after t."""
    return int(np.ceil(t * FPS - 1e-6)) / FPS


def place(track: Track, on: float, off: float, rest: HandState, back: HandState, travel: float = 0.28,
          lift: float = 0.07) -> None:
    """The hand arrives at `rest` exactly at frame time `on` and first differs from it at frame time `off`."""
    track.move(on - travel, on, rest, lift, arrive=True)
    start = off - 1.0 / FPS
    track.move(start, start + travel, back, lift, arrive=False)


class Jitter:
    """A small random walk in whole pixels for each seat: hands are never perfectly still."""

    def __init__(self, seed: int, seats: list[int], n_frames: int, amplitude: int = 1) -> None:
        rng = np.random.default_rng(seed)
        self.offsets: dict[int, np.ndarray] = {}
        for s in seats:
            steps = rng.integers(-1, 2, size=(n_frames, 2)) * (rng.random((n_frames, 1)) < 0.25)
            self.offsets[s] = np.clip(np.cumsum(steps, axis=0), -amplitude, amplitude)

    def at(self, seat: int, index: int) -> tuple[int, int]:
        o = self.offsets[seat][index]
        return int(o[0]), int(o[1])
