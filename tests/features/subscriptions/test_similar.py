""""Papers like my bookmarks" over real SQLite stores and the real recommend model: a new paper
close to a member's bookmarks and 👍 is queued in the outbox for them, an unrelated one is not,
the threshold decides (0-100, the share of the catalog the paper ranks above for them), one
DM entry per member and paper even when a topic matches too, and `/forget-me` ends it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import cast

import discord
import pytest

from bot.features.notifications.announcements import NewPaperAnnouncements
from bot.features.notifications.outbox import OutboxService
from bot.features.notifications.sender import OutboxSender
from bot.features.papers.search import SearchService
from bot.features.recommend.service import RecommendService
from bot.features.subscriptions.service import SubscriptionService
from bot.features.subscriptions.similar import DEFAULT_THRESHOLD, SimilarService
from bot.shared.leases import Leaser
from bot.wiring import forget_service
from domain.catalog import AddStatus
from domain.group import Bookmark
from domain.outbox import OutboxEntry
from domain.paper import Paper
from domain.recommend import Verdict
from domain.subscriptions import Delivery, similar_standing, similar_topic
from domain.text import tidy
from storage.backend import (
    ANNOUNCEMENTS,
    BOOKMARKS,
    OUTBOX,
    RECOMMENDATIONS,
    SIMILAR,
    SUBSCRIPTIONS,
)
from storage.dialect import SQLITE
from storage.notifications.store import record_unannounced
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database

GUILD, ANA, BO = 10, 1, 2
T0 = datetime(2026, 12, 1, tzinfo=UTC)
CLOSE = Paper(
    title_en="Grokking Beyond Ridge Regression: Delayed Generalization with Weight Decay",
    title_zh="超越岭回归的Grokking：权重衰减下的延迟泛化",
    authors=("Mingyue Xu", "Nadia Okafor"),
    summary_en="We study grokking in overparameterized linear and ridge regression trained by "
               "gradient descent with weight decay, and bound the generalization delay.",
    summary_zh="研究带权重衰减的梯度下降训练过参数化线性回归与岭回归时的grokking现象，"
               "给出泛化延迟的定量界。")
FAR = Paper(
    title_en="Counting Whale Calls with Passive Acoustic Monitoring Buoys",
    title_zh="用被动声学监测浮标统计鲸鱼叫声",
    authors=("Ines Vasquez",),
    summary_en="A field study of buoys that record whale calls along a shipping lane.",
    summary_zh="沿航道布设浮标记录鲸鱼叫声的野外研究。")


class World:
    """The stores, the services and the new papers' announcements over one database."""

    def __init__(self, db: Database, papers: SqlitePaperStore, search: SearchService) -> None:
        self.papers = papers
        self.subscription_store = SUBSCRIPTIONS.open(db)
        self.bookmarks = BOOKMARKS.open(db)
        self.ratings = RECOMMENDATIONS.open(db)
        self.recommend = RecommendService(papers, self.ratings, lambda: T0)
        self.similar = SimilarService(SIMILAR.open(db), self.recommend,
                                      self.subscription_store)
        self.subscriptions = SubscriptionService(self.subscription_store, papers, search,
                                                 self.similar)
        self.outbox = OutboxService(OUTBOX.open(db), self.subscription_store, papers)
        sender = OutboxSender(cast(discord.Client, None), self.outbox)  # never started
        self.announcements = NewPaperAnnouncements(ANNOUNCEMENTS.open(db), papers,
                                                   self.subscriptions, Leaser("test"),
                                                   wake=sender.wake)
        self.db = db

    async def liked(self, user_id: int, *words: str) -> list[Paper]:
        """Bookmark the first catalog paper with each word in its title, 👍 the last."""
        found = []
        async for paper in self.papers.iter_papers():
            if any(w in paper.title_en.casefold() for w in words):
                found.append(paper)
        for paper in found[:-1]:
            await self.bookmarks.add(Bookmark(GUILD, user_id, paper.id, T0))
        await self.ratings.rate(GUILD, user_id, found[-1].id, Verdict.UP, T0)
        return found

    async def add(self, *papers: Paper) -> list[Paper]:
        outcomes = await self.papers.add_papers(papers, announce=True)
        added = [o.paper for o in outcomes if o.status is AddStatus.ADDED]
        assert len(added) == len(papers)
        await self.announcements.announce_pending()
        return added

    async def queued(self) -> list[OutboxEntry]:
        entries: list[OutboxEntry] = []
        while (unit := await self.outbox.claim("test")) is not None:
            entries += unit.entries
            await self.outbox.sent(unit, "test")
        return entries


@pytest.fixture
def world(db: Database, store: SqlitePaperStore, search: SearchService) -> World:
    return World(db, store, search)


async def test_a_paper_close_to_the_bookmarks_notifies_and_an_unrelated_one_does_not(
        world: World) -> None:
    liked = await world.liked(ANA, "grokking", "hessian")
    assert len(liked) == 2
    follow, paused = await world.subscriptions.follow_similar(GUILD, ANA, None)
    assert (follow.threshold, follow.previous, follow.liked, paused) == (
        DEFAULT_THRESHOLD, None, 2, False)
    close, far = await world.add(CLOSE, FAR)
    standings = (await world.recommend.standings(GUILD, [ANA], [close.id, far.id]))[ANA]
    assert standings.of[close.id] >= DEFAULT_THRESHOLD > standings.of[far.id]
    [entry] = await world.queued()
    assert (entry.user_id, entry.paper_id) == (ANA, close.id)
    assert [similar_standing(t) for t in entry.topics] == [standings.of[close.id]]


async def test_the_threshold_decides_and_can_be_changed(world: World) -> None:
    await world.liked(ANA, "grokking", "hessian")
    await world.liked(BO, "grokking", "hessian")
    assert await world.similar.new_paper_matches(GUILD, []) == {}
    [close] = await world.add(CLOSE)  # nobody follows yet: nothing queued
    assert await world.queued() == []
    standing = (await world.recommend.standings(GUILD, [ANA], [close.id]))[ANA].of[close.id]
    assert 0 < standing <= 100
    await world.similar.follow(GUILD, ANA, standing)  # exactly reached: told
    changed = await world.similar.follow(GUILD, BO, standing + 1 if standing < 100 else 100)
    assert changed.previous is None
    matches = await world.similar.new_paper_matches(GUILD, [close.id])
    expected = {ANA: [(close.id, standing)]}
    if standing == 100:
        expected[BO] = [(close.id, standing)]
    assert matches == expected
    again = await world.similar.follow(GUILD, ANA, None)  # no threshold: the current one kept
    assert (again.threshold, again.previous) == (standing, standing)
    status = await world.subscriptions.member_overview(GUILD, ANA)
    assert status.similar is not None and status.similar.threshold == standing
    assert (await world.subscriptions.member_overview(GUILD, 99)).similar is None


async def test_one_entry_per_member_and_paper_with_a_topic_too(world: World) -> None:
    await world.liked(ANA, "grokking", "hessian")
    await world.similar.follow(GUILD, ANA, 50)
    await world.subscriptions.subscribe(GUILD, ANA, "grokking", Delivery.DM)
    [close] = await world.add(CLOSE)
    [entry] = await world.queued()
    assert entry.paper_id == close.id
    assert entry.topics[0] == "grokking" and similar_standing(entry.topics[1]) is not None
    # Told once: the same paper announced again queues nothing.
    async with world.db.transaction() as tx:
        await record_unannounced(tx, SQLITE, [close.id])
    assert await world.announcements.announce_pending() == 0
    assert await world.queued() == []


async def test_paused_dms_and_members_without_likes_hear_nothing(world: World) -> None:
    await world.liked(ANA, "grokking", "hessian")
    await world.similar.follow(GUILD, ANA, 0)
    await world.similar.follow(GUILD, BO, 0)  # BO liked nothing: nothing is close to them
    assert (await world.similar.status(GUILD, BO)) is not None
    assert (await world.similar.liked(GUILD, BO)) == 0
    await world.subscriptions.pause_dms(ANA)
    await world.add(CLOSE)
    assert await world.queued() == []


async def test_forget_me_ends_the_follow(world: World) -> None:
    await world.liked(ANA, "grokking", "hessian")
    await world.similar.follow(GUILD, ANA, 10)
    await forget_service(world.db).forget(ANA)
    assert await world.similar.status(GUILD, ANA) is None
    await world.add(CLOSE)
    assert await world.queued() == []


def test_the_similar_mark_is_no_topic_a_member_can_type() -> None:
    mark = similar_topic(93)
    assert similar_standing(mark) == 93
    assert similar_standing(tidy(mark)) is None
    assert similar_standing("similar:93") is None
