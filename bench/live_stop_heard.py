"""A «Стоп» tapped at the table, measured: is the closing word heard in the live sound before the tap, how close is
its onset to the true cutoff, and what does it change in the counts? One run.

    python3 bench/live_stop_heard.py [--lags 0.3,0.6,1.0,2.0] [--count-lag 0.6] [--validation DIR] [--dir /tmp/...]

A judge's finger follows the voice by a few tenths of a second. Each clip with timed votes (the sample game and
`sample_videos/clips/`) is played through `vision.live_source.LiveSource` (unpaced: the clock is not measured here)
into a `pipeline.live.LiveTable`, its protocol's cues given back with every «Стоп» tapped `lag` seconds after the
protocol's cutoff (`ProtocolCues(tap_lag_s=lag)`). Measured:
- onsets: for each lag, the votes whose word was heard, and |heard onset − the protocol's cutoff| (median, worst),
  from the sound alone (no vision), also on the clips of `--validation` where given;
- counts: at `--count-lag`, each vote's hands in time and late as the table shows them, with the sound listened to
  and without it (the vote closed at the tap), against the offline audit of the clip with its true cutoffs;
- calls: where a tapped candidate's vote opens once its «Стоп» is heard (`vision.cues.call_before`, the function
  the table calls, over the same sound the table keeps), against the protocol's `t`; `--calls-only` measures only
  this (a minute).
Prints markdown tables.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from live_table import audited, shown  # noqa: E402

from contract.seats import load_seat_map  # noqa: E402
from pipeline.audit import audit_game  # noqa: E402
from pipeline.live import HEAR_KEEP_S, LiveTable  # noqa: E402
from pipeline.live_cues import ProtocolCues  # noqa: E402
from review.game.profiles import get_profile  # noqa: E402
from vision.audio import read_audio  # noqa: E402
from vision.cues import call_before  # noqa: E402
from vision.live_source import LiveSource  # noqa: E402

SAMPLE = ROOT / "sample_videos" / "game" / "sample_game"
CLIPS = ROOT / "sample_videos" / "clips"
VOTES = ("vote", "lift_vote")


def timed_votes(protocol: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in protocol["events"] if e.get("type") in VOTES and "t" in e and "cutoff" in e]


def play(stem: Path, lag: float, *, listen: bool, vision: bool, work: Path) -> LiveTable:
    """The clip through a live source and a table, «Стоп» tapped `lag` s late; the table once the file has ended."""
    protocol = json.loads(stem.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    record = Path(tempfile.mkdtemp(dir=work)) / "recording"
    source = LiveSource(str(stem.with_suffix(".mp4")), record, speed=None)
    seat_map = load_seat_map(stem.with_suffix(".seats.json")).scaled_to(source.meta.width, source.meta.height)
    table = LiveTable({**protocol, "events": []}, seat_map, get_profile(protocol["rules"]), fps=source.meta.fps)
    cues = ProtocolCues(protocol, tap_lag_s=lag)
    ended: list[str | None] = []

    def frame(picture: Any) -> None:
        cues.until(table, picture.t)
        if vision:
            table.feed(picture)
            while len(table._incoming) > 40:  # as fast as vision takes it: no frame dropped for vision
                time.sleep(0.005)

    if vision:
        table.start()
    source.start(frame, ended.append, table.hear if listen else None)
    while not ended:
        time.sleep(0.05)
    source.close()
    table.close()
    if table.error is not None:
        raise table.error
    return table


def key(ev: dict[str, Any]) -> tuple[Any, ...]:
    return ev.get("day"), ev.get("round"), ev.get("candidate"), tuple(ev.get("candidates") or ())


def onsets(stems: list[Path], lags: list[float], work: Path) -> dict[float, list[float | None]]:
    """For each lag, |heard onset − the protocol's cutoff| per vote (None: not heard, or its tap never came)."""
    out: dict[float, list[float | None]] = {lag: [] for lag in lags}
    for stem in stems:
        truth = {key(e): e["cutoff"] for e in timed_votes(json.loads(stem.with_suffix(".protocol.json")
                                                                     .read_text("utf-8")))}
        for lag in lags:
            played = {key(e): e for e in play(stem, lag, listen=True, vision=False, work=work).protocol()["events"]
                      if e.get("type") in VOTES}
            for k, cut in truth.items():
                ev = played.get(k, {})
                out[lag].append(abs(ev["cutoff"] - cut) if ev.get("x_stop_heard") else None)
    return out


def onset_rows(title: str, found: dict[float, list[float | None]]) -> None:
    print(f"\n| {title}: «Стоп» tapped late by | heard | onset error median / worst |\n|---|---|---|")
    for lag, errors in found.items():
        heard = [e for e in errors if e is not None]
        spread = (f"{1000 * statistics.median(heard):.0f} ms / {1000 * max(heard):.0f} ms" if heard else "—")
        print(f"| {lag:g} s | {len(heard)} / {len(errors)} | {spread} |", flush=True)


def counts(stem: Path, lag: float, work: Path) -> tuple[int, int, int]:
    """Votes whose live count equals the offline audit's (true cutoffs): listening, tap only; and the votes."""
    offline = audited(audit_game(protocol=stem.with_suffix(".protocol.json"), seats=stem.with_suffix(".seats.json"),
                                 video=stem.with_suffix(".mp4")))
    same = []
    for listen in (True, False):
        live = shown(play(stem, lag, listen=listen, vision=True, work=work).state().votes)
        same.append(sum(a == b for a, b in zip(live, offline, strict=False)))
    return same[0], same[1], len(offline)


def calls(stems: list[Path]) -> list[float | None]:
    """|the call heard before «Стоп» − the protocol's t| per vote (None: no call told apart)."""
    out: list[float | None] = []
    for stem in stems:
        track = read_audio(stem.with_suffix(".mp4"))
        for ev in timed_votes(json.loads(stem.with_suffix(".protocol.json").read_text("utf-8"))):
            call = call_before(track.segment(ev["cutoff"] - HEAR_KEEP_S, ev["cutoff"] + 0.5), ev["cutoff"])
            out.append(None if call is None else abs(call - ev["t"]))
    return out


def call_rows(title: str, found: list[float | None]) -> None:
    heard = [e for e in found if e is not None]
    close = sum(e <= 0.04 for e in heard)
    wrong = sorted(round(e, 2) for e in heard if e > 0.04)
    print(f"| {title} | {len(heard)} / {len(found)} | {close} | {wrong or '—'} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lags", default="0.3,0.6,1.0,2.0")
    parser.add_argument("--count-lag", type=float, default=0.6)
    parser.add_argument("--validation", type=Path)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/stopframe_bench/stop_heard"))
    parser.add_argument("--calls-only", action="store_true")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    lags = [float(x) for x in args.lags.split(",")]
    ours = [SAMPLE] + [m.with_suffix("") for m in sorted(CLIPS.glob("*.mp4"))
                       if m.with_suffix(".protocol.json").is_file()
                       and timed_votes(json.loads(m.with_suffix(".protocol.json").read_text("utf-8")))]
    print("\n| the call heard before «Стоп» | told apart | within 40 ms of t | the others, off by (s) |\n|---|---|---|---|")
    call_rows("ours", calls(ours))
    if args.validation is not None:
        call_rows("validation", calls([m.with_suffix("") for m in sorted(args.validation.glob("*.mp4"))]))
    if args.calls_only:
        return
    onset_rows("ours", onsets(ours, lags, args.dir))
    if args.validation is not None:
        onset_rows("validation", onsets([m.with_suffix("") for m in sorted(args.validation.glob("*.mp4"))], lags,
                                        args.dir))
    print(f"\n| clip | counts equal to the audit at true cutoffs, «Стоп» tapped {args.count_lag:g} s late: "
          "word heard / tap only |\n|---|---|")
    total = [0, 0, 0]
    for stem in ours:
        heard, tap, n = counts(stem, args.count_lag, args.dir)
        total = [total[0] + heard, total[1] + tap, total[2] + n]
        print(f"| {stem.name} | {heard} / {n} · {tap} / {n} |", flush=True)
    print(f"| all | {total[0]} / {total[2]} · {total[1]} / {total[2]} |")


if __name__ == "__main__":
    main()
