"""The store of who may add papers from arXiv. The protocol is what the feature's services depend
on; `storage/` implements it once, for both backends."""

from __future__ import annotations

from typing import Protocol

from domain.adding import AddPolicy, WhoAdds


class AddPolicyStore(Protocol):
    """Who may add papers from arXiv, per server."""

    async def policy(self, guild_id: int) -> AddPolicy:
        """A server's rule (the default when never set)."""
        ...

    async def set_policy(self, guild_id: int, who: WhoAdds, curator_role_id: int | None) -> None:
        """Replace a server's rule."""
        ...
