"""Voters filled from the video: a count-only protocol made exportable to the club systems, explicitly.

Why: Polemica and mafiaratings list every voter's seat, and most paper protocols give only the count, so their
export refuses. The audit knows from the video whose hand counted for each candidate (`votes[]`, read through
`review.audit.tally`). A judge may choose to fill the voters from it; this module does so only where nothing is
guessed: the video's count is one number and equals the judge's count (the silent players' votes going to the
last candidate where the profile says so — rfm 4.4.10, mafclub 2.4.10, lvi2015 5.4), no hand is uncertain or
unseen, and no finding on that vote is still undecided. A hand the judge decided not to count is left out. Every
vote filled is marked `x_voters_from_video: true`, so the file says where its voters came from; a vote that is not
filled keeps its count only, and the club export still refuses naming it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from contract.i18n import _, ngettext
from review.audit.findings import Finding, VoteReport, finding_key
from review.audit.tally import find_row, tally
from review.cases.club_exports import event_words
from review.cases.corrected import describe_finding
from review.cases.store import Decision
from review.game.engine import replay
from review.game.profiles import get_profile
from review.game.protocol import validate

MARK = "x_voters_from_video"


@dataclass(frozen=True)
class VoterFill:
    """The protocol with voters filled, the indexes of the votes filled, and one sentence per vote left as is."""

    protocol: dict[str, Any]
    filled: tuple[int, ...]
    left: tuple[str, ...] = field(default=())


def fill_voters_from_video(protocol: Mapping[str, Any], findings: Iterable[Finding], votes: Iterable[VoteReport],
                           decisions: Mapping[str, Decision]) -> VoterFill:
    """A copy of `protocol` (the judge's or the corrected one) with `voters` set on every candidate vote where
    the video's hands agree with its count and no undecided finding is about that vote; the input is unchanged.

    `decisions` maps `finding_key` to the judge's decision; a finding without one is undecided. The result
    validates whenever the input does: a fill the validator would refuse is left out, with its sentence."""
    out = copy.deepcopy(dict(protocol))
    events: list[dict[str, Any]] = out.get("events") or []
    rows = list(votes)
    if validate(out):
        return VoterFill(out, (), (_("The protocol does not validate, so no voters were filled from the video."),))
    profile = get_profile(out["rules"])
    silent_rule = bool(profile.silent_vote_to_last.value)
    contexts = replay(out, profile).vote_contexts
    open_findings, not_counted = _findings_by_vote(findings, decisions)
    filled: list[int] = []
    left: list[str] = []
    for i, e in enumerate(events):
        if e.get("type") != "vote" or isinstance(e.get("voters"), list):
            continue
        place = (e["day"], e.get("round", 1), e["candidate"])
        why, voters = _video_voters(e, find_row(rows, e["day"], e.get("round", 1), e["candidate"], kind="vote"),
                                    open_findings.get(place, []), not_counted.get(place, set()),
                                    silent_rule and i in contexts and contexts[i].is_last_candidate)
        if why is None:
            e["voters"], e[MARK] = voters, True
            if validate(out):
                del e["voters"], e[MARK]
                why = _("the voters the video shows do not fit the game as the protocol records it")
            else:
                filled.append(i)
                continue
        left.append(f"{event_words(e)}: {why}.")
    return VoterFill(out, tuple(filled), tuple(left))


def _findings_by_vote(findings: Iterable[Finding], decisions: Mapping[str, Decision]
                      ) -> tuple[dict[tuple[Any, ...], list[Finding]], dict[tuple[Any, ...], set[int]]]:
    """(day, round, candidate) -> its undecided findings, and -> the seats a standing decision does not count."""
    open_findings: dict[tuple[Any, ...], list[Finding]] = {}
    not_counted: dict[tuple[Any, ...], set[int]] = {}
    for f in findings:
        if f.day is None or f.candidate is None:
            continue
        d = decisions.get(finding_key(f))
        if d is None:
            open_findings.setdefault((f.day, f.round or 1, f.candidate), []).append(f)
            continue
        g = d.effective_finding
        if d.stands and g.consequence.type == "not_counted" and g.seat is not None:
            not_counted.setdefault((g.day, g.round or 1, g.candidate), set()).add(g.seat)
    return open_findings, not_counted


def _video_voters(e: Mapping[str, Any], row: VoteReport | None, undecided: list[Finding], dropped: set[int],
                  silent_to_last: bool) -> tuple[str | None, list[int]]:
    """(None, the seats) where the video names every voter of the count, else (why not, [])."""
    count = e["count"]
    if count == 0:
        return None, []
    if undecided:
        return _("{finding} is not decided yet", finding=describe_finding(undecided[0])), []
    t = tally(row)
    if not t.known:
        return _("the video was not looked at for this vote"), []
    if t.cannot_see:
        return _("the camera cannot see {seats}", seats=_seats(t.cannot_see)), []
    if t.uncertain:
        return _("the video leaves it to the judge whether to count {seats}", seats=_seats(t.uncertain)), []
    hands = set(t.counted) | (set(t.silent) if silent_to_last else set())
    voters = sorted(hands - dropped)
    if len(voters) != count:
        return ngettext("the video shows {n} vote ({seats}), not the count {count}",
                        "the video shows {n} votes ({seats}), not the count {count}", len(voters),
                        seats=_seats(voters), count=count), []
    return None, voters


def _seats(numbers: Iterable[Any]) -> str:
    """`seats 1, 2, 9` / `seat 4` / `no seat`, in the current language."""
    ns = ", ".join(str(n) for n in numbers)
    if not ns:
        return _("no seat")
    return _("seats {seats}", seats=ns) if "," in ns else _("seat {seat}", seat=ns)
