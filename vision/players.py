"""The players round the table, from their faces: where the chairs are before any hand has rested.

Why: in the first minutes of a game no vote has happened, so no hand has rested in front of a chair; the players
themselves show where the chairs are. MediaPipe's full-range face detector (from the same Apache-2.0 wheel as the
hand model, bundled in vision/models and checked against its sha256 in models.json; nothing is downloaded) is
run on overlapping squares of a few frames; a face found on several of them, in the same place, is a player.
vision.seat_finder turns each player into a chair on the ring of resting places (`chair_places`) or, where the
table's outline is known, fits the ten chairs round it to the players and the hands seen (`chair_layout`).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import cv2
import numpy as np

from contract.errors import UnreadableInput
from contract.i18n import _
from vision.backend import quiet_native_stderr
from vision.crops import covering_starts
from vision.table import Table

FACE_MODEL = "face_detection_full_range_sparse.tflite"
MIN_SCORE = 0.3  # the detector's score for a face (rendered and distant faces score low; a player must also
# be found again on another frame, which a stray pattern rarely is)
TILE_SHARE = 0.5  # squares of half the picture's height, overlapping by half: a face of 3-10 % of the height
# is 6-20 % of the square, where the full-range model reads best
SAME_FACE = 0.6  # face sizes: two faces this close are one player
JUDGE_GAP = (1.0, 3.0)  # the judge's place between seat 10 and seat 1 is this many chair spacings wide (the
# judge's own chair and elbow room; fitted between these, in tenths) ...
JUDGE_WIDE, JUDGE_COST = 2.0, 0.3  # ... about two, the fit paying this per spacing squared away from it: idle
# hands lie to one side of their chair, and where they crowd one side the fit alone turned the ring a chair
TURN = 5.0  # degrees: the chairs may be turned this far from the judge's straight-down ray (a camera a little
# off the table's axis), fitted in one-degree steps
SPREAD_LEAST = 0.3  # the hands' heights (in the table's half height) must spread this much to measure crowding
CROWD_LEAST = 0.5  # the most perspective crowds the far chairs (`crowding`; 1: a camera straight above)
TURN_COST = 0.02  # the fit's cost of turning the chairs the full TURN (a centred camera is the assumption)
HAND_REACH = 0.75  # with no resting hand to learn from: a player's hand rests this share of the way from the
# ring's centre to the face (the table's edge lies between the face and the centre)


@dataclass(frozen=True)
class Face:
    """One face on one frame, in frame pixels."""

    frame: int
    x: float
    y: float
    size: float
    score: float


@dataclass(frozen=True)
class Player:
    """A face found on several frames in the same place: a player sitting there."""

    x: float
    y: float
    size: float
    frames: int


@lru_cache(maxsize=1)
def face_model_bytes() -> bytes:
    """The bundled face detector's bytes, refused unless their sha256 is the one models.json records."""
    folder = resources.files("vision").joinpath("models")
    try:
        manifest = json.loads(folder.joinpath("models.json").read_text(encoding="utf-8"))
        data = folder.joinpath(FACE_MODEL).read_bytes()
    except (OSError, ValueError) as exc:
        raise UnreadableInput(_("{path}: the bundled face model cannot be read ({detail}).",
                                path=f"vision/models/{FACE_MODEL}", detail=exc)) from exc
    digest, expected = hashlib.sha256(data).hexdigest(), manifest.get("sha256", {}).get(FACE_MODEL)
    if digest != expected:
        raise UnreadableInput(_("{path}: sha256 {found}… does not match models.json ({expected}…); the model file "
                                "is damaged or was replaced.", path=f"vision/models/{FACE_MODEL}", found=digest[:12],
                                expected=str(expected)[:12]))
    return data


class FaceFinder:
    """MediaPipe's face detector (IMAGE mode) on the bundled model, shown overlapping squares of a frame."""

    def __init__(self, min_score: float = MIN_SCORE) -> None:
        from mediapipe.tasks.python import BaseOptions
        from mediapipe.tasks.python.vision import FaceDetector, FaceDetectorOptions

        options = FaceDetectorOptions(base_options=BaseOptions(model_asset_buffer=face_model_bytes()),
                                      min_detection_confidence=min_score)
        with quiet_native_stderr():
            self._detector = FaceDetector.create_from_options(options)

    def faces(self, image: np.ndarray, frame: int = 0) -> list[Face]:
        """The faces on one BGR frame (one per place: the overlapping squares find a face twice)."""
        import mediapipe as mp

        height, width = image.shape[:2]
        side = max(64, int(round(height * TILE_SHARE)))
        step = max(32, side // 2)
        found: list[Face] = []
        for y0 in covering_starts(height, side, step):
            for x0 in covering_starts(width, side, step):
                square = np.ascontiguousarray(cv2.cvtColor(image[y0:y0 + side, x0:x0 + side], cv2.COLOR_BGR2RGB))
                result = self._detector.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=square))
                for d in result.detections:
                    b = d.bounding_box
                    found.append(Face(frame, x0 + b.origin_x + b.width / 2, y0 + b.origin_y + b.height / 2,
                                      float(max(b.width, b.height)), float(d.categories[0].score)))
        kept: list[Face] = []
        for face in sorted(found, key=lambda f: -f.score):
            if all(math.hypot(face.x - k.x, face.y - k.y) > SAME_FACE * max(face.size, k.size) for k in kept):
                kept.append(face)
        return kept

    def close(self) -> None:
        self._detector.close()


def players(faces: Sequence[Face], least_frames: int = 2) -> list[Player]:
    """Faces grouped by place over the frames; a group seen on at least `least_frames` frames is a player."""
    groups: list[list[Face]] = []
    for face in sorted(faces, key=lambda f: -f.score):
        for group in groups:
            g = group[0]
            if math.hypot(face.x - g.x, face.y - g.y) <= SAME_FACE * max(face.size, g.size):
                group.append(face)
                break
        else:
            groups.append([face])
    out = []
    for group in groups:
        frames = len({f.frame for f in group})
        if frames >= least_frames:
            xy = np.median(np.array([(f.x, f.y) for f in group]), axis=0)
            out.append(Player(float(xy[0]), float(xy[1]), float(np.median([f.size for f in group])), frames))
    return out


def chair_places(seen: Sequence[Player], hands: Sequence[tuple[float, float]]) -> list[tuple[Player, float, float]]:
    """Where the hands of the players with no resting hand would rest: on the line from the ring's centre to
    the face, at the share of that distance the resting hands lie at for the players who have one (a face
    and a hand on the same bearing from the centre), or HAND_REACH with none. The ring's centre is the middle
    of the faces' and hands' bounding box. A player whose bearing already holds a hand gets nothing."""
    if not seen:
        return []
    xy = np.array([(p.x, p.y) for p in seen] + list(hands), dtype=float)
    centre = (xy.min(axis=0) + xy.max(axis=0)) / 2
    bearing = lambda x, y: math.atan2(y - centre[1], x - centre[0])  # noqa: E731
    apart = math.pi / max(len(seen), 1)  # half the bearing between neighbouring players
    shares, free = [], []
    for p in seen:
        near = [h for h in hands if abs(_turn(bearing(*h) - bearing(p.x, p.y))) < apart]
        if near:
            h = min(near, key=lambda h: abs(_turn(bearing(*h) - bearing(p.x, p.y))))
            shares.append(math.dist(h, centre) / max(math.dist((p.x, p.y), centre), 1e-6))
        else:
            free.append(p)
    share = float(np.median(shares)) if shares else HAND_REACH
    return [(p, float(centre[0] + (p.x - centre[0]) * share), float(centre[1] + (p.y - centre[1]) * share))
            for p in free]


def _turn(a: float) -> float:
    """An angle folded into (-π, π]."""
    return (a + math.pi) % (2 * math.pi) - math.pi


def chair_layout(table: Table, bearings: Sequence[float], count: int = 10,
                 crowd: float = 1.0) -> tuple[np.ndarray, float, float]:
    """The `count` chairs' parameter angles on the table's ellipse (vision.table.Table.theta), clockwise from
    the judge's left, half the smallest angle between neighbours (how far a chair's evidence may lie from it),
    and the fit's cost per bearing. Why a layout: before any vote the evidence of where a chair stands is rough
    (a face is above and behind its chair, an idle hand lies to one side of it, the near players show only
    their backs) and some chairs show none, so numbering the evidence itself slips a chair wherever one is
    missing. Tournament chairs stand evenly round the table with the judge at the end nearest the camera (the
    finder's assumption, vision.seat_finder): evenly from the judge's place (the ray straight down from the
    table's middle) round the table, leaving a gap on either side of the judge, and perspective crowds the far
    chairs together by `crowd` (`crowded`, `crowding`). The gap (about JUDGE_WIDE spacings) and a small turn
    are fitted so that each bearing (a player's face, a hand resting on the table) lies near a chair, one
    half-way between two chairs costing the most."""
    cx, cy = table.centre
    judge = table.theta(cx, cy + 4 * max(table.axes))
    b = np.array(bearings, float)
    best: tuple[float, np.ndarray] | None = None
    for wide in np.arange(JUDGE_GAP[0], JUDGE_GAP[1] + 0.05, 0.1):
        step = 2 * math.pi / (count - 1 + wide)
        ring = crowded(step * (wide / 2 + np.arange(count)), crowd)  # from the judge's place
        for turn in np.radians(np.arange(-TURN, TURN + 0.5, 1.0)):
            chairs = judge + turn + ring
            cost = TURN_COST * (turn / math.radians(TURN)) ** 2 + JUDGE_COST * (wide - JUDGE_WIDE) ** 2
            if len(b):
                off = np.abs(np.remainder(b[:, None] - chairs[None, :] + math.pi, 2 * math.pi) - math.pi)
                k = np.argmin(off, axis=1)
                local = np.diff(chairs)[np.clip(k, 0, count - 2)]  # the spacing at that chair
                cost += float(np.sum(np.minimum(off[np.arange(len(b)), k] / local, 0.5) ** 2))
            if best is None or cost < best[0]:
                best = (cost, chairs)
    assert best is not None
    cost, chairs = best
    return np.remainder(chairs + math.pi, 2 * math.pi) - math.pi, float(np.min(np.diff(chairs))) / 2, \
        cost / max(1, len(b))


def crowded(angles: np.ndarray, crowd: float) -> np.ndarray:
    """Angles from the judge's place (0) round to the far end (π) and back, pushed towards the far end: the
    tangent of half the angle from the far end scaled by `crowd` (1: unchanged), as perspective maps a ring
    seen from one end (a circle's image: points measured from the far end draw nearer to it)."""
    far = angles - math.pi
    return math.pi + 2 * np.arctan(crowd * np.tan(far / 2))


def crowding(table: Table, hands: Sequence[tuple[float, float, float]]) -> float:
    """How much perspective crowds the far chairs (chair_layout's `crowd`), from the sizes of the hands resting
    round the table ((x, y, size) each): a ring seen from one end is mapped onto its picture so that the angles
    from the far end shrink by the root of how much smaller things are at the far rim than at the near one
    (the tangent of half the angle scaled by it). The log sizes are fitted by a straight line against the
    height in the picture (-1 the table's top, 1 its bottom); 1 where fewer than four hands, or hands not
    spread over the table's height, say."""
    if len(hands) < 4:
        return 1.0
    c, s = math.cos(math.radians(table.angle)), math.sin(math.radians(table.angle))
    half = math.hypot(table.axes[0] * s, table.axes[1] * c)  # the ellipse's half height in the picture
    height = np.array([(y - table.centre[1]) / half for _, y, _ in hands])
    if float(np.std(height)) < SPREAD_LEAST:
        return 1.0
    slope = float(np.polyfit(height, np.log([size for _, _, size in hands]), 1)[0])
    return float(np.clip(math.exp(-slope), CROWD_LEAST, 1.0))  # the root of exp(-2 slope): far over near
