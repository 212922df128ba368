"""Choosing the backend: a SQLite file (the default) or a PostgreSQL server, behind the same
store protocols. The rest of the app asks this module for stores and never learns which."""

from __future__ import annotations

from pathlib import Path

from storage.database import READERS, WRITE_WAIT_SECONDS, Database
from storage.digests import SqliteDigestStore
from storage.errors import StorageError
from storage.feeds import SqliteFeedStore
from storage.interfaces import DigestStore, FeedStore, PaperStore, StateStore, SubscriptionStore
from storage.papers import SqlitePaperStore
from storage.postgres import PORTED
from storage.postgres.database import PgDatabase
from storage.postgres.digests import PgDigestStore
from storage.postgres.feeds import PgFeedStore
from storage.postgres.papers import PgPaperStore
from storage.postgres.state import PgStateStore
from storage.postgres.subscriptions import PgSubscriptionStore
from storage.state import SqliteStateStore
from storage.subscriptions import SqliteSubscriptionStore

AnyDatabase = Database | PgDatabase
"""An open database of either backend."""


class NotPorted(StorageError):
    """A store that has no PostgreSQL implementation yet."""


async def open_database(*, postgres_url: str | None, sqlite_path: Path,
                        readers: int = READERS, write_wait: float = WRITE_WAIT_SECONDS,
                        pool_size: int = 10, migrate: bool = True) -> AnyDatabase:
    """PostgreSQL when a URL is given, else the SQLite file; migrated, newer schemas refused."""
    if postgres_url is not None:
        return await PgDatabase.open(postgres_url, migrate=migrate, pool_size=pool_size)
    return await Database.open(sqlite_path, migrate=migrate, readers=readers,
                               write_wait=write_wait)


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


def feed_store(db: AnyDatabase) -> FeedStore:
    """arXiv feeds, their polls and announcements."""
    return PgFeedStore(db) if isinstance(db, PgDatabase) else SqliteFeedStore(db)


def sqlite_only(db: AnyDatabase, store: str) -> Database:
    """The SQLite database for a store not yet ported to PostgreSQL, or `NotPorted`."""
    if isinstance(db, PgDatabase):
        assert store not in PORTED
        raise NotPorted(f"the PostgreSQL backend has no {store} store yet; "
                        "use a SQLite database (database.path) for now")
    return db
