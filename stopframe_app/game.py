"""A game as the app holds it: which files, what could be read from them, and what is still missing.

No streamlit here: this module gathers what `review/` and `vision/` return for one game, so pages only
arrange it and tests can build it directly. Each part that cannot be had (a file missing or unreadable)
becomes a one-sentence note instead of an exception.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from contract.errors import StopframeError
from contract.i18n import _, ngettext
from contract.jsonio import write_json
from contract.observations import observations_from_json, read_observations
from contract.seats import load_seat_map
from pipeline.audit import audit_game, audit_observations, looked_at_nights
from pipeline.cameras import (
    camera_of,
    every_camera_saved,
    main_camera,
    marks_on,
    observations_beside,
    on_camera,
)
from pipeline.game import replay_game
from pipeline.observer import observe_game
from pipeline.seat_fit import check_scaled_map_reads, check_seats_fit_hands, check_seats_fit_video
from review.audit.findings import AuditReport, Finding, VoteReport
from review.audit.inputs import video_fingerprint
from review.cases.store import data_dir, game_id_for
from review.game import timeline
from review.game.profiles import get_profile
from review.game.protocol import (
    RULE_PROFILES,
    CameraVideo,
    format_problems,
    load_protocol,
    resolve_camera_path,
    resolve_video_path,
)

if TYPE_CHECKING:  # the types only
    from contract.seats import SeatMap
    from review.game.engine import Replay
    from review.game.problems import Problem
    from review.game.protocol import Protocol
    from review.game.timeline import Mark, VoteWindow
    from vision.video import VideoMeta

REPO = Path(__file__).resolve().parents[1]
SAMPLE_PROTOCOL = REPO / "sample_videos" / "game" / "sample_game.protocol.json"


def stem_of(path: Path) -> str:
    """`game3.protocol.json` -> `game3`."""
    name = path.name
    for suffix in (".protocol.json", ".seats.json", ".observations.json", ".json"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def safe_name(text: str) -> str:
    """A name for files made from a game's name: letters, digits and `-_.` kept, anything else `_` (a sheet's title
    or a protocol's name may hold anything)."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text)


def own_name(protocol: str | Path) -> str:
    """A name for the files the app keeps of one game (its exports folder, its seat map): the protocol's name
    and a mark of where it lies, so two games whose protocols share a file name (game1.protocol.json of two
    tournaments) never take each other's files."""
    safe = safe_name(stem_of(Path(protocol)))
    where = hashlib.sha256(os.path.realpath(protocol).encode("utf-8", "surrogateescape")).hexdigest()[:10]
    return f"{safe}-{where}"


@dataclass(frozen=True)
class GameSpec:
    """Which files make up a game and under which rule profile to review it (None: the protocol's own);
    `audit`: a saved audit report (a tournament's, stopframe-audit/1) shown as it is instead of auditing again."""

    protocol: str
    video: str | None = None
    seats: str | None = None
    observations: str | None = None
    profile: str | None = None
    audit: str | None = None

    def signature(self) -> tuple:
        """Paths with their modification times: a changed file means a new analysis, an unchanged one a cache hit."""
        return (self.protocol, mtime(self.protocol), self.video, mtime(self.video), self.seats, mtime(self.seats),
                self.observations, mtime(self.observations), self.profile, self.audit, mtime(self.audit))


def mtime(path: str | None) -> float | None:
    try:
        return os.stat(path).st_mtime if path else None
    except OSError:
        return None


def sample_spec() -> GameSpec:
    return GameSpec(protocol=str(SAMPLE_PROTOCOL))


def complete_spec(spec: GameSpec) -> GameSpec:
    """Fill the video, seat map and observations the judge did not name from the usual places beside the
    protocol (`video.path`, `NAME.seats.json`, `NAME.observations.json`) or the analysis cache; for a video
    that is one of the protocol's cameras (`videos`), that camera's own seat map and the observations beside
    its video come first."""
    protocol_path = Path(spec.protocol)
    folder, stem = protocol_path.parent, stem_of(protocol_path)
    video, seats, obs = spec.video, spec.seats, spec.observations
    if video is None:
        video = _video_from_protocol(protocol_path)
    camera = _camera_files(protocol_path, video)
    if seats is None and camera is not None and camera[0] is not None and camera[0].is_file():
        seats = str(camera[0])
    if seats is None and (folder / f"{stem}.seats.json").is_file():
        seats = str(folder / f"{stem}.seats.json")
    if obs is None:
        beside = camera[1] if camera is not None and camera[1].is_file() else folder / f"{stem}.observations.json"
        cached = observations_cache_path(video, seats) if video else None
        if beside.is_file():
            obs = str(beside)
        elif cached is not None and cached.is_file():
            obs = str(cached)
    return GameSpec(spec.protocol, video, seats, obs, spec.profile, spec.audit)


def _why_no_video(protocol: Protocol) -> str:
    try:
        path = resolve_video_path(protocol)
    except StopframeError as exc:
        return str(exc)
    if path is None:
        return _("The protocol names no video: give the video's path under Open a game.")
    return _("The video is missing: {path} does not exist. Give the video's path under Open a game.", path=path)


def _video_from_protocol(protocol_path: Path) -> str | None:
    try:
        video = resolve_video_path(load_protocol(protocol_path))
    except StopframeError:
        return None
    return str(video) if video.is_file() else None


def _camera_files(protocol_path: Path, video: str | None) -> tuple[Path | None, Path] | None:
    """(seat map, observations beside the video) of the camera whose file `video` is, or None."""
    try:
        protocol = load_protocol(protocol_path)
    except StopframeError:
        return None
    camera = camera_of(protocol, video)
    if camera is None:
        return None
    try:
        seats = resolve_camera_path(protocol, camera, "seats") if camera.seats else None
    except StopframeError:
        seats = None
    return seats, observations_beside(resolve_camera_path(protocol, camera))


def observations_cache_path(video: str | None, seats: str | None) -> Path | None:
    """Where the analysis of this video with this seat map is kept (data folder, keyed on content dates)."""
    if not video:
        return None
    key = f"{Path(video).resolve()}|{mtime(video)}|{seats and Path(seats).resolve()}|{mtime(seats)}"
    return data_dir() / "observations" / (hashlib.sha256(key.encode()).hexdigest()[:20] + ".observations.json")


@dataclass
class Game:
    """Everything the pages show about one game. Missing parts are None with a note in `notes`."""

    spec: GameSpec
    game_id: str
    title: str
    protocol: Protocol
    profile_id: str
    problems: list[Problem] = field(default_factory=list)
    replay: Replay | None = None
    windows: list[VoteWindow] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)  # from the judge's marks sidecar
    seat_map: SeatMap | None = None
    video_meta: VideoMeta | None = None
    observations: dict[str, Any] | None = None
    audit: AuditReport | None = None
    camera: CameraVideo | None = None  # the camera of `videos` the open video is (None: the protocol's one video)
    notes: dict[str, str] = field(default_factory=dict)  # what is missing, as a hint
    errors: dict[str, str] = field(default_factory=dict)  # a file that could not be used, one sentence each

    @property
    def data(self) -> dict[str, Any]:
        return self.protocol.data

    @property
    def clock_data(self) -> dict[str, Any]:
        """The protocol on the open video's clock: `data` itself, or, opened on a camera of `videos` other than
        the main one, `video` set to that camera (its offset and drift) — for everything timed on the video;
        `data` stays the file as read, for what is exported."""
        if self.camera is None or self.camera == main_camera(self.protocol):
            return self.data
        return on_camera(self.data, self.camera)

    @property
    def cameras(self) -> tuple[CameraVideo, ...]:
        """The protocol's cameras (`videos`), () where it names none or the list is malformed."""
        try:
            return self.protocol.videos
        except StopframeError:
            return ()

    @property
    def players(self) -> dict[int, str]:
        return {p.get("seat"): str(p.get("nickname") or "") for p in self.protocol.players if isinstance(p, dict)}

    @property
    def findings(self) -> tuple[Finding, ...]:
        return self.audit.findings if self.audit is not None else ()

    @property
    def votes(self) -> tuple[VoteReport, ...]:
        return self.audit.votes if self.audit is not None else ()

    @property
    def hands(self) -> list[dict[str, Any]]:
        return list((self.observations or {}).get("hands") or [])


def load_game(spec: GameSpec) -> Game:
    """Read the protocol (fatal if unreadable), then every other part it can get, noting what is missing."""
    protocol = load_protocol(spec.protocol)
    profile_id = spec.profile or protocol.rules or "rfm"
    game = Game(spec=spec, game_id=game_id_for(protocol.data, spec.protocol), title=_title(protocol),
                protocol=protocol, profile_id=profile_id)
    game.problems = list(format_problems(protocol.data))
    game.camera = None if game.problems else camera_of(protocol, spec.video)
    if game.problems:
        game.notes["protocol"] = ngettext("The protocol has {n} format problem; the audit needs a sound protocol.",
                                          "The protocol has {n} format problems; the audit needs a sound protocol.",
                                          len(game.problems))
    else:
        _replay(game)
    _windows(game)
    _seat_map(game)
    _video(game)
    if game.seat_map is not None and game.video_meta is not None:
        try:  # pipeline.seat_fit: the one check where a seat map meets its video (the CLI's too)
            note = check_seats_fit_video(game.seat_map, game.spec.seats, game.spec.video,
                                         (game.video_meta.width, game.video_meta.height))
            if note:
                game.notes["seat_size"] = note
        except StopframeError as exc:
            game.errors["seats"] = str(exc)
            game.seat_map = None
    _observations(game)
    return game


def _title(protocol: Protocol) -> str:
    g = protocol.data.get("game") if isinstance(protocol.data.get("game"), dict) else {}
    parts = [str(g[k]) for k in ("tournament", "id", "date") if g.get(k)]
    return " · ".join(parts) or (protocol.path.name if protocol.path else _("the game"))


def profile_ids() -> list[str]:
    """The rule profiles the sidebar offers, in review.game.profiles' order."""
    return list(RULE_PROFILES)


def _replay(game: Game) -> None:
    try:
        game.replay = replay_game(game.data, get_profile(game.profile_id))
        game.problems = list(game.replay.problems)
    except StopframeError as exc:
        game.errors["engine"] = str(exc)


def _windows(game: Game) -> None:
    marks_path = timeline.marks_path_for(game.spec.protocol)
    if marks_path.is_file():
        try:
            game.marks = timeline.load_marks(marks_path)
        except StopframeError as exc:
            game.errors["marks"] = str(exc)
    if game.camera is not None:  # the marks were read off the main camera's video
        game.marks = marks_on(game.protocol, game.camera, game.marks)
    if not game.problems:
        game.windows = timeline.vote_windows(game.clock_data, game.marks)


def _seat_map(game: Game) -> None:
    if not game.spec.seats:
        game.notes["seats"] = _("No seat map: open one, or place the zones under Seat calibration.")
        return
    try:
        game.seat_map = load_seat_map(game.spec.seats)
    except StopframeError as exc:
        game.errors["seats"] = str(exc)


def _video(game: Game) -> None:
    if not game.spec.video:
        game.notes["video"] = _why_no_video(game.protocol)
        return
    from vision.video import open_video

    try:
        with open_video(game.spec.video) as source:
            game.video_meta = source.meta
    except StopframeError as exc:
        game.errors["video"] = str(exc)


def _observations(game: Game) -> None:
    if not game.spec.observations:
        if not game.spec.video or "video" in game.errors:
            why = game.errors.get("video") or game.notes.get("video") or _("This game has no video.")
            game.notes["observations"] = _("No video to look at, so no hands and no findings: {why}", why=why)
        else:
            game.notes["observations"] = _("The video has not been analysed yet: run the analysis to see hands and "
                                           "findings.")
        return
    try:
        data = read_observations(game.spec.observations)
        seen = observations_from_json(data, game.spec.observations)  # checked in full before anything is drawn from it
    except StopframeError as exc:
        game.errors["observations"] = str(exc)
        return
    if game.seat_map is not None and game.spec.seats:
        try:
            check_seats_fit_hands(game.seat_map, game.spec.seats, seen, game.spec.observations)
        except StopframeError as exc:
            game.errors["seats"] = str(exc)
            game.seat_map = None
            return
    made_from = data.get("x_video_fingerprint")
    if made_from and game.spec.video and made_from != video_fingerprint(game.spec.video):
        game.notes["observations"] = _("{path} was made from another version of the video; run the analysis again.",
                                       path=game.spec.observations)
        return
    game.observations = data


def analyse(game: Game, progress: Callable[[float, str], None] | None = None) -> Path:
    """Run the hand observation over the game's vote windows and keep the result in the analysis cache."""
    if game.seat_map is None or not game.spec.video:
        raise StopframeError(_("The analysis needs the video and a seat map."))

    def report(done: float, message: str = "") -> None:
        if progress is not None:
            progress(min(max(float(done), 0.0), 1.0), message)

    obs = observe_game(game.spec.video, game.seat_map, game.windows, progress=_progress_adapter(report))
    out = observations_cache_path(game.spec.video, game.spec.seats)
    assert out is not None
    write_json(out, {**obs.to_json(), "x_video_fingerprint": video_fingerprint(game.spec.video)})
    return out


def _progress_adapter(report: Callable[[float, str], None]) -> Callable[..., None]:
    """vision.observe reports progress as (fraction) or (done, total) or (fraction, message): accept each."""

    def callback(*args: Any) -> None:
        if len(args) >= 2 and isinstance(args[1], int | float) and args[1]:
            report(args[0] / args[1], str(args[2]) if len(args) > 2 else "")
        elif args:
            report(float(args[0]), str(args[1]) if len(args) > 1 else "")

    return callback


def run_audit(game: Game) -> AuditReport | None:
    """The audit report for the game, or None with a note saying why not."""
    if game.observations is None:
        return None
    if game.problems:
        game.notes["audit"] = _("The protocol has problems; fix them before the audit can run.")
        return None
    nights = looked_at_nights(game.observations)  # vision looked at the nights too
    cameras = every_camera_saved(game.protocol, game.spec.video, game.spec.observations)
    if cameras:  # a game filmed from several angles: each seat from the camera that sees it best
        return audit_game(protocol=game.spec.protocol, rules=game.profile_id, camera_observations=cameras,
                          nights=nights).at_file_precision()
    visible = sorted(game.seat_map.seats) if game.seat_map is not None else None
    report = audit_observations(game.clock_data, game.observations, profile=get_profile(game.profile_id),
                                visible_seats=visible, marks=game.marks,
                                video=Path(game.spec.video).name if game.spec.video else None,
                                game=game.replay, windows=game.windows, nights=nights)
    check_scaled_map_reads(report, game.notes.get("seat_size"), game.spec.seats or "")
    return report.at_file_precision()
