"""Rules engine: replay speed and robustness on random legal games, per profile.

    python3 bench/engine_speed.py [--games 500] [--mutations 2000]

Generates `--games` legal games per profile with tests/gamegen.py, times `replay` (per game and per event)
and checks every game replays clean to its own eliminations and result; then replays `--mutations` games
with one to six random changes each (deleted, duplicated or swapped events, changed seats, numbers,
voters, causes, winners) and counts crashes (must be 0) and problems found.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "tests" / "game")]

from gamegen import generate  # noqa: E402
from test_engine_properties import _mutate  # noqa: E402

from review.game.engine import replay  # noqa: E402

PROFILES = ("rfm", "mafclub", "lvi2015", "showtime")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--mutations", type=int, default=2000)
    args = ap.parse_args()
    print(f"{'profile':<9} {'games':>6} {'events/game':>12} {'ms/game':>8} {'µs/event':>9} {'disagree':>9}")
    for pid in PROFILES:
        games = [generate(pid, random.Random(seed)) for seed in range(args.games)]
        times, disagree, events = [], 0, 0
        for game in games:
            start = time.perf_counter()
            r = replay(game.protocol)
            times.append(time.perf_counter() - start)
            events += len(game.protocol["events"])
            who = [(e["seat"], e["cause"]) for e in r.eliminations]
            if r.problems or who != [(e["seat"], e["cause"]) for e in game.eliminations] or r.result != game.result:
                disagree += 1
        total = sum(times)
        print(f"{pid:<9} {len(games):>6} {events / len(games):>12.1f} {1000 * statistics.mean(times):>8.2f} "
              f"{1e6 * total / events:>9.1f} {disagree:>9}")
    crashes, found = 0, 0
    for seed in range(args.mutations):
        rng = random.Random(seed)
        game = generate(PROFILES[seed % 4], rng)
        for _ in range(rng.randint(1, 6)):
            _mutate(game.protocol["events"], rng)
        try:
            found += bool(replay(game.protocol).problems)
        except Exception as exc:  # noqa: BLE001 - counting crashes is the point
            crashes += 1
            print(f"crash on seed {seed}: {exc!r}")
    print(f"mutated games: {args.mutations}, with problems found: {found} ({100 * found / max(1, args.mutations):.1f} %), "
          f"crashes: {crashes}")
    return 1 if crashes else 0


if __name__ == "__main__":
    raise SystemExit(main())
