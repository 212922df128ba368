"""The catalog service: a reload reports what changed and announces only new papers."""

from __future__ import annotations

from pathlib import Path

from bot.core.models import Paper
from bot.services.catalog import CatalogService
from storage.database import Database
from storage.papers import SqlitePaperStore


class Recorder:
    """A `NewPaperAnnouncer` that remembers what it was asked to announce."""

    def __init__(self) -> None:
        self.announced: list[list[Paper]] = []

    async def announce(self, papers: list[Paper]) -> None:
        self.announced.append(papers)


async def test_reload_announces_new_papers_once(db: Database, catalog_path: Path) -> None:
    recorder = Recorder()
    service = CatalogService(SqlitePaperStore(db), catalog_path, recorder)
    first = await service.reload()
    assert first.path == catalog_path and first.report.counts.added == await service.count()
    (announced,) = recorder.announced
    assert len(announced) == first.report.counts.added
    again = await service.reload()
    assert again.report.counts.added == 0 and len(recorder.announced) == 1
    assert (await service.stats()).papers == await service.count()
