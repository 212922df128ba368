"""Native polls in the stand-in: what discord.py sends is accepted, every limit answers with
Discord's 400 shape, members vote (gateway events, multiselect respected), voters are listed,
a poll ends at its expiry or early, finalised, with the poll-result system message."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
import pytest
from discord.http import Route

from discord_standin import Guild, Overwrite, Permission, StandIn, check_message, render_message
from tests.discord_standin.testbot import TestBot
from tests.group import People

NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


class Clock:
    """The stand-in's instant, moved by hand."""

    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


def _poll(answers: list[str], hours: float = 24, **extra: Any) -> dict[str, Any]:
    return {"question": {"text": "Which paper?"}, "duration": hours, "layout_type": 1,
            "allow_multiselect": False,
            "answers": [{"poll_media": {"text": a}} for a in answers], **extra}


async def _post(bot: TestBot, channel_id: int, poll: dict[str, Any]) -> Any:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    return await bot.http.request(route, json={"poll": poll})


@pytest.mark.parametrize(("poll", "path", "code"), [
    (_poll([f"paper {n}" for n in range(11)]), ["answers"], "BASE_TYPE_MAX_LENGTH"),
    (_poll(["a" * 56, "b"]), ["answers", "0", "poll_media", "text"], "BASE_TYPE_BAD_LENGTH"),
    (_poll(["a", ""]), ["answers", "1", "poll_media", "text"], "BASE_TYPE_BAD_LENGTH"),
    (_poll([]), ["answers"], "BASE_TYPE_REQUIRED"),
    (_poll(["a", "b"], question={"text": "q" * 301}), ["question", "text"],
     "BASE_TYPE_BAD_LENGTH"),
    (_poll(["a", "b"], hours=769), ["duration"], "NUMBER_TYPE_MAX"),
    (_poll(["a", "b"], hours=0), ["duration"], "NUMBER_TYPE_MIN"),
    (_poll(["a", "b"], hours=1.5), ["duration"], "NUMBER_TYPE_COERCE"),
    (_poll(["a", "b"], layout_type=2), ["layout_type"], "ENUM_TYPE_COERCE"),
])
async def test_every_poll_limit_is_a_form_error(standin: StandIn, bot: TestBot, guild: Guild,
                                                poll: dict[str, Any], path: list[str],
                                                code: str) -> None:
    general = guild.channel("general")
    with pytest.raises(discord.HTTPException) as caught:
        await _post(bot, general.id, poll)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    (request,) = standin.requests("POST", f"/channels/{general.id}/messages")
    assert request.status == 400
    assert standin.messages(general) == []
    assert f"In {'.'.join(['poll', *path])}:" in caught.value.text  # discord.py's flattening
    (error,) = check_message({"poll": poll})
    assert ([str(p) for p in error.path], error.code) == (["poll", *path], code)


async def test_55_characters_and_10_answers_and_768_hours_are_accepted(
        standin: StandIn, bot: TestBot, guild: Guild) -> None:
    general = guild.channel("general")
    data = await _post(bot, general.id, _poll(["a" * 55] + [f"p{n}" for n in range(9)], 768))
    assert len(data["poll"]["answers"]) == 10 and data["poll"]["results"]["answer_counts"] == []


async def test_members_vote_and_the_poll_ends_at_its_expiry_finalised(
        standin: StandIn, bot: TestBot, guild: Guild, people: People) -> None:
    clock = Clock()
    standin.set_clock(clock)
    general = guild.channel("general")
    channel = bot.get_channel(general.id)
    assert isinstance(channel, discord.TextChannel)
    events: list[tuple[str, int, int]] = []

    async def added(raw: discord.RawPollVoteActionEvent) -> None:
        events.append(("add", raw.user_id, raw.answer_id))

    async def removed(raw: discord.RawPollVoteActionEvent) -> None:
        events.append(("remove", raw.user_id, raw.answer_id))

    bot.add_listener(added, "on_raw_poll_vote_add")
    bot.add_listener(removed, "on_raw_poll_vote_remove")
    poll = discord.Poll("Which paper?", timedelta(hours=2))
    for text in ("Grokking", "Distillation", "Ridge"):
        poll.add_answer(text=text)
    sent = await channel.send(poll=poll)  # discord.py's own body (duration 2.0) is accepted
    assert sent.poll is not None and sent.poll.expires_at == NOW + timedelta(hours=2)
    message = standin.message(sent.id)
    await standin.poll_vote(message, people.alice, 1)
    await standin.poll_vote(message, people.bob, 2)
    await standin.poll_vote(message, people.carol, 2)
    await standin.poll_vote(message, people.alice, 2)  # alice changes her mind
    with pytest.raises(ValueError, match="one answer"):
        await standin.poll_vote(message, people.bob, 1, 3)
    await _until(lambda: len(events) == 5)
    assert events == [("add", people.alice.id, 1), ("add", people.bob.id, 2),
                      ("add", people.carol.id, 2), ("remove", people.alice.id, 1),
                      ("add", people.alice.id, 2)]
    fetched = await channel.fetch_message(sent.id)
    assert fetched.poll is not None and not fetched.poll.is_finalized()
    answer = fetched.poll.get_answer(2)
    assert answer is not None and answer.vote_count == 3
    assert sorted([u.id async for u in answer.voters()]) == sorted(
        [people.alice.id, people.bob.id, people.carol.id])

    clock.now += timedelta(hours=2)
    ended = await channel.fetch_message(sent.id)  # the request itself finds the poll over
    assert ended.poll is not None and ended.poll.is_finalized()
    assert [a.vote_count for a in ended.poll.answers] == [0, 3, 0]
    shown = render_message(standin.message(sent.id))
    assert "📊 Which paper? (final)" in shown and "  2. Distillation — 3" in shown
    with pytest.raises(ValueError, match="ended"):
        await standin.poll_vote(message, people.bob, 1)
    (result,) = [m for m in standin.messages(general) if m.type == 46]
    assert result.message_reference is not None
    assert result.message_reference["message_id"] == str(sent.id)
    fields = {f["name"]: f["value"] for f in result.embeds[0]["fields"]}
    assert (fields["victor_answer_id"], fields["victor_answer_votes"],
            fields["total_votes"]) == ("2", "3", "3")
    with pytest.raises(discord.HTTPException) as again:
        await ended.end_poll()
    assert again.value.code == 520001
    await standin.end_due_polls()
    assert len([m for m in standin.messages(general) if m.type == 46]) == 1


async def test_a_poll_ended_early_with_a_tie_names_no_victor(
        standin: StandIn, bot: TestBot, guild: Guild, people: People) -> None:
    general = guild.channel("general")
    data = await _post(bot, general.id, _poll(["a", "b"], allow_multiselect=True))
    message = standin.message(int(data["id"]))
    await standin.poll_vote(message, people.alice, 1, 2)
    channel = bot.get_channel(general.id)
    assert isinstance(channel, discord.TextChannel)
    ended = await (await channel.fetch_message(message.id)).end_poll()
    assert ended.poll is not None and ended.poll.is_finalized()
    assert [a.vote_count for a in ended.poll.answers] == [1, 1]
    (result,) = [m for m in standin.messages(general) if m.type == 46]
    names = {f["name"] for f in result.embeds[0]["fields"]}
    assert "victor_answer_id" not in names and "total_votes" in names
    plain = await channel.send("no poll here")
    with pytest.raises(discord.HTTPException) as refused:
        await plain.end_poll()
    assert refused.value.code == 520006


async def _until(check: Any, timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.01)


async def test_a_poll_needs_send_polls(standin: StandIn, bot: TestBot, guild: Guild) -> None:
    general = guild.channel("general")
    general.overwrites.append(Overwrite.for_member(standin.bot_user,
                                                   deny=int(Permission.SEND_POLLS)))
    with pytest.raises(discord.Forbidden) as caught:
        await _post(bot, general.id, _poll(["a", "b"]))
    assert caught.value.code == 50013 and standin.messages(general) == []
