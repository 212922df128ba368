"""Subscriptions end to end: commands, digest mentions and DMs, new-paper DMs, isolation."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from bot.client.bot import PaperclubBot
from bot.features.catalog.jsonl import dumps
from discord_standin import Guild, Member, OptionValue, StandIn, User
from domain.catalog import AddStatus
from domain.paper import Links, Paper
from tests.group import People


async def _sub(standin: StandIn, guild: Guild, user: User, topic: str,
               delivery: str = "dm") -> str:
    handle = await standin.slash("subscribe", {"topic": topic, "delivery": delivery},
                                 guild=guild, user=user)
    answer = await handle.reply()
    assert answer.ephemeral
    return answer.content


def _dms(standin: StandIn, user: User) -> list[str]:
    return [m.content for m in standin.messages(standin.dm_channel(user))]


async def test_subscribe_list_unsubscribe_and_limits(bot: PaperclubBot, standin: StandIn,
                                                     guild: Guild, people: People) -> None:
    reply = await _sub(standin, guild, people.alice, "grokking")
    assert "Subscribed to **grokking** (direct message). It matches 1 paper now" in reply
    assert "To Grok Grokking" in reply
    assert "already follow" in await _sub(standin, guild, people.alice, "Grokking ")
    assert "at most 100" in await _sub(standin, guild, people.alice, "x" * 150)
    assert "year must be" in await _sub(standin, guild, people.alice, "year:20x6")
    listing = await standin.slash("subscriptions", guild=guild, user=people.alice)
    assert "**grokking** — 1 paper, direct message" in (await listing.reply()).content
    choices = await standin.autocomplete("unsubscribe", {"topic": "gro"}, focused="topic",
                                         guild=guild, user=people.alice)
    assert [c["value"] for c in choices] == ["grokking"]
    gone = await standin.slash("unsubscribe", {"topic": "grokking"}, guild=guild,
                               user=people.alice)
    assert "no longer follow" in (await gone.reply()).content
    for n in range(25):
        assert "Subscribed" in await _sub(standin, guild, people.alice, f"topic{n}")
    assert "25 topics here already" in await _sub(standin, guild, people.alice, "one more")


async def test_topic_autocomplete_suggests_catalog_terms(bot: PaperclubBot, standin: StandIn,
                                                         guild: Guild, people: People) -> None:
    choices = await standin.autocomplete("subscribe", {"topic": "grok"}, focused="topic",
                                         guild=guild, user=people.alice)
    values = [c["value"] for c in choices]
    assert "grokking" in values and len(values) <= 25
    authors = await standin.autocomplete("subscribe", {"topic": "vard"}, focused="topic",
                                         guild=guild, user=people.alice)
    assert "author:Vardi" in [c["value"] for c in authors]
    workshops = await standin.autocomplete("subscribe", {"topic": "AdaptFM"}, focused="topic",
                                           guild=guild, user=people.alice)
    assert any("Resource-Adaptive" in c["value"] for c in workshops)


async def test_forget_me_works_in_a_dm_and_twice(bot: PaperclubBot, standin: StandIn,
                                                 guild: Guild, people: People) -> None:
    await _sub(standin, guild, people.alice, "grokking")
    await _sub(standin, guild, people.alice, "distillation")
    first = await standin.slash("forget-me", user=people.alice)
    assert "deleted 2 subscriptions" in (await first.reply()).content
    again = await standin.slash("forget-me", user=people.alice)
    assert "deleted 0 subscriptions and 0 notification records" in (await again.reply()).content
    from_dm = await standin.slash("subscribe", {"topic": "grokking"}, user=people.alice)
    assert "only in a server" in (await from_dm.reply()).content


async def test_admin_overview_counts_and_one_topic(bot: PaperclubBot, standin: StandIn,
                                                   guild: Guild, people: People) -> None:
    await _sub(standin, guild, people.alice, "grokking")
    await _sub(standin, guild, people.bob, "grokking")
    await _sub(standin, guild, people.bob, "distillation")
    refused = await standin.slash("subscriptions-admin", guild=guild, user=people.alice)
    assert "Manage Server" in (await refused.reply()).content
    overview = await standin.slash("subscriptions-admin", guild=guild, user=people.bob)
    (embed,) = (await overview.reply()).embeds
    assert embed["description"] == "2 × grokking\n1 × distillation"
    assert "<@" not in embed["description"]
    one = await standin.slash("subscriptions-admin", {"topic": "grokking"}, guild=guild,
                              user=people.bob)
    (embed,) = (await one.reply()).embeds
    assert f"<@{people.alice.id}>" in embed["description"]


async def _next_paper_topic(standin: StandIn, guild: Guild, people: People) -> str:
    """Set up the digest and return `author:<surname>` of the paper it will post next."""
    await (await standin.slash("digest set", {"channel": guild.channel("papers").id,
                                              "time": "09:00", "timezone": "Europe/Berlin"},
                               guild=guild, user=people.bob)).reply()
    preview = await standin.slash("digest preview", guild=guild, user=people.bob)
    (embed,) = (await preview.reply()).embeds  # deferred on a busy machine
    authors = next(str(f["value"]) for f in embed["fields"] if f["name"] == "Authors")
    return "author:" + authors.split(",")[0].split()[-1]


async def test_digest_mentions_exactly_the_matching_members_and_dms_the_others(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    topic = await _next_paper_topic(standin, guild, people)
    dave = User("dave")
    await standin.add_guild(Guild("Other", members=[dave]))
    await _sub(standin, guild, people.alice, topic, "mention")
    await _sub(standin, guild, people.bob, topic, "dm")
    await _sub(standin, guild, people.carol, topic, "dm")  # DMs closed
    await _sub(standin, guild, people.bob, "qqqqzzzz unrelated", "mention")
    (outcome,) = await bot.services.digest_scheduler.tick()
    assert outcome.status == "posted"
    await bot.background_done()
    (post,) = [m for m in standin.messages(guild.channel("papers")) if m.embeds]
    assert post.content == f"For: <@{people.alice.id}> — matched {topic}"
    assert post.pings.users == frozenset({people.alice.id})
    assert not post.pings.everyone and not post.pings.roles
    bob_dms = _dms(standin, people.bob)
    assert len(bob_dms) == 1 and topic in bob_dms[0]
    assert _dms(standin, people.carol) == []
    carol = await standin.slash("subscriptions", guild=guild, user=people.carol)
    assert "Direct messages are paused" in (await carol.reply()).content
    refused_dms = [r for r in standin.requests("POST", "/channels/")
                   if r.status == 403 and r.path.endswith("/messages")]
    assert len(refused_dms) == 1


async def test_new_papers_give_one_batched_dm_and_none_on_reload(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, tmp_path: Path,
        bundled_papers: list[Paper]) -> None:
    await _sub(standin, guild, people.bob, "zebrafish")
    await _sub(standin, guild, people.alice, "unrelatedword")
    await _sub(standin, guild, people.carol, "zebrafish")  # DMs closed: paused after one try
    new = [dataclasses.replace(bundled_papers[0], title_en=f"Zebrafish Learning Part {n}")
           for n in range(12)]
    path = tmp_path / "new.jsonl"
    path.write_text("".join(dumps(p) + "\n" for p in new), encoding="utf-8")
    report = await bot.services.catalog.load(path)
    assert report.counts.added == 12
    await bot.background_done()
    (dm,) = _dms(standin, people.bob)
    assert dm.count("• **Zebrafish Learning Part") == 10
    assert "…and 2 more" in dm
    assert _dms(standin, people.alice) == []
    again = await bot.services.catalog.load(path)
    assert again.counts.unchanged == 12
    await bot.background_done()
    assert len(_dms(standin, people.bob)) == 1
    more = tmp_path / "more.jsonl"
    more.write_text(dumps(dataclasses.replace(new[0], title_en="Zebrafish Forever")) + "\n",
                    encoding="utf-8")
    await bot.services.catalog.load(more)
    await bot.background_done()
    assert len(_dms(standin, people.bob)) == 2
    refused = [r for r in standin.requests("POST", "/channels/") if r.status == 403]
    assert len(refused) == 1  # carol: refused once, then paused, never retried


async def test_two_servers_with_the_same_topic_stay_isolated(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    topic = await _next_paper_topic(standin, guild, people)
    other = await standin.add_guild(Guild("Second Group", channels=["papers"], members=[
        Member(people.bob, roles=[people.admin_role]), people.alice]))
    await _sub(standin, guild, people.alice, topic, "mention")
    options: dict[str, OptionValue] = {"channel": other.channel("papers").id, "time": "09:00",
               "timezone": "Europe/Berlin"}
    await (await standin.slash("digest set", options, guild=other, user=people.bob)).reply()
    await bot.services.digest_scheduler.tick()
    for post in [m for m in standin.messages(other.channel("papers")) if m.embeds]:
        assert post.content == "" and not post.pings.users
    overview = await standin.slash("subscriptions-admin", guild=other, user=people.bob)
    assert (await overview.reply()).embeds[0]["description"] == "No topics yet."


async def test_hostile_topics_ping_no_one(bot: PaperclubBot, standin: StandIn, guild: Guild,
                                          people: People) -> None:
    topic = await _next_paper_topic(standin, guild, people)
    hostile = f"@everyone **{topic}**\u200b <@&{people.admin_role.id}>"
    reply = await _sub(standin, guild, people.alice, hostile, "mention")
    assert "Subscribed" in reply
    await bot.services.digest_scheduler.tick()
    for channel in guild.channels:
        for message in standin.messages(channel, ephemeral=True):
            assert not message.pings.everyone and not message.pings.roles
            assert message.pings.users <= {people.alice.id}


async def test_subscribing_again_with_another_delivery_changes_it(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    await _sub(standin, guild, people.alice, "grokking")
    changed = await _sub(standin, guild, people.alice, "Grokking", delivery="mention")
    assert "now" in changed and "mention in the paper of the day" in changed
    listing = await standin.slash("subscriptions", guild=guild, user=people.alice)
    assert "**grokking** — 1 paper, mention in the paper of the day" in (
        await listing.reply()).content
    assert "already follow" in await _sub(standin, guild, people.alice, "grokking",
                                          delivery="mention")


async def test_a_topic_that_matches_nothing_offers_a_correction(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    reply = await _sub(standin, guild, people.alice, "grokkng")
    assert "matches 0 papers" in reply and "Did you mean **grokking**?" in reply
    nothing = await _sub(standin, guild, people.alice, "zzqxv")
    assert "matches 0 papers" in nothing and "Did you mean" not in nothing


async def test_an_added_paper_notifies_once_by_its_english_abstract(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    await _sub(standin, guild, people.bob, "axolotl")
    paper = Paper(title_en="Regeneration as Learning", title_zh="", authors=("Ada Lovelace",),
                  summary_en="Limbs of the $\\mathrm{axolotl}$ regrow.",
                  links=Links(arxiv_id="2401.04242", arxiv_version=1))
    [outcome] = await bot.services.catalog.add_papers([paper])
    assert outcome.status is AddStatus.ADDED
    await bot.background_done()
    (dm,) = _dms(standin, people.bob)
    assert "Regeneration as Learning" in dm
    newer = dataclasses.replace(paper, links=Links(arxiv_id="2401.04242", arxiv_version=2))
    assert [o.status for o in await bot.services.catalog.add_papers([paper, newer])] == [
        AddStatus.UNCHANGED, AddStatus.UPDATED]
    await bot.background_done()
    assert len(_dms(standin, people.bob)) == 1
