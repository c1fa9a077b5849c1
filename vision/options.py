"""The switchable rules of the day-vote vision layer, in one place, so each can be measured off (bench/ablation.py).

The defaults are what `observe` and the audit use. Every switch names a rule whose worth was measured on
our own rendered clips and on footage we did not draw (../shared/validation); bench/ablation.py prints
what each one buys.
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
    landing: bool = True  # the onset moved to the first sighting from which the palm stays put, or to whose place
    # the next sightings keep coming back (MediaPipe flipping between two readings of a still real hand)
    still_picture: bool = True  # and back over the frames just before it whose zone shows the very picture of the
    # onset, not the empty background (a landed hand refused as unreadable for a few frames)
    tight_look: bool = True  # where a seat's picture came to rest on something new and no hand was found, a look at a
    # tighter crop of its zone (more pixels per hand): an open palm on the cluttered wood render and a fist from
    # straight above were found only so
    second_look: bool = True  # an open palm or finger believed only after a look at a tighter crop (vision.second_look)
    picture_thumbs: bool = True  # a fist's thumb read off the picture where that reader knows the footage (vision.thumb)
    world_fingers: bool = True  # a finger is extended only where MediaPipe's metric 3-D landmarks say so too
    # (vision.pose): a compact thumb-up fist whose picture landmarks put the wrist on the knuckles read open
    lone_open: bool = True  # an open reading is no evidence of the form where a reading refused as no readable hand
    # lies apart from it in the zone (vision.detect._beside): a compressed fist refused beside its own forearm read
    # as an open palm
    miss_once: bool = True  # a looked miss on the very picture of the last looked miss is no new evidence in the zone
    # model (vision.zone_model._misses_once): with look_on_miss, a resting hand the detector lost was no longer
    # carried by gated repeats and its run ended early (false lifted_early on the clutter and varied renders)
    look_on_miss: bool = True  # a still zone that shows something new, where no hand was found, is looked at on
    # every frame instead of its miss being repeated by change gating (vision.detect._unchanged)

    zone_gating: bool = True  # change gating compares the seat's zone (its thumbnail cells, grown by one), not its
    # whole crop, and a gated seat repeats its own hand only: arms, gestures and neighbours in the crop cost no look
    # (on the busy table every crop changes on most frames, its zone only where a vote lands or leaves)
    still_lead: bool = True  # a still zone that shows what it showed on the window's first frame gets no periodic
    # re-check: a fresh look on that unchanged picture can only repeat the runs that agreed. 'Shows what it
    # showed' with a dim zone's differences scaled up to a lit one's: without that, a dark hand landing late in dim
    # light barely moved the zone's cells off the first picture, the re-check that finds it never came, and
    # stress_dark lost seat 9's late_vote to a false no_vote
    sparse_motion: bool = True  # a zone whose picture changes from frame to frame is looked at every
    # vision.detect.MOTION_STEP frames, not on each: a hand in flight is no vote, and the frame the zone comes to rest
    # on (a landing) or first moves on (a lift) is still looked at at once (on the busy table most looks
    # were at moving arms)
    steady_gate: bool = True  # a zone whose last two runs agreed, on the same reading of its own seat (three for an
    # open palm or a finger, which alone can make a wrong_form finding), is looked at again only when its picture moves
    # off the one they ran on by as much as holding a hand allows (a resting hand's jitter, a dim zone's differences
    # scaled up to a lit one's), not by change gating's finer margin: on the busy table a third of the looks were at
    # zones drifting under players' arms and shadows, their answer unchanged. With two open readings enough, a
    # compressed fist read twice as a finger kept that reading (a false wrong_form on stress_compressed)
    miss_stands: bool = True  # a fresh look that finds no hand of the seat in its changed zone is not looked at again
    # on the next frame to agree (look_on_miss and still_lead decide when that zone is looked at again): on the sample
    # game and the busy table those second looks changed the answer once in 189
    doubt_backoff: bool = True  # with look_on_miss, the looks at a still zone that shows something new, where no hand
    # is found, grow rarer the longer it stays so (vision.detect.DOUBT_BACKOFF): the zone model counts looked misses
    # on one picture as one (the sample game looked 26 frames in a row at one such zone, finding nothing)
    settled_recheck: bool = True  # with fresh looks, the periodic re-check of a still zone stops once a run made on a
    # settled picture (still for vision.detect.GATE_REFRESH frames) read the seat's zone as the run before it did: a
    # fresh look on that unchanged picture can only repeat it. Runs made while a hand was still settling keep being
    # re-checked (a thumb-up fist landing read as a finger, then as an open palm, and was right only after a settled
    # look); the re-checks were the largest share of the sample game's looks
    check_once: bool = True  # a hand's second look (or its thumb reading) holds while change gating repeats the
    # run it was made on (the zone shows the same picture), instead of being made again every few frames
    refused_repeat: bool = True  # a reading refused as no readable hand is repeated by change gating with the rest of
    # the run's answer instead of keeping the detector running on every frame (a fresh look at the same picture
    # refuses the same reading)


DEFAULT = VisionOptions()
