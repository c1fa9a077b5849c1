"""Train the thumb reader (vision/thumb.py) on the project's renders and on composites of real hand
cut-outs, and measure it on what it never saw.

    python3 bench/train_thumb.py [--configs 100] [--varied-configs N] [--out vision/models] [--cache renders.pkl]
                                 [--varied-cache varied.pkl] [--photos ../extra_hands]
    python3 bench/train_thumb.py --measure DIR [--photos ../extra_hands]  # measure the reader in DIR, train nothing

Training pictures:
- `--configs` renders of a vote where all ten players put a fist on the table, each with the thumb up or
  not at random, under random players, light, noise, blur, cloth, props and JPEG damage, half of them
  from the usual tripod spot, the rest from up to 1.35 times as far (seeds 1000+; the bundled game and its
  clips use other seeds). Every seat's landmarks come from the audit's own seat detector.
- with `--varied-configs`, more such renders under the varied clips' conditions (sample_videos/varied.py: surfaces
  from felts to black cloth and check, the room's light and its colour, casts with skin from very light to very
  dark and hands of every size; seeds 10000+, far from the varied clips the benches measure on). The shipped
  reader was trained without them (docs/measurements.md, "Vision layer", says why).
- composites of the training half of the real cut-outs in ../shared/assets/hands (bench/thumb_composites.py:
  split by file, pasted on procedural tables, each thumb cut-out both upright and turned half a turn),
  at the cut-outs' own landmarks moved with them and at the seat detector's.
- with `--photos DIR`, the fists (plain and thumb-up) of the training half of the real hand photos that
  bench/thumb_photos.py reads (its index, its split by source), each at the three tripod sizes of that bench,
  where a look at the seat's crop finds it. The shipped reader was trained without them.
Each hand gives four patches, shifted and scaled a little, so that the reader does not depend on where
MediaPipe puts the palm.

Measured through the reader as shipped (its decision averages three patch scales), per frame, and written
into the model card:
- composites of the held-out cut-outs, landmarks from MediaPipe (IMAGE mode on a 256-px crop, as a seat's);
- the last fifth of each kind of render (held out by seed);
- the sample game and the stress clips: per frame and per vote hand (the majority of its frames);
- with `--photos`, the fists of the photos' held-out half, at the same tripod sizes;
- the validation clips in ../shared/validation (va11, mafclub thumbs only, and every day clip's fists),
  measured only, never trained on: their hands are made of the same cut-outs, so the figures are given
  for the training-half and the held-out cut-outs apart.
THUMB_SURE and KNOWN_SHARE are derived from the held-out cut-outs and renders (`thresholds`), never from
validation; the card records them and vision/thumb.py must carry the same values.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.thumb_composites import (  # noqa: E402
    ASSETS,
    FIST,
    SPLIT_RULE,
    THUMB_DOWN,
    Cutout,
    composite,
    labelled,
    load,
    split,
)
from bench.thumb_photos import load_index, photo_hands, source_of, tripod_views  # noqa: E402
from bench.thumb_photos import split as photo_split  # noqa: E402
from contract.seats import SeatMap, load_seat_map, seat_map_from_json  # noqa: E402
from sample_videos.scenarios import Conditions, Stage, vote_still  # noqa: E402
from sample_videos.varied import varied_conditions  # noqa: E402
from vision.backend import MediaPipeBackend  # noqa: E402
from vision.night_detect import NightDetector  # noqa: E402
from vision.pose import classify  # noqa: E402
from vision.thumb import KNOWN_SHARE, THUMB_SURE, ThumbReader, features, save_model  # noqa: E402
from vision.video import open_video  # noqa: E402

FISTS = ("fist", "thumb_up_fist")
AUGMENT = [(3.0, (0.0, 0.0)), (2.6, (0.1, 0.0)), (3.4, (-0.1, 0.1)), (3.0, (0.0, -0.15))]  # (scales, shift)
C, GAMMA = 3.0, 0.5  # RBF machine; chosen on the held-out renders (linear: 0.89, gamma 1-2 overfits)
COMPOSITES = 40  # composites per training cut-out and orientation (seeds 7000+)
HELD_COMPOSITES = 24  # per held-out cut-out and orientation (seeds 9000+)
VARIED_SEEDS = 10_000  # the varied stills' seeds start here
SURE_RIGHT = 0.995  # a sure reading is right at least this often on every held-out set (none wrong at their sizes)
EVAL_CLIPS = ["game/sample_game", "clips/stress_small_720p", "clips/stress_dark", "clips/stress_noisy",
              "clips/stress_compressed", "clips/stress_blur_shake", "clips/stress_clutter"]
VALIDATION = ROOT.parent / "shared" / "validation" / "clips"
PHOTO_LABELS = {"thumb_up": 1, "fist": 0}  # the photos' gestures the reader learns (a thumb down is no vote pose)
Still = tuple[bytes, dict[int, str], dict, dict[int, np.ndarray]]  # JPEG, poses, seat map, each seat's landmarks


def render_config(seed: int) -> Still:
    """One still of a vote with every seat's fist on the table (as JPEG, the damage it is given), the poses
    it shows, its seat map (spec §2 JSON) and the landmarks the seat detector finds on it."""
    rng = np.random.default_rng(1000 + seed)
    cond = Conditions(size=(1920, 1080) if rng.random() < 0.4 else (1280, 720),
                      distance=1.0 if rng.random() < 0.5 else float(rng.uniform(1.0, 1.35)), brightness=float(rng.uniform(0.45, 1.1)),
                      noise=float(rng.choice([0, 0, 3, 6, 10])), blur=float(rng.choice([0, 0, 0.8, 1.5])),
                      clutter=bool(rng.random() < 0.3), cloth=str(rng.choice(["green", "green", "wood", "blue", "grey"])),
                      seed=2000 + seed)
    return _fists_still(cond, rng, 3000 + seed)


def _fists_still(cond: Conditions, rng: np.random.Generator, seed: int) -> Still:
    """Every seat's fist on the table, thumb up or not at random, filmed under `cond` and JPEG-damaged."""
    poses = {n: FISTS[int(rng.random() < 0.5)] for n in range(1, 11)}
    frame, seats = vote_still(Stage(cond), poses, seed)
    quality = int(rng.integers(20, 90))
    jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()
    return jpeg, poses, seats, still_hands(_frame(jpeg), seat_map_from_json(seats))


def varied_config(seed: int) -> Still:
    """One still as render_config, under a varied clip's picture (sample_videos/varied.py: table surfaces from
    felts to black cloth and check, room light and its colour, casts with skin from very light to very dark and
    hands of every size), seeds VARIED_SEEDS on, far from the varied clips the benches use (1, 2, ...)."""
    rng = np.random.default_rng(5000 + seed)
    cond = varied_conditions(VARIED_SEEDS + seed, (1920, 1080) if rng.random() < 0.4 else (1280, 720))
    return _fists_still(cond, rng, 6000 + seed)


def varied_words(count: int) -> str:
    """The model card's words for the varied renders trained on (none: nothing)."""
    if not count:
        return ""
    return (f", and {count} under the varied clips' conditions, sample_videos/varied.py, seeds {VARIED_SEEDS}-"
            f"{VARIED_SEEDS + count - 1}")


def still_hands(frame: np.ndarray, seat_map: SeatMap) -> dict[int, np.ndarray]:
    """Each seat's hand landmarks (frame pixels) as the audit gets them: the night detector's own VIDEO-mode
    streams on 25 %-margin crops, given the still three times (tracking settles by then)."""
    with NightDetector(seat_map) as detector:
        for k in range(3):
            found = detector.process(k, k * 0.04, frame).hands
    return {n: hand.landmarks for n, hand in found.items()}


def renders(seeds: range, cache: Path | None, make: Callable[[int], Still] = render_config) -> list[Still]:
    """The renders of these seeds, from the cache where they were made before (rendering is the slow part;
    the cache is written every ten renders, so an interrupted run loses little)."""
    stored: dict = {}
    if cache is not None and cache.exists():
        stored = pickle.loads(cache.read_bytes())
    missing = [seed for seed in seeds if seed not in stored]
    for k, seed in enumerate(missing):
        stored[seed] = make(seed)
        print(f"  render {k + 1}/{len(missing)}", file=sys.stderr, flush=True)
        if cache is not None and (k % 10 == 9 or k == len(missing) - 1):
            cache.write_bytes(pickle.dumps(stored))
    return [stored[seed] for seed in seeds]


def _frame(jpeg: bytes) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def _thumb_up(pose: str) -> int:
    return int(pose == "thumb_up_fist")


def render_patches(stills: list[Still]) -> tuple[np.ndarray, np.ndarray]:
    """Training patches of the renders: four shifted and scaled ones per hand found (features, 1 = thumb up)."""
    xs, ys = [], []
    for jpeg, poses, _, hands in stills:
        frame = _frame(jpeg)
        for seat, points in hands.items():
            xs += [features(frame, points, scales, shift) for scales, shift in AUGMENT]
            ys += [_thumb_up(poses[seat])] * len(AUGMENT)
    return np.array(xs, np.float32), np.array(ys, np.int32)


def composites(cutouts: list[Cutout], count: int, seed: int) -> Iterator[tuple[np.ndarray, np.ndarray, int, bool]]:
    """`count` composites of each cut-out in each of its orientations (a plain fist has one): (frame,
    landmarks, label, whether it shows a vote pose as photographed: a thumb-up or a plain fist)."""
    rng = np.random.default_rng(seed)
    for cut in cutouts:
        for turned in (False,) if cut.label == FIST else (False, True):
            for _ in range(count):
                yield (*composite(cut, rng, turned), cut.label != THUMB_DOWN and not turned)


def composite_patches(cutouts: list[Cutout]) -> tuple[np.ndarray, np.ndarray]:
    """Training patches of the cut-outs' composites, four per hand as for the renders, at the cut-out's own
    landmarks and again at the seat detector's where it finds the hand (where the reader will be asked)."""
    xs, ys = [], []
    for frame, points, label, _ in composites(cutouts, COMPOSITES, 7000):
        found = found_hand(frame)
        for marks in [points] if found is None else [points, found]:
            xs += [features(frame, marks, scales, shift) for scales, shift in AUGMENT]
            ys += [label] * len(AUGMENT)
    return np.array(xs, np.float32), np.array(ys, np.int32)


def photo_fists(folder: Path, held_out: bool) -> Iterator[tuple[np.ndarray, np.ndarray, int]]:
    """The fists of one half of the photos in `folder` (bench/thumb_photos.py's index and split by source), at
    every tripod size where a look at the seat's crop finds them: (scaled photo, landmarks, 1 = thumb up)."""
    index = load_index(folder)
    training, held = photo_split([source_of(e) for e in index])
    half = set(held if held_out else training)
    backend = MediaPipeBackend()
    try:
        for entry in index:
            if entry["gesture"] not in PHOTO_LABELS or source_of(entry) not in half:
                continue
            photo = cv2.imread(str(folder / entry["file"]), cv2.IMREAD_COLOR)
            if photo is None:
                raise FileNotFoundError(folder / entry["file"])
            for points, _, _ in photo_hands(entry, photo, backend):
                for _, framed, seen in tripod_views(photo, points, backend):
                    if seen is not None:
                        yield framed, seen[0], PHOTO_LABELS[entry["gesture"]]
    finally:
        backend.close()


def photo_patches(folder: Path) -> tuple[np.ndarray, np.ndarray]:
    """Training patches of the photos' training half: one per fist and tripod size (the renders give four per
    hand; the photos are hundreds of hands of a few people, and one patch each keeps them from outweighing the
    renders' many players)."""
    pairs = [(features(framed, points, *AUGMENT[0]), label) for framed, points, label in photo_fists(folder, False)]
    if not pairs:
        raise ValueError(f"{folder}: no fist found in the training half of its photos")
    return np.stack([x for x, _ in pairs]).astype(np.float32), np.array([y for _, y in pairs], np.int32)


def photo_decisions(reader: ThumbReader, folder: Path) -> tuple[np.ndarray, np.ndarray]:
    """The reader's decision on every fist of the photos' held-out half at every tripod size, and the labels."""
    pairs = [(reader.decision(framed, points), label) for framed, points, label in photo_fists(folder, True)]
    return np.array([d for d, _ in pairs]), np.array([y for _, y in pairs], np.int32)


def still_decisions(reader: ThumbReader, stills: list[Still]) -> tuple[np.ndarray, np.ndarray]:
    """The reader's decision on every hand found in the stills, and the labels."""
    ds, ys = [], []
    for jpeg, poses, _, hands in stills:
        frame = _frame(jpeg)
        for seat, points in hands.items():
            ds.append(reader.decision(frame, points))
            ys.append(_thumb_up(poses[seat]))
    return np.array(ds), np.array(ys, np.int32)


def found_hand(frame: np.ndarray) -> np.ndarray | None:
    """The seat detector's landmarks (frame pixels) of the hand in a composite, taken as one seat whose zone
    is the picture's middle three fifths, or None where it finds none."""
    side = frame.shape[0]
    zone = [[side * a, side * b] for a, b in ((0.2, 0.2), (0.8, 0.2), (0.8, 0.8), (0.2, 0.8))]
    seat_map = seat_map_from_json({"format": "stopframe-seats/1", "frame_size": [side, side], "seats": {"1": {"zone": zone}}})
    return still_hands(frame, seat_map).get(1)


def composite_decisions(reader: ThumbReader, cutouts: list[Cutout]) -> tuple[np.ndarray, np.ndarray, dict]:
    """The reader's decision on held-out composites where the seat detector finds the hand, the labels, how
    often it found one, and how often the landmark rule (vision.pose) alone was right there on the vote poses
    as photographed (a thumb pointing down is no pose a voter shows, and the rule is not asked about it)."""
    ds, ys, landmarks_right, pictures = [], [], [], 0
    for frame, _, label, vote_pose in composites(cutouts, HELD_COMPOSITES, 9000):
        pictures += 1
        points = found_hand(frame)
        if points is None:
            continue
        ds.append(reader.decision(frame, points))
        ys.append(label)
        if vote_pose:
            landmarks_right.append(_thumb_up(classify(points).pose) == label)
    return np.array(ds), np.array(ys, np.int32), {
        "found": round(len(ds) / max(pictures, 1), 3), "thumb_up_frames": int(sum(ys)),
        "landmark_rule_accuracy_on_vote_poses": round(float(np.mean(landmarks_right)), 3) if landmarks_right else None}


def clip_decisions(reader: ThumbReader, base: Path, step: int = 6) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The reader's decision on every fist of a clip's truth, every `step` frames of its rest, with labels
    and the index of its hand in the truth. A seat detector for the hand's seat alone (seats are watched
    apart) watches the sampled frames in order, as the audit's would (more sparsely)."""
    truth = json.loads(base.with_suffix(".truth.json").read_text(encoding="utf-8"))
    ds, ys, ids = [], [], []
    with open_video(base.with_suffix(".mp4")) as video:
        seat_map = load_seat_map(base.with_suffix(".seats.json")).scaled_to(video.meta.width, video.meta.height)
        for k, h in enumerate(truth["hands"]):
            if h["pose"] not in FISTS:
                continue
            with NightDetector(replace(seat_map, seats={h["seat"]: seat_map.seats[h["seat"]]})) as detector:
                for i in range(video.index_at(h["on"] + 0.3), video.index_at(h["off"] - 0.3), step):
                    frame = video.frame_at(i)
                    hand = detector.process(i, video.time_of(i), frame).hands.get(h["seat"])
                    if hand is not None:
                        ds.append(reader.decision(frame, hand.landmarks))
                        ys.append(_thumb_up(h["pose"]))
                        ids.append(k)
    return np.array(ds), np.array(ys, np.int32), np.array(ids, int)


def _per_hand(d: np.ndarray, y: np.ndarray, ids: np.ndarray) -> dict:
    """How many hands, and how many of them the majority of their frames reads right."""
    hands = sorted(set(ids.tolist()))
    return {"hands": len(hands), "hands_right": int(sum(int(np.mean(d[ids == k]) > 0) == int(y[ids == k][0]) for k in hands))}


def validation_figures(reader: ThumbReader, training_files: set[str], sure: float, share: float,
                       log: Callable[[str], None]) -> dict:
    """The reader on every validation clip with fists in its truth, measured only: va11 (mafclub, thumbs only)
    alone, then all of them with the hands of training-half and held-out cut-outs apart."""
    parts: dict[str, list] = {"va11": [], "training_cutouts": [], "held_out_cutouts": []}
    for truth_path in sorted(VALIDATION.glob("*.truth.json")):
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
        if not any(h["pose"] in FISTS for h in truth["hands"]):
            continue
        name = truth_path.name.split(".")[0]
        d, y, ids = clip_decisions(reader, truth_path.parent / name, step=8)
        sprites = np.array([truth["hands"][k].get("x_sprite", "") + ".png" in training_files for k in ids], bool)
        if name == "va11":
            parts["va11"].append((d, y, ids))
        parts["training_cutouts"].append((d[sprites], y[sprites], ids[sprites]))
        parts["held_out_cutouts"].append((d[~sprites], y[~sprites], ids[~sprites]))
        log(f"  validation {name}: {len(d)} frames, right {np.mean((d > 0) == y) if len(d) else 0:.2f}")
    figures = {}
    for part, runs in parts.items():
        if runs:
            d, y = np.concatenate([r[0] for r in runs]), np.concatenate([r[1] for r in runs])
            hands = [_per_hand(*r) for r in runs]
            figures[part] = {**_scores(d, y, sure, share), "thumb_up_frames": int(y.sum()),
                             "hands": sum(h["hands"] for h in hands), "hands_right": sum(h["hands_right"] for h in hands)}
    return figures


def train(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """OpenCV's RBF machine as (support vectors, weights, offset), signed so that > 0 is thumb up."""
    svm = cv2.ml.SVM_create()
    svm.setType(cv2.ml.SVM_C_SVC)
    svm.setKernel(cv2.ml.SVM_RBF)
    svm.setC(C)
    svm.setGamma(GAMMA)
    svm.train(x, cv2.ml.ROW_SAMPLE, y)
    rho, alpha, index = svm.getDecisionFunction(0)
    vectors, weights, offset = svm.getSupportVectors()[index.ravel()], alpha.ravel(), float(rho)
    opencv = svm.predict(x)[1].ravel().astype(int)
    if np.mean((_decide(vectors, weights, offset, x) > 0) == (opencv == 1)) < 0.5:
        weights, offset = -weights, -offset  # OpenCV signs by the order the classes came in
    return vectors, weights, offset


def _decide(vectors: np.ndarray, weights: np.ndarray, offset: float, x: np.ndarray) -> np.ndarray:
    d = (vectors**2).sum(1)[None, :] - 2 * x @ vectors.T + (x**2).sum(1)[:, None]
    return np.exp(-GAMMA * np.maximum(d, 0)) @ weights - offset


def thresholds(held_out: list[tuple[np.ndarray, np.ndarray]]) -> tuple[float, float]:
    """THUMB_SURE and KNOWN_SHARE from held-out sets (decisions, labels): the smallest |decision| (steps of
    0.05) from which readings are right at least SURE_RIGHT of the time on every set, and half the smallest
    share of readings that sure on any of them (a window of footage the reader knows is sure that often)."""
    for sure in np.arange(0.05, 3.0, 0.05):
        picked = [(np.abs(d) >= sure, (d > 0).astype(int) == y) for d, y in held_out]
        if all(not s.any() or r[s].mean() >= SURE_RIGHT for s, r in picked):
            return round(float(sure), 2), round(min(float(s.mean()) for s, _ in picked) / 2, 3)
    raise ValueError("no threshold makes the held-out readings right often enough")


def _scores(d: np.ndarray, y: np.ndarray, sure_at: float, share: float) -> dict:
    """Accuracy per frame, how often the reader is sure (|decision| >= sure_at) and then right, and whether it
    would take the footage for its own (sure on at least `share` of the frames, as vision.thumb.knows_footage)."""
    if not len(d):
        return {"frames": 0}
    sure = np.abs(d) >= sure_at
    right = (d > 0).astype(int) == y
    return {"frames": int(len(y)), "accuracy": round(float(right.mean()), 3), "sure": round(float(sure.mean()), 3),
            "accuracy_when_sure": round(float(right[sure].mean()), 3) if sure.any() else None,
            "max_abs_decision": round(float(np.abs(d).max()), 3), "knows_footage": bool(sure.mean() >= share)}


def measure(reader: ThumbReader, held_renders: list[Still], held_cutouts: list[Cutout], training_files: set[str],
            photos: Path | None, log: Callable[[str], None]) -> tuple[dict, tuple[float, float]]:
    """Every figure of the card, and the thresholds derived from the held-out cut-outs and renders."""
    cut_d, cut_y, cut_info = composite_decisions(reader, held_cutouts)
    render_d, render_y = still_decisions(reader, held_renders)
    sure, share = thresholds([(cut_d, cut_y), (render_d, render_y)])
    figures: dict = {"held_out_cutouts": {**_scores(cut_d, cut_y, sure, share), **cut_info},
                     "held_out_renders": _scores(render_d, render_y, sure, share)}
    if photos is not None:
        photo_d, photo_y = photo_decisions(reader, photos)
        figures["held_out_photos"] = {**_scores(photo_d, photo_y, sure, share), "thumb_up_frames": int(photo_y.sum())}
    log(f"  held out: {figures}")
    for rel in EVAL_CLIPS:
        base = ROOT / "sample_videos" / rel
        if base.with_suffix(".mp4").exists():
            d, y, ids = clip_decisions(reader, base)
            figures[rel] = {**_scores(d, y, sure, share), **_per_hand(d, y, ids)}
            log(f"  {rel}: {figures[rel]}")
    if VALIDATION.is_dir():
        figures["validation"] = validation_figures(reader, training_files, sure, share, log)
    else:
        figures["validation"] = f"not measured: {VALIDATION} is absent"
    return figures, (sure, share)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--configs", type=int, default=100, help="renders to make (a fifth held out)")
    parser.add_argument("--out", type=Path, default=ROOT / "vision" / "models")
    parser.add_argument("--cache", type=Path, help="keep the renders here and reuse them (a pickle)")
    parser.add_argument("--varied-configs", type=int, default=0,
                        help="renders under the varied clips' conditions (a fifth held out); the shipped reader has none")
    parser.add_argument("--varied-cache", type=Path, help="keep the varied stills here (a pickle)")
    parser.add_argument("--measure", type=Path, help="only measure the reader in this folder (its .npz and card)")
    parser.add_argument("--photos", type=Path, help="hand photos (bench/thumb_photos.py's folder): train on the fists of "
                        "its training half, measure on its held-out half; the shipped reader has none")
    args = parser.parse_args()
    t0 = time.time()

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    held = max(args.configs // 5, 1)
    cut = max(args.varied_configs // 5, 1) if args.varied_configs else 0
    plain = renders(range(args.configs), args.cache)
    varied = renders(range(args.varied_configs), args.varied_cache, varied_config)
    stills = plain[:-held] + varied[:len(varied) - cut]  # a fifth of each held out
    held_stills = plain[-held:] + varied[len(varied) - cut:]
    training_files, held_files = split(labelled())
    held_cutouts = load(held_files)
    if args.measure:
        figures, derived = measure(ThumbReader(args.measure / "thumb_svm.npz"), held_stills, held_cutouts,
                                   set(training_files), args.photos, log)
        print(json.dumps({"figures": figures, "thresholds_from_held_out": derived}, indent=2))
        return
    training_cutouts = load(training_files)
    x_renders, y_renders = render_patches(stills)
    x_cutouts, y_cutouts = composite_patches(training_cutouts)
    x_photos, y_photos = photo_patches(args.photos) if args.photos else (np.zeros((0, x_renders.shape[1]), np.float32),
                                                                          np.zeros(0, np.int32))
    log(f"  training on {len(y_renders)} render patches, {len(y_cutouts)} composite patches and {len(y_photos)} photo "
        f"patches ({int(y_photos.sum())} thumb-up)")
    machine = train(np.concatenate([x_renders, x_cutouts, x_photos]), np.concatenate([y_renders, y_cutouts, y_photos]))
    with tempfile.TemporaryDirectory() as tmp:
        reader = ThumbReader(save_model(*machine, GAMMA, {}, Path(tmp)))  # measured as shipped
        figures, (sure, share) = measure(reader, held_stills, held_cutouts, set(training_files), args.photos, log)
    labels = labelled()
    count = dict(sorted(Counter(labels[f] for f in training_files).items()))
    card = {
        "what": "thumb up vs plain fist from upright 40-px grey patches 2.6, 3.0 and 3.4 hand scales wide, centred "
                "on the palm (the decisions averaged)",
        "features": "OpenCV HOG: window 40, block 16, stride 8, cell 8, 9 bins (576 values)",
        "machine": f"OpenCV ml SVM, C-SVC, RBF kernel, C={C}, gamma={GAMMA}",
        "trained_on": f"{len(y_renders)} patches from {args.configs - held} renders of this project's renderer "
                      f"(seeds 1000-{1000 + args.configs - held - 1}{varied_words(args.varied_configs - cut)}) and "
                      f"{len(y_cutouts)} patches from composites "
                      f"of {len(training_files)} real hand cut-outs ({count}; bench/thumb_composites.py, "
                      f"{COMPOSITES} per cut-out and orientation, at its own and the detector's landmarks), 4 shifted patches per hand"
                      + (f"; and {len(y_photos)} patches of the fists of the training half of the hand photos in "
                         f"{args.photos.name} (bench/thumb_photos.py, {int(y_photos.sum())} thumb-up), one per hand and "
                         "tripod size" if args.photos else ""),
        "cutout_split": SPLIT_RULE,
        "held_out_cutouts": len(held_files),
        "never_trained_on": "the validation clips (../shared/validation), the bundled game and its clips",
        "photos": "The machine is numbers derived from photos (support vectors of HOG features, half precision), not "
                  f"the photos; the cut-outs stay in {ASSETS.relative_to(ROOT.parent)} and are read at training time "
                  "only. Their sources and licences (ATTRIBUTION.md there): HaGRID (github.com/hukenovs/hagrid; "
                  "HaGRID licence, a CC BY-SA 4.0 variant; Alexander Kapitanov, Andrey Makhlyarchuk, Karina Kvanchiani, "
                  "Aleksandr Nagaev, Roman Kraynov, Anton Nuzhdin), also as committed in google-ai-edge/mediapipe "
                  "(Apache-2.0), and google-ai-edge/mediapipe-samples (Apache-2.0; one photo from Pixabay, Pixabay "
                  "Content License). Changes made to them: cut out, scaled, turned, mirrored, recoloured, pasted on "
                  "drawn tables, damaged."
                  + (f" The hand photos of {args.photos.name}: the sources and licences its ATTRIBUTION.md names "
                     "(read at training time only; changes: cut out around the hand, scaled)." if args.photos else ""),
        "thresholds": {"THUMB_SURE": sure, "KNOWN_SHARE": share,
                       "rule": f"sure: right >= {SURE_RIGHT} on each held-out set (cut-outs, renders) from there up; "
                               "known footage: half the smallest sure share on them"},
        "support_vectors": int(len(machine[0])),
        "figures": figures,
        "training_s": round(time.time() - t0, 1),
    }
    path = save_model(*machine, GAMMA, card, args.out)
    print(json.dumps(figures, indent=2))
    if (sure, share) != (THUMB_SURE, KNOWN_SHARE):
        log(f"set THUMB_SURE = {sure} and KNOWN_SHARE = {share} in vision/thumb.py (the card's thresholds)")
    log(f"wrote {path} ({path.stat().st_size // 1024} KiB) in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
