"""The suggestion queue's store. The protocol is what the feature's services depend on; `storage/`
implements it once, for both backends."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from domain.group import QueueItem, SuggestOutcome


class QueueStore(Protocol):
    """The suggestion queue of each server."""

    async def suggest(self, guild_id: int, paper_id: str, user_id: int, note: str,
                      at: datetime) -> SuggestOutcome:
        """Queue a paper, or add the member's +1 when it is queued already."""
        ...

    async def queue(self, guild_id: int) -> list[QueueItem]:
        """A server's queue: most supported first, then oldest."""
        ...

    async def item(self, guild_id: int, paper_id: str) -> QueueItem | None:
        """One queued paper, or None."""
        ...

    async def remove(self, guild_id: int, paper_id: str) -> bool:
        """Take a paper off a server's queue; False if it was not queued."""
        ...

    async def withdraw(self, guild_id: int, paper_id: str, user_id: int) -> bool:
        """Take back one member's +1; False if they had none."""
        ...

    async def forget(self, user_id: int) -> int:
        """Anonymise a member's suggestions everywhere; how many."""
        ...
