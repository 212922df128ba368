"""👍 / 👎 and "More like this" on paper cards, persistent across restarts.

Each button is a `DynamicItem` whose custom id names the paper and the action
(`paperclub:rate:<paper>:<up|down|more>`); the extension registers the class, so clicks on a
card posted before a restart still arrive, with no per-message state in memory.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord.utils import escape_markdown, escape_mentions

from bot.client.cog_host import host_of
from bot.client.tree import lang_of
from bot.features.papers.card import DESCRIPTION_LIMIT, fit
from bot.features.papers.results import titles_in_order
from bot.features.recommend.reasons import paper_title, reason
from bot.features.recommend.service import Recommended
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.paper import Paper
from domain.recommend import Verdict

MORE = "more"
SIMILAR_COUNT = 5
LABELS = {Verdict.UP.value: "👍", Verdict.DOWN.value: "👎", MORE: "🔎"}
LIST_COLOUR = discord.Colour.from_rgb(88, 101, 242)


def _inert(text: str) -> str:
    return escape_mentions(escape_markdown(text))


def picks_text(found: list[Recommended], lang: Lang) -> str:
    """Numbered titles with their reasons, cut to an embed's description."""
    lines = [f"**{i}.** {_inert(paper_title(r, lang))} `{r.paper.id}`\n{reason(r, lang)}"
             for i, r in enumerate(found, 1)]
    return fit("\n".join(lines), DESCRIPTION_LIMIT)


class FeedbackButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                     template=r"paperclub:rate:(?P<paper>[0-9a-f]{16}):(?P<action>up|down|more)"):
    """👍 "more like this", 👎 "not for me", or 🔎 the nearest papers, for the clicker only."""

    def __init__(self, paper_id: str, action: str, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            emoji=LABELS[action], label=label or None, style=discord.ButtonStyle.secondary,
            custom_id=f"paperclub:rate:{paper_id}:{action}"))
        self.paper_id = paper_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> FeedbackButton:
        """Rebuild the button from its custom id (also after a restart)."""
        return cls(match["paper"], match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Record the verdict, or list the nearest papers; the answer is only for the clicker."""
        services = host_of(interaction.client).services
        lang = lang_of(interaction)
        if self.action == MORE:
            found = await services.recommend.similar(self.paper_id, SIMILAR_COUNT,
                                                     interaction.guild_id)
            paper = await services.search.paper(self.paper_id, interaction.guild_id)
            if not found or paper is None:
                await interaction.response.send_message(t(lang, "recommend.similar.none"),
                                                        ephemeral=True)
                return
            title = _inert(fit(reader_title(paper, lang), 200))
            embed = discord.Embed(title=fit(t(lang, "recommend.similar.title", title=title),
                                            256),
                                  description=picks_text(found, lang), colour=LIST_COLOUR)
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        if interaction.guild_id is None:
            await interaction.response.send_message(t(lang, "recommend.in_server"),
                                                    ephemeral=True)
            return
        verdict = Verdict(self.action)
        changed = await services.recommend.rate(interaction.guild_id, interaction.user.id,
                                                self.paper_id, verdict)
        paper = await services.search.paper(self.paper_id, guild_id=interaction.guild_id)
        title = _inert(reader_title(paper, lang)) if paper else self.paper_id
        said = "recommend.rated.up" if verdict.value == "up" else "recommend.rated.down"
        key = said if changed else "recommend.rated.same"
        await interaction.response.send_message(t(lang, key, title=fit(title, 200)),
                                                ephemeral=True)


def reader_title(paper: Paper, lang: Lang) -> str:
    """The paper's title as the reader reads titles (Chinese, in Traditional for zh-TW)."""
    return titles_in_order(paper, lang.chinese, lang)[0]


def feedback_buttons(paper_id: str, lang: Lang) -> list[discord.ui.Item[Any]]:
    """The card's 👍, 👎 and "More like this" buttons."""
    return [FeedbackButton(paper_id, Verdict.UP.value),
            FeedbackButton(paper_id, Verdict.DOWN.value),
            FeedbackButton(paper_id, MORE, t(lang, "recommend.more_like"))]
