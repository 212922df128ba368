"""Checks shared by cogs: guild-only (answered from a DM), Manage Server, organisers, and who
may add papers from arXiv."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.client.tree import UserFacingError, lang_of, permission_name
from bot.shared.messages import t

if TYPE_CHECKING:
    from bot.bundle import Services


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


async def is_organiser(interaction: discord.Interaction, services: Services,
                       action: str | None = None) -> bool:
    """Whether the member organises (Manage Server, or the server's organiser role).

    With `action` (a catalogue key naming what they tried), a non-organiser is refused with a
    message that says who can instead of getting False."""
    in_guild(interaction)
    organisers = await services.group.organisers(interaction.guild_id or 0)
    roles = [role.id for role in getattr(interaction.user, "roles", [])]
    if organisers.include(manage_guild=interaction.permissions.manage_guild, role_ids=roles):
        return True
    if action is None:
        return False
    lang = lang_of(interaction)
    who = permission_name("manage_guild", lang)
    if organisers.role_id is not None:
        who = t(lang, "organiser.who_role", perm=who, role=f"<@&{organisers.role_id}>")
    raise UserFacingError(t(lang, "organiser.only", who=who, action=t(lang, action)))


async def may_add(interaction: discord.Interaction, services: Services) -> None:
    """Pass when the member may add papers from arXiv in this server, else refuse saying who
    can (the server's rule: anyone, Manage Server and the curator role, or Manage Server)."""
    in_guild(interaction)
    policy = await services.adding.policy(interaction.guild_id or 0)
    roles = [role.id for role in getattr(interaction.user, "roles", [])]
    if policy.allows(manage_guild=interaction.permissions.manage_guild, role_ids=roles):
        return
    lang = lang_of(interaction)
    who = permission_name("manage_guild", lang)
    if policy.curators is not None:
        who = t(lang, "adding.who_role", perm=who, role=f"<@&{policy.curators}>")
    raise UserFacingError(t(lang, "adding.only", who=who))
