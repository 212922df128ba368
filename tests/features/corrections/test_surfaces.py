"""The one overlay seam (`bot.shared.server_view`) reaches every surface: the exact-reference
resolver reads a paper once and returns it as the server sees it, the lists a server's records
show (queue, reading list, history, votes) read their corrections once, recommendations and
their reasons, and the calendar feed's titles. Services run on real stores; the view is a
counting fake of the protocol (the corrections service is tested on its own)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from bot.features.calendar.service import CalendarService
from bot.features.catalog.jsonl import dumps
from bot.features.catalog.loader import load_catalog
from bot.features.corrections.service import CorrectionService
from bot.features.group.service import GroupService
from bot.features.papers.lookup import PaperLookup, Via
from bot.features.papers.search import SearchService
from bot.features.queue.service import QueueService
from bot.features.recommend.service import Audience, RecommendService
from bot.shared.lang import Lang
from domain.corrections import Field, Target
from domain.paper import Paper
from domain.recommend import Verdict
from domain.sessions import Place
from storage import backend as stores
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.features.recommend.test_service import MemoryCatalog, MemorySignals

GUILD, OTHER = 5, 6
T0 = datetime(2026, 12, 1, 9, tzinfo=UTC)


class RetitlingView:
    """A server view that retitles chosen papers in `GUILD`, counting its reads."""

    def __init__(self, titles: dict[str, str]) -> None:
        self.titles = titles
        self.reads: list[tuple[int | None, tuple[str, ...]]] = []

    async def view(self, guild_id: int | None, paper_ids: Sequence[str]
                   ) -> Callable[[Paper], Paper]:
        self.reads.append((guild_id, tuple(paper_ids)))
        if guild_id != GUILD:
            return lambda paper: paper
        return lambda paper: (replace(paper, title_zh=self.titles[paper.id])
                              if paper.id in self.titles else paper)

    async def corrected(self, guild_id: int) -> list[Paper]:
        """None to merge into searches (these surfaces look papers up by id or reference:
        tests/storage/test_search_corrections.py covers searches by words)."""
        return []


class CountingStore(SqlitePaperStore):
    """The real store, counting single-paper reads."""

    gets = 0

    async def get(self, public_id: str) -> Paper | None:
        self.gets += 1
        return await super().get(public_id)


async def test_an_exact_reference_is_read_once_and_shown_as_the_server_sees_it(
        db: Database, store: SqlitePaperStore) -> None:
    counting = CountingStore(db)
    paper = await store.random()
    assert paper is not None
    view = RetitlingView({paper.id: "更正后的标题"})
    lookup = PaperLookup(SearchService(counting, view=view))
    for reference, via in ((paper.id, Via.ID), (paper.title_en, Via.TITLE)):
        counting.gets, view.reads = 0, []
        named = await lookup.identify(reference, GUILD)
        assert named.via is via and named.paper is not None
        assert named.paper.title_zh == "更正后的标题" and named.paper.id == paper.id
        assert counting.gets == 1 and view.reads == [(GUILD, (paper.id,))]
    elsewhere = await lookup.identify(paper.id, OTHER)
    assert elsewhere.paper == paper
    assert (await lookup.resolve(paper.id, GUILD)) == named.paper


async def test_a_servers_lists_read_their_corrections_once(db: Database,
                                                          store: SqlitePaperStore) -> None:
    ids = (await store.paper_ids())[:4]
    view = RetitlingView({ids[1]: "队列里的更正"})
    lookup = PaperLookup(SearchService(store, view=view))
    assert {p.id: p.title_zh for p in (await lookup.many(ids, GUILD)).values()}[ids[1]] == \
        "队列里的更正"
    assert view.reads == [(GUILD, tuple(ids))]
    queue = QueueService(stores.QUEUE.open(db), lookup, lambda: T0)
    await queue.suggest(GUILD, 10, ids[1], "")
    await queue.suggest(OTHER, 10, ids[1], "")
    (here,) = await queue.entries(GUILD)
    (there,) = await queue.entries(OTHER)
    assert here.paper is not None and here.paper.title_zh == "队列里的更正"
    assert there.paper is not None and there.paper.title_zh != "队列里的更正"


async def test_recommendations_and_their_reasons_show_the_correction(
        bundled_papers: list[Paper]) -> None:
    liked = bundled_papers[1]
    view = RetitlingView({p.id: f"更正：{p.title_zh}" for p in bundled_papers})
    service = RecommendService(MemoryCatalog(bundled_papers), MemorySignals(), lambda: T0,
                               view=view)
    await service.rate(GUILD, 10, liked.id, Verdict.UP)
    found = await service.recommend(GUILD, 10, Audience.ME, 3)
    assert found and all(r.paper.title_zh.startswith("更正：") for r in found)
    assert all(r.like is not None and r.like.title_zh == f"更正：{liked.title_zh}"
               for r in found)
    assert len(view.reads) == 1  # one read for the picks and the papers their reasons name
    near = await service.similar(liked.id, 2, OTHER)
    assert near and not any(r.paper.title_zh.startswith("更正：") for r in near)


async def test_the_calendar_feed_titles_show_the_correction(db: Database,
                                                            store: SqlitePaperStore) -> None:
    paper = await store.random()
    assert paper is not None
    view = RetitlingView({paper.id: "日历里的更正"})
    sessions = stores.SESSIONS.open(db)
    service = CalendarService(sessions, store, GroupService(stores.GROUPS.open(db),
                                                            stores.DIGESTS.open(db)),
                              links=stores.CALENDAR_LINKS.open(db), base_url="https://x.example",
                              clock=lambda: T0, view=view)
    for guild in (GUILD, OTHER):
        await sessions.create(guild, paper.id, datetime(2026, 12, 8, 18, tzinfo=UTC), None,
                              Place(), 500)
    here = await service.source(GUILD, server_name="Club", lang=Lang.ZH_HANS)
    there = await service.source(OTHER, server_name="Other", lang=Lang.ZH_HANS)
    assert [e.paper.title_zh for e in here.entries if e.paper] == ["日历里的更正"]
    assert [e.paper.title_zh for e in there.entries if e.paper] == [paper.title_zh]


async def test_a_servers_corrected_papers_follow_each_decision_and_the_catalog(
        db: Database, store: SqlitePaperStore, tmp_path: Path) -> None:
    service = CorrectionService(stores.CORRECTIONS.open(db), store, lambda: T0)
    first, second = (await store.paper_ids())[:2]

    async def approve(paper_id: str, value: str) -> int:
        made = (await service.propose(GUILD, Target(paper_id, Field.TITLE_ZH), value, "",
                                      10)).proposal
        assert await service.decide(GUILD, made.id, approve=True, by=20)
        return made.id

    assert await service.corrected(GUILD) == []
    made = await approve(first, "第一个更正")
    assert [p.title_zh for p in await service.corrected(GUILD)] == ["第一个更正"]
    await approve(second, "第二个更正")
    assert sorted(p.title_zh for p in await service.corrected(GUILD)) == [
        "第一个更正", "第二个更正"]
    assert await service.corrected(OTHER) == []
    assert await service.revert(GUILD, made, by=20)
    assert [p.title_zh for p in await service.corrected(GUILD)] == ["第二个更正"]
    source = await store.get(second)
    assert source is not None
    changed = [replace(p, authors=("Ada Lovelace",)) if p.id == second else p
               async for p in store.iter_papers()]
    listing = tmp_path / "changed.jsonl"
    listing.write_text("".join(dumps(p) + "\n" for p in changed), encoding="utf-8")
    await load_catalog(store, listing)  # the source record changes
    (shown,) = await service.corrected(GUILD)
    assert shown.title_zh == "第二个更正" and shown.authors == ("Ada Lovelace",)


async def test_a_server_without_corrections_costs_one_read_per_search(
        db: Database, store: SqlitePaperStore) -> None:
    service = CorrectionService(stores.CORRECTIONS.open(db), store, lambda: T0)
    versions = 0
    version = store.catalog_version

    async def counted() -> int:
        nonlocal versions
        versions += 1
        return await version()

    store.catalog_version = counted  # type: ignore[method-assign]
    assert await service.corrected(GUILD) == [] and versions == 0  # no catalog version read
    paper_id = (await store.paper_ids())[0]
    made = (await service.propose(GUILD, Target(paper_id, Field.TITLE_ZH), "更正", "",
                                  10)).proposal
    assert await service.decide(GUILD, made.id, approve=True, by=20)
    assert [p.title_zh for p in await service.corrected(GUILD)] == ["更正"] and versions == 1
    assert await service.revert(GUILD, made.id, by=20)
    assert await service.corrected(GUILD) == [] and versions == 1
