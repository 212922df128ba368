"""`/forget-me`: every store that keeps something about a member is asked to forget them.

Each part of the bot that stores members' records adds its store to the list `bot.wiring`
builds (the presenter rotation counts with the presentations).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.features.subscriptions.store import SubscriptionStore
from domain.group import Erased, ErasedKind


class ForgetsMembers(Protocol):
    """A store that can erase (or anonymise) one member's records in every server."""

    async def forget(self, user_id: int) -> int:
        """How many records were erased or anonymised."""
        ...


class ForgetService:
    """Asks each store to forget a member; safe to repeat; works from a DM."""

    def __init__(self, subscriptions: SubscriptionStore,
                 stores: Sequence[tuple[ErasedKind, ForgetsMembers]]) -> None:
        self._subscriptions = subscriptions
        self._stores = list(stores)

    async def forget(self, user_id: int) -> Erased:
        """Counts per kind of record."""
        gone = await self._subscriptions.forget(user_id)
        erased: Erased = {ErasedKind.SUBSCRIPTIONS: gone.subscriptions,
                          ErasedKind.NOTIFICATIONS: gone.notifications}
        for kind, store in self._stores:
            erased[kind] = erased.get(kind, 0) + await store.forget(user_id)
        return erased
