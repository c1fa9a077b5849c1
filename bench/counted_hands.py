"""Hands from a dataset labelled by its own authors, added to ../extra_hands for bench/thumb_photos.py.

    python3 bench/counted_hands.py GIT_DIR [--out ../extra_hands] [--every N]

GIT_DIR is a clone (or the search tool's mirror) of SubhiH/HandsDataset (Apache-2.0): about 1 700 photos of hands,
each hand boxed and labelled with how many fingers it holds open, taken over some fifteen sittings (the photos'
name prefixes), indoors and out, by several people. Its labels are the authors', not ours, so the forms that
matter to a vote can be measured on hundreds of unseen real hands without labelling by eye:
- 0 fingers open: a plain fist (a thumb-up would count one finger), what mafclub 2.4.6 fines;
- 1 finger open: the index finger held up (the dataset's "one"), a finger, never a vote fist;
- 5 fingers open: an open palm.
The counts 2-4 are left out: which fingers they hold open is not labelled, so neither is the form.

Each box is cut out with half its size again around it (MediaPipe's palm detector needs the wrist and some
background) into its own JPEG under OUT/HandsDataset, and listed in OUT/index.json in the bench's format; an
index already there keeps its other sources' entries. The sittings are recorded as each entry's `group`, so that
the bench splits this one source into training and held-out halves by sitting, never a person's photo in both.
Nothing is written into the repository.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

REPO = "SubhiH/HandsDataset"
LICENCE = "Apache-2.0"
GESTURES = {"0-hand": "fist", "1-hand": "pointing", "5-hand": "open_palm"}
MARGIN = 0.5  # of the box's larger side, on every side


def git(git_dir: Path, *args: str) -> bytes:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True).stdout


def sitting(filename: str) -> str:
    """The sitting a photo was taken in: its name before `_pic`, `pic` for the photos named `picNNNNN` alone, and the
    name before its first `_` for the rest (`Hand_NNNNNNN`)."""
    stem = filename.rsplit(".", 1)[0]
    if "_pic" in stem:
        return stem.split("_pic", 1)[0]
    return "pic" if stem.startswith("pic") else stem.split("_", 1)[0]


def cut(photo: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    x0, y0, x1, y1 = box
    grow = MARGIN * max(x1 - x0, y1 - y0)
    h, w = photo.shape[:2]
    return photo[max(0, int(y0 - grow)):min(h, int(y1 + grow)), max(0, int(x0 - grow)):min(w, int(x1 + grow))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("git_dir", type=Path, help="the dataset's git directory")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "extra_hands")
    ap.add_argument("--every", type=int, default=1, help="keep every N-th labelled hand (a quicker run)")
    args = ap.parse_args()
    commit = git(args.git_dir, "rev-parse", "HEAD").decode().strip()
    rows = [r for name in ("data/train_labels.csv", "data/test_labels.csv")
            for r in csv.DictReader(io.StringIO(git(args.git_dir, "show", f"HEAD:{name}").decode()))]
    counts = Counter(r["filename"] for r in rows)  # boxes per photo: only photos of one hand are kept
    chosen = [r for r in rows if r["class"] in GESTURES and counts[r["filename"]] == 1][:: args.every]
    folder = args.out / "HandsDataset"
    folder.mkdir(parents=True, exist_ok=True)
    index_file = args.out / "index.json"
    index = json.loads(index_file.read_text(encoding="utf-8")) if index_file.exists() else []
    index = [e for e in index if e["source"]["repo"] != REPO]
    for r in chosen:
        data = git(args.git_dir, "show", f"{commit}:images/{r['filename']}")
        photo = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if photo is None:
            print(f"{r['filename']}: not a picture, skipped", file=sys.stderr)
            continue
        box = tuple(int(float(r[k])) for k in ("xmin", "ymin", "xmax", "ymax"))
        name = f"HandsDataset/{r['filename'].rsplit('.', 1)[0]}.jpg"
        cv2.imwrite(str(args.out / name), cut(photo, box), [cv2.IMWRITE_JPEG_QUALITY, 95])
        index.append({"file": name, "gesture": GESTURES[r["class"]], "hands": 1,
                      "source": {"repo": REPO, "commit": commit, "path": f"images/{r['filename']}",
                                 "licence": LICENCE, "group": sitting(r["filename"]),
                                 "label": f"{r['class']} (the dataset's own)"},
                      "changes": f"cut out around the labelled box, {MARGIN:g} of its size added on every side"})
    index_file.write_text(json.dumps(index, ensure_ascii=False, indent=1), encoding="utf-8")
    attribution = args.out / "ATTRIBUTION.md"
    line = (f"- {REPO} at {commit}: {LICENCE} (https://github.com/{REPO}); photos cut out around their labelled "
            "boxes, labels the dataset's own.\n")
    text = attribution.read_text(encoding="utf-8") if attribution.exists() else "# Hand photos and their licences\n\n"
    if REPO not in text:
        attribution.write_text(text + line, encoding="utf-8")
    print(f"{len(chosen)} hands from {REPO} listed in {index_file}")


if __name__ == "__main__":
    main()
