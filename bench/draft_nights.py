"""The nights' shots `stopframe draft --nights` reads from the video of a paper sheet, and what reading them costs.

    python3 bench/draft_nights.py [--stem sample_videos/game/sample_game] [--out DIR]

The sheet is the game's protocol as paper holds it: no vote events, and its shootings without their time or the
shots (the seat killed kept, as the judge writes it). `stopframe draft` runs on it twice, with the game's seat map,
in child processes measured with RUSAGE_CHILDREN (every process and its start-up): without `--nights` and with
it. For each night: the target and the shots the draft proposes (`x_draft_shooting`) against the protocol's, and
how far the proposed count time lies from the protocol's. Prints one markdown table. Outputs go to --out
(default bench/out/draft_nights, gitignored).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STEM = ROOT / "sample_videos" / "game" / "sample_game"
VOTES = ("vote", "revote", "lift_vote")


def sheet_of(stem: Path, out: Path) -> Path:
    """The game's protocol as its paper sheet holds it: no votes, the shootings untimed and without their shots."""
    data = json.loads(Path(f"{stem}.protocol.json").read_text(encoding="utf-8"))
    data["events"] = [{k: v for k, v in e.items() if k not in ("t", "shots")} if e.get("type") == "shooting" else e
                      for e in data["events"] if e.get("type") not in VOTES]
    path = out / "sheet.protocol.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def draft(stem: Path, sheet: Path, out: Path, nights: bool) -> tuple[dict, float]:
    """The DRAFT and the CPU seconds of the whole command."""
    target = out / ("nights" if nights else "days") / "draft.protocol.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "stopframe_cli.main", "draft", f"{stem}.mp4", "--protocol", str(sheet),
                    "--seats", f"{stem}.seats.json", "--out", str(target), *(["--nights"] if nights else [])],
                   check=True, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return json.loads(target.read_text(encoding="utf-8")), cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stem", type=Path, default=STEM, help="a game: STEM.mp4, .protocol.json, .seats.json")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "draft_nights")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    sheet = sheet_of(args.stem, args.out)
    _days, days_cpu = draft(args.stem, sheet, args.out, nights=False)
    drafted, nights_cpu = draft(args.stem, sheet, args.out, nights=True)
    played = {e["night"]: e for e in json.loads(Path(f"{args.stem}.protocol.json").read_text(encoding="utf-8"))["events"]
              if e.get("type") == "shooting"}
    print("| night | protocol: target, shots | drafted: target, shots | right | count time off by (s) |")
    print("|---|---|---|---|---|")
    right = 0
    for e in (e for e in drafted["events"] if e.get("type") == "shooting"):
        truth, seen = played[e["night"]], e.get("x_draft_shooting") or {}
        ok = seen.get("target") == truth.get("target") and seen.get("shots") == truth.get("shots")
        right += ok
        off = abs(seen["t"] - truth["t"]) if "t" in seen and "t" in truth else None
        print(f"| {e['night']} | {truth.get('target')}, {truth.get('shots')} | {seen.get('target')}, "
              f"{seen.get('shots')} | {'yes' if ok else 'no'} | {'—' if off is None else f'{off:.2f}'} |")
    print(f"\n{right} of {len(played)} nights right; `stopframe draft` {days_cpu:.1f} CPU s without --nights, "
          f"{nights_cpu:.1f} CPU s with it; unread: {drafted.get('x_draft_nights_unread', 'none')}")


if __name__ == "__main__":
    main()
