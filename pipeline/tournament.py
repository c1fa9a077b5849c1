"""A whole tournament: every game of a folder audited, one task per game, on this machine or on Ray.

    run_tournament(folder, out, settings, engine=…) -> Tournament

Why this shape: a tournament day is 20–40 games and an evening to audit them, so the run must survive
being stopped — each game's result is kept under OUT/games/ by the fingerprint of what made it (the
video's bytes, protocol, seat map, marks, saved observations, profile and code version), and a second run
redoes only what changed. A broken game is reported and the others go on. The cluster is Ray's, not a
scheduler of our own: `engine="ray"` hands the same task (pipeline.batch.audit_task) to Ray workers.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import contract
import pipeline
import review
import vision
from contract.errors import EXIT_INVALID, StopframeError, UnreadableInput
from contract.i18n import N_, _, ngettext, number, term
from contract.jsonio import dumps, read_json, write_atomic
from contract.outputs import check_output_folder, os_reason, regular_file
from pipeline.batch import (
    FOREIGN_SUFFIXES,
    AuditTask,
    GameFiles,
    TaskResult,
    audit_task,
    find_games,
    run_local,
    unexpected,
)
from pipeline.probe import probe_videos
from review.audit.findings import AuditReport
from review.audit.tally import default_least
from review.cases.store import Decision, Store, game_id_for
from review.cases.tournament import GameRun, Tournament, build_tournament_report
from review.cases.tournament_views import tournament_csv, tournament_html
from review.game.importers import detect_source, import_file
from review.game.timeline import analysis_windows, load_marks, vote_rounds, vote_windows

DONE_FORMAT = "stopframe-tournament-game/1"
ENGINES = ("local", "ray")
CLUSTER_HINT = N_('the Ray engine needs Ray, which is not installed here: pip install -e ".[cluster]".')
Say = Callable[[str], None]


@dataclass(frozen=True)
class Settings:
    """How every game is audited; all of it is part of each game's fingerprint."""

    rules: str | None = None
    nights: bool = False
    model: str = "full"
    reuse_observations: bool = False


@dataclass
class Prepared:
    """One game ready to run: the protocol to audit (converted where it came from Polemica or mafiaratings),
    its fingerprint, and what the report needs; or the error that stopped it before any task."""

    game: GameFiles
    protocol: Path | None = None
    data: dict[str, Any] | None = None
    source: Path | None = None
    fingerprint: str | None = None
    parts: dict[str, Any] = field(default_factory=dict)
    windows: int | None = None
    span: float = 0.0
    error: str | None = None


# ------------------------------------------------------------------------------------------ fingerprints


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    """The file's sha256, read a chunk at a time (a 90-minute video is gigabytes)."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


@cache
def code_version() -> str:
    """The package version and a digest of what decides the findings: the code of contract, review, vision and
    pipeline, the vision models and the confidence calibration. A changed one redoes every game."""
    try:
        version = importlib.metadata.version("stopframe")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    h = hashlib.sha256()
    for package in (contract, review, vision, pipeline):
        root = Path(package.__file__).parent
        for p in sorted(root.rglob("*")):
            if p.is_file() and (p.suffix in (".py", ".json", ".task", ".npz")) and "__pycache__" not in p.parts:
                h.update(p.relative_to(root.parent).as_posix().encode())
                h.update(sha256_file(p).encode())
    return f"{version}+{h.hexdigest()[:12]}"


def _video_digest(video: Path, earlier: Mapping[str, Any] | None) -> dict[str, Any]:
    """The video's size, mtime and sha256; the earlier run's sha256 is kept where size and mtime are unchanged."""
    st = video.stat()
    if earlier and earlier.get("size") == st.st_size and earlier.get("mtime_ns") == st.st_mtime_ns and earlier.get("sha256"):
        return dict(earlier)
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": sha256_file(video)}


def _fingerprint(parts: Mapping[str, Any]) -> str:
    """One sha256 over every part, the video's by its bytes only (its size and mtime are a cache, not a part)."""
    keyed = {k: (v["sha256"] if k == "video" and v else v) for k, v in parts.items()}
    return hashlib.sha256(json.dumps(keyed, sort_keys=True).encode()).hexdigest()


# ------------------------------------------------------------------------------------------ preparing


def _read_done(path: Path) -> dict[str, Any] | None:
    """A game's done file, or None when there is none or it cannot be trusted (then the game is redone)."""
    try:
        data = read_json(path, "done file")
    except StopframeError:
        return None
    return data if isinstance(data, dict) and data.get("format") == DONE_FORMAT else None


def prepare(game: GameFiles, games_dir: Path, settings: Settings) -> Prepared:
    """Read the game's protocol (converting another system's file into OUT/games/NAME.protocol.json), count
    its vision windows and make its fingerprint. Never raises: a bad file becomes the game's error."""
    prep = Prepared(game)
    try:
        for path, what in ((game.protocol, "protocol"), (game.seats, "seat map"), (game.video, "video"),
                           (game.observations, "observations file"), (game.marks, "marks file")):
            if path is not None:
                regular_file(path, what)  # before any open: a pipe named NAME.mp4 would hang the whole run
        data = read_json(game.protocol, "protocol")
        named = next((v for k, v in FOREIGN_SUFFIXES.items() if game.protocol.name.endswith(k)), None)
        native = isinstance(data, dict) and "format" in data
        source = named or (None if native else detect_source(data))
        if source is not None:  # another system's game: converted as `stopframe import` would
            data = import_file(source, game.protocol, settings.rules or "rfm")
            prep.source = game.protocol
            prep.protocol = write_if_changed(games_dir / f"{game.name}.protocol.json", dumps(data))
        else:
            prep.protocol = game.protocol
        if not isinstance(data, dict):
            raise UnreadableInput(_("{path}: not a protocol: it holds no JSON object.", path=game.protocol))
        prep.data = data
        marks = load_marks(game.marks) if game.marks else []
        if game.observations is None:
            try:
                windows = analysis_windows(vote_rounds(vote_windows(data, marks)))
                prep.windows, prep.span = len(windows), sum(b - a for a, b in windows)
            except (StopframeError, KeyError, TypeError, ValueError):
                prep.windows = None  # a protocol the audit will refuse with its own sentence
        earlier = _read_done(games_dir / f"{game.name}.done.json")
        prep.parts = {
            "video": _video_digest(game.video, (earlier or {}).get("parts", {}).get("video")) if game.observations is None and game.video else None,
            "protocol": sha256_file(game.protocol),
            "seats": sha256_file(game.seats),
            "marks": sha256_file(game.marks) if game.marks else None,
            "observations": sha256_file(game.observations) if game.observations else None,
            "profile": settings.rules or (data.get("rules") if isinstance(data.get("rules"), str) else None),
            "nights": settings.nights, "model": settings.model, "code": code_version(),
        }
        prep.fingerprint = _fingerprint(prep.parts)
    except StopframeError as exc:
        prep.error = str(exc)
    except OSError as exc:
        prep.error = _("{game}: cannot read the game's files: {detail}.", game=game.name, detail=os_reason(exc))
    return prep


def write_if_changed(path: Path, text: str) -> Path:
    """Write atomically unless the file already holds exactly `text` (a rerun leaves it untouched)."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return path
    except OSError:
        pass
    return write_atomic(path, text)


def reusable(prep: Prepared, games_dir: Path) -> AuditReport | None:
    """The earlier run's audit of this game when its fingerprint and its file are both unchanged."""
    done = _read_done(games_dir / f"{prep.game.name}.done.json")
    audit = games_dir / f"{prep.game.name}.audit.json"
    if not done or done.get("fingerprint") != prep.fingerprint or not audit.exists():
        return None
    if sha256_file(audit) != done.get("audit_sha256"):
        return None
    try:
        return AuditReport.from_json(read_json(audit, "audit report"), audit)
    except (StopframeError, KeyError, TypeError, ValueError):
        return None


# ------------------------------------------------------------------------------------------ engines


def ray_available() -> bool:
    """Whether Ray can be imported here (asked before anything is read, so a missing Ray costs nothing)."""
    return importlib.util.find_spec("ray") is not None


@contextmanager
def ray_session(jobs: int, address: str | None, say: Say) -> Iterator[Any]:
    """Ray, started for this run and shut down after it: a local Ray with `jobs` CPUs, or the cluster at
    `address` (whose workers must reach the games' files and have Stopframe installed)."""
    try:
        import ray
    except ImportError as exc:
        raise UnreadableInput(_(CLUSTER_HINT)) from exc
    start = time.perf_counter()
    if address:
        _join(ray, address)
        began = _("the Ray cluster at {address} joined", address=address)
    else:
        ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        began = _("Ray started")
    cpus = ray.cluster_resources().get("CPU", 0)  # a cluster's, said so the organiser sees which one it is
    say(ngettext("tournament: {began} in {seconds} s, {n} CPU", "tournament: {began} in {seconds} s, {n} CPUs",
                 int(cpus), began=began, seconds=number(time.perf_counter() - start, 1, fixed=True)))
    try:
        yield ray
    finally:
        ray.shutdown()


def _join(ray: Any, address: str) -> None:
    """Connect to the cluster at `address`, or one sentence saying why not: Ray itself retries an address where
    nothing listens for minutes, and turns a missing token into a traceback."""
    host, colon, port = address.rpartition(":")
    if colon and port.isdigit() and "://" not in address:  # host:port ("auto" and ray:// addresses are Ray's to read)
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
        except OSError as exc:
            raise UnreadableInput(_("--address {address}: no Ray cluster answers there ({detail}); start its head with "
                                    "`ray start --head` and give the address it prints.", address=address[:60],
                                    detail=os_reason(exc))) from exc
    try:
        ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
    except ConnectionError as exc:
        raise UnreadableInput(_("--address {address}: the Ray cluster there does not let this run join; a cluster with "
                                "token authentication needs its token in RAY_AUTH_TOKEN.", address=address[:60])) from exc


def run_ray(ray: Any, tasks: Sequence[AuditTask]) -> Iterator[TaskResult]:
    """The tasks as Ray remote tasks, one per game (one CPU each), each result as soon as it is ready."""
    remote = ray.remote(num_cpus=1, max_retries=0)(audit_task)
    pending = {remote.remote(t): t for t in tasks}
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        task = pending.pop(ready[0])
        try:
            yield ray.get(ready[0])
        except Exception as exc:  # the worker was lost (killed, out of memory): that game failed
            yield TaskResult(task.name, None, unexpected(task, exc), EXIT_INVALID, 0.0)


# ------------------------------------------------------------------------------------------ the run


@dataclass
class Progress:
    """Games and vision windows done, and the time left estimated from the video still to look at."""

    games: int
    windows: int
    cost: float  # seconds of video to look at, plus one per game (saved observations cost little but not nothing)
    say: Say
    games_done: int = 0
    windows_done: int = 0
    cost_done: float = 0.0
    failed: int = 0
    start: float = field(default_factory=time.perf_counter)

    def done(self, prep: Prepared, failed: bool) -> None:
        self.games_done += 1
        self.failed += failed
        self.windows_done += prep.windows or 0
        self.cost_done += prep.span + 1
        elapsed = time.perf_counter() - self.start
        left = (self.cost - self.cost_done) * elapsed / self.cost_done if self.cost_done else 0.0
        eta = _("done") if self.games_done == self.games else _("about {duration} left", duration=_duration(left))
        games = _("{done}/{total} games", done=self.games_done, total=self.games)
        if self.failed:
            games = _("{games}, {n} failed", games=games, n=self.failed)
        self.say(_("tournament: {games}, {done}/{total} vision windows, {eta} ({game})", games=games,
                   done=self.windows_done, total=self.windows, eta=eta, game=prep.game.name))

    def to_json(self) -> dict[str, Any]:
        elapsed = time.perf_counter() - self.start
        left = (self.cost - self.cost_done) * elapsed / self.cost_done if self.cost_done else None
        return {"format": "stopframe-tournament-progress/1", "games": self.games, "games_done": self.games_done,
                "failed": self.failed, "windows": self.windows, "windows_done": self.windows_done,
                "elapsed_s": round(elapsed, 1), "left_s": None if left is None else round(left, 1),
                "running": self.games_done < self.games, "pid": os.getpid(), "host": socket.gethostname()}

    def stopped(self, why: str) -> dict[str, Any]:
        """The file a run leaves when it is stopped before its end: not running, and why."""
        return {**self.to_json(), "running": False, "stopped": why}


def read_progress(base: str | os.PathLike[str]) -> dict[str, Any] | None:
    """OUT/progress.json as it stands now: a run said to be running whose process (on this machine) is gone was
    killed, and reads as stopped; None where there is no readable progress file."""
    try:
        data = read_json(Path(base) / "progress.json", "progress file")
    except StopframeError:
        return None
    if not isinstance(data, dict):
        return None
    pid = data.get("pid")
    if data.get("running") and data.get("host") == socket.gethostname() and isinstance(pid, int) and not _alive(pid):
        return {**data, "running": False, "stopped": _("the run's process is gone (killed)")}
    return data


def _alive(pid: int) -> bool:
    """Whether a process with this id runs on this machine."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: it exists
        return True
    return True


@contextmanager
def stopping_on_sigterm() -> Iterator[None]:
    """SIGTERM (what `kill` and service managers send) stops the run as Ctrl-C does, so that it can say so in
    progress.json; only the main thread may set a handler, elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    earlier = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, earlier)


def _duration(seconds: float) -> str:
    if seconds < 90:
        return _("{value} s", value=max(1, round(seconds)))
    return _("{value} min", value=round(seconds / 60))


def run_tournament(
    folder: str | os.PathLike[str], out: str | os.PathLike[str], settings: Settings, *, engine: str = "local",
    jobs: int | None = None, address: str | None = None, decisions_db: str | os.PathLike[str] | None = None,
    say: Say | None = None, wording: Callable[[str], str] = str, csv_separator: str = ",",
) -> Tournament:
    """Audit every game of `folder` into `out` and write tournament.json, .html and .csv there.

    `wording` turns an error into the sentence the command line prints (its plain_words); `decisions_db`: the
    judges' decisions to roll up (None: no decisions read); `csv_separator`: the CSV's `,` or `;`."""
    speak = say or (lambda _m: None)
    src, base = Path(folder), Path(out)
    _check_source(src, engine)
    games = _games_of(src, settings, speak)
    games_dir = _games_folder(base, src)
    preps = {g.name: prepare(g, games_dir, settings) for g in games}
    runs, todo = _plan(preps, games_dir, settings, engine, wording)
    workers = max(1, jobs or os.cpu_count() or 1)
    videos = {t.name: t.game.video for t in todo if t.game.observations is None and t.game.video is not None}
    for name, why in probe_videos(videos, workers).items():  # a video that hangs the demuxer costs its game only
        runs[name] = _failed(preps[name], wording(why))
    todo = [t for t in todo if t.name not in runs]
    broken = sum(1 for r in runs.values() if r.status == "failed")
    speak(ngettext("tournament: {n} game: {earlier} audited earlier, {broken} unreadable, {todo} to audit on the "
                   "{engine} engine, {workers} at a time",
                   "tournament: {n} games: {earlier} audited earlier, {broken} unreadable, {todo} to audit on the "
                   "{engine} engine, {workers} at a time", len(games), earlier=len(runs) - broken, broken=broken,
                   todo=len(todo), engine=term("engine", engine), workers=workers))
    store = Store(decisions_db) if decisions_db is not None else None  # a wrong file is refused before the games run
    earlier_run = read_progress(base)  # a run killed mid-way left "running": it is said to be stopped
    if earlier_run is not None and not earlier_run.get("running") and earlier_run.get("stopped"):
        write_atomic(base / "progress.json", dumps(earlier_run))
    _audit(todo, preps, runs, base, engine=engine, workers=workers, address=address, speak=speak, wording=wording)
    tournament = build_tournament_report(
        runs.values(), decisions=(lambda r: _decisions(store, r)) if store else None, threshold=default_least(),
        created=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), folder=str(src.resolve()), code_version=code_version(),
    )
    write_reports(base, tournament, csv_separator)
    return tournament


def _check_source(src: Path, engine: str) -> None:
    """Refuse a run that cannot start (no folder, no such engine, Ray not installed) before anything is written."""
    if not src.is_dir():
        raise UnreadableInput(_("{path}: not a folder of games.", path=src))
    if engine not in ENGINES:
        raise UnreadableInput(_("--engine {engine}: not an engine; known: {known}.", engine=engine[:20],
                                known=", ".join(ENGINES)))
    if engine == "ray" and not ray_available():
        raise UnreadableInput(_(CLUSTER_HINT))


def _games_of(src: Path, settings: Settings, speak: Say) -> list[GameFiles]:
    """The games of the folder, each file it skipped said aloud; refused where it holds no game at all."""
    games, skipped = find_games(src, settings.reuse_observations, foreign=True)
    for note in skipped:
        speak(_("tournament: skipped {note}", note=note))
    if not games:
        raise UnreadableInput(_("{path}: no game to audit (each needs NAME.mp4, NAME.protocol.json and NAME.seats.json).",
                                path=src))
    return games


def _games_folder(base: Path, src: Path) -> Path:
    """OUT/games, made where missing; OUT is never inside the games it reads nor round them."""
    check_output_folder(base, [src], what="tournament folder")
    games_dir = base / "games"
    try:
        games_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UnreadableInput(_("{path}: cannot make the tournament folder there: {detail}.", path=base,
                                detail=os_reason(exc))) from exc
    return games_dir


def _plan(preps: Mapping[str, Prepared], games_dir: Path, settings: Settings, engine: str,
          wording: Callable[[str], str]) -> tuple[dict[str, GameRun], list[AuditTask]]:
    """What each game needs: already failed, reused from an earlier run with the same fingerprint, or a task."""
    runs: dict[str, GameRun] = {}
    todo: list[AuditTask] = []
    for name, prep in preps.items():
        if prep.error is not None:
            runs[name] = _failed(prep, wording(prep.error))
            continue
        earlier = reusable(prep, games_dir)
        if earlier is not None:
            done = _read_done(games_dir / f"{name}.done.json") or {}
            runs[name] = _run(prep, "reused", earlier, done.get("seconds"))
        else:
            game = replace(prep.game, protocol=prep.protocol or prep.game.protocol)  # the converted one, if any
            todo.append(AuditTask(game, rules=settings.rules, nights=settings.nights, model=settings.model,
                                  vision_jobs=1 if engine == "ray" else None))
    return runs, todo


def _audit(todo: list[AuditTask], preps: Mapping[str, Prepared], runs: dict[str, GameRun], base: Path, *,
           engine: str, workers: int, address: str | None, speak: Say, wording: Callable[[str], str]) -> None:
    """Run the tasks on the engine, each result into `runs` and OUT/games as it comes, progress.json kept up to
    date; a run stopped (Ctrl-C, SIGTERM) or broken says so there before the exception goes on."""
    with ExitStack() as stack:
        stack.enter_context(stopping_on_sigterm())
        if engine == "ray" and todo:
            results = run_ray(stack.enter_context(ray_session(workers, address, speak)), todo)
        else:
            results = run_local(todo, workers)
        progress = Progress(len(todo), sum(preps[t.name].windows or 0 for t in todo),
                            sum(preps[t.name].span + 1 for t in todo), speak)  # started after Ray: its start is not a game's
        try:
            for result in results:
                prep = preps[result.name]
                runs[result.name] = _finish(prep, result, base / "games", wording)
                progress.done(prep, runs[result.name].status == "failed")
                write_atomic(base / "progress.json", dumps(progress.to_json()))
        except BaseException as exc:  # stopped (Ctrl-C, SIGTERM) or broken: never left saying "running"
            why = (_("interrupted") if isinstance(exc, KeyboardInterrupt)
                   else _("stopped by an error ({error})", error=type(exc).__name__))
            write_atomic(base / "progress.json", dumps(progress.stopped(why)))
            raise


def _decisions(store: Store, run: GameRun) -> Mapping[str, Decision] | None:
    return store.decisions(run.store_id) if run.store_id else None


def write_reports(base: Path, tournament: Tournament, csv_separator: str = ",") -> None:
    """tournament.json, .html and .csv (split on `csv_separator`), each written atomically."""
    write_atomic(base / "tournament.json", dumps(tournament.to_json()))
    write_atomic(base / "tournament.html", tournament_html(tournament))
    write_atomic(base / "tournament.csv", tournament_csv(tournament, csv_separator))


def _files(prep: Prepared) -> dict[str, str | None]:
    g = prep.game

    def text(p: Path | None) -> str | None:
        return None if p is None else str(p.resolve())

    return {"video": text(g.video if g.observations is None else None), "protocol": text(prep.protocol or g.protocol),
            "seats": text(g.seats), "observations": text(g.observations), "marks": text(g.marks), "source": text(prep.source)}


def observations_path(games_dir: Path, name: str) -> Path:
    """Where a game's audit keeps the observations it made from the video (OUT/games/NAME.observations.json)."""
    return games_dir / f"{name}.observations.json"


def _store_id(prep: Prepared) -> str | None:
    return game_id_for(prep.data, prep.protocol) if prep.data is not None and prep.protocol is not None else None


def _failed(prep: Prepared, error: str) -> GameRun:
    return GameRun(id=prep.game.name, status="failed", files=_files(prep), protocol=prep.data, error=error,
                   fingerprint=prep.fingerprint, store_id=_store_id(prep), windows=prep.windows)


def _run(prep: Prepared, status: str, report: AuditReport, seconds: float | None) -> GameRun:
    return GameRun(id=prep.game.name, status=status, files=_files(prep), protocol=prep.data, report=report,
                   audit=f"games/{prep.game.name}.audit.json", fingerprint=prep.fingerprint, store_id=_store_id(prep),
                   seconds=seconds, windows=prep.windows)


def _finish(prep: Prepared, result: TaskResult, games_dir: Path, wording: Callable[[str], str]) -> GameRun:
    """A finished task: its audit, what vision saw for it (a game audited from its video) and then its done file
    written (atomically, in that order), or its error. The observations go beside the audit so that the app
    opens the game with its hands on the frames; a game audited from given observations keeps none here."""
    if result.report is None:
        return _failed(prep, wording(result.error or _("{game}: the audit failed.", game=prep.game.name)))
    text = dumps(result.report)
    audit = write_atomic(games_dir / f"{prep.game.name}.audit.json", text)
    seen = observations_path(games_dir, prep.game.name)
    if result.observations is not None:
        write_atomic(seen, dumps(result.observations))
    else:  # an earlier run's look at the video is not this audit's
        seen.unlink(missing_ok=True)
    done = {"format": DONE_FORMAT, "id": prep.game.name, "fingerprint": prep.fingerprint, "parts": prep.parts,
            "audit": audit.name, "audit_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
            "seconds": round(result.seconds, 2), "cpu_seconds": round(result.cpu_seconds, 2), "windows": prep.windows,
            "audited": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
    write_atomic(games_dir / f"{prep.game.name}.done.json", dumps(done))
    return _run(prep, "audited", AuditReport.from_json(result.report), result.seconds)
