"""`stopframe seats VIDEO [--protocol P] [--out SEATS] [--json]`: a seat map found from the video itself.

Prints each seat's confidence and, for every seat it could not place, why; `--out` writes the
`stopframe-seats/1` map (with the finder's evidence in `x_found`), `--json` prints it. An existing file is
never replaced unless `--replace` says so: a judge's map is worth more than a found one.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from contract import i18n
from contract.errors import StopframeError, UnreadableInput
from contract.i18n import _, term
from contract.jsonio import format_of
from contract.outputs import same_kind
from pipeline.observer import every_tenth
from stopframe_cli.output import emit, progress
from stopframe_cli.parsing import whole_number


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("seats", help=_("find the seat map from the video (where hands rest in the votes)"),
                                   description=_("Find where each seat's hand rests in the votes and save it as the "
                                                 "camera's seat map (--out), which observe, audit and draft need. "
                                                 "Check it in the app before auditing."))
    parser.add_argument("video", metavar="VIDEO", help=_("the game video"))
    parser.add_argument("--protocol", metavar="P", help=_("the game's protocol: its vote times say when to look"))
    parser.add_argument("--flip", action="store_true",
                        help=_("number the seats counter-clockwise (seat 1 on the judge's right)"))
    parser.add_argument("--first-seat-at", type=whole_number, default=1, metavar="N", choices=range(1, 11),
                        help=_("the seat found as N becomes seat 1 (the others follow round the table)"))
    parser.add_argument("--json", action="store_true", help=_("print the seat map as JSON to stdout"))
    parser.add_argument("--out", metavar="SEATS", help=_("write the seat map to SEATS (stopframe-seats/1)"))
    parser.add_argument("--replace", action="store_true", help=_("let --out replace an existing file"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pipeline.seat_finding import find_game_seats
    from vision.seat_finder import renumbered

    if args.out and Path(args.out).exists() and not args.replace:
        _refuse_existing(args.out)
    if args.out and args.replace:
        same_kind(args.out, "stopframe-seats/1", "a seat map", format_of)
        _not_another_cameras(args.out, args.video)
    found = find_game_seats(args.video, args.protocol, progress=every_tenth(progress, _("seats: looked at")))
    if args.flip or args.first_seat_at != 1:
        found = renumbered(found, flip=args.flip, move_seat1=args.first_seat_at - 1)
    data = found.to_json()
    emit(args, data, lambda: table(data))
    return 0



def _refuse_existing(out: str) -> None:
    """A file already at --out is a wrong argument (exit 2), told as what it is: a seat map, which --replace may
    replace, or a file of another kind (notes, a protocol), which nothing replaces."""
    if str(format_of(out)).startswith("stopframe-seats/"):
        raise UnreadableInput(_("{path}: a seat map is already there; add --replace to overwrite it, or give another file.",
                                path=out))
    raise UnreadableInput(_("{path}: a file of another kind is there, not a seat map; Stopframe never replaces it: give "
                            "another file name.", path=out))


def _not_another_cameras(out: str, video: str) -> None:
    """--replace never overwrites the map of another camera or video (a map drawn on another picture size); a
    map that cannot be read at all may be replaced."""
    from contract.seats import load_seat_map
    from pipeline.seat_fit import check_replaced_map_fits

    try:
        old = load_seat_map(out)
    except StopframeError:
        return
    check_replaced_map_fits(old, out, video)


def table(data: dict) -> str:
    """The found map as a judge reads it: each seat's confidence, then every seat not found and why."""
    found = data["x_found"]
    how = (_("from the hands in the protocol's votes") if found["mode"] == "votes"
           else _("from the players and the table over the whole video (no vote times)") if "table" in found
           else _("from the hands seen over the whole video (no vote times)"))
    lines = [_("Seat map found {how} in {seconds} s, seats numbered {direction} from the judge's left", how=how,
               seconds=i18n.number(found["seconds"], 1, fixed=True), direction=term("direction", found["direction"]))
             + (_(", checked against the protocol's voters") if found["checked_by_voters"] else "")]
    lines.append(_("table outline found: it sets the ring's middle, the line the chairs stand on and the zones' outer edge")
                 if "table" in found else
                 _("no table outline found (no table top of one colour round the hands): the ring of resting hands "
                   "stands in for it; check the seat numbers on the picture"))
    if found["mode"] != "votes" and "table" in found:
        lines.append(_("players only: the ten chairs are spread evenly round the table and fitted to the players and "
                       "hands seen; each zone reaches from the rim to two hands in, as no vote has shown yet where "
                       "this table's hands land. Check the zones on the picture, and find the map again with "
                       "--protocol once votes have times"))
    for seat, confidence in found["confidence"].items():
        lines.append(_("seat {seat}: not found, its zone is a guess", seat=format(seat, ">2"))
                     if seat in found["unfound"] else
                     _("seat {seat}: found, confidence {confidence}", seat=format(seat, ">2"),
                       confidence=i18n.number(confidence, 2, fixed=True)))
    lines += list(found["unfound"].values())
    return "\n".join(lines)
