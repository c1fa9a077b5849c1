"""The sample-video renderer: truth that matches its own pixels, committed clips that play, determinism.

Rendering tests use a small picture (640x360) and a short made-up vote so they stay within a few
seconds on two cores; the committed clips are only opened and probed, never re-rendered.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import av
import cv2
import numpy as np
import pytest

from review.game.protocol import load_protocol, validate
from sample_videos.build import pad_to_gops, windows_of
from sample_videos.game import CALL_LEAD, Window, protocol, sample_game, truth, vote_window
from sample_videos.scenarios import Conditions, Stage, render_window, seats_json

ROOT = Path(__file__).resolve().parents[2] / "sample_videos"
SMALL = Conditions(size=(640, 360), seed=3)
LIVING = (1, 4, 5, 8, 9)


def small_vote() -> Window:
    """Two candidates, five living seats: an ordinary hand, an early one, a lifted one, a late one, a palm."""
    return vote_window("t", "test vote", 2, LIVING, [
        {"round": 1, "candidates": [5, 9], "counts": {5: 3, 9: 2},
         "votes": {5: [(1, "ok"), (4, "early"), (8, "lifted")], 9: [(5, "late"), (9, "palm")]}}],
        {1: "thumb_up_fist", 4: "fist", 5: "thumb_up_fist", 8: "thumb_up_fist", 9: "thumb_up_fist"})


def resting_intervals(window: Window, stage: Stage, inside: float = 0.95) -> dict[int, list[tuple[float, float]]]:
    """Per seat, the runs of frames where the rendered hand lies in its zone (this share of its pixels)
    and holds still."""
    zones = {int(k): np.array(v["zone"], np.float32) for k, v in seats_json(stage)["seats"].items()}
    w, h = stage.cond.size
    samples: dict[int, list[tuple[float, np.ndarray, int]]] = {n: [] for n in window.living}
    for _, masks in render_window(stage, window, seed=1, masks=True):
        for n in window.living:
            x0, y0, patch = masks.get(n, (0, 0, np.zeros((0, 0), bool)))
            ys, xs = np.nonzero(patch)
            if len(xs) == 0:
                samples[n].append((0.0, np.zeros(2), 0))
                continue
            zone_img = np.zeros((h, w), np.uint8)
            cv2.fillPoly(zone_img, [zones[n].astype(np.int32)], 1)
            yy, xx = np.clip(ys + y0, 0, h - 1), np.clip(xs + x0, 0, w - 1)
            share = float(zone_img[yy, xx].mean())
            samples[n].append((share, np.array([xs.mean() + x0, ys.mean() + y0]), len(xs)))
    return {n: _runs(rows, inside) for n, rows in samples.items()}


def _still(rows: list[tuple[float, np.ndarray, int]], i: int, j: int) -> bool:
    """Frames i and j show the same hand picture up to the renderer's one-pixel jitter."""
    if not (0 <= j < len(rows)) or rows[i][2] == 0 or rows[j][2] == 0:
        return False
    moved = float(np.abs(rows[i][1] - rows[j][1]).max())
    return moved <= 1.01 and abs(rows[i][2] - rows[j][2]) <= 0.04 * rows[i][2]


def _runs(rows: list[tuple[float, np.ndarray, int]], inside: float) -> list[tuple[float, float]]:
    flags = [rows[i][0] >= inside and (_still(rows, i, i - 1) or _still(rows, i, i + 1)) for i in range(len(rows))]
    runs, start = [], None
    for i, f in enumerate(flags + [False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            runs.append((round(start / 25, 2), round(i / 25, 2)))
            start = None
    return runs


@pytest.mark.slow
def test_truth_intervals_are_where_the_rendered_hands_rest_in_their_zones():
    window = small_vote()
    stage = Stage(SMALL)
    derived = resting_intervals(window, stage)
    expected: dict[int, list[tuple[float, float]]] = {n: [] for n in window.living}
    for hand in truth([window], {"t": 0.0})["hands"]:
        expected[hand["seat"]].append((hand["on"], hand["off"]))
    assert derived == expected


def test_truth_findings_follow_from_the_hands_and_the_protocol_times():
    """Every expected day-vote finding of the sample game is what its hands and vote times imply (spec §1, §4)."""
    items = sample_game()
    for w in windows_of(items):
        if w.night:
            continue
        data = protocol(items, {w.name: 0.0}, "x.mp4", "t")
        votes = [e for e in data["events"] if e["type"] in ("vote", "lift_vote") and "t" in e]
        tr = truth([w], {w.name: 0.0})
        expected = {(f["kind"], f["day"], f["round"], f["candidate"], f["seat"]) for f in tr["expected_findings"]}
        assert derive_findings(votes, tr["hands"], w.living) == expected, w.name


def derive_findings(votes: list[dict], hands: list[dict], living: tuple[int, ...]) -> set[tuple]:
    """The spec's definitions applied to truth hands; each hand belongs to the call it lands after."""
    calls = sorted(votes, key=lambda v: v["t"])
    mine: dict[int, list[dict]] = {i: [] for i in range(len(calls))}
    for h in hands:
        i = max(i for i, v in enumerate(calls) if v["t"] - CALL_LEAD <= h["on"])
        mine[i].append(h)
    found: set[tuple] = set()
    rounds: dict[tuple[int, int], list[int]] = {}
    for i, v in enumerate(calls):
        rounds.setdefault((v["day"], v.get("round", 0), v["type"]), []).append(i)
    for (day, rnd, kind), idx in rounds.items():
        seats_voted: dict[int, list[int]] = {}
        placed: set[int] = set()  # a late hand is placed, though not counted: not a no_vote
        counted: dict[int, int] = {}
        for i in idx:
            v = calls[i]
            cand = v.get("candidate", 0)
            counted[i] = 0
            for h in mine[i]:
                ident = (day, rnd, cand, h["seat"])
                placed.add(h["seat"])
                if h["on"] >= v["cutoff"]:
                    found.add(("late_vote",) + ident)
                    continue
                if h["on"] < v["t"] <= h["off"]:
                    found.add(("early_hand",) + ident)
                if h["off"] < v["announced"]:
                    found.add(("lifted_early",) + ident)
                if h["pose"] not in ("fist", "thumb_up_fist"):
                    found.add(("wrong_form",) + ident)
                seats_voted.setdefault(h["seat"], []).append(cand)
                counted[i] += len(seats_voted[h["seat"]]) == 1  # a second hand is not a second vote
        if kind == "vote":
            last = idx[-1]
            counted[last] = len(living) - sum(c for i, c in counted.items() if i != last)  # rfm 4.4.10
            for seat in living:
                if seat not in placed:
                    found.add(("no_vote", day, rnd, None, seat))
            for seat, cands in seats_voted.items():
                if len(cands) > 1:
                    found.add(("double_vote", day, rnd, cands[-1], seat))
        for i in idx:
            if calls[i]["count"] != counted[i]:
                found.add(("count_mismatch", day, rnd, calls[i].get("candidate", 0), None))
    return found


def test_rendering_is_deterministic_from_the_seed():
    window = small_vote()
    window.duration = 1.2  # the first candidate's call: hands already moving
    digests = []
    for _ in range(2):
        stage = Stage(SMALL)
        h = hashlib.sha256()
        for frame, _ in render_window(stage, window, seed=4):
            h.update(frame.tobytes())
        digests.append(h.hexdigest())
    assert digests[0] == digests[1]


def committed_sets() -> list[Path]:
    found = sorted((ROOT / "clips").glob("*.truth.json")) + sorted((ROOT / "game").glob("*.truth.json"))
    return found or [Path("(none rendered)")]


@pytest.mark.parametrize("truth_path", committed_sets(), ids=lambda p: p.name)
def test_committed_clip_decodes_as_h264_at_its_stated_size_fps_and_duration(truth_path: Path):
    if not truth_path.exists():
        pytest.fail("sample_videos/ holds no committed clips: render them with `python3 -m sample_videos`.")
    name = truth_path.name[: -len(".truth.json")]
    folder = truth_path.parent
    tr = json.loads(truth_path.read_text(encoding="utf-8"))
    seats = json.loads((folder / f"{name}.seats.json").read_text(encoding="utf-8"))
    data = json.loads((folder / f"{name}.protocol.json").read_text(encoding="utf-8"))
    assert data["video"]["path"] == f"{name}.mp4"
    with av.open(str(folder / f"{name}.mp4")) as c:
        v = c.streams.video[0]
        assert v.codec_context.name == "h264"
        assert v.codec_context.pix_fmt == "yuv420p"
        assert (v.codec_context.width, v.codec_context.height) == tuple(seats["frame_size"])
        assert v.average_rate == 25
        assert [a.codec_context.name for a in c.streams.audio] == ["aac"]
        frames = v.frames
        first = next(c.decode(v))
        assert first.to_ndarray(format="bgr24").shape[:2] == (seats["frame_size"][1], seats["frame_size"][0])
    end = max(w["end"] for w in tr["x_windows"])
    assert frames == round(end * 25)
    assert all(h["off"] <= end and h["on"] < h["off"] for h in tr["hands"])


def test_committed_json_is_what_the_script_generates_now():
    """Regenerating from the seeds gives the committed protocols and truths byte for byte (as JSON)."""
    path = ROOT / "game" / "sample_game.protocol.json"
    if not path.exists():
        pytest.fail(f"{path} is missing: render the sample game with `python3 -m sample_videos`.")
    items = sample_game()
    windows = [pad_to_gops(w) for w in windows_of(items)]
    offsets, clock = {}, 0.0
    for w in windows:
        offsets[w.name] = round(clock, 2)
        clock += w.duration
    committed = json.loads(path.read_text(encoding="utf-8"))
    assert committed == protocol(items, offsets, "sample_game.mp4", "sample-game")
    committed_truth = json.loads((ROOT / "game" / "sample_game.truth.json").read_text(encoding="utf-8"))
    assert committed_truth == truth(windows, offsets)


def test_sample_game_protocols_are_valid_rfm_games():
    paths = sorted(ROOT.glob("*/*.protocol.json"))
    assert paths, "sample_videos/ holds no committed protocols: render them with `python3 -m sample_videos`."
    for path in paths:
        problems = validate(load_protocol(path))
        assert problems == [], (path.name, problems)


@pytest.mark.slow
def test_composite_mode_keeps_the_truth_with_real_hand_photos():
    """The real cut-outs replace the procedural voting hands without moving a single truth frame."""
    from sample_videos.composite import ASSETS, Cutouts

    if not (ASSETS / "index.json").exists():
        pytest.skip(f"{ASSETS} is absent: the real hand cut-outs live outside the repository")
    window = small_vote()
    # photos are cut wider than a hand (wrist, sleeve): most of the picture, not all, lies in the zone
    derived = resting_intervals(window, Stage(SMALL, Cutouts()), inside=0.6)
    expected: dict[int, list[tuple[float, float]]] = {n: [] for n in window.living}
    for hand in truth([window], {"t": 0.0})["hands"]:
        expected[hand["seat"]].append((hand["on"], hand["off"]))
    assert derived == expected


def test_judge_voice_starts_exactly_at_its_cue_time():
    from sample_videos import voice
    from sample_videos.writer import AUDIO_RATE

    if voice.available() is not None:
        pytest.skip(voice.available())
    track = voice.mix(3.0, [voice.Cue("stop", 1.234, "Стоп")], [], seed=1)
    loud = np.nonzero(np.abs(track) > 0.01)[0]
    assert abs(loud[0] / AUDIO_RATE - 1.234) < 0.01


@pytest.mark.slow
def test_planted_night_hands_are_drawn_in_their_seats_raise_zones_while_the_truth_says_they_are_up():
    """The stray hands planted at night (a red seat faking a shot, a hand up out of turn) are where the
    seat map's raise zone can see them, for the whole of the truth's [up, down), and back in the night
    pose (off that place) before it: what vision and the audit are measured against is really on video."""
    windows = {w.name: w for w in windows_of(sample_game())}
    stage = Stage(SMALL)
    zones = {int(k): np.array(v["raise"], np.float32) for k, v in seats_json(stage)["seats"].items()}
    w, h = stage.cond.size
    for name, seat in (("night2_miss_checks", 5), ("night3_kill", 1)):
        window = windows[name]
        (stray,) = [r for r in window.raises if r.seat == seat]
        zone = np.zeros((h, w), np.uint8)
        cv2.fillPoly(zone, [zones[seat].astype(np.int32)], 1)
        before, during = [], []
        for i, (_, masks) in enumerate(render_window(stage, window, seed=1, masks=True)):
            t = i / 25
            if t >= stray.down:
                break
            x0, y0, patch = masks[seat]
            ys, xs = np.nonzero(patch)
            centre = (xs.mean() + x0, ys.mean() + y0)
            share = float(zone[np.clip(ys + y0, 0, h - 1), np.clip(xs + x0, 0, w - 1)].mean())
            (during if t >= stray.up else before).append((share, centre))
        assert min(s for s, _ in during) >= 0.95, name
        far = np.hypot(*np.subtract(during[-1][1], before[0][1]))
        assert far > 10, name  # the night pose's hand is elsewhere in the picture
