"""Fit the finding confidence on our own clips and check it on footage we did not draw.

    python3 bench/confidence_calibration.py [--ours DIR] [--validation DIR] [--varied N] [--fresh] [--write | --shipped]

1. Audits every rendered clip that has a truth (`sample_videos/clips`, `sample_videos/game`; nights
   with `--nights`; with `--varied N` also the varied renders 1..N of sample_videos/varied.py, which hold most of
   our own wrong findings) into `--ours` (reused unless `--fresh`).
2. Labels each reported finding right, wrong or neither with the validation set's own scorer
   (`../shared/validation/score_audit.py`, imported, so both sets are judged by one rule).
3. Fits the logistic (Platt) calibration on our clips only and, with `--write`, ships it as `review/audit/confidence.json`
   with the default threshold: the lowest calibrated value above which our own findings are ≥ 95 % right.
   `--shipped` fits nothing and checks the table the product ships instead.
4. Prints the reliability table (calibrated bin → share right) on ours and on the validation reports in
   `--validation` (a `../shared/validation/run.sh` output folder), and precision above the threshold.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from review.audit.calibration import TABLE, Calibration, platt, shipped  # noqa: E402

VALIDATION = ROOT.parent / "shared" / "validation"
BINS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.01)
TARGET_PRECISION = 0.95


def our_clips(varied: int = 0) -> list[Path]:
    """Truth files of our renders whose clip, protocol and seat map are all there."""
    from validation_compare import varied_clips

    found = sorted((ROOT / "sample_videos" / "clips").glob("*.truth.json")) + [
        ROOT / "sample_videos" / "game" / "sample_game.truth.json"] + [
        Path(f"{stem}.truth.json") for _, _, stem in varied_clips(varied)]
    return [t for t in found if all(t.with_name(t.name.replace(".truth.json", s)).exists()
                                    for s in (".mp4", ".protocol.json", ".seats.json"))]


def audit_ours(out: Path, fresh: bool, varied: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for truth in our_clips(varied):
        name = truth.name.removesuffix(".truth.json")
        target = out / f"{name}.audit.json"
        if target.exists() and not fresh:
            continue
        night = bool(json.loads(truth.read_text()).get("raised"))
        base = truth.with_name(name)
        cmd = ["stopframe", "audit", f"{base}.mp4", "--protocol", f"{base}.protocol.json",
               "--seats", f"{base}.seats.json", "--out", str(target)] + (["--nights"] if night else [])
        print(f"auditing {name}", file=sys.stderr, flush=True)
        subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def raw_score(finding: dict) -> float:
    return float(finding.get("x_raw_confidence", finding.get("confidence", 0.0)))


def labelled(sa, truth_path: Path, report_path: Path) -> list[tuple[float, bool]]:
    """(raw score, right) per reported finding the scorer rewards or penalises (ignored ones dropped)."""
    if not report_path.exists():
        return []
    truth = json.loads(truth_path.read_text())
    findings = sa.dedupe(json.loads(report_path.read_text()).get("findings") or [])
    whole = sa.score_clip(truth_path.name, truth, {"findings": findings, "votes": []})
    out = []
    for j, f in enumerate(findings):
        rest = sa.score_clip(truth_path.name, truth, {"findings": findings[:j] + findings[j + 1:], "votes": []})
        if rest["tp"] < whole["tp"]:
            out.append((raw_score(f), True))
        elif rest["fp"] < whole["fp"]:
            out.append((raw_score(f), False))
    return out


def reliability(cal: Calibration, rows: list[tuple[float, bool]], threshold: float) -> list[str]:
    lines = ["| calibrated confidence | findings | right | share right |", "|---|---|---|---|"]
    for lo, hi in zip(BINS, BINS[1:], strict=False):
        inside = [r for s, r in rows if lo <= cal(s) < hi]
        if inside:
            lines.append(f"| {lo:.2f}–{min(hi, 1):.2f} | {len(inside)} | {sum(inside)} | {sum(inside) / len(inside):.2f} |")
    shown = [r for s, r in rows if cal(s) >= threshold]
    allp = sum(r for _, r in rows) / len(rows) if rows else float("nan")
    shownp = sum(shown) / len(shown) if shown else float("nan")
    lines.append(f"\nprecision: all {allp:.2f} ({len(rows)}); at or above {threshold:.2f}: {shownp:.2f} "
                 f"({len(shown)} shown, {sum(shown)} right of {sum(r for _, r in rows)} right in all)")
    return lines


def choose_threshold(cal: Calibration, rows: list[tuple[float, bool]]) -> float:
    """The lowest calibrated value above which our own findings are at least TARGET_PRECISION right."""
    for t in sorted({math.floor(cal(s) * 1000) / 1000 for s, _ in rows}):  # floored: shown at t keeps its own
        shown = [r for s, r in rows if cal(s) >= t]
        if shown and sum(shown) / len(shown) >= TARGET_PRECISION:
            return t
    return 1.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ours", type=Path, default=ROOT / "bench" / "out" / "confidence")
    ap.add_argument("--validation", type=Path, help="a ../shared/validation/run.sh output folder")
    ap.add_argument("--varied", type=int, default=0, metavar="N", help="fit on the varied renders 1..N too")
    ap.add_argument("--fresh", action="store_true")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--write", action="store_true", help="ship the fitted table as review/audit/confidence.json")
    how.add_argument("--shipped", action="store_true", help="check the shipped table instead of fitting one")
    a = ap.parse_args()
    from validation_compare import validation_module

    sa = validation_module("score_audit.py")
    audit_ours(a.ours, a.fresh, a.varied)
    ours = [row for t in our_clips(a.varied) for row in labelled(sa, t, a.ours / t.name.replace(".truth.json", ".audit.json"))]
    if a.shipped:
        cal = shipped()
        threshold = cal.default_threshold
        print(f"the shipped fit (slope {cal.slope}, offset {cal.offset}); default threshold {threshold:.3f}\n")
    else:
        fit = platt([s for s, _ in ours], [r for _, r in ours])
        threshold = choose_threshold(fit, ours)
        cal = Calibration(fit.slope, fit.offset, threshold)
        print(f"fitted on {len(ours)} findings of our own clips; default threshold {threshold:.3f}\n")
    print("**Our clips**\n")
    print("\n".join(reliability(cal, ours, threshold)))
    if a.validation:
        val = [row for t in sorted((VALIDATION / "clips").glob("*.truth.json"))
               for row in labelled(sa, t, a.validation / t.name.replace(".truth.json", ".audit.json"))]
        print("\n**Validation clips** (never fitted on)\n")
        print("\n".join(reliability(cal, val, threshold)))
    if a.write:
        TABLE.write_text(json.dumps(cal.to_json(fitted_on=f"{len(ours)} findings of the project's rendered clips"),
                                    indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {TABLE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
