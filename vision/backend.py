"""The hand detector behind vision: what the seat detector, the second look and the nights ask of it, and MediaPipe.

Two operations, so that another detector can be dropped in (and a scripted one for tests, tests/fakes.py):
- a tracking stream for one seat's crop (`HandBackend.tracker`): the detector may carry a hand from one
  picture of that crop to the next, so a stream is fed one crop's pictures only, in time order (MediaPipe's
  VIDEO mode; used at night);
- a one-off look at a crop (`HandBackend.look`): each picture read afresh, no state (MediaPipe's IMAGE mode;
  the day votes, and every second look).
Both take a BGR picture and answer in its pixels (`SeatCrop.to_frame` takes them to the frame); which seat a
hand belongs to, and whether it is a readable hand at all, is the caller's to decide. This is the only module
that imports mediapipe.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np

from vision.model import model_bytes

DEFAULT_SCORE = 0.5  # a hand's score where the detector gives none


@dataclass(frozen=True)
class DetectedHand:
    """One hand a detector found in one picture."""

    landmarks: np.ndarray  # (21, 3) pixels of the picture looked at: x, y and a depth z scaled like x
    score: float  # the detector's confidence in the hand, 0-1
    handedness: str | None = None  # "Left" / "Right" as the detector labels it; never used to assign a seat
    world: np.ndarray | None = None  # (21, 3) metric 3-D landmarks where the detector gives them (plausibility)


class HandTracker(Protocol):
    """A tracking stream for one seat's crop."""

    def detect(self, picture: np.ndarray, t: float) -> list[DetectedHand]:
        """The hands on this picture of the crop (BGR), `t` seconds into the video (never earlier than the last)."""
        ...

    def close(self) -> None:
        ...


class HandBackend(Protocol):
    """A hand detector: tracking streams per seat crop and one-off looks at a crop."""

    def tracker(self) -> HandTracker:
        """A new tracking stream, for one seat's crop."""
        ...

    def look(self, picture: np.ndarray) -> list[DetectedHand]:
        """The hands on one picture (BGR), read afresh."""
        ...

    def close(self) -> None:
        ...


def hands_from_result(result: Any, width: int, height: int) -> list[DetectedHand]:
    """MediaPipe's HandLandmarkerResult for a width x height picture as DetectedHands: the one place where its
    normalised landmarks (0-1 of the picture) become pixels."""
    hands = []
    for i, marks in enumerate(result.hand_landmarks):
        points = np.array([[m.x, m.y, m.z] for m in marks], float) * (width, height, width)
        world = None
        if result.hand_world_landmarks and i < len(result.hand_world_landmarks):
            world = np.array([[m.x, m.y, m.z] for m in result.hand_world_landmarks[i]], float)
        best = result.handedness[i][0] if result.handedness and result.handedness[i] else None
        score = float(best.score) if best is not None else DEFAULT_SCORE
        hands.append(DetectedHand(points, score, best.category_name if best is not None else None, world))
    return hands


@contextlib.contextmanager
def quiet_native_stderr() -> Iterator[None]:
    """Hide the C++ runtime's start-up chatter (LiteRT INFO lines, first-frame warnings) on fd 2.

    MediaPipe offers no switch for these lines, and they would bury the command's own progress.
    """
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no real stderr (embedded): nothing to hide
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def preload() -> None:
    """Import MediaPipe in this process before worker processes are forked from it: each worker then shares the
    import (~0.4 s of CPU apiece) instead of making its own. The import starts no thread, so forking stays safe."""
    import mediapipe.tasks.python.vision  # noqa: F401


_graphs_made = False  # whether this process has run a MediaPipe graph (see graphs_made)


def graphs_made() -> bool:
    """Whether this process has made a MediaPipe graph. Its thread pools and their mutexes live on after it is
    closed; a process forked from here inherits them locked and can hang in a landmarker's destructor, so
    vision.workers no longer forks once this is true."""
    return _graphs_made


def create_landmarker(variant: str = "full", *, num_hands: int = 4, min_confidence: float = 0.3,
                      mode: str = "video") -> Any:
    """A HandLandmarker on the bundled, verified model (vision.model) in VIDEO mode (tracks across the pictures
    of one stream), or in IMAGE mode (`mode="image"`: no tracking, each picture read afresh)."""
    global _graphs_made
    _graphs_made = True
    from mediapipe.tasks.python import BaseOptions
    from mediapipe.tasks.python.vision import HandLandmarker, HandLandmarkerOptions, RunningMode

    options = HandLandmarkerOptions(
        base_options=BaseOptions(model_asset_buffer=model_bytes(variant)),
        running_mode=RunningMode.IMAGE if mode == "image" else RunningMode.VIDEO,
        num_hands=num_hands,
        min_hand_detection_confidence=min_confidence,
        min_hand_presence_confidence=min_confidence,
        min_tracking_confidence=min_confidence,  # ignored in IMAGE mode
    )
    with quiet_native_stderr():
        return HandLandmarker.create_from_options(options)


def _read(detect: Callable[[Any], Any], picture: np.ndarray, first: bool) -> list[DetectedHand]:
    """`detect` (a landmarker's) on a BGR picture; on a landmarker's `first` call its two harmless native
    warnings are hidden."""
    import mediapipe as mp

    image = mp.Image(image_format=mp.ImageFormat.SRGB, data=cv2.cvtColor(picture, cv2.COLOR_BGR2RGB))
    with quiet_native_stderr() if first else contextlib.nullcontext():
        result = detect(image)
    return hands_from_result(result, picture.shape[1], picture.shape[0])


class _MediaPipeTracker:
    """One VIDEO-mode HandLandmarker: MediaPipe tracks a hand between the pictures of one stream, so streams
    must not be mixed, and it wants strictly increasing timestamps."""

    def __init__(self, landmarker: Any) -> None:
        self._landmarker: Any = landmarker
        self._last_ms = -1
        self._warmed = False

    def detect(self, picture: np.ndarray, t: float) -> list[DetectedHand]:
        ms = max(self._last_ms + 1, int(round(t * 1000)))
        self._last_ms = ms
        hands = _read(lambda image: self._landmarker.detect_for_video(image, ms), picture, not self._warmed)
        self._warmed = True
        return hands

    def close(self) -> None:
        if self._landmarker is not None:
            with quiet_native_stderr():  # the runtime announces every accelerator it destroys
                self._landmarker.close()
            self._landmarker = None


class MediaPipeBackend:
    """MediaPipe's HandLandmarker on the bundled model `model` ("full" or "lite"), at `min_confidence` for
    detection, presence and tracking. One IMAGE-mode landmarker, made on the first look, serves every look."""

    def __init__(self, model: str = "full", min_confidence: float = 0.3, num_hands: int = 4) -> None:
        model_bytes(model)  # a missing or damaged bundle is refused now, not on the first picture
        self.model, self.min_confidence, self.num_hands = model, min_confidence, num_hands
        self._looker: Any = None
        self._warmed = False

    def _landmarker(self, mode: str) -> Any:
        return create_landmarker(self.model, num_hands=self.num_hands, min_confidence=self.min_confidence, mode=mode)

    def tracker(self) -> _MediaPipeTracker:
        return _MediaPipeTracker(self._landmarker("video"))

    def look(self, picture: np.ndarray) -> list[DetectedHand]:
        if self._looker is None:
            self._looker = self._landmarker("image")
        hands = _read(self._looker.detect, picture, not self._warmed)
        self._warmed = True
        return hands

    def close(self) -> None:
        if self._looker is not None:
            with quiet_native_stderr():
                self._looker.close()
            self._looker = None
