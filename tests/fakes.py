"""A scripted hand detector, so that what vision makes of a detector's answers is tested fast and exactly, without MediaPipe.

`Scene` draws frames from a table (frame -> the scripted hands on it): a grey table on which each hand is a
patch of its own colour over its landmarks' box, so the picture changes where a hand comes and goes, as it
does for a real one (change gating and holding see it). `FakeBackend` is a
vision.backend.HandBackend: in whatever crop it is shown it finds the patches and answers with their hands'
landmarks, placed where each patch lies in that crop, and their scores. A hand shown `missed` is drawn a
hair off its colour (the same picture to gating and holding) that the fake does not recognise: a detector
that misses a hand it has in view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import av
import numpy as np

from contract.clock import Clock
from contract.observations import Observations
from contract.seats import SeatMap
from vision.backend import DetectedHand

FPS = 25
TABLE = 100  # grey of the empty table: lit (vision.detect.DARK_CROP), so no crop is enhanced
MISSED_SHIFT = 6  # green levels between a hand's colour and its missed colour: far below every 'changed' threshold
PAD = 4  # frame pixels of patch around a hand's landmarks


def hand_shape(pose: str) -> np.ndarray:
    """21 landmarks (x y z, in palm lengths, wrist at the origin, fingers up) of an open palm or a fist: readable
    hands to vision.pose (plausible_hand, classify)."""
    knuckles = [(-0.3, -1.0), (-0.1, -1.0), (0.1, -1.0), (0.3, -1.0)]
    if pose == "open_palm":
        thumb = [(-0.3, -0.15), (-0.5, -0.3), (-0.65, -0.45), (-0.8, -0.6)]
        fingers = [[(x, -1.35), (x, -1.6), (x, -1.85)] for x, _ in knuckles]
    elif pose == "fist":
        thumb = [(-0.3, -0.2), (-0.45, -0.45), (-0.4, -0.7), (-0.3, -0.85)]
        fingers = [[(x, -1.3), (x, -1.1), (x, -0.9)] for x, _ in knuckles]
    else:
        raise ValueError(f"no shape for {pose!r}")
    points = [(0.0, 0.0), *thumb]
    for knuckle, rest in zip(knuckles, fingers, strict=True):
        points += [knuckle, *rest]
    return np.column_stack([np.array(points), np.zeros(21)])


@dataclass(frozen=True)
class ScriptedHand:
    """A hand as the fake detector reports it: landmarks in frame pixels and a score; `colour` marks its patch."""

    landmarks: np.ndarray  # (21, 3) frame pixels
    score: float
    colour: tuple[int, int, int]  # BGR
    box: tuple[int, int, int, int]  # x0 y0 x1 y1 of its patch, frame pixels (x1 y1 exclusive)

    def missed_colour(self) -> tuple[int, int, int]:
        b, g, r = self.colour
        return b, g + MISSED_SHIFT, r


@dataclass
class Scene:
    """Frames of a table seen by `seat_map`, with the scripted hands on each frame."""

    seat_map: SeatMap
    hands: list[ScriptedHand] = field(default_factory=list)
    table: dict[int, dict[int, bool]] = field(default_factory=dict)  # frame -> hand number -> missed

    def hand(self, seat: int, pose: str = "open_palm", score: float = 0.9, size: float = 40.0,
             dx: float = 0.0, raised: bool = False) -> int:
        """A new hand of `pose`, `size` frame pixels from wrist to middle knuckle, its palm centre `dx` pixels
        right of the middle of `seat`'s zone (`raised`: of its raise zone); its number for `show`."""
        shape = hand_shape(pose) * size
        zone = self.seat_map.seats[seat].raise_ if raised else self.seat_map.seats[seat].zone
        centre = zone.mean(axis=0) + (dx, 0.0)
        points = shape + (*(centre - shape[[0, 5, 9, 13, 17], :2].mean(axis=0)), 0.0)
        lo = np.floor(points[:, :2].min(axis=0) - PAD).astype(int)
        hi = np.ceil(points[:, :2].max(axis=0) + PAD).astype(int)
        k = len(self.hands)
        self.hands.append(ScriptedHand(points, score, (30 + 20 * k, 160, 220), (*lo, *hi)))
        return k

    def show(self, hand: int, frames: range, missed: bool = False) -> None:
        """Put hand number `hand` on these frames (`missed`: in view, but the detector does not find it)."""
        for i in frames:
            self.table.setdefault(i, {})[hand] = missed

    def frame(self, index: int) -> np.ndarray:
        """The BGR picture of frame `index`."""
        w, h = self.seat_map.frame_size
        picture = np.full((h, w, 3), TABLE, np.uint8)
        for k, missed in self.table.get(index, {}).items():
            hand = self.hands[k]
            x0, y0, x1, y1 = hand.box
            picture[y0:y1, x0:x1] = hand.missed_colour() if missed else hand.colour
        return picture

    def write(self, path: Path, frames: int) -> Path:
        """Frames 0 .. frames-1 as a lossless video at FPS (FFV1: the colours the fake knows survive)."""
        with av.open(str(path), "w") as container:
            stream = container.add_stream("ffv1", rate=FPS)
            stream.width, stream.height = self.seat_map.frame_size
            stream.pix_fmt = "bgr0"
            for i in range(frames):
                container.mux(stream.encode(av.VideoFrame.from_ndarray(self.frame(i), format="bgr24")))
            container.mux(stream.encode())
        return path


class FakeTracker:
    """A tracking stream of the fake: the same answers as a look, with the stream's contract checked."""

    def __init__(self, backend: FakeBackend) -> None:
        self.backend = backend
        self.times: list[float] = []
        self.closed = False

    def detect(self, picture: np.ndarray, t: float) -> list[DetectedHand]:
        assert not self.closed, "a closed tracking stream was asked"
        assert not self.times or t >= self.times[-1], f"time went back: {t} after {self.times[-1]}"
        self.times.append(t)
        return self.backend.answer(picture)

    def close(self) -> None:
        self.closed = True


class FakeBackend:
    """vision.backend.HandBackend answering from a Scene's patches; counts what it was asked."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.trackers: list[FakeTracker] = []
        self.looks = 0
        self.closed = False

    def tracker(self) -> FakeTracker:
        self.trackers.append(FakeTracker(self))
        return self.trackers[-1]

    def look(self, picture: np.ndarray) -> list[DetectedHand]:
        self.looks += 1
        return self.answer(picture)

    def close(self) -> None:
        self.closed = True

    def answer(self, picture: np.ndarray) -> list[DetectedHand]:
        """Every scripted hand whose patch shows whole in `picture` (a crop of a frame), in that crop's pixels:
        the patch's place and size in the crop say where its landmarks go (a hand cut by the crop's edge is
        not found)."""
        found = []
        h, w = picture.shape[:2]
        for hand in self.scene.hands:
            ys, xs = np.nonzero(np.all(picture == hand.colour, axis=2))
            if not len(xs) or xs.min() == 0 or ys.min() == 0 or xs.max() == w - 1 or ys.max() == h - 1:
                continue
            x0, y0, x1, y1 = hand.box
            scale = (xs.max() + 1 - xs.min()) / (x1 - x0)
            centre = np.array([xs.min() + xs.max() + 1, ys.min() + ys.max() + 1]) / 2
            points = hand.landmarks.copy()
            points[:, :2] = (points[:, :2] - ((x0 + x1) / 2, (y0 + y1) / 2)) * scale + centre
            points[:, 2] *= scale
            found.append(DetectedHand(points, hand.score, "Right"))
        return found


class ScriptedCameras:
    """The observer (pipeline.observer.Observer) of a several-camera test game: each video's scripted observations,
    on that video's clock; `clock` None is a game read from saved observations (no video opened)."""

    def __init__(self, clock: Clock | None, seen: dict[str, Observations]) -> None:
        self.clock = clock
        self.seen = seen
        self.asked: dict[str, list[tuple[float, float]]] = {}  # video name -> the windows it was asked for

    def day(self, video: Path, seat_map: SeatMap, windows: Sequence[tuple[float, float]], *, model: str,
            progress: Any) -> Observations:
        self.asked[video.name] = list(windows)
        return self.seen[video.name]

    def nights(self, video: Path, seat_map: SeatMap, shootings: Sequence[tuple[float, float]],
               checks: Sequence[tuple[float, float]], *, model: str) -> dict[str, Any]:
        raise AssertionError("no night is looked at here")

    def video_clock(self, video: Path) -> Clock | None:
        return self.clock
