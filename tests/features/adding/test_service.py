"""Adding papers by arXiv id or link: one id_list request, one outcome per id, in order; arXiv's
trouble reported, never raised; on both storage backends, against the arXiv stand-in."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from arxiv_standin import ArxivFault, ArxivStandIn, StandinPaper
from bot.features.adding.arxiv_client import ArxivClient
from bot.features.adding.service import AddingService
from bot.features.catalog.service import CatalogService
from domain.adding import AddedStatus, ArxivTrouble
from domain.arxiv_ids import IdProblem
from tests.backends import Backend
from tests.fakes import AnnouncedRecorder


class Seconds:
    """Time that passes only when someone sleeps."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)




@pytest.fixture
async def arxiv() -> AsyncIterator[tuple[ArxivStandIn, ArxivClient]]:
    time = Seconds()
    async with ArxivStandIn(clock=time, sleep=time.sleep) as server:
        client = ArxivClient(server.api_base, clock=time, sleep=time.sleep, jitter=lambda: 0.0,
                             max_retries=1)
        yield server, client
        await client.close()


@pytest.fixture
def recorder(backend: Backend) -> AnnouncedRecorder:
    return AnnouncedRecorder(backend.announcements(), backend.papers())


@pytest.fixture
def adding(backend: Backend, arxiv: tuple[ArxivStandIn, ArxivClient],
           recorder: AnnouncedRecorder) -> AddingService:
    catalog = CatalogService(backend.papers(), Path("unused.txt"), recorder)
    return AddingService(catalog, arxiv[1], backend.add_policies())


async def test_ids_are_fetched_in_one_request_and_reported_in_order(
        adding: AddingService, arxiv: tuple[ArxivStandIn, ArxivClient],
        recorder: AnnouncedRecorder) -> None:
    server, _ = arxiv
    report = await adding.add_from_text(
        "read arxiv.org/abs/2401.01234v1, hep-th/9901001 and 2509.99999; arXiv:2401.1 too; "
        "again 2401.01234")
    assert [(i.text, i.status) for i in report.items] == [
        ("2401.01234v1", AddedStatus.ADDED), ("hep-th/9901001v1", AddedStatus.ADDED),
        ("2509.99999", AddedStatus.NOT_FOUND), ("arXiv:2401.1", AddedStatus.MALFORMED)]
    assert report.items[3].problem is IdProblem.TOO_FEW_DIGITS
    assert report.trouble is None and len(server.requests) == 1
    assert [p.links.arxiv_id for p in report.papers] == ["2401.01234", "hep-th/9901001"]
    (announced,) = recorder.announced
    assert [p.links.arxiv_id for p in announced] == ["2401.01234", "hep-th/9901001"]

    server.add(StandinPaper(id="2401.01234", version=2, title=report.papers[0].title_en,
                            summary="Revised.", authors=("A. Person",), categories=("cs.LG",),
                            published=report.papers[0].links.published or server.papers[
                                "2401.01234"].published))
    again = await adding.add_from_text("2401.01234 hep-th/9901001")
    assert [i.status for i in again.items] == [AddedStatus.UPDATED, AddedStatus.UNCHANGED]
    assert len(recorder.announced) == 1  # nothing new: nobody is told again


async def test_a_busy_arxiv_is_reported_and_nothing_changes(
        adding: AddingService, arxiv: tuple[ArxivStandIn, ArxivClient], backend: Backend,
        recorder: AnnouncedRecorder) -> None:
    server, _ = arxiv
    server.fail(ArxivFault.too_many_requests(retry_after=3), times=2)
    report = await adding.add_from_text("2401.01234 and arXiv:99")
    assert report.trouble is ArxivTrouble.BUSY and report.unfetched == ("2401.01234",)
    assert [i.status for i in report.items] == [AddedStatus.MALFORMED]
    assert report.papers == [] and recorder.announced == []
    assert await backend.papers().count() == 0

    server.fail(ArxivFault.bad_request("incorrect id format for 2401.01234"))
    rejected = await adding.add_from_text("2401.01234")
    assert rejected.trouble is ArxivTrouble.REJECTED
    assert rejected.reason == "incorrect id format for 2401.01234"


async def test_text_without_ids_asks_arxiv_nothing(
        adding: AddingService, arxiv: tuple[ArxivStandIn, ArxivClient]) -> None:
    report = await adding.add_from_text("what a lovely paper (no link)")
    assert report.nothing_found and report.items == ()
    assert arxiv[0].requests == []
