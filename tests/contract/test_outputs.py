"""The output rule (contract.outputs) over random paths: relative and absolute, through symlinks, hard links,
`..` and folders, to inputs, new files and folders. Whatever the rule lets through is written; no input ever
changes, and no accepted output is an input by any name."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contract.errors import UnreadableInput
from contract.jsonio import read_json, write_atomic
from contract.outputs import check_output, check_output_folder, read_capped

INPUTS = ("game.protocol.json", "game.seats.json", "game.observations.json", "game.mp4")


def _world(root: Path) -> dict[str, Path]:
    """A game folder: its inputs, links of every kind to them, a subfolder and a link to the folder."""
    game = root / "game"
    (game / "sub").mkdir(parents=True)
    for i, name in enumerate(INPUTS):
        (game / name).write_bytes(f"input {i}".encode())
    os.symlink(game / INPUTS[0], root / "abs_link.json")
    os.symlink(Path("game") / INPUTS[1], root / "rel_link.json")
    os.link(game / INPUTS[2], root / "hard.json")
    os.symlink(game, root / "game_link")
    os.symlink(root / "abs_link.json", root / "link_to_link.json")
    return {name: game / name for name in INPUTS}


NAMES = st.sampled_from([*INPUTS, "abs_link.json", "rel_link.json", "hard.json", "link_to_link.json", "new.json",
                         "sub", "game", "game_link", ".", ".."])
PARTS = st.lists(st.sampled_from(["game", "game_link", "sub", "..", "."]), max_size=3)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=PARTS, name=NAMES, absolute=st.booleans())
def test_no_output_ever_aliases_an_input(parts: list[str], name: str, absolute: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp, "a", "b", "c", "d")  # deep enough that no ".." of a drawn path leaves the temporary folder
        inputs = _world(root)
        before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in inputs.values()}
        monkeypatch.chdir(root)
        out = Path(*parts, name)
        out = root / out if absolute else out
        try:
            check_output(out, inputs.values())
        except UnreadableInput as exc:
            assert str(out) in str(exc)
        else:
            written = write_atomic(out, "output")
            assert written.read_text() == "output"
            assert not any(os.path.samefile(written, p) for p in inputs.values())
        assert {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in inputs.values()} == before


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=PARTS)
def test_an_output_folder_never_overlaps_the_folder_it_reads(parts: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp, "a", "b", "c", "d")
        _world(root)
        monkeypatch.chdir(root)
        out = Path(*parts, "out") if parts else Path("out")
        games = (root / "game").resolve()
        try:
            check_output_folder(out, [root / "game_link"])
        except UnreadableInput:
            assert games in Path(os.path.realpath(out)).parents or games == Path(os.path.realpath(out))
        else:
            assert games not in Path(os.path.realpath(out)).parents


def test_devices_and_pipes_are_neither_read_nor_written(tmp_path: Path) -> None:
    os.symlink("/dev/zero", tmp_path / "zero.json")
    os.mkfifo(tmp_path / "pipe.json")
    for path in (tmp_path / "zero.json", tmp_path / "pipe.json"):
        with pytest.raises(UnreadableInput, match="not a regular file"):
            read_json(path, "protocol")
        with pytest.raises(UnreadableInput, match="not a regular file"):
            write_atomic(path, "x")
    assert (tmp_path / "zero.json").is_symlink()


def test_the_byte_cap_counts_what_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b"x" * 101)
    assert read_capped(path, 101) == b"x" * 101
    with pytest.raises(UnreadableInput, match="too large"):
        read_capped(path, 100)


def test_an_html_report_is_never_written_over_the_games_files(tmp_path: Path) -> None:
    from review.cases.exports import write_html_report

    protocol = tmp_path / "game.protocol.json"
    protocol.write_text("{}")
    os.link(protocol, tmp_path / "report.html")
    with pytest.raises(UnreadableInput, match="never overwrites"):
        write_html_report(tmp_path / "report.html", "<html></html>", [protocol])
    assert protocol.read_text() == "{}"
    assert write_html_report(tmp_path / "other.html", "<html></html>", [protocol]).read_text() == "<html></html>"


def test_why_the_system_refused_a_file_is_said_in_the_judges_words() -> None:
    """No `[Errno n]`, no Python quoting: the reason alone, and «нет доступа» fits a refused read and a refused
    write alike (a folder made read-only, a locked USB stick)."""
    import errno

    from contract import i18n
    from contract.outputs import os_reason

    with i18n.using("ru"):
        assert os_reason(PermissionError(errno.EACCES, "Permission denied", "/mnt/x")) == "нет доступа"
        assert os_reason(FileExistsError(errno.EEXIST, "File exists", "/a/notes.txt")) == "в пути есть файл вместо папки"
        assert os_reason(OSError(errno.ENOSPC, "No space left on device")) == "на диске нет места"
        assert os_reason(OSError(errno.EROFS, "Read-only file system")) == "диск доступен только для чтения"
    with i18n.using("en"):
        assert os_reason(OSError(errno.ENOSPC, "No space left on device")) == "No space left on device"
