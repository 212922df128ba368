"""`/group`: who organises, who adds papers from arXiv, where corrections are reviewed, the
sessions' time zone, when reminders go out, and prep sheets (Manage Server)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.checks import in_guild, is_organiser
from bot.client.cog_base import AdminGroupCog
from bot.client.cog_host import host_of
from bot.client.respond import respond
from bot.client.tree import UserFacingError, lang_of, permission_name
from bot.features.corrections.views import review_settings_text
from bot.features.digest.plan import resolve_zone, suggest_zones
from bot.features.sessions.plan import parse_offsets
from bot.features.web.service import LinkAction, LinkAnswer
from bot.shared.lang import Lang
from bot.shared.messages import t, tn
from domain.adding import AddPolicy, WhoAdds
from domain.corrections import ReviewSettings

if TYPE_CHECKING:
    pass


@app_commands.default_permissions(manage_guild=True)
class GroupCog(AdminGroupCog, group_name="group",
               group_description="Reading-group settings for this server"):
    """Server settings for sessions, and the group's web page link."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Manage Server, except `/group web`: its link is for any member the server lets use
        it (Discord hides `/group` from others by default); rotate and off for organisers."""
        if interaction.command is not None and interaction.command.name == "web":
            return in_guild(interaction)
        return await super().interaction_check(interaction)

    @app_commands.command(name="web",
                          description="The group's read-only web page: its link "
                                      "(organisers: rotate, off)")
    @app_commands.describe(action="Show the link, make a new one, or turn the page off")
    @app_commands.choices(action=[
        app_commands.Choice(name="Show the link", value="show"),
        app_commands.Choice(name="New link (the old one stops working)", value="rotate"),
        app_commands.Choice(name="Turn the page off", value="off")])
    async def web(self, interaction: discord.Interaction, action: str = "show") -> None:
        """The page's link, to the asker only; organisers rotate it or turn it off."""
        lang = lang_of(interaction)
        if action != "show":
            await is_organiser(interaction, self.services, "organiser.action.web")
        done = await self.services.web.act(interaction.guild_id or 0, LinkAction(action))
        await respond(interaction, web_text(action, done, lang,
                                            served=self.bot.settings.web.enabled),
                      ephemeral=True)

    @app_commands.command(name="organiser-role",
                          description="Members of this role organise votes and sessions")
    @app_commands.describe(role="The organiser role (leave empty: show the one in force)",
                           clear="True: no organiser role, only Manage Server organises")
    async def organiser_role(self, interaction: discord.Interaction,
                             role: discord.Role | None = None, clear: bool = False) -> None:
        """Set the organiser role, or clear it when asked to (`clear:true`); with neither,
        show the role in force and how to change it, changing nothing."""
        lang = lang_of(interaction)
        perm = permission_name("manage_guild", lang)
        guild_id = interaction.guild_id or 0
        if role is not None and clear:
            raise UserFacingError(t(lang, "group.organisers.role_or_clear"))
        current = await self.services.group.organiser_role(
            guild_id, role.id if role else None, clear=clear)
        text = (t(lang, "group.organisers.role", role=f"<@&{current}>", perm=perm)
                if current is not None else t(lang, "group.organisers.default", perm=perm))
        if role is None and not clear:  # asked, not told: how to change it too
            text += "\n" + t(lang, "group.organisers.how")
        await respond(interaction, text, ephemeral=True)

    @app_commands.command(name="adding", description="Who may add papers from arXiv")
    @app_commands.describe(
        who="Everyone, curators (Manage Server or the curator role), or Manage Server",
        curator_role="Members of this role may add papers (leave empty: none)")
    @app_commands.choices(who=[
        app_commands.Choice(name="Everyone", value=WhoAdds.ANYONE.value),
        app_commands.Choice(name="Curators: Manage Server or the curator role",
                            value=WhoAdds.CURATORS.value),
        app_commands.Choice(name="Manage Server only", value=WhoAdds.MANAGERS.value)])
    @app_commands.rename(curator_role="curator-role")
    async def adding(self, interaction: discord.Interaction, who: str,
                     curator_role: discord.Role | None = None) -> None:
        """Set who may add papers (the context menu, `/catalog add`, `/suggest` with a link)."""
        lang = lang_of(interaction)
        policy = await self.services.adding.set_policy(
            interaction.guild_id or 0, WhoAdds(who), curator_role.id if curator_role else None)
        await respond(interaction, policy_text(policy, lang), ephemeral=True)

    @app_commands.command(name="corrections",
                          description="Where proposed corrections are reviewed, and by whom")
    @app_commands.describe(channel="The curators' channel for proposals",
                           role="Members of this role decide too (leave empty: Manage Server)")
    async def corrections(self, interaction: discord.Interaction,
                          channel: discord.TextChannel,
                          role: discord.Role | None = None) -> None:
        """Set the review channel and the curator role."""
        lang = lang_of(interaction)
        settings = ReviewSettings(channel.id, role.id if role else None)
        await self.services.corrections.set_review_settings(interaction.guild_id or 0, settings)
        await respond(interaction, review_settings_text(settings, lang), ephemeral=True)

    @app_commands.command(name="timezone",
                          description="Time zone of the group's sessions")
    @app_commands.describe(timezone="IANA time zone such as Europe/Berlin")
    async def timezone(self, interaction: discord.Interaction,
                       timezone: app_commands.Range[str, 1, 64]) -> None:
        """Save the zone of the sessions (the paper of the day keeps its own, and says so)."""
        lang = lang_of(interaction)
        zone = resolve_zone(timezone)
        guild_id = interaction.guild_id or 0
        digest_zone = await self.services.group.set_timezone(guild_id, zone)
        text = t(lang, "group.timezone.saved", zone=zone.key)
        if digest_zone is not None:
            text += "\n" + t(lang, "group.timezone.digest_own", zone=digest_zone.key)
        await respond(interaction, text, ephemeral=True)

    @timezone.autocomplete("timezone")
    async def timezone_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        """IANA zones matching what is typed."""
        return [app_commands.Choice(name=name, value=name) for name in suggest_zones(current)]

    @app_commands.command(name="reminders", description="When reminders go out before sessions")
    @app_commands.describe(before="Times before each session, such as 24h 1h")
    async def reminders(self, interaction: discord.Interaction,
                        before: app_commands.Range[str, 1, 60]) -> None:
        """Save the reminder offsets."""
        lang = lang_of(interaction)
        offsets = parse_offsets(before)
        await self.services.group.set_reminders(interaction.guild_id or 0, offsets)
        await respond(interaction, t(lang, "group.reminders.saved",
                                     before=offsets_in_words(offsets, lang)), ephemeral=True)

    @app_commands.command(name="prep-sheets",
                          description="Discussion questions in each session's thread a day "
                                      "before")
    @app_commands.describe(enabled="True: post prep sheets; False: no more prep sheets")
    async def prep_sheets(self, interaction: discord.Interaction, enabled: bool) -> None:
        """Turn the prep sheets on or off for this server (on by default where the operator
        has set up `[llm]`)."""
        lang = lang_of(interaction)
        await self.services.group.set_prep_sheets(interaction.guild_id or 0, enabled)
        text = t(lang, "group.prep.on" if enabled else "group.prep.off")
        if enabled and not self.bot.settings.llm.enabled:
            text += "\n" + t(lang, "group.prep.no_llm")
        await respond(interaction, text, ephemeral=True)


def web_text(action: str, done: LinkAnswer, lang: Lang, *, served: bool) -> str:
    """`/group web`'s answer: the link, or that the page is (already) off."""
    if action == LinkAction.OFF:
        return t(lang, "web.turned_off" if done.changed else "web.already_off")
    if done.url is None:
        return t(lang, "web.off")
    text = t(lang, "web.link", url=done.url)
    if action == LinkAction.ROTATE:
        text = t(lang, "web.rotated") + "\n" + text
    return text if served else text + "\n" + t(lang, "calendar.not_served")


def offsets_in_words(offsets: Sequence[int], lang: Lang) -> str:
    """`1 day and 1 hour`: each offset in its one largest whole unit (`90 minutes`, never `1h
    30m`, which reads as two), so that two offsets never read as one."""
    def one(minutes: int) -> str:
        if minutes % (24 * 60) == 0:
            return tn(lang, "offset.days", minutes // (24 * 60))
        if minutes % 60 == 0:
            return tn(lang, "offset.hours", minutes // 60)
        return tn(lang, "offset.minutes", minutes)
    words = [one(minutes) for minutes in offsets]
    if len(words) == 1:
        return words[0]
    return t(lang, "offset.last", rest=t(lang, "offset.separator").join(words[:-1]),
             last=words[-1])


def policy_text(policy: AddPolicy, lang: Lang) -> str:
    """Who may add papers now, in words."""
    perm = permission_name("manage_guild", lang)
    if policy.who is WhoAdds.ANYONE:
        text = t(lang, "adding.policy.anyone")
    elif policy.who is WhoAdds.MANAGERS:
        text = t(lang, "adding.policy.managers", perm=perm)
    elif policy.curator_role_id is None:
        return t(lang, "adding.policy.curators", perm=perm)
    else:
        return t(lang, "adding.policy.curators_role", perm=perm,
                 role=f"<@&{policy.curator_role_id}>")
    if policy.curator_role_id is not None:
        text += "\n" + t(lang, "adding.policy.role_kept", role=f"<@&{policy.curator_role_id}>")
    return text


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(GroupCog(host, host.services))
