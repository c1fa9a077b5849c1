"""What the votes-only audit costs against the decode of the frames it needs, side by side in one run.

    python3 bench/audit_cost.py [--game STEM ...] [--busy] [--variants default gating=off tight_look=off ...]
                                [--model full|lite] [--repeat N]

For each game (default: the bundled sample game; `--busy` adds the busy table of sample_videos/busy.py,
rendered once into bench/out/busy) it measures, each in a fresh child process:
- the yardstick: PyAV decoding to BGR arrays of the frames of every vote round, each round from its first
  candidate's `t` - 1 s to its last count + 1 s (overlapping rounds merged), CPU seconds of all its threads;
- the votes-only audit (pipeline.audit.audit_game, what `stopframe audit` runs) under each variant: CPU
  seconds of the audit and its vision worker processes (RUSAGE_CHILDREN: every descendant waited for), wall
  seconds, the peak resident memory of the largest of those processes, detector looks, and the findings
  against the truth's expected day findings.
A variant is `default`, `gating=off` (change gating off) or `RULE=on|off` for a vision.options.VisionOptions
switch, several joined by commas; or `command`: the whole `stopframe audit VIDEO --protocol P --seats S --out F`
as the judge runs it (the product's observer, its worker processes, every start-up), with where its CPU goes:
the interpreter's start-up, the imports, the main process's own work and the vision workers'. It prints one markdown table: audit CPU / decode CPU, CPU per vote window.
`--repeat N` measures the yardstick and every audit N times, in turns, and reports the medians with their ranges:
on this shared 2-core machine one decode's CPU time varies by some 15 % from run to run.
Outputs (the audit reports) go to bench/out/audit_cost/.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import fields, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from contract.jsonio import read_json  # noqa: E402
from review.game.timeline import vote_rounds, vote_windows  # noqa: E402

GAME = ROOT / "sample_videos" / "game" / "sample_game"
BUSY = ROOT / "bench" / "out" / "busy"
OUT = ROOT / "bench" / "out" / "audit_cost"
ROUND_MARGIN_S = 1.0  # the yardstick's margin either side of a round (the definition)


def round_spans(protocol: dict) -> list[tuple[float, float]]:
    """Every timed vote round from its first candidate's t - 1 s to its last count + 1 s, overlaps merged."""
    spans = sorted((max(0.0, r.start - ROUND_MARGIN_S), r.end + ROUND_MARGIN_S)
                   for r in vote_rounds(vote_windows(protocol)) if r.timed)
    merged: list[tuple[float, float]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def decode_child(video: str, spans: list[tuple[float, float]]) -> dict:
    """Plain PyAV: seek before each span, decode, and turn every frame inside it into a BGR array."""
    import av

    frames = 0
    with av.open(video) as container:
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        tb = float(stream.time_base)
        start = float(stream.start_time or 0) * tb
        for a, b in spans:
            container.seek(int((start + a) / tb), stream=stream, backward=True, any_frame=False)
            for frame in container.decode(stream):
                t = float(frame.pts) * tb - start
                if t >= b:
                    break
                if t >= a - 1e-6:
                    frame.to_ndarray(format="bgr24")
                    frames += 1
    return {"frames": frames}


def parse_variant(text: str) -> tuple[bool, dict[str, bool]]:
    """(change gating, VisionOptions switches) of a variant such as `gating=off,tight_look=off`."""
    gating, switches = True, {}
    names = {f.name for f in fields(_options()) if isinstance(getattr(_options(), f.name), bool)}  # the switches
    for part in filter(None, text.split(",")):
        if part in ("default", "command"):
            continue
        key, _, value = part.partition("=")
        if value not in ("on", "off") or (key != "gating" and key not in names):
            raise SystemExit(f"variant {text!r}: {part!r} is not gating=on|off or a VisionOptions switch=on|off")
        if key == "gating":
            gating = value == "on"
        else:
            switches[key] = value == "on"
    return gating, switches


def _options():
    from vision.options import DEFAULT

    return DEFAULT


def audit_child(stem: str, variant: str, model: str, out: str) -> dict:
    """The votes-only audit of one game under one variant (the CLI's own audit_game, observer with the variant)."""
    from pipeline.audit import audit_game
    from pipeline.observer import VisionObserver
    from vision.observe import observe

    gating, switches = parse_variant(variant)
    options = replace(_options(), **switches)
    stats: dict = {}

    class Observer(VisionObserver):
        def day(self, video, seat_map, windows, *, model, progress):
            seen = observe(video, seat_map, list(windows), model=model, progress=progress, gating=gating, options=options)
            stats.update(seen.stats)
            return seen

    report = audit_game(protocol=f"{stem}.protocol.json", seats=f"{stem}.seats.json", video=f"{stem}.mp4",
                        model=model, observer=Observer())
    Path(out).write_text(json.dumps(report.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")
    return {"stats": stats}


def command_child(stem: str, out: str) -> dict:
    """`stopframe audit` in this process, its CPU split: the imports, the main process's own work (reading the
    files, the audit, the windows it watches itself), and its worker processes (each its own start-up, model load,
    decode and looks)."""
    def own() -> float:
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime

    started = own()
    from stopframe_cli.main import main as stopframe

    imported = own()
    code = stopframe(["audit", f"{stem}.mp4", "--protocol", f"{stem}.protocol.json", "--seats", f"{stem}.seats.json",
                      "--out", out])
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"code": code, "stats": {}, "split": {"imports": imported - started,
                                                 "main": own() - imported,
                                                 "workers": workers.ru_utime + workers.ru_stime}}


def child(args: list[str]) -> dict:
    """Run this script as a child process doing one measured job; its CPU, wall and peak RSS with its result."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, "--child", *args], check=True, cwd=ROOT, capture_output=True,
                          text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    # the job's own peak (its process and its workers): RUSAGE_CHILDREN's here is the largest child so far
    result.update(cpu=(after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall=wall)
    return result


def median_of(results: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in results)


def spread(results: list[dict], key: str) -> str:
    """The median of `key` over repeated runs, with its range where there was more than one."""
    values = [r[key] for r in results]
    text = f"{statistics.median(values):.1f}"
    return text if len(values) == 1 else f"{text} ({min(values):.1f}–{max(values):.1f})"


def findings_score(report_path: Path, truth: dict) -> tuple[int, int, int]:
    """(expected day findings found, expected, findings reported that the truth does not list)."""
    from review.audit.findings import DAY_KINDS, identity_of

    expected = {identity_of(f) for f in truth.get("expected_findings", []) if f["kind"] in (*DAY_KINDS, "cannot_see")}
    found = {identity_of(f) for f in read_json(report_path)["findings"]}
    return len(expected & found), len(expected), len(found - expected)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", type=Path, action="append", help="STEM of a game (STEM.mp4/.protocol.json/.seats.json)")
    ap.add_argument("--busy", action="store_true", help="also the busy table (rendered into bench/out/busy once)")
    ap.add_argument("--variants", nargs="+", default=["default", "gating=off"])
    ap.add_argument("--model", choices=("full", "lite"), default="full")
    ap.add_argument("--repeat", type=int, default=1, metavar="N", help="measure each job N times, report medians")
    ap.add_argument("--child", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        job, *rest = args.child
        result = {"decode": lambda: decode_child(rest[0], json.loads(rest[1])), "command": lambda: command_child(*rest),
                  "audit": lambda: audit_child(*rest)}[job]()
        peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
        print(json.dumps({**result, "peak_mb": peak / 1024}))
        return 0
    for v in args.variants:
        parse_variant(v)
    stems = list(args.game or [GAME])
    if args.busy:
        stem = BUSY / "busy_game"
        if not Path(f"{stem}.seats.json").exists():
            subprocess.run([sys.executable, "-m", "sample_videos", "busy", "--out", str(BUSY)], check=True, cwd=ROOT)
        stems.append(stem)
    OUT.mkdir(parents=True, exist_ok=True)
    splits: list[tuple[str, list[dict]]] = []
    print("| game | variant | vote windows | decode frames | decode CPU (s) | audit CPU (s) | audit / decode "
          "| CPU s per window | wall (s) | peak RSS (MB) | detector runs | second looks | findings right / expected / false |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for stem in stems:
        protocol = read_json(f"{stem}.protocol.json")
        truth = read_json(f"{stem}.truth.json") if Path(f"{stem}.truth.json").exists() else {}
        windows = sum(len(r.windows) for r in vote_rounds(vote_windows(protocol)) if r.timed)
        outs = {v: OUT / f"{stem.name}.{v.replace(',', '+').replace('=', '-')}.audit.json" for v in args.variants}
        decodes: list[dict] = []
        runs: dict[str, list[dict]] = {v: [] for v in args.variants}
        for _ in range(max(1, args.repeat)):  # in turns, so that a slow spell of the machine touches every job
            decodes.append(child(["decode", f"{stem}.mp4", json.dumps(round_spans(protocol))]))
            for variant in args.variants:
                job = ["command", str(stem)] if variant == "command" else ["audit", str(stem), variant, args.model]
                runs[variant].append(child([*job, str(outs[variant])]))
        decode = median_of(decodes, "cpu")
        for variant in args.variants:
            run, st = median_of(runs[variant], "cpu"), runs[variant][-1]["stats"]
            right, expected, false = findings_score(outs[variant], truth)
            print(f"| {stem.name} | {variant} | {windows} | {decodes[0]['frames']} | {spread(decodes, 'cpu')} "
                  f"| {spread(runs[variant], 'cpu')} | {run / decode:.1f}x | {run / max(windows, 1):.2f} "
                  f"| {median_of(runs[variant], 'wall'):.1f} | {max(r['peak_mb'] for r in runs[variant]):.0f} "
                  f"| {st.get('detector_runs', '—')} | {st.get('second_looks', '—')} | {right} / {expected} / {false} |",
                  flush=True)
            if variant == "command":
                splits.append((stem.name, runs[variant]))
    for name, results in splits:
        print(f"\n`stopframe audit` on {name}, where its CPU goes (CPU s, median of {len(results)}): "
              + ", ".join(f"{part} {statistics.median(_part(r, part) for r in results):.1f}"
                          for part in ("start-up", "imports", "main process", "vision workers")))
    return 0


def _part(result: dict, part: str) -> float:
    """One share of a `command` run's CPU: the start-up (the interpreter and the first imports, which the command
    needs too) is all the parent counted less the rest."""
    split = result["split"]
    rest = split["imports"] + split["main"] + split["workers"]
    return {"start-up": result["cpu"] - rest, "imports": split["imports"], "main process": split["main"],
            "vision workers": split["workers"]}[part]


if __name__ == "__main__":
    sys.exit(main())
