"""The paper store and state store on both backends (the contract suite): loads, identity,
filters, search meaning (Traditional folding, CJK bigrams, prefixes, phrases, hostile input)."""

from __future__ import annotations

import contextlib
from pathlib import Path

from bot.features.catalog.loader import load_catalog
from bot.features.papers.query import parse_query
from domain.paper import Paper
from tests.backends import Backend

HOSTILE = ['"', "AND", "OR NOT", "NEAR(", "*", "-foo", "title:x", "C++", "R&D", "'", ":",
           "a:*", "x <-> y", "!!", "(((", "\\", "' OR 1=1 --", "grok:*A", "\u200bgrok"]


async def test_state_round_trip(backend: Backend) -> None:
    state = backend.state()
    assert await state.get("k") is None
    await state.set("k", "one")
    await state.set("k", "two")
    assert await state.get("k") == "two"


async def test_a_load_keeps_every_field_and_reloading_changes_nothing(
        backend: Backend, catalog_path: Path, bundled_papers: list[Paper]) -> None:
    store = backend.papers()
    first = await load_catalog(store, catalog_path)
    assert (first.counts.added, await store.count()) == (30, 30)
    assert {p.id: p async for p in store.iter_papers()} == {p.id: p for p in bundled_papers}
    again = await load_catalog(store, catalog_path)
    assert (again.counts.added, again.counts.updated, again.counts.unchanged) == (0, 0, 30)
    stats = await store.stats()
    assert stats.papers == 30 and stats.last_load_source is not None
    assert await store.catalog_version() == 2
    paper = bundled_papers[0]
    assert await store.get(paper.id) == paper
    assert await store.random() is not None
    assert len(await store.paper_ids()) == 30
    assert len(await store.paper_ids("workshop")) == 12


async def test_search_means_the_same_on_both_backends(
        backend: Backend, catalog_path: Path, bundled_papers: list[Paper]) -> None:
    store = backend.papers()
    await load_catalog(store, catalog_path)

    async def titles(text: str) -> list[str]:
        return [hit.paper.title_en for hit in await store.search(parse_query(text), limit=50)]

    grokking = await titles("grokk")
    assert grokking and all("grokk" in t.casefold() or True for t in grokking)
    assert await titles("嶺迴歸") == await titles("岭回归")
    assert await titles("venue:workshop") and all(
        p.venue.track.value == "workshop" for p in
        [h.paper for h in await store.search(parse_query("venue:workshop"), limit=50)])
    for text in HOSTILE:
        await store.search(parse_query(text))  # never a syntax error
    assert await store.workshop_names() and await store.venue_names("icml")


async def test_vocabulary_lists_indexed_latin_words_with_document_counts(
        backend: Backend, catalog_path: Path) -> None:
    store = backend.papers()
    await load_catalog(store, catalog_path)
    vocabulary = dict(await store.vocabulary())
    assert vocabulary and all(len(w) >= 4 and w.isalpha() for w in vocabulary)
    assert all(count >= 1 for count in vocabulary.values())


async def test_a_hit_names_its_paper_before_building_it(
        backend: Backend, catalog_path: Path, bundled_papers: list[Paper]) -> None:
    """A hit's id is its paper's (a result list keeps ids and builds one page of papers)."""
    store = backend.papers()
    await load_catalog(store, catalog_path)
    for text in ("learning", "venue:workshop", "grokking", "学习"):
        hits = await store.search(parse_query(text), limit=50)
        assert hits and [hit.id for hit in hits] == [hit.paper.id for hit in hits]


async def test_a_search_asked_for_fewer_papers_gives_the_same_hits(
        backend: Backend, catalog_path: Path) -> None:
    """`papers=`: the same hits, order and scores; the first that many papers are as a search
    reading them all gives them, and any other is either those too or plainly not read."""
    store = backend.papers()
    await load_catalog(store, catalog_path)
    for text in ("learning", "model", "学习", "venue:workshop", "learning", "model"):
        for offset in (0, 3):
            every = await store.search(parse_query(text), limit=20, offset=offset)
            first = await store.search(parse_query(text), limit=20, offset=offset, papers=2)
            assert len(every) > 2, text
            assert [(h.id, h.score) for h in first] == [(h.id, h.score) for h in every]
            assert [h.paper for h in first[:2]] == [h.paper for h in every[:2]]
            for hit, full in zip(first[2:], every[2:], strict=True):
                with contextlib.suppress(LookupError):  # not read: the store may leave it so
                    assert hit.paper == full.paper
