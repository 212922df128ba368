"""The catalog as the bot sees it: statistics, and reloads that tell subscribers what is new."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from bot.features.catalog.loader import LoadReport, load_catalog
from bot.features.papers.store import PaperStore
from domain.catalog import ADD_SOURCE, AddOutcome, CatalogStats
from domain.paper import Paper

log = logging.getLogger(__name__)
LOGGED_REJECTS = 50
SHOWN_REJECT_LINES = 10


class NewPaperAnnouncer(Protocol):
    """Tells subscribers about new papers (`bot.features.notifications.announcements`)."""

    async def announce_pending(self) -> int:
        """Queue the notifications about every paper recorded as unannounced (sent from the
        outbox, after this returns)."""
        ...

    async def release(self) -> int:
        """Give back the papers this process was announcing (a clean stop)."""
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
        self.on_change: Callable[[], Awaitable[None]] | None = None
        """Called after every load and add (the search service
        starts rebuilding its typo vocabulary then, in the background)."""
        self._last: LoadReport | None = None

    async def stats(self) -> CatalogStats:
        """Totals per venue and the last load, with the rejected lines when it was ours."""
        stats = await self.papers.stats()
        last = self._last
        if last is None or (last.source, last.rejected) != (stats.last_load_source,
                                                            stats.last_load_rejected):
            return stats
        return dataclasses.replace(stats, last_load_rejected_lines=tuple(
            e.line for e in last.errors[:SHOWN_REJECT_LINES]))

    async def load_if_empty(self) -> LoadReport | None:
        """The configured catalog, loaded when the database has no paper (at start)."""
        if await self.papers.count():
            return None
        report = await self.load(self.path)
        log.info("loaded %d papers from %s", report.loaded, self.path)
        return report

    async def count(self) -> int:
        """Number of papers."""
        return await self.papers.count()

    async def reload(self) -> Reloaded:
        """Reload the configured catalog file (`CatalogFileError` if it cannot be read)."""
        return Reloaded(self.path, await self.load(self.path))

    async def load(self, path: Path) -> LoadReport:
        """Load a catalog file; subscribers' notifications about new papers are queued."""
        report = await load_catalog(self.papers, path, announce=self.announcer is not None)
        self._last = report
        for error in report.errors[:LOGGED_REJECTS]:
            log.warning("%s: rejected line %d: %s", path, error.line, error.reason)
        if report.rejected > min(len(report.errors), LOGGED_REJECTS):
            log.warning("%s: %d records rejected in all", path, report.rejected)
        await self._changed()
        await self.announce_pending()
        return report

    async def add_papers(self, papers: Sequence[Paper], *,
                         source: str = ADD_SOURCE) -> list[AddOutcome]:
        """Add papers (from arXiv, BibTeX, a feed) by the catalog's identity rules, one outcome
        each in order; subscribers hear of the new ones as after a reload, once each.
        Raises `CatalogLoadRunning` while a reload is being built."""
        outcomes = await self.papers.add_papers(papers, source=source,
                                                announce=self.announcer is not None)
        await self._changed()
        await self.announce_pending()
        return outcomes

    async def _changed(self) -> None:
        if self.on_change is not None:
            await self.on_change()

    async def announce_pending(self) -> None:
        """Queue subscribers' notifications about the papers new to the catalog that are not
        yet announced (the ones just added, and any a stop or a crash left)."""
        if self.announcer is not None:
            await self.announcer.announce_pending()

    async def release(self) -> None:
        """A clean stop: the papers this process was announcing are given back at once, for
        the next start or another process (never raises)."""
        if self.announcer is not None:
            try:
                await self.announcer.release()
            except Exception:
                log.exception("could not give back the unannounced papers")
