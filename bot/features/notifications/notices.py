"""The texts of notifications: mention lines, new-paper DMs and correction outcomes, within
Discord's limits."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.features.papers.card import fit, generated_label, reader_summary
from bot.features.papers.card_view import escape
from bot.features.papers.results import titles_in_order
from bot.shared.lang import Lang
from bot.shared.mentions import CONTENT_LIMIT, people
from bot.shared.messages import t
from domain.outbox import OutboxEntry, correction_of
from domain.paper import Paper
from domain.subscriptions import similar_standing

MAX_LISTED = 10
SUMMARY_CHARS = 160
"""Characters of a listed paper's summary a new-paper DM shows at most."""


def guild_lang(client: discord.Client, guild_id: int) -> Lang:
    """The server's preferred language: for its channel posts and for DMs about it."""
    guild = client.get_guild(guild_id)
    return Lang.from_locale(str(guild.preferred_locale)) if guild else Lang.EN


def mention_line(user_ids: Sequence[int], topics: Sequence[str], lang: Lang) -> str:
    """`For: @a @b — matched grokking, ridge regression`: every mention kept (a batch from
    `mention_batches` fits), the topics shortened to what is left of 2,000 characters."""
    pinged = people(user_ids)
    room = CONTENT_LIMIT - len(t(lang, "notify.mention", people=pinged, topics=""))
    listed = fit(", ".join(escape(topic) for topic in topics), room)
    return t(lang, "notify.mention", people=pinged, topics=listed)


def pinging(user_ids: Sequence[int]) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly these members (at most 100 of them)."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=user_id) for user_id in user_ids])


def matched(topics: Sequence[str], lang: Lang) -> str:
    """What a paper matched, escaped: the member's topics, and "like your bookmarks" with its
    standing for a paper close to what they liked."""
    shown = []
    for topic in topics:
        standing = similar_standing(topic)
        shown.append(escape(topic) if standing is None
                     else t(lang, "notify.similar", standing=standing))
    return ", ".join(shown)


def correction_outcome(entry: OutboxEntry, guild_name: str, lang: Lang) -> str:
    """A proposer's DM of their correction's decision (`entry.topics` holds the status)."""
    decision = "approved" if entry.topics[:1] == ("approved",) else "rejected"
    return t(lang, f"corrections.outcome.{decision}", id=correction_of(entry.paper_id),
             guild=escape(guild_name))


def new_papers_message(papers: Sequence[tuple[Paper, Sequence[str]]], guild_name: str,
                       lang: Lang) -> str:
    """One DM per load, in the member's language: at most 10 papers listed, each with a short
    summary in that language where there is one (labelled when generated here) as long as the
    message has room, then how many more."""
    only_similar = all(similar_standing(topic) is not None
                       for _, topics in papers for topic in topics)
    lines = [t(lang, "notify.new_papers_similar" if only_similar else "notify.new_papers",
               guild=escape(guild_name))]
    more = t(lang, "notify.more", n=len(papers) - MAX_LISTED) if len(papers) > MAX_LISTED else ""
    listed = papers[:MAX_LISTED]
    for index, (paper, topics) in enumerate(listed):
        title = titles_in_order(paper, lang.chinese, lang)[0]
        lines.append(f"• **{escape(fit(title, 200))}** — {matched(topics, lang)} "
                     f"(`/paper {paper.id}`)")
        summary = _summary_line(paper, lang)
        room = CONTENT_LIMIT - len(more) - 260 * (len(listed) - index - 1)  # titles to come
        if summary and len("\n".join([*lines, summary])) < room:
            lines.append(summary)
    if more:
        lines.append(more)
    return fit("\n".join(lines), CONTENT_LIMIT)


def _summary_line(paper: Paper, lang: Lang) -> str:
    """`> <label>: <summary>` ('' when the paper has none in `lang`)."""
    text, made = reader_summary(paper, lang)
    if not text:
        return ""
    label = f"*{generated_label(made, lang, escape)}*: " if made is not None else ""
    return f"> {label}{escape(fit(text, SUMMARY_CHARS))}"
