"""Secret per-server links (the calendar feed's, the web page's): one unguessable token per
server, or none once turned off. The protocol is what those features' services depend on;
`storage/links/` implements it once, for both backends, one table per kind of link."""

from __future__ import annotations

from typing import Protocol


class LinkStore(Protocol):
    """Each server's token for one kind of link (the link's secret part)."""

    async def token(self, guild_id: int, new: str) -> str | None:
        """The server's token: `new` becomes it when the server never had one (atomic, so two
        processes agree); None while the link is off."""
        ...

    async def rotate(self, guild_id: int, new: str) -> None:
        """`new` replaces the token (the old link stops working at once); turns the link on."""
        ...

    async def turn_off(self, guild_id: int) -> bool:
        """No link works any more; False when it was already off."""
        ...

    async def guild_of(self, token: str) -> int | None:
        """The server a token is the live link of, else None."""
        ...
