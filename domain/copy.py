"""What `paperclub db copy` reports: one table's rows on each side after the copy."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TableCount:
    """One table's rows in the source and in the target after the copy."""

    table: str
    source: int
    target: int
    new: int = 0
    """Rows this run added to the target (a second run of the same copy adds none)."""

    @property
    def ok(self) -> bool:
        """Whether the counts agree."""
        return self.source == self.target
