"""The contract suite's backends: every store test that takes `backend` runs on SQLite and on
PostgreSQL (a throwaway server, see tests/postgres.py), so the two can never drift.

`storage.postgres.PORTED` names the stores PostgreSQL implements; a test of another store asks
`backend.require(...)` and is skipped on PostgreSQL with that reason until the store is ported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from storage.backend import (
    AnyDatabase,
    digest_store,
    feed_store,
    paper_store,
    state_store,
    subscription_store,
)
from storage.interfaces import DigestStore, FeedStore, PaperStore, StateStore, SubscriptionStore
from storage.postgres import PORTED
from storage.postgres.database import PgDatabase

NOT_RUN = "PostgreSQL not found: the PostgreSQL half of the contract suite was NOT run"


@dataclass
class Backend:
    """One open, migrated, empty database of one backend, and its stores."""

    kind: str
    db: AnyDatabase

    def require(self, store: str) -> None:
        """Skip on PostgreSQL while `store` has no PostgreSQL implementation."""
        if self.kind == "postgres" and store not in PORTED:
            pytest.skip(f"{store}: not ported to PostgreSQL yet")

    def papers(self) -> PaperStore:
        return paper_store(self.db)

    def state(self) -> StateStore:
        return state_store(self.db)

    def digests(self) -> DigestStore:
        return digest_store(self.db)

    def subscriptions(self) -> SubscriptionStore:
        return subscription_store(self.db)

    def feeds(self) -> FeedStore:
        return feed_store(self.db)

    async def execute(self, sql: str, *params: Any) -> None:
        """Raw SQL for a test's set-up, written with `?` placeholders for both backends."""
        if isinstance(self.db, PgDatabase):
            parts = sql.split("?")
            sql = parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], 1))
            async with self.db.transaction() as conn:
                await conn.execute(sql, *params)
        else:
            async with self.db.transaction() as conn:
                await conn.execute(sql, params)
