"""Interactions end to end: callbacks, deferrals, followups, the original response."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from discord_standin import Guild, StandIn
from tests.discord_standin.testbot import TestBot
from tests.group import People


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
    assert (await handle.reply()).content == "searching 'grokking' (limit 5)"
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


@pytest.mark.parametrize("private", [False, True])
async def test_the_first_followup_keeps_the_placeholders_visibility_and_its_poll(
    standin: StandIn, bot: TestBot, guild: Guild, private: bool
) -> None:
    """Whatever its own flags say (the command asks for the other visibility)."""
    handle = await standin.slash("ask", {"private": private}, guild=guild)
    answer = await handle.answer()
    assert answer is handle.message and answer.ephemeral is private
    assert answer.poll is not None and [a["poll_media"]["text"] for a in answer.poll.answers] == [
        "this one", "that one"]


@pytest.mark.parametrize("private", [False, True])
async def test_a_followup_after_the_placeholder_is_removed_is_a_message_of_its_own(
    standin: StandIn, bot: TestBot, guild: Guild, private: bool
) -> None:
    handle = await standin.slash("ask", {"private": private, "remove_placeholder": True},
                                 guild=guild)
    answer = await handle.answer()
    assert handle.message is not None and handle.message.deleted
    assert answer is not handle.message and answer.ephemeral is not private
    assert answer.poll is not None


async def test_interaction_from_a_dm(standin: StandIn, bot: TestBot, people: People) -> None:
    handle = await standin.slash("whereami", user=people.alice)
    assert (await handle.reply()).content == "alice is in a DM (en-US)"
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
    assert (await admin.reply()).content == "settings"
    assert (await member.reply()).content == "not allowed"
    assert (await forced.reply()).content == "not allowed"
    assert (await admin.reply()).ephemeral


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


async def test_callbacks_need_a_live_unanswered_interaction(
    standin: StandIn, bot: TestBot, guild: Guild, http: aiohttp.ClientSession
) -> None:
    handle = await standin.slash("echo", {"text": "once"}, guild=guild)
    await handle.response()
    again = f"{standin.rest_base}/interactions/{handle.id}/{handle.token}/callback"
    async with http.post(again, json={"type": 4, "data": {"content": "twice"}}) as answered:
        assert answered.status == 400 and (await answered.json())["code"] == 40060
    unknown = f"{standin.rest_base}/interactions/{handle.id}/not-the-token/callback"
    async with http.post(unknown, json={"type": 4, "data": {"content": "?"}}) as missing:
        assert missing.status == 404 and (await missing.json())["code"] == 10062


async def _first_error(bot: TestBot) -> BaseException:
    for _ in range(250):
        if bot.errors:
            return bot.errors[0]
        await asyncio.sleep(0.02)
    raise AssertionError("the bot was not refused")


@pytest.mark.parametrize("followup", [False, True])
async def test_a_file_answer_lands_on_the_message_with_its_bytes(
    standin: StandIn, bot: TestBot, guild: Guild, followup: bool
) -> None:
    handle = await standin.slash("upload", {"size": 5, "followup": followup, "ephemeral": True},
                                 guild=guild)
    message = await handle.reply()
    assert message.content == "here" and message.ephemeral
    [attachment] = message.attachments
    assert attachment["filename"] == "export.md" and attachment["size"] == 5
    assert standin.attachment_data(attachment) == b"xxxxx"


@pytest.mark.parametrize("followup", [False, True])
async def test_a_file_over_the_attachment_limit_is_refused_with_40005(
    standin: StandIn, bot: TestBot, guild: Guild, followup: bool
) -> None:
    standin.attachment_size_limit = 64
    handle = await standin.slash("upload", {"size": 64, "followup": followup}, guild=guild)
    assert len((await handle.reply()).attachments) == 1
    await standin.slash("upload", {"size": 65, "followup": followup}, guild=guild)
    error = await _first_error(bot)
    assert isinstance(error, discord.HTTPException)
    assert error.status == 413 and error.code == 40005
