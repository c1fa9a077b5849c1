"""`stopframe audit`: one game's vote audit, or every game of a folder in parallel (spec §6).

    stopframe audit VIDEO --protocol P --seats S [--rules ID] [--json] [--out FILE] [--fail-on-findings]
                    [--observations OBS.json] [--marks M.json] [--model full|lite] [--nights]
    stopframe audit --protocol P [--camera-observations ID=OBS.json ...]   (P names several cameras: videos)
    stopframe audit --batch DIR [--jobs N] [--out DIR] [--reuse-observations] [--nights]

`--nights` adds the night audit (review.audit.night): the shootings and checks the video shows against the
protocol's, as night findings plus one `x_nights` row per shooting and check.

The audit itself is the pipeline's (pipeline.audit.audit_game); here are the arguments, the readable
tables and the batch runner.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract import i18n
from contract.errors import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
    UnreadableInput,
)
from contract.i18n import _, ngettext, term
from contract.jsonio import dumps, write_atomic
from pipeline.audit import audit_game
from pipeline.batch import AuditTask, TaskResult, find_games, run_local
from review.audit.findings import FINDING_KINDS, AuditReport, about
from review.audit.tally import default_least, less_sure, sure_first, tally
from review.cases.exports import finding_said
from review.cases.sentences import humanise
from review.game.profiles import PROFILES
from stopframe_cli.output import add_output_options, emit, progress
from stopframe_cli.parsing import number, whole_number

MAX_TABLE_TEXT = 90  # kept for callers; the table no longer cuts a finding's sentence


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "audit",
        help=_("audit every vote of a game: the video's hands against the protocol, under its rules"),
        description=_("Audit every vote of a game against its video (spec §4), or every game in a folder (--batch)."),
    )
    p.add_argument("video", nargs="?", metavar="VIDEO", help=_("the game video (default: the protocol's video.path)"))
    p.add_argument("--protocol", metavar="PROTOCOL", help=_("the game's protocol (*.protocol.json)"))
    p.add_argument("--seats", metavar="SEATS", help=_("the camera's seat map (*.seats.json)"))
    p.add_argument("--rules", metavar="ID", help=_("audit under this rule profile instead of the protocol's"))
    p.add_argument("--observations", metavar="OBS", help=_("use saved stopframe-observations/1 instead of looking at the video"))
    p.add_argument("--camera-observations", nargs="+", metavar="ID=OBS",
                   help=_("with several cameras (the protocol's videos, no VIDEO or --seats): saved observations per camera id"))
    p.add_argument("--marks", metavar="MARKS", help=_("the judge's vote times (default: NAME.marks.json beside the protocol)"))
    p.add_argument("--model", choices=("full", "lite"), default="full", help=_("hand landmark model (default full)"))
    p.add_argument("--fail-on-findings", action="store_true", help=_("exit 1 when there is any finding"))
    p.add_argument(
        "--min-confidence", type=number, default=None, metavar="C",
        help=_("list findings of at least this confidence in the table (default: the calibrated default; 0 lists all)"),
    )
    p.add_argument(
        "--nights", action="store_true",
        help=_("audit the nights too: shootings and checks (from the observations' x_raised / x_shown_numbers, or the video)"),
    )
    p.add_argument("--batch", metavar="DIR", help=_("audit every NAME.mp4 + NAME.protocol.json + NAME.seats.json in DIR"))
    p.add_argument("--jobs", type=whole_number, default=None, metavar="N", help=_("games audited at once in --batch (default: cores)"))
    p.add_argument(
        "--reuse-observations", action="store_true",
        help=_("in --batch, use NAME.observations.json where present instead of looking at the video"),
    )
    add_output_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    _check_numbers(args)
    if args.batch:
        if args.video or args.protocol or args.seats or args.observations:
            raise UnreadableInput(_("audit --batch takes a folder only, not VIDEO, --protocol, --seats or --observations."))
        return run_batch(args)
    if not args.protocol or not (args.seats or args.video or args.camera_observations or _has_cameras(args.protocol)):
        raise UnreadableInput(_("audit needs --protocol PROTOCOL and --seats SEATS (or --batch DIR; or a protocol "
                                "with several cameras, videos, whose seat maps it names)."))
    if args.rules is not None and args.rules not in PROFILES:  # a wrong argument: exit 2
        raise UnreadableInput(_("--rules {rules}: not a rule profile; known: {known}.", rules=args.rules[:30], known=", ".join(PROFILES)))
    report = audit_game(
        protocol=args.protocol, seats=args.seats, video=args.video, rules=args.rules,
        observations=args.observations, marks=args.marks, model=args.model, progress=progress, nights=args.nights,
        camera_observations=_by_camera(args.camera_observations),
    )
    least = default_least() if args.min_confidence is None else args.min_confidence
    emit(args, report.to_json(), lambda: report_table(report, least))
    return EXIT_INVALID if args.fail_on_findings and report.findings else EXIT_OK


def _check_numbers(args: argparse.Namespace) -> None:
    """Refuse, before any video is read, a number no audit can use: a confidence outside 0–1 (2 would hide every
    finding behind «and 8 less sure»), fewer than one game at a time."""
    least = args.min_confidence
    if least is not None and not 0 <= least <= 1:
        raise UnreadableInput(_("--min-confidence {value}: a confidence is a share from 0 to 1.", value=i18n.number(least)))
    if args.jobs is not None and args.jobs < 1:
        raise UnreadableInput(_("--jobs {jobs}: at least one game must run at a time.", jobs=args.jobs))


def _has_cameras(protocol: str) -> bool:
    """Whether the protocol names several cameras (`videos`): then VIDEO and --seats may be left out."""
    from review.game.protocol import load_protocol

    return bool(load_protocol(protocol).data.get("videos"))


def _by_camera(items: list[str] | None) -> dict[str, str] | None:
    """`--camera-observations ID=FILE ...` as {id: file}; exit 2 for an item without `=`."""
    if not items:
        return None
    bad = next((i for i in items if "=" not in i or i.startswith("=")), None)
    if bad is not None:
        raise UnreadableInput(_("--camera-observations {item}: give each as CAMERA_ID=OBSERVATIONS_FILE.", item=bad[:60]))
    return dict(i.split("=", 1) for i in items)


# ---------------------------------------------------------------- readable tables


def report_table(report: AuditReport, min_confidence: float = 0.0) -> str:
    """The audit as a judge reads it: votes, then findings most confident first (`#` is the index
    `stopframe correct --confirm` takes); those below `min_confidence` are counted, not listed."""
    lines = [_("Audit of {video} under {rules}", video=report.video or _("the video"), rules=report.rules), "", _("Votes")]
    lines.append(f"  {_('day'):>3} {_('rnd'):>3}  {_('candidate'):<10} {_('protocol'):>8} {_('video'):>5}  {_('conf'):>4}  "
                 + _("voters seen / outcome"))
    shown = [v for v in report.votes if v.video_voters is not None]
    if len(shown) < len(report.votes):
        lines.append("  " + _("({n} of {total} votes are not on this video or have no times: not audited)",
                              n=len(report.votes) - len(shown), total=len(report.votes)))
        lines.append("  " + _("(a vote with no time is timed from the judge's voice by `stopframe align VIDEO --protocol "
                              "P --out TIMED.protocol.json`, then audited from that file)"))
    for n, v in enumerate(shown):
        who = str(v.candidate) if v.kind == "vote" else _("lift {seats}", seats=",".join(map(str, v.candidates or ())))
        count = tally(v)  # the one count every surface shows (review.audit.tally)
        video = count.count_text if count.known else "-"
        voters = " ".join(map(str, v.video_voters or ())) or "-"
        if v.silent_seats:
            voters += " " + _("(+silent {seats})", seats=" ".join(map(str, v.silent_seats)))
        pc = "-" if v.protocol_count is None else str(v.protocol_count)
        lines.append(f"  {v.day:>3} {v.round:>3}  {who:<10} {pc:>8} {video:>5}  {i18n.number(v.confidence, 2, fixed=True):>4}  {voters}")
        following = shown[n + 1] if n + 1 < len(shown) else None
        end_of_round = following is None or (following.day, following.round, following.kind) != (v.day, v.round, v.kind)
        if end_of_round and v.outcome.video is not None:
            mark = _("CHANGED — ") if v.outcome.changed else ""
            by_protocol = humanise(v.outcome.protocol) if v.outcome.protocol else _("not known (a count is missing)")
            lines.append(f"  {'':>10}{mark}" + _("by the protocol: {protocol}; by the video: {video}", protocol=by_protocol,
                                                  video=humanise(v.outcome.video)))
    lines += ["", _("Findings ({n}, most confident first)", n=len(report.findings))]
    lines += _finding_lines(report, min_confidence)
    if "x_nights" in report.extra:
        lines += ["", _("Nights")]
        rows = report.extra["x_nights"] or []
        if not rows:
            lines.append("  " + _("no timed shooting or check"))
        for r in rows:
            shooting = r.get("kind") == "shooting"
            by = str(r.get("by") or "")
            what = _("shooting") if shooting else _("check by {by}", by=term("checker", by.capitalize(), by) if by
                                                     else _("the checker"))
            protocol = r.get("protocol_target")
            if shooting:
                protocol_words = _("miss") if protocol is None else _("seat {seat} killed", seat=protocol)
                target, outcome = r.get("video_target"), r.get("video_outcome")
                if outcome == "undetermined" or (target is None and not outcome):
                    video = _("not determined")
                else:
                    video = _("seat {seat} killed", seat=target) if target is not None else _("miss")
                    if outcome and outcome != "kill":
                        video += f" ({humanise(outcome)})"
            else:
                protocol_words = "-" if protocol is None else _("seat {seat}", seat=protocol)
                number = r.get("video_number")
                video = _("no number read") if number is None else _("seat {seat}", seat=number)
            note = f"  ({humanise(r['note'])})" if r.get("note") and r.get("note") not in video else ""
            start, end = r.get("start"), r.get("end")
            span = f"{i18n.number(start, 2, fixed=True):>8}–{i18n.number(end, 2, fixed=True):<8}" if isinstance(start, int | float) and isinstance(end, int | float) else f"{'-':>8} {'':<8}"
            lines.append(f"  {_('n{night}', night=r.get('night'))} {what:<19} {span} "
                         + _("protocol: {protocol}  video: {video}", protocol=protocol_words, video=video) + note)
    return "\n".join(lines)


def _finding_lines(report: AuditReport, min_confidence: float) -> list[str]:
    """The findings most confident first, one a line, the columns as wide as their longest words in this language
    (Russian names run longer than English ones); those below `min_confidence` counted, not listed."""
    lines: list[str] = []
    if not report.findings:
        lines.append("  " + _("none"))
    index_of = {id(f): i for i, f in enumerate(report.findings)}
    listed = sure_first(report.findings, min_confidence)  # the app's list leaves out the same (review.audit.tally)
    hidden = [f for f in report.findings if less_sure(f, min_confidence)]
    kinds = {id(f): term("kind", f.kind) for f in listed}
    whos = {id(f): about(f) for f in listed}
    conses = {id(f): term("consequence", f.consequence.type) + (
        f" {i18n.number(f.consequence.points, signed=True)}" if f.consequence.points is not None else "") for f in listed}
    kind_w, who_w, cons_w = (max((len(w) for w in words.values()), default=0) for words in (kinds, whos, conses))
    for f in listed:
        index = index_of[id(f)]
        when = "-" if f.t is None else _("{seconds}s", seconds=f"{i18n.number(f.t, 2, fixed=True):>8}")
        cons = conses[id(f)]
        assumed = " " + _("[assumed: {what}]", what=", ".join(term("assumed_cli", a) for a in f.assumed_times)) if f.assumed_times else ""
        seen = [c.id for c in f.cameras if c.evidence]  # a game filmed from several cameras: whose view it is
        assumed += " " + _("[seen by camera {cameras}]", cameras=", ".join(seen)) if seen else ""
        text = finding_said(f.to_json())  # in the reader's words, whole: a sentence cut off says less than a long line
        moment = _("n{night}", night=f.night) if f.day is None and f.night is not None else _("d{day} r{round}", day=f.day, round=f.round)
        lines.append(
            f"  #{index:<3} {when} {kinds[id(f)]:<{kind_w}} {whos[id(f)]:<{who_w}} {moment:<5} {f.clause or '-':<16} {cons:<{cons_w}} "
            f"{i18n.number(f.confidence, 2, fixed=True):>4}  {text}{assumed}"
        )
    if hidden:
        lines.append("  " + _("and {n} less sure (confidence under {least}; --min-confidence 0 lists them)", n=len(hidden),
                              least=i18n.number(min_confidence, 2, fixed=True)))
    return lines


def summary_table(rows: list[GameResult]) -> str:
    """Findings per game, for --batch: its votes and total, then each kind found in the judge's words, one a line
    (the kinds' names are too long to head columns)."""
    width = max([4, *(len(r.name) for r in rows)])
    lines = [f"{_('game'):<{width}}  {_('votes'):>7}  {_('total'):>7}"]
    for r in rows:
        if r.error:
            lines.append(f"{r.name:<{width}}  " + _("error: {error}", error=r.error))
            continue
        counts = r.counts or {}
        lines.append(f"{r.name:<{width}}  {r.votes:>7}  {sum(counts.values()):>7}")
        lines += [f"  {term('kind', k)}: {counts[k]}" for k in FINDING_KINDS if counts.get(k)]
    return "\n".join(lines)


# ---------------------------------------------------------------- --batch


@dataclass(frozen=True)
class GameResult:
    name: str
    votes: int = 0
    counts: dict[str, int] | None = None
    error: str | None = None
    exit_code: int = EXIT_OK
    out: str | None = None

    def __post_init__(self) -> None:
        if self.counts is None:
            object.__setattr__(self, "counts", {})


def _result(r: TaskResult, out_dir: Path) -> GameResult:
    """A finished task of a batch: its audit written as NAME.audit.json, the counts per kind."""
    if r.report is None:
        return GameResult(r.name, error=r.error, exit_code=r.exit_code)
    out = write_atomic(out_dir / f"{r.name}.audit.json", dumps(r.report))
    return GameResult(r.name, len(r.report["votes"]), dict(Counter(f["kind"] for f in r.report["findings"])), out=str(out))


def run_batch(args: argparse.Namespace) -> int:
    folder = Path(args.batch)
    if not folder.is_dir():
        raise UnreadableInput(_("{folder}: not a folder of games.", folder=folder))
    games, skipped = find_games(folder, args.reuse_observations)
    for note in skipped:
        progress(_("audit: skipped {note}", note=note))
    if not games:
        raise UnreadableInput(_("{folder}: no game to audit (each needs NAME.mp4, NAME.protocol.json and NAME.seats.json).",
                                folder=folder))
    out_dir = Path(args.out) if args.out else folder
    out_dir.mkdir(parents=True, exist_ok=True)
    jobs = max(1, min(args.jobs or os.cpu_count() or 1, len(games)))
    progress(ngettext("audit: {n} game, {jobs} at a time", "audit: {n} games, {jobs} at a time", len(games), jobs=jobs))
    tasks = [AuditTask(g, nights=args.nights) for g in games]
    results: list[GameResult] = []
    for done in run_local(tasks, jobs):
        results.append(_result(done, out_dir))
        progress(_("audit: {name} done", name=done.name))
    results.sort(key=lambda r: r.name)
    if args.json:
        sys.stdout.write(dumps({"games": [
            {"name": r.name, "audit": r.out, "votes": r.votes, "findings": r.counts, "error": r.error} for r in results
        ]}))
    else:
        sys.stdout.write(summary_table(results) + "\n")
    worst = max((r.exit_code for r in results), default=EXIT_OK)
    if worst:
        return EXIT_UNREADABLE if worst == EXIT_UNREADABLE else EXIT_INVALID
    return EXIT_INVALID if args.fail_on_findings and any(r.counts for r in results) else EXIT_OK
