"""What every poster shares: Discord's refusals as the services see them, and finding a post
of ours that went out before a crash."""

from __future__ import annotations

import re
from datetime import datetime

import discord

from bot.shared.delivery import DeliveryFailed
from domain.reasons import from_discord


def delivery_failure(exc: discord.HTTPException) -> DeliveryFailed:
    """Discord's refusal as the services see it (rate limits are worth another try)."""
    return DeliveryFailed(from_discord(exc.status, exc.code), exc.code or None,
                          retryable=exc.status == 429)


async def send_own_post(client: discord.Client, guild_id: int, channel_id: int, nonce: str,
                        embed: discord.Embed, content: str | None = None) -> int:
    """Send a post that pings nobody, carrying `nonce`; its message id. Discord's refusal is
    raised as `DeliveryFailed`."""
    channel = client.get_partial_messageable(channel_id, guild_id=guild_id)
    try:
        message = await channel.send(content, embed=embed, nonce=nonce,
                                     allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        raise delivery_failure(exc) from exc
    return message.id


async def find_own_post(client: discord.Client, channel_id: int, marker: str, nonce: str,
                        since: datetime) -> int | None:
    """Our message after `since` carrying `nonce` or `marker` in an embed's footer: every
    message since then, oldest first, 100 a page, as far as the channel goes. Discord's
    refusal is raised as `DeliveryFailed`."""
    channel = client.get_partial_messageable(channel_id)
    me = client.user
    try:
        async for message in channel.history(limit=None, after=since, oldest_first=True):
            if me is not None and message.author.id != me.id:
                continue
            if message.nonce == nonce or any(
                    carries_marker(embed.footer.text or "", marker) for embed in message.embeds):
                return message.id
    except discord.HTTPException as exc:
        raise delivery_failure(exc) from exc
    return None


def carries_marker(footer: str, marker: str) -> bool:
    """Whether the footer ends with `marker` as a whole (every poster puts it last): the post
    of `📡 #1.2` is not the one of `📡 #1.23` nor of `📡 #11.2`, and a reminder `⏰ #3 −60′`
    is not `⏰ #3.2 −60′`."""
    return re.search(rf"(?:^|\s){re.escape(marker)}$", footer.rstrip()) is not None
