"""Seats found mid-game from a live recording: the stretch of the votes joined, against the whole recording so far.

    python3 bench/live_seats_join.py [--dir /tmp/stopframe_bench/live_join]

The sample game (1920x1080, 25 fps, 175 s) is recorded into 2-s segments as `stopframe live` records it (as fast
as it decodes), once, and kept. Then, for the first timed votes on day 1 (3 s in) and, with day 1's votes left
untimed, on day 2 (53 s in: a game whose first timed votes come later), the seats are found two ways, each timed
(wall and CPU seconds of this process):
- "whole": every closed segment joined (`join_recording`), then `find_game_seats` on it;
- "stretch": `pipeline.live_game.seats_from_recording`, which joins from just before the first vote's naming.
Printed: the bytes each join wrote, the seconds, and whether the two maps agree (every zone within 1 px).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

import vision.live_source  # noqa: E402
from pipeline.live_game import seats_from_recording  # noqa: E402
from pipeline.seat_finding import find_game_seats  # noqa: E402
from vision.live_source import LiveSource, join_recording  # noqa: E402

GAME = ROOT / "sample_videos" / "game" / "sample_game"


def record(folder: Path) -> Path:
    rec = folder / "rec"
    if not rec.is_dir():
        ended = threading.Event()
        with LiveSource(f"{GAME}.mp4", rec, speed=None) as live:
            live.start(lambda picture: None, lambda reason: ended.set())
            ended.wait()
    return rec


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed(work):
    t0, c0 = time.perf_counter(), cpu()
    out = work()
    return out, time.perf_counter() - t0, cpu() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", type=Path, default=Path("/tmp/stopframe_bench/live_join"))
    args = ap.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    rec = record(args.dir)
    recorded = sum(p.stat().st_size for p in rec.glob("segment_*.ts"))
    print(f"recording: {len(list(rec.glob('segment_*.ts')))} segments, {recorded / 1e6:.1f} MB for 175 s")
    protocol = json.loads(Path(f"{GAME}.protocol.json").read_text(encoding="utf-8"))
    untimed = {**protocol, "events": [{k: v for k, v in e.items() if not (
        e.get("day") == 1 and e["type"] == "vote" and k in ("t", "cutoff", "announced"))} for e in protocol["events"]]}
    print("\n| first timed votes | join: whole / stretch (MB) | find: whole / stretch (wall s, CPU s) | "
          "stretch begins at | maps agree |")
    print("|---|---|---|---|---|")
    for label, data, first in (("day 1 (3.15 s)", protocol, 3.15), ("day 2 (53.15 s)", untimed, 53.15)):
        print(one_case(rec, label, data, first))


def one_case(rec: Path, label: str, data: dict, first: float) -> str:
    """One table row: the seats found from the whole recording and from the votes' stretch, timed."""
    with tempfile.TemporaryDirectory() as tmp:
        whole_mp4 = Path(tmp) / "whole.mp4"
        (Path(tmp) / "whole.protocol.json").write_text(json.dumps({**data, "video": {"path": "whole.mp4"}}))

        def whole_way():
            join_recording(rec, whole_mp4, closed_only=True)
            return find_game_seats(whole_mp4, Path(tmp) / "whole.protocol.json")

        whole, w_wall, w_cpu = timed(whole_way)
        joined: list[tuple[float, int]] = []  # (where the stretch begins, its bytes)
        join_since = vision.live_source.join_since

        def spy(record_dir: Path, out: Path, since: float) -> float:
            joined.append((join_since(record_dir, out, since), out.stat().st_size))
            return joined[-1][0]

        vision.live_source.join_since = spy
        try:
            stretch, s_wall, s_cpu = timed(lambda: seats_from_recording(rec, data, first))
        finally:
            vision.live_source.join_since = join_since
        agree = sorted(whole.seat_map.seats) == sorted(stretch.seat_map.seats) and all(
            max(abs(a - b) for p, q in zip(seat.zone, stretch.seat_map.seats[n].zone, strict=True)
                for a, b in zip(p, q, strict=True)) <= 1.0 for n, seat in whole.seat_map.seats.items())
        return (f"| {label} | {whole_mp4.stat().st_size / 1e6:.1f} / {joined[0][1] / 1e6:.1f} | "
                f"{w_wall:.1f}, {w_cpu:.1f} / {s_wall:.1f}, {s_cpu:.1f} | {joined[0][0]:.2f} s | {agree} |")

if __name__ == "__main__":
    main()
