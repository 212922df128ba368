"""The web page's links: one unguessable token per server, or none once turned off. The
protocol is what the feature's service depends on; `storage/` implements it once per backend."""

from __future__ import annotations

from typing import Protocol


class WebLinkStore(Protocol):
    """Each server's page token (the link's secret part), apart from its calendar token."""

    async def token(self, guild_id: int, new: str) -> str | None:
        """The server's token: `new` becomes it when the server never had one (atomic, so two
        processes agree); None while the page is off."""
        ...

    async def rotate(self, guild_id: int, new: str) -> None:
        """`new` replaces the token (the old link stops working at once); turns the page on."""
        ...

    async def turn_off(self, guild_id: int) -> bool:
        """No link works any more; False when it was already off."""
        ...

    async def guild_of(self, token: str) -> int | None:
        """The server a token is the live link of, else None."""
        ...
