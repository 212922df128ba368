"""Channel messages, threads and DMs the bot sends by itself, and their permissions."""

from __future__ import annotations

import io

import aiohttp
import discord
import pytest

from discord_standin import Fault, Guild, MessageFlag, Overwrite, Permission, StandIn
from tests.clocks import Ticker
from tests.discord_standin.testbot import TestBot
from tests.group import People


async def test_channel_post_thread_and_nonce_dedupe(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    general = guild.channel("general")
    # The first post takes effect but its answer is lost (500): discord.py retries the same
    # nonce with enforce_nonce, and the stand-in answers with the message it already has.
    standin.fail(
        "POST", f"/channels/{general.id}/messages", Fault.server_error(500), after_processing=True
    )
    handle = await standin.slash("announce", {"title": "Grokking"}, guild=guild)
    callback = await handle.response(timeout=10)
    [post] = standin.messages(general)[:1]
    assert callback.content == f"posted {post.id}"
    assert [m.content for m in standin.messages(general)] == ["New paper: Grokking"]
    posts = standin.requests("POST", str(general.id), route="/channels/{channel_id}/messages")
    assert [r.status for r in posts] == [500, 200]
    assert (
        posts[0].json["nonce"] == posts[1].json["nonce"] and posts[0].json["enforce_nonce"] is True
    )
    thread = guild.channel("Grokking")
    assert thread.is_thread and thread.id == post.id and thread.parent_id == general.id
    assert post.flags & MessageFlag.HAS_THREAD
    assert [m.content for m in standin.messages(thread)] == ["Discuss here"]


async def test_missing_permissions_surfaces_as_forbidden(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    standin.fail("POST", "/channels/*/messages", Fault.missing_permissions())
    handle = await standin.slash("announce", {"title": "Attention"}, guild=guild)
    assert (await handle.reply()).content == "failed: 50013"
    [error] = bot.errors
    assert isinstance(error, discord.Forbidden) and error.status == 403


async def test_dm_to_closed_user_is_forbidden_50007(
    standin: StandIn, bot: TestBot, guild: Guild, people: People
) -> None:
    handle = await standin.slash("poke", {"member": people.carol}, guild=guild, user=people.alice)
    assert (await handle.reply()).content == "cannot DM carol"
    [error] = bot.errors
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    dm = standin.dm_channel(people.carol)
    assert [r.status for r in standin.requests("POST", f"/channels/{dm.id}/messages")] == [403]
    assert standin.requests("POST", "/users/@me/channels")[0].json == {
        "recipient_id": people.carol.id
    }

    ok = await standin.slash("poke", {"member": people.bob}, guild=guild, user=people.alice)
    assert (await ok.reply()).content == "poked bob"
    assert [m.content for m in standin.messages(standin.dm_channel(people.bob))] == ["poke!"]


async def test_channel_message_fetch_edit_delete(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    general = guild.channel("general")
    channel = bot.get_channel(general.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("draft")
    fetched = await channel.fetch_message(sent.id)
    assert fetched.content == "draft"
    await fetched.edit(content="final")
    assert standin.message(sent.id).content == "final" and standin.message(sent.id).edits == 1
    await fetched.delete()
    assert standin.messages(general) == []
    upload = await channel.send("notes", file=discord.File(io.BytesIO(b"abc"), "notes.txt"))
    assert [a.filename for a in upload.attachments] == ["notes.txt"] and upload.attachments[
        0
    ].size == 3
    assert standin.requests("POST", str(general.id))[-1].files == ["notes.txt"]
    standin.fail("GET", f"/channels/{general.id}", Fault.unknown_channel())
    with pytest.raises(discord.NotFound) as lost:
        await bot.fetch_channel(general.id)
    assert lost.value.code == 10003
    assert (await bot.fetch_channel(general.id)).id == general.id


async def test_channel_overwrites_deny_the_bot(
    standin: StandIn, bot: TestBot, guild: Guild, people: People
) -> None:
    papers = guild.channel("papers")
    papers.overwrites.append(Overwrite.for_role(guild.everyone, deny=Permission.SEND_MESSAGES))
    handle = await standin.slash("announce", {"title": "Closed"}, channel=papers, user=people.alice)
    assert (await handle.reply()).content == "failed: 50013"
    assert standin.messages(papers) == []


async def test_history_pages_forward_from_a_point_as_discord_does(
    standin: StandIn, bot: TestBot, guild: Guild, people: People
) -> None:
    general = guild.channel("general")
    said = [await standin.say(general, people.alice, f"message {i}") for i in range(230)]
    channel = bot.get_partial_messageable(general.id)
    after = discord.Object(id=said[10].id)
    # discord.py asks for the 100 oldest messages after the point (listed newest first), then
    # pages on from the newest of them: every message is seen once, in order.
    seen = [m.id async for m in channel.history(limit=None, after=after, oldest_first=True)]
    assert seen == [m.id for m in said[11:]]
    pages = standin.requests("GET", f"/channels/{general.id}/messages")
    assert [r.query["limit"] for r in pages] == ["100", "100", "100"]
    newest = [m.id async for m in channel.history(limit=3)]
    assert newest == [m.id for m in reversed(said[-3:])]
    point = discord.Object(id=said[200].id)
    before = [m.id async for m in channel.history(limit=150, before=point)]
    assert before == [m.id for m in reversed(said[50:200])]


async def test_history_limit_is_1_to_100(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    general = guild.channel("general")
    for limit in (0, 101):
        with pytest.raises(discord.HTTPException) as refused:
            await bot.http.logs_from(general.id, limit)
        assert (refused.value.status, refused.value.code) == (400, 50035)


async def test_a_nonce_is_remembered_only_for_the_window(
    guild: Guild, http: aiohttp.ClientSession
) -> None:
    ticker = Ticker()
    async with StandIn(guilds=[guild], token="x", nonce_window=300, clock=ticker) as standin:
        general = guild.channel("general")
        url = f"{standin.rest_base}/channels/{general.id}/messages"
        body = {"content": "paper", "nonce": "n-1", "enforce_nonce": True}

        async def send() -> str:
            async with http.post(url, json=body, headers={"Authorization": "Bot x"}) as answer:
                assert answer.status == 200
                return str((await answer.json())["id"])

        first = await send()
        ticker.advance(299)
        assert await send() == first
        ticker.advance(2)
        second = await send()
        assert second != first
        assert [str(m.id) for m in standin.messages(general)] == [first, second]


async def test_over_100_allowed_mentions_refuse_the_whole_message(
    standin: StandIn, bot: TestBot, guild: Guild, people: People
) -> None:
    """Discord answers 400/50035 for 101 ids in ``allowed_mentions.users`` (or roles): the
    message is not created at all."""
    general = guild.channel("general")
    channel = bot.get_partial_messageable(general.id)
    ids = [discord.Object(id=1000 + n) for n in range(101)]
    for allowed in (discord.AllowedMentions(users=ids), discord.AllowedMentions(roles=ids)):
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send("hello", allowed_mentions=allowed)
        assert refused.value.status == 400 and refused.value.code == 50035
    assert standin.messages(general) == []
    [first, second] = standin.requests("POST", f"/channels/{general.id}/messages")
    assert first.status == second.status == 400
    alice = discord.Object(id=people.alice.id)
    ok = await channel.send(f"<@{people.alice.id}>",
                            allowed_mentions=discord.AllowedMentions(users=[*ids[:99], alice]))
    assert standin.messages(general)[0].id == ok.id
    assert standin.messages(general)[0].pings.users == {people.alice.id}
