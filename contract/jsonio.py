"""Reading and writing the project's JSON files: clear errors on read, atomic writes."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from contract.errors import UnreadableInput
from contract.i18n import _, term
from contract.outputs import check_output, read_capped, where_written
from contract.written import untouched

_UMASK = os.umask(0o022)
os.umask(_UMASK)

MAX_JSON_BYTES = 20 * 1024 * 1024  # a protocol is a few KB; refuse giant files before parsing them


def read_json(path: str | os.PathLike[str], what: str = "file", *, reject_duplicate_keys: bool = False) -> Any:
    """Parse a JSON file, or raise UnreadableInput naming the file and the place.

    With reject_duplicate_keys an object that repeats a key is refused: plain JSON parsing would
    silently keep only the last value, and a file that is saved back would lose the others."""
    p = Path(path)
    doc = term("document", what)
    data = read_capped(p, MAX_JSON_BYTES, what)  # counted as read: /dev/zero or a pipe states size 0
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableInput(_("{path}: the {what} is not UTF-8 text (byte {byte}).", path=p, what=doc, byte=exc.start)) from exc
    text = text.removeprefix("\ufeff")  # Windows editors mark UTF-8 with a BOM; it is not part of the JSON
    if not text.strip():  # a save that failed, a copy not finished: JSON's "expecting value" says nothing of that
        raise UnreadableInput(_("{path}: the {what} is empty: the file holds nothing.", path=p, what=doc))
    try:
        return json.loads(text, object_pairs_hook=_unique_keys if reject_duplicate_keys else None)
    except json.JSONDecodeError as exc:
        raise UnreadableInput(_("{path}: the {what} is not valid JSON at line {line}, column {column}: {detail}.", path=p,
                                what=doc, line=exc.lineno, column=exc.colno, detail=term("json_error", exc.msg))) from exc
    except _DuplicateKey as exc:
        raise UnreadableInput(_('{path}: the {what} repeats the key "{key}" inside one object.', path=p, what=doc,
                                key=exc.args[0])) from exc
    except RecursionError as exc:
        raise UnreadableInput(_("{path}: the {what} is nested too deeply to be read.", path=p, what=doc)) from exc
    except ValueError as exc:  # an integer literal longer than Python's digit limit
        if "digits" in str(exc):
            raise UnreadableInput(_("{path}: the {what} is not readable JSON: it holds a number with too many digits.",
                                    path=p, what=doc)) from exc
        raise UnreadableInput(_("{path}: the {what} is not readable JSON: {detail}.", path=p, what=doc, detail=exc)) from exc


class _DuplicateKey(ValueError):
    pass


def read_document(path: str | os.PathLike[str], what: str, expected: str) -> dict[str, Any]:
    """A JSON object whose "format" is `expected` (same name, version 1); UnreadableInput (exit 2) otherwise."""
    data = read_json(path, what)
    if not isinstance(data, dict):
        raise UnreadableInput(_("{path}: not {a_what}: it holds no JSON object.", path=path, what=term("document", what),
                                a_what=_a(term("document", what))))
    check_format(data.get("format"), path, what, expected)
    return data


def check_format(fmt: Any, where: str | os.PathLike[str], what: str, expected: str, *, named: str | None = None) -> None:
    """The one format-version check of a versioned document (format_problem); UnreadableInput (exit 2) naming
    `where` when it fails."""
    problem = format_problem(fmt, what, expected, named=named)
    if problem is not None:
        raise UnreadableInput(f"{where}: {problem}")


def format_problem(fmt: Any, what: str, expected: str, *, named: str | None = None) -> str | None:
    """Why `fmt` is not `expected`'s name with its major version (any minor: "stopframe-x/1.2" reads as
    "stopframe-x/1"), as a sentence, or None. `named`: how the version sentence names the document, where it
    differs from `what`. A sentence, not an exception, so that a validator can list it with the other problems."""
    name, major = expected.split("/", 1)
    if not isinstance(fmt, str) or not fmt.startswith(name + "/"):
        return _('not {a_what}: "format" should be "{expected}".', what=term("document", what),
                 a_what=_a(term("document", what)), expected=expected)
    if fmt.split("/", 1)[1].split(".")[0] != major:
        return _('{what} format "{found}" is not supported: this Stopframe reads version {major} ("{expected}").',
                 what=named or term("document", what), found=fmt[:40], major=major, expected=expected)
    return None


def _a(what: str) -> str:
    """`what` with its English article: "an audit report", "a seat map" (the Russian messages use `what`)."""
    return f"{'an' if what[:1] in 'aeiou' else 'a'} {what}"


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key[:40])
            seen.add(key)
    return obj


def dumps(data: Any) -> str:
    """The project's JSON style: UTF-8 kept readable, two-space indent."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def write_atomic(path: str | os.PathLike[str], text: str | bytes) -> Path:
    """Write a file so that a crash leaves either the old file or the new one, never half of one."""
    check_output(path, ())  # never onto a folder, a device or a pipe, whoever writes
    p = where_written(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    os.fchmod(fd, 0o666 & ~_UMASK)  # mkstemp makes 0600; a saved file should read like any other
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return p


def write_json(path: str | os.PathLike[str], data: Any) -> Path:
    """Atomically write data as JSON."""
    return write_atomic(path, dumps(data))


def _object_in(path: str | os.PathLike[str]) -> dict | None:
    """The JSON object a file holds; None where it holds none (unreadable, not JSON, not an object)."""
    try:
        data = read_json(path)
    except UnreadableInput:
        return None
    return data if isinstance(data, dict) else None


def format_of(path: str | os.PathLike[str]) -> object:
    """The "format" of a file that a write with --replace would replace (None: not a JSON object one can read)."""
    data = _object_in(path)
    return None if data is None else data.get("format")


# The kinds of file a judge makes too, by hand or in another program: a protocol, and JSON with no format (a club's
# game file, notes). An audit report, observations or a sync result only Stopframe writes.
JUDGES_KINDS = (None, "stopframe-protocol")


def writes_over_its_own(out: str | os.PathLike[str], family: str | None, what: str) -> None:
    """An existing `out` is written over only where it holds this command's own earlier result: a Stopframe file
    of `family` ("stopframe-audit"), or, for a report that has no format (`family` None), a JSON object without
    one; of a kind a judge also makes (JUDGES_KINDS), only what Stopframe wrote there and nobody has changed since
    (contract.written). Why: a re-run replaces its own result, but a judge's other file at that name — a protocol
    of another game, a club's game file, notes, a spreadsheet, a video — is never lost to a mistyped --out.
    UnreadableInput (exit 2) otherwise."""
    if not os.path.isfile(out):  # a new name; a folder or a device is check_output's to refuse
        return
    data = _object_in(out)
    fmt = None if data is None else data.get("format")
    if family is None:
        same_kind = data is not None and fmt is None
    else:
        same_kind = isinstance(fmt, str) and fmt.split("/", 1)[0] == family
    if not same_kind:
        raise UnreadableInput(_("{path}: a file of another kind is already there, not an earlier {what}; Stopframe "
                                "writes only over its own earlier result: choose another file name.", path=out,
                                what=term("document", what)))
    if family in JUDGES_KINDS and not untouched(out):
        raise UnreadableInput(_("{path}: a {what} is already there that Stopframe did not write, or that was changed "
                                "since; Stopframe writes only over its own earlier result, as it left it: choose "
                                "another file name.", path=out, what=term("document", what)))
