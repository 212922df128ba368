"""What the recommendation service needs from storage: signals, and the features kept."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from domain.recommend import CatalogLoad, Signal, StoredFit, StoredVector, Verdict


class RecommendStore(Protocol):
    """👍 / 👎 per (server, member, paper), and every signal a server's tables hold."""

    async def rate(self, guild_id: int, user_id: int, paper_id: str, verdict: Verdict,
                   at: datetime) -> bool:
        """Record a member's verdict on a paper; False if it was already that verdict."""

    async def signals(self, guild_id: int) -> list[Signal]:
        """Every signal in a server on papers still in the catalog: bookmarks, suggestions and
        +1s, ballots, the discussed history and presenters, 👍 / 👎; oldest first."""

    async def forget(self, user_id: int) -> int:
        """Delete a member's verdicts everywhere (their other signals go with their stores)."""


class FeatureStore(Protocol):
    """The recommendation features kept with the catalog: fits, and each paper's vector."""

    async def current(self) -> StoredFit | None:
        """The newest finished fit, if any."""

    async def start(self, catalog_version: int, papers: int, at: datetime) -> int:
        """A new fit's revision, not current until `finish`."""

    async def write(self, revision: int, vectors: Sequence[StoredVector], *,
                    transformed: bool = False) -> None:
        """Store vectors of a fit (replacing a paper's earlier one); `transformed` counts
        them as transformed after the fit."""

    async def remove(self, revision: int, paper_ids: Sequence[str]) -> None:
        """Drop these papers' vectors from a fit."""

    async def finish(self, revision: int, vocabulary: bytes, at: datetime) -> None:
        """Make a fit current with its vocabulary; older fits and their vectors go."""

    async def vectors(self, revision: int, after: str, limit: int) -> list[StoredVector]:
        """A fit's vectors in paper-id order, after `after`, at most `limit`."""

    async def catalog_hashes(self) -> dict[str, str]:
        """Every catalog paper's id and content hash."""

    async def loads_since(self, catalog_version: int) -> list[CatalogLoad]:
        """The catalog's loads and adds after a version, oldest first."""
