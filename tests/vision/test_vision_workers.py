"""Sharing vote windows out over cores: balanced by frames, every window once, in time order per worker."""

from __future__ import annotations

from vision.workers import split


def test_windows_are_shared_out_by_frames_each_exactly_once_in_order() -> None:
    windows = ["a", "b", "c", "d", "e"]
    groups = split(windows, [100, 400, 100, 300, 100], 2)
    assert sorted(w for g in groups for w in g) == windows
    assert all(g == sorted(g) for g in groups)
    assert sorted(sum({"a": 100, "b": 400, "c": 100, "d": 300, "e": 100}[w] for w in g) for g in groups) == [500, 500]


def test_never_more_workers_than_windows() -> None:
    assert split(["a"], [10], 4) == [["a"]]
    assert split([], [], 2) == []


def test_off_the_main_thread_windows_are_watched_in_process() -> None:
    """The app analyses a video from Streamlit's script thread: no fork there (a forked child of a
    multi-threaded process can hang on a lock another thread held)."""
    import threading

    from vision.workers import default_jobs

    seen: list[int] = []
    worker = threading.Thread(target=lambda: seen.append(default_jobs()))
    worker.start()
    worker.join()
    assert seen == [1] and default_jobs() >= 1


def _asked_in_worker(_group: list, *_args: object) -> tuple[bool, int]:
    from vision.workers import default_jobs, in_worker_process

    return in_worker_process(), default_jobs()


def test_a_worker_process_knows_it_is_one_and_shares_out_nothing_more() -> None:
    # observe's workers decode on one thread and never start workers of their own: the cores are spoken for
    from vision.workers import in_worker_process, run_parallel

    assert not in_worker_process()
    assert run_parallel(_asked_in_worker, [[1], [2]], (), None) == [(True, 1), (True, 1)]


def test_workers_are_spawned_once_this_process_has_run_mediapipe(monkeypatch) -> None:
    """A process that has made a MediaPipe graph holds its thread pools' mutexes; a child forked from it can hang
    in a landmarker's destructor. From then on the workers start afresh (spawn), with the same answers."""
    import vision.backend as backend
    from vision.workers import run_parallel, start_method

    monkeypatch.setattr(backend, "_graphs_made", False)
    assert start_method() == "fork"
    backend.create_landmarker("lite").close()
    assert start_method() == "spawn"
    assert run_parallel(_asked_in_worker, [[1], [2]], (), None) == [(True, 1), (True, 1)]
