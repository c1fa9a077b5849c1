"""observe(): a game video + a seat map -> per-seat hand intervals (spec §6, `stopframe-observations/1`).

Only the requested time windows are decoded (the audit asks for vote windows), frames stream
through one at a time, and each window's sightings become intervals on their own: an interval
never spans two windows.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence

import numpy as np

from contract.i18n import N_
from contract.observations import HandInterval, Observations, Unseen
from contract.seats import SeatMap
from contract.spans import merged
from vision.backend import preload
from vision.detect import SeatDetector
from vision.hands import Hand, unusable_seats
from vision.intervals import (
    GAP_FRAMES,
    MIN_RUN_FRAMES,
    MIN_SUPPORT,
    Run,
    Sighting,
    agreed_fist,
    by_landmarks,
    by_picture,
    runs_from_sightings,
)
from vision.options import DEFAULT, VisionOptions
from vision.thumb import knows_footage
from vision.video import Picture, VideoSource, open_video
from vision.workers import default_jobs, frame_done, in_worker_process, run_parallel, split
from vision.zone_model import decode_runs, noise_sigma

DARK_MIN_RUN = 3  # frames: darkness does not flicker like a detector, a short black-out still counts
ProgressFn = Callable[[int, int], None]  # (frames done, frames to do)


def merge_windows(windows: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """Sorted, non-overlapping windows (clipped at 0), so no frame is decoded twice."""
    return merged((max(0.0, a), b) for a, b in windows if b > a)


def observe(
    video_path: str | os.PathLike[str],
    seats: SeatMap,
    windows: list[tuple[float, float]] | None = None,
    *,
    model: str = "full",
    gating: bool = True,
    progress: ProgressFn | None = None,
    gap_frames: int = GAP_FRAMES,
    min_run_frames: int = MIN_RUN_FRAMES,
    jobs: int | None = None,
    options: VisionOptions = DEFAULT,
) -> Observations:
    """Hand intervals per seat in the given windows (seconds; None = the whole video).

    `progress(done, total)` is called as frames are watched. Seats without a zone, or whose zone lies
    outside the picture, are reported in `unseen` for every window; so are stretches where a seat's
    view is dark or covered. `jobs`: worker processes sharing the windows (None: one per core); the
    result does not depend on it. `options`: which rules watch the hands (vision.options).
    """
    with open_video(video_path) as video:
        meta = video.meta
        seat_map = seats.scaled_to(meta.width, meta.height, str(video_path))
        spans = merge_windows(windows if windows is not None else [(0.0, meta.duration)])
        spans = [(a, min(b, meta.duration)) for a, b in spans if a < meta.duration]
        sizes = [len(video.frames_in(a, b)) for a, b in spans]
    unseen = unwatchable(seat_map, spans)
    counter = _Progress(progress, sum(sizes))
    groups = split(spans, sizes, jobs or default_jobs()) if spans else []
    args = (str(video_path), seat_map, model, gating, gap_frames, min_run_frames, options)
    if len(groups) > 1:
        preload()
        parts = run_parallel(watch_spans, groups, args, counter.to)
    else:
        parts = [watch_spans(group, *args, step=counter.step) for group in groups]
    hands = [h for part_hands, _, _ in parts for h in part_hands]
    unseen += [u for _, part_unseen, _ in parts for u in part_unseen]
    stats: dict[str, float] = {}
    for _, _, part_stats in parts:
        for k, v in part_stats.items():
            stats[k] = stats.get(k, 0) + v
    hands.sort(key=lambda h: (h.on, h.seat))
    unseen.sort(key=lambda u: (u["start"], u["seat"]))
    return Observations(hands, meta.fps, unseen, str(video_path), spans or None, stats)


def unwatchable(seat_map: SeatMap, spans: Sequence[tuple[float, float]]) -> list[Unseen]:
    """The seats that cannot be watched at all (no zone, or a zone outside the picture), over every span."""
    blocked = unusable_seats(seat_map)
    return [Unseen(seat=n, start=round(a, 4), end=round(b, 4), why=why)
            for a, b in spans for n, why in sorted(blocked.items())]


def watch_spans(spans: list[tuple[float, float]], video_path: str, seat_map: SeatMap, model: str, gating: bool,
                gap_frames: int, min_run_frames: int, options: VisionOptions = DEFAULT,
                step: Callable[[], None] = frame_done) -> tuple[list[HandInterval], list[Unseen], dict]:
    """Hand intervals, dark stretches and detector statistics of some windows, each watched afresh (decoded on one
    thread in a worker process: the workers already keep the cores busy)."""
    hands: list[HandInterval] = []
    unseen: list[Unseen] = []
    stats: dict = {"frames": 0, "detector_runs": 0, "gated": 0, "decode_s": 0.0}
    with open_video(video_path, threads=not in_worker_process()) as video, SeatDetector(seat_map, model=model, gating=gating,
                                                       options=options) as detector:
        for k, (a, b) in enumerate(spans):
            if k:
                detector.reset()
            watch, end = watch_window(video, detector, a, b, stats, step)
            hands += watch.hands(end, options, gap_frames, min_run_frames)
            unseen += watch.unseen(end, gap_frames)
        stats.update({f"{k}_s": v for k, v in detector.seconds.items()})
        if detector.pose_check is not None:
            stats.update(second_looks=detector.pose_check.looks, second_look_s=detector.pose_check.seconds)
    return hands, unseen, stats


_NO_CELLS = np.zeros(0, np.uint8)


class _Progress:
    def __init__(self, callback: ProgressFn | None, total: int) -> None:
        self.callback, self.total, self.done = callback, total, 0

    def step(self) -> None:
        self.to(self.done + 1)

    def to(self, done: int) -> None:
        if done != self.done or done == self.total:
            self.done = done
            if self.callback is not None:
                self.callback(self.done, self.total)


def _sighting(index: int, t: float, hand: Hand | None, unread: bool = False, looked: bool = True,
              repeat: bool = True) -> Sighting:
    if hand is None:
        return Sighting(index, t, False, unread=unread, looked=looked)
    x, y = hand.palm_centre
    return Sighting(index, t, True, hand.pose.pose, hand.score, hand.pose.margin, x, y, hand.palm_length,
                    looked=looked, repeat=repeat, thumb=hand.thumb)


def window_runs(seen: dict[int, list[Sighting]], zones: dict[int, list], end: tuple[int, float],
                options: VisionOptions = DEFAULT, gap_frames: int = GAP_FRAMES,
                min_run_frames: int = MIN_RUN_FRAMES) -> dict[int, list[Run]]:
    """Every seat's hand runs in one window from its sightings (and its zone's cells, for the zone model)."""
    settled = settle_thumbs(seen) if options.picture_thumbs else seen
    if not options.zone_model:
        runs = {n: runs_from_sightings(s, *end, gap_frames, min_run_frames, MIN_SUPPORT) for n, s in settled.items()}
    else:
        runs = {n: decode_runs(s, zones.get(n) or None, noise_sigma(zones.get(n) or []), *end)
                for n, s in settled.items()}
    if not options.picture_thumbs:
        return runs
    return {n: [agreed_fist(run, seen[n]) for run in seat_runs] for n, seat_runs in runs.items()}


def settle_thumbs(seen: dict[int, list[Sighting]]) -> dict[int, list[Sighting]]:
    """Every fist of one window read by the picture (vision.thumb) where its reader knows the footage; by
    the landmarks, as detected, elsewhere (the picture's readings then dropped: they decide nothing)."""
    decisions = [s.thumb for sightings in seen.values() for s in sightings if s.present and s.thumb is not None]
    settle = by_picture if knows_footage(decisions) else by_landmarks
    return {n: [settle(s) for s in sightings] for n, sightings in seen.items()}


class WindowWatch:
    """One window's sightings, gathered frame by frame as the detector looks: from a file (watch_window) or
    from a camera while the game is played (pipeline.live), so both read a window the same way."""

    def __init__(self, detector: SeatDetector, first: int, stats: dict | None = None) -> None:
        self.detector, self.first = detector, first  # one sighting per frame and seat: seen[n][i - first] is frame i
        self.seen: dict[int, list[Sighting]] = {n: [] for n in detector.streams}
        self.dark: dict[int, list[Sighting]] = {n: [] for n in detector.streams}
        self.zones: dict[int, list] = {n: [] for n in detector.streams}
        self.stats = stats if stats is not None else {"frames": 0, "detector_runs": 0, "gated": 0, "decode_s": 0.0}

    def look(self, frame: Picture) -> None:
        """The detector's look at the next frame, and the frames it skipped in flight filled in once a hand came
        or went."""
        result = self.detector.process(frame.index, frame.t, frame)
        self.stats["frames"] += 1
        self.stats["detector_runs"] += result.ran
        self.stats["gated"] += result.skipped
        for n in self.detector.streams:
            hand = result.hands.get(n)
            self.seen[n].append(_sighting(frame.index, frame.t, hand, n in result.unread, n in result.looked,
                                          n not in result.fresh))
            self.dark[n].append(Sighting(frame.index, frame.t, n in result.dark, score=1.0))
            self.zones[n].append(result.zones.get(n, _NO_CELLS))
        for n, frames_back in result.pinned.items():
            for i, t, hand, unread in frames_back:
                if n in self.seen and self.first <= i < frame.index:
                    self.seen[n][i - self.first] = _sighting(i, t, hand, unread, repeat=False)

    def hands(self, end: tuple[int, float], options: VisionOptions = DEFAULT, gap_frames: int = GAP_FRAMES,
              min_run_frames: int = MIN_RUN_FRAMES) -> list[HandInterval]:
        """Every seat's hand intervals of the window up to `end`, the first frame after it (index, time): the
        window's end, or a frame looked at already (the live table asks before the window is over)."""
        upto = end[0] - self.first
        seen = {n: s[:upto] for n, s in self.seen.items()}
        zones = {n: z[:upto] for n, z in self.zones.items()}
        return [HandInterval(n, run.on, run.off, run.pose, run.confidence, run.on_frame, run.off_frame, run.pose_share)
                for n, runs in window_runs(seen, zones, end, options, gap_frames, min_run_frames).items()
                for run in runs]

    def unseen(self, end: tuple[int, float], gap_frames: int = GAP_FRAMES) -> list[Unseen]:
        """The stretches of the window up to `end` where a seat's view was dark or covered."""
        upto = end[0] - self.first
        return [Unseen(seat=n, start=round(run.on, 4), end=round(run.off, 4), why=N_("the seat's view is dark or covered"))
                for n in self.detector.streams
                for run in runs_from_sightings(self.dark[n][:upto], *end, gap_frames, DARK_MIN_RUN)]


def watch_window(video: VideoSource, detector: SeatDetector, a: float, b: float, stats: dict,
                 on_frame: Callable[[], None] | None = None) -> tuple[WindowWatch, tuple[int, float]]:
    """Run the detector over one window's frames: the window's sightings, and the first frame after the window
    (index, time) for hands still present at its end."""
    span = video.frames_in(a, b)
    watch = WindowWatch(detector, span.start, stats)
    frames = video.iter_pictures(a, b)  # converted to BGR only where a seat's detector runs (vision.video.Picture)
    while True:
        t0 = time.perf_counter()
        frame = next(frames, None)
        stats["decode_s"] += time.perf_counter() - t0
        if frame is None:
            break
        watch.look(frame)
        if on_frame is not None:
            on_frame()
    meta = video.meta
    end_t = video.time_of(span.stop) if span.stop < meta.frame_count else meta.duration
    return watch, (span.stop, end_t)
