"""The command line's parser in the judge's language.

argparse writes some words of its own: the help's "usage:" and its groups' titles, and its refusals
(a missing argument, an unknown command, a value that is not a number). It asks gettext for each of them
through its module's `_` and `ngettext`; here they ask the one catalogue instead, so a judge reading Russian
meets no English in `stopframe --help` or in a refusal. Numbers are read by `whole_number` and `number`,
whose refusals name the value in words, not the Python type it failed to become.
"""

from __future__ import annotations

import argparse
import math

from contract import i18n
from contract.errors import EXIT_UNREADABLE, StopframeError
from contract.i18n import N_, _

# argparse's own messages a judge can meet (Python 3.11's wording), looked up in the catalogue
ARGPARSE_WORDS = frozenset({
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("expected %s argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
})


def _argparse_word(message: str) -> str:
    """One of argparse's messages in the current language (others, for the developer, as they are)."""
    return _(message) if message in ARGPARSE_WORDS else message


def _argparse_words(singular: str, plural: str, n: int) -> str:
    """One of argparse's messages about `n` things, in the plural form the current language needs."""
    if singular in ARGPARSE_WORDS:
        return i18n.ngettext(singular, plural, n)
    return singular if n == 1 else plural


argparse._ = _argparse_word  # type: ignore[attr-defined]  # argparse looks its words up here at each use
argparse.ngettext = _argparse_words  # type: ignore[attr-defined]


class Parser(argparse.ArgumentParser):
    """argparse that reports wrong arguments as one sentence with exit 2 instead of a usage dump. The sentence
    names the command (`audit: …`); the command line puts `stopframe:` before it."""

    def error(self, message: str) -> None:  # type: ignore[override]
        command = self.prog.removeprefix("stopframe").strip()
        raise StopframeError(f"{command}: {message}" if command else message, EXIT_UNREADABLE)


def whole_number(text: str) -> int:
    """An argument that must be a whole number (`--jobs 4`)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("«{value}» is not a whole number", value=text)) from None


def number(text: str) -> float:
    """An argument that must be a number of seconds or a share (`--start 12.5`, `--min-confidence 0.6`); "nan"
    and "inf", which Python reads as numbers, are refused too: no second of a video nor a share is one."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(_("«{value}» is not a number", value=text))
    return value
