"""The pipeline is the one door: the app's open game (a protocol and observations already read) and the command
line (the game's files) get the same audit of the sample game, nights included, and within one audit the game is
replayed and its vote windows worked out once, not again inside review's audit. No video is opened."""

from __future__ import annotations

from typing import Any

import pytest
from corrections import SAMPLE

import pipeline.audit
import pipeline.game
import review.audit.audit
from contract.observations import read_observations
from contract.seats import load_seat_map
from pipeline.audit import audit_game, audit_observations, looked_at_nights
from review.game.profiles import get_profile
from review.game.protocol import load_protocol


def test_the_app_and_the_command_line_audit_the_sample_game_alike() -> None:
    from_files = audit_game(**SAMPLE, nights=True)
    data = load_protocol(SAMPLE["protocol"]).data
    seen = read_observations(SAMPLE["observations"])
    assert looked_at_nights(seen)  # the sample game's observations carry the nights
    from_app = audit_observations(data, seen, profile=get_profile(data["rules"]),
                                  visible_seats=sorted(load_seat_map(SAMPLE["seats"]).seats),
                                  video=seen["video"], nights=True)
    assert from_app.to_json() == from_files.to_json()
    assert {f.kind for f in from_app.findings} >= {"late_vote", "night_hand"}


def test_one_audit_replays_the_game_and_works_out_its_windows_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"replay": 0, "windows": 0}

    def counted(name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return real(*args, **kwargs)
        return call

    def never(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("review's audit worked out again what the pipeline handed it")

    monkeypatch.setattr(pipeline.game, "replay", counted("replay", pipeline.game.replay))
    monkeypatch.setattr(pipeline.audit, "vote_windows", counted("windows", pipeline.audit.vote_windows))
    monkeypatch.setattr(review.audit.audit, "replay", never)
    monkeypatch.setattr(review.audit.audit, "vote_windows", never)
    report = audit_game(**SAMPLE)
    assert calls == {"replay": 1, "windows": 1} and report.findings
