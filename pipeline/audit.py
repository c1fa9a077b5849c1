"""One game's audit: protocol → vote windows → observe → audit → nights → report.

    audit_game(protocol=…, seats=…, video=…, observations=…, nights=…, observer=…) -> AuditReport
    audit_observations(data, observations, profile=…, marks=…, game=…, windows=…, nights=…) -> AuditReport

The one place the flow is put together: `audit_game` from the game's files (the CLI, `stopframe audit --batch`,
the app for a game filmed from several cameras), `audit_observations` from a protocol and observations already
read (the app's open game). The vote windows and the replay are worked out once per audit and handed to
review's audit. Whatever looks at the video is an `Observer` (pipeline.observer): vision in the product, a
fake in tests.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from contract.errors import InvalidInput, StopframeError, UnreadableInput
from contract.i18n import _, ngettext, number
from contract.observations import OBSERVATIONS_FORMAT, observations_from_json, read_observations
from contract.seats import SeatMap, load_seat_map
from pipeline.cameras import (
    audit_cameras,
    camera_of,
    look,
    main_camera,
    main_rounds,
    marks_on,
    merge_nights,
    on_camera,
)
from pipeline.game import replay_game
from pipeline.observer import VISION, Observer, Say, every_tenth
from pipeline.seat_fit import check_scaled_map_reads, check_seats_fit_hands, check_seats_fit_video
from review.audit.audit import audit
from review.audit.calibration import calibrated
from review.audit.findings import AuditReport
from review.audit.inputs import check_observations_fit, check_seat_geometry
from review.audit.night import audit_nights, night_windows, observe_spans
from review.game.engine import Replay
from review.game.profiles import Profile, get_profile
from review.game.protocol import Protocol as GameProtocol
from review.game.protocol import (
    format_problems,
    load_protocol,
    resolve_camera_path,
    resolve_video_path,
)
from review.game.timeline import (
    Mark,
    VoteWindow,
    analysis_windows,
    load_marks,
    marks_path_for,
    vote_rounds,
    vote_windows,
)


def audit_game(
    *, protocol: str | os.PathLike[str], seats: str | os.PathLike[str] | None = None,
    video: str | os.PathLike[str] | None = None,
    rules: str | None = None, observations: str | os.PathLike[str] | None = None,
    marks: str | os.PathLike[str] | None = None, model: str = "full", progress: Say | None = None, nights: bool = False,
    observer: Observer = VISION, camera_observations: Mapping[str, str | os.PathLike[str]] | None = None,
) -> AuditReport:
    """Everything `stopframe audit` does for one game, returning the report (the app and --batch alike).

    `nights`: audit the shootings and checks too (review.audit.night), from the observations' night fields or,
    without `observations`, by looking at the night stretches of the video (the observer's `nights`).
    A protocol with several cameras (`videos`) and no `seats` is audited from every camera (pipeline.cameras;
    `camera_observations`: saved observations by camera id); `video` naming one of its cameras audits that
    camera alone, on its own clock (and with its own seat map where `seats` is not given).
    """
    say = progress or (lambda _msg: None)
    proto = load_protocol(protocol)
    problems = format_problems(proto.data)
    if problems:
        raise InvalidInput(_("{path}: {problem} — run `stopframe validate` for every problem.", path=protocol,
                             problem=problems[0]))
    profile = get_profile(rules or proto.rules)
    whole, camera = proto, None  # `whole`: the protocol as read, every camera on its own clock
    if proto.videos:
        camera = camera_of(proto, video)
        if camera is not None:
            proto = GameProtocol(on_camera(proto.data, camera), proto.path)
            seats = seats if seats is not None else resolve_camera_path(proto, camera, "seats")
        elif seats is None and observations is None:
            return _from_cameras(proto, profile, marks, model, say, nights, observer, camera_observations or {})
    if seats is None:
        raise UnreadableInput(_("{path}: the audit needs the camera's seat map (--seats); the protocol names no cameras "
                                "(videos) to take them from.", path=protocol))
    seat_map = load_seat_map(seats)
    check_seat_geometry(seat_map, seats)
    note = check_seats_fit_video(seat_map, seats, video if video else _protocol_video(proto))
    if note:
        say(note)
    marks_file = Path(marks) if marks else marks_path_for(protocol)
    mark_list = load_marks(marks_file) if (marks or marks_file.exists()) else []
    if camera is not None:  # the marks were read off the main camera's video
        mark_list = marks_on(whole, camera, mark_list)
    rounds = vote_rounds(vote_windows(proto.data, mark_list))  # once: the observations' check, the look, the audit
    obs_json: dict[str, Any] | None = None
    if observations is not None:
        obs_json = read_observations(observations)
        seen = observations_from_json(obs_json, observations)
        check_seats_fit_hands(seat_map, seats, seen, observations)
        own_video = _protocol_video(proto)
        frames = observer.video_clock(Path(video)) if video else None
        check_observations_fit(
            seen, obs_json, observations, proto.data, rounds=rounds,
            video_name=Path(video).name if video else (own_video.name if own_video else None),
            video_file=video if video else own_video, video_clock=frames,
        )
        video_name = Path(video).name if video else seen.video
    else:
        video_path = Path(video) if video else resolve_video_path(proto)
        windows = analysis_windows(rounds)
        span = sum(b - a for a, b in windows)
        say(ngettext("audit: {n} voting round, {stretches} ({seconds} s of video) to look at in {video}",
                     "audit: {n} voting rounds, {stretches} ({seconds} s of video) to look at in {video}", len(rounds),
                     stretches=_stretches(len(windows)), seconds=number(span, 1, fixed=True), video=video_path.name))
        seen = observer.day(video_path, seat_map, windows, model=model, progress=every_tenth(say, _("audit: looked at")))
        frames = observer.video_clock(video_path)
        video_name = video_path.name
    report = audit(proto.data, seen, profile=profile, visible_seats=set(seat_map.seats), marks=mark_list,
                   video=video_name, frames=frames, game=replay_game(proto.data, profile), rounds=rounds)
    check_scaled_map_reads(report, note, seats)
    say(ngettext("audit: {n} vote, {findings} under {profile}", "audit: {n} votes, {findings} under {profile}",
                 len(report.votes), findings=_findings(len(report.findings)), profile=profile.id))
    if nights:
        if obs_json is not None:
            report = with_nights(report, proto.data, profile, obs_json, night_fields(obs_json, say), say)
        else:
            base = {"format": OBSERVATIONS_FORMAT, "fps": seen.fps, "hands": []}
            report = with_nights(report, proto.data, profile, base,
                                 observe_nights(proto.data, profile, video_path, seat_map, model, say, observer), say)
    return report


def audit_observations(data: dict[str, Any], observations: dict[str, Any], *, profile: Profile,
                       visible_seats: Collection[int] | None = None, marks: Sequence[Mark] = (),
                       video: str | None = None, game: Replay | None = None,
                       windows: Sequence[VoteWindow] | None = None, nights: bool = False) -> AuditReport:
    """The audit of a protocol (`data`, on the observed video's clock) from observations already read and checked
    (the app's open game): the votes, and with `nights` the shootings and checks from the observations' night
    fields. `game` (the replay under `profile`) and `windows` (review.game.timeline's vote windows with `marks`):
    what the caller has worked out already; None: worked out here, once."""
    report = audit(data, observations, profile=profile, visible_seats=visible_seats, marks=marks, video=video,
                   game=game if game is not None else replay_game(data, profile),
                   rounds=vote_rounds(windows if windows is not None else vote_windows(data, marks)))
    if not nights:
        return report

    def quiet(_message: str) -> None:
        """The command line's progress lines; the app shows the rows instead."""

    return with_nights(report, data, profile, observations, night_fields(observations, quiet), quiet)


def looked_at_nights(observations: Mapping[str, Any]) -> bool:
    """Whether vision looked at the nights too: the observations carry raised hands or shown numbers."""
    return any(k in observations for k in ("x_raised", "x_shown_numbers"))


def _from_cameras(proto: GameProtocol, profile: Profile, marks: str | os.PathLike[str] | None, model: str, say: Say,
                  nights: bool, observer: Observer, saved: Mapping[str, str | os.PathLike[str]]) -> AuditReport:
    """The audit from every camera of `videos` (pipeline.cameras); the nights too, each seat's raise zone from
    the camera that sees it best (pipeline.cameras.merge_nights)."""
    marks_file = Path(marks) if marks else marks_path_for(proto.path or "protocol")
    mark_list = load_marks(marks_file) if (marks or marks_file.exists()) else []
    rounds = main_rounds(proto, mark_list)  # once: the look and the audit
    views = look(proto, marks=mark_list, model=model, observer=observer, observations=saved, say=say,
                 progress=lambda words: every_tenth(say, _("{what} looked at", what=words)), rounds=rounds)
    report = audit_cameras(proto, views, profile=profile, marks=mark_list, rounds=rounds,
                           game=replay_game(proto.data, profile))
    say(ngettext("audit: {n} vote, {findings} {cameras} under {profile}",
                 "audit: {n} votes, {findings} {cameras} under {profile}", len(report.votes),
                 findings=_findings(len(report.findings)),
                 cameras=ngettext("from {n} camera", "from {n} cameras", len(views)), profile=profile.id))
    if not nights:
        return report
    camera = main_camera(proto)
    main = next(v for v in views if v.id == camera.id)
    data = on_camera(proto.data, camera)
    nights_seen = []  # each camera's night fields, on its own clock
    for view in views:
        if view.id in saved:
            nights_seen.append((view, night_fields(read_observations(saved[view.id]), say)))
        else:
            own = on_camera(proto.data, next(c for c in proto.videos if c.id == view.id))
            nights_seen.append((view, observe_nights(own, profile, view.video, view.seat_map, model, say, observer)))
    # the main camera's day hands (the night pose) and its x_cues go with the merged night fields
    obs_json = read_observations(saved[camera.id]) if camera.id in saved else \
        {"format": OBSERVATIONS_FORMAT, "fps": main.observations.fps, "hands": []}
    fields = merge_nights(nights_seen, main) if len(nights_seen) > 1 else nights_seen[0][1]
    return with_nights(report, data, profile, obs_json, fields, say)


def _protocol_video(proto: GameProtocol) -> Path | None:
    """The protocol's own video file (video.path inside its folder), or None where it names none."""
    try:
        return resolve_video_path(proto)
    except StopframeError:
        return None


NIGHT_FIELDS = ("x_raised", "x_shown_numbers", "x_night_windows", "x_night_blind", "x_night_words")


def night_fields(obs_json: dict[str, Any], say: Say) -> dict[str, Any]:
    """The night fields of saved observations; none at all means vision never looked at the nights."""
    fields = {k: obs_json[k] for k in NIGHT_FIELDS if k in obs_json}
    if "x_raised" not in fields and "x_shown_numbers" not in fields:
        say(_("audit: the observations carry no night fields (x_raised / x_shown_numbers): nights not audited"))
        return {"x_raised": [], "x_shown_numbers": [], "x_night_windows": [], "hands": []}  # covers nothing: every row says so
    return fields


def observe_nights(data: dict[str, Any], profile: Profile, video_path: Path, seat_map: SeatMap, model: str,
                   say: Say, observer: Observer = VISION) -> dict[str, Any]:
    """Look at the video's shootings and checks and return the night fields (also what
    bench/audit_accuracy.py --refresh-fixture puts into the sample game's shared observations)."""
    shootings, checks = observe_spans(night_windows(data, profile))
    if not shootings and not checks:
        say(_("audit: the protocol has no timed shooting or check: nights not audited"))
        return {"x_raised": [], "x_shown_numbers": [], "x_night_windows": []}
    say(_("audit: {shootings}, {checks} to look at in {video}",
          shootings=ngettext("{n} shooting", "{n} shootings", len(shootings)),
          checks=ngettext("{n} check", "{n} checks", len(checks)), video=video_path.name))
    return observer.nights(video_path, seat_map, shootings, checks, model=model)


def with_nights(report: AuditReport, data: dict[str, Any], profile: Profile, obs_json: dict[str, Any],
                fields: dict[str, Any], say: Say) -> AuditReport:
    """The report with the night findings after the day's and the nights' rows as `x_nights` (CLI and app alike)."""
    cues = obs_json.get("x_cues") or ()
    na = audit_nights(data, {**obs_json, **fields}, profile=profile, cues=cues if isinstance(cues, list) else ())
    say(_("audit: {rows}, {findings} under {profile}",
          rows=ngettext("{n} shooting or check", "{n} shootings and checks", len(na.rows)),
          findings=ngettext("{n} night finding", "{n} night findings", len(na.findings)), profile=profile.id))
    return AuditReport(report.video, report.rules, report.votes, report.findings + calibrated(na.findings),
                       {**report.extra, "x_nights": na.rows})


def _findings(n: int) -> str:
    return ngettext("{n} finding", "{n} findings", n)


def _stretches(n: int) -> str:
    return ngettext("{n} stretch", "{n} stretches", n)
