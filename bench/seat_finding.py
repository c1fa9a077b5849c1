"""Seat maps found from the video against the given ones: same observe and audit, scored side by side.

    python3 bench/seat_finding.py [--clips NAME ...] [--jobs N] [--given DIR] [--out DIR] [--players-only] [--varied N]

For every clip of our own (sample_videos/clips day, stress and top-view clips, the sample game) and every day
clip of ../shared/validation (read from there; nothing made from them is kept in the project), and with `--varied N`
the varied vote clips 1..N of sample_videos/varied.py (rendered into bench/out/varied where absent):
1. `stopframe seats VIDEO --protocol P` finds the map (its wall and CPU seconds are the "time to find" figures);
2. `stopframe observe` and `stopframe audit` run with the found map, and (unless `--given DIR` holds them
   already, e.g. bench/out/validation_compare/LABEL) with the given one;
3. both are scored by the validation scorers (score_observe.py, score_audit.py) per clip set, and each clip's
   audit findings with the found map are set against the given map's (by identity, spec §4): those only with the
   found map and those it loses, counted per set and named per clip; and, matched against the truth by the
   validation scorer, the false findings only with the found map and the true ones only it misses;
4. per seat, the share of the truth's resting hands that lie inside the found zone: for every hand of the
   truth, the detector's palm in the given zone at the middle of its interval, tested against the found zone
   of the same seat number (a wrong numbering counts as outside);
5. `--players-only`: the map found with no vote times (`stopframe seats VIDEO`, no protocol: frames sampled over
   the whole clip, the chairs laid round the table from the players) too, and, for it, the same share of
   resting hands, how far each zone's middle lies from the given zone's (in the given zone's own radius, the
   root of its area over π), whether each zone's middle lies nearer its own seat's given zone than any other
   (the numbering), per clip, and `observe` and the audit with it (scored as in 3.).
Outputs go under bench/out/seat_finding/ (gitignored). One markdown table is printed.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import resource
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from validation_compare import (  # noqa: E402
    STOPFRAME,
    clip_list,
    summary,
    validation_module,
    varied_clips,
    vote_windows_of,
)

from contract.seats import load_seat_map  # noqa: E402
from vision.crops import crop_for_zone  # noqa: E402
from vision.video import open_video  # noqa: E402

OUT = ROOT / "bench" / "out" / "seat_finding"
PALM_POINTS = [0, 5, 9, 13, 17]


def run(cmd: list[str]) -> None:
    subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)


def find_map(stem: Path, folder: Path, votes: bool = True) -> tuple[Path, float, float]:
    """The found map of one clip (reused where present), the wall seconds its finding took and the CPU seconds
    of the `stopframe seats` process (user + system: on a machine shared with other jobs the wall time is
    mostly waiting, the CPU time is what two idle cores would need at most). `votes`: with the protocol's vote
    times (else players only: no protocol)."""
    path = folder / f"{stem.name}.seats.json"
    if not path.exists():
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        protocol = ["--protocol", f"{stem}.protocol.json"] if votes else []
        run([*STOPFRAME, "seats", f"{stem}.mp4", *protocol, "--out", str(path)])
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        (folder / f"{stem.name}.seconds").write_text(f"{wall:.2f} {cpu:.2f}")
    wall, cpu = (float(v) for v in (folder / f"{stem.name}.seconds").read_text().split())
    return path, wall, cpu


def observe_and_audit(stem: Path, seats: Path, folder: Path) -> None:
    """`stopframe observe` (the vote windows only for the long game) and `stopframe audit` with this map."""
    obs, report = folder / f"{stem.name}.observe.json", folder / f"{stem.name}.audit.json"
    windows = vote_windows_of(stem)
    if not obs.exists():
        if windows is None:
            run([*STOPFRAME, "observe", f"{stem}.mp4", "--seats", str(seats), "--out", str(obs)])
        else:
            hands: list[dict] = []
            unseen: list = []
            watched: list = []
            data: dict = {}
            for k, (a, b) in enumerate(windows):
                part = folder / f"{stem.name}.w{k}.json"
                run([*STOPFRAME, "observe", f"{stem}.mp4", "--seats", str(seats), "--start", str(a), "--end", str(b),
                     "--out", str(part)])
                data = json.loads(part.read_text())
                hands += data["hands"]
                unseen += data.get("x_unseen", [])
                watched += data.get("x_windows", [])
                part.unlink()
            # every window's hands AND the stretches it watched: with the last window's only, the audit took the
            # other windows for unwatched and said cannot_see for every seat there
            obs.write_text(json.dumps(dict(data, hands=hands, x_unseen=unseen, x_windows=watched)))
    if not report.exists():  # on the observations just made: the same hands, watched once
        run([*STOPFRAME, "audit", f"{stem}.mp4", "--protocol", f"{stem}.protocol.json", "--seats", str(seats),
             "--observations", str(obs), "--out", str(report)])


def resting_palms(stem: Path, folder: Path) -> list[tuple[int, float, float]]:
    """(seat, x, y) of each of the truth's resting hands: the detector's palm in the given zone at the middle of
    its interval (located once per clip, kept in `folder`)."""
    cache = folder / f"{stem.name}.palms.json"
    if cache.exists():
        return [(int(n), float(x), float(y)) for n, x, y in json.loads(cache.read_text())]
    from vision.backend import MediaPipeBackend

    truth = json.loads(Path(f"{stem}.truth.json").read_text())
    windows = vote_windows_of(stem)
    hands = [h for h in truth["hands"] if windows is None or any(a <= h["on"] and h["off"] <= b for a, b in windows)]
    given = load_seat_map(f"{stem}.seats.json")
    backend = MediaPipeBackend("full", min_confidence=0.3)
    out: list[tuple[int, float, float]] = []
    with open_video(f"{stem}.mp4") as video:
        size = (video.meta.width, video.meta.height)
        given = given.scaled_to(*size)
        for h in hands:
            seat = given.seats.get(h["seat"])
            if seat is None:
                continue
            _, image = video.frame_at_time((h["on"] + h["off"]) / 2)
            crop = crop_for_zone(seat.zone, size)
            palms = [crop.to_frame(d.landmarks)[PALM_POINTS, :2].mean(axis=0) for d in backend.look(crop.cut(image))]
            palms = [p for p in palms if seat.contains(*p)]
            if palms:
                out.append((h["seat"], float(palms[0][0]), float(palms[0][1])))
    backend.close()
    cache.write_text(json.dumps(out))
    return out


def resting_shares(stem: Path, found_path: Path, folder: Path) -> dict[int, tuple[int, int]]:
    """Per seat: (the truth's resting hands inside the found zone of that seat, the hands located)."""
    with open_video(f"{stem}.mp4") as video:
        size = (video.meta.width, video.meta.height)
    found = load_seat_map(found_path).scaled_to(*size)
    shares: dict[int, list[int]] = {}
    for seat, x, y in resting_palms(stem, folder):
        counts = shares.setdefault(seat, [0, 0])
        counts[0] += int(found.seats.get(seat) is not None and found.seats[seat].contains(x, y))
        counts[1] += 1
    return {n: (a, b) for n, (a, b) in shares.items()}


def zone_offsets(stem: Path, found_path: Path) -> dict[int, float | None]:
    """Per seat of the given map: how far the found zone's middle lies from the given zone's, in the given
    zone's radius (the root of its area over π); None where the found map has no zone for that seat."""
    given = load_seat_map(f"{stem}.seats.json")
    found = load_seat_map(found_path).scaled_to(*given.frame_size)
    out: dict[int, float | None] = {}
    for n, seat in given.seats.items():
        other = found.seats.get(n)
        radius = math.sqrt(abs(cv2.contourArea(seat.zone.astype(np.float32))) / math.pi)
        out[n] = None if other is None else round(float(np.linalg.norm(
            other.zone.mean(axis=0) - seat.zone.mean(axis=0))) / max(radius, 1.0), 2)
    return out


def slipped_seats(stem: Path, found_path: Path) -> list[int]:
    """The found seats whose zone's middle lies nearer another seat's given zone than its own (numbered a chair
    or more off)."""
    given = load_seat_map(f"{stem}.seats.json")
    found = load_seat_map(found_path).scaled_to(*given.frame_size)
    middles = {n: seat.zone.mean(axis=0) for n, seat in given.seats.items()}
    out = []
    for n, seat in found.seats.items():
        middle = seat.zone.mean(axis=0)
        if n in middles and min(middles, key=lambda k: float(np.linalg.norm(middles[k] - middle))) != n:
            out.append(n)
    return out


def finding_identities(report: Path) -> set[tuple]:
    """A report's findings by identity (spec §4: kind, day, night, round, candidate, seat; a count mismatch
    with its seats); empty where the report is missing."""
    if not report.exists():
        return set()
    return {(f["kind"], f.get("day"), f.get("night"), f.get("round"), f.get("candidate"), f.get("seat"),
             tuple(f.get("seats") or ())) for f in json.loads(report.read_text())["findings"]}


def finding_difference(given: Path, found: Path) -> tuple[list[str], list[str]]:
    """The findings the audit with the found map gives and the given map's does not, and those it loses, each
    as `kind seat N (day D, candidate C)`."""
    a, b = finding_identities(given), finding_identities(found)

    def words(f: tuple) -> str:
        kind, day, night, rnd, candidate, seat, seats = f
        who = f"seat {seat}" if seat is not None else f"seats {list(seats)}"
        when = f"night {night}" if night is not None else f"day {day} round {rnd} candidate {candidate}"
        return f"{kind} {who} ({when})"

    return sorted(map(words, b - a)), sorted(map(words, a - b))


def truth_difference(stem: Path, given: Path, found: Path) -> tuple[list[str], list[str]]:
    """Against the clip's truth (the validation scorer's matching): the false findings the audit with the found
    map gives and the given map's does not, and the true findings it misses that the given map's finds. Why:
    "lost with the found map" counts a false finding of the given map's audit that the found map no longer
    gives; this is what the judge would get wrong."""
    if not (given.exists() and found.exists()):
        return [], []
    scorer = validation_module("score_audit.py")
    truth = json.loads(Path(f"{stem}.truth.json").read_text())
    a = scorer.score_clip(stem.name, truth, scorer.load_report(str(given))[0])
    b = scorer.score_clip(stem.name, truth, scorer.load_report(str(found))[0])

    def words(items: list) -> list[str]:
        return sorted({f"{kind} seat {seat} (candidate {candidate})" for kind, seat, candidate in items})

    return ([w for w in words(b["false"]) if w not in words(a["false"])],
            [w for w in words(b["missed"]) if w not in words(a["missed"])])


def one_clip(stem: Path, out: Path, given: Path | None, players_only: bool = False) -> dict:
    found_dir, given_dir = out / "found", given or out / "given"
    found_dir.mkdir(parents=True, exist_ok=True)
    given_dir.mkdir(parents=True, exist_ok=True)
    seats, seconds, cpu = find_map(stem, found_dir)
    observe_and_audit(stem, seats, found_dir)
    if given is None:
        observe_and_audit(stem, Path(f"{stem}.seats.json"), given_dir)
    shares_file = found_dir / f"{stem.name}.shares.json"
    if not shares_file.exists():
        shares_file.write_text(json.dumps({str(k): v for k, v in resting_shares(stem, seats, found_dir).items()}))
    result = {"name": stem.name, "stem": stem, "seconds": seconds, "cpu": cpu, "shares": json.loads(shares_file.read_text()),
              "unfound": json.loads(seats.read_text())["x_found"]["unfound"]}
    if players_only:
        early_dir = out / "players_only"
        early_dir.mkdir(parents=True, exist_ok=True)
        early, early_s, early_cpu = find_map(stem, early_dir, votes=False)
        observe_and_audit(stem, early, early_dir)
        result["players_only"] = {"seconds": early_s, "cpu": early_cpu,
                                  "shares": resting_shares(stem, early, found_dir),
                                  "offsets": zone_offsets(stem, early), "slipped": slipped_seats(stem, early)}
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clips", nargs="*", help="only these clip names")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--given", type=Path, help="a folder with the given maps' NAME.observe.json / NAME.audit.json")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--players-only", action="store_true",
                    help="also find each map with no vote times (no protocol) and measure it against the given one")
    ap.add_argument("--varied", type=int, default=0, metavar="N",
                    help="add the varied vote clips 1..N (sample_videos/varied.py, rendered into bench/out/varied)")
    args = ap.parse_args()
    varied = [("varied", name, stem) for _, name, stem in varied_clips(args.varied)]
    clips = sorted(clip_list(args.clips) + varied, key=lambda c: c[0] != "validation")  # the done-when set first
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(one_clip, [stem for _, _, stem in clips], [args.out] * len(clips),
                                [args.given] * len(clips), [args.players_only] * len(clips)))
    by_name = {r["name"]: r for r in results}
    given_dir = args.given or args.out / "given"
    sets = [s for s in ("ours", "varied", "validation") if any(c[0] == s for c in clips)]
    print("| figure | " + " | ".join(f"{s}: {w}" for s in sets for w in ("given", "found")) + " |")
    print("|---|" + "---|" * (2 * len(sets)))
    figures = {(s, w): summary(d, clips, s, audit=True) for s in sets
               for w, d in (("given", given_dir), ("found", args.out / "found"))}
    truths: dict[str, tuple[list[str], list[str]]] = {}  # per clip, against the truth: (false, missed) only with it
    for s in sets:  # every clip: the findings with the found map that the given map's audit does not give, and back
        names = [name for c, name, _ in clips if c == s]
        diffs = [finding_difference(given_dir / f"{n}.audit.json", args.out / "found" / f"{n}.audit.json") for n in names]
        figures[(s, "found")]["findings only with the found map"] = str(sum(len(a) for a, _ in diffs))
        figures[(s, "found")]["findings lost with the found map"] = str(sum(len(b) for _, b in diffs))
        figures[(s, "found")]["clips whose findings differ"] = f"{sum(bool(a or b) for a, b in diffs)}/{len(names)}"
        truths.update({n: truth_difference(by_name[n]["stem"], given_dir / f"{n}.audit.json",
                                           args.out / "found" / f"{n}.audit.json") for n in names})
        against = [truths[n] for n in names]
        figures[(s, "found")]["against the truth: false only with the found map"] = str(sum(len(a) for a, _ in against))
        figures[(s, "found")]["against the truth: true findings lost with it"] = str(sum(len(b) for _, b in against))
    for row in ("recall", "precision", "onset_med", "audit finding_recall", "audit finding_precision",
                "audit count_acc", "false on clean", "findings only with the found map",
                "findings lost with the found map", "clips whose findings differ",
                "against the truth: false only with the found map", "against the truth: true findings lost with it"):
        cells = [figures[(s, w)].get(row, "—") for s in sets for w in ("given", "found")]
        print(f"| {row} | " + " | ".join(cells) + " |")
    for which in sets:
        names = [name for s, name, _ in clips if s == which]
        secs = sorted(by_name[n]["seconds"] for n in names)
        cpus = sorted(by_name[n]["cpu"] for n in names)
        inside = sum(v[0] for n in names for v in by_name[n]["shares"].values())
        located = sum(v[1] for n in names for v in by_name[n]["shares"].values())
        print(f"\n{which}: time to find the map (`stopframe seats`, start-up included) median {secs[len(secs) // 2]:.1f} s"
              f" wall / {cpus[len(cpus) // 2]:.1f} CPU s, max {secs[-1]:.1f} s wall / {cpus[-1]:.1f} CPU s; "
              f"truth's resting hands inside the found zone {inside}/{located} = {inside / max(1, located):.3f}")
        for n in names:
            r = by_name[n]
            per_seat = " ".join(f"{k}:{v[0]}/{v[1]}" for k, v in sorted(r["shares"].items(), key=lambda kv: int(kv[0])))
            unfound = "; ".join(re.sub(r"^seat \d+: ", f"{k}: ", v) for k, v in r["unfound"].items())
            extra, lost = finding_difference(given_dir / f"{n}.audit.json", args.out / "found" / f"{n}.audit.json")
            false, missed = truths[n]
            differ = (f"; only with the found map: {', '.join(extra)}" if extra else "") + (
                f"; lost with it: {', '.join(lost)}" if lost else "") + (
                f"; against the truth, false only with it: {', '.join(false)}" if false else "") + (
                f"; true findings it misses: {', '.join(missed)}" if missed else "")
            print(f"  {n}: {r['seconds']:.1f} s wall, {r['cpu']:.1f} CPU s; per seat {per_seat}"
                  + (f"; unfound {unfound}" if unfound else "") + differ)
    if args.players_only:
        print("\nPlayers only (no vote times): observe and the audit with the players-only map\n")
        print("| figure | ours: given | ours: players only | validation: given | validation: players only |")
        print("|---|---|---|---|---|")
        early = {s: summary(args.out / "players_only", clips, s, audit=True) for s in ("ours", "validation")}
        for row in ("recall", "precision", "audit finding_recall", "audit finding_precision", "false on clean"):
            cells = [c.get(row, "—") for s in ("ours", "validation") for c in (figures[(s, "given")], early[s])]
            print(f"| {row} | " + " | ".join(cells) + " |")
        print_players_only(results, clips)


def print_players_only(results: list[dict], clips: list[tuple[str, str, Path]]) -> None:
    """The players-only maps (no vote times) per clip set: resting hands inside, zone offsets, time."""
    by_name = {r["name"]: r["players_only"] for r in results}
    for which in ("ours", "validation"):
        names = [name for s, name, _ in clips if s == which]
        if not names:
            continue
        inside = sum(v[0] for n in names for v in by_name[n]["shares"].values())
        located = sum(v[1] for n in names for v in by_name[n]["shares"].values())
        offsets = sorted(v for n in names for v in by_name[n]["offsets"].values() if v is not None)
        zones = sum(len(by_name[n]["offsets"]) for n in names)
        cpus = sorted(by_name[n]["cpu"] for n in names)
        walls = sorted(by_name[n]["seconds"] for n in names)
        slipped = sum(len(by_name[n]["slipped"]) for n in names)
        middle = f"{offsets[len(offsets) // 2]:.2f}" if offsets else "—"
        print(f"\n{which}, players only (no vote times): truth's resting hands inside the found zone {inside}/{located}"
              f" = {inside / max(1, located):.3f}; zones found {len(offsets)}/{zones}, middle off the given zone's by"
              f" median {middle} of its radius ({sum(v <= 1.0 for v in offsets)} within one radius);"
              f" {slipped} zones nearer another seat's given zone than their own;"
              f" median {cpus[len(cpus) // 2]:.1f} CPU s / {walls[len(walls) // 2]:.1f} s wall to find"
              f" (max {cpus[-1]:.1f} CPU s)")
        for n in names:
            r = by_name[n]
            a = sum(v[0] for v in r["shares"].values())
            b = sum(v[1] for v in r["shares"].values())
            offs = " ".join(f"{k}:{'—' if v is None else v}" for k, v in sorted(r["offsets"].items(), key=lambda kv: int(kv[0])))
            slips = f"; numbered off: {r['slipped']}" if r["slipped"] else ""
            print(f"  {n}: hands inside {a}/{b}; offsets {offs}{slips}; {r['cpu']:.1f} CPU s")


if __name__ == "__main__":
    main()
