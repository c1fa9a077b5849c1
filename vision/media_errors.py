"""The media library's reasons for refusing a file, in the judge's words.

PyAV raises FFmpeg's and the system's errors with English words («Invalid data found when processing input»);
a refusal names the file and what is wrong in the catalogue's words, and the library's reason follows in
brackets. The reasons a judge meets with a phone's or a camera's file are said here in the reader's language;
any other stays as the library says it (it is still the most exact thing to search for)."""

from __future__ import annotations

from contract.i18n import N_, _

_REASONS = {  # by the exception's class (PyAV's subclass the built-in ones of the same name)
    "InvalidDataError": N_("its data is damaged or not of a kind this program reads"),
    "EOFError": N_("it ends before its data does"),
    "PermissionError": N_("no permission to read it"),
    "FileNotFoundError": N_("no such file"),
    "IsADirectoryError": N_("it is a folder"),
    "DecoderNotFoundError": N_("no decoder for its codec"),
    "DemuxerNotFoundError": N_("no reader for its container"),
}


def reason(exc: BaseException) -> str:
    """Why the library refused: in the reader's words where the reason is one above, else the library's own."""
    for cls in type(exc).__mro__:
        if cls.__name__ in _REASONS:
            return _(_REASONS[cls.__name__])
    return getattr(exc, "strerror", None) or str(exc)
