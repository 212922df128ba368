"""The vectors kept with the catalog: embedded newest first in the background, stored batch by
batch so a stopped catch-up resumes with exactly what is missing, read back at start, and
re-embedded only for papers whose text (or the model) changed."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
from collections.abc import AsyncIterator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime

import numpy as np
import pytest

from bot.features.meaning.encoder import paper_text, quantise, unit_rows
from bot.features.meaning.index import CENTRE_FROM, MeaningIndex
from bot.features.meaning.keeper import Cut, MeaningKeeper
from bot.features.meaning.store import EmbeddingStore
from domain.embedding import StoredEmbedding
from domain.paper import Links, Paper
from storage.backend import EMBEDDINGS
from storage.sqlite.database import Database
from tests.features.meaning.tiny import SlowTrigramEncoder, TrigramEncoder

_names = itertools.count()


def _paper(n: int, title: str) -> Paper:
    return Paper(title_en=title, title_zh="", authors=("A. Author",),
                 summary_en=f"A study of {title.lower()}.",
                 links=Links(arxiv_id=f"2501.{n:05d}",
                             published=datetime(2025, 1, 1 + n, tzinfo=UTC)))


TITLES = ["Robotic grasping with tactile sensing", "Pruning large language models",
          "Detecting images made by diffusion models", "Bird migration over the Alps",
          "Quantum error correction codes", "Graph neural networks for molecules"]


class _Catalog:
    def __init__(self, papers: list[Paper]) -> None:
        self.papers = papers
        self.version = 1

    async def catalog_version(self) -> int:
        return self.version

    async def iter_papers(self) -> AsyncIterator[Paper]:
        for paper in self.papers:
            yield paper


@pytest.fixture
def threads() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(1) as pool:
        yield pool


def _encoder(**kwargs: int) -> TrigramEncoder:
    """A fresh model name per test: the worker keeps one loaded encoder per name."""
    return TrigramEncoder(f"tiny-{next(_names)}", **kwargs)


async def _caught_up(keeper: MeaningKeeper) -> MeaningKeeper:
    await keeper.prepare()
    await keeper.built()
    return keeper


async def test_a_stopped_catch_up_resumes_with_only_the_missing_papers_newest_first(
        db: Database, threads: ThreadPoolExecutor) -> None:
    catalog = _Catalog([_paper(n, title) for n, title in enumerate(TITLES)])
    store: EmbeddingStore = EMBEDDINGS.open(db)
    crashing = _encoder(fail_after=3)  # the query encoder's warm-up, then two batches
    first = MeaningKeeper(catalog, store, crashing, executor=threads, batch=2)
    await first.prepare()
    with pytest.raises(RuntimeError, match="the worker died"):
        await first.built()
    kept = await store.text_hashes(crashing.name)
    newest = {p.id for p in catalog.papers[-4:]}
    assert set(kept) == newest  # two batches of two, the newest papers first
    crashing.fail_after = None  # a new process: the same model, working again
    resumed = await _caught_up(MeaningKeeper(catalog, store, crashing, executor=threads,
                                             batch=2))
    assert resumed.encoded == 2
    assert set(await store.text_hashes(crashing.name)) == {p.id for p in catalog.papers}
    assert resumed.progress().embedded == resumed.progress().total == len(TITLES)


async def test_a_restart_reads_vectors_back_and_an_edit_re_embeds_that_paper_alone(
        db: Database, threads: ThreadPoolExecutor) -> None:
    catalog = _Catalog([_paper(n, title) for n, title in enumerate(TITLES)])
    store: EmbeddingStore = EMBEDDINGS.open(db)
    encoder = _encoder()
    first = await _caught_up(MeaningKeeper(catalog, store, encoder, executor=threads))
    assert first.encoded == len(TITLES)
    restarted = MeaningKeeper(catalog, store, encoder, executor=threads)
    await _caught_up(restarted)
    assert restarted.encoded == 0 and len(restarted.index) == len(TITLES)
    edited = replace(catalog.papers[0], summary_en="Now about tactile robot hands.")
    catalog.papers = [edited, *catalog.papers[1:4]]  # one edited, two removed
    catalog.version = 2
    await _caught_up(restarted)
    assert restarted.encoded == 1
    assert set(await store.text_hashes(encoder.name)) == {p.id for p in catalog.papers}
    assert len(restarted.index) == 4
    other = await _caught_up(MeaningKeeper(catalog, store, _encoder(), executor=threads))
    assert other.encoded == 4  # another model embeds everything again


async def test_the_nearest_papers_to_a_description_are_found_above_a_threshold(
        db: Database, threads: ThreadPoolExecutor) -> None:
    catalog = _Catalog([_paper(n, title) for n, title in enumerate(TITLES)])
    keeper = await _caught_up(MeaningKeeper(catalog, EMBEDDINGS.open(db), _encoder(),
                                            executor=threads))
    near = await keeper.nearest("grasping objects with robotic tactile hands", 3,
                                threshold=0.3, wait=True)
    assert near and near[0][0] == catalog.papers[0].id
    assert all(score >= 0.3 for _, score in near)
    assert await keeper.nearest("xqzj vkwy", 3, threshold=0.3, wait=True) == []
    await keeper.close()


async def test_ready_waits_until_a_query_is_answered_without_waiting(
        db: Database, threads: ThreadPoolExecutor) -> None:
    catalog = _Catalog([_paper(n, title) for n, title in enumerate(TITLES)])
    keeper = MeaningKeeper(catalog, EMBEDDINGS.open(db),
                           SlowTrigramEncoder(f"tiny-{next(_names)}", 0.05), executor=threads)
    await keeper.prepare()
    assert not keeper.answers()  # nothing embedded yet: a query now is answered lexically
    assert await keeper.ready() and keeper.answers()
    assert len(keeper.index) == len(TITLES)
    near = await keeper.nearest("grasping objects with robotic tactile hands", 1, threshold=0.3)
    assert near and near[0][0] == catalog.papers[0].id
    await keeper.close()


async def test_ready_says_no_when_nothing_can_be_answered(
        db: Database, threads: ThreadPoolExecutor) -> None:
    empty = MeaningKeeper(_Catalog([]), EMBEDDINGS.open(db), _encoder(), executor=threads)
    await empty.prepare()
    assert not await empty.ready()  # an empty catalog: nothing to find by meaning
    await empty.close()
    papers = _Catalog([_paper(n, title) for n, title in enumerate(TITLES[:2])])
    broken = MeaningKeeper(papers, EMBEDDINGS.open(db), _encoder(fail_after=0), executor=threads)
    await broken.prepare()
    assert not await broken.ready()  # the encoder failed: logged, and answered lexically
    await broken.close()


async def test_papers_are_encoded_in_a_worker_process(db: Database) -> None:
    catalog = _Catalog([_paper(n, title) for n, title in enumerate(TITLES[:3])])
    encoder = _encoder()
    keeper = await _caught_up(MeaningKeeper(catalog, EMBEDDINGS.open(db), encoder))
    try:
        assert keeper.encoded == 3 and len(keeper.index) == 3
        assert await keeper.query_vector("robots", wait=True) is not None
        assert encoder.batches == 2  # this process's copy: its warm-up and the query alone
    finally:
        await keeper.close()


async def test_a_worker_killed_mid_run_is_replaced_and_the_catch_up_finishes(
        db: Database) -> None:
    catalog = _Catalog([_paper(n, title) for n, title in enumerate(TITLES)])
    store: EmbeddingStore = EMBEDDINGS.open(db)
    keeper = MeaningKeeper(catalog, store, SlowTrigramEncoder(f"tiny-{next(_names)}", 0.3),
                           batch=1)
    try:
        await keeper.prepare()
        while len(keeper.index) < 1:  # the first batch is stored: the worker is at work
            await asyncio.sleep(0.05)
        pool = keeper._executor
        assert isinstance(pool, ProcessPoolExecutor)
        for pid in list(pool._processes):
            os.kill(pid, signal.SIGKILL)
        await keeper.built()
        assert set(await store.text_hashes(keeper.model)) == {p.id for p in catalog.papers}
    finally:
        await keeper.close()


class _QueryPrefixed(TrigramEncoder):
    """A model that embeds queries apart from papers (as e5 does, with "query: ")."""

    def encode_queries(self, texts: Sequence[str], *, centred: bool = True,
                       gate: bool = False) -> np.ndarray:
        return self.encode([f"query: {t}" for t in texts])


async def test_queries_are_encoded_as_queries_and_papers_as_papers(
        db: Database, threads: ThreadPoolExecutor) -> None:
    catalog = _Catalog([_paper(n, title) for n, title in enumerate(TITLES)])
    encoder = _QueryPrefixed(f"tiny-{next(_names)}")
    keeper = await _caught_up(MeaningKeeper(catalog, EMBEDDINGS.open(db), encoder,
                                            executor=threads))
    stored = keeper.index.vector(catalog.papers[1].id)
    assert stored is not None
    assert np.abs(stored - encoder.encode([paper_text(catalog.papers[1])])[0]).max() < 0.02
    vector = await keeper.query_vector("pruning", wait=True)
    assert vector is not None
    assert np.allclose(vector, encoder.encode_queries(["pruning"])[0])
    assert not np.allclose(vector, encoder.encode(["pruning"])[0])


def _index(papers: int) -> MeaningIndex:
    rows = unit_rows(np.random.default_rng(3).normal(size=(papers, 8)).astype(np.float32))
    return MeaningIndex.of([StoredEmbedding(f"p{n}", "", code, scale)
                            for n, (code, scale) in enumerate(quantise(rows))])


def test_a_cut_has_its_own_bar_for_a_catalog_too_small_to_centre() -> None:
    small, large = _index(CENTRE_FROM - 1), _index(CENTRE_FROM)
    assert (small.centred, large.centred) == (False, True)
    assert Cut(0.3, 0.1, small=0.6).bar(small) == 0.6
    assert Cut(0.3, 0.1, small=0.6).bar(large) == 0.3
    assert Cut(0.3, 0.1).bar(small) == 0.3
