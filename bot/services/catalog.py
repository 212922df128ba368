"""The catalog as the bot sees it: statistics, and reloads that tell subscribers what is new."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from bot.core.catalog_types import CatalogStats
from bot.core.models import Paper
from bot.services.catalog_loader import LoadReport, load_catalog
from storage.interfaces import PaperStore


class NewPaperAnnouncer(Protocol):
    """Tells subscribers about new papers (`bot.client.outbound.notifier`)."""

    async def announce(self, papers: list[Paper]) -> None:
        """Queue the notifications (sent from the outbox, after this returns)."""
        ...


@dataclass(frozen=True, slots=True)
class Reloaded:
    """A reload of the configured catalog file."""

    path: Path
    report: LoadReport


class CatalogService:
    """Catalog statistics and loads from the configured file."""

    def __init__(self, papers: PaperStore, path: Path,
                 announcer: NewPaperAnnouncer | None = None) -> None:
        self.papers = papers
        self.path = path
        self.announcer = announcer

    async def stats(self) -> CatalogStats:
        """Totals per venue and the last load."""
        return await self.papers.stats()

    async def count(self) -> int:
        """Number of papers."""
        return await self.papers.count()

    async def reload(self) -> Reloaded:
        """Reload the configured catalog file (`CatalogFileError` if it cannot be read)."""
        return Reloaded(self.path, await self.load(self.path))

    async def load(self, path: Path) -> LoadReport:
        """Load a catalog file; subscribers' notifications about new papers are queued."""
        report = await load_catalog(self.papers, path)
        if report.counts.added_ids and self.announcer is not None:
            found = [await self.papers.get(i) for i in report.counts.added_ids]
            await self.announcer.announce([p for p in found if p is not None])
        return report
