"""Answering an interaction: respond or follow up, whichever is due."""

from __future__ import annotations

import logging

import discord
from discord.utils import MISSING

log = logging.getLogger(__name__)


async def respond(interaction: discord.Interaction, content: str | None = None, *,
                  embed: discord.Embed | None = None, view: discord.ui.View | None = None,
                  file: discord.File | None = None, ephemeral: bool = False) -> None:
    """Send the interaction's response, or a followup when it was already answered/deferred."""
    embed_arg = embed if embed is not None else MISSING
    view_arg = view if view is not None else MISSING
    file_arg = file if file is not None else MISSING
    if interaction.response.is_done():
        await interaction.followup.send(content if content is not None else MISSING,
                                        embed=embed_arg, view=view_arg, file=file_arg,
                                        ephemeral=ephemeral)
    else:
        await interaction.response.send_message(content, embed=embed_arg, view=view_arg,
                                                file=file_arg, ephemeral=ephemeral)


async def safe_send(interaction: discord.Interaction, content: str | None = None, *,
                    embed: discord.Embed | None = None, ephemeral: bool = True) -> None:
    """`respond`, logging instead of raising when Discord refuses (used on error paths)."""
    try:
        await respond(interaction, content, embed=embed, ephemeral=ephemeral)
    except discord.HTTPException as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)
