"""The live table, measured: does it keep up with the game, how soon after «Стоп» is the count shown, and are the
counts the offline audit's? One run.

    python3 bench/live_table.py [--speed 1] [--only sample|clips] [--dir /tmp/stopframe_bench/live]

The sample game (1920x1080, 25 fps, 175 s) is played at real speed through `pipeline.live_game.LiveGame` as
`stopframe live` plays it (the file paced to the wall clock, recorded into segments as it comes, the protocol's
entries given back as the judge's cues at their times), in this process. Measured:
- frames: the file's, the source's decoded, the joined recording's (none may be lost);
- vision's wait: how far behind the newest frame vision was, sampled every 0.1 s (max and 95th percentile);
- «Стоп» to the count: wall seconds from the cue to the first count shown, per vote (median, worst);
- CPU seconds of the process over the game (the recording, decoding, vision and the audit's asks together);
- the counts: each vote's hands in time and late as shown live, against `stopframe audit` of the recording
  (the joined video, looked at afresh).
`--without-seats`: the sample game begun without its seat map (its seats found from day 1's votes once that day is
over, the later rounds counted live): when they were found, and the rounds counted against the audit of the
recording with the found map. Then our clips with timed votes (`sample_videos/clips/`), each fed as fast as vision takes it through the same
table (no pacing: the counts, not the clock, are compared), against the offline audit of the same clip.
Prints markdown tables.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from contract.seats import load_seat_map  # noqa: E402
from pipeline.audit import audit_game  # noqa: E402
from pipeline.live import LiveTable  # noqa: E402
from pipeline.live_cues import ProtocolCues  # noqa: E402
from pipeline.live_game import LiveGame  # noqa: E402
from review.game.profiles import get_profile  # noqa: E402
from vision.video import open_video  # noqa: E402

SAMPLE = ROOT / "sample_videos" / "game" / "sample_game"
CLIPS = ROOT / "sample_videos" / "clips"


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def shown(votes: Any) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each vote's hands counted (in time, and lifted ones the audit counts too) and late, as the table shows them."""
    return [(tuple(s for s, st in v.seats.items() if st in ("in_time", "lifted")),
             tuple(s for s, st in v.seats.items() if st == "late")) for v in votes]


def audited(report: Any) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [(tuple(v.video_voters or ()), tuple(v.extra.get("x_late_seats") or ())) for v in report.votes
            if v.video_voters is not None]


def sample_at_speed(folder: Path, speed: float, *, seats: bool = True) -> dict[str, Any]:
    protocol = json.loads(SAMPLE.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    with open_video(SAMPLE.with_suffix(".mp4")) as video:
        file_frames = video.meta.frame_count
    lags: list[float] = []
    found_at: list[tuple[str | None, float]] = []  # (what the game said about its seats, video time) as it changed
    cpu0, wall0 = cpu_s(), time.perf_counter()
    game = LiveGame.begin(str(SAMPLE.with_suffix(".mp4")), protocol=protocol, folder=folder, name="sample_game",
                          seats=SAMPLE.with_suffix(".seats.json") if seats else None, speed=speed)
    while True:
        state = game.state()
        if not found_at or found_at[-1][0] != game.seats_said:
            found_at.append((game.seats_said, game.table.now()))
        lags.append(state.behind_s)
        if state.ended is not None and game.table.caught_up():
            break
        time.sleep(0.1)
    files = game.finish()
    cpu, wall = cpu_s() - cpu0, time.perf_counter() - wall0
    votes = game.table.state().votes
    with open_video(files.video) as recording:
        recorded = recording.meta.frame_count
    offline = audit_game(protocol=files.protocol, seats=files.seats, video=files.video)
    delays = [v.shown_after_s for v in votes if v.shown_after_s is not None]
    counted = [i for i, v in enumerate(votes) if v.video_count is not None]
    live, off = [shown(votes)[i] for i in counted], [audited(offline)[i] for i in counted]
    return {"file_frames": file_frames, "decoded": game.source.stats.frames, "recorded": recorded,
            "lag_max": max(lags), "lag_p95": sorted(lags)[int(0.95 * (len(lags) - 1))], "votes": len(votes),
            "delay_median": statistics.median(delays) if delays else None, "delay_worst": max(delays, default=None),
            "shown": len(delays), "same": sum(a == b for a, b in zip(live, off, strict=False)), "audited": len(off),
            "cpu": cpu, "wall": wall, "threads": threading.active_count(), "found_at": found_at[1:]}


def clip_counts(stem: Path) -> tuple[int, int, list[str]]:
    """One clip fed through the table unpaced, against the offline audit of the same clip."""
    protocol = json.loads(stem.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    seats = stem.with_suffix(".seats.json")
    with open_video(stem.with_suffix(".mp4")) as video:
        table = LiveTable({**protocol, "events": []}, load_seat_map(seats).scaled_to(video.meta.width, video.meta.height),
                          get_profile(protocol["rules"]), fps=video.meta.fps)
        cues = ProtocolCues(protocol)
        table.start()
        for picture in video.iter_pictures(0.0):
            cues.until(table, picture.t)
            table.feed(picture)
            while len(table._incoming) > 40:
                time.sleep(0.005)
        table.close()
    if table.error is not None:
        raise table.error
    offline = audit_game(protocol=stem.with_suffix(".protocol.json"), seats=seats, video=stem.with_suffix(".mp4"))
    live, off = shown(table.state().votes), audited(offline)
    differ = [f"vote {i + 1}: live {a} offline {b}" for i, (a, b) in enumerate(zip(live, off, strict=False)) if a != b]
    if len(live) != len(off):
        differ.append(f"{len(live)} votes shown live, {len(off)} audited")
    return sum(a == b for a, b in zip(live, off, strict=False)), len(off), differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--only", choices=("sample", "clips"))
    parser.add_argument("--without-seats", action="store_true",
                        help="the sample game begun without its seat map: found after day 1, counted from then on")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/stopframe_bench/live"))
    args = parser.parse_args()
    if args.only != "clips":
        folder = args.dir / time.strftime("sample-%Y%m%d-%H%M%S")
        r = sample_at_speed(folder, args.speed, seats=not args.without_seats)
        print(f"| sample game at {args.speed:g}× real speed | figure |\n|---|---|")
        print(f"| frames: file / decoded live / in the joined recording | {r['file_frames']} / {r['decoded']} / "
              f"{r['recorded']} |")
        print(f"| vision behind the newest frame: max / 95th percentile | {r['lag_max']:.2f} s / {r['lag_p95']:.2f} s |")
        print(f"| «Стоп» to the count shown: median / worst ({r['shown']} of {r['votes']} votes) | "
              f"{r['delay_median']:.2f} s / {r['delay_worst']:.2f} s |")
        print(f"| live counts equal to the audit of the recording | {r['same']} / {r['audited']} |")
        print(f"| CPU over the game / wall | {r['cpu']:.1f} s / {r['wall']:.1f} s |")
        for said, at in r["found_at"]:
            print(f"| the seats, at video {at:.1f} s | {said} |")
    if args.only != "sample":
        print("\n| clip | live counts equal to the offline audit | differences |\n|---|---|---|")
        total = [0, 0]
        for mp4 in sorted(CLIPS.glob("*.mp4")):
            stem = mp4.with_suffix("")
            protocol = json.loads(stem.with_suffix(".protocol.json").read_text(encoding="utf-8"))
            if not any(e.get("type") in ("vote", "lift_vote") and "cutoff" in e for e in protocol["events"]):
                continue
            same, n, differ = clip_counts(stem)
            total[0] += same
            total[1] += n
            print(f"| {stem.name} | {same} / {n} | {'; '.join(differ) or '—'} |", flush=True)
        print(f"| all | {total[0]} / {total[1]} | |")


if __name__ == "__main__":
    main()
