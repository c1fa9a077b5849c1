"""Varied clips: short day votes, each with its own table, room light, players and idle hands, drawn from a seed.

The named clips share one cast, one camera and mostly one green cloth, so a vision rule tuned on them can
learn those instead of hands.  A varied clip draws from its seed a table surface (felts, woods, black
cloth, stripes, check), a room light (level, lamp share, colour, the sensor noise a dim room brings), a
cast (skin from very light to very dark, hand size and proportions, sleeves, watches), a vote round with
a few early, late, lifted, wrong-form, double and missing hands, and hands that are on the table without
voting: idle at the edge, fidgeting, passing through a zone.  Those are in the truth's `x_other_hands`
(spec §3 allows `x_` extensions), never in `hands`, so the scorers do not count them.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from .build import _audio, encode_segment, join, pad_to_gops, write_set
from .game import OtherHand, Voter, Window, vote_window
from .hands import ARM, HandState
from .motion import FPS, Track
from .scenarios import Conditions, Stage, seats_json, tracks_for
from .scene import TABLE_CLOTHS, hand_extent, polygon_of

SALT = 20  # keeps the varied clips' draws apart from other users of the same seed numbers
LIVING = tuple(range(1, 11))
RENDER = 500  # clip seed + RENDER: the seed of its hands' motion (scenarios.render_window)
IDLE_POSES = ("relaxed", "fist", "open_palm")
MAX_REST_OVERLAP = 0.05  # an idle hand's outline may touch a zone's edge, no more
MIN_PASS_OVERLAP = 0.3  # a passing hand really crosses its seat's zone
MAX_REACH = 1.2  # how far past the arm's length a hand may reach (the two-bone arm stretches its forearm)
# every surface once in any run of len(TABLE_CLOTHS) consecutive seeds, in an order that mixes the kinds
SURFACE_ORDER = [str(c) for c in np.random.default_rng(SALT).permutation(list(TABLE_CLOTHS))]


def varied_conditions(seed: int, size: tuple[int, int] = (1280, 720)) -> Conditions:
    """The picture of varied clip `seed`: surface, light, cast and camera damage."""
    rng = np.random.default_rng([SALT, seed])
    brightness = float(rng.uniform(0.5, 1.15))
    noise = round(max(0.0, (1.1 - brightness) * 8.0) + float(rng.uniform(0.0, 2.0)), 1)  # dim rooms: more gain
    return Conditions(size=size, distance=float(rng.uniform(1.0, 1.2)), brightness=brightness, noise=noise,
                      blur=float(rng.choice([0.0, 0.0, 0.6, 1.0])), crf=int(rng.choice([23, 26, 28, 30])),
                      clutter=bool(rng.random() < 0.35), cloth=SURFACE_ORDER[seed % len(SURFACE_ORDER)],
                      seed=int(rng.integers(1_000_000)), looks=int(rng.integers(1_000_000)),
                      ambient=float(rng.uniform(0.28, 0.5)), warmth=float(rng.uniform(-0.3, 0.4)))


def vote_script(rng: np.random.Generator, candidates: int) -> tuple[list[int], dict[int, list[Voter]], dict]:
    """Candidates, who votes how for whom (game.vote_window's voters) and the expected findings' parts.

    At most one seat each votes early, late, lifts early, votes with a palm or a finger, or votes twice;
    one or two may place no hand.  Redrawn until one candidate leads (a tie would need a revote)."""
    while True:
        cands = [int(c) for c in rng.choice(LIVING, candidates, replace=False)]
        seats = [int(s) for s in rng.permutation(LIVING)]
        special: dict[int, str] = {}
        for how, p in (("early", 0.5), ("late", 0.5), ("lifted", 0.5), ("palm", 0.2), ("finger", 0.15),
                       ("double", 0.3), ("missing", 0.4), ("missing", 0.15)):
            if rng.random() < p and not (how == "double" and candidates < 2):
                special[seats[len(special)]] = how
        votes: dict[int, list[Voter]] = {c: [] for c in cands}
        for seat in LIVING:
            how = special.get(seat, "ok")
            if how == "missing":
                continue
            first = int(rng.integers(candidates - 1 if how == "double" else candidates))
            votes[cands[first]].append((seat, "ok" if how == "double" else how))
            if how == "double":
                votes[cands[int(rng.integers(first + 1, candidates))]].append((seat, "ok"))
        counts = judge_counts(cands, votes)
        top = max(counts.values())
        if sum(v == top for v in counts.values()) == 1:
            return cands, votes, counts


def judge_counts(cands: list[int], votes: dict[int, list[Voter]]) -> dict[int, int]:
    """What a careful judge announces: the hands in time, a voter's second hand not again; the last
    candidate gets the living players minus the others' votes (rfm 4.4.10)."""
    voted: set[int] = set()
    counts = {}
    for c in cands[:-1]:
        in_time = [s for s, how in votes[c] if how != "late"]
        counts[c] = len([s for s in in_time if s not in voted])
        voted.update(in_time)
    counts[cands[-1]] = len(LIVING) - sum(counts.values())
    return counts


def script_findings(cands: list[int], votes: dict[int, list[Voter]], counts: dict[int, int],
                    announced: dict[int, int]) -> list[dict]:
    """The expected findings (spec §4 identities) of the script: each special voter's, missing seats, and a
    count_mismatch where the judge announced another count."""
    kinds = {"early": "early_hand", "late": "late_vote", "lifted": "lifted_early", "palm": "wrong_form",
             "finger": "wrong_form"}
    found, seen = [], set()
    for c in cands:
        for seat, how in votes[c]:
            if how in kinds:
                found.append((kinds[how], seat, c))
            if seat in seen:
                found.append(("double_vote", seat, c))
            seen.add(seat)
        if announced[c] != counts[c]:
            found.append(("count_mismatch", None, c))
    found += [("no_vote", s, None) for s in LIVING if s not in seen]
    return [{"kind": k, "seat": s, "day": 1, "round": 1, "candidate": c} for k, s, c in found]


def varied_window(seed: int, stage: Stage, candidates: int | None = None,
                  prefix: str = "varied_") -> tuple[list, Window]:
    """The protocol items and the window (named `prefix` + seed) of varied clip `seed`: one vote round, ten
    seats, its other hands placed where they are seen on `stage`."""
    rng = np.random.default_rng([SALT, seed, 1])
    k = candidates or int(rng.integers(2, 4))
    cands, votes, counts = vote_script(rng, k)
    announced = dict(counts)
    if k > 1 and rng.random() < 0.25:  # the judge miscounts one candidate; the last one's count follows
        c = cands[int(rng.integers(k - 1))]
        delta = 1 if counts[c] == 0 or rng.random() < 0.5 else -1
        miscount = {**counts, c: counts[c] + delta, cands[-1]: counts[cands[-1]] - delta}
        top = max(miscount.values())
        if miscount[cands[-1]] >= 0 and sum(v == top for v in miscount.values()) == 1:  # no tie: no revote
            announced = miscount
    poses = {s: ("fist" if rng.random() < 0.35 else "thumb_up_fist") for s in LIVING}
    name = f"{prefix}{seed:03d}"
    window = vote_window(name, f"Varied vote {seed}", 1, LIVING,
                         [{"round": 1, "candidates": cands, "counts": announced, "votes": votes}], poses,
                         float(rng.integers(10)) / 10)
    window.findings = script_findings(cands, votes, counts, announced)
    window = pad_to_gops(window)
    window.others = other_hands(window, stage, rng, RENDER + seed)
    nominators = [int(s) for s in rng.choice([s for s in LIVING if s not in cands], k, replace=False)]
    leader = max(announced, key=announced.get)
    items = [{"type": "phase", "phase": "night", "number": 0}, {"type": "phase", "phase": "day", "number": 1}]
    items += [{"type": "nomination", "day": 1, "by": b, "target": c} for b, c in zip(nominators, cands, strict=True)]
    items += [window, {"type": "elimination", "seat": leader, "cause": "vote"}]
    return items, window


def other_hands(window: Window, stage: Stage, rng: np.random.Generator, seed: int) -> list[OtherHand]:
    """Idle, fidgeting and passing hands on tracks free of votes, then every usual rest seen on the table;
    `seed` is the one the window is rendered with (fidgets are drawn from it)."""
    zones = {int(n): np.array(s["zone"], np.float32) for n, s in seats_json(stage)["seats"].items()}
    end = window.duration
    busy: dict[tuple[int, bool], list[tuple[float, float]]] = {}
    for h in window.hands:
        busy.setdefault((h.seat, True), []).append((h.on - 0.6, h.off + 0.6))
    planted: list[OtherHand] = []

    def free(key: tuple[int, bool], a: float, b: float) -> bool:
        return all(b <= x or a >= y for x, y in busy.get(key, []))

    def plant(o: OtherHand, limit: float, own_min: float = 0.0) -> bool:
        """Keep `o` if its outline stays out of every zone at rest (and crosses its own when passing)."""
        trial = replace(window, others=[o])
        track = tracks_for(trial, stage.seats, seed)[(o.seat, o.right)]
        rest, own = outline_overlaps(track, o, stage, zones)
        if rest > limit or own < own_min:
            return False
        planted.append(replace(o, overlap=own if o.kind == "passing" else rest))
        busy.setdefault((o.seat, o.right), []).append((o.on - 0.6, o.off + 0.6))
        return True

    def idle() -> bool:  # resting at the table edge the whole clip
        seat, right = int(rng.choice(LIVING)), bool(rng.random() < 0.25)
        spot = (float(rng.uniform(-0.02, 0.08)), float(rng.uniform(0.18, 0.28)) * (1 if right else -1))
        return free((seat, right), 0.0, end) and plant(
            OtherHand(seat, right, "idle", 0.0, end, IDLE_POSES[int(rng.integers(3))], spot), MAX_REST_OVERLAP)

    def fidget() -> bool:  # a few seconds of shifting and changing grip near the edge
        seat, right = int(rng.choice(LIVING)), bool(rng.random() < 0.4)
        a = round(float(rng.uniform(0.5, max(0.6, end - 6.0))) * FPS) / FPS
        b = min(end, round((a + float(rng.uniform(3.0, 8.0))) * FPS) / FPS)
        spot = (float(rng.uniform(0.0, 0.07)), float(rng.uniform(0.19, 0.27)) * (1 if right else -1))
        return free((seat, right), a, b) and plant(OtherHand(seat, right, "fidget", a, b, "relaxed", spot),
                                                   MAX_REST_OVERLAP)

    def passing() -> bool:  # out over the zone to something beyond it and back, during the vote
        seat, right = int(rng.choice(LIVING)), bool(rng.random() < 0.5)
        travel, hold = float(rng.uniform(0.3, 0.55)), float(rng.choice([0.0, rng.uniform(0.2, 0.6)]))
        a = (int(rng.uniform(1.0, end - 2.5) * FPS) + 0.5) / FPS  # half-frame times: no frame shows it still
        b = round(a + 2 * travel + hold, 2)
        spot = (float(rng.uniform(0.15, 0.5)), float(rng.uniform(-0.35, 0.4)))
        far = stage.seats[seat].on_table("relaxed", *spot, right, True).wrist - stage.seats[seat].shoulder(right)
        reach = float(np.linalg.norm(far)) / (sum(ARM) * stage.seats[seat].scale)
        return reach <= MAX_REACH and free((seat, right), a, b) and plant(
            OtherHand(seat, right, "passing", a, b, "relaxed", spot, hold), 0.1, MIN_PASS_OVERLAP)

    for draw, low, high in ((idle, 2, 4), (fidget, 1, 2), (passing, 2, 3)):
        wanted, tries = int(rng.integers(low, high + 1)), 0
        while wanted and tries < 40:
            wanted -= draw()
            tries += 1
    trial = replace(window, others=planted)
    tracks = tracks_for(trial, stage.seats, seed)
    usual = [usual_rest_spans(key, track, stage, zones, end) for key, track in sorted(tracks.items())]
    return sorted(planted + [o for spans in usual for o in spans], key=lambda o: (o.on, o.seat, o.right))


def usual_rest_spans(key: tuple[int, bool], track: Track, stage: Stage, zones: dict[int, np.ndarray],
                     end: float) -> list[OtherHand]:
    """The spans where a hand is at its usual rest on the table edge (not in the lap, out of view)."""
    if track.base.wrist[2] < 0:
        return []
    frames = int(round(end * FPS))
    at_base = [track.at(i / FPS)[0] is track.base for i in range(frames)] + [False]
    spans, start = [], None
    for i, flag in enumerate(at_base):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            spans.append((start, i))
            start = None
    share = max((outline_share(track.base, z, stage) for z in zones.values()), default=0.0)
    return [OtherHand(key[0], key[1], "idle", a / FPS, b / FPS, "relaxed", None, 0.0, share) for a, b in spans
            if b - a >= 3]


def outline_overlaps(track: Track, o: OtherHand, stage: Stage, zones: dict[int, np.ndarray]) -> tuple[float, float]:
    """(the largest share of the hand's outline in any zone while it holds still, the largest share in its
    own seat's zone on any frame) over [on, off) of the other hand."""
    rest, own, cache = 0.0, 0.0, {}
    for i in range(int(np.ceil(o.on * FPS - 1e-6)), int(np.ceil(o.off * FPS - 1e-6))):
        state, key = track.at(i / FPS)
        if key is not None and key in cache:
            continue
        shares = {n: outline_share(state, z, stage) for n, z in zones.items()}
        own = max(own, shares[o.seat])
        if key is not None:
            cache[key] = True
            rest = max(rest, max(shares.values()))
    return rest, own


def outline_share(state: HandState, zone: np.ndarray, stage: Stage) -> float:
    """Share of the hand's projected outline (convex hull) that lies inside a zone polygon."""
    hull = np.array(polygon_of(hand_extent([state]), stage.scene.camera), np.float32)
    area = float(cv2.contourArea(hull))
    if area <= 0:
        return 0.0
    inter, _ = cv2.intersectConvexConvex(hull, cv2.convexHull(zone).reshape(-1, 2))
    return float(inter) / area


def build_varied(out_dir: Path, count: int, first: int = 1, size: tuple[int, int] = (1280, 720),
                 candidates: int | None = None, log: Callable[[str], None] = print,
                 prefix: str = "varied_") -> list[Path]:
    """Render varied clips `first` .. `first + count - 1` into out_dir as spec file sets; returns their stems."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stems = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(first, first + count):
            cond = varied_conditions(seed, size)
            stage = Stage(cond)
            items, window = varied_window(seed, stage, candidates, prefix)
            name = window.name
            log(f"rendering {name}: {cond.cloth}, light {cond.brightness:.2f}, noise {cond.noise}, crf {cond.crf}")
            seg = encode_segment(stage, window, Path(tmp) / f"{name}.mp4", RENDER + seed, log)
            zero = {name: 0.0}
            join([(seg.path, 1)], out_dir / f"{name}.mp4", _audio([window], zero, window.duration, seed))
            write_set(out_dir, name, f"{name}.mp4", items, [window], zero, seats_json(stage), f"varied/{name}")
            stems.append(out_dir / name)
    return stems
