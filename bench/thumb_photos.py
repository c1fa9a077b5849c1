"""Real hand photos from other sources through the product's hand finder, landmark rule and thumb reader.

    python3 bench/thumb_photos.py [--photos DIR]

The photos live outside the repository, in ../extra_hands beside the repository's folder (like ../shared/assets),
with an index.json (source repository, commit and path, gesture labelled by eye, hands shown, licence, changes)
and an ATTRIBUTION.md. Neither the landmark rule (vision.pose) nor the thumb reader (vision.thumb) was made or
trained on any of them, so every figure printed here is on unseen hands.

Each photo is read twice:
- as photographed: one look of the product's MediaPipe backend (vision.backend, IMAGE mode, the bundled full
  model) at the whole photo;
- at tripod sizes: for every hand found there, the photo scaled so that the hand's scale (vision.thumb.hand_scale)
  is 30, 60 and 110 px, a square five hand scales wide cut around the palm as a seat's crop (vision.crops: resized
  to 256 px; where the square leaves the photo its edge pixels are repeated), and one look at that crop. The
  photos are not cut out, so bench/thumb_composites.py cannot paste them on a table; a scaled photo keeps its
  own background.
A hand counts as found where the backend gives one that vision.pose.plausible_hand accepts (on the photo, the
photo's `hands` best-scored ones; on a crop, the one nearest the crop's centre). Its form is read by the
landmark rule (vision.pose.classify with MediaPipe's 3-D landmarks, as the product's default does), and, on the
fist gestures, by the thumb reader (ThumbReader.decision on the full-resolution picture: > 0 thumb up, < 0
plain fist; sure where |decision| >= THUMB_SURE). "Reader-led" is the form the product settles on where it lets
the reader decide: the landmark rule's, except that a fist (plain or thumb-up) takes the reader's sign where the
reader is sure and has no form where it is not (vision.observe.settle_thumbs, vision.intervals.pose_share). The
product lets the reader decide only on footage it knows (vision.thumb.knows_footage over a window's fists);
whether it would know these photos, taken as one window per view, is printed under each table: where it would
not, the product's forms are the landmark rule's.

The sources are split into a training half and a held-out half for the training that may come later
(SPLIT_RULE); today the reader has seen none of them, so both halves are held-out figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.backend import MediaPipeBackend  # noqa: E402
from vision.crops import SeatCrop  # noqa: E402
from vision.pose import classify, plausible_hand  # noqa: E402
from vision.thumb import PALM_POINTS, THUMB_SURE, ThumbReader, hand_scale, knows_footage  # noqa: E402

PHOTOS = Path(__file__).resolve().parents[2] / "extra_hands"
FISTS = ("fist", "thumb_up_fist")
RIGHT = {  # gesture -> (what a right reading is, the forms that are right)
    "thumb_up": ("a thumb-up fist", {"thumb_up_fist"}),
    "fist": ("a plain fist", {"fist"}),
    "thumb_down": ("not a vote fist (any form but a thumb-up fist)", {"fist", "open_palm", "finger", "other"}),
    "open_palm": ("an open palm", {"open_palm"}),
    "pointing": ("a finger", {"finger"}),
    "victory": ("other (two fingers: neither fist, palm nor finger)", {"other"}),
}
READER_SIGN = {"thumb_up": 1, "fist": -1, "thumb_down": -1}  # the reader's right sign on the fist gestures
TRIPOD_SCALES = (30.0, 60.0, 110.0)  # hand scales in px: a far seat to a near 1080p seat
CROP_SCALES = 5.0  # a tripod crop's side in hand scales (a seat's zone and its margin)
SPLIT_RULE = ("by source (a repository, or one sitting of it where the index names a group): sources ordered by "
              "name (case-folded), ranks 0, 2, 4, ... training half, ranks 1, 3, 5, ... held out")


@dataclass(frozen=True)
class Reading:
    """One hand looked for on one picture, and what was read off it."""

    source: str
    gesture: str
    file: str
    view: str  # "photo" or "tripod <scale> px"
    found: bool
    pose: str | None = None  # the landmark rule's form
    decision: float | None = None  # the thumb reader's, on the fist gestures


def load_index(folder: Path) -> list[dict]:
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    unknown = {e["gesture"] for e in index} - set(RIGHT)
    if unknown:
        raise ValueError(f"{folder / 'index.json'}: gestures this bench does not know: {sorted(unknown)}")
    return index


def source_of(entry: dict) -> str:
    """What the split keeps together: the source repository, or one sitting of it where the index names its
    `group` (a dataset taken over many sittings by several people)."""
    source = entry["source"]
    return f"{source['repo']} {source['group']}" if "group" in source else source["repo"]


def split(sources: list[str]) -> tuple[list[str], list[str]]:
    """(training sources, held-out sources) by SPLIT_RULE."""
    ordered = sorted(set(sources), key=str.casefold)
    return ordered[0::2], ordered[1::2]


def hands_on(backend: MediaPipeBackend, picture: np.ndarray) -> list[tuple[np.ndarray, np.ndarray | None, float]]:
    """Every plausible hand the backend finds on a picture: (landmarks in its pixels, 3-D landmarks, score)."""
    return [(h.landmarks, h.world, h.score) for h in backend.look(picture) if plausible_hand(h.landmarks, h.world)]


def tripod_crop(photo: np.ndarray, points: np.ndarray, scale: float) -> tuple[np.ndarray, SeatCrop]:
    """The photo scaled so that the hand at `points` has `scale` px, with the edge pixels repeated around it,
    and a seat's crop five hand scales wide around its palm."""
    k = scale / max(hand_scale(points), 1e-6)
    scaled = cv2.resize(photo, None, fx=k, fy=k, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    side = int(round(scale * CROP_SCALES))
    pad = side
    framed = cv2.copyMakeBorder(scaled, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    centre = np.asarray(points, float)[PALM_POINTS, :2].mean(axis=0) * k + pad
    crop = SeatCrop(int(round(centre[0] - side / 2)), int(round(centre[1] - side / 2)), side)
    return framed, crop


def read_photo(entry: dict, folder: Path, backend: MediaPipeBackend, reader: ThumbReader) -> list[Reading]:
    """Every reading of one photo: as photographed, then each hand found there at every tripod size."""
    photo = cv2.imread(str(folder / entry["file"]), cv2.IMREAD_COLOR)
    if photo is None:
        raise FileNotFoundError(folder / entry["file"])
    source, gesture, file = source_of(entry), entry["gesture"], entry["file"]
    asks_reader = gesture in READER_SIGN

    def reading(view: str, picture: np.ndarray, points: np.ndarray, world: np.ndarray | None) -> Reading:
        decision = reader.decision(picture, points) if asks_reader else None
        return Reading(source, gesture, file, view, True, classify(points, world).pose, decision)

    found = photo_hands(entry, photo, backend)
    out = [reading("photo", photo, p, w) for p, w, _ in found]
    out += [Reading(source, gesture, file, "photo", False)] * (int(entry.get("hands", 1)) - len(found))
    for points, _, _ in found:
        for scale, framed, seen in tripod_views(photo, points, backend):
            view = f"tripod {scale:.0f} px"
            out.append(Reading(source, gesture, file, view, False) if seen is None else reading(view, framed, *seen))
    return out


def photo_hands(entry: dict, photo: np.ndarray, backend: MediaPipeBackend) -> list[tuple[np.ndarray, np.ndarray | None,
                                                                                       float]]:
    """The photo's hands as photographed: the best-scored plausible ones, as many as the index says it shows."""
    return sorted(hands_on(backend, photo), key=lambda h: -h[2])[: int(entry.get("hands", 1))]


def tripod_views(photo: np.ndarray, points: np.ndarray, backend: MediaPipeBackend
                 ) -> list[tuple[float, np.ndarray, tuple[np.ndarray, np.ndarray | None] | None]]:
    """The hand at `points` at every tripod size: (hand scale, the scaled and framed photo, the landmarks and 3-D
    landmarks a look at its seat's crop finds nearest the crop's middle, or None where it finds none)."""
    views = []
    for scale in TRIPOD_SCALES:
        framed, crop = tripod_crop(photo, points, scale)
        near = [(crop.to_frame(p), w) for p, w, _ in hands_on(backend, crop.cut(framed))]
        middle = np.array([crop.x0 + crop.side / 2, crop.y0 + crop.side / 2])
        seen = min(near, key=lambda h: float(np.linalg.norm(h[0][PALM_POINTS, :2].mean(axis=0) - middle))) if near else None
        views.append((scale, framed, seen))
    return views


def overall(r: Reading) -> str | None:
    """The form the product settles on (see the module's doc): None where an unsure reader leaves a fist no form."""
    if r.pose in FISTS and r.decision is not None:
        if abs(r.decision) < THUMB_SURE:
            return None
        return "thumb_up_fist" if r.decision > 0 else "fist"
    return r.pose


COLUMNS = ("photos", "hands", "found", "lm right", "rd asked", "rd right", "rd sure", "sure right", "led right",
           "led none")


def figures(rs: list[Reading]) -> tuple[int, ...]:
    found = [r for r in rs if r.found]
    asked = [r for r in found if r.decision is not None]
    sure = [r for r in asked if abs(r.decision) >= THUMB_SURE]
    settled = [(r, overall(r)) for r in found]
    return (len({r.file for r in rs}), len(rs), len(found), sum(r.pose in RIGHT[r.gesture][1] for r in found), len(asked),
            sum(np.sign(r.decision) == READER_SIGN[r.gesture] for r in asked), len(sure),
            sum(np.sign(r.decision) == READER_SIGN[r.gesture] for r in sure),
            sum(form in RIGHT[r.gesture][1] for r, form in settled if form is not None),
            sum(form is None for _, form in settled))


def table(title: str, groups: list[tuple[str, list[Reading]]]) -> None:
    print(f"\n{title}")
    width = max(len(name) for name, _ in groups) + 2
    print("".ljust(width) + "".join(c.rjust(11) for c in COLUMNS))
    for name, rs in groups:
        if rs:
            print(name.ljust(width) + "".join(str(v).rjust(11) for v in figures(rs)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=PHOTOS, help="folder with index.json and the photos")
    args = parser.parse_args()
    index = load_index(args.photos)
    t0 = time.perf_counter()
    backend, reader = MediaPipeBackend(), ThumbReader()
    readings: list[Reading] = []
    try:
        for entry in index:
            readings += read_photo(entry, args.photos, backend, reader)
    finally:
        backend.close()
    seconds = time.perf_counter() - t0
    training, held = split([source_of(e) for e in index])
    print(f"{len(index)} photos, {sum(int(e.get('hands', 1)) for e in index)} hands, {len(training) + len(held)} "
          f"sources, in {args.photos}; {seconds:.1f} s")
    print("right means, per gesture:")
    for gesture, (words, _) in RIGHT.items():
        print(f"  {gesture}: {words}")
    print(f"picture reader (rd) asked on {', '.join(READER_SIGN)} only: right = decision > 0 on thumb_up, < 0 on the "
          f"others; sure = |decision| >= {THUMB_SURE}. lm = landmark rule (vision.pose). led = reader-led: the form "
          "the product settles on where it lets the reader decide (the landmarks' form, a fist's thumb taken from the "
          "reader where it is sure); led none = a fist the reader is unsure of, left without a form")
    print(f"split: {SPLIT_RULE}")
    print(f"  training half: {', '.join(training)}")
    print(f"  held-out half: {', '.join(held)}")
    views = ["photo"] + [f"tripod {s:.0f} px" for s in TRIPOD_SCALES]
    for label, chosen in (("as photographed", ["photo"]), ("at tripod sizes (30, 60, 110 px hand scale)", views[1:])):
        rs = [r for r in readings if r.view in chosen]
        groups = [(f"source {s}", [r for r in rs if r.source == s]) for s in sorted({r.source for r in rs}, key=str.casefold)]
        groups += [(f"gesture {g}", [r for r in rs if r.gesture == g]) for g in RIGHT]
        groups += [("training half", [r for r in rs if r.source in training]),
                   ("held-out half", [r for r in rs if r.source in held]), ("all", rs)]
        if label.startswith("at tripod"):
            groups += [(f"  {v}", [r for r in rs if r.view == v]) for v in views[1:]]
        table(f"{label}:", groups)
        decisions = [r.decision for r in rs if r.pose in FISTS and r.decision is not None]
        knows = knows_footage(decisions)
        print(f"reader knows this footage (vision.thumb.knows_footage over its {len(decisions)} fists): {knows}"
              + ("" if knows else "; so the product's forms here are the landmark rule's (lm right)"))
    missed = sorted({r.file for r in readings if r.view == "photo" and not r.found})
    wrong = sorted({f"{r.file} ({r.view}: {r.pose})" for r in readings if r.found and r.pose not in RIGHT[r.gesture][1]})
    print(f"\nno hand found on the photo as photographed: {', '.join(missed) or 'none'}")
    print(f"landmark rule wrong: {', '.join(wrong) or 'none'}")
    print("\nfist gestures, hand by hand (landmark form, reader decision):")
    by_file: dict[tuple[str, str], list[str]] = defaultdict(list)
    for r in readings:
        if r.gesture in READER_SIGN:
            by_file[(r.gesture, r.file)].append(
                f"{r.view}: " + (f"{r.pose} {r.decision:+.2f}" if r.found else "not found"))
    for (gesture, file), lines in sorted(by_file.items()):
        print(f"  {gesture} {file}: " + "; ".join(lines))


if __name__ == "__main__":
    main()
