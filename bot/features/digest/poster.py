"""The Discord side of the paper of the day: send the card, find an earlier post, open a thread."""

from __future__ import annotations

import logging
from datetime import datetime

import discord

from bot.client.own_posts import delivery_failure, find_own_post
from bot.features.digest.delivery import DigestPost
from bot.features.digest.notes import POST_NOTES, pick_note
from bot.features.notifications.notices import guild_lang, mention_line, pinging
from bot.features.papers.card import fit
from bot.features.papers.card_view import paper_message
from bot.shared.mentions import mention_batches
from bot.shared.messages import t

log = logging.getLogger(__name__)

THREAD_NAME_LIMIT = 100
THREAD_ALREADY_EXISTS = 160004


class DiscordDigestPoster:
    """Implements `DigestPoster` with a connected discord.py client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def send(self, post: DigestPost, nonce: str) -> int:
        """Post the card with the nonce (discord.py sends `enforce_nonce` with it), pinging the
        first batch of mentioned members (the notifier queues the others)."""
        lang = guild_lang(self.client, post.guild_id)
        note = pick_note(lang, POST_NOTES, post.recommended, post.like, post.position,
                         post.cycle_size)
        if post.late:
            note += "\n" + t(lang, "digest.post.late")
        embed, view = paper_message(post.paper, lang, note=note, footer_note=post.marker)
        channel = self.client.get_partial_messageable(post.channel_id, guild_id=post.guild_id)
        first = (mention_batches(post.audience.mention_ids) or [()])[0]
        try:
            message = await channel.send(
                mention_line(first, post.audience.mention_topics, lang) if first else None,
                embed=embed, view=view, nonce=nonce, allowed_mentions=pinging(first))
        except discord.HTTPException as exc:
            raise delivery_failure(exc) from exc
        finally:
            view.stop()
        return message.id

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        """Our post of that date (see `find_own_post`)."""
        return await find_own_post(self.client, channel_id, marker, nonce, since)

    async def open_thread(self, guild_id: int, channel_id: int, message_id: int,
                          name: str | None) -> int:
        """A public thread on the post, named after the paper (None: a paper no longer in the
        catalog, "paper of the day" in the server's language). If the post already has one
        (an earlier try opened it but its answer was lost: 160004), that thread: on Discord a
        thread started from a message has the message's id."""
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        message = channel.get_partial_message(message_id)
        if name is None:
            name = t(guild_lang(self.client, guild_id), "digest.thread.name")
        try:
            thread = await message.create_thread(name=fit(name, THREAD_NAME_LIMIT))
        except discord.HTTPException as exc:
            if exc.code != THREAD_ALREADY_EXISTS:
                raise delivery_failure(exc) from exc
            return await self._existing_thread(message_id)
        return thread.id

    async def _existing_thread(self, message_id: int) -> int:
        """The thread started from a message (it has the message's id)."""
        try:
            thread = await self.client.fetch_channel(message_id)
        except discord.HTTPException as exc:
            raise delivery_failure(exc) from exc
        return thread.id
