"""The identity rules an add follows, shared by both backends: when a paper updates, fills
or conflicts with a stored one, and when it is new."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from domain.catalog import AddOutcome, AddStatus
from domain.paper import Paper
from domain.paper_merge import filled, newer_version


class PaperRows(Protocol):
    """What the identity rules need from a backend, inside one transaction."""

    async def stored(self, column: str, value: str) -> tuple[int, Paper] | None:
        """The row id and paper whose `column` (arxiv_id, title_key, public_id) is `value`."""
        ...

    async def rewrite(self, rowid: int, paper: Paper) -> None:
        """Update a stored paper in place (same title key, so the same public id)."""
        ...

    async def insert(self, paper: Paper) -> None:
        """Store a new paper."""
        ...


async def add_by_identity(rows: PaperRows, paper: Paper) -> AddOutcome:
    """The identity rules, for either backend: a known arXiv id updates in place when the
    version is newer (else nothing changes); a record with the same normalised title gets what
    it lacks (the id, links, English abstract) and is never duplicated; anything else is a new
    paper."""
    if paper.links.arxiv_id:
        found = await rows.stored("arxiv_id", paper.links.arxiv_id)
        if found is not None:
            rowid, stored = found
            merged = newer_version(stored, paper)
            if paper.links.arxiv_version <= stored.links.arxiv_version or merged == stored:
                return AddOutcome(AddStatus.UNCHANGED, stored)
            await rows.rewrite(rowid, merged)
            return AddOutcome(AddStatus.UPDATED, merged)
    found = await rows.stored("title_key", paper.key)
    if found is not None:
        rowid, stored = found
        if stored.links.arxiv_id and paper.links.arxiv_id:
            return AddOutcome(AddStatus.CONFLICT, stored)  # two arXiv papers, one title
        merged = filled(stored, paper)
        if merged == stored:
            return AddOutcome(AddStatus.UNCHANGED, stored)
        await rows.rewrite(rowid, merged)
        return AddOutcome(AddStatus.FILLED, merged)
    holder = await rows.stored("public_id", paper.id)
    if holder is not None:  # a 64-bit id collision between two titles: improbable
        return AddOutcome(AddStatus.CONFLICT, holder[1])
    await rows.insert(paper)
    return AddOutcome(AddStatus.ADDED, paper)


def added_tally(outcomes: Sequence[AddOutcome]) -> tuple[int, int, int, int] | None:
    """A `catalog_loads` row's added, updated, unchanged and rejected counts for an add, or
    None when nothing changed (no row: the catalog version stays)."""
    tally = Counter(outcome.status for outcome in outcomes)
    if not (tally[AddStatus.ADDED] or tally[AddStatus.UPDATED] or tally[AddStatus.FILLED]):
        return None
    return (tally[AddStatus.ADDED], tally[AddStatus.UPDATED] + tally[AddStatus.FILLED],
            tally[AddStatus.UNCHANGED], tally[AddStatus.CONFLICT])
