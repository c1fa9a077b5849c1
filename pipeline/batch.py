"""The games of a folder, and one game's audit as a task a worker process can run.

    find_games(folder, reuse_observations=…, foreign=…) -> (games, notes)
    audit_task(AuditTask) -> TaskResult          picklable both ways: a process pool or a Ray worker runs it
                                                 (the report, and what vision saw where it looked at the video)

Shared by `stopframe audit --batch` and `stopframe tournament` so that both see the same games in a folder
and audit each with the same `pipeline.audit.audit_game`. A task never raises: a broken game comes back as
its error sentence, so one bad file never stops the others.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract.clock import Clock
from contract.errors import EXIT_INVALID, StopframeError
from contract.i18n import _
from contract.observations import Observations
from contract.processes import die_with_parent
from contract.seats import SeatMap
from pipeline.audit import audit_game
from pipeline.observer import VISION, Observer, Progress, Spans, VisionObserver, observe_video
from review.audit.inputs import video_fingerprint

FOREIGN_SUFFIXES = {".polemica.json": "polemica", ".mafiaratings.json": "mafiaratings"}


@dataclass(frozen=True)
class GameFiles:
    """One game of a folder: `NAME.mp4` + `NAME.protocol.json` + `NAME.seats.json`, and what lies beside them.

    `protocol` may be a Polemica or mafiaratings file (`NAME.polemica.json`, `NAME.mafiaratings.json`, or such a
    file saved as `NAME.protocol.json`); the tournament runner converts it before the audit."""

    name: str
    protocol: Path
    seats: Path
    video: Path | None
    observations: Path | None = None
    marks: Path | None = None


def find_games(folder: Path, reuse_observations: bool = False, *, foreign: bool = False) -> tuple[list[GameFiles], list[str]]:
    """The complete games in a folder (by name), and a note for every protocol that lacks its video or seat map.

    `foreign`: also take `NAME.polemica.json` / `NAME.mafiaratings.json` as a game's protocol where it has no
    `NAME.protocol.json`."""
    protocols: dict[str, Path] = {}
    if foreign:
        for suffix in FOREIGN_SUFFIXES:
            protocols.update({p.name[: -len(suffix)]: p for p in folder.glob(f"*{suffix}")})
    for proto in folder.glob("*.protocol.json"):
        name = proto.name[: -len(".protocol.json")]
        if not name.endswith(".corrected"):  # a review's output, not a game
            protocols[name] = proto
    games, skipped = [], []
    for name in sorted(protocols):
        seats, video = folder / f"{name}.seats.json", folder / f"{name}.mp4"
        obs, marks = folder / f"{name}.observations.json", folder / f"{name}.marks.json"
        use_obs = reuse_observations and obs.exists()
        if not seats.exists() or not (video.exists() or use_obs):
            missing = [p.name for p in (seats, video) if not p.exists()]
            skipped.append(_("{name}: no {files} beside its protocol", name=name, files=", ".join(missing)))
            continue
        games.append(GameFiles(name, protocols[name], seats, video if video.exists() else None,
                               obs if use_obs else None, marks if marks.exists() else None))
    return games, skipped


@dataclass(frozen=True)
class AuditTask:
    """One game's audit as a worker runs it: the game's files (readable where the worker runs; a converted
    protocol put in place of the game's own) and how to audit them."""

    game: GameFiles
    rules: str | None = None
    nights: bool = False
    model: str = "full"
    vision_jobs: int | None = None  # processes for the game's vision windows; None: vision decides (all cores
    # in the main process, one in a pool's worker)

    @property
    def name(self) -> str:
        return self.game.name


class VisionOnCores(VisionObserver):
    """The product's observer with the vision windows on a set number of processes: a Ray task holds one
    CPU, and Ray's workers are no pool children, so vision would otherwise take every core for each game."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    def day(self, video: Path, seat_map: SeatMap, windows: Spans, *, model: str,
            progress: Callable[[int, int], None]) -> Observations:
        return observe_video(video, seat_map, windows, model=model, progress=progress, jobs=self.jobs)


class Recording:
    """An observer that hands on what another one sees and keeps it: a game audited from its video keeps the
    hands (and night fields) vision saw, so the app opens it with them instead of looking again."""

    def __init__(self, observer: Observer) -> None:
        self.observer = observer
        self.days: list[Observations] = []
        self.nights_seen: list[dict[str, Any]] = []

    def day(self, video: Path, seat_map: SeatMap, windows: Spans, *, model: str, progress: Progress) -> Observations:
        seen = self.observer.day(video, seat_map, windows, model=model, progress=progress)
        self.days.append(seen)
        return seen

    def nights(self, video: Path, seat_map: SeatMap, shootings: Spans, checks: Spans, *,
               model: str) -> dict[str, Any]:
        fields = self.observer.nights(video, seat_map, shootings, checks, model=model)
        self.nights_seen.append(fields)
        return fields

    def video_clock(self, video: Path) -> Clock | None:
        return self.observer.video_clock(video)

    def observations(self, video: Path) -> dict[str, Any] | None:
        """What was seen as `stopframe-observations/1` (as `stopframe observe` writes it, the night fields
        beside the hands), marked with the video's fingerprint as the app's own analysis marks its cache;
        None unless exactly one look at the day was made (a game from several cameras keeps none)."""
        if len(self.days) != 1 or len(self.nights_seen) > 1:
            return None
        data = self.days[0].to_json()
        for fields in self.nights_seen:
            data.update({k: v for k, v in fields.items() if k.startswith("x_")})
        return {**data, "x_video_fingerprint": video_fingerprint(video)}


@dataclass(frozen=True)
class TaskResult:
    """One game's audit as JSON (`stopframe-audit/1`), or the error that stopped it, with the worker's time;
    `observations`: what vision saw (`stopframe-observations/1`) where the game was audited from its video."""

    name: str
    report: dict[str, Any] | None
    error: str | None
    exit_code: int
    seconds: float
    cpu_seconds: float = 0.0  # the worker's own CPU time (its vision windows included where they ran in it)
    observations: dict[str, Any] | None = None


def audit_task(task: AuditTask) -> TaskResult:
    """Audit one game with pipeline.audit.audit_game; any failure comes back as a sentence, never raised."""
    start, cpu = time.perf_counter(), time.process_time()
    try:
        eyes = Recording(VISION if task.vision_jobs is None else VisionOnCores(task.vision_jobs))
        g = task.game
        report = audit_game(protocol=g.protocol, seats=g.seats, video=g.video, rules=task.rules,
                            observations=g.observations, marks=g.marks, nights=task.nights, model=task.model,
                            observer=eyes)
        seen = eyes.observations(g.video) if g.observations is None and g.video is not None else None
    except StopframeError as exc:
        return TaskResult(task.name, None, str(exc), exc.exit_code, time.perf_counter() - start)
    except Exception as exc:  # a broken file may break a library underneath; the other games go on
        return TaskResult(task.name, None, unexpected(task, exc), EXIT_INVALID, time.perf_counter() - start)
    return TaskResult(task.name, report.to_json(), None, 0, time.perf_counter() - start, time.process_time() - cpu,
                      seen)


def unexpected(task: AuditTask, exc: BaseException) -> str:
    """The sentence for a failure that is no StopframeError (a library's crash, a lost worker)."""
    where = task.game.video or task.game.observations or task.game.protocol
    return _("{path}: the audit of this game stopped on an unexpected {error}; `stopframe audit` on this game with "
             "--debug shows where.", path=where, error=type(exc).__name__)


def run_local(tasks: Sequence[AuditTask], jobs: int) -> Iterator[TaskResult]:
    """The tasks on this machine, `jobs` processes at a time, each result as soon as it is ready (the
    embedded engine: nothing to start). One task runs in this process, so a single game needs no pool."""
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield audit_task(task)
        return
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), initializer=die_with_parent, initargs=(os.getpid(),))
    try:
        futures = {pool.submit(audit_task, t): t for t in tasks}
        for fut in as_completed(futures):
            try:
                yield fut.result()
            except Exception as exc:  # the worker itself died (killed, out of memory): that game failed
                task = futures[fut]
                yield TaskResult(task.name, None, unexpected(task, exc), EXIT_INVALID, 0.0)
    except BaseException:  # stopped (Ctrl-C, SIGTERM, the caller gone): the workers go too, now, not after their game
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.terminate()
        raise
    pool.shutdown(wait=True)


