"""`stopframe align`: propose a protocol's missing vote times from the judge's voice (spec §6).

    stopframe align VIDEO --protocol P [--json] [--out FILE] [--stop-at SECONDS]

The audio is read and analysed by `vision` (imported inside the handler, so `stopframe validate` never
loads an audio or video library); the matching of cues to the protocol is `review.audit.align`.
The original protocol is never written: `--out` naming it is refused.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from contract import i18n
from contract.clock import Clock
from contract.errors import EXIT_OK, InvalidInput, UnreadableInput
from contract.i18n import _
from stopframe_cli.output import add_output_options, emit, progress


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "align",
        help=_("propose the missing vote times (t, cutoff, announced) from the judge's voice"),
        description=_("Find the judge's «Стоп»/«Спасибо», calls and counts on the audio track and fill the "
                      "protocol's missing vote times; each proposed time's score goes into x_cue_scores."),
    )
    p.add_argument("video", nargs="?", metavar="VIDEO", help=_("the game video (default: the protocol's video.path)"))
    p.add_argument("--protocol", required=True, metavar="PROTOCOL", help=_("the game's protocol (*.protocol.json)"))
    p.add_argument(
        "--stop-at", type=float, metavar="SECONDS",
        help=_("video time of one closing word («Стоп»/«Спасибо») to match across the game"),
    )
    add_output_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from review.audit.align import VOTE_TYPES, VoteCue, align_protocol, votes_on_video
    from review.game.protocol import format_problems, load_protocol, resolve_video_path

    protocol = load_protocol(args.protocol)
    problems = format_problems(protocol.data)
    if problems:
        first = problems[0]
        raise InvalidInput(
            _("{path}: the protocol's format is broken at {place}: {message} ({n} problem(s); run `stopframe validate`).",
              path=args.protocol, place=first.path, message=first.message, n=len(problems))
        )
    if args.out and Path(args.out).resolve() == Path(args.protocol).resolve():
        raise UnreadableInput(_("{path}: align never overwrites the original protocol; choose another --out file.", path=args.out))
    video = Path(args.video) if args.video else resolve_video_path(protocol)

    from vision.audio import read_audio
    from vision.cues import features, listen

    progress(_("align: reading the audio of {video} …", video=video))
    track = read_audio(video)
    progress(_("align: {seconds} s of audio; looking for the judge's cues …", seconds=f"{track.duration:.0f}"))
    feats = features(track)
    events = protocol.events
    on_video = Clock.of_protocol(protocol.data)
    hints = [on_video.video_time(e["cutoff"]) for e in events if e.get("type") in VOTE_TYPES and isinstance(e.get("cutoff"), int | float)]
    expected = votes_on_video(protocol.data, track.start, track.end)  # a clip's protocol holds the whole game
    heard = listen(feats, marked=args.stop_at, hints=hints, expected=expected, weak=True)
    sure = sum(v.confident for v in heard.votes)
    progress(
        _("align: {words} closing word(s) heard ({sure} after a usual call; {source} template), {nights} night(s) of music.",
          words=len(heard.votes), sure=sure, source=heard.source, nights=len(heard.nights))
    )
    cues = [
        VoteCue(
            cutoff=v.cutoff.t, cutoff_score=v.cutoff.score,
            t=v.call.t if v.call else None, t_score=v.call.score if v.call else 0.0,
            announced=v.announced.t if v.announced else None, announced_score=v.announced.score if v.announced else 0.0,
        )
        for v in heard.votes
    ]
    result = align_protocol(protocol.data, cues, [(n.start, n.end) for n in heard.nights])

    def table() -> str:
        clock = result.clock
        lines = [
            _("clock: video = {offset} s + {rate} × protocol time ({anchors} anchor(s), {outliers} outlier(s): {which})",
              offset=i18n.number(clock.offset, 3, fixed=True, signed=True), rate=i18n.number(clock.rate, 6, fixed=True),
              anchors=result.anchors, outliers=len(result.outliers), which=", ".join(result.outliers) or _("none")),
            _("{heard} vote cue(s) heard, {unmatched} vote(s) without a cue, {unused} cue(s) unused", heard=len(heard.votes),
              unmatched=len(result.unmatched), unused=result.unused_cues),
        ]
        for i, e in enumerate(result.data.get("events", [])):
            if e.get("type") not in VOTE_TYPES:
                continue
            who = (_("candidate {candidate}", candidate=e.get("candidate")) if e.get("type") == "vote"
                   else _("lift {seats}", seats=e.get("candidates")))
            cells = []
            for name in ("t", "cutoff", "announced"):
                v = e.get(name)
                score = e["x_cue_scores"][name] if name in result.proposed.get(i, {}) else None
                shown = "—" if v is None else i18n.number(v, 3, fixed=True)
                cells.append(f"{name} {shown}" + (" " + _("(proposed, score {score})", score=i18n.number(score, 2, fixed=True))
                                                  if score is not None else ""))
            lines.append(f"events[{i}] " + _("day {day} round {round}", day=e.get("day"), round=e.get("round", 1))
                         + f" {who}: " + "; ".join(cells))
        return "\n".join(lines)

    emit(args, result.data, table)
    return EXIT_OK
