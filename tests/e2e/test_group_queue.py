"""The suggestion queue end to end: /suggest, /queue show, /queue remove."""

from __future__ import annotations

from bot.client.bot import PaperclubBot
from discord_standin import Guild, Member, StandIn
from domain.paper import Paper
from tests.e2e.group_steps import answer, answered, suggest
from tests.group import People

GROK = "To Grok Grokking"


async def test_suggest_plus_one_and_show(bot: PaperclubBot, standin: StandIn, guild: Guild,
                                         people: People) -> None:
    first = await suggest(standin, guild, people.alice, "grokking", "short and fun")
    assert not first.ephemeral
    assert f"<@{people.alice.id}> suggested **{GROK}" in first.content
    assert "Note: short and fun" in first.content
    choices = await standin.autocomplete("suggest", {"paper": "grok"}, focused="paper",
                                         guild=guild, user=people.bob)
    assert choices[0]["name"].startswith(GROK)
    plus = await suggest(standin, guild, people.bob, str(choices[0]["value"]))
    assert "+1'd" in plus.content and "(2 in favour)" in plus.content
    again = await suggest(standin, guild, people.alice, "grokking")
    assert again.ephemeral and "already" in again.content
    await suggest(standin, guild, people.carol, "distillation")
    shown = await answer(standin, "queue show", guild=guild, user=people.carol)
    (embed,) = shown.embeds
    body = embed["description"]
    assert body.index(GROK) < body.index("2.")
    assert "**1." in body and "2 in favour" in body
    assert f"suggested by <@{people.alice.id}>" in body
    assert f"+1 from <@{people.bob.id}>" in body
    assert "short and fun" in body
    missing = await suggest(standin, guild, people.alice, "qqqzzzxx nothing")
    assert missing.ephemeral and "No paper in the catalog matches" in missing.content


async def test_remove_own_organiser_and_plus_one(bot: PaperclubBot, standin: StandIn,
                                                 guild: Guild, people: People) -> None:
    await suggest(standin, guild, people.carol, "grokking")
    await suggest(standin, guild, people.alice, "distillation")
    await suggest(standin, guild, people.carol, "distillation")
    choices = await standin.autocomplete("queue remove", {"paper": ""}, focused="paper",
                                         guild=guild, user=people.alice)
    assert len(choices) == 2
    refused = await answer(standin, "queue remove", {"paper": "grokking"}, guild=guild,
                           user=people.alice)
    assert refused.ephemeral and "Manage Server" in refused.content
    withdrawn = await answer(standin, "queue remove", {"paper": "distillation"}, guild=guild,
                             user=people.carol)
    assert "Took back your +1" in withdrawn.content
    own = await answer(standin, "queue remove", {"paper": "distillation"}, guild=guild,
                       user=people.alice)
    assert "Removed" in own.content and not own.ephemeral
    organiser = await answer(standin, "queue remove", {"paper": "grokking"}, guild=guild,
                             user=people.bob)
    assert "Removed" in organiser.content
    gone = await answer(standin, "queue remove", {"paper": "grokking"}, guild=guild,
                        user=people.bob)
    assert "is not in the queue" in gone.content
    empty = await answer(standin, "queue show", guild=guild, user=people.alice)
    assert "The queue is empty" in empty.embeds[0]["description"]


async def test_guild_only_from_a_dm(bot: PaperclubBot, standin: StandIn, people: People) -> None:
    handles = [await standin.slash("suggest", {"paper": "grokking"}, user=people.alice),
               await standin.slash("queue show", user=people.alice),
               await standin.slash("queue remove", {"paper": "grokking"}, user=people.alice)]
    for handle in handles:
        reply = await handle.reply()
        assert reply.ephemeral and "only in a server" in reply.content


async def test_hostile_notes_ping_no_one_and_stay_escaped(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    hostile = f"@everyone @here <@&{people.admin_role.id}> <@{people.bob.id}> **loud** `x`"
    reply = await suggest(standin, guild, people.alice, "grokking", hostile)
    assert "\\*\\*loud\\*\\*" in reply.content
    await answer(standin, "queue show", guild=guild, user=people.alice)
    for message in standin.messages(guild.channel("general"), ephemeral=True):
        assert not message.pings.everyone and not message.pings.roles
        assert not message.pings.users


async def test_queue_pages_for_the_asker_only_and_stays_per_server(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    for paper in bundled_papers[:7]:
        await suggest(standin, guild, people.alice, paper.id)
    message = await answered(standin, "queue show", guild=guild, user=people.alice)
    assert message.embeds[0]["footer"]["text"] == "Page 1 of 2"
    nxt = next(c for c in message.walk_components() if c.get("label") == "▶")
    refused = await standin.click(message, str(nxt["custom_id"]), user=people.bob)
    assert "alice" in (await refused.reply()).content
    paged = await standin.click(message, str(nxt["custom_id"]), user=people.alice)
    await paged.response()
    assert standin.message(message.id).embeds[0]["footer"]["text"] == "Page 2 of 2"
    other = await standin.add_guild(Guild("Other Group", members=[Member(people.alice)]))
    elsewhere = await answer(standin, "queue show", guild=other, user=people.alice)
    assert "The queue is empty" in elsewhere.embeds[0]["description"]
