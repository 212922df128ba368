"""The catalog's recommendation features, kept with the catalog (`FeatureStore`) and in memory.

Fitted on the whole catalog after a load of a catalog file (or when none is stored yet) and
written beside it, each paper's row with the content hash of the paper it came from. A restart
reads them back instead of refitting. After an add, only papers whose hash is new or moved are
transformed, with the vocabulary frozen at the last fit, and stored; papers gone are dropped. The
vocabulary and idf are refreshed by the next fit: after a load of a file, or once more than
`INCREMENTAL_SHARE` of the fitted catalog has been transformed since. The rows' topics
(`bot.features.recommend.topics`) are not stored: a fit makes them, features read back get
them fitted again in the background (until then rankings go without them).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import numpy as np
import scipy.sparse as sp

from bot.features.recommend import features
from bot.features.recommend.features import FeatureIndex
from bot.features.recommend.store import FeatureStore
from bot.features.recommend.topics import TOPICS_FROM
from bot.features.recommend.vocabulary import Vocabulary
from bot.shared.task_failures import reported
from domain.catalog import ADD_SOURCE
from domain.paper import Paper
from domain.recommend import CatalogLoad, StoredFit, StoredVector
from domain.storage_faults import StorageError

log = logging.getLogger(__name__)
INCREMENTAL_SHARE = 0.1
"""Papers transformed since the fit, as a share of the papers it was fitted on, past which the
features are fitted again (their new words were not features until then)."""
ADD_SOURCES = frozenset({ADD_SOURCE, "arxiv-feed"})
"""Loads that are adds (`/catalog add`, feeds): they never refit the vocabulary."""
WRITE_BATCH = 2000
READ_BATCH = 5000
PAIR = np.dtype([("column", "<i4"), ("value", "<f4")])
"""A stored vector: its (column, value) pairs, little-endian."""


class Catalog(Protocol):
    """What the features read of the catalog."""

    async def get(self, public_id: str) -> Paper | None:
        """One paper by id."""
        ...

    async def catalog_version(self) -> int:
        """A number that changes whenever the catalog does."""
        ...

    async def paper_ids(self) -> list[str]:
        """Every paper's id."""
        ...

    def iter_papers(self) -> AsyncIterator[Paper]:
        """Every paper."""
        ...


def encode_rows(matrix: sp.csr_matrix) -> list[bytes]:
    """Each row as stored: its (column, value) pairs."""
    pairs = np.empty(matrix.nnz, dtype=PAIR)
    pairs["column"], pairs["value"] = matrix.indices, matrix.data
    bounds = matrix.indptr
    return [pairs[bounds[i]:bounds[i + 1]].tobytes() for i in range(matrix.shape[0])]


def decode_rows(vectors: Sequence[bytes], width: int) -> sp.csr_matrix:
    """Stored rows back as a float32 CSR matrix of `width` columns."""
    pairs = np.frombuffer(b"".join(vectors), dtype=PAIR)
    indptr = np.zeros(len(vectors) + 1, dtype=np.int64)
    np.cumsum([len(v) // PAIR.itemsize for v in vectors], out=indptr[1:])
    return sp.csr_matrix((pairs["value"].astype(np.float32), pairs["column"].astype(np.int32),
                          indptr), shape=(len(vectors), width))


@dataclass(frozen=True)
class Kept:
    """The features in memory: the catalog version read before they were brought up to date,
    the fit they belong to, and each paper's content hash."""

    index: FeatureIndex
    hashes: dict[str, str]
    revision: int | None
    """None when they could not be stored (kept in memory only)."""
    version: int


class FeatureKeeper:
    """Brings the features up to date with the catalog, in the background, one change at a
    time; the features at hand keep serving meanwhile (only the very first build is waited
    for)."""

    def __init__(self, catalog: Catalog, store: FeatureStore,
                 clock: Callable[[], datetime]) -> None:
        self._catalog = catalog
        self._store = store
        self._clock = clock
        self._kept: Kept | None = None
        self._task: asyncio.Task[None] | None = None
        self._topics: asyncio.Task[None] | None = None
        self.fits = 0
        """How many times this process fitted the features (tests, benchmarks)."""

    async def index(self) -> FeatureIndex:
        """The features: the kept ones when the catalog has not changed since, else those at
        hand while a catch-up runs (the first time, once it has run)."""
        version = await self._catalog.catalog_version()
        if self._kept is None or self._kept.version != version:
            task = self._start()
            if self._kept is None:
                await asyncio.shield(task)
        assert self._kept is not None
        return self._kept.index

    @property
    def building(self) -> bool:
        """Whether a catch-up is in flight (background work queued, for the metrics)."""
        return self._task is not None and not self._task.done()

    async def prepare(self) -> None:
        """Start catching up with the catalog if it changed; return at once (after every
        load and add, and at start)."""
        version = await self._catalog.catalog_version()
        if self._kept is None or self._kept.version != version:
            self._start()

    async def built(self) -> None:
        """Wait for a catch-up in flight (and for the one it leaves due, if the catalog
        changed meanwhile), and for the topics of features read back."""
        while self._task is not None:
            await asyncio.shield(self._task)
            version = await self._catalog.catalog_version()
            if self._kept is None or self._kept.version == version:
                break
            self._start()
        if self._topics is not None:
            await asyncio.shield(self._topics)

    async def close(self) -> None:
        """Stop a catch-up or a topic fit in flight."""
        for task in (self._task, self._topics):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def _topics_soon(self) -> None:
        """Fit the kept features' topics in the background when they have none (read back
        after a restart: the stored rows do not keep them)."""
        if self._topics is None or self._topics.done():
            self._topics = reported(asyncio.create_task(self._with_topics()), log,
                                    "recommendation topics not fitted")

    async def _with_topics(self) -> None:
        while (kept := self._kept) is not None and kept.index.topics is None \
                and len(kept.index) >= TOPICS_FROM:
            index = await asyncio.to_thread(kept.index.with_topics)
            if self._kept is kept:  # else the features moved on meanwhile: fit theirs
                self._kept = dataclasses.replace(kept, index=index)
                return

    def _start(self) -> asyncio.Task[None]:
        if self._task is None or self._task.done():
            # a store closed under a catch-up started by `prepare` is one warning
            self._task = reported(asyncio.create_task(self._catch_up()), log,
                                  "recommendation features not caught up")
        return self._task

    async def _catch_up(self) -> None:
        version = await self._catalog.catalog_version()
        hashes = await self._store.catalog_hashes()
        fit = await self._store.current()
        if fit is not None and not await self._loaded_since(fit):
            kept = self._kept if self._kept and self._kept.revision == fit.revision else None
            kept = kept or await self.read_fit(self._store, fit, version)
            if kept is not None:
                changed = sorted(pid for pid, h in hashes.items() if kept.hashes.get(pid) != h)
                if fit.transformed + len(changed) <= INCREMENTAL_SHARE * max(fit.papers, 1):
                    self._kept = await self._extended(kept, hashes, changed, version)
                    self._topics_soon()
                    return
        self._kept = await self._fitted(hashes, version)

    async def _loaded_since(self, fit: StoredFit) -> bool:
        """Whether a catalog file was loaded, changing papers, since the fit."""
        return any(load.source not in ADD_SOURCES and load.changed
                   for load in await self._store.loads_since(fit.catalog_version))

    @staticmethod
    async def read_fit(store: FeatureStore, fit: StoredFit, version: int) -> Kept | None:
        """A stored fit in memory (None when its vocabulary cannot be read)."""
        try:
            vocabulary = Vocabulary.decode(fit.vocabulary)
        except ValueError as exc:
            log.warning("stored recommendation features not read (%s): fitting again", exc)
            return None
        stored: list[StoredVector] = []
        while page := await store.vectors(fit.revision, stored[-1].paper_id if stored else "",
                                          READ_BATCH):
            stored.extend(page)
        matrix = await asyncio.to_thread(decode_rows, [v.vector for v in stored],
                                         len(vocabulary))
        index = FeatureIndex(tuple(v.paper_id for v in stored), matrix, vocabulary)
        return Kept(index, {v.paper_id: v.content_hash for v in stored}, fit.revision, version)

    async def _extended(self, kept: Kept, hashes: dict[str, str], changed: list[str],
                        version: int) -> Kept:
        """The kept features with changed papers transformed and gone ones dropped."""
        gone = [pid for pid in kept.hashes if pid not in hashes]
        papers = [p for p in [await self._catalog.get(pid) for pid in changed] if p]
        index = kept.index
        if papers or gone:
            rows = await asyncio.to_thread(index.transform, papers)
            ids = [p.id for p in papers]
            index = await asyncio.to_thread(index.merged, ids, rows, gone)
            if kept.revision is not None:
                await self._stored(self._store.write(kept.revision, self._vectors(
                    ids, rows, hashes), transformed=True))
                await self._stored(self._store.remove(kept.revision, gone))
        fresh = {pid: hashes[pid] for pid in index.ids if pid in hashes}
        return Kept(index, fresh, kept.revision, version)

    async def _fitted(self, hashes: dict[str, str], version: int) -> Kept:
        """The features fitted on the whole catalog, then stored as a new current fit."""
        papers = [p async for p in self._catalog.iter_papers()]
        index = await asyncio.to_thread(features.build, papers)
        self.fits += 1
        known = {pid: hashes.get(pid, "") for pid in index.ids}
        try:
            revision = await self._store.start(version, len(index), self._clock())
            for at in range(0, len(index), WRITE_BATCH):
                ids = list(index.ids[at:at + WRITE_BATCH])
                rows = index.matrix[at:at + WRITE_BATCH]
                await self._store.write(revision, await asyncio.to_thread(
                    self._vectors, ids, rows, known))
            await self._store.finish(revision, await asyncio.to_thread(
                index.vocabulary.encode), self._clock())
        except StorageError as exc:
            log.warning("recommendation features not stored (%s): kept in memory", exc)
            return Kept(index, known, None, version)
        return Kept(index, known, revision, version)

    @staticmethod
    def _vectors(ids: Sequence[str], rows: sp.csr_matrix,
                 hashes: dict[str, str]) -> list[StoredVector]:
        return [StoredVector(pid, hashes.get(pid, ""), vector)
                for pid, vector in zip(ids, encode_rows(rows), strict=True)]

    @staticmethod
    async def _stored(write: Awaitable[None]) -> None:
        """Await a store write; a database that cannot be written keeps them in memory."""
        try:
            await write
        except StorageError as exc:
            log.warning("recommendation features not stored (%s): kept in memory", exc)


class MemoryFeatures:
    """A `FeatureStore` in memory, for a service given none: fits last as long as the process,
    and a paper counts as changed only when its id is new (content hashes are the store's)."""

    def __init__(self, catalog: Catalog) -> None:
        self._catalog = catalog
        self._fits: dict[int, StoredFit] = {}
        self._vectors: dict[int, dict[str, StoredVector]] = {}

    async def current(self) -> StoredFit | None:
        """The newest finished fit."""
        return self._fits[max(self._fits)] if self._fits else None

    async def start(self, catalog_version: int, papers: int, at: datetime) -> int:
        """A new fit's revision."""
        revision = max([0, *self._vectors]) + 1
        self._vectors[revision] = {}
        self._pending = (revision, catalog_version, papers)
        return revision

    async def write(self, revision: int, vectors: Sequence[StoredVector], *,
                    transformed: bool = False) -> None:
        """Keep vectors of a fit."""
        self._vectors[revision].update({v.paper_id: v for v in vectors})
        fit = self._fits.get(revision)
        if transformed and fit is not None:
            self._fits[revision] = StoredFit(fit.revision, fit.catalog_version, fit.papers,
                                             fit.transformed + len(vectors), fit.vocabulary)

    async def remove(self, revision: int, paper_ids: Sequence[str]) -> None:
        """Drop vectors of a fit."""
        for pid in paper_ids:
            self._vectors[revision].pop(pid, None)

    async def finish(self, revision: int, vocabulary: bytes, at: datetime) -> None:
        """Make a fit current; older ones go."""
        _, version, papers = self._pending
        self._fits = {revision: StoredFit(revision, version, papers, 0, vocabulary)}
        self._vectors = {r: v for r, v in self._vectors.items() if r >= revision}

    async def vectors(self, revision: int, after: str, limit: int) -> list[StoredVector]:
        """A fit's vectors in paper-id order, after `after`."""
        kept = self._vectors.get(revision, {})
        return [kept[pid] for pid in sorted(kept) if pid > after][:limit]

    async def catalog_hashes(self) -> dict[str, str]:
        """Every catalog paper's id (with no content hash)."""
        return dict.fromkeys(await self._catalog.paper_ids(), "")

    async def loads_since(self, catalog_version: int) -> list[CatalogLoad]:
        """Nothing: a catalog in memory records no loads."""
        return []

