"""Reading lists and /forget-me end to end: per member, per server, erased everywhere."""

from __future__ import annotations

from bot.client.bot import PaperclubBot
from discord_standin import Guild, Member, StandIn
from domain.paper import Paper
from tests.e2e.group_steps import answer, suggest
from tests.group import People


async def test_bookmarks_are_per_member_and_per_server(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    added = await standin.slash("bookmark", {"paper": "grokking"}, guild=guild, user=people.alice)
    reply = await added.reply()
    assert reply.ephemeral and "Added **To Grok Grokking" in reply.content
    again = await answer(standin, "bookmark", {"paper": "grokking"}, guild=guild,
                         user=people.alice)
    assert "already on your reading list" in again.content
    await answer(standin, "bookmark", {"paper": "distillation"}, guild=guild, user=people.alice)
    listing = await standin.slash("bookmarks", guild=guild, user=people.alice)
    (embed,) = (await listing.reply()).embeds
    assert "To Grok Grokking" in embed["description"] and "**2." in embed["description"]
    bob = await answer(standin, "bookmarks", guild=guild, user=people.bob)
    assert "Nothing here yet" in bob.embeds[0]["description"]
    other = await standin.add_guild(Guild("Other Group", members=[Member(people.alice)]))
    elsewhere = await answer(standin, "bookmarks", guild=other, user=people.alice)
    assert "Nothing here yet" in elsewhere.embeds[0]["description"]
    choices = await standin.autocomplete("bookmark", {"paper": "", "remove_it": True},
                                         focused="paper", guild=guild, user=people.alice)
    assert len(choices) == 2
    removed = await answer(standin, "bookmark", {"paper": "grokking", "remove_it": True},
                           guild=guild, user=people.alice)
    assert "Took **To Grok Grokking" in removed.content
    dm = await answer(standin, "bookmarks", guild=None, user=people.alice)
    assert "only in a server" in dm.content


async def test_forget_me_erases_bookmarks_ballots_and_anonymises_suggestions(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    first, second = bundled_papers[:2]
    await answer(standin, "bookmark", {"paper": first.id}, guild=guild, user=people.alice)
    await suggest(standin, guild, people.alice, first.id, "my reason")
    await suggest(standin, guild, people.bob, second.id)
    start = await standin.slash("vote start", guild=guild, user=people.bob)
    ballot = await start.answer()
    button = next(str(c["custom_id"]) for c in ballot.walk_components() if c.get("type") == 2)
    await (await standin.click(ballot, button, user=people.alice)).response()
    gone = await answer(standin, "forget-me", guild=None, user=people.alice)
    assert "1 bookmark and 1 vote" in gone.content
    assert "your name from 1 suggestion" in gone.content
    empty = await answer(standin, "bookmarks", guild=guild, user=people.alice)
    assert "Nothing here yet" in empty.embeds[0]["description"]
    shown = await answer(standin, "queue show", guild=guild, user=people.bob)
    body = shown.embeds[0]["description"]
    assert "a former member" in body and "my reason" not in body
    assert f"<@{people.alice.id}>" not in body
    status = await answer(standin, "vote status", guild=guild, user=people.bob)
    assert "1 vote" not in status.embeds[0]["description"]


async def test_words_matching_several_papers_bookmark_nothing_and_list_them(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    """Issue 21: `/bookmark paper:learning` took one arbitrary match of many."""
    asked = await answer(standin, "bookmark", {"paper": "learning"}, guild=guild, user=people.alice)
    assert asked.content.startswith("Which paper do you mean by **learning**?")
    choices = [line.split("`")[1] for line in asked.content.splitlines()[1:]]
    assert len(choices) >= 2
    listed = await answer(standin, "bookmarks", {}, guild=guild, user=people.alice)
    assert not any(choice in listed.content for choice in choices)
    picked = await answer(standin, "bookmark", {"paper": choices[1]}, guild=guild,
                          user=people.alice)
    assert picked.content.startswith("Added **")
