"""Every surface shows a server's approved corrections at once, end to end: the paper of the
day (its card, and the subscriber a corrected title now matches, mentioned), `/paper` by an
exact reference, the queue's Markdown export, and another server sees none of it."""

from __future__ import annotations

import json

from bot.client.bot import PaperclubBot
from discord_standin import Guild, StandIn
from domain.corrections import Field, Target
from domain.paper import Paper
from tests.e2e.group_steps import answer, suggest
from tests.group import People

WORD = "zebrafinch"
"""A word no catalog paper has: only the corrected title carries it."""


async def _approve(bot: PaperclubBot, guild: Guild, people: People, target: Target,
                   value: str) -> None:
    service = bot.services.corrections
    made = (await service.propose(guild.id, target, value, "", people.alice.id)).proposal
    assert await service.decide(guild.id, made.id, approve=True, by=people.bob.id)


async def test_the_paper_of_the_day_its_subscribers_and_exports_show_the_correction(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    topic = await answer(standin, "subscribe", {"topic": WORD, "delivery": "mention"},
                         guild=guild, user=people.carol)
    assert "0 papers" in topic.content
    set_up = await standin.slash("digest set", {
        "channel": guild.channel("papers").id, "time": "09:00", "timezone": "Europe/Berlin",
        "thread": False, "mention_subscribers": True}, guild=guild, user=people.bob)
    await set_up.reply()
    config = await bot.services.digest.config(guild.id)
    assert config is not None
    previewed = await bot.services.digest.preview(config)
    assert previewed is not None
    paper: Paper = previewed[0]
    title_en = f"{paper.title_en} ({WORD.title()} edition)"
    await _approve(bot, guild, people, Target(paper.id, Field.TITLE_EN), title_en)
    await _approve(bot, guild, people, Target(paper.id, Field.TITLE_ZH), "改正后的中文标题")
    now = await standin.slash("digest now", guild=guild, user=people.bob)
    assert "Posted today's paper" in (await now.followup()).content
    (post,) = [m for m in standin.messages(guild.channel("papers")) if m.embeds]
    assert WORD.title() in post.embeds[0]["title"]
    assert people.carol.id in post.pings.users  # the corrected title matches her topic
    mine = await answer(standin, "subscriptions", guild=guild, user=people.carol)
    assert "1 paper" in json.dumps([mine.content, mine.embeds])
    # an exact reference (the paper's id) reads the paper once, as this server sees it
    by_id = await answer(standin, "paper", {"query": paper.id}, guild=guild, user=people.bob)
    assert WORD.title() in by_id.embeds[0]["title"]
    zh = await standin.slash("paper", {"query": paper.id}, guild=guild, user=people.bob,
                             locale="zh-CN")
    assert "改正后的中文标题" in json.dumps((await zh.reply()).embeds, ensure_ascii=False)
    await suggest(standin, guild, people.alice, paper.id)
    exported = await answer(standin, "export", {"what": "queue", "format": "markdown"},
                            guild=guild, user=people.alice)
    (attachment,) = exported.attachments
    assert title_en in standin.attachment_data(attachment).decode()
    other = await standin.add_guild(Guild("elsewhere", members=[people.bob]))
    there = await answer(standin, "paper", {"query": paper.id}, guild=other, user=people.bob)
    assert WORD.title() not in there.embeds[0]["title"]
    assert there.embeds[0]["title"] == paper.title_en[:256] or paper.title_en.startswith(
        there.embeds[0]["title"].rstrip("…"))
