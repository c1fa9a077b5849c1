"""As a property: whatever subset of findings a judge confirms (or edits), on the sample game
or any rendered clip, under every profile, the corrected protocol validates and replays under its rules, with
the fines and changed counts in place and every event in game order — or the findings it cannot take are named,
each in one sentence, before anything is written."""

from __future__ import annotations

import math

import pytest
from corrections import PROFILES, decision, names, source
from hypothesis import given
from hypothesis import strategies as st

from review.cases.corrected import CorrectionError, check_corrections, corrected_protocol, correction_problems
from review.game.engine import replay
from review.game.protocol import validate

PENALTIES = ("foul", "warning", "fine", "removal")


@st.composite
def judged(draw: st.DrawFn, rules: str) -> tuple[dict, list, list]:
    """A game, the findings the judge confirms (some edited: another count, another consequence), its votes."""
    name = draw(st.sampled_from(names()))
    protocol, findings, votes = source(name, rules)
    chosen = draw(st.lists(st.sampled_from(range(len(findings))), unique=True)) if findings else []
    decisions = []
    for i in chosen:
        f = findings[i]
        how = draw(st.sampled_from(("confirmed", "confirmed", "rejected", "edited")))
        edited = None
        if how == "edited":
            if f.kind == "count_mismatch":
                edited = {"count": draw(st.integers(0, 10))}
            else:
                kind = draw(st.sampled_from(("foul", "warning", "fine", "removal", "not_counted", "none")))
                edited = {"consequence": {"type": kind, "points": -0.2 if kind == "fine" else None,
                                          "text": f"edited by the judge: {kind}"}}
        decisions.append(decision(f, how, edited, at=float(len(decisions))))
    return protocol, decisions, votes


def _check(protocol: dict, decisions: list, votes: list) -> None:
    problems = correction_problems(protocol, decisions, votes=votes)
    for p in problems:  # one sentence a judge reads, naming the finding
        assert p.sentence.endswith(".") and p.sentence[0].isupper() and p.finding_key
        assert "None" not in p.sentence and "{" not in p.sentence and "Errno" not in p.sentence
        assert f"seat {p.finding.seat}" in p.sentence if p.finding is not None and p.finding.seat is not None else True
    assert check_corrections(protocol, decisions, votes=votes) == [p.sentence for p in problems]

    out = corrected_protocol(protocol, decisions, votes=votes, strict=False)
    assert validate(out) == []  # the file a judge signs validates with our own validator ...
    game = replay(out)
    assert game.problems == [] and game.result == replay(protocol).result  # ... and replays to the same result
    times = [e["t"] for e in out["events"] if isinstance(e.get("t"), int | float)]
    assert times == sorted(times)  # every event in game order
    assert all(math.isfinite(t) for t in times)

    refused = {p.finding_key for p in problems}
    for d in decisions:
        f, key = d.effective_finding, d.finding_key
        added = [e for e in out["events"] if (e.get("x_review") or {}).get("finding") == key]
        ctype = f.consequence.type
        if not d.stands or key in refused:
            assert not added  # rejected or refused: nothing of it in the protocol
        elif ctype in PENALTIES and f.kind != "count_mismatch":
            assert added[0]["seat"] == f.seat  # the fine / foul / removal is in place
            assert added[0]["type"] == {"warning": "foul"}.get(ctype, ctype)
            points = f.consequence.points
            if ctype in ("fine", "removal") and isinstance(points, float | int) and points < 0:
                assert added[-1]["type"] == "fine" and added[-1]["points"] == points  # rfm 5.12: −1.2 with it
            assert len(added) == (2 if ctype == "removal" and added[-1]["type"] == "fine" else 1)
    if problems:
        with pytest.raises(CorrectionError) as caught:
            corrected_protocol(protocol, decisions, votes=votes)
        assert [p.sentence for p in caught.value.problems] == [p.sentence for p in problems]
        assert "refused" in out["x_review"]
    else:
        strict = corrected_protocol(protocol, decisions, votes=votes)
        assert strict == out and "refused" not in out["x_review"]


@pytest.mark.parametrize("rules", PROFILES)
def test_any_confirmed_subset_gives_a_protocol_that_validates_and_replays(rules: str) -> None:
    @given(judged(rules))
    def run(case: tuple[dict, list, list]) -> None:
        _check(*case)

    run()


@pytest.mark.parametrize("rules", PROFILES)
def test_every_single_finding_confirmed_alone_validates_or_is_named(rules: str) -> None:
    for name in names():
        protocol, findings, votes = source(name, rules)
        for f in findings:
            _check(protocol, [decision(f)], votes)


@pytest.mark.parametrize("rules", PROFILES)
def test_all_findings_confirmed_at_once_validate_without_the_named_ones(rules: str) -> None:
    for name in names():
        protocol, findings, votes = source(name, rules)
        _check(protocol, [decision(f, at=float(i)) for i, f in enumerate(findings)], votes)
