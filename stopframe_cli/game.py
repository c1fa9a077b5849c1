"""Commands about the game itself (spec §6): `stopframe validate`, `stopframe replay`, `stopframe import`."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from contract.errors import EXIT_INVALID, EXIT_OK
from pipeline.game import replay_game, vote_rounds
from review.game.importers import SOURCES, import_file
from review.game.problems import Problem
from review.game.protocol import RULE_PROFILES, format_problems, load_protocol, validate
from stopframe_cli.output import add_output_options, emit


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("validate", help="check a protocol's format and the game's consistency",
                              description="Check a protocol's format and the game under its rules. "
                                          "Exit 0 valid, 1 invalid, 2 unreadable.")
    p.add_argument("protocol", metavar="PROTOCOL")
    add_output_options(p)
    p.set_defaults(func=run_validate)

    p = subparsers.add_parser("replay", help="replay a game under its rules: eliminations and result",
                              description="Replay the game under its rule profile. Exit 0 when the protocol "
                                          "agrees with the rules, 1 when it has problems, 2 unreadable.")
    p.add_argument("protocol", metavar="PROTOCOL")
    add_output_options(p)
    p.set_defaults(func=run_replay)

    p = subparsers.add_parser("import", help="convert a Polemica or mafiaratings game file into a protocol",
                              description="Convert another system's game file into a stopframe-protocol/1.")
    p.add_argument("source", choices=SOURCES, metavar="{" + ",".join(SOURCES) + "}")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--rules", choices=RULE_PROFILES, default="rfm", help="rule profile of the game (default rfm)")
    add_output_options(p)
    p.set_defaults(func=run_import)


def _problem_lines(problems: list[Problem]) -> list[str]:
    return [f"  {p.path or '(file)'}: {p.message}" + (f" ({p.clause})" if p.clause else "") for p in problems]


def _notes(data: dict[str, Any]) -> list[Problem]:
    """The replay's remarks that are no problem (a concession accepted, mafclub 2.7.1), for a sound protocol."""
    if format_problems(data):
        return []
    return list(replay_game(data).notes)


def _note_lines(notes: list[Problem]) -> list[str]:
    return [f"  note: {p.path or '(file)'}: {p.message}" + (f" ({p.clause})" if p.clause else "") for p in notes]


def run_validate(args: argparse.Namespace) -> int:
    protocol = load_protocol(args.protocol)
    problems = validate(protocol)
    notes = _notes(protocol.data)
    data: dict[str, Any] = {"valid": not problems, "problems": [p.to_json() for p in problems]}
    if notes:  # spec §6's object, plus the remarks where there are any
        data["notes"] = [n.to_json() for n in notes]

    def table() -> str:
        if not problems:
            return "\n".join([f"{args.protocol}: valid ({protocol.rules}, {len(protocol.events)} events)",
                              *_note_lines(notes)])
        word = "problem" if len(problems) == 1 else "problems"
        return "\n".join([f"{args.protocol}: {len(problems)} {word}", *_problem_lines(problems), *_note_lines(notes)])

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
        lines = [f"{args.protocol} ({data['rules']})", "Eliminations:"]
        for n, e in enumerate(data["eliminations"], start=1):
            when = f"day {e['day']}" if e.get("day") is not None else f"night {e.get('night')}"
            lines.append(f"  {n}. seat {e['seat']:>2}  {e['cause']:<8} {when}")
        if not data["eliminations"]:
            lines.append("  none")
        if data.get("votes"):
            lines.append("Votes:")
            for v in data["votes"]:
                tally = "  ".join(f"{c['candidate']}:{c['count']}" for c in v.get("counts", []))
                if v["kind"] == "lift":
                    tally = f"lift {', '.join(map(str, v['candidates']))}: {v.get('yes')} for"
                why = f" ({v['clause']})" if v.get("clause") else ""
                lines.append(f"  day {v['day']} round {v['round']}: {tally} -> {v['outcome']}{why}")
        lines.append(f"Result: {_result_line(data)}")
        notes = [Problem(n["path"], n["message"], n["clause"]) for n in data["notes"]]
        lines.extend(_note_lines(notes))
        lines.append("Problems:" if problems else "Problems: none")
        lines.extend(_problem_lines(problems))
        return "\n".join(lines)

    emit(args, data, table)
    return EXIT_INVALID if problems else EXIT_OK


RESULT_WORDS = {"red": "red win", "black": "black win", "draw": "draw"}


def _result_line(data: dict[str, Any]) -> str:
    """"red win (rfm 1.4): every black player is out of the game", or why there is none."""
    result = data.get("result")
    if result is None:
        return "none: the protocol reaches no result" if not data["problems"] else "none"
    words = RESULT_WORDS.get(result, str(result))
    clause = f" ({data['result_clause']})" if data.get("result_clause") else ""
    reason = f": {data['result_reason']}" if data.get("result_reason") else ""
    return f"{words}{clause}{reason}"


def run_import(args: argparse.Namespace) -> int:
    data = import_file(args.source, args.file, rules=args.rules)
    problems = format_problems(data)
    if problems:  # a source value the protocol cannot hold: tell, write nothing
        print(f"stopframe: {args.file}: the imported protocol would be invalid:", file=sys.stderr)
        print("\n".join(_problem_lines(problems)), file=sys.stderr)
        return EXIT_INVALID
    game_problems = validate(data)
    if game_problems:
        print(f"stopframe: note: the imported game has {len(game_problems)} rule problem(s); "
              "run 'stopframe validate' on the saved protocol to see them.", file=sys.stderr)

    def table() -> str:
        result = next((e["winner"] for e in data["events"] if e["type"] == "result"), "none")
        lines = [f"{args.file}: {args.source} game -> stopframe-protocol/1 ({data['rules']}): "
                 f"{len(data['players'])} players, {len(data['events'])} events, result {result}"]
        lines += [f"  assumed: {a}" for a in data["x_import"]["assumptions"]]
        lines.append("Use --out FILE to save the protocol, or --json to print it.")
        return "\n".join(lines)

    emit(args, data, table)
    return EXIT_OK
