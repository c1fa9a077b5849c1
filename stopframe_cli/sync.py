"""`stopframe sync A B`: where video B starts on video A's clock, from their sound tracks.

    stopframe sync A.mp4 B.mp4 [--json] [--out FILE]

The computation is `vision.sync` (imported inside the handler, so the other commands never load PyAV); the
result is `stopframe-sync/1` (docs/formats.md). When the sound cannot tell, the command says why in one
sentence and exits 1 (2 for a file without a readable sound track) — it never prints a guess.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from contract.errors import EXIT_OK, UnreadableInput
from stopframe_cli.output import add_output_options, emit, progress


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "sync",
        help="where video B starts on video A's clock, from the two sound tracks (offset, confidence, drift)",
        description="Find where B's time 0 falls on A's clock by matching the sound both cameras heard, and how "
        "fast B's clock runs against A's; exit 1 when the sound cannot tell.",
    )
    p.add_argument("a", metavar="A", help="the video whose clock is the reference")
    p.add_argument("b", metavar="B", help="the video to place on A's clock")
    add_output_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.sync import sync_files

    if args.out:
        for video in (args.a, args.b):
            if Path(args.out).resolve() == Path(video).resolve():
                raise UnreadableInput(f"{args.out}: sync never overwrites a video; choose another --out file.")
    progress(f"sync: reading the sound of {args.a} and {args.b} …")
    result = sync_files(args.a, args.b)
    emit(args, result.to_json(), lambda: _table(result.to_json()))
    return EXIT_OK


def _table(data: dict[str, Any]) -> str:
    offset, ppm = data["offset_s"], data["drift_ppm"]
    where = "after" if offset >= 0 else "before"
    lines = [
        f"{data['b']} starts at {offset:.3f} s on {data['a']}'s clock ({abs(offset):.3f} s {where} it), "
        f"confidence {data['confidence']:.2f}",
    ]
    if data["drift_measured"]:
        faster = "slower" if ppm >= 0 else "faster"
        lines.append(f"drift: {ppm:+.1f} ppm (B's clock runs {abs(ppm):.1f} millionths {faster} than A's; "
                     f"{abs(ppm) * 3.6:.1f} ms an hour)")
    else:
        lines.append(f"drift: not measured (it takes about two minutes of shared sound, here "
                     f"{data['overlap_s']:.0f} s); taken as 0")
    used, heard = data["windows"]["used"], data["windows"]["heard"]
    lines.append(f"{data['overlap_s']:.1f} s of shared sound; {used} of {heard} stretches with sound agree")
    lines.append(f"a moment at t s on B is at {offset:.3f} + t × {1 + ppm * 1e-6:.6f} s on A")
    middle = data["overlap_from_s"] + data["overlap_s"] / 2
    steady = offset + middle * ppm * 1e-6  # A time − B time at the middle of the overlap
    spread = abs(ppm) * 1e-6 * data["overlap_s"] / 2 * 1000
    lines.append(f"in a protocol's videos (one offset per camera): B's offset = A's offset − {steady:.3f} s"
                 + (f", exact at {middle:.0f} s on B and within {spread:.1f} ms over the shared sound"
                    if data["drift_measured"] else ""))
    return "\n".join(lines)
