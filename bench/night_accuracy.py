"""Accuracy of the night reading against the night clips' truth: raised hands, shots, targets, shown numbers.

For every night clip (NAME.mp4 + .protocol.json + .seats.json + .truth.json whose truth has `raised`)
in the given folders — by default sample_videos/clips — it looks at the shootings and checks the
protocol times (review.night.night_windows, the count from the truth's `x_cues`), runs
vision.night.observe_night, and measures:
- raised-hand recall: truth raises with a detected raise of the same seat overlapping them (extra
  raises: detected ones that match neither a truth raise nor a truth shown number of that seat);
- firing time error (frames): detected shot vs the truth's `fire`, where both exist;
- target seat accuracy: the seat the detected shot aims at (same count) vs the truth shot's seat;
- number reading accuracy: the number read for a truth `shown_numbers` entry (same seat, within 3 s);
- the night audit's findings against the truth's night `expected_findings` (identities).
Run by hand, once (minutes per clip on CPU): python3 bench/night_accuracy.py [FOLDER ...] [--model lite]
(`sample_videos/game` measures the sample game's three nights.)
Figures go to the README; the JSON to bench/out/night_accuracy.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from review.findings import NIGHT_KINDS, identity_of  # noqa: E402
from review.night import NightSeen, audit_nights, night_windows, observe_spans, shooting_counts  # noqa: E402
from review.profiles import get_profile  # noqa: E402
from vision.night import observe_night  # noqa: E402
from vision.seats import load_seat_map  # noqa: E402

CLIPS = ROOT / "sample_videos" / "clips"
OUT = ROOT / "bench" / "out" / "night_accuracy.json"
FPS = 25.0


def night_clips(folders: list[Path]) -> list[Path]:
    """Videos whose truth lists raised hands (the nights)."""
    found = []
    for folder in folders:
        for video in sorted(folder.glob("*.mp4")):
            truth = video.with_suffix(".truth.json")
            if truth.exists() and json.loads(truth.read_text(encoding="utf-8")).get("raised"):
                found.append(video)
    return found


def measure(video: Path, model: str) -> dict:
    """Vision on the clip's shootings and checks (the spans the protocol times), scored against its truth."""
    stem = video.with_suffix("")
    protocol = json.loads(stem.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    truth = json.loads(stem.with_suffix(".truth.json").read_text(encoding="utf-8"))
    windows = night_windows(protocol, cues=truth.get("x_cues") or [])
    shootings, checks = observe_spans(windows)
    start = time.perf_counter()
    night = observe_night(video, load_seat_map(stem.with_suffix(".seats.json")), shootings, checks, model=model)
    result = score(video, night.seen, protocol, truth)
    result.update(seconds=round(time.perf_counter() - start, 1), frames=night.stats.get("frames"))
    return result


def score(video: Path, seen: NightSeen, protocol: dict, truth: dict) -> dict:
    """What vision saw at night against the clip's truth (see the module's docstring for each measure)."""
    cues = truth.get("x_cues") or []
    windows = night_windows(protocol, cues=cues)
    profile = get_profile(protocol["rules"])

    counts = shooting_counts(protocol, profile, cues)
    calls = {w.night: (w, counts[w.night]) for w in windows if w.kind == "shooting"}

    raised_found, fire_errors, targets_ok, targets_n, per_raise = 0, [], 0, 0, []
    for r in truth["raised"]:
        mine = [x for x in seen.raised if x.seat == r["seat"] and x.up < r["down"] and x.down > r["up"]]
        fires = [f for x in mine for f in x.shots]
        entry = {"seat": r["seat"], "truth_fire": r["fire"], "found": bool(mine), "fire": None}
        raised_found += bool(mine)
        if r["fire"] is None:  # a hand raised without a shot (out of turn): found or not, nothing to time
            entry["fired_on_video"] = bool(fires)
            per_raise.append(entry)
            continue
        entry["fire"] = min(fires, key=lambda f: abs(f - r["fire"])) if fires else None
        night_calls = next((c for w, c in calls.values() if w.start <= r["fire"] <= w.end), None)
        if night_calls is not None:
            want = night_calls.target_of(r["fire"])[0]
            got = night_calls.target_of(entry["fire"])[0] if entry["fire"] is not None else None
            entry.update(truth_target=want, target=got)
            targets_n += 1
            targets_ok += got == want
        if entry["fire"] is not None:
            fire_errors.append(abs(entry["fire"] - r["fire"]) * FPS)
        per_raise.append(entry)

    numbers_ok, per_number = 0, []
    for s in truth.get("shown_numbers") or []:
        mine = [x for x in seen.shown if x.seat == s["seat"] and abs(x.t - s["t"]) <= 3.0]
        got = max(mine, key=lambda x: x.confidence).number if mine else None
        numbers_ok += got == s["number"]
        per_number.append({"seat": s["seat"], "truth": s["number"], "read": got})

    obs = {"format": "stopframe-observations/1", "fps": FPS, "hands": [], **seen.to_json_fields()}
    report = audit_nights(protocol, obs, profile=profile, cues=cues)
    found_ids = {f.identity for f in report.findings}
    want_ids = {identity_of(f) for f in truth.get("expected_findings") or [] if f.get("kind") in NIGHT_KINDS}
    return {
        "clip": video.name, "raised": len(truth["raised"]), "raised_found": raised_found,
        "fire_error_frames": [round(e, 1) for e in fire_errors],
        "targets": targets_n, "targets_ok": targets_ok,
        "numbers": len(truth.get("shown_numbers") or []), "numbers_ok": numbers_ok,
        "extra_raises": sum(1 for x in seen.raised if not any(
            x.seat == r["seat"] and x.up < r["down"] and x.down > r["up"] for r in truth["raised"]) and not any(
            x.seat == s["seat"] and x.up <= s["t"] + 1.0 and x.down > s["t"] for s in truth.get("shown_numbers") or [])),
        "findings_expected": sorted(map(str, want_ids)), "findings_found": sorted(map(str, found_ids)),
        "false_findings": len(found_ids - want_ids), "missed_findings": len(want_ids - found_ids),
        "per_raise": per_raise, "per_number": per_number, "rows": report.rows,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, default=[CLIPS])
    parser.add_argument("--model", choices=("full", "lite"), default="full")
    args = parser.parse_args(argv)
    clips = night_clips(args.folders)
    if not clips:
        print(f"no night clips (a truth with `raised`) in {', '.join(map(str, args.folders))}: "
              "render them with python3 -m sample_videos", file=sys.stderr)
        return 1
    results = []
    for video in clips:
        print(f"{video.name} …", file=sys.stderr, flush=True)
        results.append(measure(video, args.model))
    errors = [e for r in results for e in r["fire_error_frames"]]
    timed = sum(1 for r in results for x in r["per_raise"] if x["truth_fire"] is not None)
    total = {
        "raised_recall": f"{sum(r['raised_found'] for r in results)}/{sum(r['raised'] for r in results)}",
        "fire_error_frames_median": statistics.median(errors) if errors else None,
        "fire_error_frames_max": max(errors) if errors else None,
        "fires_timed": f"{len(errors)}/{timed}",
        "target_accuracy": f"{sum(r['targets_ok'] for r in results)}/{sum(r['targets'] for r in results)}",
        "number_accuracy": f"{sum(r['numbers_ok'] for r in results)}/{sum(r['numbers'] for r in results)}",
        "extra_raises": sum(r["extra_raises"] for r in results),
        "night_findings_expected_found": f"{sum(len(r['findings_expected']) - r['missed_findings'] for r in results)}"
                                         f"/{sum(len(r['findings_expected']) for r in results)}",
        "false_night_findings": sum(r["false_findings"] for r in results),
        "seconds": round(sum(r["seconds"] for r in results), 1),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"total": total, "clips": results}, ensure_ascii=False, indent=1), encoding="utf-8")
    for r in results:
        print(f"{r['clip']:<28} raised {r['raised_found']}/{r['raised']}  fire err {r['fire_error_frames']}  "
              f"targets {r['targets_ok']}/{r['targets']}  numbers {r['numbers_ok']}/{r['numbers']}  "
              f"extra raises {r['extra_raises']}  {r['seconds']} s")
        print(f"{'':<28} findings expected {r['findings_expected']} found {r['findings_found']}")
    print("total", json.dumps(total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
