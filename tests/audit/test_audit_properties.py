"""Whatever hands vision reports, the audit answers: no crash, one finding per identity, sane numbers."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from review.audit.audit import audit

FIX = Path(__file__).parents[1] / "fixtures" / "audit"
PROTOCOL = json.loads((FIX / "day_vote.protocol.json").read_text())
POSES = ["fist", "thumb_up_fist", "open_palm", "finger", "other"]


@st.composite
def hands(draw):
    seat = draw(st.integers(1, 10))
    on_frame = draw(st.integers(200, 540))
    off_frame = on_frame + draw(st.integers(1, 120))
    return {"seat": seat, "on": on_frame / 25, "off": off_frame / 25, "pose": draw(st.sampled_from(POSES)),
            "confidence": draw(st.floats(0.3, 1.0)), "on_frame": on_frame, "off_frame": off_frame}


@settings(max_examples=60)
@given(st.lists(hands(), max_size=25), st.sampled_from(["rfm", "mafclub", "lvi2015", "showtime"]),
       st.sets(st.integers(1, 10), max_size=3))
def test_any_hands_give_a_coherent_report(hand_list, rules, hidden):
    protocol = dict(PROTOCOL, rules=rules)
    obs = {"format": "stopframe-observations/1", "video": "v.mp4", "fps": 25, "hands": hand_list}
    report = audit(protocol, obs, visible_seats=set(range(1, 11)) - hidden)
    identities = [f.identity for f in report.findings]
    assert len(identities) == len(set(identities))
    for f in report.findings:
        assert 0.0 <= f.confidence <= 1.0 and f.clause and f.evidence.frames
        if f.kind in ("no_vote", "late_vote", "early_hand", "lifted_early", "double_vote", "wrong_form"):
            assert f.seat not in hidden
    for v in report.votes:
        if v.video_voters is None:  # a round with no hand at all in it: nobody watched it (spec §4)
            assert "do not cover" in v.extra["x_note"]
            continue
        supported = v.extra["x_supported_count"]
        lo, hi = supported if isinstance(supported, list) else (supported, supported)
        assert 0 <= lo <= hi <= 10
        assert set(v.silent_seats).isdisjoint(hidden)
        assert set(v.extra["x_counted_voters"]) <= set(v.video_voters)
    json.dumps(report.to_json())  # the report is plain JSON
