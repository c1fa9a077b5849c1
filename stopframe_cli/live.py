"""`stopframe live`: a game counted while it is played, without the page (spec §6).

    stopframe live SOURCE --protocol P [--seats S] [--record DIR] [--rules ID] [--model full|lite] [--speed X]

SOURCE is a camera (/dev/video0), a stream (rtsp://…) or a video file played at real speed. Each vote's count
is printed a moment after «Стоп», before the judge announces it (pipeline.live). The judge's cues come from the
keyboard, one line each: a seat number names the candidate, an empty line (or «с», «s») is «Стоп», «=5» the count
announced, «q» the end of the game. A protocol that already holds a filmed game's timed votes is replayed instead:
its entries are the cues, at their times. The recording, the live protocol and the seat map are kept in the
game's folder, which then opens in the review pages and in `stopframe audit` as it is.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from contract.data_folder import data_dir
from contract.errors import EXIT_OK, UnreadableInput
from contract.i18n import _
from contract.jsonio import read_json
from review.game.profiles import PROFILES
from stopframe_cli.output import progress

STOP_WORDS = ("", "с", "s", "стоп", "stop", "спасибо")
END_WORDS = ("q", "й", "конец", "end")
DAY_WORDS = ("d", "д", "день", "day")
NIGHT_WORDS = ("n", "н", "ночь", "night")
SEAT_CUE = re.compile(r"^([xхfфrу])\s*(10|[1-9])?$")  # x5 the night's shot (x alone: a miss), f5 a foul, r5 removal
NOMINATION = re.compile(r"^(10|[1-9])\s*>\s*(10|[1-9])$")  # 1>9: seat 1 nominates seat 9


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "live",
        help=_("count each vote's hands while the game is played, before the count is announced"),
        description=_("Watch the table while the game is played: a moment after «Stop» each vote's hands are "
                      "counted (in time, late, lifted) and printed, before the judge announces the count. Cues from "
                      "the keyboard: a seat number names the candidate, an empty line is «Stop», =5 the count "
                      "announced, 1>9 seat 1 nominates 9, n the night, x5 the night's shot (x a miss), f5 a foul, r5 "
                      "a removal, d the next day, q the end. The recording, the live protocol and the seat map stay "
                      "in --record."),
    )
    p.add_argument("source", metavar="SOURCE", nargs="?",
                   help=_("a camera (/dev/video0), a stream (rtsp://…) or a video file, played at real speed"))
    p.add_argument("--finish", metavar="DIR",
                   help=_("join the recording of a live game cut short (the program or the computer stopped) in "
                          "its folder DIR, so that it opens as any game"))
    p.add_argument("--protocol", metavar="P",
                   help=_("the game's protocol so far (players, nominations); one with a filmed game's timed votes "
                          "is replayed as the judge's cues"))
    p.add_argument("--seats", metavar="S", help=_("the camera's seat map (without it the seats are found from the "
                                                   "hands of the first day's votes, and the later rounds counted)"))
    p.add_argument("--record", metavar="DIR",
                   help=_("a new or empty folder for the recording and the live protocol (default: in the data "
                          "folder, live/)"))
    p.add_argument("--rules", metavar="ID",
                   help=_("rule profile ({profiles}; default: the protocol's)", profiles=", ".join(PROFILES)))
    p.add_argument("--model", choices=("full", "lite"), default="full", help=_("hand landmark model (default full)"))
    p.add_argument("--speed", type=float, default=1.0, metavar="X",
                   help=_("a video file is played X times real speed (default 1; a camera always at its own)"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pipeline.live_game import LiveGame, finish_interrupted
    from pipeline.live_words import count_line

    if args.finish is not None:
        _next_steps(finish_interrupted(Path(args.finish)))
        return EXIT_OK
    if args.source is None or args.protocol is None:
        raise UnreadableInput(_("stopframe live needs SOURCE and --protocol (or --finish DIR for a game cut short)."))
    if args.rules is not None and args.rules not in PROFILES:
        raise UnreadableInput(_("--rules {rules}: not a rule profile; known: {known}.", rules=args.rules[:30],
                                 known=", ".join(PROFILES)))
    if not args.speed > 0 or args.speed > 100:
        raise UnreadableInput(_("--speed {speed}: give a speed above 0 and at most 100.", speed=args.speed))
    protocol = read_json(args.protocol, "protocol")
    if not isinstance(protocol, dict):
        raise UnreadableInput(_("{path}: not a protocol (a JSON object is expected).", path=args.protocol))
    name = Path(args.protocol).name.removesuffix(".json").removesuffix(".protocol")
    folder = Path(args.record) if args.record else data_dir() / "live" / f"{name}-{datetime.now():%Y%m%d-%H%M%S}"
    game = LiveGame.begin(args.source, protocol=protocol, seats=args.seats, folder=folder, name=name,
                          rules=args.rules, model=args.model, speed=args.speed)
    progress(_("live: recording into {folder}", folder=folder))
    if args.seats is None:
        progress(_("live: no seat map: the cues are kept with their times; the seats are found from the hands of the "
                   "first day's votes once that day is over, and the later rounds are counted then"))
    if game.cues is None:
        progress(_("live: a seat number and Enter names the candidate; Enter alone is «Stop»; =5 the count "
                   "announced; 1>9 seat 1 nominates 9; n the night; x5 the night's shot (x a miss); f5 a foul; r5 a "
                   "removal; d the next day; q the end of the game"))
        threading.Thread(target=_keys, args=(game,), daemon=True).start()
    shown: dict[int, str] = {}
    try:
        _follow(game, shown, count_line)
    except KeyboardInterrupt:
        progress(_("live: the game is ended here"))
    files = game.finish()
    dropped = game.table.state().dropped
    if dropped:
        progress(_("live: this computer fell behind the game and {n} frames were not counted live; the audit of the "
                   "recording below looks at every one", n=dropped))
    for line in _changed_lines(game.table.state().votes, shown, count_line):
        print(line, flush=True)
    _next_steps(files)
    return EXIT_OK


def _next_steps(files: Any) -> None:
    """Where the finished game's files are, and the command that audits its recording in full."""
    progress(_("live: the game's video {video}, its protocol {protocol}", video=files.video, protocol=files.protocol))
    audit = ["stopframe", "audit", files.video, "--protocol", files.protocol, "--seats", files.seats]
    progress(_("live: audit the recording at full care: {command}", command=shlex.join(map(str, audit))))


def _follow(game: Any, shown: dict[int, str], count_line: Any) -> None:
    """Print each vote's count as it is first shown and again when it changes, until the source ends."""
    said = None
    while True:
        state = game.state()
        if game.seats_said != said:  # a game begun without a seat map: its seats being found, then found
            said = game.seats_said
            progress(_("live: {why}", why=said))
        for line in _changed_lines(state.votes, shown, count_line):
            print(line, flush=True)
        if state.ended is not None and game.table.caught_up():
            if state.ended:
                progress(_("live: {why}", why=state.ended))
            return
        time.sleep(0.1)


def _changed_lines(votes: Any, shown: dict[int, str], count_line: Any) -> list[str]:
    """The lines of the votes whose reading is new or has changed since last printed (`shown`)."""
    lines = []
    for vote in votes:
        if vote.video_count is None:
            continue
        line = count_line(vote)
        if shown.get(vote.event) != line:
            shown[vote.event] = line
            lines.append(line)
    return lines


def _keys(game: Any) -> None:
    """The judge's cues typed on the keyboard, one a line, given at the moment Enter is pressed."""
    for raw in sys.stdin:
        word = raw.strip().lower()
        try:
            if word in END_WORDS:
                game.table.source_ended("")
                return
            if word in STOP_WORDS:
                game.table.stop()
            elif word in DAY_WORDS:
                game.table.next_day()
            elif word in NIGHT_WORDS:
                game.table.night()
            elif (nominated := NOMINATION.match(word)) is not None:
                game.table.nominate(int(nominated[1]), int(nominated[2]))
            elif (cue := SEAT_CUE.match(word)) is not None and (cue[2] is not None or cue[1] in "xх"):
                _seat_cue(game.table, cue[1], int(cue[2]) if cue[2] else None)
            elif word.startswith("=") and word[1:].strip().isdigit():
                game.table.announce(int(word[1:]))
            elif word.isdigit() and 1 <= int(word) <= 10:
                game.table.name(int(word))
            else:
                progress(_("live: «{word}» is no cue: a seat number, Enter, =count, 1>9, n, x5, f5, r5, d or q.",
                           word=raw.strip()[:20]))
        except ValueError as exc:
            progress(str(exc))


def _seat_cue(table: Any, letter: str, seat: int | None) -> None:
    """x5: the night's shooting of seat 5 (x: a miss), f5: a foul, r5: a removal."""
    if letter in "xх":
        table.shoot(seat)
    elif letter in "fф":
        table.foul(seat)
    else:
        table.remove(seat)
