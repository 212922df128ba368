"""`/digest`: the server's paper of the day (admins: Manage Server)."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.cog_base import AdminGroupCog
from bot.client.cog_host import host_of
from bot.client.respond import defer_if_unanswered, respond
from bot.client.tree import UserFacingError, lang_of, permission_name
from bot.features.digest.notes import PREVIEW_NOTES, pick_note
from bot.features.digest.plan import parse_local_time, resolve_zone, suggest_zones
from bot.features.papers.card import fit
from bot.features.papers.card_view import CARD_COLOUR, escape, paper_message
from bot.shared.lang import Lang
from bot.shared.messages import refusal_text, render_reason, t, weekday
from bot.shared.noticed import Noticed
from domain.digest import DigestPick, DigestState, LedgerStatus, OutcomeStatus
from domain.reasons import Reason, ReasonCode, text_reason

if TYPE_CHECKING:
    pass

NEEDED_IN_CHANNEL = ("view_channel", "send_messages", "embed_links", "create_public_threads",
                     "send_messages_in_threads", "read_message_history")
STATUS_KEYS = {LedgerStatus.POSTED: "digest.recent.posted",
               LedgerStatus.SKIPPED: "digest.recent.skipped",
               LedgerStatus.FAILED: "digest.recent.failed",
               LedgerStatus.CLAIMED: "digest.recent.claimed"}
CHANNEL_PROBLEMS = {ReasonCode.CHANNEL_MISSING, ReasonCode.NO_ACCESS, ReasonCode.NO_PERMISSION}
"""Failures that another channel (`/digest set`) would fix."""
TRACK_KEYS = {None: "digest.track.any", "main": "digest.track.main",
              "workshop": "digest.track.workshop"}


def _missing_in(channel: discord.abc.GuildChannel, me: discord.Member | None) -> list[str]:
    if me is None:
        return []
    perms = channel.permissions_for(me)
    return [name for name in NEEDED_IN_CHANNEL if not getattr(perms, name)]


def _when(moment: datetime, zone_name: str, lang: Lang) -> str:
    local = moment.astimezone(resolve_zone(zone_name))
    return t(lang, "digest.when", weekday=weekday(lang, local.weekday()),
             date=f"{local:%Y-%m-%d %H:%M}", zone=zone_name,
             relative=discord.utils.format_dt(moment, "R"))


def _reason(lang: Lang, reason: Reason) -> str:
    """A reason in the reader's language, escaped for Discord."""
    return escape(render_reason(lang, reason))


def _pick_state(lang: Lang, falls_back: bool) -> str:
    """`pick:recommended`, and whether the cycle picks meanwhile (no signals yet)."""
    return t(lang, "digest.option.pick_fallback" if falls_back else "digest.option.pick")


def _switch(lang: Lang, on: bool) -> str:
    return t(lang, "digest.status.on" if on else "digest.status.off")


@app_commands.default_permissions(manage_guild=True)
class DigestCog(AdminGroupCog, group_name="digest",
                group_description="The server's paper of the day"):
    """Set up, inspect and trigger the paper of the day."""

    @staticmethod
    def _notice(interaction: discord.Interaction, notices: tuple[Reason, ...]) -> str:
        """A pause the admins had not heard about yet, as a line to put first."""
        lang = lang_of(interaction)
        return "".join(t(lang, "digest.paused_notice", reason=_reason(lang, reason)) + "\n\n"
                       for reason in notices)

    async def _answer(self, interaction: discord.Interaction, noticed: Noticed[Any, Reason],
                      text: str | None, **kwargs: Any) -> None:
        """Send the answer (opening with the pause note, if any), then mark the note given:
        an answer that fails leaves it to a later command."""
        await respond(interaction, text, ephemeral=True, **kwargs)
        await noticed.told()

    async def _refuse(self, interaction: discord.Interaction, noticed: Noticed[Any, Reason],
                      text: str) -> None:
        """A refusal: raised for the tree to answer, unless it carries the pause note (then
        answered here, so that the note is marked given once sent)."""
        if not noticed.notices:
            raise UserFacingError(text)
        await self._answer(interaction, noticed, text)

    @app_commands.command(name="set", description="Post a paper every day at a local time")
    @app_commands.describe(channel="Where to post", time="Local time, HH:MM (24-hour)",
                           timezone="IANA time zone such as Europe/Berlin",
                           thread="Open a discussion thread for each paper",
                           mention_subscribers="Mention members subscribed to the paper's topics",
                           venue="Only main-track or only workshop papers",
                           skip_discussed="Skip papers the group has already discussed",
                           pick="Cycle through the catalog, or the group's recommended paper")
    @app_commands.choices(venue=[app_commands.Choice(name="Main track", value="main"),
                                 app_commands.Choice(name="Workshop", value="workshop"),
                                 app_commands.Choice(name="Any", value="any")],
                          pick=[app_commands.Choice(name="Cycle through the catalog",
                                                    value=DigestPick.CYCLE.value),
                                app_commands.Choice(name="Recommended for the group",
                                                    value=DigestPick.RECOMMENDED.value)])
    async def set_digest(self, interaction: discord.Interaction, channel: discord.TextChannel,
                         time: app_commands.Range[str, 1, 10],
                         timezone: app_commands.Range[str, 1, 64], thread: bool = True,
                         mention_subscribers: bool = True, venue: str = "any",
                         skip_discussed: bool = False, pick: str = DigestPick.CYCLE.value
                         ) -> None:
        """Validate, check the bot's permissions in the channel, and save."""
        lang = lang_of(interaction)
        try:
            at = parse_local_time(time)
            zone = resolve_zone(timezone)
        except ValueError as exc:
            raise UserFacingError(refusal_text(exc, lang)) from None
        missing = _missing_in(channel, channel.guild.me)
        if missing:
            names = ", ".join(permission_name(n, lang) for n in missing)
            raise UserFacingError(t(lang, "digest.cannot_post", channel=channel.mention,
                                    perms=names))
        configured = await self.services.digest.configure(
            channel.guild.id, channel.id, at, zone, thread=thread,
            mention_subscribers=mention_subscribers, track=None if venue == "any" else venue,
            skip_discussed=skip_discussed, pick=DigestPick(pick))
        config, next_at = configured.config, configured.next_post_at
        text = t(lang, "digest.saved", channel=channel.mention, time=config.local_time,
                 zone=zone.key, next=_when(next_at, zone.key, lang))
        if config.pick is DigestPick.RECOMMENDED:
            text += "\n" + _pick_state(lang, configured.falls_back)
        await respond(interaction, text, ephemeral=True)

    @set_digest.autocomplete("timezone")
    async def timezone_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        """IANA zones matching what is typed (popular ones when empty)."""
        return [app_commands.Choice(name=name, value=name) for name in suggest_zones(current)]

    @app_commands.command(name="off", description="Stop the paper of the day")
    async def off(self, interaction: discord.Interaction) -> None:
        """Turn the digest off (settings and history are kept)."""
        stopped = await self.services.digest.switch_off(interaction.guild_id or 0)
        text = t(lang_of(interaction), "digest.off" if stopped.result else "digest.was_off")
        await self._answer(interaction, stopped, self._notice(interaction, stopped.notices) + text)

    @app_commands.command(name="status", description="Channel, time, next post, recent posts")
    async def status(self, interaction: discord.Interaction) -> None:
        """Settings, the next post, and the last posts, skips and failures with reasons."""
        lang = lang_of(interaction)
        noticed = await self.services.digest.overview(interaction.guild_id or 0)
        status, notice = noticed.result, self._notice(interaction, noticed.notices)
        if status is None:
            await self._answer(interaction, noticed, notice + t(lang, "digest.none_yet"))
            return
        config = status.config
        embed = discord.Embed(title=t(lang, "digest.status.title"), colour=CARD_COLOUR)
        state = _switch(lang, config.state is DigestState.ON)
        if config.paused_reason:
            state = t(lang, "digest.status.paused", reason=_reason(lang, config.paused_reason))
        embed.add_field(name=t(lang, "digest.status.state"), value=fit(state, 1024),
                        inline=False)
        embed.add_field(name=t(lang, "digest.status.channel"), value=f"<#{config.channel_id}>")
        embed.add_field(name=t(lang, "digest.status.time"),
                        value=f"{config.local_time} {config.timezone}")
        track = TRACK_KEYS.get(config.track)
        options = [t(lang, "digest.option.thread", state=_switch(lang, config.thread)),
                   t(lang, "digest.option.mentions",
                     state=_switch(lang, config.mention_subscribers)),
                   t(lang, "digest.option.papers",
                     track=t(lang, track) if track else config.track),
                   t(lang, "digest.option.skip_discussed",
                     state=_switch(lang, config.skip_discussed))]
        if config.pick is DigestPick.RECOMMENDED:
            options.append(_pick_state(lang, status.falls_back))
        embed.add_field(name=t(lang, "digest.status.options"), value=", ".join(options))
        if status.next_post_at is not None:
            embed.add_field(name=t(lang, "digest.status.next"),
                            value=_when(status.next_post_at, config.timezone, lang),
                            inline=False)
        lines = []
        for entry in status.recent:
            status_key = STATUS_KEYS.get(entry.status)
            line = f"{entry.local_date} {t(lang, status_key) if status_key else entry.status}"
            if entry.position and entry.status is LedgerStatus.POSTED:
                line += " · " + (t(lang, "digest.recent.recommended")
                                 if entry.pick is DigestPick.RECOMMENDED else
                                 t(lang, "digest.recent.position", position=entry.position,
                                   size=entry.cycle_size))
                if entry.late:
                    line += " · " + t(lang, "digest.recent.late")
            if entry.reason:
                line += f" — {_reason(lang, entry.reason)}"
            lines.append(line)
        embed.add_field(name=t(lang, "digest.status.recent"),
                        value=fit("\n".join(lines) or t(lang, "digest.recent.nothing"), 1024),
                        inline=False)
        await self._answer(interaction, noticed, notice or None, embed=embed)

    @app_commands.command(name="preview", description="The next paper of the day, only to you")
    async def preview(self, interaction: discord.Interaction) -> None:
        """The paper the next post will carry, rendered as it will look."""
        noticed = await self.services.digest.preview_next(interaction.guild_id or 0)
        notice = self._notice(interaction, noticed.notices)
        if noticed.result is None:
            await self._refuse(interaction, noticed,
                               notice + t(lang_of(interaction), "digest.preview.empty"))
            return
        paper, choice, like = noticed.result
        lang = Lang.from_locale(str(interaction.guild_locale))  # as the channel will see it
        note = pick_note(lang, PREVIEW_NOTES, choice.recommended, like, choice.position,
                         choice.cycle_size)
        embed, view = paper_message(paper, lang, note=note)
        await self._answer(interaction, noticed, notice or None, embed=embed,
                           view=self.bot.track(view))

    @app_commands.command(name="now", description="Post today's paper now, if not yet posted")
    async def now(self, interaction: discord.Interaction) -> None:
        """Post today's paper unless it is already out; refused while the digest is off."""
        # deferred before posting, unless a wait for the write lock deferred already
        noticed = await self.services.digest.post_today(
            interaction.guild_id or 0,
            posting=partial(defer_if_unanswered, interaction, ephemeral=True))
        notice = self._notice(interaction, noticed.notices)
        config, outcome = noticed.result.config, noticed.result.outcome
        if outcome is None:
            await self._refuse(interaction, noticed,
                               notice + t(lang_of(interaction), "digest.now.off"))
            return
        where = (f"https://discord.com/channels/{config.guild_id}/{config.channel_id}/"
                 f"{outcome.message_id}" if outcome.message_id else f"<#{config.channel_id}>")
        lang = lang_of(interaction)
        texts = {
            OutcomeStatus.POSTED: t(lang, "digest.now.posted", where=where),
            OutcomeStatus.ALREADY: t(lang, "digest.now.already", where=where),
        }
        text = texts.get(outcome.status) or t(lang, "digest.now.failed", reason=_reason(
            lang, outcome.reason or text_reason(outcome.status)))
        if outcome.reason is not None and outcome.reason.code in CHANNEL_PROBLEMS:
            text += "\n" + t(lang, "digest.now.pick_channel")
        await self._answer(interaction, noticed, notice + text)


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(DigestCog(host, host.services))
