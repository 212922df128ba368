"""End-to-end: a real discord.py bot against the stand-in."""

from __future__ import annotations

import asyncio
import io

import discord
import pytest
from discord.http import Route

from discord_standin import Fault, Guild, MessageFlag, StandIn
from tests.discord_standin.testbot import People, TestBot


async def test_connects_logs_in_and_syncs(standin: StandIn, bot: TestBot, guild: Guild) -> None:
    assert bot.user is not None and bot.user.id == standin.bot_user.id
    assert bot.application_id == standin.application_id
    [seen] = bot.guilds
    assert seen.id == guild.id and seen.name == "Reading Group"
    assert {c.name for c in seen.text_channels} == {"general", "papers"}
    names = {c["name"] for c in standin.commands()}
    assert names == set(
        "echo counter announce slow poke whereami settings feedback paper steps".split()
    )
    assert [c["name"] for c in standin.commands(guild)] == ["club_only"]
    global_sync, guild_sync = standin.requests("PUT", "/commands")
    assert global_sync.headers["Authorization"] == "Bot x"
    assert guild_sync.path == f"/applications/{standin.application_id}/guilds/{guild.id}/commands"
    assert [r.path for r in standin.requests()][:2] == ["/users/@me", "/oauth2/applications/@me"]
    assert standin.gateway_stats.identifies == 1
    assert standin.unknown_requests == []


async def test_slash_command_round_trip(
    standin: StandIn, bot: TestBot, guild: Guild, people: People
) -> None:
    handle = await standin.slash("echo", {"text": "hello"}, guild=guild, user=people.alice)
    callback = await handle.response()
    assert callback.type == 4 and callback.content == "echo: hello"
    assert handle.message is not None
    assert handle.message.content == "echo: hello"
    assert handle.message.interaction_metadata is not None
    assert handle.message.interaction_metadata["user"]["id"] == str(people.alice.id)
    assert standin.messages(guild.channel("general"))[-1] is handle.message
    [request] = standin.requests("POST", "/callback")
    assert request.status == 200 and request.query == {"with_response": "1"}
    assert "Authorization" not in request.headers


async def test_subcommand_with_typed_options(standin: StandIn, bot: TestBot, guild: Guild) -> None:
    handle = await standin.slash("paper search", {"query": "grokking", "limit": 5}, guild=guild)
    assert (await handle.response()).content == "searching 'grokking' (limit 5)"
    with pytest.raises(LookupError, match="no option 'year'"):
        await standin.slash("paper search", {"query": "x", "year": 2020}, guild=guild)
    with pytest.raises(TypeError, match="takes an int"):
        await standin.slash("paper search", {"query": "x", "limit": "five"}, guild=guild)


async def test_autocomplete_returns_choices(standin: StandIn, bot: TestBot, guild: Guild) -> None:
    choices = await standin.autocomplete("echo", {"text": "gr"}, focused="text", guild=guild)
    assert [c["value"] for c in choices] == ["grokking", "graph networks"]
    [request] = standin.requests("POST", "/callback")
    assert request.json["type"] == 8


async def test_button_and_select_edit_the_message(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    command = await standin.slash("counter", guild=guild)
    await command.response()
    message = command.message
    assert message is not None and message.component("counter:inc")["label"] == "+1"

    first = await standin.click(message, "counter:inc")
    assert (await command.edited()).content == "count: 1"
    assert (await first.response()).type == 7
    for expected in ("count: 2", "count: 3"):
        click = await standin.click(message, "counter:inc")
        callback = await click.response()
        assert callback.type == 7 and callback.message_id == message.id
        assert message.content == expected

    choice = await standin.select(message, "counter:pick", ["b"])
    assert (await choice.response()).type == 7
    assert message.content == "picked: b" and message.edits == 4
    assert command.message is message


async def test_defer_then_followup_fills_the_original(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    handle = await standin.slash("slow", guild=guild)
    callback = await handle.response()
    assert callback.type == 5
    followup = await handle.followup()
    assert followup.content == "done thinking"
    assert followup is handle.message and not followup.loading
    [request] = standin.requests("POST", "/webhooks/")
    assert request.query["wait"] == "1"


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


async def test_rate_limited_callback_is_retried(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    standin.fail("POST", "/interactions/*/callback", Fault.rate_limited(retry_after=0.05))
    handle = await standin.slash("echo", {"text": "again"}, guild=guild)
    assert (await handle.response()).content == "echo: again"
    assert [r.status for r in standin.requests("POST", "/callback")] == [429, 200]
    assert standin.rate_limited == 1


async def test_server_error_is_retried(standin: StandIn, bot: TestBot, guild: Guild) -> None:
    rule = standin.fail("POST", "/channels/*/messages", Fault.server_error(502))
    handle = await standin.slash("announce", {"title": "Attention"}, guild=guild)
    assert (await handle.response(timeout=10)).content.startswith("posted")
    assert rule.hits == 1 and rule.remaining == 0
    statuses = [r.status for r in standin.requests("POST", "/channels/")]
    assert statuses[:2] == [502, 200]
    assert [m.content for m in standin.messages(guild.channel("general"))] == [
        "New paper: Attention"
    ]


async def test_missing_permissions_surfaces_as_forbidden(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    standin.fail("POST", "/channels/*/messages", Fault.missing_permissions())
    handle = await standin.slash("announce", {"title": "Attention"}, guild=guild)
    assert (await handle.response()).content == "failed: 50013"
    [error] = bot.errors
    assert isinstance(error, discord.Forbidden) and error.status == 403


async def test_dm_to_closed_user_is_forbidden_50007(
    standin: StandIn, bot: TestBot, guild: Guild, people: People
) -> None:
    handle = await standin.slash("poke", {"member": people.carol}, guild=guild, user=people.alice)
    assert (await handle.response()).content == "cannot DM carol"
    [error] = bot.errors
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    dm = standin.dm_channel(people.carol)
    assert [r.status for r in standin.requests("POST", f"/channels/{dm.id}/messages")] == [403]
    assert standin.requests("POST", "/users/@me/channels")[0].json == {
        "recipient_id": people.carol.id
    }

    ok = await standin.slash("poke", {"member": people.bob}, guild=guild, user=people.alice)
    assert (await ok.response()).content == "poked bob"
    assert [m.content for m in standin.messages(standin.dm_channel(people.bob))] == ["poke!"]


async def test_reconnect_and_resume_mid_session(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    await standin.reconnect("op7")
    stats = standin.gateway_stats
    assert stats.resumes == 1 and stats.identifies == 1
    assert stats.connections == ["/gateway", "/gateway/resume"]
    handle = await standin.slash("echo", {"text": "still here"}, guild=guild)
    assert (await handle.response()).content == "echo: still here"


async def test_events_sent_while_disconnected_are_replayed(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    async with standin.disconnected("drop"):
        handle = await standin.slash("echo", {"text": "queued"}, guild=guild)
    assert (await handle.response()).content == "echo: queued"
    stats = standin.gateway_stats
    assert stats.resumes == 1 and stats.replayed >= 1 and stats.identifies == 1


async def test_invalidated_session_identifies_again(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    ready_again = asyncio.ensure_future(bot.wait_for("ready"))
    await standin.invalidate_session()
    await asyncio.wait_for(ready_again, timeout=5)
    assert standin.gateway_stats.identifies == 2 and standin.gateway_stats.invalid_sessions == 1
    assert standin.gateway_stats.resumes == 0


async def test_interaction_from_a_dm(standin: StandIn, bot: TestBot, people: People) -> None:
    handle = await standin.slash("whereami", user=people.alice)
    assert (await handle.response()).content == "alice is in a DM (en-US)"
    assert "guild_id" not in handle.payload and handle.payload["user"]["id"] == str(people.alice.id)
    assert (
        handle.message is not None
        and handle.message.channel_id == standin.dm_channel(people.alice).id
    )
    with pytest.raises(ValueError, match="guild-only"):
        await standin.slash("settings", user=people.alice)


async def test_member_permissions_reach_the_bot(
    standin: StandIn, bot: TestBot, guild: Guild, people: People
) -> None:
    admin = await standin.slash("settings", guild=guild, user=people.bob)
    member = await standin.slash("settings", guild=guild, user=people.alice)
    forced = await standin.slash("settings", guild=guild, user=people.alice, permissions=0)
    assert (await admin.response()).content == "settings"
    assert (await member.response()).content == "not allowed"
    assert (await forced.response()).content == "not allowed"
    assert (await admin.response()).ephemeral


async def test_modal_round_trip(standin: StandIn, bot: TestBot, guild: Guild) -> None:
    opened = await standin.slash("feedback", guild=guild)
    assert (await opened.response()).type == 9
    submitted = await standin.submit_modal(opened, {"text": "great talk"})
    callback = await submitted.response()
    assert callback.content == "thanks: great talk" and callback.ephemeral


async def test_limits_are_enforced_like_discord(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    handle = await standin.slash("echo", {"text": "x" * 2000}, guild=guild)
    with pytest.raises(TimeoutError):
        await handle.response(timeout=0.3)
    [request] = standin.requests("POST", "/callback")
    assert request.status == 400
    [error] = bot.errors
    assert isinstance(error, discord.HTTPException) and error.code == 50035
    assert "2000 or fewer" in error.text


async def test_unknown_routes_are_404_and_recorded(standin: StandIn, bot: TestBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/nothing/here"))
    [unknown] = standin.unknown_requests
    assert unknown.path == "/nothing/here" and unknown.status == 404


async def test_guild_commands_route_by_guild_id(
    standin: StandIn, bot: TestBot, guild: Guild, people: People
) -> None:
    handle = await standin.slash("club_only", guild=guild, locale="de")
    assert (await handle.response()).content == "club business"
    assert handle.payload["data"]["guild_id"] == str(guild.id) and handle.payload["locale"] == "de"
    where = await standin.slash("whereami", guild=guild, user=people.bob, locale="fr")
    assert (await where.response()).content == "bob is in Reading Group (fr)"
    assert "guild_id" not in where.payload["data"]
    with pytest.raises(LookupError, match="not registered in DMs"):
        await standin.slash("club_only", user=people.alice)


async def test_original_and_followup_edits_and_deletes(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    handle = await standin.slash("steps", guild=guild)
    await handle.wait_until(
        lambda h: bool(h.followup_ids) and h.followups[0].deleted, what="deletion"
    )
    assert handle.message is not None and handle.message.content == "step 2"
    [extra] = handle.followups
    assert extra.content == "extra edited" and extra.deleted
    assert [m.content for m in standin.messages(guild.channel("general"))] == ["step 2"]
    hook = "/webhooks/{app_id}/{token}"
    calls = [(r.method, r.route) for r in standin.requests(path_contains="/webhooks/")]
    assert calls == [
        ("PATCH", hook + "/messages/{message_id}"),
        ("POST", hook),
        ("PATCH", hook + "/messages/{message_id}"),
        ("DELETE", hook + "/messages/{message_id}"),
    ]
    assert standin.requests("PATCH", "/messages/@original")


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
