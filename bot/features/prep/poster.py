"""The Discord side of prep sheets: one embed in the session's thread (or channel), the
questions escaped and numbered, labelled as generated, its marker last in the footer. It pings
nobody."""

from __future__ import annotations

from datetime import datetime

import discord

from bot.client.own_posts import find_own_post, send_own_post
from bot.features.notifications.notices import guild_lang
from bot.features.papers.card import fit
from bot.features.papers.card_view import CARD_COLOUR, escape
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.paper import Paper
from domain.prep import PrepSheet
from domain.sessions import Session

DESCRIPTION_LIMIT = 4096
FOOTER_LIMIT = 2048


def sheet_embed(paper: Paper, sheet: PrepSheet, mark: str, lang: Lang) -> discord.Embed:
    """The sheet as an embed: the paper's title, the questions numbered, the label and marker."""
    listed = "\n".join(f"{n}. {escape(question)}"
                       for n, question in enumerate(sheet.questions, 1))
    embed = discord.Embed(title=t(lang, "session.prep.title"), colour=CARD_COLOUR,
                          description=fit(t(lang, "session.prep.body",
                                            title=escape(paper.title_en), questions=listed),
                                          DESCRIPTION_LIMIT))
    model = fit(sheet.model, FOOTER_LIMIT // 2)
    embed.set_footer(text=t(lang, "session.prep.footer", model=model, marker=mark))
    return embed


class DiscordPrepPoster:
    """Implements `bot.features.prep.service.PrepPoster` with a connected client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def lang(self, guild_id: int) -> Lang:
        return guild_lang(self.client, guild_id)

    async def post_sheet(self, session: Session, paper: Paper, sheet: PrepSheet,
                         mark: str) -> int:
        embed = sheet_embed(paper, sheet, mark, self.lang(session.guild_id))
        return await send_own_post(self.client, session.guild_id,
                                   session.thread_id or session.channel_id, sheet.nonce, embed)

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        return await find_own_post(self.client, channel_id, marker, nonce, since)
