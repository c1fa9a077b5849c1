"""Fuzz the protocol reader and validator: the property tests of tests/game/test_protocol_fuzz.py under the
`fuzz` hypothesis profile (10 000 examples per property), then examples per second.

    python3 bench/fuzz_protocol.py            # all properties
    python3 bench/fuzz_protocol.py -k round   # a pytest -k filter

Prints each property's passing-example count (from hypothesis' statistics) and the overall rate.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    env = {**os.environ, "HYPOTHESIS_PROFILE": "fuzz"}
    cmd = [sys.executable, "-m", "pytest", "tests/game/test_protocol_fuzz.py", "-q", "-p", "no:cacheprovider",
           "--hypothesis-show-statistics", *argv]
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    examples = 0
    for name, block in re.findall(r"(tests/game/test_protocol_fuzz\.py::\S+):\n(.*?)(?=\n\S|\Z)", done.stdout, re.S):
        counts = [int(n) for n in re.findall(r"(\d+) passing examples", block)]
        examples += sum(counts)
        print(f"{name.split('::')[1]}: {sum(counts)} examples")
    status = "passed" if done.returncode == 0 else f"FAILED (pytest exit {done.returncode})"
    print(f"fuzz {status}: {examples} examples in {elapsed:.1f} s = {examples / elapsed:.0f} examples/s "
          f"(pytest start-up included)")
    if done.returncode != 0:
        print(done.stdout[-6000:], done.stderr[-2000:], sep="\n")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
