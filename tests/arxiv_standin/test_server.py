"""The arXiv stand-in answers as arXiv does: ids, the search language, errors and faults."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from arxiv_standin import (
    BUNDLED_TITLE,
    ArxivFault,
    ArxivStandIn,
    QuerySyntaxError,
    compile_query,
    default_papers,
)
from bot.features.adding.arxiv_atom import parse_atom
from bot.settings import bundled_catalog


@pytest.fixture
async def arxiv() -> AsyncIterator[ArxivStandIn]:
    async with ArxivStandIn() as standin:
        yield standin


async def get(arxiv: ArxivStandIn, **params: str) -> tuple[int, str, dict[str, str]]:
    async with aiohttp.ClientSession() as session, session.get(arxiv.api_base,
                                                               params=params) as response:
        return response.status, await response.text(), dict(response.headers)


async def test_unknown_id_is_200_without_entry_and_malformed_is_400(arxiv: ArxivStandIn) -> None:
    status, body, _ = await get(arxiv, id_list="2509.99999")
    assert status == 200 and parse_atom(body).entries == ()
    status, body, _ = await get(arxiv, id_list="2401.01234,hello")
    assert status == 400 and parse_atom(body).error == "incorrect id format for hello"


async def test_id_list_obeys_the_default_max_results_of_10(arxiv: ArxivStandIn) -> None:
    ids = ",".join(p.id for p in default_papers()[:15])
    _, body, _ = await get(arxiv, id_list=ids)
    assert len(parse_atom(body).entries) == 10


async def test_faults_in_order_then_normal(arxiv: ArxivStandIn) -> None:
    arxiv.fail(ArxivFault.unavailable(retry_after=7))
    arxiv.fail(ArxivFault.rate_exceeded(200))
    status, _, headers = await get(arxiv, id_list="2401.01234")
    assert (status, headers["Retry-After"]) == (503, "7")
    assert (await get(arxiv, id_list="2401.01234"))[:2] == (200, "Rate exceeded.")
    assert (await get(arxiv, id_list="2401.01234"))[0] == 200
    assert [r.status for r in arxiv.requests] == [503, 200, 200]


def test_one_fixture_is_a_paper_of_the_bundled_catalog() -> None:
    titles = bundled_catalog().read_text(encoding="utf-8").splitlines()
    assert BUNDLED_TITLE in titles
    assert len(default_papers()) >= 30


@pytest.mark.parametrize(("query", "expected"), [
    ("cat:cs.LG AND abs:grokking", {"2602.01234", "2401.01234"}),
    ('ti:"ridge regression"', {"2602.01234", "2312.04567"}),
    ('ti:"ridge regression" ANDNOT au:watanabe', {"2602.01234"}),
    ("au:szabó OR id:hep-th/9901001", {"math/0309136", "hep-th/9901001"}),
    ("(cat:hep-th OR cat:hep-ph) AND ti:gauge", {"hep-th/9901001"}),
    ("ti:grok*  AND cat:stat.ML", {"2602.01234"}),
])
def test_search_language(query: str, expected: set[str]) -> None:
    matches = compile_query(query)
    hand_written = [p for p in default_papers() if not p.id.startswith("25")]
    assert {p.id for p in hand_written if matches(p)} == expected


@pytest.mark.parametrize("query", ["", "ti:(grokking", "xx:grokking", "AND ti:x"])
def test_unreadable_queries(query: str) -> None:
    with pytest.raises(QuerySyntaxError):
        compile_query(query)
