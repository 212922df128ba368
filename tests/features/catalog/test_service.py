"""The catalog service: a reload reports what changed and announces only new papers."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.features.catalog.service import CatalogService
from domain.catalog import AddStatus
from domain.paper import Links, Paper
from storage.backend import ANNOUNCEMENTS
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.fakes import AnnouncedRecorder


def recorder_of(db: Database) -> AnnouncedRecorder:
    """The unannounced papers of `db`, announced into a list."""
    return AnnouncedRecorder(ANNOUNCEMENTS.open(db), SqlitePaperStore(db))


async def test_reload_announces_new_papers_once(db: Database, catalog_path: Path) -> None:
    recorder = recorder_of(db)
    service = CatalogService(SqlitePaperStore(db), catalog_path, recorder)
    first = await service.reload()
    assert first.path == catalog_path and first.report.counts.added == await service.count()
    (announced,) = recorder.announced
    assert len(announced) == first.report.counts.added
    again = await service.reload()
    assert again.report.counts.added == 0 and len(recorder.announced) == 1
    assert (await service.stats()).papers == await service.count()


async def test_added_papers_are_announced_once_filled_ones_never(
        db: Database, catalog_path: Path, bundled_papers: list[Paper]) -> None:
    recorder = recorder_of(db)
    service = CatalogService(SqlitePaperStore(db), catalog_path, recorder)
    await service.reload()
    recorder.announced.clear()
    new = Paper(title_en="A Paper Only arXiv Has", title_zh="", authors=("Ada Lovelace",),
                links=Links(arxiv_id="2401.00001", arxiv_version=1))
    listed = dataclasses.replace(bundled_papers[0], links=Links(arxiv_id="2401.00002"))
    outcomes = await service.add_papers([new, listed])
    assert [o.status for o in outcomes] == [AddStatus.ADDED, AddStatus.FILLED]
    assert recorder.announced == [[new]]
    again = await service.add_papers([new, listed])
    assert [o.status for o in again] == [AddStatus.UNCHANGED, AddStatus.UNCHANGED]
    assert recorder.announced == [[new]]


async def test_every_load_and_add_tells_on_change(db: Database, catalog_path: Path) -> None:
    changes: list[str] = []

    async def changed() -> None:
        changes.append("changed")

    service = CatalogService(SqlitePaperStore(db), catalog_path)
    service.on_change = changed
    await service.reload()
    assert changes == ["changed"]
    await service.add_papers([Paper(title_en="A Paper Only arXiv Has", title_zh="",
                                    authors=("Ada Lovelace",),
                                    links=Links(arxiv_id="2401.00001", arxiv_version=1))])
    assert changes == ["changed", "changed"]


class FailingOnce(AnnouncedRecorder):
    """Dies (as a killed process would) the first time it is to announce."""

    failed = False

    async def announce_pending(self) -> int:
        if not self.failed:
            self.failed = True
            raise ConnectionError("killed between the commit and the announcement")
        return await super().announce_pending()


async def test_a_second_reload_announces_what_the_first_did_not(
        db: Database, catalog_path: Path) -> None:
    recorder = FailingOnce(ANNOUNCEMENTS.open(db), SqlitePaperStore(db))
    service = CatalogService(SqlitePaperStore(db), catalog_path, recorder)
    with pytest.raises(ConnectionError):
        await service.reload()
    assert recorder.announced == []
    again = await service.reload()
    assert again.report.counts.added == 0
    (announced,) = recorder.announced
    assert len(announced) == await service.count()
