"""Vote windows shared out over the machine's cores: each worker process decodes and watches its own windows.

Windows are independent (the detector starts afresh on each, vision.detect.SeatDetector.reset), so
splitting them changes nothing in the result, only the wall time: on the 2-core machine a whole
game's audit runs nearly twice as fast. Work is balanced by frame count, longest window first.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from contract.errors import UnreadableInput
from contract.i18n import _
from contract.processes import die_with_parent

T = TypeVar("T")
POLL_S = 0.5  # how often the parent reports the workers' progress
START_METHOD_ENV = "STOPFRAME_START_METHOD"  # forces how workers start (start_method)
_done: Any = None  # in a worker: the shared count of frames watched by all workers


def default_jobs() -> int:
    """The cores this process may use; 1 inside a worker process (`stopframe audit --batch` already
    gives each core a game of its own) and 1 off the main thread (the app's analysis runs in Streamlit's
    script thread, and forking a process whose other threads may hold locks can hang the child)."""
    if in_worker_process() or threading.current_thread() is not threading.main_thread():
        return 1
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def in_worker_process() -> bool:
    """Whether this process was started by another to share out its work (the cores are then spoken for)."""
    return mp.parent_process() is not None


def split(items: Sequence[T], sizes: Sequence[int], jobs: int) -> list[list[T]]:
    """`items` in at most `jobs` groups of about equal total size (greedy, largest first), each in order."""
    groups: list[list[int]] = [[] for _ in range(max(1, min(jobs, len(items))))]
    loads = [0] * len(groups)
    for i in sorted(range(len(items)), key=lambda i: -sizes[i]):
        g = loads.index(min(loads))
        groups[g].append(i)
        loads[g] += sizes[i]
    return [[items[i] for i in sorted(g)] for g in groups if g]


def frame_done() -> None:
    """Count one watched frame (called in a worker)."""
    if _done is not None:
        with _done.get_lock():
            _done.value += 1


def _start(counter: Any, parent: int) -> None:
    global _done
    die_with_parent(parent)  # a killed audit leaves no worker watching windows for nobody
    _done = counter


def start_method() -> str:
    """How worker processes start: forked (cheap: MediaPipe imported once, before the fork) where the system can
    fork and this process has made no MediaPipe graph yet; spawned otherwise (Windows and macOS, and a process
    such as a test run that has already run MediaPipe, whose locked mutexes a forked child would inherit).

    $STOPFRAME_START_METHOD (spawn, fork or forkserver) overrides the choice: on Linux, `spawn` runs the
    workers as Windows and macOS do, to check they give the same findings there."""
    from vision.backend import graphs_made

    wanted = os.environ.get(START_METHOD_ENV, "").strip()
    if wanted:
        if wanted not in mp.get_all_start_methods():
            raise UnreadableInput(_("{variable}={value}: this system cannot start processes that way; use one of: "
                                    "{known}.", variable=START_METHOD_ENV, value=wanted[:30],
                                    known=", ".join(mp.get_all_start_methods())))
        return wanted
    return "fork" if "fork" in mp.get_all_start_methods() and not graphs_made() else "spawn"


def run_parallel(fn: Callable[..., T], groups: Sequence[Any], args: tuple, progress: Callable[[int], None] | None,
                 ) -> list[T]:
    """fn(group, *args) for every group, one worker process each; progress(frames done) while they run."""
    context = mp.get_context(start_method())
    counter = context.Value("i", 0)
    with ProcessPoolExecutor(len(groups), mp_context=context, initializer=_start, initargs=(counter, os.getpid())) as pool:
        futures: list[Future] = [pool.submit(fn, group, *args) for group in groups]
        pending = set(futures)
        while pending:
            _finished, pending = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
            if progress is not None:
                progress(counter.value)
        return [f.result() for f in futures]
