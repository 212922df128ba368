"""Point discord.py at the endpoints of the `discord.api_base`/`discord.gateway_url` settings,
and bound how long one REST call may take (`discord.call_timeout_seconds`).

Discord by default; another server such as an HTTP proxy, or the local stand-in (which points
discord.py at itself while it runs, so local mode and the tests need nothing from here).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any, cast

import discord
import yarl


def set_discord_endpoints(api_base: str, gateway_url: str) -> None:
    """Set the REST base and the gateway URL. Process-wide; call before `Bot.start()`."""
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class BoundedHTTPClient(discord.http.HTTPClient):
    """discord.py's REST client with each call, its retries and rate-limit waits included, cut
    at `call_timeout` seconds (a TimeoutError, handled as a network failure), so that no call
    outlives the lease it was made under (`bot.settings.Settings` refuses shorter leases)."""

    call_timeout: float

    async def request(self, route: discord.http.Route, *,
                      files: Sequence[discord.File] | None = None,
                      form: Iterable[dict[str, Any]] | None = None, **kwargs: Any) -> Any:
        async with asyncio.timeout(self.call_timeout):
            return await super().request(route, files=files, form=form, **kwargs)


def bound_calls(http: discord.http.HTTPClient, seconds: float) -> None:
    """Make a client's REST calls `BoundedHTTPClient`s of `seconds` (discord.py builds its
    HTTPClient itself, with the client's options, so the instance is adopted, not rebuilt)."""
    http.__class__ = BoundedHTTPClient
    cast(BoundedHTTPClient, http).call_timeout = seconds
