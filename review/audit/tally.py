"""One vote's count as the audit computed it, for every place that shows or uses it.

Why a module of its own: the votes table, a `count_mismatch` finding's text, the recomputed outcome and
the exports must agree. The audit (`review.audit.audit`) already decides, per candidate, the lowest and highest
count the video supports under the profile (`x_supported_count`), which hands count (`x_counted_voters`),
which a judge may rightly count or not (`x_uncertain_voters`) and which living seats placed no hand at
all (`silent_seats`, given to the last candidate where the profile says so, rfm 4.4.10). This module only
reads those fields of an audit vote (`VoteReport`) back into one value, so nobody recounts the hands seen
(the row's `video_count`, the hands seen placed in time, is not the count: silent votes and hands a judge may
count or not are not in it).

Which findings are "less sure" (left out of the CLI's table and the app's list unless asked for) is decided
here too, once, at the report file's precision: the CLI holds the audit as computed, the app as the file reads
back, and a confidence a hair under the threshold must not be hidden by one and shown by the other.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from contract.i18n import _, ngettext
from review.audit.calibration import shipped
from review.audit.findings import Finding, VoteReport


@dataclass(frozen=True)
class VoteTally:
    """A candidate's (or a lift vote's) count: the protocol's and the range the video supports."""

    protocol: int | None
    low: int | None  # None: the window had no times to look at (no video count at all)
    high: int | None
    hands_seen: tuple[int, ...]  # seats whose hand was placed in time (counted or not)
    counted: tuple[int, ...]  # hands that count under the profile
    uncertain: tuple[int, ...]  # hands a judge may rightly count or not (a form, a repeat, a late hand)
    silent: tuple[int, ...]  # seats that placed no hand in the whole round and whose vote goes here
    cannot_see: tuple[int, ...]
    late: tuple[int, ...]

    @property
    def known(self) -> bool:
        return self.low is not None

    @property
    def count_text(self) -> str:
        """The video's count as one number, or a range where a judge may rightly count either way."""
        if self.low is None or self.high is None:
            return _("not seen")
        return str(self.low) if self.low == self.high else f"{self.low}–{self.high}"

    @property
    def mismatch(self) -> bool:
        """The protocol's count is outside what the video supports (the audit's count_mismatch rule)."""
        return (self.protocol is not None and self.low is not None and self.high is not None
                and not self.low <= self.protocol <= self.high)

    @property
    def estimate(self) -> int | None:
        """The count a correction would write: the protocol's where the video allows it, else the nearest."""
        if self.low is None or self.high is None:
            return None
        if self.protocol is None:
            return self.low
        return min(max(self.protocol, self.low), self.high)

    def breakdown(self) -> str:
        """How the video's count is made up, in words: hands counted, silent votes, uncertain hands."""
        if not self.known:
            return _("the video was not looked at for this vote")
        counted = ngettext("{n} hand counted", "{n} hands counted", len(self.counted))
        parts = [counted + (f" ({seats(self.counted)})" if self.counted else "")]
        if self.silent:
            parts.append(ngettext("{n} silent vote", "{n} silent votes", len(self.silent)) + f" ({seats(self.silent)})")
        if self.uncertain:
            parts.append(ngettext("{n} hand a judge may count or not", "{n} hands a judge may count or not",
                                  len(self.uncertain)) + f" ({seats(self.uncertain)})")
        if self.cannot_see:
            parts.append(_("cannot see {seats}", seats=seats(self.cannot_see)))
        return "; ".join(parts)


def seats(numbers: Iterable[Any]) -> str:
    """`seats 1, 2, 9` / `seat 4` / `no seat`."""
    ns = [str(n) for n in numbers]
    if not ns:
        return _("no seat")
    return _("seat {seat}", seat=ns[0]) if len(ns) == 1 else _("seats {seats}", seats=", ".join(ns))


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in value) if isinstance(value, list | tuple) else ()


def tally(row: VoteReport | None) -> VoteTally:
    """The tally of one audit vote (a `votes[]` row of stopframe-audit/1); an empty one for None."""
    if row is None:
        return VoteTally(None, None, None, (), (), (), (), (), ())
    x = row.extra
    supported = x.get("x_supported_count")
    if isinstance(supported, list | tuple) and len(supported) == 2:
        low, high = int(supported[0]), int(supported[1])
    elif isinstance(supported, int) and not isinstance(supported, bool):
        low = high = supported
    elif row.video_count is not None:  # a report without the supported range: the hands seen
        low = high = row.video_count + len(row.silent_seats)
    else:
        low = high = None
    pcount = row.protocol_count
    return VoteTally(
        protocol=pcount if isinstance(pcount, int) and not isinstance(pcount, bool) else None,
        low=low, high=high,
        hands_seen=_ints(row.video_voters),
        counted=_ints(x.get("x_counted_voters")),
        uncertain=_ints(x.get("x_uncertain_voters")),
        silent=_ints(row.silent_seats) if low is not None and row.kind == "vote" and _silent_counted(row) else (),
        cannot_see=_ints(x.get("x_cannot_see")),
        late=_ints(x.get("x_late_seats")),
    )


def _silent_counted(row: VoteReport) -> bool:
    """Whether the row's silent seats are part of its supported count: the audit lists them on the last
    candidate, and counts them there only where the profile gives silent votes to him (rfm 4.4.10)."""
    supported = row.extra.get("x_supported_count")
    low = supported[0] if isinstance(supported, list | tuple) and supported else supported
    return isinstance(low, int) and low >= len(row.extra.get("x_counted_voters") or []) + len(row.silent_seats)


def find_row(votes: Sequence[VoteReport], day: int | None, rnd: int | None, candidate: int | None = None,
             kind: str | None = None) -> VoteReport | None:
    """The audit's row for a candidate's vote (or the round's lift vote when candidate is None)."""
    for v in votes:
        if v.day != day or v.round != rnd:
            continue
        if kind is not None and v.kind != kind:
            continue
        if candidate is None or v.candidate == candidate:
            return v
    return None


def tally_for(votes: Sequence[VoteReport], finding: Finding) -> VoteTally:
    """The tally of the vote a finding is about."""
    return tally(find_row(votes, finding.day, finding.round, finding.candidate))


def default_least() -> float:
    """The calibrated default below which a finding is a less sure suggestion (review.audit.calibration)."""
    return shipped().default_threshold


def less_sure(f: Finding, least: float | None = None) -> bool:
    """Whether the finding is hidden as less sure under `least` (None: the calibrated default), compared at the
    report file's precision (confidences to 3 places)."""
    threshold = default_least() if least is None else least
    return round(f.confidence, 3) < round(threshold, 3)


def sure_first(findings: Iterable[Finding], least: float | None = None) -> list[Finding]:
    """The findings not less sure under `least`, most confident first (ties in report order)."""
    return sorted((f for f in findings if not less_sure(f, least)), key=lambda f: -round(f.confidence, 3))
