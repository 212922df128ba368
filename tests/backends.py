"""The contract suite's backends: every store test that takes `backend` runs on SQLite and on
PostgreSQL (a throwaway server, see tools/throwaway_postgres.py), so the two can never drift.
Stores come from `storage.backend`'s registry (`STORES`), as the app gets them: each accessor
is named after its `StoreEntry` and typed with its feature's protocol, so mypy checks that
what each opens satisfies it (tests/storage/test_store_registry.py checks the names).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.features.adding.store import AddPolicyStore
from bot.features.corrections.store import CorrectionStore, SourceNoticeStore
from bot.features.digest.store import DigestStore
from bot.features.feeds.store import FeedStore
from bot.features.group.store import GroupStore
from bot.features.meaning.store import EmbeddingStore
from bot.features.notifications.store import AnnouncementStore, OutboxStore
from bot.features.papers.store import PaperStore
from bot.features.prep.store import PrepStore
from bot.features.queue.store import QueueStore
from bot.features.reading.store import BookmarkStore, HistoryStore
from bot.features.recommend.store import FeatureStore, RecommendStore
from bot.features.sessions.store import SessionStore
from bot.features.subscriptions.store import SimilarStore, SubscriptionStore
from bot.features.summaries.store import SummaryStore
from bot.features.votes.store import VoteStore
from bot.shared.link_store import LinkStore
from bot.shared.state_store import StateStore
from domain.outbox import OutboxUnit
from storage import backend as stores
from storage.backend import AnyDatabase
from storage.notifications.store import enqueue_units
from storage.ops import outbox_summary
from storage.postgres.database import PgDatabase

NOT_RUN = "PostgreSQL not found: the PostgreSQL half of the contract suite was NOT run"


@dataclass
class Backend:
    """One open, migrated, empty database of one backend, and its stores (one accessor per
    `storage.backend.STORES` entry, of the same name)."""

    kind: str
    db: AnyDatabase

    def papers(self) -> PaperStore:
        return stores.PAPERS.open(self.db)

    def embeddings(self) -> EmbeddingStore:
        return stores.EMBEDDINGS.open(self.db)

    def state(self) -> StateStore:
        return stores.STATE.open(self.db)

    def digests(self) -> DigestStore:
        return stores.DIGESTS.open(self.db)

    def subscriptions(self) -> SubscriptionStore:
        return stores.SUBSCRIPTIONS.open(self.db)

    def similar(self) -> SimilarStore:
        return stores.SIMILAR.open(self.db)

    def outbox(self) -> OutboxStore:
        return stores.OUTBOX.open(self.db)

    def announcements(self) -> AnnouncementStore:
        return stores.ANNOUNCEMENTS.open(self.db)

    def queue(self) -> QueueStore:
        return stores.QUEUE.open(self.db)

    def votes(self) -> VoteStore:
        return stores.VOTES.open(self.db)

    def bookmarks(self) -> BookmarkStore:
        return stores.BOOKMARKS.open(self.db)

    def history(self) -> HistoryStore:
        return stores.HISTORY.open(self.db)

    def groups(self) -> GroupStore:
        return stores.GROUPS.open(self.db)

    def sessions(self) -> SessionStore:
        return stores.SESSIONS.open(self.db)

    def add_policies(self) -> AddPolicyStore:
        return stores.ADD_POLICIES.open(self.db)

    def feeds(self) -> FeedStore:
        return stores.FEEDS.open(self.db)

    def recommendations(self) -> RecommendStore:
        return stores.RECOMMENDATIONS.open(self.db)

    def recommend_features(self) -> FeatureStore:
        return stores.RECOMMEND_FEATURES.open(self.db)

    def calendar_links(self) -> LinkStore:
        return stores.CALENDAR_LINKS.open(self.db)

    def web_links(self) -> LinkStore:
        return stores.WEB_LINKS.open(self.db)

    def corrections(self) -> CorrectionStore:
        return stores.CORRECTIONS.open(self.db)

    def correction_notices(self) -> SourceNoticeStore:
        return stores.CORRECTION_NOTICES.open(self.db)

    def summaries(self) -> SummaryStore:
        return stores.SUMMARIES.open(self.db)

    def prep_sheets(self) -> PrepStore:
        return stores.PREP_SHEETS.open(self.db)

    async def execute(self, sql: str, *params: Any) -> None:
        """Raw SQL for a test's set-up, written with `?` placeholders for both backends."""
        await self.db.execute(_numbered(sql), *params)

    async def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """A raw read for a test's checks, written with `?` placeholders for both backends."""
        return [tuple(row) for row in await self.db.fetch(_numbered(sql), *params)]

    async def integer_columns(self) -> set[tuple[str, str]]:
        """Every (table, column) of the migrated schema declared as an integer: the columns
        that could hold a Discord id."""
        if isinstance(self.db, PgDatabase):
            return {(str(table), str(column)) for table, column in await self.rows(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() "
                "AND data_type IN ('bigint', 'integer', 'smallint', 'numeric')")}
        tables = [str(name) for (name,) in await self.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {(table, str(row[1])) for table in tables
                for row in await self.rows(f"PRAGMA table_info('{table}')")
                if "INT" in str(row[2]).upper()}


def _numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1`, `$2`, ..."""
    parts = sql.split("?")
    return parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], 1))


async def enqueue(db: AnyDatabase, units: Iterable[OutboxUnit]) -> int:
    """Queue outbox units on their own, a test's set-up (the app queues them in the transaction
    that decides them, `storage.notifications.store.enqueue_units`); returns the rows queued."""
    async with db.transaction() as tx:
        return await enqueue_units(tx, db.dialect, units)


async def queued(db: AnyDatabase) -> int:
    """The rows waiting in the outbox, as `/metrics` counts them (`storage.ops`)."""
    return (await outbox_summary(db))[0]
