"""A validation problem: where in the file, what is wrong, and which rule clause says so."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Problem:
    """One problem in a protocol; `path` is the 0-based JSON path, `clause` None for format problems."""

    path: str
    message: str
    clause: str | None = None

    def to_json(self) -> dict[str, str | None]:
        return asdict(self)

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path else ""
        why = f" ({self.clause})" if self.clause else ""
        return f"{where}{self.message}{why}"
