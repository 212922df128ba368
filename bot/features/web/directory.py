"""What the page and the calendar feed need from Discord (`Directory`): a server's name and
language, members' display names. `GatewayDirectory` reads the bot's gateway cache (asking
Discord for a member it does not hold; in `bot.features.web.web`); `bot.client.rest_directory.
RestDirectory` asks Discord's REST API, for the web page's own process. Either remembers what
Discord answered (`bot.shared.expiring.Expiring`), and a Discord failure is never an error
page: no name, the default language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from bot.features.calendar.service import NameOf
from bot.shared.lang import Lang

SERVER_SECONDS = 60.0
"""How long a server's name and language are remembered."""
NAME_SECONDS = 600.0
"""How long a member's display name (or that there is none) is remembered."""
FAILED_SECONDS = 30.0
"""How long a Discord failure stands for the answer (no name, the default) before it is asked
again."""
NAME_LOOKUPS = 25
"""Members asked of Discord at most per answer (the rest: remembered names, or unnamed)."""


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """A server as its page shows it."""

    name: str
    lang: Lang


DEFAULT_SERVER = ServerInfo("paperclub", Lang.EN)
"""What a page shows of a server Discord does not tell about."""


class Directory(Protocol):
    """What the web page and the calendar feed ask of Discord."""

    async def server(self, guild_id: int) -> ServerInfo:
        """The server's name and preferred language (`DEFAULT_SERVER` when unknown)."""
        ...

    async def member_name(self, guild_id: int, user_id: int, *, ask: bool = True) -> str | None:
        """The member's display name (None: not a member, or unknown); `ask=False` answers only
        from what is at hand, without asking Discord."""
        ...


def server_info(guild: Any) -> ServerInfo:
    """A discord.py guild (or a guild payload's fields) as the page shows it."""
    return ServerInfo(str(guild.name), Lang.from_locale(str(guild.preferred_locale)))


def answer_names(directory: Directory, guild_id: int) -> NameOf:
    """Display names for one answer: each member looked up once, Discord asked about at most
    `NAME_LOOKUPS` of them (the others named only if remembered)."""
    known: dict[int, str | None] = {}

    async def name_of(user_id: int) -> str | None:
        if user_id not in known:
            known[user_id] = await directory.member_name(guild_id, user_id,
                                                         ask=len(known) < NAME_LOOKUPS)
        return known[user_id]

    return name_of
