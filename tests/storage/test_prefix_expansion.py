"""Prefix expansion on both backends (issue 26): a prefix word is searched as its completions,
each weighed by its own rarity; the papers matched are those the prefix matches; a frequent
word's rare completions are ranked even when their papers are outside the rank window; and
the completions follow adds."""

from __future__ import annotations

import pytest

import storage.papers.postgres
import storage.papers.sqlite_ranking
from bot.features.papers.query import parse_query
from domain.catalog import LoadSource
from domain.paper import Paper
from domain.prefixes import PREFIX_CAP, Expansion
from tests.backends import Backend


def _paper(title: str) -> Paper:
    return Paper(title_en=title, title_zh="", authors=("Ann Example",))


async def _titles(backend: Backend, text: str, limit: int = 100) -> list[str]:
    hits = await backend.papers().search(parse_query(text), limit=limit)
    return [hit.paper.title_en for hit in hits]


RARE = "Controllability of large nonlinear systems under noise and delay, revisited"


async def test_a_rare_completion_outranks_a_frequent_one(backend: Backend) -> None:
    """`control` is in 8 short titles, `controllability` in one long one: as one prefix term
    the short titles ranked first; per completion, the rare word's weight wins."""
    store = backend.papers()
    await store.add_papers([_paper(RARE)] + [_paper(f"Control of robots {i}") for i in range(8)])
    found = await _titles(backend, "control")
    assert found[0] == RARE and len(found) == 9
    assert (await _titles(backend, "controllab")) == [RARE]


async def test_the_word_as_typed_outranks_a_longer_completion(backend: Backend) -> None:
    """`xia` is a surname in one paper and starts a given name in another with a shorter
    headline (bm25 favours it): the word as typed counts twice, so its paper comes first."""
    store = backend.papers()
    await store.add_papers([
        Paper(title_en="Tracking drift with variation aware entropy scheduling for agents",
              title_zh="", authors=("Tongxi Wang", "Zhuoyang Xia", "Xinran Chen")),
        Paper(title_en="Low precision training", title_zh="", authors=("Xiaoyuan Liang",))])
    found = await _titles(backend, "xia")
    assert found[0].startswith("Tracking drift") and len(found) == 2


async def test_more_completions_than_the_cap_still_match_every_paper(backend: Backend) -> None:
    """Beyond `PREFIX_CAP` completions the prefix itself is searched too: the same papers."""
    store = backend.papers()
    words = [f"contr{a}{b}" for a in "abcdefg" for b in "klmnop"]
    assert len(words) > PREFIX_CAP
    await store.add_papers([_paper(f"On {word} methods") for word in words]
                           + [_paper("Control theory"), _paper("Control again")])
    found = await _titles(backend, "contr")
    assert sorted(found) == sorted([f"On {word} methods" for word in words]
                                   + ["Control theory", "Control again"])


async def test_a_rare_completion_outside_the_rank_window_is_ranked(
        backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a window of 3, the oldest paper is outside the newest matches of `control`: its
    rare completion brings it in, on both backends."""
    monkeypatch.setattr(storage.papers.sqlite_ranking, "RANK_WINDOW", 3)
    monkeypatch.setattr(storage.papers.postgres, "RANK_WINDOW", 3)
    store = backend.papers()
    await store.add_papers([_paper(RARE)])
    await store.add_papers([_paper(f"Control of robots {i}") for i in range(10)])
    found = await _titles(backend, "control", limit=5)
    assert found[0] == RARE


async def test_completions_follow_adds(backend: Backend) -> None:
    """A completion added after a search is found by the next one (the version moved)."""
    store = backend.papers()
    await store.add_papers([_paper("Grok the basics")])
    assert await _titles(backend, "grok") == ["Grok the basics"]
    await store.add_papers([_paper("Grokking at the edge of stability")])
    assert set(await _titles(backend, "grok")) == {"Grok the basics",
                                                   "Grokking at the edge of stability"}


async def test_several_rare_completions_keep_the_scores_a_full_ranking_gives(
        backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three old papers, each with its own rare completion of `control`, are outside a window
    of 3 (scored together, on one full-text cursor, on SQLite): each comes with the score it
    has when every match is ranked, in the same order."""
    rare = ["Controllability of delayed systems", "Controllers that learn from noise",
            "Controlled diffusion with drift"]
    store = backend.papers()
    await store.add_papers([_paper(title) for title in rare])
    await store.add_papers([_paper(f"Control of robots {i}") for i in range(10)])
    full = await store.search(parse_query("control"), limit=20)
    for module in (storage.papers.sqlite_ranking, storage.papers.postgres):
        monkeypatch.setattr(module, "RANK_WINDOW", 3)
    narrow = await backend.papers().search(parse_query("control"), limit=20)
    scores = {hit.paper.title_en: hit.score for hit in full}
    assert [hit.paper.title_en for hit in narrow][:3] == [
        title for title in (hit.paper.title_en for hit in full) if title in rare]
    assert {hit.paper.title_en: hit.score for hit in narrow[:3]} == {t: scores[t] for t in rare}


async def test_completions_follow_another_stores_add(backend: Backend) -> None:
    """A store's cached completions are checked against the catalog version the results are
    read with: another store's (another process's) add is found by the next search."""
    reader, writer = backend.papers(), backend.papers()
    await writer.add_papers([_paper("Grok the basics")])
    assert [hit.paper.title_en for hit in await reader.search(parse_query("grok"))] == [
        "Grok the basics"]
    await writer.add_papers([_paper("Grokking at the edge of stability")])
    found = {hit.paper.title_en for hit in await reader.search(parse_query("grok"))}
    assert found == {"Grok the basics", "Grokking at the edge of stability"}


async def test_completions_follow_another_stores_load_when_nothing_matches(
        backend: Backend) -> None:
    """When the cached completions match nothing, the version is read on its own: a catalog
    another store loaded meanwhile (its only paper holding a new completion) is searched."""
    reader, writer = backend.papers(), backend.papers()
    await writer.load(enumerate([_paper("Grok the basics")]), source=LoadSource("a"))
    assert len(await reader.search(parse_query("grok"))) == 1
    await writer.load(enumerate([_paper("Grokking at the edge of stability")]),
                      source=LoadSource("a"), prune=True)
    found = [hit.paper.title_en for hit in await reader.search(parse_query("grok"))]
    assert found == ["Grokking at the edge of stability"]


def test_no_rare_rows_are_looked_for_when_another_word_keeps_every_match_in_the_window() -> None:
    """All words required and one in at most a rank window of papers: every match is among
    the window's newest, so the rare completions' rows (outside it) need no search."""
    ranking = storage.papers.sqlite_ranking
    window = ranking.RANK_WINDOW
    frequent = Expansion("contr", ("control", "controller"), False, ("controller",),
                         papers=window + 1)
    query = parse_query("contr perplexity")
    for papers, sql in ((window, ranking.RANKED), (window + 1, ranking.RANKED_WITH_RARE)):
        rare = Expansion("perplexity", ("perplexity",), False, (), papers=papers)
        statement = ranking.ranked_statement(query, False, None, 10,
                                             {"contr": frequent, "perplexity": rare})
        assert statement is not None and statement[0] == sql, papers
    statement = ranking.ranked_statement(query, True, None, 10,  # any word: no such bound
                                         {"contr": frequent, "perplexity": rare})
    assert statement is not None and statement[0] == ranking.RANKED_WITH_RARE
