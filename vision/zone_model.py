"""One temporal model per seat: is a hand resting in the zone, frame by frame, from all the evidence at once.

Two states, empty and hand, decoded with Viterbi over one window. The evidence of a frame is
- the detector's answer where it looked: a hand of this seat found (for "hand"), or none (for "empty");
  a found hand repeated by change gating backs it a little (the picture has not changed since), a repeated
  miss or a detection refused as no readable hand is no answer;
- the zone's own pixels against its empty background: where the zone shows its background (no cell
  differs by more than the noise allows, beyond a tiny share), nothing rests there, whatever the detector
  says. The background is learned per seat from the window's frames at least a second from any detection of
  that seat's hand (a per-cell median; a hand the detector missed for a while lies near frames where it found
  it, so it does not become background), else from the window's lead-in before the first detection; the
  noise level per window from the frame-to-frame differences of every seat's zone (a robust MAD).
A hand is one run of "hand" frames with at least one detection in it; every switch of state costs
SWITCH, so a flicker of one or two detections makes no hand and a gap of a few misses does not split one.
By construction an onset never lies on a frame whose zone still shows its empty background: the veto there
outweighs any detector answer. That replaces the earlier chain of back-dating over frames whose 32x32
thumbnail looked alike, holding misses and refusing props, which on a brown hand over a wood table moved
onsets 1.5-2 s back over an empty zone.

The weights are log-likelihood ratios of round, stated probabilities, not fitted to a clip: the detector finds
a resting hand on most looks (p 0.9) and a phantom rarely (0.05); a detector miss on a resting hand happens
(0.15) where a miss on an empty zone is the rule (0.95).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.intervals import Run, Sighting, majority_pose, pose_share, resting_span, settled_from

HIT = math.log(0.9 / 0.05)  # a detection of this seat's hand on a frame the detector ran
MISS = math.log(0.15 / 0.95)  # no detection where it ran
SWITCH = 4.0  # cost of a change of state: two switches need ~3 detections in a row to pay for a hand
VETO = 12.0  # the zone shows its empty background: no hand, whatever the detector said (> 2 detections + 2 switches)
NOISE_K = 4.0  # a cell differs from the background when by more than NOISE_K noise sigmas ...
MIN_DIFF = 6.0  # ... and by at least this many grey levels (compression blocks on a clean picture)
EMPTY_SHARE = 0.02  # the zone shows its background when fewer of its cells than this differ from it ...
CHANGED_SHARE = 0.05  # ... and clearly something else when this many do, which backs a hand a little:
CHANGED = 0.5  # a hand the detector lost stays while the zone still differs (four such frames outweigh one miss)
REPEATED = 0.5  # a found hand repeated by change gating: the picture has not changed since it was found (a miss
# repeated so is no evidence: the detector misses resting hands far more often than it imagines one)
MIN_BACKGROUND = 5  # frames needed to learn a zone's background from
FAR_FRAMES = 25  # the background is learned from frames this far (1 s) from any detection: a hand the detector
# missed for a while sits next to frames where it found it


def noise_sigma(zones: Sequence[np.ndarray]) -> float:
    """Per-cell noise sigma of one seat's zone over consecutive frames: MAD of the frame-to-frame differences
    (moving hands touch few cells of few frames, so the median ignores them)."""
    diffs = [np.abs(b.astype(np.float32) - a.astype(np.float32))
             for a, b in zip(zones, zones[1:], strict=False) if a.size == b.size > 0]  # dark frames carry no cells
    if not diffs:
        return 0.0
    return float(np.median(np.concatenate(diffs))) / 0.6745 / math.sqrt(2)


def empty_frames(zones: Sequence[np.ndarray], sightings: Sequence[Sighting], sigma: float) -> list[bool | None]:
    """Per frame: whether the seat's zone shows its empty background (True), clearly differs from it (False),
    or neither (None: a few cells differ, a shadow or an arm's edge); see the module's doc."""
    size = max((z.size for z in zones), default=0)  # frames whose view was dark carry no cells
    if not size:
        return [None] * len(zones)
    found = [s.index for s in sightings if s.present]  # in frame order
    free = [z for z, s in zip(zones, sightings, strict=True)
            if z.size == size and not s.present and _far_from(s.index, found)]
    if len(free) < MIN_BACKGROUND:  # hands all along: the window's lead-in, before the first detection
        free = [z for z, s in zip(zones, sightings, strict=True) if z.size == size and (not found or s.index < found[0])]
    if len(free) < MIN_BACKGROUND:
        return [None] * len(zones)  # no empty picture of the zone to compare with: no pixel evidence
    background = np.median(np.stack(free).astype(np.float32), axis=0)
    shares = [differs(z, background, sigma) if z.size == size else None for z in zones]
    return [None if share is None else True if share < EMPTY_SHARE else False if share >= CHANGED_SHARE else None
            for share in shares]


def _far_from(index: int, found: list[int]) -> bool:
    """Whether frame `index` lies more than FAR_FRAMES from every frame of `found` (sorted)."""
    k = bisect.bisect_left(found, index)
    return all(abs(index - found[j]) > FAR_FRAMES for j in (k - 1, k) if 0 <= j < len(found))


def differs(zone: np.ndarray, other: np.ndarray, sigma: float) -> float:
    """The share of a zone's cells that differ from another picture of it by more than the noise allows."""
    return float((np.abs(zone.astype(np.float32) - other.astype(np.float32)) > max(NOISE_K * sigma, MIN_DIFF)).mean())


def evidence(s: Sighting, empty: bool | None) -> float:
    """Log-likelihood ratio hand : empty of one frame."""
    if empty:
        return -VETO
    zone = CHANGED if empty is False else 0.0
    if s.unread and not s.present:
        return zone  # the detector saw something here it could not read as a hand: no answer
    if not s.looked or s.repeat:
        return zone + (REPEATED if s.present else 0.0)  # repeated on a picture unchanged since the detector ran
    return zone + (HIT if s.present else MISS)


def viterbi(scores: Sequence[float]) -> list[bool]:
    """The most likely hand (True) / empty (False) path for per-frame log-likelihood ratios, SWITCH a change."""
    if not scores:
        return []
    best = [0.0, scores[0]]  # empty, hand
    back: list[tuple[int, int]] = []
    for e in scores[1:]:
        to_empty = (0, best[0]) if best[0] >= best[1] - SWITCH else (1, best[1] - SWITCH)
        to_hand = (1, best[1]) if best[1] >= best[0] - SWITCH else (0, best[0] - SWITCH)
        back.append((to_empty[0], to_hand[0]))
        best = [to_empty[1], to_hand[1] + e]
    state = 0 if best[0] >= best[1] else 1
    path = [state]
    for step in reversed(back):
        state = step[state]
        path.append(state)
    return [bool(p) for p in reversed(path)]


def _misses_once(sightings: Sequence[Sighting], zones: Sequence[np.ndarray], empty: Sequence[bool | None],
                 scores: list[float], sigma: float) -> list[float]:
    """A looked miss on the very picture (within the noise) of the last looked miss is no new evidence: it weighs
    like a miss repeated by change gating. Fresh looks at a picture that does not change mostly give the same
    answer, so twenty looked misses on a resting hand the detector has lost are one miss, not twenty (a hand's
    hits are what the looks are for: they stay)."""
    out = list(scores)
    last_miss: int | None = None
    for k, s in enumerate(sightings):
        if not s.looked or s.repeat or s.present or s.unread or empty[k] or not zones[k].size:
            if s.looked and not s.repeat and (s.present or s.unread):
                last_miss = None
            continue
        if (last_miss is not None and zones[last_miss].size == zones[k].size
                and differs(zones[k], zones[last_miss], sigma) < EMPTY_SHARE):
            out[k] = CHANGED if empty[k] is False else 0.0
        else:
            last_miss = k
    return out


def decode_runs(sightings: Sequence[Sighting], zones: Sequence[np.ndarray] | None, sigma: float,
                end_frame: int, end_t: float) -> list[Run]:
    """One seat's hand runs in one window (sightings one per frame, in order; `zones` its zone's cells per frame,
    None: no pixel evidence). A looked miss on the picture of the last one counts once (_misses_once); a run's
    onset is moved to where the palm stops moving (the landing rule, vision.intervals: a swooping hand is over the
    zone a few frames before it lands), then back over the frames before it that show the very same picture
    (_from_still_picture: a landed hand refused as unreadable for a few frames)."""
    empty = empty_frames(zones, sightings, sigma) if zones is not None else [None] * len(sightings)
    scores = [evidence(s, e) for s, e in zip(sightings, empty, strict=True)]
    if zones is not None:
        scores = _misses_once(sightings, zones, empty, scores, sigma)
    path = viterbi(scores)
    runs: list[Run] = []
    i = 0
    while i < len(path):
        if not path[i]:
            i += 1
            continue
        j = i
        while j < len(path) and path[j]:
            j += 1
        # frames at either end that carry no evidence for the hand are not its (a tie of the decoder)
        a, b = i, j
        while a < b and scores[a] <= 0:
            a += 1
        while b > a and scores[b - 1] <= 0:
            b -= 1
        run = _run(sightings, a, b, end_frame, end_t) if a < b else None
        if run is not None and zones is not None:
            run = _from_still_picture(run, sightings, zones, empty, a, sigma)
        if run is not None:
            runs.append(run)
        i = j
    return runs


def _from_still_picture(run: Run, sightings: Sequence[Sighting], zones: Sequence[np.ndarray],
                        empty: Sequence[bool | None], a: int, sigma: float) -> Run:
    """The onset moved back over the frames just before it whose zone shows the very picture of the onset
    (within the noise) and not the empty background: the hand lay there already, unread. On our renders a fist
    came back refused for 5 frames once it had landed, which put the onset 5 frames late. Moving over frames
    that merely resemble the onset's (a 32x32 thumbnail, as before) moved onsets over an empty wood table."""
    k = run.on_frame - sightings[0].index
    still = k
    while (still - 1 >= a and empty[still - 1] is not True and zones[still - 1].size == zones[k].size > 0
           and differs(zones[still - 1], zones[k], sigma) < EMPTY_SHARE):
        still -= 1
    return run if still == k else replace(run, on_frame=sightings[still].index, on=sightings[still].t)


def _run(sightings: Sequence[Sighting], i: int, j: int, end_frame: int, end_t: float) -> Run | None:
    """The hand run over sightings[i:j] (decoded as "hand") from where its palm came to rest to where it left, or
    None when no detection backs it or it never came to rest (a hand passing through or leaving is no vote)."""
    span = sightings[i:j]
    seen = [s for s in span if s.present]
    if not any(s.looked and not s.repeat for s in seen):
        return None
    if settled_from(seen) is None:
        return None  # it never came to rest: a hand passing through or leaving, no vote
    first, last = resting_span(seen)
    # a hand already at rest when first found rests from where the model's run begins (frames with no detector
    # answer on a zone that differed from its background); one found swooping in, from where it stopped
    on = seen[first] if first else span[0]
    if last < len(seen) - 1:
        off_frame, off_t = seen[last + 1].index, seen[last + 1].t
    elif j < len(sightings):
        off_frame, off_t = sightings[j].index, sightings[j].t
    else:
        off_frame, off_t = end_frame, end_t
    resting = seen[first:last + 1]
    covered = len(resting) / max(1, len(span))
    confidence = float(sum(s.score for s in resting) / len(resting)) * (0.5 + 0.5 * min(1.0, covered))
    pose = majority_pose(resting)
    return Run(on.index, off_frame, on.t, off_t, pose, round(confidence, 3), round(pose_share(resting, pose), 3))
