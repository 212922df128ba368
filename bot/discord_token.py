"""The configured Discord token, or a `MissingToken` saying what to do."""

from __future__ import annotations

from bot.settings import Settings


class MissingToken(Exception):
    """No Discord token was configured."""


def token_of(settings: Settings) -> str:
    """The Discord token, or `MissingToken` saying exactly what to do."""
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        raise MissingToken(
            "no Discord token: set the DISCORD_TOKEN environment variable to your bot's token "
            "(Discord Developer Portal -> your application -> Bot -> Reset Token). "
            "To try paperclub without a Discord account, run `paperclub local` "
            "(or `python3 dev.py demo`)."
        )
    return settings.discord_token.get_secret_value().strip()
