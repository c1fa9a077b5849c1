"""Audit accuracy on rendered games with ground truth: findings, vote counts, late-vs-in-time calls.

    python3 bench/audit_accuracy.py [DIR ...] [--rules ID] [--model full|lite] [--cache DIR] [--json FILE]

Every `NAME.truth.json` in the folders (default: the bundled sample game, the sample clips and, where
the renderer made them, the composites from real cut-outs under sample_videos/out/composite/) that has its
`NAME.mp4`, `NAME.protocol.json` and `NAME.seats.json` is audited twice: once on what vision sees
(MediaPipe on the vote windows only) and once on the truth's own hand intervals. Reported:
- precision and recall per finding kind against the truth's `expected_findings` (identities, spec §4);
- vote-count accuracy: the share of votes whose hands counted on video equal those of the truth;
- late-vs-in-time accuracy as a function of |hand onset − cutoff| (in frames), over every truth hand
  that lands within 0.5 s of a cutoff.
Under `--rules` other than a protocol's own, the expected findings are the audit of the truth's hands under
those rules (the truth lists its findings under the protocol's). Observations are cached per clip (`--cache`, default bench/out/audit_obs) so reruns skip vision.

`--composites` also writes the committed audit fixture's scenario (tests/fixtures/audit/day_vote: late,
early, lifted, double, open palm, silent seat, miscounts) as clips pasted from the real hand cut-outs in
../shared/assets/hands at several hand sizes, under bench/out/audit_composites/ (never committed); their
expected findings are the audit of their own truth hands under the protocol's rules.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from contract.errors import StopframeError  # noqa: E402
from contract.jsonio import read_json, write_json  # noqa: E402
from contract.observations import Observations as Seen  # noqa: E402
from contract.observations import observations_from_json  # noqa: E402
from review.audit.audit import audit, place  # noqa: E402
from review.audit.findings import NIGHT_KINDS, identity_of  # noqa: E402
from review.cases.training import seen_from_truth  # noqa: E402
from review.game.profiles import get_profile  # noqa: E402
from review.game.timeline import analysis_windows, vote_rounds, vote_windows  # noqa: E402

DEFAULT_DIRS = [ROOT / "sample_videos" / "game", ROOT / "sample_videos" / "clips", ROOT / "sample_videos" / "out" / "composite"]
FIXTURE = ROOT / "sample_videos" / "game" / "sample_game.observations.json"  # the app, tests and bench share it
BUCKETS = [(0, 1), (1, 2), (2, 4), (4, 8), (8, 13)]  # |onset − cutoff| in frames; 13 frames ≈ 0.5 s at 25 fps


def find_clips(dirs: list[Path]) -> list[Path]:
    """Truth files whose clip has everything an audit needs."""
    found = []
    for d in dirs:
        for truth in sorted(d.rglob("*.truth.json")) if d.exists() else []:
            stem = truth.name[: -len(".truth.json")]
            if all((truth.parent / f"{stem}{ext}").exists() for ext in (".mp4", ".protocol.json", ".seats.json")):
                found.append(truth)
    return found


def onset_errors(truth: Seen, seen: Seen, windows: list[tuple[float, float]]) -> list[int | None]:
    """Seen minus true onset in frames for every truth hand landing inside the windows looked at
    (None: no seen hand of that seat overlaps it)."""
    errors: list[int | None] = []
    for th in truth.hands:
        if not any(a <= th.on < b for a, b in windows):
            continue
        match = [h for h in seen.hands if h.seat == th.seat and h.on < th.off and h.off > th.on]
        errors.append(min((h.on_frame - th.on_frame for h in match), key=abs) if match else None)
    return errors


def observe_clip(stem: Path, protocol: dict[str, Any], cache: Path, model: str, fresh: bool) -> tuple[Seen, float, float]:
    """Vision on the clip's vote windows (cached): observations, seconds spent, seconds of video looked at."""
    cached = cache / f"{stem.name}.{model}.observations.json"
    windows = analysis_windows(vote_rounds(vote_windows(protocol)))
    span = sum(b - a for a, b in windows)
    if cached.exists() and not fresh:
        return observations_from_json(read_json(cached)), 0.0, span
    from contract.seats import load_seat_map
    from vision.observe import observe

    started = time.perf_counter()
    obs = observe(stem.with_suffix(".mp4"), load_seat_map(f"{stem}.seats.json"), windows, model=model)
    spent = time.perf_counter() - started
    data = obs.to_json()
    data["video"] = stem.with_suffix(".mp4").name
    write_json(cached, data)
    return observations_from_json(data), spent, span


COMPOSITE_SPRITES = {"thumb_up_fist": ["hg_like", "mps_hand_thumb_up", "mps_thumbs_up_png"], "open_palm": ["hg_palm"]}


def make_composites(out: Path, sizes: list[int]) -> list[Path]:
    """The day_vote fixture's hands pasted from real cut-outs, one clip per hand size (px)."""
    sys.path.insert(0, str(ROOT / "tests" / "fixtures" / "vision"))
    import composite  # the vision engineer's compositor (needs ../shared/assets)

    if not composite.assets_present():
        print("../shared/assets/hands is absent: no composites", file=sys.stderr)
        return []
    fixture = ROOT / "tests" / "fixtures" / "audit"
    protocol = read_json(fixture / "day_vote.protocol.json")
    obs = read_json(fixture / "day_vote.observations.json")
    out.mkdir(parents=True, exist_ok=True)
    made = []
    for px in sizes:
        stem = out / f"day_vote_real_{px}px"
        placements = []
        for n, h in enumerate(obs["hands"]):
            names = COMPOSITE_SPRITES.get(h["pose"], COMPOSITE_SPRITES["thumb_up_fist"])
            placements.append(composite.Placement(h["seat"], names[n % len(names)], h["on_frame"], h["off_frame"]))
        truth = composite.write_composite(stem.with_suffix(".mp4"), placements, n_frames=550, hand_px=float(px))
        data = dict(protocol, video={"path": stem.with_suffix(".mp4").name, "offset_s": 0.0})
        seat_map = composite.table_seat_map()
        ideal = audit(data, seen_from_truth(truth), visible_seats=set(seat_map.seats))
        truth["expected_findings"] = [
            {k: f.to_json()[k] for k in ("kind", "seat", "day", "round", "candidate")} for f in ideal.findings
        ]
        write_json(f"{stem}.truth.json", truth)
        write_json(f"{stem}.protocol.json", data)
        write_json(f"{stem}.seats.json", seat_map.to_json())
        made.append(stem.parent)
    return made


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="*", type=Path)
    ap.add_argument("--rules", help="audit under this profile instead of each protocol's")
    ap.add_argument("--model", choices=("full", "lite"), default="full")
    ap.add_argument("--cache", type=Path, default=ROOT / "bench" / "out" / "audit_obs")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument("--composites", type=int, nargs="*", metavar="PX",
                    help="also composite the fixture scenario from real cut-outs at these hand sizes (default 90 50)")
    ap.add_argument("--fresh", action="store_true", help="run vision again even where observations are cached")
    ap.add_argument("--refresh-fixture", action="store_true",
                    help="also write the sample game's observations, nights included, to its shared "
                         "sample_game.observations.json (the app's and the tests' input)")
    args = ap.parse_args()
    dirs = list(args.dirs or DEFAULT_DIRS)
    if args.composites is not None:
        dirs += make_composites(ROOT / "bench" / "out" / "audit_composites", args.composites or [90, 50])
    clips = find_clips(sorted(set(dirs)))
    if not clips:
        print("no clip with truth found (render the sample videos first)", file=sys.stderr)
        return 2
    args.cache.mkdir(parents=True, exist_ok=True)

    per_kind: dict[str, Counter] = defaultdict(Counter)  # kind -> tp/fp/fn
    per_clip = []
    votes_total = votes_right = 0
    timing: dict[tuple[int, int], Counter] = {b: Counter() for b in BUCKETS}
    for truth_path in clips:
        stem = truth_path.with_name(truth_path.name[: -len(".truth.json")])
        truth = read_json(truth_path)
        protocol = read_json(f"{stem}.protocol.json")
        profile = get_profile(args.rules or protocol["rules"])
        visible = set(int(k) for k in read_json(f"{stem}.seats.json")["seats"])
        try:
            seen, spent, span = observe_clip(stem, protocol, args.cache, args.model, args.fresh)
        except StopframeError as exc:  # a clip being re-rendered, an unreadable file: say so, go on
            print(f"{stem.name}: skipped: {exc}", file=sys.stderr)
            continue
        if args.refresh_fixture and stem.name == "sample_game" and args.model == "full":
            # the nights too (shootings, checks): the app and the night tests read them from the same file
            from contract.seats import load_seat_map
            from pipeline.audit import observe_nights
            from stopframe_app.game import video_fingerprint  # the app ignores observations of another video

            made = read_json(args.cache / f"{stem.name}.full.observations.json")
            nights = observe_nights(protocol, profile, stem.with_suffix(".mp4"), load_seat_map(f"{stem}.seats.json"),
                                    "full", lambda msg: print(msg, file=sys.stderr))
            write_json(FIXTURE, {**made, **nights, "video": "sample_game.mp4",
                                 "x_video_fingerprint": video_fingerprint(stem.with_suffix(".mp4"))})
        got = audit(protocol, seen, profile=profile, visible_seats=visible)
        ideal = audit(protocol, seen_from_truth(truth), profile=profile, visible_seats=visible)

        if args.rules and args.rules != protocol["rules"]:  # the truth lists its findings under the protocol's rules
            expected = {f.identity for f in ideal.findings if f.kind not in NIGHT_KINDS}
        else:
            expected = {identity_of(f) for f in truth.get("expected_findings", []) if f["kind"] not in NIGHT_KINDS}
        # (nights: night_accuracy.py)
        found = {f.identity for f in got.findings}
        for ident in expected | found:
            kind = ident[0]
            per_kind[kind]["tp" if ident in expected and ident in found else "fn" if ident in expected else "fp"] += 1
        for v_got, v_true in zip(got.votes, ideal.votes, strict=True):
            if v_true.video_voters is None:
                continue
            votes_total += 1
            votes_right += v_got.video_voters == v_true.video_voters

        # late vs in time against the cutoff, for truth hands landing near one
        windows = vote_windows(protocol)
        rounds = vote_rounds(windows)
        fps = seen.fps
        for rnd in rounds:
            if not rnd.timed:
                continue
            ws = sorted(rnd.windows, key=lambda w: w.t)
            for th in seen_from_truth(truth).hands:
                p_true = place(th, ws)
                if p_true is None:
                    continue
                frames_off = abs(th.on - ws[p_true.window].cutoff) * fps
                bucket = next((b for b in BUCKETS if b[0] <= frames_off < b[1]), None)
                if bucket is None:
                    continue
                match = [h for h in seen.hands if h.seat == th.seat and h.on < th.off and h.off > th.on]
                p_seen = place(min(match, key=lambda h: abs(h.on - th.on)), ws) if match else None
                late_true = p_true.status == "late"
                late_seen = p_seen is not None and p_seen.status == "late"
                timing[bucket]["n"] += 1
                timing[bucket]["right"] += (late_true == late_seen) and p_seen is not None
        missed = expected - found
        extra = found - expected
        per_clip.append({"clip": stem.name, "expected": len(expected), "found": len(found),
                         "missed": sorted(map(list, missed)), "false": sorted(map(list, extra)),
                         "vision_s": round(spent, 1), "video_s": round(span, 1),
                         "onsets": onset_errors(seen_from_truth(truth), seen, analysis_windows(rounds))})
        print(f"{stem.name}: expected {len(expected)}, found {len(found)}, missed {sorted(missed)}, false {sorted(extra)}",
              file=sys.stderr)

    print("\n| kind | expected | found right | false | precision | recall |\n|---|---|---|---|---|---|")
    for kind in sorted(per_kind):
        c = per_kind[kind]
        prec = c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else float("nan")
        rec = c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else float("nan")
        print(f"| {kind} | {c['tp'] + c['fn']} | {c['tp']} | {c['fp']} | {prec:.2f} | {rec:.2f} |")
    print(f"\nvote-count accuracy: {votes_right}/{votes_total} votes with exactly the truth's hands")
    print("\n| abs(onset - cutoff), frames | hands | late/in-time right |\n|---|---|---|")
    for (a, b), c in timing.items():
        share = f"{c['right'] / c['n']:.2f}" if c["n"] else "-"
        print(f"| {a}–{b} | {c['n']} | {share} |")
    print("\n| clip | expected | found | missed | false | vote hands | onsets within 2 frames | worst onset (frames) "
          "| vision s | video s looked at |\n|---|---|---|---|---|---|---|---|---|---|")
    for row in per_clip:
        errors = [e for e in row["onsets"] if e is not None]
        worst = max(errors, key=abs) if errors else "-"
        print(f"| {row['clip']} | {row['expected']} | {row['found']} | {len(row['missed'])} | {len(row['false'])} "
              f"| {len(row['onsets'])} ({row['onsets'].count(None)} not seen) | {sum(abs(e) <= 2 for e in errors)} "
              f"| {worst} | {row['vision_s']} | {row['video_s']} |")
    if args.json:
        write_json(args.json, {"per_kind": {k: dict(v) for k, v in per_kind.items()}, "votes": [votes_right, votes_total],
                               "timing": {f"{a}-{b}": dict(c) for (a, b), c in timing.items()}, "clips": per_clip})
    return 0


if __name__ == "__main__":
    sys.exit(main())
