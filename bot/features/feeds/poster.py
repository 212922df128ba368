"""The Discord side of feeds: the "new in <feed>" post (one embed, nobody pinged) and finding
it again after a restart."""

from __future__ import annotations

from datetime import datetime

import discord

from bot.client.own_posts import find_own_post, send_own_post
from bot.features.feeds.delivery import FeedPost
from bot.features.notifications.notices import guild_lang
from bot.features.papers.card import fit
from bot.features.papers.card_view import CARD_COLOUR, escape
from bot.features.papers.results import titles_in_order
from bot.shared.lang import Lang
from bot.shared.messages import t, tn

MAX_LISTED = 15
"""Titles listed in one post; the rest are counted."""
TITLE_LIMIT = 200
EMBED_TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
TAIL_ROOM = 100
"""Kept free in the description for the "and N more" line."""


def feed_embed(post: FeedPost, lang: Lang) -> discord.Embed:
    """The post: the query as title, one line per paper (linked when arXiv's page is known),
    then how many more; the marker in the footer. Within Discord's embed limits."""
    lines: list[str] = []
    room = DESCRIPTION_LIMIT - TAIL_ROOM
    for paper in post.papers[:MAX_LISTED]:
        title = escape(fit(titles_in_order(paper, lang.chinese, lang)[0], TITLE_LIMIT))
        link = paper.links.url if paper.links.url.startswith("https://") else ""
        shown = f"[{title}]({link})" if link else f"**{title}**"
        line = f"• {shown} (`/paper {paper.id}`)"
        if len(line) + 1 > room:
            break  # whole lines only: a cut would break a link
        lines.append(line)
        room -= len(line) + 1
    more = len(post.papers) - len(lines)
    body = "\n".join(lines) + ("\n" + tn(lang, "feed.post.more", more) if more > 0 else "")
    heading = t(lang, "feed.post.title", query=post.query, n=len(post.papers))
    embed = discord.Embed(title=fit(heading, EMBED_TITLE_LIMIT), description=body,
                          colour=CARD_COLOUR)
    embed.set_footer(text=post.marker)
    return embed


class DiscordFeedPoster:
    """Implements `FeedPoster` with a connected discord.py client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def send(self, post: FeedPost, nonce: str) -> int:
        """Post the list with the nonce; no mentions at all."""
        embed = feed_embed(post, guild_lang(self.client, post.guild_id))
        return await send_own_post(self.client, post.guild_id, post.channel_id, nonce, embed)

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        """Our post of that (feed, poll), if it is out already."""
        return await find_own_post(self.client, channel_id, marker, nonce, since)
