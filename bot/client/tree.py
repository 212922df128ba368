"""One error path for every slash command, and a send that never raises."""

from __future__ import annotations

import logging
import uuid

import discord
from discord import app_commands

from bot.client.replies import safe_send
from bot.core.card import Lang

log = logging.getLogger(__name__)

MESSAGES: dict[str, dict[Lang, str]] = {
    "guild_only": {Lang.EN: "This command works only in a server.",
                   Lang.ZH_HANS: "此命令只能在服务器中使用。",
                   Lang.ZH_HANT: "此命令只能在伺服器中使用。"},
    "owner_only": {Lang.EN: "Only the bot's owner can do that.",
                   Lang.ZH_HANS: "只有机器人所有者可以这样做。",
                   Lang.ZH_HANT: "只有機器人擁有者可以這樣做。"},
    "missing_permissions": {Lang.EN: "You need the {perms} permission for that.",
                            Lang.ZH_HANS: "你需要 {perms} 权限。",
                            Lang.ZH_HANT: "你需要 {perms} 權限。"},
    "cooldown": {Lang.EN: "Slow down a little: try again in {s:.0f} s.",
                 Lang.ZH_HANS: "请稍候 {s:.0f} 秒再试。", Lang.ZH_HANT: "請稍候 {s:.0f} 秒再試。"},
    "unexpected": {Lang.EN: "Something went wrong on our side (error {ref}). Please try again.",
                   Lang.ZH_HANS: "出错了（错误 {ref}），请再试一次。",
                   Lang.ZH_HANT: "出錯了（錯誤 {ref}），請再試一次。"},
}


def message(key: str, lang: Lang, **values: object) -> str:
    """An error message in the reader's language."""
    return MESSAGES[key][lang].format(**values)


def lang_of(interaction: discord.Interaction) -> Lang:
    """The language to answer this interaction in."""
    return Lang.from_locale(str(interaction.locale))


# Discord's UI names where they differ from discord.py's attribute names.
PERMISSION_NAMES = {"manage_guild": "Manage Server", "view_channel": "View Channels",
                    "read_messages": "View Channels"}


def permission_name(attribute: str) -> str:
    """`manage_guild` -> `Manage Server`, as Discord shows it."""
    return PERMISSION_NAMES.get(attribute) or attribute.replace("_", " ").title()


class UserFacingError(app_commands.AppCommandError):
    """An expected failure whose message is safe and useful to show as it is."""


class PaperclubTree(app_commands.CommandTree[discord.Client]):
    """The command tree: every failure is logged with context and answered politely."""

    async def on_error(self, interaction: discord.Interaction,
                       error: app_commands.AppCommandError) -> None:
        """Translate known failures into messages; log and apologise for the rest."""
        lang = lang_of(interaction)
        if isinstance(error, UserFacingError):
            text = str(error)
        elif isinstance(error, app_commands.NoPrivateMessage):
            text = message("guild_only", lang)
        elif isinstance(error, app_commands.MissingPermissions):
            perms = ", ".join(permission_name(p) for p in error.missing_permissions)
            text = message("missing_permissions", lang, perms=perms)
        elif isinstance(error, app_commands.CommandOnCooldown):
            text = message("cooldown", lang, s=error.retry_after)
        elif isinstance(error, app_commands.CheckFailure):
            text = message("owner_only", lang)
        else:
            ref = uuid.uuid4().hex[:8]
            command = interaction.command.qualified_name if interaction.command else "?"
            original = getattr(error, "original", error)
            log.error("command /%s failed (ref %s, guild %s, user %s, data %s)", command, ref,
                      interaction.guild_id, interaction.user.id, interaction.data,
                      exc_info=original)
            text = message("unexpected", lang, ref=ref)
        await safe_send(interaction, text, ephemeral=True)
