"""`stopframe tournament`: every game of a folder audited, resumably, on this machine or on Ray.

    stopframe tournament DIR --out OUT [--engine local|ray] [--address ADDR] [--jobs N] [--rules ID] [--nights]
                         [--reuse-observations] [--decisions DB]

Writes OUT/games/NAME.audit.json per game, OUT/tournament.json (stopframe-tournament/1), .html and .csv
(pipeline.tournament). Exit status 1 when any game failed (every good game is still written), 2 for wrong
arguments or a folder without games.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from contract import i18n
from contract.errors import EXIT_INVALID, EXIT_OK, UnreadableInput
from contract.i18n import _, ngettext, term
from pipeline.tournament import ENGINES, Settings, run_tournament
from review.cases.store import default_db_path
from review.cases.tournament import Tournament
from review.game.profiles import PROFILES
from stopframe_cli.main import plain_words
from stopframe_cli.output import progress
from stopframe_cli.parsing import whole_number


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "tournament",
        help=_("audit every game of a tournament folder (resumable; local processes or Ray) and roll up the report"),
        description=_("Audit every NAME.mp4 + NAME.protocol.json + NAME.seats.json in DIR (protocols may be Polemica or "
                      "mafiaratings files), one task per game; a second run redoes only what changed."),
    )
    p.add_argument("folder", metavar="DIR", help=_("the folder of games"))
    p.add_argument("--out", required=True, metavar="OUT", help=_("where the audits and tournament.json/.html/.csv go"))
    p.add_argument("--engine", choices=ENGINES, default="local",
                   help=_('local: processes on this machine (default); ray: Ray (pip install -e ".[cluster]")'))
    p.add_argument("--address", metavar="ADDR",
                   help=_("with --engine ray: a running Ray cluster, host:port of its head (default: a local Ray); "
                          "a cluster with token authentication takes its token from RAY_AUTH_TOKEN"))
    p.add_argument("--jobs", type=whole_number, default=None, metavar="N", help=_("games audited at once (default: cores)"))
    p.add_argument("--rules", metavar="ID", help=_("audit every game under this rule profile instead of its protocol's"))
    p.add_argument("--nights", action="store_true", help=_("audit the nights too (shootings and checks)"))
    p.add_argument("--model", choices=("full", "lite"), default="full", help=_("hand landmark model (default full)"))
    p.add_argument("--reuse-observations", action="store_true",
                   help=_("use NAME.observations.json where present instead of looking at the video"))
    p.add_argument("--csv-sep", choices=(",", ";"), default=None, metavar="SEP",
                   help=_("tournament.csv's separator: ; for Excel in a Russian locale (numbers with a decimal comma), "
                          ", otherwise (default: ; in Russian, , in English)"))
    p.add_argument("--decisions", metavar="DB",
                   help=_("the judges' decisions to roll up (default: the app's database, where there is one)"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.rules is not None and args.rules not in PROFILES:
        raise UnreadableInput(_("--rules {rules}: not a rule profile; known: {known}.", rules=args.rules[:30], known=", ".join(PROFILES)))
    if args.address and args.engine != "ray":
        raise UnreadableInput(_("--address names a Ray cluster: it goes with --engine ray."))
    if args.jobs is not None and args.jobs < 1:
        raise UnreadableInput(_("--jobs {jobs}: at least one game must run at a time.", jobs=args.jobs))
    db = args.decisions or (default_db_path() if default_db_path().exists() else None)
    if args.decisions and not Path(args.decisions).is_file():
        raise UnreadableInput(_("{path}: no decisions database there.", path=args.decisions))
    settings = Settings(rules=args.rules, nights=args.nights, model=args.model, reuse_observations=args.reuse_observations)
    tournament = run_tournament(args.folder, args.out, settings, engine=args.engine, jobs=args.jobs, address=args.address,
                                decisions_db=db, say=progress, wording=plain_words,
                                csv_separator=args.csv_sep or (";" if i18n.language() == "ru" else ","))
    sys.stdout.write(summary(tournament) + "\n")
    return EXIT_INVALID if tournament.totals["failed"] else EXIT_OK


def summary(t: Tournament) -> str:
    """Games with their status and suggestions, failed ones with their sentence, and where the report is."""
    width = max([4, *(len(g.id) for g in t.games)])
    said = {g.status: term("game_status", g.status) for g in t.games}  # «проверена», not the report's code
    wide = max([8, len(_("status")), *(len(s) for s in said.values())])
    lines = [f"{_('game'):<{width}}  {_('table'):<6} {_('judge'):<16} {_('status'):<{wide}} {_('votes'):>5} {_('suggestions'):>11}"]
    for g in t.games:
        if g.status == "failed":
            lines.append(f"{g.id:<{width}}  {g.table or '-':<6} {(g.judge or '-')[:16]:<16} " + _("failed: {error}", error=g.error))
            continue
        lines.append(f"{g.id:<{width}}  {g.table or '-':<6} {(g.judge or '-')[:16]:<16} {said[g.status]:<{wide}} {g.votes:>5} "
                     f"{g.suggestions:>11}")
    totals = t.totals
    lines.append(ngettext("{n} game: {audited} audited, {reused} reused, {failed} failed",
                          "{n} games: {audited} audited, {reused} reused, {failed} failed", totals["games"],
                          audited=totals["audited"], reused=totals["reused"], failed=totals["failed"]))
    return "\n".join(lines)
