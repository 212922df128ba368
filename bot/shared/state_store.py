"""Named values kept between runs (what was last synced where). The protocol is what the feature's
services depend on; `storage/` implements it once, for both backends."""

from __future__ import annotations

from typing import Protocol


class StateStore(Protocol):
    """Named values kept between runs."""

    async def get(self, key: str) -> str | None:
        """The stored value, or None."""
        ...

    async def set(self, key: str, value: str) -> None:
        """Store or replace a value."""
        ...
