"""One error path for every slash command, and a send that never raises."""

from __future__ import annotations

import logging
import uuid
from typing import Any

import discord
from discord import app_commands
from discord.utils import escape_markdown, escape_mentions

from bot.client.respond import safe_send
from bot.client.user_input import clean_options
from bot.client.write_wait import WriteWaitDeferral
from bot.features.papers.lookup import PaperChoices
from bot.shared.lang import Lang
from bot.shared.messages import Refusal, t
from domain.storage_faults import DatabaseBusy, StorageError

log = logging.getLogger(__name__)

def lang_of(interaction: discord.Interaction) -> Lang:
    """The language to answer this interaction in."""
    return Lang.from_locale(str(interaction.locale))


def refusal_reply(refusal: Refusal, lang: Lang) -> str:
    """A refusal in `lang`; the papers to pick from, escaped, when a reference was ambiguous."""
    if isinstance(refusal, PaperChoices):
        return refusal.text(lang, lambda text: escape_mentions(escape_markdown(text)))
    return refusal.text(lang)


# Discord's UI names for the permissions paperclub asks for; discord.py's aliases included.
PERMISSION_KEYS = {"manage_guild": "perm.manage_guild", "view_channel": "perm.view_channel",
                   "read_messages": "perm.view_channel", "send_messages": "perm.send_messages",
                   "embed_links": "perm.embed_links",
                   "create_public_threads": "perm.create_public_threads",
                   "send_messages_in_threads": "perm.send_messages_in_threads",
                   "read_message_history": "perm.read_message_history"}


def permission_name(attribute: str, lang: Lang) -> str:
    """`manage_guild` -> `Manage Server`, as Discord shows it in `lang`."""
    key = PERMISSION_KEYS.get(attribute)
    return t(lang, key) if key else attribute.replace("_", " ").title()


class UserFacingError(app_commands.AppCommandError):
    """An expected failure whose message is safe and useful to show as it is."""


class PaperclubTree(app_commands.CommandTree[discord.Client]):
    """The command tree: user text cleaned on the way in; every failure logged with context and
    answered politely.

    A command that has to wait for the database's write lock is deferred first, so its
    answer never misses Discord's 3-second deadline.
    """

    def __init__(self, client: discord.Client, **options: Any) -> None:
        super().__init__(client, **options)
        self._storage_failures: set[str] = set()
        self.write_wait: WriteWaitDeferral | None = None
        """The database's wait hook, armed for each command (set by the bot at wiring)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Runs before every command and autocomplete: clean what the user typed, once, and arm
        the write-wait deferral for a command's task (it runs in its own task)."""
        clean_options(interaction.data)
        if (self.write_wait is not None
                and interaction.type is discord.InteractionType.application_command):
            async def defer() -> None:
                if not interaction.response.is_done():
                    await interaction.response.defer(ephemeral=True, thinking=True)

            self.write_wait.arm(defer)
        return True

    def _log_storage_failure(self, error: StorageError) -> None:
        """Each distinct storage failure is logged once at ERROR with its cause."""
        cause = str(error)
        level = logging.DEBUG if cause in self._storage_failures else logging.ERROR
        self._storage_failures.add(cause)
        log.log(level, "storage failure: %s", cause)

    async def on_error(self, interaction: discord.Interaction,
                       error: app_commands.AppCommandError) -> None:
        """Translate known failures into messages; log and apologise for the rest."""
        lang = lang_of(interaction)
        original = getattr(error, "original", error)
        if isinstance(error, UserFacingError):
            text = str(error)
        elif isinstance(original, Refusal):  # the core's user-safe refusals, in their language
            text = refusal_reply(original, lang)
        elif isinstance(error, app_commands.NoPrivateMessage):
            text = t(lang, "error.guild_only")
        elif isinstance(error, app_commands.MissingPermissions):
            perms = ", ".join(permission_name(p, lang) for p in error.missing_permissions)
            text = t(lang, "error.missing_permissions", perms=perms)
        elif (isinstance(error, app_commands.TransformerError)
              and error.type is discord.AppCommandOptionType.channel):
            text = t(lang, "error.foreign_channel")  # not one of this server's channels
        elif (isinstance(error, app_commands.TransformerError)
              and error.type in (discord.AppCommandOptionType.user,
                                 discord.AppCommandOptionType.mentionable)):
            text = t(lang, "error.foreign_member")  # a `discord.Member` not in this server
        elif isinstance(error, app_commands.CommandOnCooldown):
            text = t(lang, "error.cooldown", s=error.retry_after)
        elif isinstance(error, app_commands.CheckFailure):
            text = t(lang, "error.owner_only")
        elif isinstance(original, DatabaseBusy):
            text = t(lang, "error.catalog_reloading")
        elif isinstance(original, StorageError):
            self._log_storage_failure(original)
            text = t(lang, "error.cannot_save")
        else:
            ref = uuid.uuid4().hex[:8]
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("command /%s failed (ref %s, guild %s, user %s, data %s)", command, ref,
                      interaction.guild_id, interaction.user.id, interaction.data,
                      exc_info=original)
            text = t(lang, "error.unexpected", ref=ref)
        await safe_send(interaction, text, ephemeral=True)
