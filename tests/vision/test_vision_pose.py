"""Pose from landmarks, checked on the 39 labelled real hands of ../shared/assets/hands."""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pytest

from contract.observations import POSES
from vision.pose import classify, plausible_hand, pose_of_gesture

INDEX = Path(__file__).resolve().parents[3] / "shared" / "assets" / "hands" / "index.json"
needs_assets = pytest.mark.skipif(not INDEX.is_file(), reason="../shared/assets/hands is absent (real hand cut-outs)")


def labelled() -> list[tuple[str, str, np.ndarray]]:
    entries = json.loads(INDEX.read_text())
    return [(e["name"], e["gesture"], np.array(m, float)) for e in entries for m in e["landmarks"]]


def confusion() -> dict[str, Counter]:
    table: dict[str, Counter] = defaultdict(Counter)
    for _, gesture, marks in labelled():
        table[pose_of_gesture(gesture)][classify(marks).pose] += 1
    return table


@needs_assets
def test_every_vote_form_in_the_labelled_set_is_read_right() -> None:
    # The forms a judge rules on: fist, thumb-up fist, open palm / four fingers, single finger.
    table = confusion()
    for pose in ("fist", "thumb_up_fist", "open_palm", "finger"):
        total = sum(table[pose].values())
        assert total and table[pose][pose] == total, (pose, dict(table[pose]))
    assert sum(table["open_palm"].values()) == 11 and sum(table["thumb_up_fist"].values()) == 3


@needs_assets
def test_rock_sign_is_other_and_counts_two_fingers() -> None:
    rocks = [marks for name, _, marks in labelled() if name.startswith("td_rock")]
    assert len(rocks) == 10
    assert {classify(m).pose for m in rocks} == {"other"}
    assert {classify(m).fingers for m in rocks} == {2}


@needs_assets
def test_raised_hand_finger_counts() -> None:
    counts = {name: classify(marks).fingers for name, _, marks in labelled()}
    assert counts["hg_palm"] == 5 and counts["hg_fist"] == 0 and counts["hg_like"] == 1 and counts["hg_one"] == 1
    assert all(counts[n] == 4 for n in counts if n.startswith("td_four"))


@needs_assets
def test_labelled_landmarks_are_plausible_hands_and_pose_ignores_rotation() -> None:
    rng = np.random.default_rng(1)
    for name, _, marks in labelled():
        assert plausible_hand(marks), name
        angle = rng.uniform(0, 2 * math.pi)
        rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
        turned = marks @ rot.T * rng.uniform(0.3, 3.0) + rng.uniform(-500, 500, 2)
        assert classify(turned).pose == classify(marks).pose, name


@needs_assets
def test_report_confusion_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    table = confusion()
    with capsys.disabled():
        print("\npose confusion on ../shared/assets/hands (rows: label, columns: read)")
        print(" " * 14 + "".join(f"{p[:11]:>12}" for p in POSES))
        for truth in POSES:
            print(f"{truth:>14}" + "".join(f"{table[truth][p]:>12}" for p in POSES))
    assert sum(sum(c.values()) for c in table.values()) == 40  # 39 sprites, one with two hands


def test_fake_landmark_sets_are_rejected() -> None:
    rng = np.random.default_rng(0)
    assert not plausible_hand(rng.uniform(0, 200, (21, 2)))  # scattered points
    assert not plausible_hand(np.zeros((21, 2)))  # collapsed
    line = np.stack([np.linspace(0, 200, 21), np.linspace(0, 10, 21)], axis=1)
    assert not plausible_hand(line)  # every point on one line
    assert not plausible_hand(np.full((21, 2), np.nan))
    assert not plausible_hand(np.zeros((5, 2)))


@needs_assets
def test_a_finger_counts_as_extended_only_where_the_3d_landmarks_say_so_too() -> None:
    # a compact fist whose picture landmarks put the wrist on the knuckles reads "open" in 2-D; MediaPipe's metric
    # 3-D landmarks of the same reading keep the fingers curled, and then the hand is no open palm
    _, _, palm = next(e for e in labelled() if e[1] == "palm")
    _, _, fist = next(e for e in labelled() if e[1] == "fist")
    assert classify(palm).pose == "open_palm"
    curled = np.column_stack([fist[:, :2] / 100.0, np.zeros(21)])
    assert classify(palm, world=curled).pose != "open_palm"
    assert classify(palm, world=np.column_stack([palm[:, :2] / 100.0, np.zeros(21)])).pose == "open_palm"
    assert classify(palm, world=None).pose == classify(palm, world=np.full((21, 3), np.nan)).pose == "open_palm"
