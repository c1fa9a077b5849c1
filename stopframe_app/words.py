"""People's words for the values the app shows: finding kinds, consequences, outcomes, seats, times.

Why one module: a judge reads pages and exports, not Python. No `None`, list or dict repr, internal code
(`counted_for_last`, `result_stands`) or unrounded float should reach them; every page and export takes
its wording from here, and tests/app/test_app_words.py walks every page to hold that.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from contract import i18n
from review.audit.findings import Finding, FindingConsequence, about
from review.audit.tally import VoteTally
from review.cases.exports import finding_said
from review.cases.sentences import humanise
from review.game.profiles import get_profile

# The tables of codes and their words live in the catalogue (contract/locale); these names ask it, in the
# language of the moment, so `words.KINDS["late_vote"]` is «голос после «Стоп»» in Russian.
_TABLES = {"KINDS": "kind", "CONSEQUENCES": "consequence", "OUTCOMES": "outcome", "POSES": "pose",
           "STATUSES": "status", "ACTIONS": "action", "ASSUMED": "assumed"}
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:])")


def __getattr__(name: str) -> dict[str, str]:
    if name in _TABLES:
        return i18n.terms(_TABLES[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def profile_label(profile_id: str) -> str:
    """A rule profile as a picker shows it (`Profile.label`)."""
    return get_profile(profile_id).label()


def md(text: object) -> str:
    """Text from a file (a nickname, a note) made inert in Streamlit markdown: no links, no formatting."""
    return _MD_SPECIAL.sub(r"\\\1", str(text)).replace("\n", " ")


def static_table(rows: list[dict[str, Any]], index: str) -> pd.DataFrame:
    """Rows for `st.table`, which renders each cell as Markdown: every text cell (a judge's name, a reason, a
    nickname) made inert first, so what a judge typed shows as written and can never load a picture."""
    frame = pd.DataFrame(rows).map(lambda v: md(v) if isinstance(v, str) else v)
    frame.columns = [md(c) for c in frame.columns]
    return frame.set_index(md(index))


def t(msgid: str, /, **values: Any) -> str:
    """A catalogue message for a page Streamlit renders as Markdown: every value put into it is escaped
    (`md`), so a nickname like `*boss*` or a path with `_` shows as written."""
    return i18n._(msgid, **{k: md(v) for k, v in values.items()})


def kind(code: Any) -> str:
    return i18n.term("kind", code, None if code else i18n._("finding"))


def consequence(code: Any) -> str:
    return i18n.term("consequence", code or "none")


def outcome(code: Any) -> str:
    return i18n.term("outcome", code, None if code else "—")


def pose(code: Any) -> str:
    return i18n.term("pose", code or "hand")


def status(code: Any) -> str:
    return i18n.term("status", code or "open")


def number(value: Any, digits: int = 2) -> str:
    """A number as a judge writes it: `23,7`, `-0,2`, `5` in Russian (23.7 in English); empty for nothing."""
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return i18n._("yes") if value else i18n._("no")
    if isinstance(value, int):
        return str(value)
    try:
        x = round(float(value), digits)
    except (TypeError, ValueError):
        return str(value)
    return i18n.number(x, digits)


def seconds(value: Any) -> str:
    """`23,70 с` / `23.70 s`; `—` where no time is known."""
    if value is None:
        return "—"
    return i18n._("{value} s", value=i18n.number(float(value), 2, fixed=True))


def clock(t: float) -> str:
    """A moment of the video as a frame's caption gives it, minutes and seconds to the millisecond: `00:04,240` in
    Russian (a decimal comma, as every other number on the page), `00:04.240` in English."""
    minutes, secs = divmod(max(float(t), 0.0), 60)
    text = i18n.number(secs, 3, fixed=True)
    return f"{int(minutes):02d}:{'0' if secs < 9.9995 else ''}{text}"


def seat_list(numbers: Iterable[Any] | None) -> str:
    """`1, 2, 9`; `—` for none."""
    ns = [str(n) for n in numbers or ()]
    return ", ".join(ns) if ns else "—"


def who(f: Finding | Mapping[str, Any]) -> str:
    """Whom a finding (or an exported row, or an appeal's evidence) is about: `seat 9`, `seats 1, 9`, or, for a
    miscount, `the count for candidate 8` (review.audit.findings.about: the CLI and the case file say the same)."""
    return about(f)


def where(f: Finding | Mapping[str, Any]) -> str:
    """`day 1, round 1, candidate 8` / `night 2`, leaving out what the finding (or row) does not have, and the
    candidate where `who` names him already (a miscount is about «the count for candidate 8»)."""
    if isinstance(f, Finding):
        day, night, rnd, candidate, candidates, kind = f.day, f.night, f.round, f.candidate, None, f.kind
    else:
        day, night, rnd = f.get("day"), f.get("night"), f.get("round")
        candidate, candidates, kind = f.get("candidate"), f.get("candidates"), f.get("kind")
    if kind == "count_mismatch":
        candidate, candidates = None, None
    if night is not None and day is None:
        return i18n._("night {night}", night=night)
    parts = []
    if day is not None:
        parts.append(i18n._("day {day}", day=day))
    if rnd is not None:
        parts.append(i18n._("round {round}", round=rnd))
    if candidate is not None:
        parts.append(i18n._("candidate {candidate}", candidate=candidate))
    elif candidates:
        parts.append(i18n._("lift vote for {seats}", seats=", ".join(map(str, candidates))))
    return ", ".join(parts) or i18n._("the game")


def consequence_text(cons: FindingConsequence | Mapping[str, Any] | None) -> str:
    """`fine −0.5`, `foul`, `no penalty`."""
    if isinstance(cons, FindingConsequence):
        ctype, points = cons.type, cons.points
    else:
        ctype, points = (cons or {}).get("type"), (cons or {}).get("points")
    text = consequence(ctype)
    if points is not None:
        text += f" {number(points)}"
    return text


def counts_text(counts: Mapping[Any, int]) -> str:
    """`candidate 6: 5 votes, candidate 3: 1 vote` (in Russian «кандидатура 6: 5 голосов»)."""
    return ", ".join(i18n._("candidate {candidate}: {votes}", candidate=c,
                            votes=i18n.ngettext("{n} vote", "{n} votes", n))
                     for c, n in counts.items()) or i18n._("no votes")


def assumed(names: Iterable[str]) -> str:
    return ", ".join(i18n.term("assumed", n) for n in names)


def vote_outcome_text(text: Any) -> str:
    """The audit's outcome text (`seat 6 leaves`), or `—` where it could not be worked out."""
    return "—" if text in (None, "") else humanise(text)


def json_place(path: Any) -> str:
    """`events[7].t` -> `event 8, its time`: where in the protocol, counted as a judge counts (from 1)."""
    text = str(path or "")
    parts = []
    for m in re.finditer(r"(\w+)(?:\[(\d+)\])?", text):
        key, index = m.group(1), m.group(2)
        if index is not None:
            parts.append(i18n._("{item} {number}", item=i18n.term("json_item", key.rstrip("s")), number=int(index) + 1))
        else:
            parts.append(_field_words(key))
    return ", ".join(parts) or i18n._("the protocol")


def _field_words(key: str) -> str:
    """A protocol's field in words: as a place in the file (`json_field`), else as a finding's, an event's or the
    game header's field is named elsewhere; never the bare English key on a Russian page."""
    for context in ("json_field", "field", "event_field", "game_field"):
        found = i18n.term(context, key, "")
        if found:
            return found
    return key


def seats_named(numbers: Iterable[Any]) -> str:
    """`seats 1, 2, 9` / `seat 4` / `no seat`."""
    ns = [str(n) for n in numbers]
    if not ns:
        return i18n._("no seat")
    return i18n._("seat {seat}", seat=ns[0]) if len(ns) == 1 else i18n._("seats {seats}", seats=", ".join(ns))


def breakdown(t: VoteTally) -> str:
    """How the video's count is made up, in words (review.audit.tally's VoteTally): hands counted, silent
    votes, hands a judge may count or not, seats the camera cannot see."""
    if not t.known:
        return i18n._("the video was not looked at for this vote")
    counted = i18n.ngettext("{n} hand counted", "{n} hands counted", len(t.counted))
    parts = [counted + (f" ({seats_named(t.counted)})" if t.counted else "")]
    if t.silent:
        parts.append(i18n.ngettext("{n} silent vote", "{n} silent votes", len(t.silent)) + f" ({seats_named(t.silent)})")
    if t.uncertain:
        parts.append(i18n.ngettext("{n} hand a judge may count or not", "{n} hands a judge may count or not",
                                   len(t.uncertain)) + f" ({seats_named(t.uncertain)})")
    if t.cannot_see:
        parts.append(i18n._("cannot see {seats}", seats=seats_named(t.cannot_see)))
    return "; ".join(parts)


def window_label(w: Any) -> str:
    """A vote window (review.game.timeline.VoteWindow) in words: `day 1, round 1, candidate 6` / `… lift 9, 3`."""
    parts = [i18n._("day {day}", day=w.day), i18n._("round {round}", round=w.round)]
    if w.kind == "vote":
        parts.append(i18n._("candidate {candidate}", candidate=w.candidate))
    else:
        parts.append(i18n._("lift {seats}", seats=", ".join(map(str, w.candidates))))
    return ", ".join(parts)


def said(f: Finding | Mapping[str, Any], text: Any = None) -> str:
    """What a finding says happened, in the reader's words (review.cases.exports.finding_said), any code in it
    put in words."""
    return humanise(finding_said(f.to_json() if isinstance(f, Finding) else f, text))
