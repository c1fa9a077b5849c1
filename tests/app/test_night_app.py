"""Night findings in the app: the vote-audit page shows them beside the day's, with clause, evidence and decisions.

Driven through Streamlit's AppTest on the bundled sample game and its shared observations (no MediaPipe).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from appcheck import shown
from samplegame import require_current_sample_fixture
from streamlit.testing.v1 import AppTest

from review.audit.findings import Finding
from review.cases.store import Store, default_db_path, finding_key, game_id_for
from stopframe_app.decisions import card_key
from stopframe_app.game import SAMPLE_PROTOCOL, GameSpec

REPO = Path(__file__).resolve().parents[2]
OBSERVATIONS = SAMPLE_PROTOCOL.with_name("sample_game.observations.json")
FAKED_SHOT = Finding.from_json({"kind": "night_hand", "night": 2, "seat": 5, "day": None})


@pytest.fixture(autouse=True)
def _current_sample() -> None:
    """A stale sample-game fixture, or one without the nights, fails every test here with how to refresh it."""
    require_current_sample_fixture(nights=True)


def test_night_findings_are_on_the_vote_audit_page_with_clause_frames_and_a_confirm(tmp_path: Path,
                                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The nights' shootings and checks as the protocol and the video have them; the red seat 5 faking a
    shot on night 2 (rfm 5.12.10) is a card like a day finding: clause, the evidence frame from the
    video, and Confirm, which the store keeps under the night identity."""
    monkeypatch.setenv("STOPFRAME_DATA", str(tmp_path / "data"))
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    at.session_state["game_spec"] = GameSpec(str(SAMPLE_PROTOCOL), observations=str(OBSERVATIONS))
    at.session_state["judge"] = "Chief Judge"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(s.value.startswith("Night and other findings") for s in at.subheader)
    text = "\n".join(m.value for m in at.markdown)
    assert "**night hand — seat 5" in text and "night 2**" in text and "`rfm 5.12.10`" in text
    assert "**night hand — seat 1" in text and "`rfm 4.5.12`" in text
    assert "shot mismatch" not in text and "check mismatch" not in text  # the nights agree with the protocol
    (nights,) = [t.value.map(shown) for t in at.table if "what" in t.value.columns]
    assert list(zip(nights.index, nights["protocol"], nights["video"], strict=True)) == [
        (1, "seat 10 killed", "seat 10 killed"), (1, "seat 4", "shows 4"), (1, "seat 9", "shows 9"),
        (2, "miss", "miss: different numbers"), (2, "seat 1", "shows 1"), (2, "seat 2", "shows 2"),
        (3, "seat 4 killed", "seat 4 killed"), (3, "seat 8", "shows 8")]
    captions = [c for img in at.get("image") for c in img.captions]
    assert any(f"frame {round(89.8 * 25)} ·" in c for c in captions), captions  # the red hand going up
    at.button(key=f"{card_key(FAKED_SHOT)}_confirm").click().run()
    assert not at.exception, [e.value for e in at.exception]
    protocol = json.loads(SAMPLE_PROTOCOL.read_text(encoding="utf-8"))
    decisions = Store(default_db_path()).decisions(game_id_for(protocol, SAMPLE_PROTOCOL))
    assert decisions[finding_key(FAKED_SHOT)].status == "confirmed"
