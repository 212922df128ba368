"""Point discord.py at the endpoints of the `discord.api_base`/`discord.gateway_url` settings.

Discord by default; another server such as an HTTP proxy, or the local stand-in (which points
discord.py at itself while it runs, so local mode and the tests need nothing from here).
"""

from __future__ import annotations

import discord
import yarl


def set_discord_endpoints(api_base: str, gateway_url: str) -> None:
    """Set the REST base and the gateway URL. Process-wide; call before `Bot.start()`."""
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
