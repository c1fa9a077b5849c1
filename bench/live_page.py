"""A whole game run with the tablet page, tap by tap: the bundled sample game played at real speed on the «За столом»
page, the judge tapping every cue a judge gives at the table, each vote's count read off the page before the judge
announces it, and the finished game opened for review.

    python3 bench/live_page.py [--tap-lag 0.3] [--dir /tmp/stopframe_bench/live_page]

The page runs as Streamlit's AppTest runs it (the app's script in this process, the game held in the server as
the page keeps it), drawn again about four times a second, as a tablet following it would be. The game starts from
the sample's players alone; the judge's taps come from the sample protocol, each at its time on the video: the
day's nominations at its start (who nominates, then whom), each candidate as named, «Стоп» `--tap-lag` seconds
after the word was said (the finger follows the voice: the page hears the word in the sound), the count as
announced, the revote and the lift vote the page offers, the night and its shot or miss. Printed: per vote, when
the page first showed the video's count (the video's clock) against the judge's «Стоп» and announcement, and how
far the closed vote's cutoff is from the word; taps the page refused; the live counts against `stopframe audit` of
the recording; then whether the finished game opened for review with its recording and the vote audit drawn on it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from live_table import audited, shown  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from pipeline.audit import audit_game  # noqa: E402
from stopframe_app.game import SAMPLE_PROTOCOL  # noqa: E402
from stopframe_app.views import live  # noqa: E402

COUNT = re.compile(r"### Video: \d")  # how the page writes the video's count of the vote under way (English)
VOTES = ("vote", "lift_vote")


def taps(protocol: dict[str, Any], lag: float) -> list[tuple[float, list[str]]]:
    """The judge's taps at the table, (video time, the buttons tapped in turn), in the order of the game."""
    out: list[tuple[float, list[str]]] = []
    day_start = 0.5
    for ev in protocol["events"]:
        kind = ev["type"]
        if kind == "nomination":
            out.append((day_start, [f"live_by_{ev['by']}", f"live_target_{ev['target']}"]))
            day_start += 0.3
        elif kind in VOTES:
            named = f"live_name_{ev['candidate']}" if kind == "vote" else "live_lift"
            out += [(ev["t"], [named]), (ev["cutoff"] + lag, ["live_stop"]),
                    (ev["announced"], [f"live_count_{ev['count']}"])]
        elif kind == "phase" and ev["phase"] == "night" and ev["number"] >= 1:
            out.append((ev["t"], ["live_night"]))
        elif kind == "shooting":
            target = ev.get("target")
            out.append((ev["t"], [f"live_shoot_{target}" if target else "live_miss"]))
            day_start = ev["t"] + 1.0
    return sorted(out, key=lambda tap: tap[0])


def tap(at: AppTest, keys: list[str], refused: list[str]) -> None:
    for key in keys:
        found = [b for b in at.button if b.key == key]
        if not found:
            refused.append(f"{key}: not on the page")
            continue
        found[0].click().run()
        try:
            said = at.session_state[live.TAPPED]
        except KeyError:
            said = None
        if said:
            refused.append(f"{key}: {said}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tap-lag", type=float, default=0.3)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/stopframe_bench/live_page"))
    args = parser.parse_args()
    folder = args.dir / time.strftime("%Y%m%d-%H%M%S")
    folder.parent.mkdir(parents=True, exist_ok=True)
    protocol = json.loads(SAMPLE_PROTOCOL.read_text(encoding="utf-8"))
    players = folder.parent / f"{folder.name}.players.protocol.json"  # the sheet before the game: who sits where
    players.write_text(json.dumps({**protocol, "events": protocol["events"][:2]}, ensure_ascii=False), "utf-8")
    votes = [e for e in protocol["events"] if e["type"] in VOTES]
    schedule = taps(protocol, args.tap_lag)
    os.environ["STOPFRAME_LANG"] = "en"  # the page's words, as COUNT reads them
    os.environ.setdefault("STOPFRAME_DATA", str(folder.parent / "data"))  # the app's store, not the judge's
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.session_state["judge"] = "bench"
    at.run()
    at.sidebar.radio(key="view").set_value("Live table").run()
    at.radio(key="live_from").set_value("file").run()
    at.text_input(key="live_protocol").input(str(players))
    at.text_input(key="live_source").input(str(SAMPLE_PROTOCOL.with_name("sample_game.mp4")))
    at.text_input(key="live_seats").input(str(SAMPLE_PROTOCOL.with_name("sample_game.seats.json")))
    at.text_input(key="live_folder").input(str(folder))
    at.button(key="live_start").click().run()
    game = live.GAMES[str(folder)].game
    first_shown: dict[str, float] = {}
    draws, refused = [], []
    while True:
        t0 = time.perf_counter()
        now = game.table.now()
        while schedule and schedule[0][0] <= now:
            tap(at, schedule.pop(0)[1], refused)
        at.run()
        draws.append(time.perf_counter() - t0)
        label = next((h.value for h in at.subheader if h.value.startswith(("day ", "Day "))), None)
        if label is not None and any(COUNT.match(m.value) for m in at.markdown):
            first_shown.setdefault(label, game.table.now())
        if game.table.state().ended is not None and game.table.caught_up():
            break
        time.sleep(max(0.0, 0.25 - (time.perf_counter() - t0)))
    state = game.table.state().votes
    print(f"«Стоп» tapped {args.tap_lag:g} s after the word.\n")
    print("| vote | «Стоп» said | closed at | count on the page | judge's count said | shown before it |\n"
          "|---|---|---|---|---|---|")
    before = 0
    for vote, ev in zip(state, votes, strict=True):
        seen = first_shown.get(vote.label)
        ok = seen is not None and seen < ev["announced"]
        before += ok
        print(f"| {vote.label} | {ev['cutoff']:.2f} s | {vote.cutoff:.3f} s | {'—' if seen is None else f'{seen:.2f} s'} "
              f"| {ev['announced']:.2f} s | {'yes' if ok else 'no'} |")
    errors = [abs(v.cutoff - e["cutoff"]) for v, e in zip(state, votes, strict=True)]
    print(f"\ncounts seen on the page before the judge announced them: {before} of {len(votes)}; «Стоп» heard "
          f"{sum(bool(v.heard) for v in state)} of {len(state)} times, the cutoff within {max(errors) * 1000:.0f} ms "
          f"of the word; taps refused: {refused or 'none'}; the page drawn {len(draws)} times, median "
          f"{sorted(draws)[len(draws) // 2] * 1000:.0f} ms a draw")
    t0 = time.perf_counter()
    at.button(key="live_finish").click().run()
    at.button(key="live_finish_yes").click().run()
    spec = at.session_state["game_spec"]
    opened = time.perf_counter() - t0
    at.sidebar.radio(key="view").set_value("Vote audit").run()
    print(f"finished and opened for review in {opened:.1f} s: video {Path(spec.video).name} "
          f"(in the game's folder: {Path(spec.video).parent == folder}), the vote audit drawn "
          f"{'without' if not at.exception else 'WITH'} an exception, {len(at.error)} error(s) on it")
    offline = audited(audit_game(protocol=Path(spec.protocol), seats=Path(spec.seats), video=Path(spec.video)))
    same = sum(a == b for a, b in zip(shown(state), offline, strict=False))
    saved = json.loads(Path(spec.protocol).read_text(encoding="utf-8"))["events"]
    kinds = {k: sum(e["type"] == k for e in saved) for k in ("nomination", "vote", "lift_vote", "shooting")}
    print(f"live counts equal to the audit of the recording: {same} / {len(offline)}; the protocol written at the "
          f"table holds {kinds}")


if __name__ == "__main__":
    main()
