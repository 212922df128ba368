"""Checks shared by cogs: guild-only (answered from a DM) and Manage Server in code."""

from __future__ import annotations

import discord
from discord import app_commands


def in_guild(interaction: discord.Interaction) -> bool:
    """Guild-only, checked in code so a DM gets an explanation instead of silence."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return True


def manages_guild(interaction: discord.Interaction) -> bool:
    """Manage Server, checked in code as well as through Discord's default permissions."""
    in_guild(interaction)
    if not interaction.permissions.manage_guild:
        raise app_commands.MissingPermissions(["manage_guild"])
    return True
