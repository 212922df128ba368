"""The arXiv client against the local arXiv stand-in, on a fake clock shared by both."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator

import pytest

from arxiv_standin import ArxivFault, ArxivStandIn, RecordedQuery, synthetic_papers
from bot.features.adding.arxiv_client import MIN_INTERVAL, ArxivClient
from bot.features.adding.arxiv_types import ArxivBusy, ArxivRejected, SortBy, SortOrder
from domain.arxiv_ids import ArxivRef
from tests.clocks import SleepTime


@pytest.fixture
def time() -> SleepTime:
    return SleepTime()


@pytest.fixture
async def arxiv(time: SleepTime) -> AsyncIterator[ArxivStandIn]:
    async with ArxivStandIn(clock=time.clock, sleep=time.sleep) as standin:
        yield standin


@pytest.fixture
async def client(arxiv: ArxivStandIn, time: SleepTime) -> AsyncIterator[ArxivClient]:
    made = ArxivClient(arxiv.api_base, contact="club@example.org", clock=time.clock,
                       sleep=time.sleep, jitter=lambda: 0.5, max_retries=3, page_size=4)
    yield made
    await made.close()


def gaps(requests: list[RecordedQuery]) -> list[float]:
    return [b.at - a.at for a, b in itertools.pairwise(requests)]


async def test_fetch_batches_100_ids_a_request_and_reports_unknown_ids(
        arxiv: ArxivStandIn, client: ArxivClient) -> None:
    papers = synthetic_papers(250)
    arxiv.add(*papers)
    refs = [ArxivRef(p.id) for p in papers] + [ArxivRef("2509.99999")]
    result = await client.fetch(refs)
    assert [e.ref.id for e in result.entries] == [p.id for p in papers]
    assert result.missing == (ArxivRef("2509.99999"),)
    assert [len(r.params["id_list"].split(",")) for r in arxiv.requests] == [100, 100, 51]
    assert all(r.user_agent.startswith("paperclub/") and "mailto:club@example.org" in r.user_agent
               for r in arxiv.requests)


async def test_fetch_keeps_the_version_asked_for(client: ArxivClient) -> None:
    result = await client.fetch([ArxivRef("2602.01234", 1), ArxivRef("math/0309136")])
    assert [e.ref for e in result.entries] == [ArxivRef("2602.01234", 1),
                                              ArxivRef("math/0309136", 1)]


async def test_search_pages_until_max(arxiv: ArxivStandIn, client: ArxivClient) -> None:
    result = await client.search("cat:cs.LG", max_results=10, sort_by=SortBy.SUBMITTED,
                                 sort_order=SortOrder.ASCENDING)
    assert len(result.entries) == 10 and result.complete
    assert result.total_results > 10
    assert [r.params["start"] for r in arxiv.requests] == ["0", "4", "8"]
    assert [r.params["max_results"] for r in arxiv.requests] == ["4", "4", "2"]
    published = [e.published for e in result.entries]
    assert published == sorted(published)  # type: ignore[type-var]


async def test_search_stops_at_the_total(arxiv: ArxivStandIn, client: ArxivClient) -> None:
    result = await client.search("cat:cs.LG AND abs:grokking", max_results=50)
    assert result.complete
    assert 0 < len(result.entries) == result.total_results < 50
    assert len(arxiv.requests) == -(-result.total_results // 4)  # pages of 4, none past the end
    assert "To Grok Grokking: Provable Grokking in Ridge Regression" in [
        e.title for e in result.entries]


async def test_503_then_200_retries_after_retry_after(arxiv: ArxivStandIn, client: ArxivClient,
                                                      time: SleepTime) -> None:
    arxiv.fail(ArxivFault.unavailable(retry_after=30))
    result = await client.fetch([ArxivRef("2401.01234")])
    assert [e.ref.id for e in result.entries] == ["2401.01234"]
    assert [r.status for r in arxiv.requests] == [503, 200]
    assert gaps(arxiv.requests)[0] >= 30


@pytest.mark.parametrize("fault", [ArxivFault.rate_exceeded(), ArxivFault.rate_exceeded(200),
                                   ArxivFault.too_many_requests(retry_after=None)])
async def test_throttling_gives_a_busy_error_after_bounded_retries(
        arxiv: ArxivStandIn, client: ArxivClient, fault: ArxivFault) -> None:
    arxiv.fail(fault, times=10)
    with pytest.raises(ArxivBusy):
        await client.fetch([ArxivRef("2401.01234")])
    assert len(arxiv.requests) == 4  # one try and max_retries=3 retries, then no more
    waits = gaps(arxiv.requests)
    assert waits == sorted(waits) and waits[0] >= 5  # backing off, never hammering
    assert arxiv.pending_faults == 6


async def test_400_carries_arxivs_reason(arxiv: ArxivStandIn, client: ArxivClient) -> None:
    with pytest.raises(ArxivRejected) as caught:
        await client.fetch([ArxivRef("2401.999")])
    assert caught.value.reason == "incorrect id format for 2401.999"
    assert len(arxiv.requests) == 1  # a refusal is not retried


async def test_an_empty_page_for_a_query_with_results_is_asked_again_once(
        arxiv: ArxivStandIn, client: ArxivClient) -> None:
    arxiv.fail(ArxivFault.empty_page())
    result = await client.search("abs:grokking", max_results=2)
    assert len(result.entries) == 2
    assert len(arxiv.requests) == 2


async def test_two_empty_pages_end_the_search_marked_incomplete(
        arxiv: ArxivStandIn, client: ArxivClient) -> None:
    arxiv.fail(ArxivFault.empty_page(), times=2)
    result = await client.search("abs:grokking", max_results=2)
    assert result.entries == () and not result.complete
    assert len(arxiv.requests) == 2


async def test_an_empty_id_page_is_asked_again_once(arxiv: ArxivStandIn,
                                                   client: ArxivClient) -> None:
    arxiv.fail(ArxivFault.empty_page())
    result = await client.fetch([ArxivRef("2401.01234")])
    assert [e.ref.id for e in result.entries] == ["2401.01234"]


async def test_requests_are_3_seconds_apart_and_one_at_a_time(
        arxiv: ArxivStandIn, client: ArxivClient) -> None:
    arxiv.fail(ArxivFault.slow(10))
    arxiv.fail(ArxivFault.unavailable(retry_after=None))
    await asyncio.gather(*(client.fetch([ArxivRef("2401.01234")]) for _ in range(3)),
                         client.search("all:grokking", max_results=8))
    assert len(arxiv.requests) >= 5
    assert min(gaps(arxiv.requests)) >= MIN_INTERVAL
    assert arxiv.peak_in_flight == 1
