"""The `stopframe` command line (spec §6): one parser, commands registered by the modules that own them.

Each command module exposes `register(subparsers)`; its handler takes the parsed arguments and
returns the exit status. Errors become one sentence on stderr and the status spec §6 gives.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from contract import i18n
from contract.errors import EXIT_UNREADABLE, StopframeError, UnreadableInput
from contract.i18n import _
from contract.jsonio import read_json, writes_over_its_own
from contract.outputs import check_output, check_output_folder, regular_file, where_written
from contract.seats import load_seat_map
from contract.written import remember
from review.audit.inputs import check_seat_geometry
from stopframe_cli.output import beside
from stopframe_cli.parsing import Parser

# Modules that add commands. Vision commands import cv2/mediapipe only when they run.
COMMAND_MODULES = (
    "stopframe_cli.game",  # validate, replay, import
    "stopframe_cli.observe",  # observe
    "stopframe_cli.audit",  # audit, audit --batch
    "stopframe_cli.align",  # align
    "stopframe_cli.correct",  # correct
    "stopframe_cli.seats",  # seats (the seat map found from the video)
    "stopframe_cli.tournament",  # tournament
    "stopframe_cli.sync",  # sync
    "stopframe_cli.draft",  # draft (the votes drafted from the video)
    "stopframe_cli.live",  # live (each vote counted while the game is played)
    "stopframe_cli.app",  # app (the judge's workspace, served by Streamlit)
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="stopframe", description=_("Video review and judging assistant for sport Mafia."))
    parser.add_argument("--debug", action="store_true", help=_("show the traceback of a fatal error"))
    parser.add_argument("--lang", choices=i18n.LANGUAGES,
                        help=_("the language of messages: ru (the default) or en; JSON keeps its English keys and codes"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


_ERRNO = re.compile(r"\[Errno -?\d+\]\s*")
_QUOTED_PATH = re.compile(r":\s*'([^']+)'(?=[.)]|$)")
_DICT_REPR = re.compile(r"\{'[^{}]*\}")  # {'civ': True}: Python's way of showing a JSON object
_LIST_REPR = re.compile(r"(?<![\w\]])\['[^\[\]]*\]")  # ['RED_WIN'] (a JSON path's [3] is kept)
_QUOTED_NAME = re.compile(r"(?<![\w'])'([^'\s]{1,40})'(?![\w'])")  # 'winner' -> "winner", ',' -> ","


def plain_words(message: str) -> str:
    """An error sentence as people write it: no `[Errno 1094995529]` codes from the libraries underneath, no
    Python reprs of JSON values ({'a': 1} is "an object", ['x'] "a list", 'name' "name"), no repeated quoted
    path, and one full stop at the end."""
    text = _ERRNO.sub("", message).strip()
    text = _DICT_REPR.sub(_("an object"), text)
    text = _LIST_REPR.sub(_("a list"), text)
    text = _QUOTED_PATH.sub(lambda m: "" if m.group(1) in text[: m.start()] else f": {m.group(1)}", text)
    text = _QUOTED_NAME.sub(r'"\1"', text)
    text = re.sub(r"\.\.(?=\s|$)", ".", re.sub(r"\s+", " ", text)).replace(" .", ".")  # a path's ".." is kept
    if text and text[-1] not in ".!?":
        text += "."
    return text


def _check_seats(path: str) -> None:
    """The seat map's zones must fit the picture and keep to their seats (review.audit.inputs)."""
    check_seat_geometry(load_seat_map(path), path)


# The arguments that name a file the command reads, and those that name one it writes.
INPUT_ARGS = {"video": "a video", "a": "a video", "b": "a video", "protocol": "the protocol it reads",
              "seats": "a seat map", "observations": "saved observations", "marks": "the judge's marks",
              "audit": "the audit report it reads", "file": "the file it imports", "decisions": "the decisions"}
FOLDER_ARGS = ("batch", "folder")
OUTPUT_ARGS = ("out", "protocol_out", "seats_out", "observations_out")
# What a command's output file holds: an existing file at that name is written over only where it is an earlier
# one of these (contract.jsonio.writes_over_its_own; None: a report with no format). `seats` keeps its stricter
# rule (--replace), a tournament and `audit --batch` write into a folder of their own.
PROTOCOL = ("stopframe-protocol", "protocol")
WRITES = {("import", "out"): PROTOCOL, ("align", "out"): PROTOCOL, ("draft", "out"): PROTOCOL,
          ("correct", "out"): ("stopframe-protocol", "corrected protocol"), ("sync", "protocol_out"): PROTOCOL,
          ("sync", "out"): ("stopframe-sync", "sync result"), ("observe", "out"): ("stopframe-observations", "observations file"),
          ("audit", "out"): ("stopframe-audit", "audit report"), ("validate", "out"): (None, "report"),
          ("replay", "out"): (None, "report"),
          ("draft", "observations_out"): ("stopframe-observations", "observations file")}
CLUB_FILES = {"polemica": "polemica game file", "mafiaratings": "mafiaratings game file"}
GAME_FILES = {".seats.json": "the game's seat map", ".observations.json": "the game's observations",
              ".marks.json": "the game's marks", ".mp4": "the game's video"}


def command_inputs(args: argparse.Namespace) -> list[tuple[str, str]]:
    """Every file the command reads: its arguments, and the game's own files beside its protocol (NAME.seats.json,
    NAME.observations.json, NAME.marks.json, NAME.mp4) and the videos and seat maps the protocol names."""
    found = [(v, label) for n, label in INPUT_ARGS.items() if isinstance(v := getattr(args, n, None), str)]
    found += [(item.split("=", 1)[1], "saved observations")
              for item in getattr(args, "camera_observations", None) or () if "=" in item]
    protocol = getattr(args, "protocol", None)
    if isinstance(protocol, str):
        found += [(str(beside(protocol, suffix)), label) for suffix, label in GAME_FILES.items()]
        found += _named_by(Path(protocol))
    return found


def _named_by(protocol: Path) -> list[tuple[str, str]]:
    """The files a protocol names (video.path, videos[].path and .seats), relative to its folder; none where it
    cannot be read (the command itself says why)."""
    try:
        data = read_json(protocol, "protocol")
    except StopframeError:
        return []
    if not isinstance(data, dict):
        return []
    entries = [data.get("video"), *(data.get("videos") if isinstance(data.get("videos"), list) else ())]
    named = [(e.get(k), label) for e in entries if isinstance(e, dict)
             for k, label in (("path", "the game's video"), ("seats", "the game's seat map"))]
    return [(str(protocol.parent / n), label) for n, label in named if isinstance(n, str) and n and "\x00" not in n]


def _input_kind(args: argparse.Namespace, name: str) -> str:
    """What a refusal calls the input: a video for sync's A and B, the club's game file for import's FILE."""
    if name in ("a", "b"):
        return "video"
    return CLUB_FILES.get(getattr(args, "source", None), name) if name == "file" else name


def check_paths(args: argparse.Namespace) -> None:
    """Before anything runs: every input that exists is a regular file (a folder is refused as one, a pipe would
    hang, /dev/zero never end), and no output lands on an input, a device or in a folder the command reads
    (contract.outputs)."""
    for name in INPUT_ARGS:
        value = getattr(args, name, None)
        if isinstance(value, str) and os.path.exists(value):  # missing: the command says
            regular_file(value, _input_kind(args, name))
    inputs = command_inputs(args)
    folders = [v for v in (getattr(args, n, None) for n in FOLDER_ARGS) if isinstance(v, str)]
    for name in OUTPUT_ARGS:
        out = getattr(args, name, None)
        if not isinstance(out, str):
            continue
        check_folders_above(out)
        if _writes_a_folder(args):
            check_output_folder(out, folders)
        else:
            check_output(out, [*inputs, *folders], what="--" + name.replace("_", "-") + " file")
            kind = _written_kind(args, name)
            if kind is not None:
                writes_over_its_own(out, *kind)


def check_folders_above(out: str) -> None:
    """Every existing step of the path to an output is a folder: a file on the way (notes.txt/report.json) is
    refused before the command runs, not after it has looked through the whole video; missing folders are made."""
    for above in (parent := where_written(out).parent, *parent.parents):
        if os.path.isdir(above):
            return
        if os.path.exists(above):
            raise UnreadableInput(_("{path}: cannot be written there: {file} is a file, not a folder; give a folder to write into.",
                                    path=out, file=above))


def _writes_a_folder(args: argparse.Namespace) -> bool:
    """A tournament and `audit --batch` write into a folder of their own; the other commands write one file."""
    return getattr(args, "command", None) == "tournament" or bool(getattr(args, "batch", None))


def _written_kind(args: argparse.Namespace, name: str) -> tuple[str | None, str] | None:
    """What the output `name` of this command holds (WRITES); `correct --format` writes a club's file, which has
    no "format"."""
    kind = WRITES.get((getattr(args, "command", None), name))
    if kind is not None and getattr(args, "format", None) in CLUB_FILES:
        return None, CLUB_FILES[args.format]
    return kind


def _remember_outputs(args: argparse.Namespace) -> None:
    """Each output file the command wrote is recorded as Stopframe's (contract.written), so a re-run may replace
    it while it stays as written; a tournament's and a batch's folders keep their own files."""
    if _writes_a_folder(args):
        return
    for name in OUTPUT_ARGS:
        out = getattr(args, name, None)
        if isinstance(out, str) and os.path.isfile(out):
            remember(out)


def _lang_option(argv: Sequence[str]) -> str | None:
    """`--lang ru|en` (or `--lang=en`) before the command, read ahead of the parser so its own refusals
    are in that language too; None where it is absent or not a language (the parser then refuses it)."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else arg.removeprefix("--lang=")
        if (arg == "--lang" or arg.startswith("--lang=")) and value in i18n.LANGUAGES:
            return value
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    token = i18n.set_language(_lang_option(argv))
    try:
        return _run(argv)
    finally:
        i18n.reset_language(token)


def _run(argv: list[str]) -> int:
    debug = "--debug" in argv
    try:
        args = build_parser().parse_args(argv)
        if not getattr(args, "func", None):
            build_parser().print_help(sys.stderr)
            return EXIT_UNREADABLE
        check_paths(args)
        if args.command == "observe" and getattr(args, "seats", None):
            _check_seats(args.seats)  # zones inside the frame and apart, before any video is decoded
        code = int(args.func(args))
        _remember_outputs(args)
        return code
    except StopframeError as exc:
        if debug:
            raise
        print(f"stopframe: {plain_words(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"stopframe: {_('interrupted.')}", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
