"""One short run of vision.night on the rendered night clip: the shot is found and aimed at the right seat."""

from __future__ import annotations

import json
from pathlib import Path

CLIP = Path(__file__).resolve().parents[2] / "sample_videos" / "clips" / "night1_kill_checks"


def test_rfm_4_5_4_shot_found_on_video_and_aimed_at_the_counted_seat() -> None:
    assert CLIP.with_suffix(".mp4").exists(), f"{CLIP}.mp4 is missing: render it with `python3 -m sample_videos`."
    from contract.seats import load_seat_map
    from review.audit.night import shooting_counts
    from vision.night import observe_night

    truth = json.loads(CLIP.with_suffix(".truth.json").read_text(encoding="utf-8"))
    protocol = json.loads(CLIP.with_suffix(".protocol.json").read_text(encoding="utf-8"))
    shot = next(r for r in truth["raised"] if r["seat"] == 2)
    span = (shot["up"] - 1.5, shot["down"] + 0.5)  # from before the raise: resting hands are told from raised ones
    night = observe_night(CLIP.with_suffix(".mp4"), load_seat_map(CLIP.with_suffix(".seats.json")), [span], only=[2])
    fires = [f for r in night.seen.raised if r.seat == 2 for f in r.shots]
    assert fires, "no shot found for seat 2"
    fire = min(fires, key=lambda f: abs(f - shot["fire"]))
    assert abs(fire - shot["fire"]) <= 2 / truth["fps"]
    calls = shooting_counts(protocol, cues=truth["x_cues"])[1]
    assert calls.target_of(fire)[0] == calls.target_of(shot["fire"])[0]
