"""The audit of a game filmed from several cameras (the protocol's `videos`): each seat read from the angle
that sees it best, the other angles filling in what it missed.

    audit_cameras(proto, profile=…, observer=…, observations={id: file}) -> AuditReport

Each camera is observed on its own clock with its own seat map. Its hands are moved onto the main camera's
clock (`video`, else the first of `videos`: the report's `video`, times and evidence are that camera's, as a
single-camera report's are) through the protocol's clock (contract.clock: a camera's time = its offset +
protocol time × (1 + its drift_ppm·10⁻⁶), so a camera time goes back to the protocol's time and on to the main
camera's; without drift, main time = camera time − camera offset + main offset). Then, per seat:

- the cameras that have a zone for the seat are ranked by how well they see it: the zone's size in pixels
  (the square root of its area: a hand's size in that picture) times the detector's mean confidence on that
  seat's hands times the share of the other angles' hands there that it shows too (`seat_quality`); a seat
  missing from a camera's seat map is one that camera cannot see (spec §2);
- every hand of the best camera is kept, with its times; a hand of a lesser camera is kept only where no
  better-ranked hand overlaps it (a hand the better angle missed: occluded, edge-on, too small); where the
  better camera could see the seat then, its silence is a disagreement and the hand's confidence drops in
  proportion to how well that camera sees the seat;
- a hand of the best camera that a camera able to see the seat does not show at all loses confidence the
  same way (disagreement lowers confidence, it never removes a hand);
- a hand two cameras show takes its form (fist, thumb up, open palm…) from the firmest reading (the camera's
  quality at the seat × the hand's confidence × how steadily its frames agree on the form, `x_pose_share`;
  an unread form, "other", is no reading) unless a reading at least half as firm names a form vision less
  often misreads into (`FORM_TRUST`: a thumb-up fist over a plain fist over an open palm or a finger);
- a seat is unseen (cannot_see) only where every camera with a zone for it is blind (vision's unseen, or
  outside what the camera filmed).

The merged observations go through the one audit (review.audit.audit); each finding then gets `x_cameras`:
per camera, whether its evidence was used and the finding's frames on that camera's own clock
(docs/formats.md, "Findings from several cameras"). With one camera the merge is that camera's observations
unchanged. The nights go the same way (`merge_nights`): each seat's raised hands and shown numbers from the camera
that sees its raise zone best.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from contract.clock import Clock
from contract.errors import InvalidInput, StopframeError
from contract.i18n import N_, _, ngettext
from contract.night import NightSeen, Raised, ShownNumber
from contract.observations import (
    HandInterval,
    Observations,
    Unseen,
    observations_from_json,
    read_observations,
)
from contract.seats import SeatMap, load_seat_map
from pipeline.observer import Observer, Say
from pipeline.seat_fit import check_seats_fit_hands, check_seats_fit_video
from review.audit.audit import audit
from review.audit.findings import AuditReport, CameraFrames, Finding
from review.audit.inputs import check_observations_fit, check_seat_geometry
from review.game.engine import Replay
from review.game.profiles import Profile
from review.game.protocol import CameraVideo, resolve_camera_path
from review.game.protocol import Protocol as GameProtocol
from review.game.timeline import Mark, VoteRound, analysis_windows, vote_rounds, vote_windows

Span = tuple[float, float]
DISAGREE = 0.3  # the most a disagreeing camera takes off a hand's confidence (a camera that sees the seat as well)
HAND_KINDS = ("late_vote", "early_hand", "lifted_early", "wrong_form", "double_vote")  # findings about one hand
FOREVER = 1e9
# How rarely vision reads a hand *into* this form by mistake: thumb-up fists are often read as plain fists or
# open palms, the reverse seldom (sample_videos/README.md, "pose read by vision"). Where two angles' firm readings
# of one hand disagree, the form less often misread wins.
FORM_TRUST = {"thumb_up_fist": 2, "fist": 1, "open_palm": 0, "finger": 0}
FORM_RIVAL = 0.5  # a reading at least this share as firm as the firmest one may overrule it


@dataclass(frozen=True)
class CameraView:
    """One camera as the audit uses it: its file, seat map, offset (and drift) and what vision saw, on its own
    clock."""

    id: str
    video: Path
    seat_map: SeatMap
    offset: float
    observations: Observations
    clock: Clock | None  # the video's own clock (None where it was not opened: the observations' rate then)
    drift_ppm: float = 0.0

    def frame_clock(self) -> Clock:
        return self.clock if self.clock is not None else Clock.constant(self.observations.fps)

    def times(self) -> Clock:
        """Protocol times onto this camera's seconds (its `videos[]` offset and drift)."""
        return Clock.protocol_to(self.offset, self.drift_ppm)

    def seat_size(self, seat: int) -> float:
        """How large this camera shows the seat's hands: the square root of the zone's area in the seat map's pixels
        (a map is made at its camera's frame size), 0 without a zone."""
        zone = self.seat_map.seats.get(seat)
        if zone is None:
            return 0.0
        x, y = np.asarray(zone.zone, float).T
        return math.sqrt(abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))) / 2)

    def confidence(self, seat: int) -> float:
        """The detector's mean confidence on the seat's hands (on all its hands where it saw none there)."""
        hands = self.observations.hands
        confidences = [h.confidence for h in hands if h.seat == seat] or [h.confidence for h in hands] or [1.0]
        return sum(confidences) / len(confidences)


# ---------------------------------------------------------------- intervals on the main clock


def _union(spans: Sequence[Span]) -> list[Span]:
    out: list[Span] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _intersect(left: Sequence[Span], right: Sequence[Span]) -> list[Span]:
    out = []
    for a, b in left:
        for c, d in right:
            lo, hi = max(a, c), min(b, d)
            if hi > lo:
                out.append((lo, hi))
    return _union(out)


def _inside(spans: Sequence[Span], start: float, end: float) -> bool:
    return any(a <= start and end <= b for a, b in spans)


@dataclass(frozen=True)
class _Moved:
    """A camera's observations on the main camera's clock."""

    camera: CameraView
    scale: float  # main time = camera time × scale + shift (scale 1 between cameras that do not drift)
    shift: float
    hands: tuple[HandInterval, ...]
    covered: tuple[Span, ...]  # what the camera filmed and vision looked at
    blind: dict[int, tuple[Span, ...]]  # per seat with a zone: unseen stretches

    def sees(self, seat: int, start: float, end: float) -> bool:
        """Whether the camera had a view of the seat over [start, end): a zone, filmed, not unseen."""
        if seat not in self.camera.seat_map.seats or not _inside(self.covered, start, end):
            return False
        return not any(a < end and start < b for a, b in self.blind.get(seat, ()))

    def to_main(self, t: float) -> float:
        """A time on this camera's clock on the main camera's."""
        return t * self.scale + self.shift

    def to_own(self, t: float) -> float:
        """A time on the main camera's clock on this camera's."""
        return (t - self.shift) / self.scale


def _move(camera: CameraView, main: CameraView) -> _Moved:
    scale, shift = camera.times().moved_onto(main.times())
    seen = camera.observations
    keep_frames = (scale, shift) == (1.0, 0.0) and camera.video == main.video

    def at(t: float) -> float:
        return t * scale + shift

    hands = tuple(h if keep_frames else replace(h, on=at(h.on), off=at(h.off), on_frame=None, off_frame=None)
                  for h in seen.hands)
    end = camera.clock.duration if camera.clock is not None else None
    filmed = (shift, at(end)) if end is not None else (shift, FOREVER)
    looked = [(at(a), at(b)) for a, b in seen.windows] if seen.windows else [filmed]
    blind: dict[int, list[Span]] = {}
    for u in seen.unseen:
        blind.setdefault(u["seat"], []).append((at(u["start"]), at(u["end"])))
    return _Moved(camera, scale, shift, hands, tuple(_intersect(looked, [filmed])),
                  {s: tuple(_union(v)) for s, v in blind.items()})


# ---------------------------------------------------------------- the merge


def seat_quality(moved: Sequence[_Moved], seat: int) -> dict[str, float]:
    """Per camera with a zone for the seat, how well it sees it: zone size × the detector's mean confidence ×
    how many of the other cameras' hands there it shows too, where it had a view ((1 + shown) / (1 + all):
    a camera that misses what another angle shows is worse at that seat, whatever its zone's size)."""
    out = {}
    for m in moved:
        if seat not in m.camera.seat_map.seats:
            continue
        own = [h for h in m.hands if h.seat == seat]
        others = [h for o in moved if o is not m for h in o.hands if h.seat == seat and m.sees(seat, h.on, h.off)]
        shown = sum(1 for h in others if any(k.on < h.off and h.on < k.off for k in own))
        out[m.camera.id] = m.camera.seat_size(seat) * m.camera.confidence(seat) * (1 + shown) / (1 + len(others))
    return out


@dataclass(frozen=True)
class Merged:
    """The cameras' observations as one, on the main camera's clock, and where each hand came from."""

    observations: Observations
    sources: dict[HandInterval, tuple[str, ...]]  # a kept hand -> the cameras that show it (its own first)
    best: dict[int, str]  # seat -> the camera that sees it best
    moved: tuple[_Moved, ...]


def merge(cameras: Sequence[CameraView], main: CameraView) -> Merged:
    """One set of observations from several cameras (the rules are in the module's docstring)."""
    moved = tuple(_move(c, main) for c in cameras)
    if len(moved) == 1:
        only = moved[0]
        seats = {n: only.camera.id for n in only.camera.seat_map.seats}
        obs = replace(only.camera.observations, hands=only.hands,
                      unseen=tuple(Unseen(seat=u["seat"], start=only.to_main(u["start"]), end=only.to_main(u["end"]),
                                          why=u["why"]) for u in only.camera.observations.unseen),
                      windows=tuple(only.covered) if only.camera.observations.windows else None)
        return Merged(obs, {h: (only.camera.id,) for h in only.hands}, seats, moved)
    seats = sorted({n for m in moved for n in m.camera.seat_map.seats})
    hands: list[HandInterval] = []
    sources: dict[HandInterval, tuple[str, ...]] = {}
    best: dict[int, str] = {}
    unseen: list[Unseen] = []
    for seat in seats:
        quality = seat_quality(moved, seat)
        ranked = sorted((m for m in moved if m.camera.id in quality), key=lambda m: -quality[m.camera.id])
        best[seat] = ranked[0].camera.id
        top = quality[best[seat]] or 1.0
        kept: list[tuple[HandInterval, list[str], list[tuple[float, HandInterval]]]] = []
        for m in ranked:
            for h in (h for h in m.hands if h.seat == seat):
                reading = (quality[m.camera.id] * h.confidence * h.pose_share, h)
                overlapping = [k for k in kept if k[0].on < h.off and h.on < k[0].off]
                for k in overlapping:
                    if m.camera.id not in k[1]:
                        k[1].append(m.camera.id)
                    k[2].append(reading)
                if not overlapping:
                    kept.append((h, [m.camera.id], [reading]))
        for h, ids, readings in kept:
            doubt = max((quality[m.camera.id] / top for m in ranked
                         if m.camera.id not in ids and m.sees(seat, h.on, h.off)), default=0.0)
            sure = replace(h, confidence=h.confidence * (1.0 - DISAGREE * min(doubt, 1.0))) if doubt else h
            read = [r for r in readings if r[1].pose != "other"]
            if read:  # the form from the angles' firm readings ("other": none read), the less misread form first
                firmest = max(r[0] for r in read)
                firm = max((r for r in read if r[0] >= FORM_RIVAL * firmest),
                           key=lambda r: (FORM_TRUST.get(r[1].pose, 0), r[0]))[1]
                sure = replace(sure, pose=firm.pose, pose_share=firm.pose_share)
            hands.append(sure)
            sources[sure] = tuple(ids)
        blind = [list(m.blind.get(seat, ())) + _gaps(m.covered) for m in ranked]
        everywhere = blind[0]
        for spans in blind[1:]:
            everywhere = _intersect(everywhere, spans)
        why = "; ".join(sorted({u["why"] for m in ranked for u in m.camera.observations.unseen if u["seat"] == seat}))
        unseen += [Unseen(seat=seat, start=a, end=b, why=why or N_("no camera had a view"))
                   for a, b in _intersect(everywhere, _union([s for m in moved for s in m.covered]))]
    covered = tuple(_union([s for m in moved for s in m.covered]))
    obs = Observations(tuple(sorted(hands, key=lambda h: (h.on, h.seat))), main.observations.fps, tuple(unseen),
                       main.video.name, covered)
    return Merged(obs, sources, best, moved)


def _gaps(spans: Sequence[Span]) -> list[Span]:
    """What lies outside `spans` (a camera is blind where it did not film or vision did not look)."""
    out, last = [], -FOREVER
    for a, b in _union(spans):
        if a > last:
            out.append((last, a))
        last = max(last, b)
    return out + [(last, FOREVER)]


# ---------------------------------------------------------------- the nights


def _raise_size(camera: CameraView, seat: int) -> float:
    """How large the camera shows the seat's raise zone (square root of its area in pixels), 0 without one."""
    zone = camera.seat_map.seats.get(seat)
    if zone is None or zone.raise_ is None:
        return 0.0
    x, y = np.asarray(zone.raise_, float).T
    return math.sqrt(abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))) / 2)


def merge_nights(nights: Sequence[tuple[CameraView, Mapping[str, Any]]], main: CameraView) -> dict[str, Any]:
    """The night fields (`x_raised`, `x_shown_numbers`, …) of several cameras as one, on the main camera's clock:
    each seat's raised hands and shown numbers from the camera that sees its raise zone best — the day's rule,
    with the raise zone's size for the hand zone's, the detector's mean confidence on the seat's raised hands,
    the share of the other cameras' raised hands there that it shows too, and the share of the night stretches it
    looked at; a seat is blind only where no camera has a view of its raise zone. The judge's count heard on the
    audio (`x_night_words`) is the main camera's."""
    moved = []
    for camera, fields in nights:
        scale, shift = camera.times().moved_onto(main.times())
        seen = NightSeen.of(fields, str(camera.video))
        at = (lambda t, sc=scale, sh=shift: t * sc + sh) if (scale, shift) != (1.0, 0.0) else (lambda t: t)
        raised = tuple(replace(r, up=at(r.up), down=at(r.down), fire=None if r.fire is None else at(r.fire),
                               fires=tuple(at(f) for f in r.fires),
                               fire_frame=r.fire_frame if camera.id == main.id else None) for r in seen.raised)
        shown = tuple(replace(n, t=at(n.t), frame=n.frame if camera.id == main.id else None) for n in seen.shown)
        windows = None if seen.windows is None else tuple((at(x), at(y)) for x, y in seen.windows)
        blind = set(seen.blind) | {n for n in range(1, 11) if _raise_size(camera, n) == 0.0}
        moved.append((camera, NightSeen(raised, shown, windows, tuple(sorted(blind)), seen.words)))
    known = [seen.windows for _, seen in moved if seen.windows is not None]
    looked = _union([w for spans in known for w in spans]) if known else None  # None: no camera says (all looked)
    span = sum(b - a for a, b in looked or ()) or 1.0
    raised_out: list[Raised] = []
    shown_out: list[ShownNumber] = []
    blind_out = []
    for seat in range(1, 11):
        quality = {}
        for camera, seen in moved:
            if seat in seen.blind:
                continue
            own = [r for r in seen.raised if r.seat == seat]
            others = [r for c, o in moved if c is not camera for r in o.raised if r.seat == seat]
            shows = sum(1 for r in others if any(k.up < r.down and r.up < k.down for k in own))
            confidences = [r.confidence for r in own] or [1.0]
            covered = 1.0 if seen.windows is None or looked is None else \
                sum(b - a for a, b in _intersect(_union(list(seen.windows)), looked)) / span
            quality[camera.id] = (_raise_size(camera, seat) * sum(confidences) / len(confidences)
                                  * (1 + shows) / (1 + len(others)) * covered)
        if not quality:
            blind_out.append(seat)
            continue
        best = max(quality, key=lambda c: quality[c])
        seen = next(o for c, o in moved if c.id == best)
        raised_out += [r for r in seen.raised if r.seat == seat]
        shown_out += [n for n in seen.shown if n.seat == seat]
    words = next((seen.words for c, seen in moved if c.id == main.id), ())
    merged = NightSeen(tuple(sorted(raised_out, key=lambda r: (r.up, r.seat))),
                       tuple(sorted(shown_out, key=lambda n: (n.t, n.seat))), None if looked is None else tuple(looked),
                       tuple(blind_out), words)
    return merged.to_json_fields()


# ---------------------------------------------------------------- which camera a finding's evidence is from


def evidence_cameras(finding: Finding, merged: Merged) -> tuple[str, ...]:
    """The cameras whose evidence a finding rests on: the hand's cameras for a finding about one hand, the
    cameras that had a view of the seat for no_vote (none of them showed a hand), every camera for cannot_see,
    and the best cameras of the differing seats for a count (every camera where it names none)."""
    everyone = tuple(m.camera.id for m in merged.moved)
    if finding.kind in HAND_KINDS and finding.seat is not None and finding.t is not None:
        for h, ids in merged.sources.items():
            if h.seat == finding.seat and (math.isclose(h.on, finding.t, abs_tol=1e-6) or h.on <= finding.t <= h.off):
                return ids
        return (merged.best.get(finding.seat, everyone[0]),)
    if finding.kind == "no_vote" and finding.seat is not None:
        times = finding.evidence.times or ((finding.t,) if finding.t is not None else ())
        start, end = (min(times), max(times)) if times else (0.0, 0.0)
        ids = tuple(m.camera.id for m in merged.moved if m.sees(finding.seat, start, end))
        return ids or everyone
    if finding.kind == "count_mismatch" and finding.seats:
        ids = {merged.best[s] for s in finding.seats if s in merged.best}
        return tuple(c for c in everyone if c in ids) or everyone
    return everyone


def camera_frames(finding: Finding, merged: Merged, main: CameraView) -> tuple[CameraFrames, ...]:
    """The finding's moments on every camera's own clock (the times a camera did not film are left out)."""
    used = set(evidence_cameras(finding, merged))
    times = finding.evidence.times or ((finding.t,) if finding.t is not None else ())
    out = []
    for m in merged.moved:
        clock = m.camera.frame_clock()
        end = clock.duration
        points = []
        for t in times:
            own = m.to_own(t)  # the main clock back onto this camera's clock
            if own < 0 or (end is not None and own > end):
                continue
            points.append((clock.at(own).frame, round(own, 3)))
        out.append(CameraFrames(m.camera.id, tuple(f for f, _ in points), tuple(x for _, x in points),
                                m.camera.id in used))
    return tuple(out)


# ---------------------------------------------------------------- putting it together


def main_camera(proto: GameProtocol) -> CameraVideo:
    """The camera the report is written on: the one `video` names (the validator keeps them on one clock), else
    the first of `videos`."""
    cameras = proto.videos
    video = proto.data.get("video")
    path = video.get("path") if isinstance(video, dict) else None
    same = [c for c in cameras if isinstance(path, str) and Path(c.path) == Path(path)]
    return same[0] if same else cameras[0]


def camera_of(proto: GameProtocol, video: str | os.PathLike[str] | None) -> CameraVideo | None:
    """The camera of the protocol's `videos` whose file `video` is; None without cameras, a video, or a match."""
    if not video:
        return None
    try:
        wanted = Path(video).resolve()
        return next((c for c in proto.videos if resolve_camera_path(proto, c).resolve() == wanted), None)
    except StopframeError:
        return None


def on_camera(data: dict[str, Any], camera: CameraVideo) -> dict[str, Any]:
    """The protocol with `video` set to this camera (its file, its offset): vote windows on its clock."""
    return {**data, "video": {"path": camera.path, "offset_s": camera.offset}}


def marks_on(proto: GameProtocol, camera: CameraVideo, marks: Sequence[Mark]) -> list[Mark]:
    """The judge's marks (read off the main camera's video, `NAME.marks.json`) on `camera`'s clock, through the
    protocol's: unchanged for the main camera itself."""
    main = main_camera(proto)
    scale, shift = Clock.protocol_to(main.offset, main.drift_ppm).moved_onto(
        Clock.protocol_to(camera.offset, camera.drift_ppm))
    if (scale, shift) == (1.0, 0.0):
        return list(marks)
    return [replace(m, times={k: v * scale + shift for k, v in m.times.items()}) for m in marks]


def observations_beside(video: Path) -> Path:
    """Where a video's saved observations are kept: beside it, NAME.mp4 -> NAME.observations.json."""
    return video.with_name(video.name[: -len(video.suffix)] + ".observations.json" if video.suffix else
                           video.name + ".observations.json")


def saved_observations(proto: GameProtocol) -> dict[str, Path]:
    """Each camera's saved observations beside its video, by camera id, where they exist (the app, the bench)."""
    out = {}
    for camera in proto.videos:
        path = observations_beside(resolve_camera_path(proto, camera))
        if path.is_file():
            out[camera.id] = path
    return out


def every_camera_saved(proto: GameProtocol, video: str | os.PathLike[str] | None,
                       observations: str | os.PathLike[str] | None) -> dict[str, Path]:
    """For a game of several cameras opened on its main camera (`video`, its observations `observations`),
    every camera's saved observations by id; {} where there is one camera, the open video is another, or a
    camera's observations are missing (the game is then audited from the open video alone)."""
    try:
        cameras = proto.videos
        main = main_camera(proto) if len(cameras) > 1 else None
        if main is None or video is None or observations is None:
            return {}
        if resolve_camera_path(proto, main).resolve() != Path(video).resolve():
            return {}
        saved = {**saved_observations(proto), main.id: Path(observations)}
    except InvalidInput:
        return {}
    return saved if len(saved) == len(cameras) else {}


def main_rounds(proto: GameProtocol, marks: Sequence[Mark]) -> list[VoteRound]:
    """The protocol's voting rounds on the main camera's clock, with the judge's marks."""
    return vote_rounds(vote_windows(on_camera(proto.data, main_camera(proto)), marks))


def look(proto: GameProtocol, *, marks: Sequence[Mark], model: str, observer: Observer,
         observations: Mapping[str, str | os.PathLike[str]] | None, say: Say,
         progress: Callable[[str], Callable[[int, int], None]],
         rounds: Sequence[VoteRound] | None = None) -> list[CameraView]:
    """Every camera's view: its seat map checked, its hands from saved observations (`observations`, by camera
    id) or from the observer over the main camera's vote stretches moved onto its clock. `rounds`: the
    `main_rounds` the caller has already (None: worked out here)."""
    cameras = proto.videos
    main = main_camera(proto)
    stretches = analysis_windows(rounds if rounds is not None else main_rounds(proto, marks))
    unknown = sorted(set(observations or {}) - {c.id for c in cameras})
    if unknown:
        raise InvalidInput(_('{path}: no camera "{camera}" in videos (cameras: {cameras}).', path=proto.path,
                             camera=unknown[0][:40], cameras=", ".join(c.id for c in cameras)))
    views = []
    for camera in cameras:
        video = resolve_camera_path(proto, camera)
        seats = resolve_camera_path(proto, camera, "seats")
        seat_map = load_seat_map(seats)
        check_seat_geometry(seat_map, seats)
        check_seats_fit_video(seat_map, seats, video)
        clock = observer.video_clock(video)
        saved = (observations or {}).get(camera.id)
        if saved is not None:
            obs_json = read_observations(saved)
            seen = observations_from_json(obs_json, saved)
            check_seats_fit_hands(seat_map, seats, seen, saved)
            own = on_camera(proto.data, camera)
            check_observations_fit(seen, obs_json, saved, own, rounds=vote_rounds(vote_windows(own)),
                                   video_name=video.name, video_file=video, video_clock=clock)
        else:
            scale, shift = Clock.protocol_to(main.offset, main.drift_ppm).moved_onto(
                Clock.protocol_to(camera.offset, camera.drift_ppm))
            windows = [(max(0.0, a * scale + shift), b * scale + shift) for a, b in stretches if b * scale + shift > 0]
            say(ngettext("audit: camera {camera}: {n} stretch to look at in {video}",
                         "audit: camera {camera}: {n} stretches to look at in {video}", len(windows), camera=camera.id,
                         video=video.name))
            seen = observer.day(video, seat_map, windows, model=model,
                                progress=progress(_("audit: camera {camera}:", camera=camera.id)))
        views.append(CameraView(camera.id, video, seat_map, camera.offset, seen, clock, camera.drift_ppm))
    return views


def audit_cameras(proto: GameProtocol, views: Sequence[CameraView], *, profile: Profile,
                  marks: Sequence[Mark] = (), game: Replay | None = None,
                  rounds: Sequence[VoteRound] | None = None) -> AuditReport:
    """The vote audit from these cameras' views: the merged observations through the one audit, on the main
    camera's clock (the first view's where the main camera is not among them), each finding with `x_cameras`,
    the report with which camera saw which seat best. `game` (the replay under `profile`) and `rounds` (the
    `main_rounds`, for views that hold the main camera): what the caller has worked out already."""
    ids = [v.id for v in views]
    main_id = main_camera(proto).id if main_camera(proto).id in ids else ids[0]  # a camera alone: on its own clock
    main = next(v for v in views if v.id == main_id)
    merged = merge(views, main)
    data = on_camera(proto.data, next(c for c in proto.videos if c.id == main_id))
    visible = {n for v in views for n in v.seat_map.seats}
    report = audit(data, merged.observations, profile=profile, visible_seats=visible, marks=marks,
                   video=main.video.name, frames=main.clock, game=game,
                   rounds=rounds if main_id == main_camera(proto).id else None)
    findings = tuple(replace(f, extra={**f.extra, "x_cameras": [c.to_json() for c in camera_frames(f, merged, main)]})
                     for f in report.findings)
    cameras = [{"id": v.id, "video": v.video.name, "offset": v.offset,
                "best_seats": sorted(s for s, c in merged.best.items() if c == v.id)} for v in views]
    return replace(report, findings=findings, extra={**report.extra, "x_cameras": cameras})
