"""The one rule every writer keeps (command line, tournament, exports; the app may use it too): an output never
lands on an input, on a device or a pipe, or inside the folder a run reads; and an input is read only when it is
a regular file, with a byte cap whatever size it states.

Why one rule: each command once compared its own paths, with `Path.resolve() ==`, which misses a hard link and
every pair nobody thought of (audit --out naming the seat map, a tournament writing into its own games folder).
A judge's files are never overwritten, so the check is by the file itself (device and inode), not by its name.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

from contract.errors import UnreadableInput
from contract.i18n import _, term

PathLike = str | os.PathLike[str]


def _stat(path: PathLike) -> os.stat_result | None:
    """The file's status, following links; None where there is nothing (or a dangling link)."""
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _same(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _inside(child: Path, folder: Path) -> bool:
    return child == folder or folder in child.parents


Input = PathLike | tuple[PathLike, str] | None  # a path, or (path, what it is: "a video", "the seat map")


def where_written(out: PathLike) -> Path:
    """The path a write of `out` lands on: its folder as the system resolves it ("a/missing/../b" is "a/b", never
    a folder "a/missing" made on the way), its own name kept (a link there is replaced, not followed)."""
    given = Path(out)
    return Path(os.path.realpath(given.parent)) / given.name


def check_output(out: PathLike, inputs: Iterable[Input], *, what: str = "output") -> Path:
    """`out` if it may be written; UnreadableInput (exit 2), one sentence naming both paths, if it is (by any
    name: a link, a hard link, `..`) one of `inputs`, lies inside an input folder, holds an input folder, or is
    something other than a regular file or a new path (a folder, a device, a pipe)."""
    target = Path(out)
    doc = term("document", what)
    if target.name in ("", ".", ".."):
        raise UnreadableInput(_("{path}: the {what} cannot be written there: it names a folder; give a file name.", path=target, what=doc))
    written = where_written(target)
    real = Path(os.path.realpath(written))
    have = _stat(written)
    if have is not None and not stat.S_ISREG(have.st_mode):
        kind = _("a folder") if stat.S_ISDIR(have.st_mode) else _("not a regular file (a device, a pipe or a socket)")
        raise UnreadableInput(_("{path}: the {what} cannot be written there: it is {kind}; give a new file name.",
                                path=target, what=doc, kind=kind))
    for item in inputs:
        if item is None:
            continue
        source, label = item if isinstance(item, tuple) else (item, "its inputs")
        given = _stat(source)
        if given is None:
            continue
        if stat.S_ISDIR(given.st_mode):
            folder = Path(os.path.realpath(source))
            if _inside(real, folder) or _inside(folder, real):
                raise UnreadableInput(_("{path}: the {what} would be written inside {source}, the folder it reads; choose a place outside it.",
                                        path=target, what=doc, source=source))
        elif (have is not None and _same(have, given)) or real == Path(os.path.realpath(source)):
            raise UnreadableInput(_("{path}: Stopframe never overwrites {label}, and the {what} is {source}, one of the files it is "
                                    "working from; choose another file.", path=target, label=term("input", label), what=doc,
                                    source=source))
    return target


def check_output_folder(out: PathLike, inputs: Iterable[PathLike | None], *, what: str = "output folder") -> Path:
    """`out` as a folder to write into: a new path or a folder, never an input folder, inside one or holding one."""
    target = Path(out)
    have = _stat(target)
    if have is not None and not stat.S_ISDIR(have.st_mode):
        raise UnreadableInput(_("{path}: the {what} is not a folder; give a folder or a new path.", path=target, what=term("document", what)))
    real = Path(os.path.realpath(target))
    for source in inputs:
        if source is None or _stat(source) is None:
            continue
        folder = Path(os.path.realpath(source))
        if _inside(real, folder) or _inside(folder, real):
            raise UnreadableInput(_("{path}: the {what} and {source}, the folder of games it reads, overlap; choose a place outside it.",
                                    path=target, what=term("document", what), source=source))
    return target


def os_reason(exc: OSError) -> str:
    """Why the system refused a file, in the judge's words: the catalogue's phrase for the usual reasons (no such
    file, no access, a file where a folder should be, a full disk), the system's own phrase otherwise, never its
    `[Errno n]` code or Python's repr of the path. Every folder Stopframe makes is made if missing, so "it
    exists" only ever means a file stands where the path needs a folder."""
    if isinstance(exc, FileExistsError | NotADirectoryError):
        return _("Not a directory")
    return _(exc.strerror) if exc.strerror else str(exc)


def regular_file(path: PathLike, what: str = "file") -> os.stat_result:
    """The status of a regular file, asked before it is opened: a pipe would hang the open, a device (/dev/zero)
    states size 0 and never ends. UnreadableInput (exit 2) otherwise."""
    doc = term("document", what)
    try:
        st = os.stat(path)
    except OSError as exc:
        raise UnreadableInput(_("{path}: cannot read the {what}: {reason}.", path=path, what=doc,
                                reason=os_reason(exc))) from exc
    except ValueError as exc:  # a NUL byte in the name
        raise UnreadableInput(_("{path}: cannot read the {what}: the name holds a NUL byte.", path=path, what=doc)) from exc
    if stat.S_ISDIR(st.st_mode):
        raise UnreadableInput(_("{path}: the {what} is a folder, not a file.", path=path, what=doc))
    if not stat.S_ISREG(st.st_mode):
        raise UnreadableInput(_("{path}: the {what} is not a regular file (a device, a pipe or a socket); give the file itself.",
                                path=path, what=doc))
    return st


def read_capped(path: PathLike, limit: int, what: str = "file") -> bytes:
    """At most `limit` bytes of a regular file, counted as read (not from the size it states); UnreadableInput
    (exit 2) for a file that holds more."""
    if regular_file(path, what).st_size > limit:  # the size stated is enough to refuse, never to accept
        raise UnreadableInput(_("{path}: the {what} is over {limit} MB, too large to be one.", path=path, what=term("document", what), limit=limit // 10**6))
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise UnreadableInput(_("{path}: cannot read the {what}: {reason}.", path=path, what=term("document", what),
                                reason=os_reason(exc))) from exc
    if len(data) > limit:
        raise UnreadableInput(_("{path}: the {what} is over {limit} MB, too large to be one.", path=path, what=term("document", what), limit=limit // 10**6))
    return data


def same_kind(out: PathLike, expected: str, what: str, read_format: Callable[[PathLike], object]) -> None:
    """For `--replace`: an existing `out` is replaced only by a file of its own kind (`read_format(out)` gives
    its "format" or None). UnreadableInput (exit 2) naming what is there otherwise."""
    if _stat(out) is None:
        return
    fmt = read_format(out)
    name = expected.split("/", 1)[0]
    if not (isinstance(fmt, str) and fmt.startswith(name + "/")):
        raise UnreadableInput(_("{path}: --replace replaces only {what}, and this file is not one; give another file.", path=out, what=_(what)))
