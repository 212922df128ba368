"""Answering an interaction: respond or follow up, whichever is due."""

from __future__ import annotations

import logging

import discord
from discord.utils import MISSING

log = logging.getLogger(__name__)


SentMessage = discord.InteractionMessage | discord.WebhookMessage
"""The message an answer created: what a view edits later (to grey itself out)."""


async def respond(interaction: discord.Interaction, content: str | None = None, *,
                  embed: discord.Embed | None = None, view: discord.ui.View | None = None,
                  file: discord.File | None = None, ephemeral: bool = False,
                  poll: discord.Poll | None = None) -> SentMessage:
    """Send the interaction's response, or a followup when it was already answered/deferred;
    return the message sent (from Discord's answer itself: no second request for it)."""
    poll_arg = poll if poll is not None else MISSING
    embed_arg = embed if embed is not None else MISSING
    view_arg = view if view is not None else MISSING
    file_arg = file if file is not None else MISSING
    if interaction.response.is_done():
        return await interaction.followup.send(
            content if content is not None else MISSING, embed=embed_arg, view=view_arg,
            file=file_arg, ephemeral=ephemeral, poll=poll_arg, wait=True)
    answer = await interaction.response.send_message(
        content, embed=embed_arg, view=view_arg, file=file_arg, ephemeral=ephemeral,
        poll=poll_arg)
    if isinstance(answer.resource, discord.InteractionMessage):
        return answer.resource
    return await interaction.original_response()  # an answer without its message


async def safe_send(interaction: discord.Interaction, content: str | None = None, *,
                    embed: discord.Embed | None = None, ephemeral: bool = True) -> None:
    """`respond`, logging instead of raising when Discord refuses (used on error paths)."""
    try:
        await respond(interaction, content, embed=embed, ephemeral=ephemeral)
    except discord.HTTPException as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)
