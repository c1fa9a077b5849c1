"""The two-camera game in the app (AppTest): both angles side by side at the same instant, stepped together,
and each finding's frames from every camera on the Vote audit cards. Hands come from the clip's saved
observations of each camera (no MediaPipe)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from appcheck import ok, strip_args
from streamlit.testing.v1 import AppTest

from stopframe_app.game import GameSpec

REPO = Path(__file__).resolve().parents[2]
CLIP = REPO / "sample_videos" / "clips" / "two_cameras.protocol.json"
FAR_LEAD_FRAMES = 43  # the far camera's offset, 1.72 s, at 25 fps


def opened(page: str) -> AppTest:
    if not CLIP.is_file():
        pytest.fail(f"{CLIP} is missing: render it with `python3 -m sample_videos two-cameras`.")
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=90)
    at.session_state["game_spec"] = GameSpec(str(CLIP))
    at.session_state["judge"] = "Chief Judge"
    at.run()
    at.sidebar.radio(key="view").set_value(page)
    return at.run()


def frames_shown(at: AppTest) -> dict[str, int]:
    """camera id -> frame number, from the captions of the pictures side by side."""
    out = {}
    for image in at.get("image"):
        for caption in image.captions:
            found = re.search(r"camera (\w+) · frame (\d+)", caption)
            if found:
                out[found.group(1)] = int(found.group(2))
    return out


def test_both_cameras_are_shown_side_by_side_at_the_same_instant_and_step_together(data: Path) -> None:
    at = opened("Timeline & frames")
    ok(at)
    assert at.toggle(key="frames_side_by_side").value is True
    assert frames_shown(at) == {"judge": 0, "far": FAR_LEAD_FRAMES}
    at.button(key="both_step_+5").click().run()
    at.button(key="both_step_+1 s").click().run()
    ok(at)
    assert frames_shown(at) == {"judge": 30, "far": 30 + FAR_LEAD_FRAMES}
    at.button(key="both_step_−1").click().run()
    assert frames_shown(at) == {"judge": 29, "far": 29 + FAR_LEAD_FRAMES}
    # Picking an event moves both: the first candidate's call, with the vote-relative clock on both captions.
    box = at.selectbox(key="timeline_event")
    box.set_value(next(o for o in box.options if "candidate 6" in o and "vote" in o)).run()
    ok(at)
    shown = frames_shown(at)
    assert shown["far"] == shown["judge"] + FAR_LEAD_FRAMES
    captions = [c for image in at.get("image") for c in image.captions]
    clocks = [re.search(r"candidate 6 · t = ([-+]\d+\.\d+) s", c) for c in captions]
    assert len(clocks) == 2 and all(clocks) and clocks[0].group(1) == clocks[1].group(1), captions
    assert abs(float(clocks[0].group(1))) < 0.04  # the frame on screen at the call (3.15 s falls inside frame 78)
    # One camera only, as before: the single viewer.
    at.toggle(key="frames_side_by_side").set_value(False).run()
    ok(at)
    assert list(frames_shown(at)) == [] and strip_args(at) is not None  # stepping in the browser, its default


def test_a_finding_shows_its_frames_from_every_camera(data: Path) -> None:
    at = opened("Vote audit")
    ok(at)
    labels = [e.label for e in at.expander]
    every = [label for label in labels if label.startswith("The evidence from every camera")]
    assert every and all("judge" in label and "far" in label for label in every)
    captions = [c for image in at.get("image") for c in image.captions]
    assert any("camera far" in c and "its evidence" in c for c in captions)
    assert any("camera judge" in c and "not used" in c for c in captions)  # seat 6: behind the vase for the judge


def test_a_drifting_camera_is_shown_at_the_same_moment_late_in_the_game() -> None:
    """100 ppm over an hour is 0.36 s, nine frames at 25 fps: the side-by-side view follows the drift both ways."""
    from contract.clock import Clock
    from stopframe_app.views.frames import CameraSide, camera_time

    judge = CameraSide("judge", "judge.mp4", Clock.protocol_to(0.0), None, (), True)
    far = CameraSide("far", "far.mp4", Clock.protocol_to(1.72, 100.0), None, (), False)
    assert camera_time(judge, far, 3600.0) == pytest.approx(1.72 + 3600.0 * (1 + 100e-6), abs=1e-9)
    assert camera_time(far, judge, camera_time(judge, far, 3600.0)) == pytest.approx(3600.0, abs=1e-9)
    assert camera_time(judge, judge, 12.3) == 12.3
