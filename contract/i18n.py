"""The one message catalogue: every word Stopframe shows, in Russian (the default) and in English.

Why here: every layer that shows words (the command line, the app, review's exports) sits above the
contract, so all of them can ask this module without breaking the layers. The catalogue is gettext's
`.po` files under contract/locale/, read with Babel; Russian plural forms and numbers come from there.

Two kinds of entries:
- messages: the English sentence is the msgid (`_("{path}: no such file", path=...)`);
- terms: a code of the formats (a finding kind, a consequence) with its kind as the msgctxt
  (`term("kind", "late_vote")`), so both catalogues carry the words.

Which language (docs/app.md, README): `STOPFRAME_LANG=ru|en` wins; without it, the system locale
(LC_ALL, LC_MESSAGES, LANG): Russian for a Russian locale, English for any other real language, Russian
when none is set (empty, C or POSIX), since the product is for judges of Russian-language tournaments.
The command line's `--lang` and the app's sidebar switch set it for their run with `set_language`.
"""

from __future__ import annotations

import datetime as _dt
import gettext
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar, Token
from functools import cache
from pathlib import Path
from typing import Any

from babel.dates import format_date
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LANGUAGES = ("ru", "en")
DEFAULT = "ru"
DOMAIN = "stopframe"
LOCALE_DIR = Path(__file__).with_name("locale")

# The language a run chose (CLI flag, the app's switch); per thread/context, so two judges' app sessions
# (Streamlit runs each in its own thread) never see each other's choice.
_chosen: ContextVar[str | None] = ContextVar("stopframe_language", default=None)


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: STOPFRAME_LANG, else the system locale, else Russian."""
    env = os.environ if environ is None else environ
    wanted = str(env.get("STOPFRAME_LANG") or "").strip().lower()
    if wanted in LANGUAGES:
        return wanted
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = str(env.get(var) or "").strip()
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in ("", "c", "posix"):
                return DEFAULT
            return "ru" if code == "ru" else "en"
    return DEFAULT


# Where no run has chosen a language in this context, who to ask before the environment (`follow_session`).
_session: Callable[[], str | None] | None = None


def follow_session(ask: Callable[[], str | None] | None) -> None:
    """Where no language is set in the present context, ask `ask` (the app's: the language chosen in the browser
    tab whose callback is running, None outside one) before the environment. A page's callback (a button's
    on_click) runs before its run sets the language; without this its words would come in the system's."""
    global _session
    _session = ask


def language() -> str:
    """The language words are shown in now."""
    chosen = _chosen.get()
    if chosen:
        return chosen
    asked = _session() if _session is not None else None
    return asked if asked in LANGUAGES else system_language()


def set_language(lang: str | None) -> Token[str | None]:
    """Show words in `lang` (ru or en) from now on in this run; None goes back to the environment's."""
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    return _chosen.set(lang)


def reset_language(token: Token[str | None]) -> None:
    """Back to the language before the `set_language` that gave `token`."""
    _chosen.reset(token)


@contextmanager
def using(lang: str | None) -> Iterator[None]:
    """Words in `lang` inside the block (tests, one export in a chosen language)."""
    token = set_language(lang)
    try:
        yield
    finally:
        reset_language(token)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalogue(lang: str) -> Catalog:
    """The catalogue of one language, read once from its .po file."""
    with po_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


@cache
def _plural_index(lang: str) -> Callable[[int], int]:
    return gettext.c2py(catalogue(lang).plural_expr)


def _lookup(msgid: str, context: str | None, lang: str) -> Any:
    message = catalogue(lang).get(msgid, context=context)
    return message.string if message is not None else None


def _format(text: str, values: Mapping[str, Any]) -> str:
    return text.format_map(values) if values else text


def _(msgid: str, /, **values: Any) -> str:
    """The message in the current language, with `{name}` filled from `values`."""
    found = _lookup(msgid, None, language())
    return _format(found if isinstance(found, str) and found else msgid, values)


def N_(msgid: str, /) -> str:
    """Marks a catalogue message kept in a table and looked up later with `_` (gettext's convention)."""
    return msgid


def ngettext(singular: str, plural: str, n: int, /, **values: Any) -> str:
    """The message for `n` things, in the plural form the language needs (1 голос, 2 голоса, 5 голосов);
    `{n}` in it is the count."""
    lang = language()
    found = _lookup(singular, None, lang)
    values = {"n": n, **values}
    if isinstance(found, (tuple, list)):
        index = _plural_index(lang)(abs(int(n)))
        if index < len(found) and found[index]:
            return _format(found[index], values)
    return _format(singular if n == 1 else plural, values)


def term(context: str, code: Any, default: str | None = None) -> str:
    """The words for a code of the formats (`term("kind", "late_vote")` -> «голос после «Стоп»»); an
    unknown code shows as `default`, or as itself with spaces for underscores."""
    found = _lookup(str(code), context, language())
    if isinstance(found, str) and found:
        return found
    return default if default is not None else str(code or "").replace("_", " ")


def terms(context: str) -> dict[str, str]:
    """Every code of one kind with its words in the current language (the code order of the catalogue)."""
    return {m.id: term(context, m.id) for m in catalogue(language()) if m.context == context and m.id}


def number(value: float | int, digits: int = 2, *, fixed: bool = False, signed: bool = False) -> str:
    """A number as a reader of the language writes it: 23,7 in Russian, 23.7 in English; at most
    `digits` decimals without trailing zeros (exactly `digits` when `fixed`), no thousands separator;
    `signed` writes a plus too (points: +0,5 / -1)."""
    pattern = "0" if digits <= 0 else "0." + ("0" if fixed else "#") * digits
    if round(value, max(digits, 0)) == 0:
        value = 0  # never «-0,000»: a value that rounds to nothing has no sign
    if signed:
        pattern = f"+{pattern};-{pattern}"
    return format_decimal(value, format=pattern, locale=language())


def date(value: _dt.date) -> str:
    """A date as a reader expects it: «6 декабря 2026 г.» / "December 6, 2026"."""
    return format_date(value, format="long", locale=language())


def moment(stamp: str) -> str:
    """A file's ISO 8601 time in UTC (`2026-12-07T13:25:59Z`) as a reader writes it: «7 декабря 2026 г., 13:25 UTC»;
    a text that is no such time is given as it is."""
    try:
        when = _dt.datetime.fromisoformat(stamp).astimezone(_dt.UTC)
    except (TypeError, ValueError):
        return str(stamp)
    return f"{date(when.date())}, {when:%H:%M} UTC"


def clause(ref: Any) -> str:
    """A rulebook clause: «п. 4.4.7» in Russian, "clause 4.4.7" in English; empty for none."""
    text = str(ref or "").strip()
    return _("clause {ref}", ref=text) if text else ""


def sentence_reader(msgids: Sequence[str]) -> Callable[[str], str | None]:
    """For sentences that files keep in English (a vote's outcome, why a night check was not audited): a reader
    that gives such a sentence as the catalogue message it was made from, in the current language; None for
    any other text. In the msgids `{seats}` stands for numbers joined by ", ", any other `{name}` for a number."""
    patterns = []
    for msgid in msgids:
        parts = re.split(r"\{(\w+)\}", msgid)
        patterns.append((re.compile("^" + "".join(
            re.escape(part) if i % 2 == 0 else (rf"(?P<{part}>\d+(?:, \d+)*)" if part == "seats" else rf"(?P<{part}>\d+)")
            for i, part in enumerate(parts)) + "$"), msgid))

    def read(text: str) -> str | None:
        for pattern, msgid in patterns:
            found = pattern.match(text)
            if found:
                return _(msgid, **found.groupdict())
        return None

    return read
