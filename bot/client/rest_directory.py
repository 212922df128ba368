"""The `Directory` of the web page's own process: Discord's REST API with the bot's token and
no gateway (`GET /guilds/{id}`, `GET /guilds/{id}/members/{user}`, at `discord.api_base`).
A server is remembered for `SERVER_SECONDS`, a name (or that there is none) for
`NAME_SECONDS`; Discord failing or unreachable gives no name and the default, asked again
after `FAILED_SECONDS`, and a server already known keeps its last answer meanwhile."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import aiohttp
import discord

from bot.client.endpoints import bound_calls
from bot.features.web.directory import (
    DEFAULT_SERVER,
    FAILED_SECONDS,
    NAME_SECONDS,
    SERVER_SECONDS,
    ServerInfo,
)
from bot.shared.expiring import Expiring
from bot.shared.lang import Lang

log = logging.getLogger(__name__)
CALL_SECONDS = 5.0
"""The longest one Discord call of a page may take (its retries included)."""
FAILURES = (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError)


def display_name(member: dict[str, Any]) -> str | None:
    """A member payload's display name, as discord.py's `Member.display_name` reads it."""
    user = member.get("user") or {}
    name = member.get("nick") or user.get("global_name") or user.get("username")
    return str(name) if name else None


class RestDirectory:
    """Servers and members asked of Discord's REST API (`start` logs in; `close` after)."""

    def __init__(self, token: str, *, call_seconds: float = CALL_SECONDS,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.token = token
        self.call_seconds = call_seconds
        self.monotonic = monotonic
        self.client = discord.Client(intents=discord.Intents(guilds=True))  # no gateway: REST
        self._servers: Expiring[int, ServerInfo] = Expiring(monotonic)
        self._last: dict[int, ServerInfo] = {}
        self._names: Expiring[tuple[int, int], str | None] = Expiring(monotonic)
        self._login: Expiring[int, bool] = Expiring(monotonic, kept=1)

    async def start(self) -> bool:
        """Log in (True), or say why not and try again on a later page (False)."""
        return await self._logged_in()

    async def close(self) -> None:
        """Close the REST session."""
        await self.client.close()

    async def _logged_in(self) -> bool:
        async def login() -> tuple[bool, float]:
            if self.client.user is not None:
                return True, float("inf")
            try:
                await self.client.login(self.token)
            except discord.LoginFailure as exc:
                log.error("web pages: Discord refused the token (%s); pages name no one", exc)
                return False, FAILED_SECONDS
            except FAILURES as exc:
                log.warning("web pages: cannot reach Discord (%s: %s); trying again later",
                            type(exc).__name__, exc)
                return False, FAILED_SECONDS
            bound_calls(self.client.http, self.call_seconds)
            return True, float("inf")

        return await self._login.load(0, login)

    async def server(self, guild_id: int) -> ServerInfo:
        """`GET /guilds/{id}`: its name and preferred locale."""
        async def fetch() -> tuple[ServerInfo, float]:
            if not await self._logged_in():
                return self._last.get(guild_id, DEFAULT_SERVER), FAILED_SECONDS
            try:
                data = await self.client.http.get_guild(guild_id, with_counts=False)
            except discord.NotFound:
                return DEFAULT_SERVER, SERVER_SECONDS
            except FAILURES as exc:
                log.warning("web pages: server %s not read from Discord: %s", guild_id, exc)
                return self._last.get(guild_id, DEFAULT_SERVER), FAILED_SECONDS
            info = ServerInfo(str(data.get("name") or DEFAULT_SERVER.name),
                              Lang.from_locale(str(data.get("preferred_locale") or "")))
            self._last[guild_id] = info
            return info, SERVER_SECONDS

        return await self._servers.load(guild_id, fetch)

    async def member_name(self, guild_id: int, user_id: int, *, ask: bool = True) -> str | None:
        """`GET /guilds/{id}/members/{user}`: the member's display name (None: not a member)."""
        if (known := self._names.get((guild_id, user_id))) is not None or not ask:
            return known[0] if known is not None else None

        async def fetch() -> tuple[str | None, float]:
            if not await self._logged_in():
                return None, FAILED_SECONDS
            try:
                member = await self.client.http.get_member(guild_id, user_id)
            except discord.NotFound:
                return None, NAME_SECONDS
            except FAILURES as exc:
                log.warning("web pages: member not read from Discord: %s", exc)
                return None, FAILED_SECONDS
            return display_name(dict(member)), NAME_SECONDS

        return await self._names.load((guild_id, user_id), fetch)
