"""Recommendations for a member or the group, papers like one paper, and 👍 / 👎.

The catalog's features are kept with the catalog and in memory (`keeper.FeatureKeeper`): fitted
in a worker thread after a load, read back after a restart, extended paper by paper on adds.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol

import numpy as np

from bot.features.meaning.index import MeaningIndex
from bot.features.recommend import model
from bot.features.recommend.features import FeatureIndex
from bot.features.recommend.keeper import FeatureKeeper, MemoryFeatures
from bot.features.recommend.model import REASON_WORDS, Pick
from bot.features.recommend.profile import group_profile, member_profile
from bot.features.recommend.readable import readable_words, segmenter
from bot.features.recommend.standing import Standing, standing
from bot.features.recommend.store import FeatureStore, RecommendStore
from bot.shared.server_view import ServerView, shown_by
from domain.paper import Paper
from domain.recommend import Verdict

DEFAULT_COUNT, MAX_COUNT = 5, 25


class Audience(StrEnum):
    """Whom `/recommend` ranks for."""

    ME = "me"
    GROUP = "group"


class MeaningIndexes(Protocol):
    """Where the catalog's sentence-encoder vectors are at hand."""

    @property
    def index(self) -> MeaningIndex:
        """The vectors embedded so far."""
        ...


class Catalog(Protocol):
    """What the service reads of the catalog."""

    async def get(self, public_id: str) -> Paper | None:
        """One paper by id."""
        ...

    async def paper_ids(self) -> list[str]:
        """Every paper's id."""
        ...

    async def catalog_version(self) -> int:
        """A number that changes whenever the catalog does."""
        ...

    def iter_papers(self) -> AsyncIterator[Paper]:
        """Every paper."""
        ...


@dataclass(frozen=True, slots=True)
class Recommended:
    """A pick with its paper and the liked paper its reason names."""

    pick: Pick
    paper: Paper
    like: Paper | None


class RecommendService:
    """Ranks the catalog from a server's signals (the same ranking for Discord and the CLI)."""

    def __init__(self, catalog: Catalog, store: RecommendStore,
                 clock: Callable[[], datetime], view: ServerView | None = None, *,
                 features: FeatureStore | None = None,
                 meaning: MeaningIndexes | None = None) -> None:
        """`view` shows each server its corrections of the picks and of the papers their
        reasons name; `features` keeps the fitted features with the catalog; `meaning`, the
        sentence encoder's vectors, blended into every ranking (`model.blended`)."""
        self.meaning = meaning
        self._view = view
        self._catalog = catalog
        self._store = store
        self._clock = clock
        self.features = FeatureKeeper(catalog, features or MemoryFeatures(catalog), clock)
        self._segmenter: asyncio.Future[object] | None = None
        """The features kept with the catalog (without a store: in memory only)."""

    async def index(self) -> FeatureIndex:
        """The catalog's features (see `FeatureKeeper.index`)."""
        return await self.features.index()

    async def prepare(self) -> None:
        """Start bringing the features up to date with the catalog, in the background, and
        return at once: called at start and after every load or add. The first call also
        builds the segmenter of the reasons' Chinese words, in a thread."""
        if self._segmenter is None:
            self._segmenter = asyncio.get_running_loop().run_in_executor(None, segmenter)
        await self.features.prepare()

    async def close(self) -> None:
        """Stop a feature catch-up in flight."""
        await self.features.close()

    async def recommend(self, guild_id: int, user_id: int, audience: Audience,
                        count: int = DEFAULT_COUNT) -> list[Recommended]:
        """The best unseen papers for a member (their signals) or the group (everyone's)."""
        count = max(1, min(count, MAX_COUNT))
        signals = await self._store.signals(guild_id)
        profile = (member_profile(signals, user_id) if audience is Audience.ME
                   else group_profile(signals))
        index = await self.index()
        dense = await self._dense(index, list(profile.positives))
        picks = await asyncio.to_thread(model.recommend, index, profile, count, dense)
        return await self._resolved(picks, guild_id)

    async def _dense(self, index: FeatureIndex, liked: list[str]) -> np.ndarray | None:
        """Every indexed paper's encoder similarity to the liked papers (None without
        vectors for them)."""
        if self.meaning is None:
            return None
        vectors = self.meaning.index
        centroid = await asyncio.to_thread(vectors.centroid, liked)
        if centroid is None:
            return None
        return await asyncio.to_thread(vectors.aligned, centroid, index.ids)

    async def similar(self, paper_id: str, count: int = DEFAULT_COUNT,
                      guild_id: int | None = None) -> list[Recommended]:
        """The papers nearest to one (as the server `guild_id` sees them)."""
        index = await self.index()
        picks = await asyncio.to_thread(model.similar, index, paper_id,
                                        max(1, min(count, MAX_COUNT)),
                                        await self._dense(index, [paper_id]))
        return await self._resolved(picks, guild_id)

    async def rate(self, guild_id: int, user_id: int, paper_id: str, verdict: Verdict) -> bool:
        """Record 👍 or 👎; False if the member had already said so."""
        return await self._store.rate(guild_id, user_id, paper_id, verdict, self._clock())

    async def forget(self, user_id: int) -> int:
        """Remove a member's 👍 / 👎 everywhere."""
        return await self._store.forget(user_id)

    async def _resolved(self, picks: Sequence[Pick],
                        guild_id: int | None = None) -> list[Recommended]:
        found: list[tuple[Pick, Paper, Paper | None]] = []
        for pick in picks:
            paper = await self._catalog.get(pick.paper_id)
            if paper is None:
                continue  # removed since the features were built
            like = await self._catalog.get(pick.like) if pick.like else None
            found.append((pick, paper, like))
        shown = await shown_by(self._view, guild_id, [
            p.id for _, paper, like in found for p in (paper, like) if p is not None])
        words = await asyncio.to_thread(lambda: [
            readable_words(pick.words, shown(paper), REASON_WORDS) for pick, paper, _ in found])
        return [Recommended(dataclasses.replace(pick, words=said), shown(paper),
                            None if like is None else shown(like))
                for (pick, paper, like), said in zip(found, words, strict=True)]

    # -- hooks for the paper of the day and "papers like my bookmarks" ----------------------

    async def group_liked(self, guild_id: int) -> int:
        """How many papers the group's profile likes (0: no signals to rank from)."""
        return len(group_profile(await self._store.signals(guild_id)).positives)

    async def group_picks(self, guild_id: int, *, exclude: Iterable[str],
                          limit: int) -> list[Pick]:
        """The group's best unseen papers, leaving out `exclude` too; the same state gives the
        same list (empty without liked papers)."""
        profile = group_profile(await self._store.signals(guild_id))
        if not profile.positives:
            return []
        profile = dataclasses.replace(profile, seen=profile.seen | frozenset(exclude))
        index = await self.index()
        dense = await self._dense(index, list(profile.positives))
        return await asyncio.to_thread(model.recommend, index, profile, limit, dense)

    async def standings(self, guild_id: int, user_ids: Iterable[int],
                        paper_ids: Sequence[str]) -> dict[int, Standing]:
        """Each member's standing of these papers (see `standing`), from one read of the
        server's signals; the ranking runs in a worker thread."""
        signals = await self._store.signals(guild_id)
        index = await self.index()
        if missing := [pid for pid in paper_ids if index.row(pid) is None]:
            # just added: the kept features may not have caught up yet, so these papers are
            # transformed here with the fitted vocabulary (as the catch-up will)
            found = [paper for pid in missing if (paper := await self._catalog.get(pid))]
            index = await asyncio.to_thread(index.with_papers, found)
        return {user_id: await asyncio.to_thread(standing, index, signals, user_id, paper_ids)
                for user_id in user_ids}
