"""`stopframe align`: propose a protocol's missing vote times from the judge's voice (spec §6).

    stopframe align VIDEO --protocol P [--json] [--out FILE] [--stop-at SECONDS]

The listening and the matching are the pipeline's (pipeline.align: vision hears the judge's cues, review matches
them to the protocol; imported inside the handler, so `stopframe validate` never loads an audio library).
The original protocol is never written: `--out` naming it is refused.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from contract import i18n
from contract.errors import EXIT_OK, UnreadableInput
from contract.i18n import _, term
from stopframe_cli.output import add_output_options, emit, progress
from stopframe_cli.parsing import number


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "align",
        help=_("propose the missing vote times (the candidate's call, «Стоп», the count) from the judge's voice"),
        description=_("Find the judge's «Стоп»/«Спасибо», calls and counts on the audio track and fill the "
                      "protocol's missing vote times; each proposed time's score goes into x_cue_scores."),
    )
    p.add_argument("video", nargs="?", metavar="VIDEO", help=_("the game video (default: the protocol's video.path)"))
    p.add_argument("--protocol", required=True, metavar="PROTOCOL", help=_("the game's protocol (*.protocol.json)"))
    p.add_argument(
        "--stop-at", type=number, metavar="SECONDS",
        help=_("video time of one closing word («Стоп»/«Спасибо») to match across the game"),
    )
    add_output_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pipeline.align import VOTE_TYPES, align_game, checked_protocol

    protocol = checked_protocol(args.protocol)
    if args.out and Path(args.out).resolve() == Path(args.protocol).resolve():
        raise UnreadableInput(_("{path}: align never overwrites the original protocol; choose another --out file.", path=args.out))
    made = align_game(protocol, args.video, stop_at=args.stop_at, progress=progress)
    result = made.result

    def table() -> str:
        clock = {"offset": i18n.number(result.clock.offset, 3, fixed=True, signed=True),
                 "rate": i18n.number(result.clock.rate, 6, fixed=True), "anchors": result.anchors}
        lines = [
            _("clock: video = {offset} s + {rate} × protocol time ({anchors} anchor(s), {outliers} outlier(s): {which})",
              outliers=len(result.outliers), which=", ".join(result.outliers), **clock)
            if result.outliers else
            _("clock: video = {offset} s + {rate} × protocol time ({anchors} anchor(s), no outlier)", **clock),
            _("{heard} vote cue(s) heard, {unmatched} vote(s) without a cue, {unused} cue(s) unused", heard=made.heard,
              unmatched=len(result.unmatched), unused=result.unused_cues),
        ]
        for i, e in enumerate(result.data.get("events", [])):
            if e.get("type") not in VOTE_TYPES:
                continue
            who = (_("candidate {candidate}", candidate=e.get("candidate")) if e.get("type") == "vote"
                   else _("lift {seats}", seats=", ".join(map(str, e.get("candidates") or []))))
            cells = []
            for name in ("t", "cutoff", "announced"):
                v = e.get(name)
                score = e["x_cue_scores"][name] if name in result.proposed.get(i, {}) else None
                shown = "—" if v is None else i18n.number(v, 3, fixed=True)
                cells.append(f"{term('vote_mark', name)} {shown}" + (" " + _("(proposed, score {score})", score=i18n.number(score, 2, fixed=True))
                                                  if score is not None else ""))
            lines.append(f"events[{i}] " + _("day {day} round {round}", day=e.get("day"), round=e.get("round", 1))
                         + f" {who}: " + "; ".join(cells))
        return "\n".join(lines)

    emit(args, result.data, table)
    return EXIT_OK
