"""`python3 -m sample_videos`: regenerate the bundled sample game, its clips and the stress set.

`python3 -m sample_videos varied --out DIR [--count N] [--first SEED]` renders varied vote clips
(sample_videos/varied.py) into DIR instead; they are rendered on demand and never committed.
`python3 -m sample_videos two-cameras` renders only the two-camera clip (clips/two_cameras.*).
`python3 -m sample_videos busy --out DIR` renders the busy table (sample_videos/busy.py) into DIR."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .build import build_all

HERE = Path(__file__).resolve().parent


def varied(argv: list[str]) -> int:
    """The `varied` command: N varied vote clips into a folder."""
    from .varied import build_varied

    parser = argparse.ArgumentParser(prog="python3 -m sample_videos varied",
                                     description="render varied day-vote clips (spec file sets) into a folder")
    parser.add_argument("--out", type=Path, required=True, help="folder that receives NAME.mp4/.protocol/.seats/.truth")
    parser.add_argument("--count", type=int, default=6, help="how many clips (default 6)")
    parser.add_argument("--first", type=int, default=1, help="the first clip's seed (default 1)")
    parser.add_argument("--size", default="1280x720", help="picture size WxH (default 1280x720)")
    parser.add_argument("--candidates", type=int, choices=[2, 3, 4],
                        help="candidates per vote (default: 2 or 3, drawn per clip; one is not voted on, rfm 4.4.11)")
    args = parser.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    start = time.time()

    def log(msg: str) -> None:
        print(f"[{time.time() - start:6.1f}s] {msg}", file=sys.stderr, flush=True)

    build_varied(args.out, args.count, args.first, (w, h), args.candidates, log)
    log("done")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["varied"]:
        return varied(argv[1:])
    if argv[:1] == ["busy"]:
        from .busy import build_busy

        parser = argparse.ArgumentParser(prog="python3 -m sample_videos busy",
                                         description="render the sample game with every player's hands always moving")
        parser.add_argument("--out", type=Path, default=HERE / "out" / "busy", help="folder (default sample_videos/out/busy)")
        build_busy(parser.parse_args(argv[1:]).out, lambda msg: print(msg, file=sys.stderr, flush=True))
        return 0
    if argv[:1] == ["two-cameras"]:
        from .build import build_two_cameras

        build_two_cameras(HERE, lambda msg: print(msg, file=sys.stderr, flush=True))
        return 0
    parser = argparse.ArgumentParser(prog="python3 -m sample_videos", description=__doc__)
    parser.add_argument("--out", type=Path, default=HERE,
                        help="folder that receives game/ and clips/ (default: the package itself)")
    parser.add_argument("--no-stress", action="store_true", help="skip the stress clips")
    parser.add_argument("--long-game", type=float, metavar="MINUTES",
                        help="also write a long benchmark game to sample_videos/out/long (git-ignored)")
    parser.add_argument("--composite", action="store_true",
                        help="render the scenarios with the real hand cut-outs of ../shared/assets/hands into "
                             "sample_videos/out/composite (tests and benchmarks only; never commit)")
    args = parser.parse_args(argv)
    start = time.time()

    def log(msg: str) -> None:
        print(f"[{time.time() - start:6.1f}s] {msg}", file=sys.stderr, flush=True)

    if args.composite:
        from .composite import build_composite

        return build_composite(HERE / "out" / "composite", log)
    out = args.out
    build_all(out, log, stress=not args.no_stress, long_minutes=args.long_game, long_dir=HERE / "out" / "long")
    log("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
