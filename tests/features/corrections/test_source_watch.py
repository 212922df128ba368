"""The watch on corrected fields' sources, on the real SQLite stores and the bundled listing,
with a recording poster: an unchanged reload queues nothing; a change is posted once, only
where a review channel is set; a notice posted just before a crash is found, not posted
again; a refused one waits and is tried again; keep and drop apply once."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.features.catalog.loader import load_catalog
from bot.features.corrections.poster import notice_embed
from bot.features.corrections.service import CorrectionService
from bot.features.corrections.source_watch import RETRY_AFTER, NoticePost, SourceWatch
from bot.shared.delivery import DeliveryFailed
from bot.shared.lang import Lang
from bot.shared.leases import Leaser
from domain.catalog import LoadSource
from domain.corrections import Field, Proposal, ReviewSettings, SourceNotice, Status, Target
from domain.reasons import Reason, ReasonCode
from storage import backend as stores
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.clocks import FakeClock

GUILD, MEMBER, CURATOR, CHANNEL = 1, 10, 20, 30


class RecordingPoster:
    """Posts into a list; `refuse` makes Discord refuse; `posted_before` is the channel's
    history (a post that went out before a crash)."""

    def __init__(self) -> None:
        self.posts: list[NoticePost] = []
        self.posted_before: dict[str, int] = {}
        self.refuse = False

    async def post(self, channel_id: int, post: NoticePost) -> int:
        if self.refuse:
            raise DeliveryFailed(Reason(ReasonCode.CHANNEL_MISSING), 10003)
        self.posts.append(post)
        return 1000 + len(self.posts)

    async def find(self, channel_id: int, post: NoticePost) -> int | None:
        return self.posted_before.get(post.key)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 12, 1, 9, tzinfo=UTC))


@pytest.fixture
def poster() -> RecordingPoster:
    return RecordingPoster()


def _watch(db: Database, store: SqlitePaperStore, clock: FakeClock, owner: str,
           poster: RecordingPoster) -> SourceWatch:
    watch = SourceWatch(stores.CORRECTION_NOTICES.open(db), stores.CORRECTIONS.open(db), store,
                        Leaser(owner, timedelta(minutes=5), clock), clock)
    watch.poster = poster
    return watch


@pytest.fixture
def watch(db: Database, store: SqlitePaperStore, clock: FakeClock,
          poster: RecordingPoster) -> SourceWatch:
    return _watch(db, store, clock, "this process", poster)


async def _corrected(db: Database, store: SqlitePaperStore, clock: FakeClock) -> tuple[str, int]:
    """A paper whose Chinese title the server corrected (approved); its id and the correction's."""
    service = CorrectionService(stores.CORRECTIONS.open(db), store, clock)
    paper_id = (await store.paper_ids())[0]
    made = (await service.propose(GUILD, Target(paper_id, Field.TITLE_ZH), "馆员的标题", "",
                                  MEMBER)).proposal
    await service.decide(GUILD, made.id, approve=True, by=CURATOR)
    return paper_id, made.id


async def _upstream_changes(store: SqlitePaperStore, paper_id: str, title: str) -> None:
    source = await store.get(paper_id)
    assert source is not None
    await store.load([(1, replace(source, title_zh=title))], source=LoadSource("upstream"))


async def _review_channel(db: Database) -> None:
    await stores.CORRECTIONS.open(db).set_review_settings(GUILD, ReviewSettings(CHANNEL))


async def test_a_change_is_posted_once_where_curators_review(
        db: Database, store: SqlitePaperStore, clock: FakeClock, watch: SourceWatch,
        poster: RecordingPoster, catalog_path: Path) -> None:
    paper_id, correction_id = await _corrected(db, store, clock)
    await load_catalog(store, catalog_path)  # unchanged
    assert await watch.tick() == 0 and poster.posts == []
    await _upstream_changes(store, paper_id, "上游改过的标题")
    assert await watch.tick() == 0  # queued, but the server has no review channel yet
    await _review_channel(db)
    assert await watch.tick() == 1
    (post,) = poster.posts
    assert post.correction.id == correction_id and post.correction.new_value == "馆员的标题"
    assert (post.notice.new_source, post.paper is not None) == ("上游改过的标题", True)
    await load_catalog(store, catalog_path)  # the listing again: its title differs once more
    assert await watch.tick() == 0 and len(poster.posts) == 1  # one notice until decided
    notice = await watch.notice(correction_id)
    assert notice is not None and notice.message_id == 1001


async def test_a_post_made_before_a_crash_is_found_not_repeated(
        db: Database, store: SqlitePaperStore, clock: FakeClock,
        poster: RecordingPoster) -> None:
    paper_id, correction_id = await _corrected(db, store, clock)
    await _review_channel(db)
    await _upstream_changes(store, paper_id, "上游改过的标题")
    dead = _watch(db, store, clock, "a process that dies", RecordingPoster())
    await dead.check()
    notices = stores.CORRECTION_NOTICES.open(db)
    claimed = await notices.claim(Leaser("a process that dies", timedelta(minutes=5),
                                         clock).fresh(), clock())
    assert claimed is not None  # ... it posted, then died before recording the post
    survivor = _watch(db, store, clock, "survivor", poster)
    key = f"corrsrc:{correction_id}:{claimed.token}"
    poster.posted_before[key] = 4242
    assert await survivor.tick() == 0  # the dead process's lease is still live
    clock.advance(minutes=6)
    assert await survivor.tick() == 1 and poster.posts == []  # found, not posted again
    notice = await survivor.notice(correction_id)
    assert notice is not None and notice.message_id == 4242


async def test_a_refused_notice_waits_then_decisions_apply_once(
        db: Database, store: SqlitePaperStore, clock: FakeClock, watch: SourceWatch,
        poster: RecordingPoster) -> None:
    paper_id, correction_id = await _corrected(db, store, clock)
    await _review_channel(db)
    await _upstream_changes(store, paper_id, "上游改过的标题")
    poster.refuse = True
    assert await watch.tick() == 0
    poster.refuse = False
    clock.advance(minutes=5)
    assert await watch.tick() == 0  # not before RETRY_AFTER
    clock.advance(seconds=RETRY_AFTER.total_seconds())
    assert await watch.tick() == 1
    kept = await watch.decide(GUILD, correction_id, keep=True, by=CURATOR)
    assert kept is not None and kept.source_value == "上游改过的标题"
    assert await watch.decide(GUILD, correction_id, keep=False, by=CURATOR) is None
    await _upstream_changes(store, paper_id, "又改了")
    assert await watch.tick() == 1  # kept: the next change is news again
    dropped = await watch.decide(GUILD, correction_id, keep=False, by=CURATOR)
    assert dropped is not None and dropped.status is Status.REVERTED
    await _upstream_changes(store, paper_id, "第三次")
    assert await watch.tick() == 0  # dropped: nothing is corrected any more


def test_a_notice_of_long_values_shows_both_within_discords_limits() -> None:
    old, new = "旧" * 3000, "新" * 3000
    correction = Proposal(7, GUILD, Target("p1", Field.SUMMARY_ZH), old, "改" * 3000, "",
                          MEMBER, datetime(2026, 12, 1, tzinfo=UTC), Status.APPROVED,
                          source_value=old)
    notice = SourceNotice(7, GUILD, old, new, "t0k3n", datetime(2026, 12, 1, tzinfo=UTC))
    embed = notice_embed(NoticePost(notice, correction, None), Lang.ZH_HANS)
    description = embed.description or ""
    assert "- 旧" in description and "+ 新" in description and len(description) <= 4096
    assert len(embed) <= 6000 and (embed.footer.text or "").endswith("corrsrc:7:t0k3n")
