"""Corrections (纠错) end to end through the stand-in: a member proposes through the form, a
curator approves or rejects on the review message, and `/paper` shows the server's corrected
card at once, after `/catalog reload` of the unchanged listing and after a restart; another
server never sees it."""

from __future__ import annotations

import json

from bot.client.bot import PaperclubBot
from bot.settings import Settings
from discord_standin import Guild, StandIn
from domain.corrections import Field, Target
from domain.paper import Paper
from tests.clocks import FakeClock
from tests.e2e.harness import start_paperclub
from tests.group import People

FIXED = "更准确的中文标题"


async def _card_text(standin: StandIn, guild: Guild | None, paper: Paper, people: People) -> str:
    """Everything `/paper <id>` shows a Chinese reader, as one string."""
    handle = await standin.slash("paper", {"query": paper.id}, guild=guild, user=people.bob,
                                 locale="zh-CN")
    reply = await handle.reply()
    return json.dumps(reply.embeds, ensure_ascii=False)


async def test_an_approved_correction_shows_on_the_card_in_its_server_only(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper], settings: Settings, clock: FakeClock) -> None:
    paper = bundled_papers[0]
    service = bot.services.corrections
    made = await service.propose(guild.id, Target(paper.id, Field.TITLE_ZH), FIXED, "",
                                 people.alice.id)
    assert FIXED not in await _card_text(standin, guild, paper, people)
    await service.decide(guild.id, made.id, approve=True, by=people.bob.id)
    assert FIXED in await _card_text(standin, guild, paper, people)
    by_words = await standin.slash("paper", {"query": paper.title_en}, guild=guild,
                                   user=people.bob, locale="zh-CN")
    assert FIXED in json.dumps((await by_words.reply()).embeds, ensure_ascii=False)
    reload = await standin.slash("catalog reload", guild=guild, user=people.bob)
    assert "30 unchanged" in (await reload.followup()).content
    assert FIXED in await _card_text(standin, guild, paper, people)
    assert FIXED not in await _card_text(standin, None, paper, people)  # a DM: no server
    other = await standin.add_guild(Guild("elsewhere", members=[people.bob]))
    assert FIXED not in await _card_text(standin, other, paper, people)
    await standin.stop_bot(bot)
    restarted = await start_paperclub(standin, settings, clock)
    try:
        assert FIXED in await _card_text(standin, guild, paper, people)
    finally:
        await standin.stop_bot(restarted)
