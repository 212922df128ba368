"""`/digest`: the server's paper of the day (admins: Manage Server)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.checks import manages_guild
from bot.client.replies import respond
from bot.client.tree import UserFacingError, permission_name
from bot.client.ui.cards import CARD_COLOUR, escape, paper_message
from bot.core.card import Lang, fit
from bot.core.digest_plan import parse_local_time, resolve_zone, suggest_zones
from bot.core.digest_types import DigestConfig, DigestState, LedgerStatus, OutcomeStatus
from bot.core.reasons import english

if TYPE_CHECKING:
    from bot.client.bot import PaperclubBot
    from bot.services.bundle import Services

NEEDED_IN_CHANNEL = ("view_channel", "send_messages", "embed_links", "create_public_threads",
                     "send_messages_in_threads", "read_message_history")
STATUS_WORDS = {LedgerStatus.POSTED: "✅ posted", LedgerStatus.SKIPPED: "⏭️ skipped",
                LedgerStatus.FAILED: "⚠️ failed", LedgerStatus.CLAIMED: "⏳ in progress"}


def _missing_in(channel: discord.abc.GuildChannel, me: discord.Member | None) -> list[str]:
    if me is None:
        return []
    perms = channel.permissions_for(me)
    return [name for name in NEEDED_IN_CHANNEL if not getattr(perms, name)]


def _when(moment: datetime, zone_name: str) -> str:
    local = moment.astimezone(resolve_zone(zone_name))
    return f"{local:%a %Y-%m-%d %H:%M} {zone_name} ({discord.utils.format_dt(moment, 'R')})"


@app_commands.default_permissions(manage_guild=True)
class DigestCog(commands.GroupCog, group_name="digest",
                group_description="The server's paper of the day"):
    """Set up, inspect and trigger the paper of the day."""

    def __init__(self, bot: PaperclubBot, services: Services) -> None:
        self.bot = bot
        self.services = services
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Guild only and Manage Server, checked here as well as by Discord's defaults."""
        return manages_guild(interaction)

    async def _notice(self, interaction: discord.Interaction) -> str:
        """A pause the admins have not heard about yet, as a line to put first."""
        reason = await self.services.digest.pending_notice(interaction.guild_id or 0)
        return f"⚠️ The paper of the day is paused: {escape(english(reason))}. Run `/digest set` " \
               "again once fixed.\n\n" if reason else ""

    @app_commands.command(name="set", description="Post a paper every day at a local time")
    @app_commands.describe(channel="Where to post", time="Local time, HH:MM (24-hour)",
                           timezone="IANA time zone such as Europe/Berlin",
                           thread="Open a discussion thread for each paper",
                           mention_subscribers="Mention members subscribed to the paper's topics",
                           venue="Only main-track or only workshop papers")
    @app_commands.choices(venue=[app_commands.Choice(name="Main track", value="main"),
                                 app_commands.Choice(name="Workshop", value="workshop"),
                                 app_commands.Choice(name="Any", value="any")])
    async def set_digest(self, interaction: discord.Interaction, channel: discord.TextChannel,
                         time: app_commands.Range[str, 1, 10],
                         timezone: app_commands.Range[str, 1, 64], thread: bool = True,
                         mention_subscribers: bool = True, venue: str = "any") -> None:
        """Validate, check the bot's permissions in the channel, and save."""
        try:
            at = parse_local_time(time)
            zone = resolve_zone(timezone)
        except ValueError as exc:
            raise UserFacingError(str(exc)) from None
        missing = _missing_in(channel, channel.guild.me)
        if missing:
            names = ", ".join(permission_name(n) for n in missing)
            raise UserFacingError(
                f"I can't post in {channel.mention}: I'm missing {names}. Give paperclub these "
                "permissions in that channel (or pick another channel) and try again.")
        configured = await self.services.digest.configure(
            channel.guild.id, channel.id, at, zone, thread=thread,
            mention_subscribers=mention_subscribers, track=None if venue == "any" else venue)
        config, next_at = configured.config, configured.next_post_at
        await respond(interaction, f"Paper of the day: {channel.mention} every day at "
                      f"{config.local_time} {zone.key}. Next post: {_when(next_at, zone.key)}.",
                      ephemeral=True)

    @set_digest.autocomplete("timezone")
    async def timezone_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        """IANA zones matching what is typed (popular ones when empty)."""
        return [app_commands.Choice(name=name, value=name) for name in suggest_zones(current)]

    @app_commands.command(name="off", description="Stop the paper of the day")
    async def off(self, interaction: discord.Interaction) -> None:
        """Turn the digest off (settings and history are kept)."""
        notice = await self._notice(interaction)
        stopped = await self.services.digest.disable(interaction.guild_id or 0)
        text = "The paper of the day is off." if stopped else "There was no paper of the day."
        await respond(interaction, notice + text, ephemeral=True)

    @app_commands.command(name="status", description="Channel, time, next post, recent posts")
    async def status(self, interaction: discord.Interaction) -> None:
        """Settings, the next post, and the last posts, skips and failures with reasons."""
        notice = await self._notice(interaction)
        status = await self.services.digest.status(interaction.guild_id or 0)
        if status is None:
            await respond(interaction, notice + "No paper of the day yet: use `/digest set`.",
                          ephemeral=True)
            return
        config = status.config
        embed = discord.Embed(title="Paper of the day", colour=CARD_COLOUR)
        state = "on" if config.state is DigestState.ON else "off"
        if config.paused_reason:
            state = f"paused — {escape(english(config.paused_reason))}"
        embed.add_field(name="State", value=fit(state, 1024), inline=False)
        embed.add_field(name="Channel", value=f"<#{config.channel_id}>")
        embed.add_field(name="Time", value=f"{config.local_time} {config.timezone}")
        options = [f"thread {'on' if config.thread else 'off'}",
                   f"mentions {'on' if config.mention_subscribers else 'off'}",
                   f"papers: {config.track or 'any'}"]
        embed.add_field(name="Options", value=", ".join(options))
        if status.next_post_at is not None:
            embed.add_field(name="Next post", value=_when(status.next_post_at, config.timezone),
                            inline=False)
        lines = []
        for entry in status.recent:
            line = f"{entry.local_date} {STATUS_WORDS.get(entry.status, entry.status)}"
            if entry.position and entry.status is LedgerStatus.POSTED:
                line += f" · {entry.position} of {entry.cycle_size}"
                if entry.late:
                    line += " · late"
            if entry.reason:
                line += f" — {escape(english(entry.reason))}"
            lines.append(line)
        embed.add_field(name="Recent", value=fit("\n".join(lines) or "nothing yet", 1024),
                        inline=False)
        await respond(interaction, notice or None, embed=embed, ephemeral=True)

    @app_commands.command(name="preview", description="The next paper of the day, only to you")
    async def preview(self, interaction: discord.Interaction) -> None:
        """The paper the next post will carry, rendered as it will look."""
        notice = await self._notice(interaction)
        config = await self._config(interaction)
        found = await self.services.digest.preview(config)
        if found is None:
            raise UserFacingError("The catalog has no paper for the paper of the day.")
        paper, choice = found
        note = (f"**Next paper of the day** (preview) · {choice.position} of "
                f"{choice.cycle_size} in this cycle")
        embed, view = paper_message(paper, Lang.from_locale(str(interaction.guild_locale)),
                                    note=note)
        await respond(interaction, notice or None, embed=embed, view=self.bot.track(view),
                      ephemeral=True)

    @app_commands.command(name="now", description="Post today's paper now, if not yet posted")
    async def now(self, interaction: discord.Interaction) -> None:
        """Post today's paper unless it is already out."""
        notice = await self._notice(interaction)
        config = await self._config(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.services.digest.post_now(config)
        where = (f"https://discord.com/channels/{config.guild_id}/{config.channel_id}/"
                 f"{outcome.message_id}" if outcome.message_id else f"<#{config.channel_id}>")
        texts = {
            OutcomeStatus.POSTED: f"Posted today's paper: {where}",
            OutcomeStatus.ALREADY: f"Today's paper is already out: {where}",
        }
        shown = english(outcome.reason) if outcome.reason else outcome.status
        text = texts.get(outcome.status) or f"Could not post: {escape(shown)}"
        await respond(interaction, notice + text, ephemeral=True)

    async def _config(self, interaction: discord.Interaction) -> DigestConfig:
        config = await self.services.digest.config(interaction.guild_id or 0)
        if config is None:
            raise UserFacingError("No paper of the day yet: use `/digest set` first.")
        return config

