"""A whole game run with the tablet page: the bundled sample game played at real speed on the «За столом» page,
each vote's count read off the page before the judge announces it, and the finished game opened for review.

    python3 bench/live_page.py [--dir /tmp/stopframe_bench/live_page]

The page runs as Streamlit's AppTest runs it (the app's script in this process, the game held in the server as
the page keeps it); the page is drawn again about four times a second, as a tablet following it would be. The
game is the one the app opens on (the bundled sample), its protocol's entries coming back as the judge's cues at
their times. Printed: per vote, when the page first showed the video's count (the video's clock) against the
judge's «Стоп» and announcement; then whether the finished game opened for review with its recording and the
vote audit drawn on it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from streamlit.testing.v1 import AppTest  # noqa: E402

from stopframe_app.game import SAMPLE_PROTOCOL  # noqa: E402
from stopframe_app.views import live  # noqa: E402

COUNT = re.compile(r"### Video: \d")  # how the page writes the video's count of the vote under way (English)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/stopframe_bench/live_page"))
    folder = parser.parse_args().dir / time.strftime("%Y%m%d-%H%M%S")
    protocol = json.loads(SAMPLE_PROTOCOL.read_text(encoding="utf-8"))
    votes = [e for e in protocol["events"] if e["type"] in ("vote", "lift_vote")]
    os.environ["STOPFRAME_LANG"] = "en"  # the page's words, as COUNT reads them
    os.environ.setdefault("STOPFRAME_DATA", str(folder.parent / "data"))  # the app's store, not the judge's
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.session_state["judge"] = "bench"
    at.run()
    at.sidebar.radio(key="view").set_value("Live table").run()
    at.text_input(key="live_source").input(str(SAMPLE_PROTOCOL.with_name("sample_game.mp4")))
    at.text_input(key="live_folder").input(str(folder))
    at.button(key="live_start").click().run()
    game = live.GAMES[str(folder)].game
    first_shown: dict[str, float] = {}
    draws = []
    while True:
        t0 = time.perf_counter()
        at.run()
        draws.append(time.perf_counter() - t0)
        now = game.table.now()
        label = next((h.value for h in at.subheader if h.value.startswith(("day ", "Day "))), None)
        if label is not None and any(COUNT.match(m.value) for m in at.markdown):
            first_shown.setdefault(label, now)
        state = game.table.state()
        if state.ended is not None and game.table.caught_up():
            break
        time.sleep(max(0.0, 0.25 - (time.perf_counter() - t0)))
    labels = [v.label for v in game.table.state().votes]
    print("| vote | «Стоп» | count on the page | judge's count said | shown before it |\n|---|---|---|---|---|")
    before = 0
    for label, ev in zip(labels, votes, strict=True):
        shown = first_shown.get(label)
        ok = shown is not None and shown < ev["announced"]
        before += ok
        print(f"| {label} | {ev['cutoff']:.2f} s | {'—' if shown is None else f'{shown:.2f} s'} | "
              f"{ev['announced']:.2f} s | {'yes' if ok else 'no'} |")
    print(f"\ncounts seen on the page before the judge announced them: {before} of {len(votes)}; the page drawn "
          f"{len(draws)} times, median {sorted(draws)[len(draws) // 2] * 1000:.0f} ms a draw")
    t0 = time.perf_counter()
    at.button(key="live_finish").click().run()
    at.button(key="live_finish_yes").click().run()
    spec = at.session_state["game_spec"]
    at.sidebar.radio(key="view").set_value("Vote audit").run()
    print(f"finished and opened for review in {time.perf_counter() - t0:.1f} s: video {Path(spec.video).name} "
          f"(in the game's folder: {Path(spec.video).parent == folder}), the vote audit drawn "
          f"{'without' if not at.exception else 'WITH'} an exception, {len(at.error)} error(s) on it")


if __name__ == "__main__":
    main()
