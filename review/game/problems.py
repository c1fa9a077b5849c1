"""A validation problem: where in the file, what is wrong, and which rule clause says so."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

# Codes of problems another module acts on (review.cases.corrected): the message is in the judge's
# language, so a reader that needs to know what kind of problem it is asks the code, never the words.
ENDS_GAME = "ends_game"  # the game was already over, or the rules give another result than the one recorded
REMOVAL_DUE = "removal_due"  # a foul that removes the player at once, with no removal following


@dataclass(frozen=True)
class Problem:
    """One problem in a protocol; `path` is the 0-based JSON path, `clause` None for format problems;
    `code` (not in the JSON) names the kinds of problem other modules act on."""

    path: str
    message: str
    clause: str | None = None
    code: str = field(default="", compare=False)

    @property
    def event(self) -> int | None:
        """The index of the protocol event the problem is about (its path begins `events[k]`), else None."""
        m = re.match(r"events\[(\d+)\]", self.path or "")
        return int(m.group(1)) if m else None

    def at_event(self, index: int) -> Problem:
        """The same problem told of event `index` (a replay of part of a protocol's events, named in the whole
        protocol's numbering); a problem about no event stays as it is."""
        k = self.event
        return self if k is None else replace(self, path=f"events[{index}]" + self.path[len(f"events[{k}]"):])

    def to_json(self) -> dict[str, str | None]:
        return {"path": self.path, "message": self.message, "clause": self.clause}

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path else ""
        why = f" ({self.clause})" if self.clause else ""
        return f"{where}{self.message}{why}"
