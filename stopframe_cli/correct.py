"""`stopframe correct`: the corrected protocol from an audit report, for scripts and batches.

    stopframe correct PROTOCOL --audit AUDIT.json (--confirm-all | --confirm I [I ...]) [--reason TEXT]
                      [--who NAME] [--format protocol|polemica|mafiaratings] [--voters-from-video]
                      --out CORRECTED.json

`I` is a finding's 0-based index in the report's `findings`. The same code as the app's export
(review.cases.corrected): exit 0 and a file `stopframe validate` accepts, or exit 1 with one sentence naming the
finding that cannot be applied and why; exit 2 for an unreadable file or wrong arguments (spec §6).
`--format polemica|mafiaratings` writes the corrected game as that club system's game file instead
(review.cases.club_exports.club_file): all the format can hold, and a list of what it left out. `--voters-from-video` first fills
each count-only vote's voters from the audit's hands where they agree with the count and no finding on that vote is
left unconfirmed (review.cases.voters; each such vote is marked `x_voters_from_video`); the others keep their count.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from contract.errors import EXIT_OK, InvalidInput, UnreadableInput
from contract.i18n import _, ngettext
from contract.jsonio import read_document
from review.audit.findings import AUDIT_FORMAT, FINDING_KINDS, AuditReport
from review.game.protocol import format_problems, load_protocol, validate

WHO = "stopframe correct"  # who confirms, by default: the program, by its name


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "correct", help=_("write the corrected protocol with the audit findings a judge confirmed"),
        description=_("Apply the confirmed findings of an audit report to a protocol and write the corrected "
                      "protocol (never over the original). Exit 0 written and valid, 1 a finding cannot be "
                      "applied (or the protocol is invalid), 2 unreadable input or wrong arguments."))
    p.add_argument("protocol", metavar="PROTOCOL", help=_("the game's protocol the audit report was made for (never written over)"))
    p.add_argument("--audit", metavar="AUDIT", required=True, help=_("the stopframe-audit/1 report of this game"))
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--confirm-all", action="store_true", help=_("confirm every finding of the report"))
    which.add_argument("--confirm", metavar="I", nargs="+", help=_("confirm the findings with these 0-based indexes"))
    p.add_argument("--reason", metavar="TEXT",
                   help=_("why they are confirmed (kept in x_review; default: confirmed with stopframe correct)"))
    p.add_argument("--who", metavar="NAME", default=WHO, help=_("who confirms them (kept in x_review)"))
    p.add_argument("--format", choices=("protocol", "polemica", "mafiaratings"), default="protocol",
                   help=_("what to write: the corrected protocol (default) or the corrected game as a Polemica or "
                          "mafiaratings game file"))
    p.add_argument("--voters-from-video", action="store_true",
                   help=_("fill each count-only vote's voters from the audit's hands where the video agrees with the "
                          "count and the vote's findings are all in the confirmed ones (marked x_voters_from_video)"))
    p.add_argument("--out", metavar="CORRECTED", required=True, help=_("where to write the corrected protocol"))
    p.set_defaults(func=run)


def load_audit(path: str | Path) -> AuditReport:
    """An audit report, refused (exit 2) when it is not one this program reads."""
    data = read_document(path, "audit report", AUDIT_FORMAT)
    findings = data.get("findings")
    if not isinstance(findings, list):
        raise UnreadableInput(_("{path}: findings: missing or not a list of findings.", path=path))
    for i, f in enumerate(findings):
        if not isinstance(f, dict) or f.get("kind") not in FINDING_KINDS:
            raise UnreadableInput(_("{path}: findings[{i}]: not a finding (each needs a known \"kind\").", path=path, i=i))
        cons = f.get("consequence")
        if cons is not None and not isinstance(cons, dict):
            raise UnreadableInput(_("{path}: findings[{i}].consequence: must be an object with a type.", path=path, i=i))
    votes = data.get("votes", [])
    if not isinstance(votes, list) or not all(isinstance(v, dict) for v in votes):
        raise UnreadableInput(_("{path}: votes: must be a list of vote rows.", path=path))
    for i, v in enumerate(votes):
        if not all(k in v for k in ("kind", "day", "round")):
            raise UnreadableInput(_("{path}: votes[{i}]: not a vote row (each needs its \"kind\", \"day\" and "
                                    "\"round\").", path=path, i=i))
    return AuditReport.from_json(data, path)


def parse_indexes(raw: list[str], count: int, audit: str) -> list[int]:
    """The --confirm indexes, each a whole number naming a finding of the report (wrong arguments: exit 2)."""
    out: list[int] = []
    for text in raw:
        try:
            i = int(text)
        except ValueError:
            raise UnreadableInput(_("--confirm {text}: a finding's index is a whole number (0 for the first).",
                                    text=text[:20])) from None
        if not 0 <= i < count:
            if count == 0:
                raise UnreadableInput(_("--confirm {i}: {audit} has no findings.", i=i, audit=audit))
            raise UnreadableInput(ngettext("--confirm {i}: {audit} has {n} finding (0–{last}).",
                                           "--confirm {i}: {audit} has {n} findings (0–{last}).", count, i=i, audit=audit,
                                           last=count - 1))
        if i not in out:
            out.append(i)
    return out


def run(args: argparse.Namespace) -> int:
    from review.cases.corrected import CorrectionError, corrected_protocol, write_corrected_protocol
    from review.cases.store import Decision, finding_key

    protocol = load_protocol(args.protocol)
    problems = format_problems(protocol.data)
    if problems:
        raise InvalidInput(_("{path}: {problem} — run `stopframe validate` for every problem.", path=args.protocol,
                             problem=problems[0]))
    report = load_audit(args.audit)
    findings = report.findings
    chosen = list(range(len(findings))) if args.confirm_all else parse_indexes(args.confirm, len(findings), args.audit)
    rules = report.rules
    if rules != protocol.rules:
        raise InvalidInput(_("{path}: rules: the audit was made under {audited} but the game is played under {rules}; "
                             "audit it under {rules} (--rules {rules}) before correcting.", path=args.audit,
                             audited=_text(rules), rules=protocol.rules))
    video, own = report.video, (protocol.data.get("video") or {}).get("path")
    if isinstance(video, str) and isinstance(own, str) and Path(video).name != Path(own).name:
        raise InvalidInput(_("{path}: video: the audit is of {audited}, but the protocol's video is {video}.",
                             path=args.audit, audited=Path(video).name[:80], video=Path(own).name[:80]))
    at = time.time()
    reason = args.reason if args.reason is not None else _("confirmed with stopframe correct")
    decisions = [Decision("cli", finding_key(findings[i]), findings[i], "confirmed", None, reason, args.who, at, 1)
                 for i in chosen]
    index_of = {id(d.finding): i for d, i in zip(decisions, chosen, strict=True)}
    try:
        corrected = corrected_protocol(protocol.data, decisions, votes=report.votes,
                                       source=Path(args.protocol).name)
    except CorrectionError as exc:
        first = exc.problems[0]
        where = next((index_of[id(d.finding)] for d in decisions if d.finding_key == first.finding_key), None)
        place = _("{audit}, finding {i}", audit=args.audit, i=where) if where is not None else str(args.protocol)
        more = len(exc.problems) - 1
        tail = " " + _("({n} more cannot be applied either.)", n=more) if more else ""
        print(f"stopframe: {place}: {first.sentence}{tail}", file=sys.stderr)
        return exc.exit_code
    left = validate(corrected)
    if left:  # never expected: corrected_protocol checks every change; a file that does not validate is not written
        raise InvalidInput(_("{path}: the corrected protocol would not validate ({problem}); nothing was written.",
                             path=args.out, problem=left[0]))
    filled_words = ""
    if args.voters_from_video:
        corrected, filled_words = _fill_voters(corrected, report, findings, decisions)
    if args.format != "protocol":
        return _write_club_file(args, corrected, len(chosen), filled_words)
    out = write_corrected_protocol(args.out, corrected, args.protocol)
    applied = sum(1 for c in corrected["x_review"]["changes"] if c.get("applied", True))
    print(_("{path}: {confirmed}, {changes} to the protocol; valid under {rules}.", path=out,
            confirmed=_confirmed(len(chosen)), changes=ngettext("{n} change", "{n} changes", applied),
            rules=protocol.rules) + filled_words)
    return EXIT_OK


def _fill_voters(corrected: dict[str, Any], report: AuditReport, findings: list[Any],
                 decisions: list[Any]) -> tuple[dict[str, Any], str]:
    """The corrected protocol with voters from the video, and a sentence saying how many votes got them. A finding
    not given with --confirm is still open, so its vote keeps its count only (nothing is guessed)."""
    from review.cases.voters import fill_voters_from_video

    by_key = {d.finding_key: d for d in decisions}
    fill = fill_voters_from_video(corrected, findings, report.votes, by_key)
    said = ngettext("Voters of {n} vote filled from the video (marked x_voters_from_video)",
                    "Voters of {n} votes filled from the video (marked x_voters_from_video)", len(fill.filled))
    if fill.left:
        said += "; " + ngettext("{n} vote kept the count only, first {why}", "{n} votes kept the count only, first {why}",
                                len(fill.left), why=fill.left[0])
    return fill.protocol, " " + said + ("" if said.endswith(".") else ".")


def _write_club_file(args: argparse.Namespace, corrected: dict[str, Any], confirmed: int, filled: str = "") -> int:
    """The corrected game as a Polemica or mafiaratings file holding all the format can, and what it left out; exit 1
    only for a game no such file can be made of (a mafiaratings game without every role)."""
    from contract.jsonio import write_json
    from review.cases.club_exports import NAMES, ExportRefused, club_file

    name = NAMES[args.format]
    try:
        club = club_file(corrected, args.format)
    except ExportRefused as exc:
        raise InvalidInput(_("{path}: no {name} file written: in the corrected game, {why}", path=args.out, name=name,
                             why=exc)) from None
    out = write_json(Path(args.out), club.file)
    said = (_("{path}: the corrected game as a {name} game file ({confirmed}); it reads back as the same game under "
              "{rules}, as far as the file holds it.", path=out, name=name, confirmed=_confirmed(confirmed),
              rules=corrected["rules"]) if club.dropped else
            _("{path}: the corrected game as a {name} game file ({confirmed}); it reads back as the same game under "
              "{rules}.", path=out, name=name, confirmed=_confirmed(confirmed), rules=corrected["rules"]))
    print(said + filled)
    if club.dropped:
        print(_("Left out of the {name} file, which cannot hold them:", name=name))
        for said in club.dropped:
            print(f"  - {said}")
    print(_("Not in the file: {what}.", what="; ".join(club.never)))
    return EXIT_OK


def _confirmed(n: int) -> str:
    return ngettext("{n} finding confirmed", "{n} findings confirmed", n)


def _text(value: Any) -> str:
    return value[:20] if isinstance(value, str) and value else _("no rule profile")
