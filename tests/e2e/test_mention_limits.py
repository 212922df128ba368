"""Many mention subscribers: the post goes out, and everyone recorded as told was pinged in a
message Discord accepted (at most 100 users and 2,000 characters per message)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.client.bot import PaperclubBot
from discord_standin import Guild, Message, StandIn, User
from domain.subscriptions import Delivery
from tests.e2e.test_subscriptions import _next_paper_topic
from tests.group import People


async def _mention_subscribers(bot: PaperclubBot, guild: Guild, topic: str,
                               count: int) -> set[int]:
    users = [User(f"reader{n}") for n in range(count)]
    for user in users:
        await bot.services.subscriptions.subscribe(guild.id, user.id, topic, Delivery.MENTION)
    return {user.id for user in users}


def _pinged(messages: list[Message]) -> list[int]:
    return [user for message in messages for user in message.pings.users]


@pytest.mark.parametrize(("count", "thread"), [(90, True), (150, True), (250, False)])
async def test_every_member_recorded_as_told_was_pinged(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, count: int,
        thread: bool) -> None:
    topic = await _next_paper_topic(standin, guild, people)
    if not thread:
        config = await bot.services.digest.config(guild.id)
        assert config is not None
        await bot.services.digest.digests.save_config(dataclasses.replace(config, thread=False))
    readers = await _mention_subscribers(bot, guild, topic, count)
    (outcome,) = await bot.services.digest_scheduler.tick()
    assert outcome.status == "posted", outcome.reason
    await bot.background_done()
    papers = guild.channel("papers")
    (post,) = [m for m in standin.messages(papers) if m.embeds]
    where = post.thread if thread else papers
    assert where is not None
    follow_ups = [m for m in standin.messages(where) if m.pings.users and m is not post]
    sent = [post, *follow_ups]
    assert post.pings.users and follow_ups
    pinged = _pinged(sent)
    assert sorted(pinged) == sorted(readers), "each reader pinged exactly once"
    assert all(len(m.pings.users) <= 100 and len(m.content) <= 2000 for m in sent)
    paper_id = (await bot.services.digest.digests.recent(guild.id))[0].paper_id
    told = await bot.services.subscriptions.store.notified(guild.id, paper_id or "")
    assert told == readers
    refused = [r for r in standin.requests("POST", "/channels/") if r.status >= 400]
    assert refused == []
