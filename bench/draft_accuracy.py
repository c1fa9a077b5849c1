"""How right `stopframe draft` is, and what it costs beside `stopframe audit` on the same game.

    python3 bench/draft_accuracy.py [STEM ...] [--dir DIR] [--model full|lite] [--no-audit] [--saved-observations]
                                    [--untimed | --counted]

Each game (default: the bundled sample game; a STEM is PATH/NAME of NAME.mp4, NAME.protocol.json,
NAME.seats.json, NAME.truth.json; `--dir DIR` adds every such game of a folder, e.g.
/work/shared/validation/clips) has its vote events removed to make the judge's PARTIAL, which `stopframe draft`
fills (the seat map given; a clip's untimed votes, the game's history before it, stay in the PARTIAL), each in a child process whose CPU seconds are measured (RUSAGE_CHILDREN). Then
`stopframe audit` of the full protocol on the same video, for the CPU beside it (`--no-audit` skips it).
With `--untimed` the PARTIAL is a paper sheet's: its phases lose their times too, so the judge's voice is listened
to over the whole track. With `--counted` it is a paper sheet typed in whole: every event kept, the votes with the
judge's counts, no time on any but, where the video begins on a later day than the first, that day's voting time
(the one time the sheet page asks for then); only the cut-offs are scored (the counts are the judge's, and voters
are added only where the hands make them).

Per vote of the truth (matched by day, round and candidate):
- cutoff: within 40 ms of the truth's (the protocol's `cutoff`);
- count: among the acceptable counts: the truth's `x_votes[].count_ok` where it has them (validation clips);
  else the protocol's count, unless the truth expects a count_mismatch on that vote (our sample game's day 1,
  whose protocol counts are wrong on purpose): then the count the video shows, DAY1_SAMPLE for the sample
  game and the clips replaying its day 1, and the vote is left unscored on any other clip;
- voters: equal to the truth's in-time voters (`x_votes[].voters`, any of `ambiguous_voters` either way) where
  the truth lists them; the silent players the profile adds to the last candidate are left out of the compare.
A vote is right when every scored field is. Prints one markdown table and the fraction right.
Outputs go to bench/out/draft_accuracy/.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from review.audit.align import VOTE_TYPES  # noqa: E402
from review.game.protocol import validate  # noqa: E402

GAME = ROOT / "sample_videos" / "game" / "sample_game"
OUT = ROOT / "bench" / "out" / "draft_accuracy"
CUTOFF_S = 0.040
DAY1_SAMPLE = {6: 6, 3: 1, 8: 3}  # the sample game's day 1 as its video shows it (README: count_mismatch for 6, 8)


def child_cpu(argv: list[str], stdout: list[str] | None = None) -> tuple[int, float, float, str]:
    """(exit status, CPU seconds of the child and its descendants, wall seconds, stderr) of one command; its
    standard output appended to `stdout` where given."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT),
                                                                              "PATH": "/usr/bin:/bin:/usr/local/bin"})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if stdout is not None:
        stdout.append(done.stdout)
    return done.returncode, cpu, wall, done.stderr


def replays_day1(stem: Path) -> bool:
    """The sample game (stretched too: bench/draft_cost.py) and the clips that replay its day 1
    (sample_videos/README.md: same truth)."""
    return stem.name in ("sample_game", "day1_vote_findings", "two_cameras") or stem.name.startswith(("stress_", "sample_game_"))


def key(e: dict[str, Any]) -> tuple:
    return (e.get("day"), e.get("round", 1), e.get("candidate"), tuple(e.get("candidates") or ()))


def score_game(stem: Path, model: str, with_audit: bool, saved: bool, untimed: bool = False,
               counted: bool = False) -> dict[str, Any]:
    protocol = json.loads(stem.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    truth = json.loads(stem.with_suffix(".truth.json").read_text(encoding="utf-8"))
    folder = OUT / stem.name
    folder.mkdir(parents=True, exist_ok=True)
    # the votes the video shows (the timed ones) are taken out; a clip's untimed history stays as the judge wrote it
    shown = [e for e in protocol["events"] if e.get("type") in VOTE_TYPES and "cutoff" in e]
    partial = {**protocol, "events": [e for e in protocol["events"] if not any(e is v for v in shown)]}
    if untimed:  # a paper sheet: no time on any event, the phases' neither
        partial["events"] = [{k: v for k, v in e.items() if k not in ("t", "end")} for e in partial["events"]]
    if counted:  # a paper sheet typed in whole: the votes and their counts kept, no time on any event ...
        first = min((e["day"] for e in shown), default=1)
        partial["events"] = [{k: v for k, v in e.items() if k not in ("t", "end", "cutoff", "announced")
                              or (k == "t" and first > 1 and e.get("phase") == "voting" and e.get("number") == first)}
                             for e in protocol["events"]]  # ... but the voting time of the day a later video begins on
    partial_path = folder / f"{stem.name}.partial.json"
    partial_path.write_text(json.dumps(partial, ensure_ascii=False), encoding="utf-8")
    out = folder / f"{stem.name}.draft.json"
    out.unlink(missing_ok=True)
    video, seats = stem.with_suffix(".mp4"), stem.with_suffix(".seats.json")
    argv = [sys.executable, "-m", "stopframe_cli", "draft", str(video), "--protocol", str(partial_path),
            "--seats", str(seats), "--model", model, "--out", str(out)]
    observations = stem.with_suffix(".observations.json")
    if saved and observations.exists():
        argv += ["--observations", str(observations)]
    code, cpu, wall, err = child_cpu(argv)
    row: dict[str, Any] = {"game": stem.name, "exit": code, "draft_cpu": cpu, "draft_wall": wall}
    if code != 0 or not out.exists():
        row["error"] = err.strip().splitlines()[-1] if err.strip() else f"exit {code}"
        return row
    draft = json.loads(out.read_text(encoding="utf-8"))
    row["valid"] = validate(draft) == []
    drafted = {key(e): e for e in draft["events"] if e.get("type") in VOTE_TYPES}
    listed = {(v["day"], v["round"], v.get("candidate"), tuple(v.get("candidates") or ())): v
              for v in truth.get("x_votes", [])}
    mismatched = {(f.get("day"), f.get("round"), f.get("candidate")) for f in truth.get("expected_findings", [])
                  if f.get("kind") == "count_mismatch"}
    right = scored = 0
    lasts = {}  # (day, round) -> the key of its last candidate's vote
    for v in protocol["events"]:
        if v.get("type") == "vote":
            lasts[key(v)[:2]] = key(v)
    fields = {"cutoff": [0, 0], "count": [0, 0], "voters": [0, 0]}
    for e in shown:
        got = drafted.get(key(e))
        checks: dict[str, bool] = {}
        if isinstance(e.get("cutoff"), int | float):
            checks["cutoff"] = got is not None and isinstance(got.get("cutoff"), int | float) and \
                abs(got["cutoff"] - e["cutoff"]) <= CUTOFF_S
        x = listed.get(key(e))
        if x is not None:
            acceptable = set(x.get("count_ok") or [x["count"]])
        elif (e.get("day"), e.get("round", 1), e.get("candidate")) in mismatched:
            acceptable = {DAY1_SAMPLE[e["candidate"]]} if replays_day1(stem) and e.get("day") == 1 else set()
        else:
            acceptable = {e["count"]} if isinstance(e.get("count"), int) else set()
        if acceptable and not counted:
            checks["count"] = got is not None and got.get("count") in acceptable
        if x is not None and x.get("voters") is not None and not counted:
            sure, either = set(x["voters"]), set(x.get("ambiguous_voters") or [])
            seen = set(got.get("voters") or []) if got else set()
            silent = seen - sure - either if got and e.get("type") == "vote" else set()
            # the profile's silent votes are on the last candidate's voters: not hands, not compared
            seen = seen - silent if lasts.get(key(e)[:2]) == key(e) else seen
            checks["voters"] = got is not None and sure <= seen <= sure | either
        for name, ok in checks.items():
            fields[name][0] += ok
            fields[name][1] += 1
        if checks:
            scored += 1
            right += all(checks.values())
    row.update(votes=scored, right=right, fields=fields)
    if with_audit:
        a_argv = [sys.executable, "-m", "stopframe_cli", "audit", str(video), "--protocol",
                  str(stem.with_suffix(".protocol.json")), "--seats", str(seats), "--model", model, "--json"]
        report: list[str] = []
        a_code, a_cpu, a_wall, _ = child_cpu(a_argv, report)
        row.update(audit_cpu=a_cpu if a_code in (0, 1) else None, audit_wall=a_wall)
        if report and report[0].lstrip().startswith("{"):
            row["audit_findings"] = [{k: f.get(k) for k in ("kind", "seat", "day", "round", "candidate")}
                                     for f in json.loads(report[0]).get("findings", [])]
    return row


def games_in(folder: Path) -> list[Path]:
    return sorted(p.with_name(p.name.removesuffix(".protocol.json")) for p in folder.glob("*.protocol.json")
                  if all(p.with_name(p.name.replace(".protocol.json", s)).exists() for s in (".mp4", ".seats.json", ".truth.json")))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("stems", nargs="*", type=Path, help="games as PATH/NAME (default: the bundled sample game)")
    ap.add_argument("--dir", type=Path, help="also every game of this folder (e.g. /work/shared/validation/clips)")
    ap.add_argument("--limit", type=int, help="at most this many games of --dir")
    ap.add_argument("--model", choices=("full", "lite"), default="full")
    ap.add_argument("--no-audit", action="store_true", help="skip the audit's CPU beside the draft's")
    ap.add_argument("--saved-observations", action="store_true",
                    help="draft from NAME.observations.json where there is one (the logic alone; no CPU compare)")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--untimed", action="store_true", help="no time on any event of the PARTIAL (a paper sheet)")
    how.add_argument("--counted", action="store_true",
                     help="the PARTIAL is the whole protocol, counts and all, with no time (a sheet typed in whole)")
    args = ap.parse_args()
    stems = list(args.stems) or ([] if args.dir else [GAME])
    if args.dir:
        stems += games_in(args.dir)[: args.limit]
    rows = [score_game(s, args.model, not args.no_audit, args.saved_observations, args.untimed,
                       args.counted) for s in stems]
    print("| game | votes right | cutoff ≤40 ms | count acceptable | voters | validates | draft CPU s | audit CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    total = right = 0
    for r in rows:
        if "error" in r:
            print(f"| {r['game']} | error: {r['error']} | | | | | {r['draft_cpu']:.1f} | |")
            continue
        f = r["fields"]
        cells = [f"{f[n][0]}/{f[n][1]}" if f[n][1] else "-" for n in ("cutoff", "count", "voters")]
        audit_cpu = "-" if r.get("audit_cpu") is None else f"{r['audit_cpu']:.1f}"
        print(f"| {r['game']} | {r['right']}/{r['votes']} | {' | '.join(cells)} | {'yes' if r['valid'] else 'NO'} "
              f"| {r['draft_cpu']:.1f} | {audit_cpu} |")
        total += r["votes"]
        right += r["right"]
    print(f"\nvotes right: {right}/{total} ({right / total:.0%})" if total else "\nno vote scored")
    (OUT / "summary.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
