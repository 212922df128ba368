"""`/subscribe`, `/unsubscribe`, `/subscriptions`, `/forget-me`, `/subscriptions-admin`."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.checks import in_guild, manages_guild
from bot.client.replies import respond
from bot.client.tree import UserFacingError, lang_of
from bot.client.ui.cards import CARD_COLOUR, escape
from bot.core.card import fit
from bot.core.lang import Lang
from bot.core.messages import render_reason, t, tn
from bot.core.query import QueryError, parse_query
from bot.core.reasons import Reason
from bot.core.results import titles_in_order
from bot.services.subscriptions import MAX_TOPIC_CHARS, TopicError, checked_topic
from storage.subscriptions import MAX_TOPICS_PER_MEMBER, AddResult

if TYPE_CHECKING:
    from bot.client.bot import PaperclubBot

log = logging.getLogger(__name__)

DELIVERY_KEYS = {"dm": "delivery.dm", "mention": "delivery.mention"}
CHOICE_LIMIT = 25


def _papers(lang: Lang, n: int) -> str:
    """`1 paper`, `12 papers`, `1,000+ papers`."""
    return t(lang, "count.papers_many") if n >= 1000 else tn(lang, "count.papers", n)


class SubscriptionsCog(commands.Cog):
    """Members follow topics and hear about matching papers."""

    def __init__(self, bot: PaperclubBot) -> None:
        self.bot = bot

    @app_commands.command(name="subscribe",
                          description="Be told when a paper on a topic comes up")
    @app_commands.describe(topic="Words, an author (author:vardi) or a venue (venue:workshop)",
                           delivery="How to tell you")
    @app_commands.choices(delivery=[
        app_commands.Choice(name="Direct message", value="dm"),
        app_commands.Choice(name="Mention in the paper of the day", value="mention")])
    async def subscribe(self, interaction: discord.Interaction,
                        topic: app_commands.Range[str, 1, 200], delivery: str = "dm") -> None:
        """Add a topic and show what it matches now."""
        in_guild(interaction)
        lang = lang_of(interaction)
        try:
            done = await self.bot.subscriptions.subscribe(
                interaction.guild_id or 0, interaction.user.id, topic, delivery)
        except TopicError as exc:
            raise UserFacingError(str(exc)) from None
        shown = escape(done.topic)
        if done.result is AddResult.DUPLICATE:
            text = t(lang, "subs.duplicate", topic=shown)
        elif done.result is AddResult.LIMIT:
            text = t(lang, "subs.limit", limit=MAX_TOPICS_PER_MEMBER)
        else:
            examples = "".join(f"\n• {escape(fit(titles_in_order(p, lang.chinese)[0], 150))}"
                               for p in done.examples)
            text = t(lang, "subs.added_examples" if examples else "subs.added", topic=shown,
                     delivery=t(lang, DELIVERY_KEYS[delivery]),
                     papers=_papers(lang, done.matches)) + examples
            if delivery == "dm" and await self.bot.subscription_store.dm_pause(
                    interaction.user.id):
                text += "\n" + t(lang, "subs.dms_paused_hint")
        await respond(interaction, text, ephemeral=True)

    @subscribe.autocomplete("topic")
    async def topic_suggestions(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """Frequent catalog words, authors and workshops that start like what is typed."""
        text = current.strip()
        if not text or len(text) > MAX_TOPIC_CHARS:
            return []
        names: list[str] = [text]
        word = text.split()[-1].casefold()
        vocabulary = await self.bot.search.vocabulary()
        names += vocabulary.completions(word, limit=10)
        try:
            hits = await self.bot.papers.search(parse_query(f"author:{word}"), limit=10)
        except QueryError:
            hits = []
        for hit in hits:
            names += [f"author:{author.split()[-1]}" for author in hit.paper.authors
                      if word in author.casefold()]
        names += [f'venue:"{w}"' for w in await self.bot.papers.workshop_names(word)]
        unique = list(dict.fromkeys(n for n in names if len(n) <= MAX_TOPIC_CHARS))
        return [app_commands.Choice(name=fit(n, 100), value=n)
                for n in unique[:CHOICE_LIMIT]]

    @app_commands.command(name="unsubscribe", description="Stop following a topic")
    @app_commands.describe(topic="One of your topics")
    async def unsubscribe(self, interaction: discord.Interaction,
                          topic: app_commands.Range[str, 1, 200]) -> None:
        """Remove one of the member's topics."""
        in_guild(interaction)
        lang = lang_of(interaction)
        removed = await self.bot.subscriptions.unsubscribe(
            interaction.guild_id or 0, interaction.user.id, topic)
        text = t(lang, "subs.removed" if removed else "subs.not_following", topic=escape(topic))
        await respond(interaction, text, ephemeral=True)

    @unsubscribe.autocomplete("topic")
    async def own_topics(self, interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
        """The member's own topics in this server."""
        mine = await self.bot.subscription_store.of_member(interaction.guild_id or 0,
                                                           interaction.user.id)
        typed = current.casefold()
        return [app_commands.Choice(name=fit(s.topic, 100), value=s.topic)
                for s in mine if typed in s.topic.casefold()][:CHOICE_LIMIT]

    @app_commands.command(name="subscriptions", description="Your topics here, with matches")
    @app_commands.describe(resume_dms="Turn direct messages back on after Discord refused one")
    async def subscriptions(self, interaction: discord.Interaction,
                            resume_dms: bool = False) -> None:
        """The member's topics with current match counts, and DM status."""
        in_guild(interaction)
        lang = lang_of(interaction)
        store = self.bot.subscription_store
        lines = []
        if resume_dms and await store.resume_dms(interaction.user.id):
            lines.append(t(lang, "subs.dms_resumed"))
        mine = await store.of_member(interaction.guild_id or 0, interaction.user.id)
        for subscription in mine:
            matches, _ = await self.bot.subscriptions.count_matches(subscription.topic)
            lines.append(t(lang, "subs.line", topic=escape(subscription.topic),
                           papers=_papers(lang, matches),
                           delivery=t(lang, DELIVERY_KEYS[subscription.delivery])))
        if not mine:
            lines.append(t(lang, "subs.none"))
        reason = await store.dm_pause(interaction.user.id)
        if reason:
            lines.append("\n" + t(lang, "subs.dms_paused",
                                   reason=render_reason(lang, Reason.decode(reason))))
        await respond(interaction, fit("\n".join(lines), 2000), ephemeral=True)

    @app_commands.command(name="forget-me",
                          description="Delete all your subscriptions and notification records")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        """Everything about the member, in every server; works in a DM; safe to repeat."""
        lang = lang_of(interaction)
        gone = await self.bot.subscription_store.forget(interaction.user.id)
        await respond(interaction, t(
            lang, "subs.forgotten", subscriptions=tn(lang, "count.subscriptions",
                                                     gone.subscriptions),
            notifications=tn(lang, "count.notifications", gone.notifications)), ephemeral=True)

    @app_commands.command(name="subscriptions-admin",
                          description="Topics followed in this server (admins)")
    @app_commands.describe(topic="Show who follows this one topic")
    @app_commands.default_permissions(manage_guild=True)
    async def subscriptions_admin(self, interaction: discord.Interaction,
                                  topic: app_commands.Range[str, 1, 200] | None = None) -> None:
        """Counts per topic; members only for one topic the admin asks about."""
        manages_guild(interaction)
        lang = lang_of(interaction)
        guild_id = interaction.guild_id or 0
        store = self.bot.subscription_store
        embed = discord.Embed(title=t(lang, "admin.title"), colour=CARD_COLOUR)
        if topic is None:
            counts = await store.topic_counts(guild_id)
            body = "\n".join(f"{n} × {escape(name)}" for name, n in counts[:50]) or t(
                lang, "admin.empty")
            embed.description = fit(body, 4096)
        else:
            try:
                _, key = checked_topic(topic)
            except TopicError as exc:
                raise UserFacingError(str(exc)) from None
            members = await store.followers(guild_id, key)
            embed.description = fit(f"**{escape(topic)}**: " + (
                " ".join(f"<@{m}>" for m in members) or t(lang, "admin.nobody")), 4096)
        await respond(interaction, embed=embed, ephemeral=True)
