"""The hash of the last slash-command sync per target, so an unchanged tree is not re-synced."""

from __future__ import annotations

from bot.shared.state_store import StateStore


class SyncRecord:
    """Remembers what was last synced where, in the state store."""

    def __init__(self, state: StateStore) -> None:
        self.state = state

    async def unchanged(self, key: str, digest: str) -> bool:
        """True when `digest` is what was last synced under `key`."""
        return await self.state.get(key) == digest

    async def remember(self, key: str, digest: str) -> None:
        """Record a sync under `key`."""
        await self.state.set(key, digest)
