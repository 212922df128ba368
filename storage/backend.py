"""Choosing the backend: a SQLite file (the default) or a PostgreSQL server, behind the same
store protocols (`bot/features/<feature>/store.py`). The rest of the app asks this module for
stores and never learns which.

`STORES` is the one list of stores: each `StorePair` names a store's class, written once over
`storage.db` (`StorePair.once`), or its SQLite and PostgreSQL classes; the wiring opens them
(`PAPERS.open(db)`) and the contract suite runs each on both.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Generic, TypeVar

from domain.storage_faults import NoDatabase, SchemaError
from storage.adding.store import AddPolicyStore
from storage.corrections.store import CorrectionStore, SourceNoticeStore
from storage.digest.store import DigestStore
from storage.feeds.store import FeedStore
from storage.group.store import GroupStore
from storage.links.store import LinkStore
from storage.meaning.store import EmbeddingStore
from storage.notifications.store import AnnouncementStore, OutboxStore
from storage.papers.postgres import PgPaperStore
from storage.papers.sqlite import SqlitePaperStore
from storage.postgres.database import PgDatabase
from storage.postgres.migrations import LATEST_VERSION as PG_LATEST
from storage.prep.store import PrepStore
from storage.queue.store import QueueStore
from storage.reading.store import BookmarkStore, HistoryStore
from storage.recommend.store import FeatureStore, RecommendStore
from storage.sessions.store import SessionStore
from storage.sqlite.database import READERS, WRITE_WAIT_SECONDS, Database, check_path
from storage.sqlite.migrations import LATEST_VERSION as SQLITE_LATEST
from storage.state.store import StateStore
from storage.subscriptions.store import SimilarStore, SubscriptionStore
from storage.summaries.store import SummaryStore
from storage.votes.store import VoteStore

AnyDatabase = Database | PgDatabase
"""An open database of either backend."""


async def open_database(*, postgres_url: str | None, sqlite_path: Path,
                        readers: int = READERS, write_wait: float = WRITE_WAIT_SECONDS,
                        pool_size: int = 10, migrate: bool = True,
                        verify: bool = False, existing: bool = False,
                        before_wait: Callable[[], Awaitable[None]] | None = None) -> AnyDatabase:
    """PostgreSQL when a URL is given, else the SQLite file; migrated, newer schemas refused.
    `verify` runs SQLite's integrity check first (about a second at 150k papers: done when the
    bot starts, not for every command-line lookup); a server checks its own pages.

    `existing` (a command that only reads): nothing is created or migrated; no database, or
    an empty file, is `NoDatabase`, and one an older paperclub left is a `SchemaError`.
    `before_wait` runs before a SQLite transaction waits for the write lock (the bot's deferral
    of the waiting interaction)."""
    if existing and postgres_url is None:
        _require_file(sqlite_path)
    migrate = migrate and not existing
    db: AnyDatabase
    if postgres_url is not None:
        db = await PgDatabase.open(postgres_url, migrate=migrate, pool_size=pool_size)
    elif existing and not os.access(sqlite_path.parent, os.W_OK):  # a reading command
        db = await Database.open(sqlite_path, readers=readers, read_only=True)
    else:
        db = await Database.open(sqlite_path, migrate=migrate, readers=readers,
                                 write_wait=write_wait, verify=verify, before_wait=before_wait)
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


SqliteT_co = TypeVar("SqliteT_co", covariant=True)
PgT_co = TypeVar("PgT_co", covariant=True)

StoreT = TypeVar("StoreT")


class StorePair(Generic[SqliteT_co, PgT_co]):
    """One store: its SQLite and its PostgreSQL class (the same class for a store written once
    over `storage.db`, see `once`), the name the contract suite's accessor for it has
    (`tests/backends.py`), and what the classes take after the database (a table, for a store
    written once for several tables)."""

    __slots__ = ("args", "name", "postgres", "shared", "sqlite")

    def __init__(self, name: str, sqlite: Callable[..., SqliteT_co],
                 postgres: Callable[..., PgT_co], *args: str) -> None:
        self.name = name
        self.sqlite = sqlite
        self.postgres = postgres
        self.args = args
        self.shared = False
        """One class for both backends, opened on `storage.db`'s API."""

    @classmethod
    def once(cls, name: str, store: Callable[..., StoreT], *args: str
             ) -> StorePair[StoreT, StoreT]:
        """A store written once over `storage.db`, for both backends."""
        pair: StorePair[StoreT, StoreT] = StorePair(name, store, store, *args)
        pair.shared = True
        return pair

    def __repr__(self) -> str:
        return f"StorePair({self.name!r})"

    def open(self, db: AnyDatabase) -> SqliteT_co | PgT_co:
        """The store on `db`, of the backend `db` is."""
        if self.shared:
            return self.sqlite(db, *self.args)
        if isinstance(db, PgDatabase):
            return self.postgres(db, *self.args)
        return self.sqlite(db, *self.args)


PAPERS = StorePair("papers", SqlitePaperStore, PgPaperStore)
"""The catalog and search."""
STATE = StorePair.once("state", StateStore)
"""Named values kept between runs."""
DIGESTS = StorePair.once("digests", DigestStore)
"""Paper-of-the-day settings and the ledger."""
SUBSCRIPTIONS = StorePair.once("subscriptions", SubscriptionStore)
"""Subscriptions, notifications, DM pauses."""
OUTBOX = StorePair.once("outbox", OutboxStore)
"""Notifications waiting to be sent, leased per unit."""
ANNOUNCEMENTS = StorePair.once("announcements", AnnouncementStore)
"""Papers whose subscribers are still to be queued their DMs, leased per batch."""
QUEUE = StorePair.once("queue", QueueStore)
"""The suggestion queue."""
VOTES = StorePair.once("votes", VoteStore)
"""Votes on the next paper."""
BOOKMARKS = StorePair.once("bookmarks", BookmarkStore)
"""Reading lists."""
HISTORY = StorePair.once("history", HistoryStore)
"""What each server discussed."""
GROUPS = StorePair.once("groups", GroupStore)
"""Reading-group settings and the presenter rotation."""
SESSIONS = StorePair.once("sessions", SessionStore)
"""Sessions and their reminder ledger."""
ADD_POLICIES = StorePair.once("add_policies", AddPolicyStore)
"""Who may add papers from arXiv, per server."""
FEEDS = StorePair.once("feeds", FeedStore)
"""arXiv feeds, their polls and announcements."""
CALENDAR_LINKS = StorePair.once("calendar_links", LinkStore, "calendar_links")
"""Each server's calendar feed link."""

WEB_LINKS = StorePair.once("web_links", LinkStore, "web_links")
"""Each server's read-only web page link."""

RECOMMENDATIONS = StorePair.once("recommendations", RecommendStore)
"""👍 / 👎 and every recommendation signal of a server."""

RECOMMEND_FEATURES = StorePair.once("recommend_features", FeatureStore)
"""The recommendation features kept with the catalog."""

CORRECTIONS = StorePair.once("corrections", CorrectionStore)
"""Members' corrections of catalog papers, per server, and their review."""
CORRECTION_NOTICES = StorePair.once("correction_notices", SourceNoticeStore)
"""The curators' notices that a source changed a corrected field."""

SIMILAR = StorePair.once("similar", SimilarStore)
"""Members following papers like their bookmarks, with their thresholds."""

SUMMARIES = StorePair.once("summaries", SummaryStore)
"""AI summaries per paper and language, their claims, and the tokens spent per day."""

PREP_SHEETS = StorePair.once("prep_sheets", PrepStore)
"""Each session's prep sheet: its questions, their generation and their one post."""

EMBEDDINGS = StorePair.once("embeddings", EmbeddingStore)
"""Each catalog paper's sentence-encoder vector (search by meaning)."""

STORES: tuple[StorePair[object, object], ...] = (
    PAPERS, STATE, DIGESTS, SUBSCRIPTIONS, OUTBOX, ANNOUNCEMENTS, QUEUE, VOTES, BOOKMARKS,
    HISTORY, GROUPS, SESSIONS, ADD_POLICIES, FEEDS, RECOMMENDATIONS, RECOMMEND_FEATURES,
    CALENDAR_LINKS, CORRECTIONS, CORRECTION_NOTICES, SIMILAR, WEB_LINKS, SUMMARIES, EMBEDDINGS,
    PREP_SHEETS)
"""Every store, once: the factory's and the contract suite's one list."""
