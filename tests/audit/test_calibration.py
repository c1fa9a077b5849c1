"""Finding confidence as the share of such suggestions that were right."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from review.audit import calibration
from review.audit.calibration import IDENTITY, Calibration, calibrated, platt
from review.audit.findings import Finding, FindingConsequence
from stopframe_cli.main import main


def test_the_fit_never_ranks_a_lower_score_above_a_higher_one():
    cal = platt([0.2, 0.4, 0.5, 0.6, 0.9, 0.95, 0.97, 0.3], [False, True, False, True, True, True, True, False])
    values = [cal(x) for x in (0.0, 0.3, 0.45, 0.55, 0.8, 1.0)]
    assert values == sorted(values) and cal.slope > 0


def test_one_wrong_finding_among_many_right_ones_never_reverses_the_order():
    """74 right and one wrong at a high raw score: the free fit's slope went negative and put 0.33 above 0.99."""
    scores = [0.3 + 0.009 * i for i in range(74)] + [0.8]
    cal = platt(scores, [True] * 74 + [False])
    assert cal.slope >= 0 and cal(0.33) <= cal(0.99)


@given(st.lists(st.tuples(st.floats(0, 1), st.booleans()), min_size=1, max_size=60))
def test_the_fit_is_a_probability_and_matches_the_share_right_on_average(rows):
    cal = platt([s for s, _ in rows], [r for _, r in rows])
    fitted = [cal(s) for s, _ in rows]
    assert all(0.0 <= p <= 1.0 for p in fitted)
    # a maximum-likelihood logistic fit with an offset reproduces the overall share right
    assert abs(sum(fitted) - sum(r for _, r in rows)) < 0.05 * len(rows) + 0.1


def test_no_shipped_fit_leaves_the_audits_scores_as_they_are():
    assert abs(IDENTITY(0.4275) - 0.4275) < 1e-9


def _finding(conf: float) -> Finding:
    return Finding(kind="late_vote", clause="rfm 4.4.9", consequence=FindingConsequence("foul", "x", None),
                   confidence=conf, seat=3, day=1, round=1, candidate=5, t=1.0)


def test_calibrated_findings_keep_the_audits_own_score_and_apply_once(monkeypatch):
    monkeypatch.setattr(calibration, "shipped", lambda: Calibration(2.0, -1.0, 0.5))
    once = calibrated([_finding(0.5)])
    assert abs(once[0].confidence - 0.2689) < 1e-3 and once[0].extra["x_raw_confidence"] == 0.5
    assert calibrated(once)[0].confidence == once[0].confidence  # calibrated again: unchanged


def test_audit_table_lists_the_sure_findings_first_and_counts_the_hidden(capsys):
    """The CLI orders suggestions by confidence; under --min-confidence they are counted, not listed."""
    sample_game = Path(__file__).resolve().parents[2] / "sample_videos" / "game"
    args = ["audit", "--protocol", str(sample_game / "sample_game.protocol.json"),
            "--seats", str(sample_game / "sample_game.seats.json"),
            "--observations", str(sample_game / "sample_game.observations.json")]
    assert main(args + ["--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    confidences = sorted((f["confidence"] for f in report["findings"]), reverse=True)
    assert main(args + ["--min-confidence", "0"]) == 0
    table = capsys.readouterr().out.split("Findings", 1)[1]
    order = [int(line.split()[0][1:]) for line in table.splitlines()[1:] if line.strip().startswith("#")]
    assert [report["findings"][i]["confidence"] for i in order] == confidences
    cut = confidences[len(confidences) // 2] - 0.0005  # the report rounds to 3 places; the table compares exactly
    assert main(args + ["--min-confidence", str(cut)]) == 0
    table = capsys.readouterr().out.split("Findings", 1)[1]
    below = sum(1 for c in confidences if c < cut)
    assert sum(1 for line in table.splitlines() if line.strip().startswith("#")) == len(confidences) - below
    if below:
        assert f"and {below} less sure" in table
