"""What every reporting command shares (spec §6): --json / --out, the readable table, progress on stderr."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from contract.i18n import _
from contract.jsonio import dumps, write_atomic


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """The --json / --out pair every reporting command shares (spec §6)."""
    parser.add_argument("--json", action="store_true", help=_("print JSON to stdout"))
    parser.add_argument("--out", metavar="FILE", help=_("write the JSON result to FILE (atomically)"))


def emit(args: argparse.Namespace, data: Any, table: Callable[[], str]) -> None:
    """Print JSON (--json), write it atomically (--out), or print the readable table."""
    if getattr(args, "out", None):
        write_atomic(args.out, dumps(data))
    if getattr(args, "json", False):
        sys.stdout.write(dumps(data))
    elif not getattr(args, "out", None):
        sys.stdout.write(table().rstrip("\n") + "\n")


def progress(message: str) -> None:
    """Progress for long jobs goes to stderr so stdout stays clean JSON."""
    print(message, file=sys.stderr, flush=True)


def beside(protocol: str | Path, suffix: str) -> Path:
    """The game's file of `suffix` beside its protocol: NAME.protocol.json -> NAME.seats.json."""
    base = Path(protocol)
    return base.with_name(base.name.removesuffix(".json").removesuffix(".protocol") + suffix)
