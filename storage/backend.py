"""Choosing the backend: a SQLite file (the default) or a PostgreSQL server, behind the same
store protocols. The rest of the app asks this module for stores and never learns which."""

from __future__ import annotations

from pathlib import Path

from storage.add_policy import SqliteAddPolicyStore
from storage.bookmarks import SqliteBookmarkStore
from storage.database import READERS, WRITE_WAIT_SECONDS, Database, check_path
from storage.digests import SqliteDigestStore
from storage.errors import NoDatabase, SchemaError
from storage.feeds import SqliteFeedStore
from storage.groups import SqliteGroupStore
from storage.history import SqliteHistoryStore
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
from storage.migrations import LATEST_VERSION as SQLITE_LATEST
from storage.outbox import SqliteOutboxStore
from storage.papers import SqlitePaperStore
from storage.postgres.add_policy import PgAddPolicyStore
from storage.postgres.bookmarks import PgBookmarkStore
from storage.postgres.database import PgDatabase
from storage.postgres.digests import PgDigestStore
from storage.postgres.feeds import PgFeedStore
from storage.postgres.groups import PgGroupStore
from storage.postgres.history import PgHistoryStore
from storage.postgres.migrations import LATEST_VERSION as PG_LATEST
from storage.postgres.outbox import PgOutboxStore
from storage.postgres.papers import PgPaperStore
from storage.postgres.queue import PgQueueStore
from storage.postgres.sessions import PgSessionStore
from storage.postgres.state import PgStateStore
from storage.postgres.subscriptions import PgSubscriptionStore
from storage.postgres.votes import PgVoteStore
from storage.queue import SqliteQueueStore
from storage.sessions import SqliteSessionStore
from storage.state import SqliteStateStore
from storage.subscriptions import SqliteSubscriptionStore
from storage.votes import SqliteVoteStore

AnyDatabase = Database | PgDatabase
"""An open database of either backend."""


async def open_database(*, postgres_url: str | None, sqlite_path: Path,
                        readers: int = READERS, write_wait: float = WRITE_WAIT_SECONDS,
                        pool_size: int = 10, migrate: bool = True,
                        verify: bool = False, existing: bool = False) -> AnyDatabase:
    """PostgreSQL when a URL is given, else the SQLite file; migrated, newer schemas refused.
    `verify` runs SQLite's integrity check first (about a second at 150k papers: done when the
    bot starts, not for every command-line lookup); a server checks its own pages.

    `existing` (a command that only reads): nothing is created or migrated; no database, or
    an empty file, is `NoDatabase`, and one an older paperclub left is a `SchemaError`."""
    if existing and postgres_url is None:
        _require_file(sqlite_path)
    migrate = migrate and not existing
    db: AnyDatabase
    if postgres_url is not None:
        db = await PgDatabase.open(postgres_url, migrate=migrate, pool_size=pool_size)
    else:
        db = await Database.open(sqlite_path, migrate=migrate, readers=readers,
                                 write_wait=write_wait, verify=verify)
    if existing:
        where = "the PostgreSQL database" if postgres_url is not None else str(sqlite_path)
        try:
            await _require_current(db, where)
        except BaseException:
            await db.close()
            raise
    return db


def _require_file(path: Path) -> None:
    """A SQLite file to read: a usable path that holds something."""
    check_path(path)
    if not path.exists():
        raise NoDatabase(f"no database at {path}")
    if path.stat().st_size == 0:
        raise NoDatabase(f"{path} is an empty file, not a database")


async def _require_current(db: AnyDatabase, where: str) -> None:
    """The schema this paperclub writes, unchanged by reading it."""
    version = await db.schema_version()
    latest = PG_LATEST if isinstance(db, PgDatabase) else SQLITE_LATEST
    if version == 0:
        raise NoDatabase(f"{where} holds no paperclub database")
    if version < latest:
        raise SchemaError(f"{where} was written by an older paperclub (schema {version}, now "
                          f"{latest}): a command that writes (`paperclub import`, "
                          "`paperclub run`) upgrades it")


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
