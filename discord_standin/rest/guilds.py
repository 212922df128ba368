"""Guilds and their channels, roles, members and active threads."""

from __future__ import annotations

from ..model import Guild, JSONObject
from .resource import Resource
from .routing import ApiError, Call, Result, Route


class Guilds(Resource):
    """``/guilds/{guild_id}/...`` and ``GET /channels/{channel_id}``."""

    def routes(self) -> list[Route]:
        """Reads only: the bot never changes a guild."""
        guild = "/guilds/{guild_id}"
        return [
            Route("GET", "/channels/{channel_id}", self.get_channel),
            Route("GET", guild, self.get_guild),
            Route("GET", guild + "/channels", self.guild_channels),
            Route("GET", guild + "/roles", self.guild_roles),
            Route("GET", guild + "/members", self.guild_members),
            Route("GET", guild + "/members/{user_id}", self.guild_member),
            Route("GET", guild + "/threads/active", self.active_threads),
        ]

    def _guild(self, call: Call) -> Guild:
        guild = self.world.guilds.get(call.snowflake("guild_id"))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    async def get_channel(self, call: Call) -> Result:
        """GET /channels/{id}."""
        return self._channel(call).payload()

    async def get_guild(self, call: Call) -> Result:
        """GET /guilds/{id}."""
        data: JSONObject = self._guild(call).payload()
        for key in ("channels", "threads", "members", "presences", "voice_states"):
            data.pop(key, None)
        return data

    async def guild_channels(self, call: Call) -> Result:
        """GET /guilds/{id}/channels."""
        return [c.payload() for c in self._guild(call).channels]

    async def guild_roles(self, call: Call) -> Result:
        """GET /guilds/{id}/roles."""
        return [r.payload() for r in self._guild(call).roles]

    async def guild_members(self, call: Call) -> Result:
        """GET /guilds/{id}/members."""
        limit = int(call.query.get("limit", 1))
        return [m.payload() for m in self._guild(call).members][:limit]

    async def guild_member(self, call: Call) -> Result:
        """GET /guilds/{id}/members/{user_id}."""
        member = self._guild(call).member(call.snowflake("user_id"))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return member.payload()

    async def active_threads(self, call: Call) -> Result:
        """GET /guilds/{id}/threads/active."""
        return {
            "threads": [t.payload() for t in self._guild(call).threads if not t.archived],
            "members": [],
        }
