"""Who may add papers from arXiv, per server."""

from __future__ import annotations

from domain.adding import AddPolicy, WhoAdds
from storage.db import Store
from storage.times import utc_timestamp


class AddPolicyStore(Store):
    """The `add_policy` table."""

    async def policy(self, guild_id: int) -> AddPolicy:
        """A server's rule (the default when never set)."""
        row = await self._db.fetch_one(
            "SELECT who, curator_role_id FROM add_policy WHERE guild_id = $1", guild_id)
        return AddPolicy() if row is None else AddPolicy(WhoAdds(row[0]), row[1])

    async def set_policy(self, guild_id: int, who: WhoAdds, curator_role_id: int | None) -> None:
        """Replace a server's rule (one upsert)."""
        await self._db.execute(
            "INSERT INTO add_policy (guild_id, who, curator_role_id, updated_at) "
            "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id) DO UPDATE SET who = excluded.who, "
            "curator_role_id = excluded.curator_role_id, updated_at = excluded.updated_at",
            guild_id, who.value, curator_role_id, utc_timestamp())
