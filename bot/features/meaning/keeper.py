"""The catalog's vectors, kept with the catalog and brought up to date in the background.

At start the stored vectors of the encoder's model are read back. After a load or an add
(`prepare`), every paper's embedded text is hashed; papers whose hash is not stored (new,
edited, corrected, or embedded by another model) are encoded newest first, a batch at a time,
in a worker process (one, at a lower priority: the bot's loop only awaits it), and each batch
is stored as it comes back, so a catch-up stopped by anything, SIGKILL included, resumes with
exactly the papers not yet stored. Papers gone from the catalog lose their vectors. Until a
paper is embedded it is simply not found by meaning.

Queries are encoded in this process, in a thread, by a second copy of the encoder, loaded in
the background at the first `prepare`; a query before it is loaded is answered lexically.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Protocol

import numpy as np

from bot.features.meaning.encoder import Encoder, paper_text, quantise, text_hash
from bot.features.meaning.index import MeaningIndex
from bot.features.meaning.store import EmbeddingStore
from bot.shared.task_failures import reported
from domain.embedding import StoredEmbedding
from domain.paper import Paper
from domain.storage_faults import StorageError

log = logging.getLogger(__name__)
BATCH = 32
"""Papers encoded per trip to the worker (≈2–3 s with the bundled model on one core)."""
READ_BATCH = 5000
WORKER_NICENESS = 10
_OLDEST = datetime.min.replace(tzinfo=UTC)
_LOADED: dict[str, Encoder] = {}
"""The encoders loaded in this process, by model name (the worker keeps its model)."""


@dataclass(frozen=True, slots=True)
class Cut:
    """When papers are close in meaning to a query: the nearest must reach `threshold` (a
    centred cosine, `MeaningIndex.centred_scores`; `small` instead for a catalog too small to
    be centred, when the model's plain cosines call for another), the others shown be within
    `margin` below it. Each model has its own (`models.MeaningModel`)."""

    threshold: float
    margin: float
    small: float | None = None

    def bar(self, index: MeaningIndex) -> float:
        """The threshold for this index."""
        return self.threshold if index.centred or self.small is None else self.small


BUNDLED_CUT = Cut(0.26, 0.1, small=0.2)
"""The bundled model's cut: on the real sample (centred) 7 off-topic queries (a cake recipe,
football scores, …) reach at most 0.25, and 46 of 48 descriptive ones more (`bench
meaning`'s sweep); a single cut at 0.25 left pages of one or two papers (hybrid precision@5
in Chinese 0.26 against 0.34 at 0.2), a cut at 0.2 let off-topic queries through: hence the
margin. On the bundled catalog (30 papers, plain cosines) the same off-topic queries reach at
most 0.12 and ten descriptions of its papers 0.23–0.41 (two stayed under 0.26)."""


class Catalog(Protocol):
    """What the keeper reads of the catalog."""

    async def catalog_version(self) -> int:
        """A number that changes whenever the catalog does."""
        ...

    def iter_papers(self) -> AsyncIterator[Paper]:
        """Every paper."""
        ...


@dataclass(frozen=True, slots=True)
class Progress:
    """How far the catalog is embedded."""

    model: str
    embedded: int
    total: int
    running: bool


def encode_batch(encoder: Encoder, texts: Sequence[str]) -> list[tuple[bytes, float]]:
    """Texts to stored vectors (run in the worker, whose first call loads the model)."""
    loaded = _LOADED.setdefault(encoder.name, encoder)
    return quantise(loaded.encode(texts))


def _lower_priority() -> None:
    """The worker yields the cores to the bot."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)


def worker_pool() -> ProcessPoolExecutor:
    """One worker process, spawned (the bot's loop and threads are not forked)."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_lower_priority)


def newest_first(paper: Paper) -> tuple[datetime, str]:
    """A sort key: the latest published first (by arXiv date, else the venue's year)."""
    when = paper.links.published or paper.links.updated
    if when is None and paper.venue.year:
        when = datetime(paper.venue.year, 1, 1, tzinfo=UTC)
    return (when or _OLDEST, paper.id)


class MeaningKeeper:
    """The vectors at hand (`index`), a background catch-up with the catalog, and queries."""

    def __init__(self, catalog: Catalog, store: EmbeddingStore, encoder: Encoder, *,
                 cut: Cut = BUNDLED_CUT, executor: Executor | None = None,
                 batch: int = BATCH) -> None:
        self._catalog = catalog
        self._store = store
        self._encoder = encoder
        self.cut = cut
        self._executor = executor
        self._own_executor = executor is None
        self._batch = batch
        self.index = MeaningIndex.of([])
        self._read = False
        self._version = -1
        self._total = 0
        self._task: asyncio.Task[None] | None = None
        self._query_encoder: asyncio.Task[Encoder] | None = None
        self.encoded = 0
        """Papers this process sent to be encoded (tests, benchmarks)."""

    @property
    def model(self) -> str:
        """The encoder's model name."""
        return self._encoder.name

    def progress(self) -> Progress:
        """How many catalog papers are embedded, of how many."""
        running = self._task is not None and not self._task.done()
        return Progress(self.model, len(self.index), max(self._total, len(self.index)),
                        running)

    async def prepare(self) -> None:
        """Start catching up if the catalog changed, and loading the query encoder; return
        at once (at start and after every load or add)."""
        self._load_query_encoder()
        if await self._catalog.catalog_version() != self._version:
            self._start()

    def _load_query_encoder(self) -> asyncio.Task[Encoder]:
        if self._query_encoder is None:
            self._query_encoder = reported(
                asyncio.create_task(asyncio.to_thread(self._loaded)), log, "search by meaning")
        return self._query_encoder

    async def read_stored(self) -> None:
        """Read the stored vectors into memory, once (a read-only command line: no
        catch-up)."""
        if not self._read:
            self.index = await self._stored()
            self._read = True

    async def built(self) -> None:
        """Wait for the catch-up in flight (and another if the catalog moved meanwhile)."""
        while self._task is not None:
            await asyncio.shield(self._task)
            if await self._catalog.catalog_version() == self._version:
                return
            self._start()

    async def ready(self) -> bool:
        """Wait until a query is answered now (`answers()`): the catch-up in flight finished
        and the query encoder loaded (its load is started if it was not); whether it is (not
        after a failure, nor with nothing embedded). Local mode waits for it at start."""
        loading = self._load_query_encoder()
        with contextlib.suppress(Exception):  # a failure is reported by the task itself
            await self.built()
        await asyncio.wait([loading])
        return self.answers()

    async def close(self) -> None:
        """Stop a catch-up in flight and the worker process this keeper started."""
        for task in (self._task, self._query_encoder):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self._own_executor and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    async def query_vector(self, text: str, *, wait: bool = False, gate: bool = False
                           ) -> np.ndarray | None:
        """A query's unit vector (`gate`: the one deciding whether anything is close), or None
        while the query encoder is still loading (unless `wait`) or when nothing is embedded
        yet."""
        if len(self.index) == 0 or not text.strip():
            return None
        loading = self._load_query_encoder()
        if not loading.done() and not wait:
            return None
        encoder = await asyncio.shield(loading)
        rows = await asyncio.to_thread(partial(encoder.encode_queries, [text],
                                               centred=self.index.centred, gate=gate))
        vector: np.ndarray = rows[0]
        return vector

    def answers(self) -> bool:
        """Whether a query is answered now (`nearest` without `wait` finds papers): vectors
        are at hand and the query encoder is loaded (its load is started if it was not)."""
        if len(self.index) == 0:
            return False
        loading = self._load_query_encoder()
        return loading.done() and not loading.cancelled() and loading.exception() is None

    async def nearest(self, text: str, k: int, *, threshold: float,
                      exclude: Sequence[str] = (), wait: bool = False
                      ) -> list[tuple[str, float]]:
        """The papers nearest a description above `threshold`, best first."""
        vector = await self.query_vector(text, wait=wait)
        if vector is None:
            return []
        index = self.index
        return await asyncio.to_thread(index.nearest, vector, k, threshold=threshold,
                                       exclude=frozenset(exclude))

    async def close_to(self, text: str, k: int, *, exclude: Sequence[str] = (),
                       wait: bool = False) -> list[tuple[str, float]]:
        """Up to `k` papers close in meaning to a query, best first, by the model's `cut`:
        none unless the nearest reaches its bar (`MeaningIndex.close`)."""
        index = self.index
        rank = await self.query_vector(text, wait=wait)
        gate = (await self.query_vector(text, wait=wait, gate=True)
                if self._encoder.gates_apart else rank)
        if rank is None or gate is None:
            return []
        bar = self.cut.bar(index)
        return await asyncio.to_thread(index.close, rank, gate, k, bar=bar,
                                       floor=bar - self.cut.margin, exclude=frozenset(exclude))

    def _loaded(self) -> Encoder:
        encoder = _LOADED.setdefault(self._encoder.name, self._encoder)
        encoder.encode_queries(["warm up"])
        return encoder

    def _start(self) -> asyncio.Task[None]:
        if self._task is None or self._task.done():
            self._task = reported(asyncio.create_task(self._catch_up()), log,
                                  "search by meaning")
        return self._task

    async def _catch_up(self) -> None:
        version = await self._catalog.catalog_version()
        await self.read_stored()
        stored = await self._store.text_hashes(self.model)
        papers = [p async for p in self._catalog.iter_papers()]
        self._total = len(papers)
        texts = {p.id: paper_text(p) for p in papers}
        hashes = {pid: text_hash(text) for pid, text in texts.items()}
        if gone := [pid for pid in stored if pid not in hashes]:
            await self._store.remove(gone)
            self.index = self.index.merged([], gone)
        pending = sorted((p for p in papers if stored.get(p.id) != hashes[p.id]),
                         key=newest_first, reverse=True)
        for at in range(0, len(pending), self._batch):
            ids = [p.id for p in pending[at:at + self._batch]]
            rows = await self._encoded([texts[pid] for pid in ids])
            fresh = [StoredEmbedding(pid, hashes[pid], code, scale)
                     for pid, (code, scale) in zip(ids, rows, strict=True)]
            with contextlib.suppress(StorageError):  # kept in memory; redone after a restart
                await self._store.write(self.model, fresh)
            self.index = self.index.merged(fresh)
        self._version = version

    async def _encoded(self, texts: list[str]) -> list[tuple[bytes, float]]:
        """The texts encoded in the worker; a worker that died (killed, out of memory) is
        replaced once and the batch sent again."""
        self.encoded += len(texts)
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            if self._executor is None:
                self._executor = worker_pool()
            try:
                return await loop.run_in_executor(self._executor, encode_batch,
                                                  self._encoder, texts)
            except BrokenProcessPool:
                if not self._own_executor or attempt == 2:
                    raise
                log.warning("search by meaning: the worker process died; starting another")
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None
        raise AssertionError("unreachable")

    async def _stored(self) -> MeaningIndex:
        kept: list[StoredEmbedding] = []
        while page := await self._store.embeddings(self.model, kept[-1].paper_id if kept
                                                   else "", READ_BATCH):
            kept.extend(page)
        return MeaningIndex.of(kept)

