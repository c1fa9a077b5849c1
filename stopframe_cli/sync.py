"""`stopframe sync A B`: where video B starts on video A's clock, from their sound tracks.

    stopframe sync A.mp4 B.mp4 [--json] [--out FILE] [--protocol P [--camera ID] --protocol-out P2]

The computation is `vision.sync` (imported inside the handler, so the other commands never load PyAV); the
result is `stopframe-sync/1` (docs/formats.md). When the sound cannot tell, the command says why in one
sentence and exits 1 (2 for a file without a readable sound track) — it never prints a guess.

With `--protocol P`, A and B are two cameras of P's `videos`: B's camera (or `--camera ID`, whose file B must be)
gets the offset and drift that put it on P's clock through A's, and the re-timed copy of P is written to
`--protocol-out` (beside P, since the cameras' paths are relative to its folder; never over P or a video),
checked by our own validator first.
"""

from __future__ import annotations

import argparse
import copy
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from contract.clock import Clock, same_file
from contract.errors import EXIT_OK, InvalidInput, UnreadableInput
from contract.i18n import _, number
from review.game.protocol import (
    CameraVideo,
    Protocol,
    format_problems,
    load_protocol,
    resolve_camera_path,
    save_protocol,
)
from stopframe_cli.output import add_output_options, emit, progress

if TYPE_CHECKING:
    from vision.sync import SyncResult


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "sync",
        help=_("where video B starts on video A's clock, from the two sound tracks (offset, confidence, drift)"),
        description=_("Find where B's time 0 falls on A's clock by matching the sound both cameras heard, and how "
                      "fast B's clock runs against A's; exit 1 when the sound cannot tell. With --protocol, write a copy "
                      "of the protocol with B's camera re-timed (offset and drift) through A's."),
    )
    p.add_argument("a", metavar="A", help=_("the video whose clock is the reference"))
    p.add_argument("b", metavar="B", help=_("the video to place on A's clock"))
    add_output_options(p)
    p.add_argument("--protocol", metavar="P", help=_("a protocol whose videos include A and B: re-time B's camera"))
    p.add_argument("--camera", metavar="ID", help=_("the camera of P to re-time (default: the one whose file is B)"))
    p.add_argument("--protocol-out", metavar="P2",
                   help=_("where to write the re-timed protocol (beside P; P itself is never changed)"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.sync import sync_files

    for out in (args.out, args.protocol_out):
        for video in (args.a, args.b):
            if out and Path(out).resolve() == Path(video).resolve():
                raise UnreadableInput(_("{path}: sync never overwrites a video; choose another output file.", path=out))
    plan = _plan(args) if args.protocol or args.camera or args.protocol_out else None
    progress(_("sync: reading the sound of {a} and {b} …", a=args.a, b=args.b))
    result = sync_files(args.a, args.b)
    if plan is not None:
        data = retimed(plan.protocol.data, plan.reference, plan.index, result)
        problems = format_problems(data)
        if problems:
            raise InvalidInput(_("{path}: not written: the re-timed protocol would not be valid: {problem}.",
                                 path=plan.out, problem=problems[0]))
        save_protocol(data, plan.out)
        camera = data["videos"][plan.index]
        measured = "" if result.drift_measured else (
            " (" + _("drift not measured: too little shared sound; A's rate kept") + ")")
        progress(_("sync: wrote {path}: camera \"{camera}\" offset {offset} s, drift {drift} ppm{measured}; {protocol} is "
                   "unchanged", path=plan.out, camera=camera["id"], offset=number(camera["offset"], 3, fixed=True),
                   drift=number(camera.get("drift_ppm", 0.0), 2, fixed=True, signed=True), measured=measured,
                   protocol=args.protocol))
    emit(args, result.to_json(), lambda: _table(result.to_json()))
    return EXIT_OK


@dataclass(frozen=True)
class _Plan:
    protocol: Protocol
    reference: CameraVideo  # A's camera: its offset and drift are taken as right
    index: int  # B's camera in videos
    out: Path


def _plan(args: argparse.Namespace) -> _Plan:
    """The cameras of A and B in the protocol and where the copy goes, checked before any sound is read."""
    if not args.protocol or not args.protocol_out:
        missing = "--protocol" if not args.protocol else "--protocol-out"
        raise UnreadableInput(_("sync: re-timing a camera needs both --protocol and --protocol-out ({option} is "
                                "missing).", option=missing))
    proto = load_protocol(args.protocol)
    problems = format_problems(proto.data)
    if problems:
        raise InvalidInput(_("{path}: {problem} — run `stopframe validate` for every problem.", path=args.protocol,
                             problem=problems[0]))
    cameras = proto.videos
    if not cameras:
        raise InvalidInput(_("{path}: the protocol names no cameras (videos), so there is none to re-time.",
                             path=args.protocol))
    files = [resolve_camera_path(proto, c).resolve() for c in cameras]
    names = ", ".join(f"\"{c.id}\" ({c.path})" for c in cameras)

    def of_file(video: str) -> int:
        wanted = Path(video).resolve()
        if wanted not in files:
            raise InvalidInput(_("{path}: none of the cameras of {protocol} ({cameras}).", path=video,
                                 protocol=args.protocol, cameras=names))
        return files.index(wanted)

    a, b = of_file(args.a), of_file(args.b)
    if args.camera is not None:
        ids = [c.id for c in cameras]
        if args.camera not in ids:
            raise InvalidInput(_("{path}: no camera \"{camera}\" in videos (cameras: {cameras}).", path=args.protocol,
                                 camera=args.camera[:40], cameras=names))
        if ids.index(args.camera) != b:
            raise InvalidInput(_("{path}: not the video of camera \"{camera}\" ({file}); B must be the camera to "
                                 "re-time.", path=args.b, camera=args.camera, file=cameras[ids.index(args.camera)].path))
    if a == b:
        raise InvalidInput(_("{path}: A and B are the same camera's video; B must be another camera.", path=args.a))
    out, source = Path(args.protocol_out), Path(args.protocol)
    if out.resolve() == source.resolve():
        raise UnreadableInput(_("{path}: sync never overwrites the protocol it reads; choose another --protocol-out.",
                                path=out))
    if out.resolve().parent != source.resolve().parent:
        raise UnreadableInput(_("{path}: the re-timed protocol must sit in {protocol}'s folder ({folder}), since its "
                                "cameras' files are named relative to it.", path=out, protocol=source,
                                folder=source.resolve().parent))
    return _Plan(proto, cameras[a], b, out)


def retimed(data: dict[str, Any], reference: CameraVideo, index: int, result: SyncResult) -> dict[str, Any]:
    """A copy of the protocol with `videos[index]` (B) on the protocol's clock through the reference camera A.

    A's time = A.offset + t × rate_A (t: protocol time) and `result` gives B's time of a moment on A's clock, so
    B's time = b_time(A.offset) + t × rate_A / (1 + drift·10⁻⁶): B's offset and rate. `video`, where it names B,
    takes B's new offset (the validator keeps the two on one clock)."""
    on_a = Clock.protocol_to(reference.offset, reference.drift_ppm)
    offset = result.b_time(on_a.video_time(0.0))
    drift = (on_a.rate / (1.0 + result.drift_ppm * 1e-6) - 1.0) * 1e6
    out = copy.deepcopy(data)
    camera = out["videos"][index]
    camera["offset"] = round(offset, 6)
    if round(drift, 3):
        camera["drift_ppm"] = round(drift, 3)
    else:
        camera.pop("drift_ppm", None)
    video = out.get("video")
    if isinstance(video, dict) and isinstance(video.get("path"), str) and same_file(video["path"]) == same_file(camera["path"]):
        video["offset_s"] = camera["offset"]
    return out


def _table(data: dict[str, Any]) -> str:
    offset, ppm = data["offset_s"], data["drift_ppm"]
    rate = number(1 + ppm * 1e-6, 6, fixed=True)
    where = (_("{b} starts at {offset} s on {a}'s clock ({shift} s after it), confidence {confidence}") if offset >= 0
             else _("{b} starts at {offset} s on {a}'s clock ({shift} s before it), confidence {confidence}"))
    lines = [where.format(b=data["b"], a=data["a"], offset=number(offset, 3, fixed=True),
                          shift=number(abs(offset), 3, fixed=True), confidence=number(data["confidence"], 2, fixed=True))]
    if data["drift_measured"]:
        drift = (_("drift: {ppm} ppm (B's clock runs {millionths} millionths slower than A's; {ms} ms an hour)") if ppm >= 0
                 else _("drift: {ppm} ppm (B's clock runs {millionths} millionths faster than A's; {ms} ms an hour)"))
        lines.append(drift.format(ppm=number(ppm, 1, fixed=True, signed=True), millionths=number(abs(ppm), 1, fixed=True),
                                  ms=number(abs(ppm) * 3.6, 1, fixed=True)))
    else:
        lines.append(_("drift: not measured (it takes about two minutes of shared sound, here {overlap} s); taken as 0",
                       overlap=number(data["overlap_s"], 0)))
    lines.append(_("{overlap} s of shared sound; {used} of {heard} stretches with sound agree",
                   overlap=number(data["overlap_s"], 1, fixed=True), used=data["windows"]["used"],
                   heard=data["windows"]["heard"]))
    lines.append(_("a moment at t s on B is at {offset} + t × {rate} s on A", offset=number(offset, 3, fixed=True),
                   rate=rate))
    # A's offset less offset_s
    less = ("− " if offset >= 0 else "+ ") + _("{value} s", value=number(abs(offset), 3, fixed=True))
    if data["drift_measured"]:
        lines.append(_("in a protocol's videos: B's offset = (A's offset {less}) / {rate}, B's drift_ppm = {drift} for an "
                       "A without drift (--protocol P --protocol-out P2 writes them)", less=less, rate=rate,
                       drift=number(-ppm / (1 + ppm * 1e-6), 2, fixed=True, signed=True)))
        middle = data["overlap_from_s"] + data["overlap_s"] / 2
        steady = offset + middle * ppm * 1e-6  # A time − B time at the middle of the overlap
        spread = abs(ppm) * 1e-6 * data["overlap_s"] / 2 * 1000
        lines.append(_("for a reader that holds no drift: B's offset = A's offset − {steady} s, exact at {middle} s on B "
                       "and within {spread} ms over the shared sound", steady=number(steady, 3, fixed=True),
                       middle=number(middle, 0), spread=number(spread, 1, fixed=True)))
    else:
        lines.append(_("in a protocol's videos: B's offset = A's offset {less} (--protocol P --protocol-out P2 writes it)",
                       less=less))
    return "\n".join(lines)
