"""Choosing the backend: a SQLite file (the default) or a PostgreSQL server, behind the same
store protocols (`bot/features/<feature>/store.py`). The rest of the app asks this module for
stores and never learns which.

`STORES` is the one list of stores: each `StoreEntry` names what opens a store on either
backend (its class, written once over `storage.db`); the wiring opens them (`PAPERS.open(db)`)
and the contract suite runs each on both.
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
from storage.prep.store import PrepStore
from storage.queue.store import QueueStore
from storage.reading.store import BookmarkStore, HistoryStore
from storage.recommend.store import FeatureStore, RecommendStore
from storage.sessions.store import SessionStore
from storage.sqlite.database import READERS, WRITE_WAIT_SECONDS, Database, check_path
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
    latest = db.MIGRATIONS[-1].version
    if version == 0:
        raise NoDatabase(f"{where} holds no paperclub database")
    if version < latest:
        raise SchemaError(f"{where} was written by an older paperclub (schema {version}, now "
                          f"{latest}): a command that writes (`paperclub import`, "
                          "`paperclub run`) upgrades it")


StoreT_co = TypeVar("StoreT_co", covariant=True)


class StoreEntry(Generic[StoreT_co]):
    """One store: what opens it on a database of either backend (its class, written once over
    `storage.db`; for the catalog, `paper_store`), the name the contract suite's accessor for
    it has (`tests/backends.py`), and what it takes after the database (a table, for a store
    written once for several tables)."""

    __slots__ = ("args", "name", "store")

    def __init__(self, name: str, store: Callable[..., StoreT_co], *args: str) -> None:
        self.name = name
        self.store = store
        self.args = args

    def __repr__(self) -> str:
        return f"StoreEntry({self.name!r})"

    def open(self, db: AnyDatabase) -> StoreT_co:
        """The store on `db`."""
        return self.store(db, *self.args)


def paper_store(db: AnyDatabase) -> SqlitePaperStore | PgPaperStore:
    """The catalog on `db`, searched with FTS5 on SQLite, with `tsvector`s on PostgreSQL."""
    return PgPaperStore(db) if isinstance(db, PgDatabase) else SqlitePaperStore(db)


PAPERS = StoreEntry("papers", paper_store)
"""The catalog and search."""
STATE = StoreEntry("state", StateStore)
"""Named values kept between runs."""
DIGESTS = StoreEntry("digests", DigestStore)
"""Paper-of-the-day settings and the ledger."""
SUBSCRIPTIONS = StoreEntry("subscriptions", SubscriptionStore)
"""Subscriptions, notifications, DM pauses."""
OUTBOX = StoreEntry("outbox", OutboxStore)
"""Notifications waiting to be sent, leased per unit."""
ANNOUNCEMENTS = StoreEntry("announcements", AnnouncementStore)
"""Papers whose subscribers are still to be queued their DMs, leased per batch."""
QUEUE = StoreEntry("queue", QueueStore)
"""The suggestion queue."""
VOTES = StoreEntry("votes", VoteStore)
"""Votes on the next paper."""
BOOKMARKS = StoreEntry("bookmarks", BookmarkStore)
"""Reading lists."""
HISTORY = StoreEntry("history", HistoryStore)
"""What each server discussed."""
GROUPS = StoreEntry("groups", GroupStore)
"""Reading-group settings and the presenter rotation."""
SESSIONS = StoreEntry("sessions", SessionStore)
"""Sessions and their reminder ledger."""
ADD_POLICIES = StoreEntry("add_policies", AddPolicyStore)
"""Who may add papers from arXiv, per server."""
FEEDS = StoreEntry("feeds", FeedStore)
"""arXiv feeds, their polls and announcements."""
CALENDAR_LINKS = StoreEntry("calendar_links", LinkStore, "calendar_links")
"""Each server's calendar feed link."""

WEB_LINKS = StoreEntry("web_links", LinkStore, "web_links")
"""Each server's read-only web page link."""

RECOMMENDATIONS = StoreEntry("recommendations", RecommendStore)
"""👍 / 👎 and every recommendation signal of a server."""

RECOMMEND_FEATURES = StoreEntry("recommend_features", FeatureStore)
"""The recommendation features kept with the catalog."""

CORRECTIONS = StoreEntry("corrections", CorrectionStore)
"""Members' corrections of catalog papers, per server, and their review."""
CORRECTION_NOTICES = StoreEntry("correction_notices", SourceNoticeStore)
"""The curators' notices that a source changed a corrected field."""

SIMILAR = StoreEntry("similar", SimilarStore)
"""Members following papers like their bookmarks, with their thresholds."""

SUMMARIES = StoreEntry("summaries", SummaryStore)
"""AI summaries per paper and language, their claims, and the tokens spent per day."""

PREP_SHEETS = StoreEntry("prep_sheets", PrepStore)
"""Each session's prep sheet: its questions, their generation and their one post."""

EMBEDDINGS = StoreEntry("embeddings", EmbeddingStore)
"""Each catalog paper's sentence-encoder vector (search by meaning)."""

STORES: tuple[StoreEntry[object], ...] = (
    PAPERS, STATE, DIGESTS, SUBSCRIPTIONS, OUTBOX, ANNOUNCEMENTS, QUEUE, VOTES, BOOKMARKS,
    HISTORY, GROUPS, SESSIONS, ADD_POLICIES, FEEDS, RECOMMENDATIONS, RECOMMEND_FEATURES,
    CALENDAR_LINKS, CORRECTIONS, CORRECTION_NOTICES, SIMILAR, WEB_LINKS, SUMMARIES, EMBEDDINGS,
    PREP_SHEETS)
"""Every store, once: the factory's and the contract suite's one list."""
