"""`stopframe draft`: a partial protocol's votes drafted from the video (spec §6).

    stopframe draft VIDEO --protocol PARTIAL [--seats S] [--rules ID] --out DRAFT [--observations OBS] [--model full|lite]
                    [--nights] [--seats-out S2] [--observations-out OBS2]

The judge types what only a person knows (players, nominations, phases, nights); the draft adds every vote:
its times from the judge's voice, its voters and count from the hands in time (pipeline.draft). The DRAFT
validates, holds everything of the PARTIAL unchanged, and is never written over an input file. The seat map the
draft found and the hands it read can be kept (--seats-out, --observations-out), so that `stopframe audit` of the
finished protocol neither finds the seats nor reads the hands again.
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import Any

from contract.errors import EXIT_OK, UnreadableInput
from contract.i18n import _
from contract.jsonio import dumps, write_atomic
from review.game.profiles import PROFILES
from review.game.timeline import label_words
from stopframe_cli.output import beside, progress


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "draft",
        help=_("draft a partial protocol's votes (times, voters, counts) from the video"),
        description=_("Fill a partial protocol's votes from the video: the times from the judge's voice, the voters "
                      "and counts from the hands placed in time, revotes where the counts tie. Each proposed value's "
                      "score is in x_draft_score."),
    )
    p.add_argument("video", metavar="VIDEO", help=_("the game video"))
    p.add_argument("--protocol", required=True, metavar="PARTIAL",
                   help=_("the judge's partial protocol (*.protocol.json)"))
    p.add_argument("--seats", metavar="SEATS", help=_("the camera's seat map (default: found from the video)"))
    p.add_argument("--rules", metavar="ID",
                   help=_("rule profile ({profiles}; default: the protocol's)", profiles=", ".join(PROFILES)))
    p.add_argument("--out", required=True, metavar="DRAFT", help=_("where to write the drafted protocol (atomically)"))
    p.add_argument("--observations", metavar="OBS", help=_("saved observations of this video (skip looking at it)"))
    p.add_argument("--model", choices=("full", "lite"), default="full", help=_("hand landmark model (default full)"))
    p.add_argument("--seats-out", metavar="S2",
                   help=_("where to write the seat map the draft finds (never over an existing file), for "
                          "`stopframe audit --seats`"))
    p.add_argument("--observations-out", metavar="OBS2",
                   help=_("where to write the hands the draft reads, for `stopframe audit --observations`"))
    p.add_argument("--nights", action="store_true",
                   help=_("also read the nights' shots from the video, in the nights the music marks (slower; the "
                          "seat map needs raise zones; with --observations, their night reading is used)"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pipeline.draft import draft_game

    if args.rules is not None and args.rules not in PROFILES:
        raise UnreadableInput(_("--rules {rules}: not a rule profile; known: {known}.", rules=args.rules[:30],
                                 known=", ".join(PROFILES)))
    out = Path(args.out).resolve()
    for name, given in (("VIDEO", args.video), ("--protocol", args.protocol), ("--seats", args.seats),
                        ("--observations", args.observations)):
        if given is not None and Path(given).resolve() == out:
            raise UnreadableInput(_("--out {out} is the {name} file {given}: the draft never overwrites an input; "
                                    "choose another --out file.", out=args.out, name=name, given=given))
    _check_kept(args)
    made = draft_game(video=args.video, protocol=args.protocol, seats=args.seats, rules=args.rules,
                      observations=args.observations, model=args.model, progress=progress,
                      look_at_nights=args.nights)
    data = dict(made.draft.data)
    if made.draft.untimed:
        data["x_draft_untimed"] = made.draft.untimed
    write_atomic(args.out, dumps(data))
    if made.draft.untimed:
        progress(_("draft: written to {path}; untimed (no times heard, not guessed): {votes}", path=args.out,
                   votes="; ".join(map(label_words, made.draft.untimed))))
    else:
        progress(_("draft: written to {path}", path=args.out))
    if args.seats_out and made.found_map is not None:
        write_atomic(args.seats_out, dumps(made.found_map.to_json()))
        progress(_("draft: the seat map it found is written to {path}", path=args.seats_out))
    if args.observations_out and made.seen is not None:
        write_atomic(args.observations_out, dumps(made.seen.to_json()))
        progress(_("draft: the hands it read are written to {path}", path=args.observations_out))
    for said in made.found_seats.words() if made.found_seats is not None else ():
        progress(_("draft: {said}", said=said))
    if made.draft.in_order:
        progress(_("draft: no night music and no time in the protocol tell the days apart, so the votes heard "
                   "were taken in the game's order; if the video begins on a later day, give that day's voting "
                   "phase its time on the video (\"t\") and draft again."))
    progress(_("draft: once the sheet is checked, audit it: {command}", command=_audit_command(args)))
    return EXIT_OK


def _audit_command(args: argparse.Namespace) -> str:
    """The audit of the drafted protocol with the seat map and the hands the draft used, as a line to paste; where
    the found map was not kept, it is found again first, into a file named after the draft."""
    seats = args.seats or args.seats_out
    hands = (args.observations or args.observations_out) if seats else None  # read with the map that goes with them
    find = []
    if not seats:
        seats = str(beside(args.out, ".seats.json"))
        find = ["stopframe", "seats", args.video, "--protocol", args.out, "--out", seats]
    audit = ["stopframe", "audit", args.video, "--protocol", args.out, "--seats", seats,
             *(["--observations", hands] if hands else [])]
    return " && ".join(shlex.join(map(str, line)) for line in (find, audit) if line)


def _check_kept(args: argparse.Namespace) -> None:
    """Before the long work: --seats-out and --observations-out ask for what this draft makes. A seat map is never
    written over (a judge's calibrated map is worth more than a found one); the hands of an earlier draft may be."""
    if args.seats_out and args.seats:
        raise UnreadableInput(_("--seats-out: the seat map is given with --seats, so the draft finds none to write."))
    if args.observations_out and args.observations:
        raise UnreadableInput(_("--observations-out: the hands are read from --observations, so the draft reads "
                                "none to write."))
    if args.seats_out and Path(args.seats_out).exists():
        raise UnreadableInput(_("{path}: a file is already there; give it with --seats to draft with that seat "
                                "map, or give --seats-out another file name.", path=args.seats_out))
