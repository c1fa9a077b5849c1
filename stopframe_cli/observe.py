"""`stopframe observe VIDEO --seats SEATS`: per-seat hand intervals as stopframe-observations/1 (spec §6).

cv2 and mediapipe are imported only when the command runs, so `stopframe validate` stays light.
"""

from __future__ import annotations

import argparse

from contract.errors import InvalidInput
from pipeline.audit import every_tenth
from stopframe_cli.output import add_output_options, emit, progress


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("observe", help="per-seat hand intervals seen on a game video")
    parser.add_argument("video", metavar="VIDEO", help="the game video")
    parser.add_argument("--seats", required=True, metavar="SEATS", help="the seat map (stopframe-seats/1)")
    parser.add_argument("--start", type=float, default=None, metavar="S", help="first second to look at")
    parser.add_argument("--end", type=float, default=None, metavar="S", help="second to stop at")
    parser.add_argument("--model", choices=("full", "lite"), default="full", help="hand model (lite is faster)")
    parser.add_argument("--no-gating", action="store_true", help="run the detector on every frame of every seat")
    add_output_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.observe import observe
    from vision.seats import load_seat_map

    if args.start is not None and args.end is not None and args.end <= args.start:
        raise InvalidInput(f"--end {args.end} must come after --start {args.start}.")
    seat_map = load_seat_map(args.seats)
    windows = None
    if args.start is not None or args.end is not None:
        windows = [(args.start or 0.0, args.end if args.end is not None else float("inf"))]
    result = observe(args.video, seat_map, windows, model=args.model, gating=not args.no_gating,
                     progress=every_tenth(progress, "observe:"))
    data = result.to_json()
    emit(args, data, lambda: _table(data))
    return 0


def _table(data: dict) -> str:
    lines = [f"{data['video']}: {len(data['hands'])} hand intervals ({data['fps']:.3f} fps)",
             f"{'seat':>4}  {'on':>9}  {'off':>9}  {'frames':>13}  {'pose':<13}  conf"]
    for h in data["hands"]:
        lines.append(f"{h['seat']:>4}  {h['on']:>9.3f}  {h['off']:>9.3f}  {h['on_frame']:>6}-{h['off_frame']:<6}  "
                     f"{h['pose']:<13}  {h['confidence']:.2f}")
    for u in data.get("x_unseen", []):
        lines.append(f"seat {u['seat']} not seen {u['start']:.2f}-{u['end']:.2f} s: {u['why']}")
    return "\n".join(lines)
