"""One error path for every slash command, and a send that never raises."""

from __future__ import annotations

import logging
import uuid
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.utils import escape_markdown, escape_mentions
from discord.webhook.async_ import async_context

from bot.client.respond import defer_if_unanswered, safe_send
from bot.client.user_input import clean_options
from bot.client.write_wait import WriteWaitDeferral
from bot.features.papers.lookup import PaperChoices
from bot.ops.interactions import InteractionTimer
from bot.ops.logs import CommandContext, clipped, command_context
from bot.shared.lang import Lang
from bot.shared.member_langs import MemberLangs
from bot.shared.messages import Refusal, t
from domain.storage_faults import DatabaseBusy, StorageError

log = logging.getLogger(__name__)

def lang_of(interaction: discord.Interaction) -> Lang:
    """The language to answer this interaction in."""
    return Lang.from_locale(str(interaction.locale))


def member_langs(client: discord.Client) -> MemberLangs | None:
    """The languages the bot's command tree has seen members use (None: not paperclub's)."""
    langs = getattr(getattr(client, "tree", None), "member_langs", None)
    return langs if isinstance(langs, MemberLangs) else None


def note_lang(interaction: discord.Interaction) -> None:
    """Remember the language of a member's interaction (a form sent, a command run)."""
    langs = member_langs(interaction.client)
    if langs is not None:
        langs.saw(interaction.user.id, lang_of(interaction))


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


def outcome_of(error: app_commands.AppCommandError) -> str:
    """A failed command's outcome label: `busy`, `storage_error`, `error` (unexpected) or
    `refused` (the member was told why: a check, a refusal, bad input)."""
    original = getattr(error, "original", error)
    if isinstance(original, DatabaseBusy):
        return "busy"
    if isinstance(original, StorageError):
        return "storage_error"
    if isinstance(error, app_commands.CommandInvokeError) and not isinstance(
            original, Refusal):
        return "error"
    return "refused"


class PaperclubTree(app_commands.CommandTree[discord.Client]):
    """The command tree: user text cleaned on the way in; every failure logged with context and
    answered politely.

    A command that has to wait for the database's write lock is deferred first, so its
    answer never misses Discord's 3-second deadline.
    """

    def __init__(self, client: discord.Client, **options: Any) -> None:
        super().__init__(client, **options)
        self._storage_failures: set[str] = set()
        self.member_langs = MemberLangs()
        """What each member's client last showed (a DM they did not ask for uses it)."""
        self.write_wait: WriteWaitDeferral | None = None
        """The database's wait hook, armed for each command (set by the bot at wiring)."""
        self.timer: InteractionTimer | None = None
        """Times each command to its first response, for the metrics (set by the bot)."""
        self._outcomes: dict[int, str] = {}

    async def _call(self, interaction: discord.Interaction) -> None:
        """Run a command (discord.py's dispatch), timed from arrival to first response."""
        command_context(CommandContext(
            command=interaction.command.qualified_name if interaction.command else None,
            server_id=interaction.guild_id,
            shard=self.client.shard_id if self.client.shard_id is not None else (
                interaction.guild.shard_id if interaction.guild else None)))
        timer = self.timer
        if timer is None or interaction.type is not discord.InteractionType.application_command:
            await super()._call(interaction)
            return
        timer.received(interaction.id)  # its first response is seen by the adapter
        async_context.set(timer.adapter)  # for this command's task only
        outcome = "error"
        try:
            await super()._call(interaction)
            outcome = self._outcomes.get(interaction.id, "ok")
        finally:
            self._outcomes.pop(interaction.id, None)
            command = interaction.command.qualified_name if interaction.command else "unknown"
            timer.finished(interaction.id, command, outcome)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Runs before every command and autocomplete: clean what the user typed, once, and arm
        the write-wait deferral for a command's task (it runs in its own task)."""
        clean_options(interaction.data)
        note_lang(interaction)
        if (self.write_wait is not None
                and interaction.type is discord.InteractionType.application_command):
            self.write_wait.arm(partial(defer_if_unanswered, interaction, ephemeral=True))
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
        if self.timer is not None:  # `_call` takes it when the command ends
            self._outcomes[interaction.id] = outcome_of(error)
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
        elif isinstance(original, discord.Forbidden):  # a member's or organiser's setting
            text = t(lang, "error.discord_forbidden")
        elif isinstance(original, discord.NotFound):  # deleted in Discord meanwhile
            text = t(lang, "error.discord_gone")
        elif isinstance(original, DatabaseBusy):
            text = t(lang, "error.catalog_reloading")
        elif isinstance(original, StorageError):
            self._log_storage_failure(original)
            text = t(lang, "error.cannot_save")
        else:
            ref = uuid.uuid4().hex[:8]
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("command /%s failed (ref %s, guild %s, user %s, data %s)", command, ref,
                      interaction.guild_id, interaction.user.id, clipped(interaction.data),
                      exc_info=original)
            text = t(lang, "error.unexpected", ref=ref)
        await safe_send(interaction, text, ephemeral=True)
