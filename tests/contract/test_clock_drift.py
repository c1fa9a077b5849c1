"""The clock's rate (a camera's drift): protocol ↔ camera times, and one camera's times on another's clock."""

from __future__ import annotations

import pytest

from contract.clock import Clock


def test_a_drifting_camera_runs_its_offset_plus_the_protocol_time_scaled():
    far = Clock.protocol_to(2.0, 100.0)
    assert far.video_time(0.0) == 2.0 and far.video_time(3600.0) == pytest.approx(3602.36)
    assert far.protocol_time(3602.36) == pytest.approx(3600.0)


def test_without_drift_a_clock_is_the_offset_alone_to_the_last_bit():
    plain, stated = Clock(None, offset_s=0.1), Clock.protocol_to(0.1)
    for t in (0.0, 0.2, 17.3, 3599.99):
        assert stated.video_time(t) == plain.video_time(t) == t + 0.1


def test_one_cameras_times_on_anothers_clock():
    main, far = Clock.protocol_to(0.5, -20.0), Clock.protocol_to(2.0, 100.0)
    scale, shift = far.moved_onto(main)
    for t in (0.0, 1800.0, 3600.0):
        assert far.video_time(t) * scale + shift == pytest.approx(main.video_time(t), abs=1e-9)
    assert main.moved_onto(main) == (1.0, 0.0)
    assert Clock.protocol_to(2.0).moved_onto(Clock.protocol_to(0.5)) == (1.0, 0.5 - 2.0)  # the offsets' difference
