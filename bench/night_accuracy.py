"""Accuracy of the night reading against the night clips' truth: raised hands, shots, targets, shown numbers.

For every night clip (NAME.mp4 + .protocol.json + .seats.json + .truth.json whose truth has `raised`)
in the given folders — by default sample_videos/clips — it looks at the shootings and checks the
protocol times (review.audit.night.night_windows, without count times, as the CLI does), runs
vision.night.observe_night (which hears the judge's count), and measures:
- the count: numbers heard, and their onset error (ms) against the truth's `shoot_count` cues;
- raised-hand recall: truth raises with a detected raise of the same seat overlapping them (extra
  raises: detected ones that match neither a truth raise nor a truth shown number of that seat);
- firing time error (frames): detected shot vs the truth's `fire`, where both exist;
- target seat accuracy: the seat the detected shot aims at on the heard count vs the truth shot's on the true count;
- number reading accuracy: the number read for a truth `shown_numbers` entry (same seat, within 3 s);
- the night audit's findings against the truth's night `expected_findings` (identities), on the heard
  count and (`assumed_*`) on the old one-a-second assumption.
`--pace P` (repeatable) adds each clip re-voiced with the judge counting at P s a number (`revoiced`):
the same picture, a re-mixed audio track, the protocol's shooting as the hands now read on that count.
Run by hand, once (minutes per clip on CPU):
  python3 bench/night_accuracy.py [FOLDER ...] [--model lite] [--pace 0.75 --pace 1.4] [--only night1]
(`sample_videos/game` measures the sample game's three nights.)
Figures go to the README; the JSON to bench/out/night_accuracy.json.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from contract.night import NightSeen  # noqa: E402
from contract.seats import load_seat_map  # noqa: E402
from review.audit.findings import NIGHT_KINDS, identity_of  # noqa: E402
from review.audit.night import audit_nights, night_windows, observe_spans, shooting_counts  # noqa: E402
from review.game.profiles import get_profile  # noqa: E402
from vision.night import observe_night  # noqa: E402

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
    """Vision on the clip's shootings and checks as the CLI looks at them, scored against its truth.

    The spans come from the protocol alone (review.audit.night.night_windows, no count times: what
    `stopframe audit --nights` does), and observe_night hears the count on the audio and widens them.
    """
    stem = video.with_suffix("")
    protocol = json.loads(stem.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    truth = json.loads(stem.with_suffix(".truth.json").read_text(encoding="utf-8"))
    shootings, checks = observe_spans(night_windows(protocol))
    start = time.perf_counter()
    night = observe_night(video, load_seat_map(stem.with_suffix(".seats.json")), shootings, checks, model=model)
    result = score(video, night.seen, protocol, truth)
    result.update(seconds=round(time.perf_counter() - start, 1), frames=night.stats.get("frames"))
    return result


def _findings(protocol: dict, seen: NightSeen, truth: dict, cues: list) -> dict:
    """The night audit's findings against the truth's night `expected_findings` (identities)."""
    obs = {"format": "stopframe-observations/1", "fps": FPS, "hands": [], **seen.to_json_fields()}
    report = audit_nights(protocol, obs, profile=get_profile(protocol["rules"]), cues=cues)
    found_ids = {f.identity for f in report.findings}
    want_ids = {identity_of(f) for f in truth.get("expected_findings") or [] if f.get("kind") in NIGHT_KINDS}
    return {"findings_expected": sorted(map(str, want_ids)), "findings_found": sorted(map(str, found_ids)),
            "false_findings": len(found_ids - want_ids), "missed_findings": len(want_ids - found_ids),
            "rows": report.rows}


def score(video: Path, seen: NightSeen, protocol: dict, truth: dict) -> dict:
    """What vision saw and heard at night against the clip's truth (see the module's docstring for each measure).

    Targets: the truth's fire on the truth's count (its `x_cues`) against the detected fire on the count
    heard (`seen.words`; the one-a-second default where nothing was heard). The audit runs twice: on
    the heard count (the product) and on the one-a-second assumption (`assumed_*`: the product before).
    """
    cues = truth.get("x_cues") or []
    profile = get_profile(protocol["rules"])
    windows = night_windows(protocol, cues=cues)
    counts = shooting_counts(protocol, profile, cues)
    heard = shooting_counts(protocol, profile, [{"kind": "count_word", "t": t} for t in seen.words])
    calls = {w.night: (w, counts[w.night], heard[w.night]) for w in windows if w.kind == "shooting"}

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
        night_calls = next(((c, h) for w, c, h in calls.values() if w.start <= r["fire"] <= w.end), None)
        if night_calls is not None:
            want = night_calls[0].target_of(r["fire"])[0]
            got = night_calls[1].target_of(entry["fire"])[0] if entry["fire"] is not None else None
            entry.update(truth_target=want, target=got)
            targets_n += 1
            targets_ok += got == want
        if entry["fire"] is not None:
            fire_errors.append(abs(entry["fire"] - r["fire"]) * FPS)
        per_raise.append(entry)

    count_errors, counts_heard, counts_n = [], 0, 0
    for _, truth_calls, heard_calls in calls.values():
        counts_n += len(truth_calls.times)
        if heard_calls.source != "cues":
            continue
        for t, h, ok in zip(truth_calls.times, heard_calls.times, heard_calls.heard or [True] * len(heard_calls.times),
                            strict=False):
            counts_heard += ok
            if ok:
                count_errors.append(abs(h - t) * 1000)

    numbers_ok, per_number = 0, []
    for s in truth.get("shown_numbers") or []:
        mine = [x for x in seen.shown if x.seat == s["seat"] and abs(x.t - s["t"]) <= 3.0]
        got = max(mine, key=lambda x: x.confidence).number if mine else None
        numbers_ok += got == s["number"]
        per_number.append({"seat": s["seat"], "truth": s["number"], "read": got})

    product = _findings(protocol, seen, truth, [])
    assumed = _findings(protocol, NightSeen(seen.raised, seen.shown, seen.windows, seen.blind), truth, [])
    return {
        "clip": video.name, "raised": len(truth["raised"]), "raised_found": raised_found,
        "fire_error_frames": [round(e, 1) for e in fire_errors],
        "targets": targets_n, "targets_ok": targets_ok,
        "count_numbers": counts_n, "count_heard": counts_heard, "count_error_ms": [round(e) for e in count_errors],
        "numbers": len(truth.get("shown_numbers") or []), "numbers_ok": numbers_ok,
        "extra_raises": sum(1 for x in seen.raised if not any(
            x.seat == r["seat"] and x.up < r["down"] and x.down > r["up"] for r in truth["raised"]) and not any(
            x.seat == s["seat"] and x.up <= s["t"] + 1.0 and x.down > s["t"] for s in truth.get("shown_numbers") or [])),
        **product,
        "assumed_findings_found": assumed["findings_found"], "assumed_false_findings": assumed["false_findings"],
        "assumed_missed_findings": assumed["missed_findings"],
        "per_raise": per_raise, "per_number": per_number,
    }


# ---------------------------------------------------------------- the same nights, the judge at another pace


def revoiced(video: Path, pace: float, out_dir: Path) -> Path:
    """The night clip with its judge re-voiced counting at `pace` s a number (±5 %), the picture unchanged.

    The renderer's judge counts one number a second; here the clip's audio is mixed again
    (sample_videos.voice, the same phrases; those after the count later by as much as the count grew)
    with the shooting count re-timed, and
    muxed with the clip's own video packets. The truth's `x_cues` get the new count; the timed
    shooting in the protocol records what the hands now do on that count (review.audit.night on the truth's
    fires with the new times as `x_count_times`), so a reading on the right count finds no
    `shot_mismatch` and one on the wrong count does. Files: OUT_DIR/NAME_paceNNN.{mp4,protocol,seats,truth}.json (NNN: hundredths of a second).
    """
    from contract.night import Raised
    from sample_videos import voice
    from sample_videos.build import join
    from vision.video import open_video

    stem = video.with_suffix("")
    protocol = json.loads(stem.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    truth = json.loads(stem.with_suffix(".truth.json").read_text(encoding="utf-8"))
    cues = truth.get("x_cues") or []
    counted = [c for c in cues if c["kind"] == "shoot_count"]
    if not counted:
        raise SystemExit(f"{video.name}: the truth has no shoot_count cues to re-time")
    times = voice.count_times(counted[0]["t"], len(counted), pace, jitter=0.05, seed=int(round(pace * 100)))
    late = max(0.0, times[-1] - counted[-1]["t"])  # what the judge says after the count comes that much later
    new_cues = [{**c, "t": round(c["t"] + late, 3)} if c["t"] > counted[-1]["t"] else c
                for c in cues if c["kind"] != "shoot_count"]
    new_cues += [{**c, "t": t} for c, t in zip(counted, times, strict=True)]
    new_cues.sort(key=lambda c: c["t"])
    with open_video(video) as v:
        duration = v.meta.duration
    audio = voice.mix(duration, [voice.Cue(c["kind"], c["t"], c["text"]) for c in new_cues], [(0.0, duration)],
                      seed=int(round(pace * 1000)))
    out_dir.mkdir(parents=True, exist_ok=True)
    name = f"{stem.name}_pace{round(pace * 100):03d}"
    out = out_dir / f"{name}.mp4"
    join([(video, 1)], out, audio)
    timed = next(e for e in protocol["events"] if e.get("type") == "shooting" and "t" in e)
    told = copy.deepcopy(protocol)
    told_ev = next(e for e in told["events"] if e.get("type") == "shooting" and "t" in e)
    told_ev["x_count_times"] = times
    hands = {"format": "stopframe-observations/1", "fps": FPS, "hands": [],
             "x_raised": [Raised(r["seat"], r["up"], r["down"], r["fingers"], r["fire"]).to_json() for r in truth["raised"]],
             "x_shown_numbers": []}
    row = next(r for r in audit_nights(told, hands).rows if r["kind"] == "shooting")
    timed["target"] = row["video_target"]
    timed["shots"] = {s: t for s, t in row["video_shots"].items() if isinstance(t, int)}
    (out_dir / f"{name}.protocol.json").write_text(json.dumps(protocol, ensure_ascii=False, indent=1), encoding="utf-8")
    (out_dir / f"{name}.truth.json").write_text(json.dumps({**truth, "x_cues": new_cues}, ensure_ascii=False, indent=1),
                                                 encoding="utf-8")
    (out_dir / f"{name}.seats.json").write_bytes(stem.with_suffix(".seats.json").read_bytes())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, default=[CLIPS])
    parser.add_argument("--model", choices=("full", "lite"), default="full")
    parser.add_argument("--pace", type=float, action="append", default=[],
                        help="also the same nights with the judge re-voiced at this pace (s a number; repeatable)")
    parser.add_argument("--only", action="append", default=[], help="just the clips whose name starts with this")
    args = parser.parse_args(argv)
    clips = [c for c in night_clips(args.folders) if not args.only or any(c.name.startswith(o) for o in args.only)]
    clips += [revoiced(c, p, OUT.parent / "night_pace") for p in args.pace for c in list(clips)]
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
        "count_heard": f"{sum(r['count_heard'] for r in results)}/{sum(r['count_numbers'] for r in results)}",
        "count_error_ms_median": statistics.median(ms) if (ms := [e for r in results for e in r["count_error_ms"]]) else None,
        "count_error_ms_max": max(ms) if ms else None,
        "assumed_false_night_findings": sum(r["assumed_false_findings"] for r in results),
        "assumed_missed_night_findings": sum(r["assumed_missed_findings"] for r in results),
        "seconds": round(sum(r["seconds"] for r in results), 1),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"total": total, "clips": results}, ensure_ascii=False, indent=1), encoding="utf-8")
    for r in results:
        print(f"{r['clip']:<28} raised {r['raised_found']}/{r['raised']}  fire err {r['fire_error_frames']}  "
              f"targets {r['targets_ok']}/{r['targets']}  numbers {r['numbers_ok']}/{r['numbers']}  "
              f"extra raises {r['extra_raises']}  {r['seconds']} s")
        print(f"{'':<28} count heard {r['count_heard']}/{r['count_numbers']} err ms {r['count_error_ms']}")
        print(f"{'':<28} findings expected {r['findings_expected']} found {r['findings_found']} "
              f"(one a second assumed: {r['assumed_findings_found']})")
    print("total", json.dumps(total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
