"""Point discord.py's REST base and gateway at the stand-in, and back again."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import discord
import yarl


@contextmanager
def discord_pointed_at(rest_base: str, gateway_url: str) -> Iterator[None]:
    """Inside the block discord.py talks to ``rest_base`` and ``gateway_url``; after it, to
    whatever it talked to before. Process-wide: discord.py keeps both in class attributes."""
    route, websocket = discord.http.Route, discord.gateway.DiscordWebSocket
    saved = route.BASE, websocket.DEFAULT_GATEWAY
    route.BASE = rest_base.rstrip("/")
    websocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        route.BASE, websocket.DEFAULT_GATEWAY = saved
