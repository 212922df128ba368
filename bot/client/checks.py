"""Checks shared by cogs: guild-only (answered from a DM), Manage Server, organisers."""

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


class NotOrganiser(app_commands.CheckFailure):
    """The member is not an organiser of this server."""


def is_organiser(member: discord.abc.User) -> bool:
    """Organisers run votes and sessions. The one place that decides: for now, Manage Server."""
    return isinstance(member, discord.Member) and member.guild_permissions.manage_guild


def require_organiser(interaction: discord.Interaction) -> bool:
    """Guild-only and organisers only, explained to everyone else."""
    in_guild(interaction)
    if not is_organiser(interaction.user):
        raise NotOrganiser()
    return True
