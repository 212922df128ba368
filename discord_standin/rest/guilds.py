"""Guilds and their channels, roles, members and active threads."""

from __future__ import annotations

from ..model import Guild, JSONObject
from .resource import Resource
from .routing import ApiError, Call, Result, Route

GATEWAY_ONLY = ("channels", "threads", "members", "presences", "voice_states", "unavailable",
                "large", "member_count", "joined_at", "stage_instances",
                "guild_scheduled_events")
"""GUILD_CREATE's fields that the REST guild object does not have."""
REST_GUILD_DEFAULTS: JSONObject = {
    "description": None, "home_header": None, "splash": None, "discovery_splash": None,
    "banner": None,
    "application_id": None, "region": "deprecated", "afk_channel_id": None, "afk_timeout": 300,
    "system_channel_id": None, "system_channel_flags": 0, "widget_enabled": False,
    "widget_channel_id": None, "verification_level": 0, "default_message_notifications": 0,
    "mfa_level": 0, "explicit_content_filter": 0, "max_presences": None,
    "max_members": 500000, "max_stage_video_channel_users": 50, "max_video_channel_users": 25,
    "vanity_url_code": None, "premium_tier": 0, "premium_subscription_count": 0,
    "rules_channel_id": None, "safety_alerts_channel_id": None,
    "public_updates_channel_id": None, "premium_progress_bar_enabled": False, "nsfw": False,
    "nsfw_level": 0, "incidents_data": None}
"""The REST guild object's required fields the stand-in has no state for (Discord's values
for a new server)."""


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
        """GET /guilds/{id}: Discord's guild object (``GuildWithCountsResponse``), without the
        gateway's GUILD_CREATE extras; ``with_counts=true`` adds the approximate counts."""
        guild = self._guild(call)
        data: JSONObject = guild.payload()
        for key in GATEWAY_ONLY:
            data.pop(key, None)
        data |= REST_GUILD_DEFAULTS
        if call.query.get("with_counts", "").lower() in {"true", "1"}:
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = 0
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
