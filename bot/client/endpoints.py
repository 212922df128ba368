"""Point discord.py at Discord or at another server (the local stand-in, an HTTP proxy)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import discord
import yarl


def set_discord_endpoints(api_base: str, gateway_url: str) -> None:
    """Set the REST base and the gateway URL. Process-wide; call before `Bot.start()`."""
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


@contextmanager
def discord_endpoints(api_base: str, gateway_url: str) -> Iterator[None]:
    """Use other endpoints inside the block, restoring the previous ones after it."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    set_discord_endpoints(api_base, gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
