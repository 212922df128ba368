"""Votes end to end: organisers only, persistent buttons, one announcement across restarts."""

from __future__ import annotations

from datetime import timedelta

from bot.client.bot import PaperclubBot
from bot.graphs.catalog import open_configured
from bot.settings import Settings
from discord_standin import Fault, Guild, Message, StandIn
from domain.paper import Paper
from domain.votes import VoteOption, VoteStatus
from storage import backend as stores
from tests.clocks import FakeClock, Ticker
from tests.e2e.group_steps import answer, suggest
from tests.e2e.harness import start_paperclub
from tests.group import People


def _buttons(message: Message) -> list[str]:
    return [str(c["custom_id"]) for c in message.walk_components() if c.get("type") == 2]


def _announcements(standin: StandIn, guild: Guild) -> list[Message]:
    return [m for m in standin.messages(guild.channel("general"))
            if m.webhook_id is None and m.embeds]


async def test_only_organisers_start_and_close_and_never_from_a_dm(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    member = await standin.slash("vote start", guild=guild, user=people.alice)
    assert "Only organisers" in (await member.reply()).content
    member_close = await standin.slash("vote close", guild=guild, user=people.alice)
    assert "Manage Server" in (await member_close.reply()).content
    dm = await standin.slash("vote status", user=people.alice)
    assert "only in a server" in (await dm.reply()).content
    short = await answer(standin, "vote start", guild=guild, user=people.bob)
    assert "at least 2 papers" in short.content
    none = await answer(standin, "vote status", guild=guild, user=people.alice)
    assert "No vote is open" in none.content


async def test_vote_survives_restarts_and_is_announced_exactly_once(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, settings: Settings,
        clock: FakeClock, bundled_papers: list[Paper]) -> None:
    first, second, third = bundled_papers[:3]
    await suggest(standin, guild, people.alice, first.id)
    await suggest(standin, guild, people.alice, second.id)
    await suggest(standin, guild, people.carol, second.id)
    await suggest(standin, guild, people.carol, third.id)
    start = await standin.slash("vote start", {"from": 3, "hours": 2}, guild=guild,
                                user=people.bob)
    message = await start.answer()
    assert not message.ephemeral and second.title_en[:30] in message.embeds[0]["description"]
    buttons = _buttons(message)
    assert len(buttons) == 3
    again = await answer(standin, "vote start", guild=guild, user=people.bob)
    assert "already open" in again.content
    clicks = [(people.alice, 0, "You voted for"), (people.carol, 0, "You voted for"),
              (people.bob, 1, "You voted for"), (people.alice, 0, "already voted")]
    for user, index, expected in clicks:
        click = await standin.click(message, buttons[index], user=user)
        reply = await click.reply()
        assert reply.ephemeral and expected in reply.content
    status = await answer(standin, "vote status", guild=guild, user=people.carol)
    assert "2 votes" in status.embeds[0]["description"]

    await standin.stop_bot(bot)
    restarted = await start_paperclub(standin, settings, clock)
    changed = await standin.click(message, buttons[2], user=people.carol)
    assert "changed your vote" in (await changed.reply()).content
    clock.advance(hours=3)
    standin.fail("POST", "/channels/*/messages", Fault.error(400, 0, "answer lost"),
                 after_processing=True)
    (outcome,) = await restarted.services.votes.tick()
    assert outcome.status == "pending"
    assert len(_announcements(standin, guild)) == 1

    await standin.stop_bot(restarted)
    # The close stays the restarted process's until its lease runs out; then another process
    # takes it over: the third run's on_ready tick finishes it.
    clock.advance(seconds=settings.digest.claim_lease_seconds)
    third_run = await start_paperclub(standin, settings, clock)
    assert await third_run.services.votes.tick() == []
    (announcement,) = _announcements(standin, guild)
    assert f"chose **{second.title_en[:30]}" in announcement.content
    assert "A tie" in announcement.content  # 1 : 1 : 1, the second paper had most support
    assert not announcement.pings.everyone and not announcement.pings.users
    greyed = standin.message(message.id)
    assert all(c.get("disabled") for c in greyed.walk_components() if c.get("type") == 2)
    over = await answer(standin, "vote status", guild=guild, user=people.alice)
    assert "the group chose" in over.embeds[0]["description"]
    await standin.stop_bot(third_run)


async def test_close_early_without_votes_and_ties_go_to_the_older_suggestion(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, clock: FakeClock,
        bundled_papers: list[Paper]) -> None:
    newer, older = sorted(bundled_papers[:2], key=lambda p: p.id)  # not by id: by age
    await suggest(standin, guild, people.alice, older.id)
    clock.advance(minutes=1)
    await suggest(standin, guild, people.carol, newer.id)
    start = await standin.slash("vote start", guild=guild, user=people.bob)
    await start.answer()  # the ballot itself, not a deferral
    closing = await standin.slash("vote close", guild=guild, user=people.bob)
    await closing.response()
    done = await closing.followup()
    assert "Closed" in done.content
    (announcement,) = _announcements(standin, guild)
    assert f"Nobody voted, so the queue's favourite wins: **{older.title_en[:30]}" in (
        announcement.content)
    again = await standin.slash("vote close", guild=guild, user=people.bob)
    assert "No vote is open" in (await again.followup()).content
    assert await bot.services.votes.tick() == []
    assert len(_announcements(standin, guild)) == 1


async def test_a_resumed_announcement_finds_its_post_past_many_later_messages(
        settings: Settings, guild: Guild, people: People, clock: FakeClock,
        bundled_papers: list[Paper]) -> None:
    """The announcement is carried out but its answer is lost; the channel then gets busy
    (more messages than a page of history) and Discord forgets the nonce. The resumed close
    searches the channel since its claim, finds the post and records it: no second one."""
    general = guild.channel("general")
    seconds = Ticker()
    async with StandIn(guilds=[guild], clock=seconds) as standin:
        paperclub = await start_paperclub(standin, settings, clock)
        db = await open_configured(settings.database)
        try:
            options = [VoteOption(n, p.id, 1, clock.now)
                       for n, p in enumerate(bundled_papers[:2], start=1)]
            vote = await stores.VOTES.open(db).open(guild.id, general.id, people.bob.id,
                                                    clock.now - timedelta(hours=2), clock.now,
                                                    options)
            assert vote is not None
            standin.fail("POST", f"/channels/{general.id}/messages",
                         Fault.error(400, 0, "answer lost"), after_processing=True)
            (lost,) = await paperclub.services.votes.tick()
            assert lost.status == "pending"
            (sent,) = _announcements(standin, guild)
            for i in range(120):  # more than a page of history after the announcement
                await standin.say(general, people.alice, f"comment {i}")
            seconds.advance(3600)  # Discord has forgotten the nonce
            clock.advance(minutes=10)
            (found,) = await paperclub.services.votes.tick()
            assert (found.status, found.message_id) == ("announced", sent.id)
            assert _announcements(standin, guild) == [sent]
            announced = await stores.VOTES.open(db).get(vote.id)
            assert announced is not None and announced.status is VoteStatus.ANNOUNCED
            assert announced.announcement_id == sent.id
        finally:
            await db.close()
            await standin.stop_bot(paperclub)
