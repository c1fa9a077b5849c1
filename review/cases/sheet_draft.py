"""The votes and the nights' shots drafted from the video (`stopframe draft`, pipeline.draft) offered to a protocol
sheet, box by box.

Why proposals and not a merge: a draft is the video's reading, the sheet is the judge's. Each drafted round (its
candidates' counts, voters and times) and each night's shooting (whom the black players' raised hands name,
review.audit.draft_nights) becomes one proposal for one box of the sheet; it enters the protocol only when the
judge accepts it (as drafted or edited), as an entry like any typed line, so it is saved, checked and undone like
one. A round the sheet already holds exactly as drafted, or a shooting whose seat it already holds, is not
proposed. The draft and the judge's choice on each proposal are kept by review.cases.sheet_store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from review.audit.align import VOTE_TYPES
from review.audit.draft_nights import ShotRead
from review.cases.sheet import Sheet, box_events
from review.cases.sheet_entry import Slot, write


@dataclass(frozen=True)
class Proposal:
    """One drafted box `slot` (`round.D.R`, `lift.D` or `shooting.N`): its events as drafted (a round's times,
    voters, count; a shooting's target, shots, `x_fired`; each with `x_draft_score`), and the box line that
    enters them (a round's times after `@`)."""

    slot: str
    events: tuple[dict[str, Any], ...]
    line: str

    @property
    def kind(self) -> str:
        """What the box holds: `round`, `lift` (a day's votes) or `shooting` (a night's)."""
        return Slot.of(self.slot).kind

    @property
    def day(self) -> int:
        """The day of a vote, the night of a shooting."""
        return Slot.of(self.slot).number

    @property
    def round(self) -> int:
        """The round number (a lift vote: the round after the last one voted)."""
        first = self.events[0] if self.events else {}
        return int(first.get("round") or Slot.of(self.slot).round)

    def to_json(self) -> dict[str, Any]:
        return {"slot": self.slot, "events": list(self.events), "line": self.line}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Proposal:
        return cls(str(data["slot"]), tuple(dict(e) for e in data["events"]), str(data["line"]))


def _slot(event: Mapping[str, Any]) -> Slot | None:
    day, rnd = event.get("day"), event.get("round")
    if not isinstance(day, int):
        return None
    if event.get("type") == "lift_vote":
        return Slot("lift", day)
    return Slot("round", day, rnd) if isinstance(rnd, int) else None


def _plain(events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if not k.startswith("x_")} for e in events]


def proposals(draft: Mapping[str, Any], sheet: Sheet) -> list[Proposal]:
    """The draft's counted rounds that the sheet does not already hold as drafted, in game order."""
    rounds: dict[str, list[dict[str, Any]]] = {}
    for e in draft.get("events") or []:
        if e.get("type") in VOTE_TYPES and isinstance(e.get("count"), int) and (slot := _slot(e)) is not None:
            rounds.setdefault(slot.key, []).append(dict(e))
    out = []
    for key, events in rounds.items():
        if _plain(events) == _plain(box_events(sheet.data, key)):
            continue
        out.append(Proposal(key, tuple(events), write(Slot.of(key), events, timed=True)))
    return out


def accept(sheet: Sheet, proposal: Proposal, line: str | None = None) -> bool:
    """Enter the proposal (or the judge's edit of its line) into its box; False when the box already reads so."""
    return sheet.enter(proposal.slot, proposal.line if line is None else line)


def shooting_protocol(sheet: Sheet) -> dict[str, Any]:
    """The sheet's protocol with a shooting for every night it shows (a miss where its box is empty), so the video
    can be read for each night the judge has not typed yet; the sheet itself is untouched."""
    whole = Sheet(sheet.protocol())
    for night in sheet.nights():
        key = Slot("shooting", night).key
        if not box_events(whole.data, key):
            whole.enter(key, "-")
    return whole.protocol()


def night_proposals(shots: Sequence[ShotRead], sheet: Sheet) -> list[Proposal]:
    """The nights' shootings as the video shows them, but those whose seat (or miss) the sheet already holds with
    the same shots or none written, in night order."""
    out = []
    for shot in sorted(shots, key=lambda s: s.night):
        slot = Slot("shooting", shot.night)
        held = [e for e in box_events(sheet.data, slot.key) if e.get("type") == "shooting"]
        if held and held[0].get("target") == shot.target and held[0].get("shots") in (None, {}, shot.shots):
            continue
        event = shot.event()
        out.append(Proposal(slot.key, (event,), write(slot, [event])))
    return out
