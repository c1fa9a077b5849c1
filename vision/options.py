"""The model choices of the day-vote vision layer, in one place, so each can be measured off (bench/ablation.py).

The defaults are what `observe` and the audit use. Every field names a choice whose worth was measured on
our own rendered clips and on footage we did not draw (../shared/validation); bench/ablation.py prints
what each one buys. The rules that decide when a seat is looked at (vision.schedule) and how the zone model
places a run's onset and weighs repeated misses (vision.zone_model) are not switches: they always hold.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class VisionOptions:
    """How hands resting on the table are watched (vision.detect, vision.observe)."""

    min_confidence: float = 0.1  # MediaPipe's detection / presence thresholds: its default 0.5 lost dark hands for
    # seconds on our dark render and on dim footage, 0.3 an open palm on our cluttered wood render; phantoms at 0.1
    # are the zone model's to refuse (bench/ablation.py has 0.3 and 0.5)
    enhance_dark: bool = True  # gain + denoise of a dark seat crop before detection (vision.detect.enhance_dark)
    zone_model: bool = True  # per-seat temporal model: detector evidence + the zone's own empty background,
    # Viterbi-decoded (vision.zone_model). False: plain hysteresis over the detector's sightings (vision.intervals)
    tight_look: bool = True  # where a seat's picture came to rest on something new and no hand was found, a look at a
    # tighter crop of its zone (more pixels per hand): an open palm on a cluttered table and a fist seen from
    # straight above can be found only so
    second_look: bool = True  # an open palm or finger believed only after a look at a tighter crop (vision.second_look)
    picture_thumbs: bool = True  # a fist's thumb read off the picture where that reader knows the footage (vision.thumb)
    world_fingers: bool = True  # a finger is extended only where MediaPipe's metric 3-D landmarks say so too
    # (vision.pose): a compact thumb-up fist whose picture landmarks put the wrist on the knuckles read open
    lone_open: bool = True  # an open reading is no evidence of the form where a reading refused as no readable hand
    # lies apart from it in the zone (vision.detect._beside): a compressed fist refused beside its own forearm read
    # as an open palm


DEFAULT = VisionOptions()
