"""Audit accuracy from one camera against two, per seat: where does the second angle change a finding?

    python3 bench/two_cameras.py                      # the bundled two-camera clip, from its saved observations
    python3 bench/two_cameras.py --fresh              # look at the videos again (vision) instead
    python3 bench/two_cameras.py --refresh-fixture    # and write them as the clip's saved observations
    python3 bench/two_cameras.py --long               # also the sample game's four votes from both cameras
                                                      # (rendered into bench/out/two_cameras_game with the
                                                      # observations of each, never committed; --fresh looks again)

For each set, the audit is run three ways through pipeline.cameras: the judge's camera alone, the far camera
alone and both, and scored per seat against the truth's expected findings (identities, spec §4): right,
missed and false findings, and the truth's hands each camera's observations found (onset within 3 frames).
Count findings (no seat) are scored on a row of their own. One run's figures; no timing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from contract.jsonio import write_json  # noqa: E402
from pipeline.cameras import CameraView, audit_cameras, look, observations_beside  # noqa: E402
from pipeline.observer import VISION  # noqa: E402
from review.audit.findings import identity_of  # noqa: E402
from review.game.profiles import get_profile  # noqa: E402
from review.game.protocol import load_protocol, resolve_camera_path  # noqa: E402

CLIP = ROOT / "sample_videos" / "clips" / "two_cameras"
OUT = ROOT / "bench" / "out"
ONSET_FRAMES = 3


def saved_names(protocol: Path) -> dict[str, Path]:
    """Each camera's saved observations beside its video (NAME.mp4 -> NAME.observations.json)."""
    proto = load_protocol(protocol)
    return {c.id: observations_beside(resolve_camera_path(proto, c)) for c in proto.videos}


def views_of(protocol: Path, fresh: bool) -> list[CameraView]:
    proto = load_protocol(protocol)
    saved = None if fresh else {k: v for k, v in saved_names(protocol).items() if v.is_file()}

    def quiet(_words: str):
        return lambda _done, _total: None

    return look(proto, marks=[], model="full", observer=VISION, observations=saved, say=lambda m: print(m, file=sys.stderr),
                progress=quiet)


def seat_of(identity: tuple) -> int | None:
    return identity[-1]


def score(protocol: Path, views: Sequence[CameraView], truth: dict) -> dict[str, dict]:
    """Per seat (and 'counts'), right / missed / false findings of the audit from these views."""
    proto = load_protocol(protocol)
    report = audit_cameras(proto, views, profile=get_profile(proto.rules))
    got = {f.identity for f in report.findings if f.kind != "cannot_see"}
    expected = {identity_of(f) for f in truth["expected_findings"] if f.get("day") is not None}
    rows: dict[str, dict] = {}
    for key in [*(str(s) for s in range(1, 11)), "counts"]:
        want = {i for i in expected if (str(seat_of(i)) if seat_of(i) is not None else "counts") == key}
        have = {i for i in got if (str(seat_of(i)) if seat_of(i) is not None else "counts") == key}
        rows[key] = {"right": len(want & have), "missed": sorted(map(list, want - have)),
                     "false": sorted(map(list, have - want))}
    return rows


def hands_found(view: CameraView, truth: dict, shift: float) -> dict[int, tuple[int, int]]:
    """Per seat, (truth hands found, truth hands): an observed onset within ONSET_FRAMES of the truth's."""
    fps = truth["fps"]
    out: dict[int, tuple[int, int]] = {}
    for h in truth["hands"]:
        found = any(o.seat == h["seat"] and abs(o.on - shift - h["on"]) * fps <= ONSET_FRAMES
                    for o in view.observations.hands)
        a, b = out.get(h["seat"], (0, 0))
        out[h["seat"]] = (a + found, b + 1)
    return out


def report_set(name: str, protocol: Path, fresh: bool) -> dict:
    truth = json.loads(protocol.with_name(protocol.name.replace(".protocol.json", ".truth.json")).read_text())
    views = views_of(protocol, fresh)
    ways = {f"{v.id} alone": [v] for v in views}
    ways["both"] = list(views)
    scored = {way: score(protocol, vs, truth) for way, vs in ways.items()}
    hands = {v.id: hands_found(v, truth, v.offset) for v in views}
    print(f"\n## {name}\n")
    print("| seat | " + " | ".join(f"{w}: right / missed / false" for w in ways) + " | hands found ("
          + ", ".join(v.id for v in views) + ") |")
    print("|---|" + "---|" * (len(ways) + 1))
    for key in [*(str(s) for s in range(1, 11)), "counts"]:
        cells = [f"{r['right']} / {len(r['missed'])} / {len(r['false'])}" for r in (scored[w][key] for w in ways)]
        found = ", ".join(f"{hands[v.id].get(int(key), (0, 0))[0]}/{hands[v.id].get(int(key), (0, 0))[1]}"
                          for v in views) if key != "counts" else ""
        print(f"| {key} | " + " | ".join(cells) + f" | {found} |")
    totals = {w: {k: sum(len(r[k]) if k != "right" else r[k] for r in scored[w].values()) for k in ("right", "missed", "false")}
              for w in ways}
    print("| all | " + " | ".join(f"**{t['right']} / {t['missed']} / {t['false']}**" for t in totals.values()) + " | |")
    changed = []
    for key in scored["both"]:
        for way in ways:
            if way != "both" and scored[way][key] != scored["both"][key]:
                changed.append(f"seat {key}: {way} {scored[way][key]['missed'] or ''} missed, "
                               f"{scored[way][key]['false'] or ''} false")
    print("\nWhere one camera alone differs from both:\n" + "\n".join(f"- {c}" for c in changed))
    worse = [key for key in scored["both"] if any(
        scored["both"][key]["right"] - len(scored["both"][key]["false"])
        < scored[w][key]["right"] - len(scored[w][key]["false"]) for w in ways if w != "both")]
    print(f"\nSeats where both cameras do worse than the better single camera: {', '.join(worse) or 'none'}")
    return {"ways": scored, "hands": {k: {str(s): list(v) for s, v in h.items()} for k, h in hands.items()},
            "totals": totals, "worse_than_best_single": worse}


def refresh_fixture(protocol: Path) -> None:
    """Look at each camera again and write its observations beside its video (what tests, the app and later
    runs read)."""
    for view, (cam, path) in zip(views_of(protocol, fresh=True), saved_names(protocol).items(), strict=True):
        assert view.id == cam
        write_json(path, {**view.observations.to_json(), "video": view.video.name})
        print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)


def render_game(folder: Path) -> Path:
    """The sample game's four day votes from both cameras (720p) back to back, a vase hiding seat 5 (at the table
    to the end) from the judge's camera: one two-camera set in `folder` (rendered once, never committed)."""
    from dataclasses import replace

    from sample_videos.build import TWO_CAMERAS_COND, pad_to_gops, windows_of, write_two_cameras
    from sample_videos.game import sample_game

    protocol = folder / "two_cameras_game.protocol.json"
    if not protocol.is_file():
        items = sample_game()
        days = [pad_to_gops(w) for w in windows_of(items) if not w.night]
        write_two_cameras(folder, items, days, lambda m: print(m, file=sys.stderr), name="two_cameras_game",
                          cond=replace(TWO_CAMERAS_COND, vase=5))
    return protocol


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fresh", action="store_true", help="look at the videos again instead of the saved observations")
    parser.add_argument("--refresh-fixture", action="store_true", help="write the clip's saved observations afresh")
    parser.add_argument("--long", action="store_true", help="also the whole sample game's votes from both cameras")
    args = parser.parse_args(argv)
    protocol = CLIP.with_name("two_cameras.protocol.json")
    if args.refresh_fixture:
        refresh_fixture(protocol)
    results = {"two_cameras": report_set("two_cameras (day 1's vote, 720p)", protocol, args.fresh)}
    if args.long:
        game = render_game(OUT / "two_cameras_game")
        if args.fresh or not all(p.is_file() for p in saved_names(game).values()):
            refresh_fixture(game)  # kept beside the rendered videos (bench/out, never committed)
        results["two_cameras_game"] = report_set("the sample game's four votes from two cameras (720p)", game, False)
    OUT.mkdir(parents=True, exist_ok=True)
    write_json(OUT / "two_cameras.json", results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
