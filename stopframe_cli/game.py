"""Commands about the game itself (spec §6): `stopframe validate`, `stopframe replay`, `stopframe import`."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from contract.errors import EXIT_INVALID, EXIT_OK
from contract.i18n import _, ngettext, term
from pipeline.game import replay_game, vote_rounds
from review.game.importers import SOURCES, import_file
from review.game.problems import Problem
from review.game.protocol import RULE_PROFILES, format_problems, load_protocol, validate
from review.game.voting import outcome_words
from stopframe_cli.output import add_output_options, emit


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("validate", help=_("check a protocol's format and the game's consistency"),
                              description=_("Check a protocol's format and the game under its rules. "
                                            "Exit 0 valid, 1 invalid, 2 unreadable."))
    p.add_argument("protocol", metavar="PROTOCOL", help=_("the game's protocol (stopframe-protocol/1 JSON)"))
    add_output_options(p)
    p.set_defaults(func=run_validate)

    p = subparsers.add_parser("replay", help=_("replay a game under its rules: eliminations and result"),
                              description=_("Replay the game under its rule profile. Exit 0 when the protocol "
                                            "agrees with the rules, 1 when it has problems, 2 unreadable."))
    p.add_argument("protocol", metavar="PROTOCOL", help=_("the game's protocol (stopframe-protocol/1 JSON)"))
    add_output_options(p)
    p.set_defaults(func=run_replay)

    p = subparsers.add_parser("import", help=_("convert a Polemica or mafiaratings game file into a protocol"),
                              description=_("Convert another system's game file into a stopframe-protocol/1."))
    p.add_argument("source", choices=SOURCES, metavar="{" + ",".join(SOURCES) + "}",
                   help=_("the system the game file comes from"))
    p.add_argument("file", metavar="FILE", help=_("its game file (JSON, as that system exports it)"))
    p.add_argument("--rules", choices=RULE_PROFILES, default="rfm", help=_("rule profile of the game (default rfm)"))
    add_output_options(p)
    p.set_defaults(func=run_import)


def _problem_lines(problems: list[Problem]) -> list[str]:
    return [f"  {p.path or _('(file)')}: {p.message}" + (f" ({p.clause})" if p.clause else "") for p in problems]


def _notes(data: dict[str, Any]) -> list[Problem]:
    """The replay's remarks that are no problem (a concession accepted, mafclub 2.7.1), for a sound protocol."""
    if format_problems(data):
        return []
    return list(replay_game(data).notes)


def _note_lines(notes: list[Problem]) -> list[str]:
    return ["  " + _("note: {place}: {message}", place=p.path or _("(file)"), message=p.message)
            + (f" ({p.clause})" if p.clause else "") for p in notes]


def run_validate(args: argparse.Namespace) -> int:
    protocol = load_protocol(args.protocol)
    problems = validate(protocol)
    notes = _notes(protocol.data)
    data: dict[str, Any] = {"valid": not problems, "problems": [p.to_json() for p in problems]}
    if notes:  # spec §6's object, plus the remarks where there are any
        data["notes"] = [n.to_json() for n in notes]

    def table() -> str:
        if not problems:
            return "\n".join([ngettext("{path}: valid ({rules}, {n} event)", "{path}: valid ({rules}, {n} events)",
                                        len(protocol.events), path=args.protocol, rules=protocol.rules),
                              *_note_lines(notes)])
        return "\n".join([ngettext("{path}: {n} problem", "{path}: {n} problems", len(problems), path=args.protocol),
                          *_problem_lines(problems), *_note_lines(notes)])

    emit(args, data, table)
    return EXIT_INVALID if problems else EXIT_OK


def run_replay(args: argparse.Namespace) -> int:
    protocol = load_protocol(args.protocol)
    problems = format_problems(protocol.data)
    if problems:  # the engine replays only a protocol of sound shape
        data: dict[str, Any] = {"rules": protocol.rules, "eliminations": [], "result": None, "result_clause": None,
                                "result_reason": None, "problems": [p.to_json() for p in problems], "notes": []}
    else:
        replay = replay_game(protocol.data)
        problems = list(replay.problems)
        data = {"rules": protocol.rules, "eliminations": list(replay.eliminations), "result": replay.result,
                "result_clause": replay.result_clause if replay.result else None,
                "result_reason": replay.result_reason if replay.result else None,
                "problems": [p.to_json() for p in problems],
                "notes": [n.to_json() for n in replay.notes],
                "votes": vote_rounds(protocol.data, replay)}

    def table() -> str:
        lines = [f"{args.protocol} ({data['rules']})", _("Eliminations:")]
        for n, e in enumerate(data["eliminations"], start=1):
            when = _("day {day}", day=e["day"]) if e.get("day") is not None else _("night {night}", night=e.get("night"))
            lines.append(f"  {n}. {_('seat {seat}', seat=format(e['seat'], '>2'))}, {when}: {term('left_by', e['cause'])}")
        if not data["eliminations"]:
            lines.append("  " + _("none"))
        if data.get("votes"):
            lines.append(_("Votes:"))
            for v in data["votes"]:
                tally = "  ".join(f"{c['candidate']}:{c['count']}" for c in v.get("counts", []))
                if v["kind"] == "lift":
                    tally = _("lift {seats}: {yes} for", seats=", ".join(map(str, v["candidates"])), yes=v.get("yes"))
                why = f" ({v['clause']})" if v.get("clause") else ""
                lines.append("  " + _("day {day} round {round}: {tally} -> {outcome}", day=v["day"], round=v["round"],
                                      tally=tally, outcome=outcome_words(v["outcome"])) + why)
        lines.append(_("Result: {result}", result=_result_line(data)))
        notes = [Problem(n["path"], n["message"], n["clause"]) for n in data["notes"]]
        lines.extend(_note_lines(notes))
        lines.append(_("Problems:") if problems else _("Problems: none"))
        lines.extend(_problem_lines(problems))
        return "\n".join(lines)

    emit(args, data, table)
    return EXIT_INVALID if problems else EXIT_OK


def _result_line(data: dict[str, Any]) -> str:
    """"red win (rfm 1.4): every black player is out of the game", or why there is none."""
    result = data.get("result")
    if result is None:
        return _("none: the protocol reaches no result") if not data["problems"] else _("none")
    words = term("result", result)
    clause = f" ({data['result_clause']})" if data.get("result_clause") else ""
    reason = f": {data['result_reason']}" if data.get("result_reason") else ""
    return f"{words}{clause}{reason}"


def run_import(args: argparse.Namespace) -> int:
    data = import_file(args.source, args.file, rules=args.rules)
    problems = format_problems(data)
    if problems:  # a source value the protocol cannot hold: tell, write nothing
        print("stopframe: " + _("{path}: the imported protocol would be invalid:", path=args.file), file=sys.stderr)
        print("\n".join(_problem_lines(problems)), file=sys.stderr)
        return EXIT_INVALID
    game_problems = validate(data)
    if game_problems:
        print("stopframe: " + ngettext("note: the imported game has {n} rule problem; run 'stopframe validate' on the saved "
                                       "protocol to see it.", "note: the imported game has {n} rule problems; run 'stopframe "
                                       "validate' on the saved protocol to see them.", len(game_problems)), file=sys.stderr)

    def table() -> str:
        result = next((e["winner"] for e in data["events"] if e["type"] == "result"), None)
        lines = [_("{path}: {source} game -> stopframe-protocol/1 ({rules}): {players} players, {events} events, result {result}",
                   path=args.file, source=args.source, rules=data["rules"], players=len(data["players"]),
                   events=len(data["events"]), result=_("none") if result is None else term("winner", result))]
        lines += ["  " + _("assumed: {what}", what=a) for a in data["x_import"]["assumptions"]]
        lines.append(_("Use --out FILE to save the protocol, or --json to print it."))
        return "\n".join(lines)

    emit(args, data, table)
    return EXIT_OK
