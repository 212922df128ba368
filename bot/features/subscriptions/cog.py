"""`/subscribe`, `/unsubscribe`, `/subscriptions`, `/forget-me`, `/subscriptions-admin`."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.checks import in_guild, manages_guild
from bot.client.cog_host import CogHost, host_of
from bot.client.respond import respond
from bot.client.tree import UserFacingError, lang_of
from bot.features.papers.card import fit
from bot.features.papers.card_view import CARD_COLOUR, escape
from bot.features.papers.results import titles_in_order
from bot.features.subscriptions.service import TopicError
from bot.shared.lang import Lang
from bot.shared.messages import render_reason, t, tn
from domain.group import ErasedKind
from domain.subscriptions import MAX_TOPICS_PER_MEMBER, AddResult, Delivery

if TYPE_CHECKING:
    from bot.bundle import Services

log = logging.getLogger(__name__)

ERASED_COUNT_KEYS = {
    ErasedKind.SUBSCRIPTIONS: "count.subscriptions",
    ErasedKind.NOTIFICATIONS: "count.notifications",
    ErasedKind.BOOKMARKS: "count.bookmarks", ErasedKind.BALLOTS: "count.ballots",
    ErasedKind.SUGGESTIONS: "count.suggestions", ErasedKind.PRESENTATIONS: "count.presentations",
    ErasedKind.FEEDS: "count.feeds",
    ErasedKind.RATINGS: "count.ratings",
    ErasedKind.CORRECTIONS: "count.corrections"}
DELIVERY_KEYS = {Delivery.DM: "delivery.dm", Delivery.MENTION: "delivery.mention"}
KIND_TOPIC, KIND_SIMILAR = "topic", "similar"


def similar_meaning(lang: Lang, threshold: int) -> str:
    """A threshold in words: 90 is "ranks above 90% of the catalog for you"."""
    if threshold >= 100:
        return t(lang, "subs.similar.meaning_all", threshold=threshold)
    if threshold <= 0:
        return t(lang, "subs.similar.meaning_any", threshold=threshold)
    return t(lang, "subs.similar.meaning", threshold=threshold, top=100 - threshold)


def similar_basis(lang: Lang, liked: int) -> str:
    """What the closeness is judged from (nothing yet: say how to start)."""
    return (tn(lang, "subs.similar.basis", liked) if liked
            else t(lang, "subs.similar.no_basis"))


def _papers(lang: Lang, n: int) -> str:
    """`1 paper`, `12 papers`, `1,000+ papers`."""
    return t(lang, "count.papers_many") if n >= 1000 else tn(lang, "count.papers", n)


class SubscriptionsCog(commands.Cog):
    """Members follow topics and hear about matching papers."""

    def __init__(self, bot: CogHost, services: Services) -> None:
        self.bot = bot
        self.services = services

    @app_commands.command(name="subscribe",
                          description="Be told when a paper on a topic comes up")
    @app_commands.describe(topic="Words, an author (author:vardi) or a venue (venue:workshop)",
                           delivery="How to tell you",
                           kind="A topic, or new papers like your bookmarks and 👍",
                           threshold="Papers like yours: how close, 0-100 (default 90)")
    @app_commands.choices(delivery=[
        app_commands.Choice(name="Direct message", value="dm"),
        app_commands.Choice(name="Mention in the paper of the day", value="mention")],
        kind=[app_commands.Choice(name="A topic", value=KIND_TOPIC),
              app_commands.Choice(name="Papers like my bookmarks and 👍", value=KIND_SIMILAR)])
    async def subscribe(self, interaction: discord.Interaction,
                        topic: app_commands.Range[str, 1, 200] | None = None,
                        delivery: str = Delivery.DM.value, kind: str = KIND_TOPIC,
                        threshold: app_commands.Range[int, 0, 100] | None = None) -> None:
        """Add a topic and show what it matches now, or follow papers like the member's."""
        in_guild(interaction)
        lang = lang_of(interaction)
        if kind == KIND_SIMILAR:
            await respond(interaction, await self._follow_similar(interaction, threshold),
                          ephemeral=True)
            return
        if topic is None:
            raise UserFacingError(t(lang, "subs.topic_needed"))
        try:
            done = await self.services.subscriptions.subscribe(
                interaction.guild_id or 0, interaction.user.id, topic, Delivery(delivery))
        except TopicError as exc:
            raise UserFacingError(exc.text(lang)) from None
        shown = escape(done.topic)
        if done.result is AddResult.DUPLICATE:
            text = t(lang, "subs.duplicate", topic=shown)
        elif done.result is AddResult.DELIVERY_CHANGED:
            text = t(lang, "subs.delivery_changed", topic=shown,
                     delivery=t(lang, DELIVERY_KEYS[Delivery(delivery)]))
        elif done.result is AddResult.LIMIT:
            text = t(lang, "subs.limit", limit=MAX_TOPICS_PER_MEMBER)
        else:
            examples = "".join(f"\n• {escape(fit(titles_in_order(p, lang.chinese, lang)[0], 150))}"
                               for p in done.examples)
            text = t(lang, "subs.added_examples" if examples else "subs.added", topic=shown,
                     delivery=t(lang, DELIVERY_KEYS[Delivery(delivery)]),
                     papers=_papers(lang, done.matches)) + examples
            if done.did_you_mean:
                text += "\n" + t(lang, "subs.did_you_mean", s=escape(done.did_you_mean))
            if done.dms_paused:
                text += "\n" + t(lang, "subs.dms_paused_hint")
        await respond(interaction, text, ephemeral=True)

    async def _follow_similar(self, interaction: discord.Interaction,
                              threshold: int | None) -> str:
        """`/subscribe kind:similar`: follow (or change the threshold), said in words."""
        lang = lang_of(interaction)
        try:
            follow, paused = await self.services.subscriptions.follow_similar(
                interaction.guild_id or 0, interaction.user.id, threshold)
        except TopicError as exc:
            raise UserFacingError(exc.text(lang)) from None
        if follow.previous is None:
            text = t(lang, "subs.similar.added", meaning=similar_meaning(lang, follow.threshold))
        elif follow.previous != follow.threshold:
            text = t(lang, "subs.similar.changed", before=follow.previous,
                     meaning=similar_meaning(lang, follow.threshold))
        else:
            text = t(lang, "subs.similar.same", meaning=similar_meaning(lang, follow.threshold))
        text += "\n" + similar_basis(lang, follow.liked)
        if paused:
            text += "\n" + t(lang, "subs.dms_paused_hint")
        return text

    @subscribe.autocomplete("topic")
    async def topic_suggestions(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """Frequent catalog words, authors and workshops that start like what is typed."""
        return [app_commands.Choice(name=fit(n, 100), value=n)
                for n in await self.services.subscriptions.suggest_topics(current)]

    @app_commands.command(name="unsubscribe", description="Stop following a topic")
    @app_commands.describe(topic="One of your topics",
                           kind="A topic, or new papers like your bookmarks and 👍")
    @app_commands.choices(kind=[
        app_commands.Choice(name="A topic", value=KIND_TOPIC),
        app_commands.Choice(name="Papers like my bookmarks and 👍", value=KIND_SIMILAR)])
    async def unsubscribe(self, interaction: discord.Interaction,
                          topic: app_commands.Range[str, 1, 200] | None = None,
                          kind: str = KIND_TOPIC) -> None:
        """Remove one of the member's topics, or their papers like their bookmarks."""
        in_guild(interaction)
        lang = lang_of(interaction)
        if kind == KIND_SIMILAR:
            stopped = await self.services.subscriptions.unfollow_similar(
                interaction.guild_id or 0, interaction.user.id)
            await respond(interaction, t(lang, "subs.similar.removed" if stopped
                                         else "subs.similar.not_following"), ephemeral=True)
            return
        if topic is None:
            raise UserFacingError(t(lang, "subs.topic_needed"))
        removed = await self.services.subscriptions.unsubscribe(
            interaction.guild_id or 0, interaction.user.id, topic)
        text = t(lang, "subs.removed" if removed else "subs.not_following", topic=escape(topic))
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
        lang = lang_of(interaction)
        overview = await self.services.subscriptions.member_overview(
            interaction.guild_id or 0, interaction.user.id, resume_dms=resume_dms)
        lines = []
        if overview.resumed:
            lines.append(t(lang, "subs.dms_resumed"))
        for followed in overview.topics:
            lines.append(t(lang, "subs.line", topic=escape(followed.topic),
                           papers=_papers(lang, followed.matches),
                           delivery=t(lang, DELIVERY_KEYS[followed.delivery])))
        if overview.similar is not None:
            lines.append(t(lang, "subs.similar.line",
                           meaning=similar_meaning(lang, overview.similar.threshold),
                           basis=similar_basis(lang, overview.similar.liked)))
        if not overview.topics and overview.similar is None:
            lines.append(t(lang, "subs.none"))
        if overview.dm_pause:
            lines.append("\n" + t(lang, "subs.dms_paused",
                                   reason=render_reason(lang, overview.dm_pause)))
        await respond(interaction, fit("\n".join(lines), 2000), ephemeral=True)

    @app_commands.command(name="forget-me",
                          description="Delete your subscriptions, bookmarks, votes and more")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        """Everything about the member, in every server; works in a DM; safe to repeat."""
        lang = lang_of(interaction)
        gone = await self.services.forget.forget(interaction.user.id)
        counts = {kind.value: tn(lang, key, gone.get(kind, 0))
                  for kind, key in ERASED_COUNT_KEYS.items()}
        await respond(interaction, t(lang, "subs.forgotten", **counts) + "\n"
                      + t(lang, "group.forgotten", **counts) + "\n"
                      + t(lang, "recommend.forgotten", **counts) + "\n"
                      + t(lang, "corrections.forgotten", **counts), ephemeral=True)

    @app_commands.command(name="subscriptions-admin",
                          description="Topics followed in this server (admins)")
    @app_commands.describe(topic="Show who follows this one topic")
    @app_commands.default_permissions(manage_guild=True)
    async def subscriptions_admin(self, interaction: discord.Interaction,
                                  topic: app_commands.Range[str, 1, 200] | None = None) -> None:
        """Counts per topic; members only for one topic the admin asks about."""
        manages_guild(interaction)
        lang = lang_of(interaction)
        try:
            overview = await self.services.subscriptions.admin_overview(
                interaction.guild_id or 0, topic)
        except TopicError as exc:
            raise UserFacingError(exc.text(lang)) from None
        embed = discord.Embed(title=t(lang, "admin.title"), colour=CARD_COLOUR)
        if topic is None:
            counts = overview.topic_counts
            body = "\n".join(f"{n} × {escape(name)}" for name, n in counts[:50]) or t(
                lang, "admin.empty")
            embed.description = fit(body, 4096)
        else:
            members = overview.followers or ()
            embed.description = fit(f"**{escape(topic)}**: " + (
                " ".join(f"<@{m}>" for m in members) or t(lang, "admin.nobody")), 4096)
        await respond(interaction, embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(SubscriptionsCog(host, host.services))
