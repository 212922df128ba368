"""Choosing the backend: a SQLite file (the default) or a PostgreSQL server, behind the same
store protocols. The rest of the app asks this module for stores and never learns which."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from storage.adding.postgres import PgAddPolicyStore
from storage.adding.sqlite import SqliteAddPolicyStore
from storage.digest.postgres import PgDigestStore
from storage.digest.sqlite import SqliteDigestStore
from storage.feeds.postgres import PgFeedStore
from storage.feeds.sqlite import SqliteFeedStore
from storage.group.postgres import PgGroupStore
from storage.group.sqlite import SqliteGroupStore
from storage.interfaces import (
    AddPolicyStore,
    BookmarkStore,
    DigestStore,
    FeedStore,
    GroupStore,
    HistoryStore,
    OutboxStore,
    PaperStore,
    QueueStore,
    SessionStore,
    StateStore,
    SubscriptionStore,
    VoteStore,
)
from storage.notifications.postgres import PgOutboxStore
from storage.notifications.sqlite import SqliteOutboxStore
from storage.papers.postgres import PgPaperStore
from storage.papers.sqlite import SqlitePaperStore
from storage.postgres.database import PgDatabase
from storage.queue.postgres import PgQueueStore
from storage.queue.sqlite import SqliteQueueStore
from storage.reading.bookmarks_postgres import PgBookmarkStore
from storage.reading.bookmarks_sqlite import SqliteBookmarkStore
from storage.reading.history_postgres import PgHistoryStore
from storage.reading.history_sqlite import SqliteHistoryStore
from storage.recommend.postgres import PgRecommendStore
from storage.recommend.sqlite import SqliteRecommendStore
from storage.sessions.postgres import PgSessionStore
from storage.sessions.sqlite import SqliteSessionStore
from storage.sqlite.database import READERS, WRITE_WAIT_SECONDS, Database
from storage.state.postgres import PgStateStore
from storage.state.sqlite import SqliteStateStore
from storage.subscriptions.postgres import PgSubscriptionStore
from storage.subscriptions.sqlite import SqliteSubscriptionStore
from storage.votes.postgres import PgVoteStore
from storage.votes.sqlite import SqliteVoteStore

AnyDatabase = Database | PgDatabase
"""An open database of either backend."""


async def open_database(*, postgres_url: str | None, sqlite_path: Path,
                        readers: int = READERS, write_wait: float = WRITE_WAIT_SECONDS,
                        pool_size: int = 10, migrate: bool = True,
                        verify: bool = False,
                        before_wait: Callable[[], Awaitable[None]] | None = None) -> AnyDatabase:
    """PostgreSQL when a URL is given, else the SQLite file; migrated, newer schemas refused.
    `verify` runs SQLite's integrity check first (about a second at 150k papers: done when the
    bot starts, not for every command-line lookup); a server checks its own pages.
    `before_wait` runs before a SQLite transaction waits for the write lock (the bot's deferral
    of the waiting interaction)."""
    if postgres_url is not None:
        return await PgDatabase.open(postgres_url, migrate=migrate, pool_size=pool_size)
    return await Database.open(sqlite_path, migrate=migrate, readers=readers,
                               write_wait=write_wait, verify=verify, before_wait=before_wait)


def paper_store(db: AnyDatabase) -> PaperStore:
    """The catalog and search."""
    return PgPaperStore(db) if isinstance(db, PgDatabase) else SqlitePaperStore(db)


def state_store(db: AnyDatabase) -> StateStore:
    """Named values kept between runs."""
    return PgStateStore(db) if isinstance(db, PgDatabase) else SqliteStateStore(db)


def digest_store(db: AnyDatabase) -> DigestStore:
    """Paper-of-the-day settings and the ledger."""
    return PgDigestStore(db) if isinstance(db, PgDatabase) else SqliteDigestStore(db)


def subscription_store(db: AnyDatabase) -> SubscriptionStore:
    """Subscriptions, notifications, DM pauses."""
    return PgSubscriptionStore(db) if isinstance(db, PgDatabase) else SqliteSubscriptionStore(db)


def outbox_store(db: AnyDatabase) -> OutboxStore:
    """Notifications waiting to be sent, leased per unit."""
    return PgOutboxStore(db) if isinstance(db, PgDatabase) else SqliteOutboxStore(db)


def queue_store(db: AnyDatabase) -> QueueStore:
    """The suggestion queue."""
    return PgQueueStore(db) if isinstance(db, PgDatabase) else SqliteQueueStore(db)


def vote_store(db: AnyDatabase) -> VoteStore:
    """Votes on the next paper."""
    return PgVoteStore(db) if isinstance(db, PgDatabase) else SqliteVoteStore(db)


def bookmark_store(db: AnyDatabase) -> BookmarkStore:
    """Reading lists."""
    return PgBookmarkStore(db) if isinstance(db, PgDatabase) else SqliteBookmarkStore(db)


def history_store(db: AnyDatabase) -> HistoryStore:
    """What each server discussed."""
    return PgHistoryStore(db) if isinstance(db, PgDatabase) else SqliteHistoryStore(db)


def group_store(db: AnyDatabase) -> GroupStore:
    """Reading-group settings and the presenter rotation."""
    return PgGroupStore(db) if isinstance(db, PgDatabase) else SqliteGroupStore(db)


def session_store(db: AnyDatabase) -> SessionStore:
    """Sessions and their reminder ledger."""
    return PgSessionStore(db) if isinstance(db, PgDatabase) else SqliteSessionStore(db)


def add_policy_store(db: AnyDatabase) -> AddPolicyStore:
    """Who may add papers from arXiv, per server."""
    return PgAddPolicyStore(db) if isinstance(db, PgDatabase) else SqliteAddPolicyStore(db)


def feed_store(db: AnyDatabase) -> FeedStore:
    """arXiv feeds, their polls and announcements."""
    return PgFeedStore(db) if isinstance(db, PgDatabase) else SqliteFeedStore(db)


def recommend_store(db: AnyDatabase) -> SqliteRecommendStore | PgRecommendStore:
    """👍 / 👎 and every recommendation signal of a server (both satisfy
    `bot.features.recommend.store.RecommendStore`)."""
    return PgRecommendStore(db) if isinstance(db, PgDatabase) else SqliteRecommendStore(db)
