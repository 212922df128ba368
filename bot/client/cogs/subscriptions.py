"""`/subscribe`, `/unsubscribe`, `/subscriptions`, `/forget-me`, `/subscriptions-admin`."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.checks import in_guild, manages_guild
from bot.client.replies import respond
from bot.client.tree import UserFacingError
from bot.client.ui.cards import CARD_COLOUR, escape
from bot.core.card import fit
from bot.core.reasons import english
from bot.core.subscription_types import MAX_TOPICS_PER_MEMBER, AddResult, Delivery
from bot.services.subscriptions import TopicError

if TYPE_CHECKING:
    from bot.client.bot import PaperclubBot
    from bot.services.bundle import Services

log = logging.getLogger(__name__)

DELIVERY_NAMES = {Delivery.DM: "direct message",
                  Delivery.MENTION: "mention in the paper of the day"}


def _plural(n: int, noun: str) -> str:
    """`1 paper`, `12 papers`."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _papers(n: int) -> str:
    """`1 paper`, `12 papers`, `1,000+ papers`."""
    return "1,000+ papers" if n >= 1000 else _plural(n, "paper")


class SubscriptionsCog(commands.Cog):
    """Members follow topics and hear about matching papers."""

    def __init__(self, bot: PaperclubBot, services: Services) -> None:
        self.bot = bot
        self.services = services

    @app_commands.command(name="subscribe",
                          description="Be told when a paper on a topic comes up")
    @app_commands.describe(topic="Words, an author (author:vardi) or a venue (venue:workshop)",
                           delivery="How to tell you")
    @app_commands.choices(delivery=[
        app_commands.Choice(name="Direct message", value="dm"),
        app_commands.Choice(name="Mention in the paper of the day", value="mention")])
    async def subscribe(self, interaction: discord.Interaction,
                        topic: app_commands.Range[str, 1, 200],
                        delivery: str = Delivery.DM.value) -> None:
        """Add a topic and show what it matches now."""
        in_guild(interaction)
        try:
            done = await self.services.subscriptions.subscribe(
                interaction.guild_id or 0, interaction.user.id, topic, Delivery(delivery))
        except TopicError as exc:
            raise UserFacingError(str(exc)) from None
        shown = escape(done.topic)
        if done.result is AddResult.DUPLICATE:
            text = f"You already follow **{shown}** here."
        elif done.result is AddResult.LIMIT:
            text = (f"You follow {MAX_TOPICS_PER_MEMBER} topics here already; "
                    "`/unsubscribe` one first.")
        else:
            text = (f"Subscribed to **{shown}** ({DELIVERY_NAMES[Delivery(delivery)]}). "
                    f"It matches {_papers(done.matches)} now")
            examples = "".join(f"\n• {escape(fit(p.title_en, 150))}" for p in done.examples)
            text += (", for example:" + examples) if examples else "."
            if done.dms_paused:
                text += ("\nYour DMs are paused (Discord refused one): see `/subscriptions`.")
        await respond(interaction, text, ephemeral=True)

    @subscribe.autocomplete("topic")
    async def topic_suggestions(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """Frequent catalog words, authors and workshops that start like what is typed."""
        return [app_commands.Choice(name=fit(n, 100), value=n)
                for n in await self.services.subscriptions.suggest_topics(current)]

    @app_commands.command(name="unsubscribe", description="Stop following a topic")
    @app_commands.describe(topic="One of your topics")
    async def unsubscribe(self, interaction: discord.Interaction,
                          topic: app_commands.Range[str, 1, 200]) -> None:
        """Remove one of the member's topics."""
        in_guild(interaction)
        removed = await self.services.subscriptions.unsubscribe(
            interaction.guild_id or 0, interaction.user.id, topic)
        text = (f"You no longer follow **{escape(topic)}**." if removed else
                f"You don't follow **{escape(topic)}** here; `/subscriptions` lists your topics.")
        await respond(interaction, text, ephemeral=True)

    @unsubscribe.autocomplete("topic")
    async def own_topics(self, interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
        """The member's own topics in this server."""
        mine = await self.services.subscriptions.own_topics(interaction.guild_id or 0,
                                                   interaction.user.id, current)
        return [app_commands.Choice(name=fit(topic, 100), value=topic) for topic in mine]

    @app_commands.command(name="subscriptions", description="Your topics here, with matches")
    @app_commands.describe(resume_dms="Turn direct messages back on after Discord refused one")
    async def subscriptions(self, interaction: discord.Interaction,
                            resume_dms: bool = False) -> None:
        """The member's topics with current match counts, and DM status."""
        in_guild(interaction)
        overview = await self.services.subscriptions.member_overview(
            interaction.guild_id or 0, interaction.user.id, resume_dms=resume_dms)
        lines = []
        if overview.resumed:
            lines.append("Direct messages are on again.")
        for followed in overview.topics:
            lines.append(f"• **{escape(followed.topic)}** — {_papers(followed.matches)}, "
                         f"{DELIVERY_NAMES[followed.delivery]}")
        if not overview.topics:
            lines.append("You follow no topics here yet: try `/subscribe topic:grokking`.")
        if overview.dm_pause:
            lines.append(f"\n⚠️ Direct messages are paused: {english(overview.dm_pause)}")
        await respond(interaction, fit("\n".join(lines), 2000), ephemeral=True)

    @app_commands.command(name="forget-me",
                          description="Delete all your subscriptions and notification records")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        """Everything about the member, in every server; works in a DM; safe to repeat."""
        gone = await self.services.subscriptions.forget(interaction.user.id)
        await respond(interaction, f"Done: deleted {_plural(gone.subscriptions, 'subscription')}"
                      f" and {_plural(gone.notifications, 'notification record')}, in every "
                      "server.", ephemeral=True)

    @app_commands.command(name="subscriptions-admin",
                          description="Topics followed in this server (admins)")
    @app_commands.describe(topic="Show who follows this one topic")
    @app_commands.default_permissions(manage_guild=True)
    async def subscriptions_admin(self, interaction: discord.Interaction,
                                  topic: app_commands.Range[str, 1, 200] | None = None) -> None:
        """Counts per topic; members only for one topic the admin asks about."""
        manages_guild(interaction)
        try:
            overview = await self.services.subscriptions.admin_overview(
                interaction.guild_id or 0, topic)
        except TopicError as exc:
            raise UserFacingError(str(exc)) from None
        embed = discord.Embed(title="Subscriptions in this server", colour=CARD_COLOUR)
        if topic is None:
            counts = overview.topic_counts
            body = "\n".join(f"{n} × {escape(t)}" for t, n in counts[:50]) or "No topics yet."
            embed.description = fit(body, 4096)
        else:
            members = overview.followers or ()
            embed.description = fit(f"**{escape(topic)}**: " + (
                " ".join(f"<@{m}>" for m in members) or "nobody"), 4096)
        await respond(interaction, embed=embed, ephemeral=True)
