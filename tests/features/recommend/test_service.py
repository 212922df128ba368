"""RecommendService on an in-memory catalog: added papers are transformed into the kept
features and removed ones dropped, until more than a tenth of the fitted catalog was transformed
and it is fitted again; 👍 / 👎 go to the store with the clock's time."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime

from bot.features.recommend.features import FeatureIndex
from bot.features.recommend.service import Audience, RecommendService
from domain.paper import Paper
from domain.recommend import Signal, Verdict

T0 = datetime(2026, 11, 30, tzinfo=UTC)


class MemoryCatalog:
    """Papers by id and a version bumped on every change."""

    def __init__(self, papers: list[Paper]) -> None:
        self.papers = {p.id: p for p in papers}
        self.version = 1

    def change(self, *, add: Sequence[Paper] = (), remove: Sequence[str] = ()) -> None:
        self.papers.update({p.id: p for p in add})
        for pid in remove:
            del self.papers[pid]
        self.version += 1

    async def get(self, public_id: str) -> Paper | None:
        return self.papers.get(public_id)

    async def paper_ids(self) -> list[str]:
        return sorted(self.papers)

    async def catalog_version(self) -> int:
        return self.version

    async def iter_papers(self) -> AsyncIterator[Paper]:
        for paper in list(self.papers.values()):
            yield paper


class MemorySignals:
    """A recommend store holding verdicts as signals."""

    def __init__(self) -> None:
        self.rated: dict[tuple[int, int, str], tuple[Verdict, datetime]] = {}

    async def rate(self, guild_id: int, user_id: int, paper_id: str, verdict: Verdict,
                   at: datetime) -> bool:
        before = self.rated.get((guild_id, user_id, paper_id))
        self.rated[(guild_id, user_id, paper_id)] = (verdict, at)
        return before is None or before[0] is not verdict

    async def signals(self, guild_id: int) -> list[Signal]:
        return [Signal(user, pid, verdict.kind, at)
                for (guild, user, pid), (verdict, at) in sorted(self.rated.items())
                if guild == guild_id]

    async def forget(self, user_id: int) -> int:
        mine = [key for key in self.rated if key[1] == user_id]
        for key in mine:
            del self.rated[key]
        return len(mine)


async def _caught_up(service: RecommendService) -> FeatureIndex:
    await service.prepare()
    await service.features.built()
    return await service.index()


async def test_adds_and_removals_change_only_their_rows_until_many_adds_refit(
        bundled_papers: list[Paper]) -> None:
    catalog = MemoryCatalog(bundled_papers[:25])
    service = RecommendService(catalog, MemorySignals(), lambda: T0)
    first = await service.index()
    assert await service.index() is first and service.features.fits == 1
    catalog.change(add=bundled_papers[25:27])
    assert await service.index() is first  # the kept features serve while catching up
    grown = await _caught_up(service)
    assert grown.vocabulary is first.vocabulary and len(grown) == 27
    assert list(grown.ids) == sorted(grown.ids)
    catalog.change(remove=[bundled_papers[0].id])
    trimmed = await _caught_up(service)
    assert trimmed.vocabulary is first.vocabulary and len(trimmed) == 26
    assert bundled_papers[0].id not in trimmed.ids and service.features.fits == 1
    catalog.change(add=bundled_papers[27:])  # 5 transformed since a fit on 25: past 10%
    refitted = await _caught_up(service)
    assert refitted.vocabulary is not first.vocabulary and len(refitted) == 29
    assert service.features.fits == 2


async def test_ratings_steer_recommendations_and_forget_removes_them(
        bundled_papers: list[Paper]) -> None:
    store = MemorySignals()
    service = RecommendService(MemoryCatalog(bundled_papers), store, lambda: T0)
    assert await service.recommend(1, 10, Audience.ME) == []
    liked = bundled_papers[1].id
    assert await service.rate(1, 10, liked, Verdict.UP)
    assert not await service.rate(1, 10, liked, Verdict.UP)
    assert store.rated[(1, 10, liked)] == (Verdict.UP, T0)
    found = await service.recommend(1, 10, Audience.ME, 3)
    assert len(found) == 3 and all(r.like is not None and r.like.id == liked for r in found)
    assert liked not in {r.paper.id for r in found}
    assert [r.paper.id for r in await service.recommend(1, 20, Audience.GROUP, 3)] == \
        [r.paper.id for r in found]
    assert await service.forget(10) == 1
    assert await service.recommend(1, 10, Audience.ME) == []
