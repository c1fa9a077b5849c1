"""`python3 -m sample_videos`: regenerate the bundled sample game, its clips and the stress set."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .build import build_all

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
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
