"""Errors that the command line turns into one sentence and an exit status (spec §6)."""

from __future__ import annotations

EXIT_OK = 0
EXIT_INVALID = 1  # read, but invalid (or a check asked for failed)
EXIT_UNREADABLE = 2  # could not be read or parsed, unknown format version, wrong arguments


class StopframeError(Exception):
    """A fatal problem with the user's input, told as one clear sentence."""

    exit_code = EXIT_UNREADABLE

    def __init__(self, message: str, exit_code: int | None = None) -> None:
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code


class UnreadableInput(StopframeError):
    """The file is missing, unreadable, not JSON / not a video, or of an unknown format version."""

    exit_code = EXIT_UNREADABLE


class InvalidInput(StopframeError):
    """The file was read but its content breaks the format or the rules."""

    exit_code = EXIT_INVALID
