"""Votes as native Discord polls end to end: the same ballots give the same tally as buttons,
long titles are shortened within the stand-in's 55 characters, titles that would shorten alike
fall back to buttons with the organiser told why, the button ballot's live tally, and a close
that comes between the poll's post and the record of its id."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.client.bot import PaperclubBot
from bot.features.catalog.jsonl import dumps
from bot.features.catalog.loader import load_catalog
from bot.settings import Settings
from discord_standin import (
    CallbackType,
    Guild,
    InteractionHandle,
    Message,
    Overwrite,
    Permission,
    StandIn,
    User,
)
from domain.paper import Paper
from domain.storage_faults import DiskFull
from domain.votes import Vote
from storage.votes.store import VoteStore
from tests.clocks import FakeClock
from tests.e2e.group_steps import note_after, suggest
from tests.e2e.harness import start_paperclub
from tests.group import People


def _buttons(message: Message) -> list[str]:
    return [str(c["custom_id"]) for c in message.walk_components() if c.get("type") == 2]


def _labels(message: Message) -> list[str]:
    return [str(c["label"]) for c in message.walk_components() if c.get("type") == 2]


def _announcements(standin: StandIn, guild: Guild) -> list[Message]:
    return [m for m in standin.messages(guild.channel("general"))
            if m.webhook_id is None and m.embeds and m.type == 0]


async def _queue(standin: StandIn, guild: Guild, people: People, papers: list[Paper]) -> None:
    """Three papers; the second has the most support."""
    first, second, third = papers
    await suggest(standin, guild, people.alice, first.id)
    await suggest(standin, guild, people.alice, second.id)
    await suggest(standin, guild, people.carol, second.id)
    await suggest(standin, guild, people.carol, third.id)


BALLOTS = ((0, 1), (1, 1), (2, 2))
"""(voter index among alice, bob, carol; position voted for)."""


async def test_a_poll_tallies_exactly_as_the_same_ballots_cast_with_buttons(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, clock: FakeClock,
        bundled_papers: list[Paper]) -> None:
    standin.set_clock(clock)
    voters: list[User] = [people.alice, people.bob, people.carol]
    await _queue(standin, guild, people, bundled_papers[:3])
    start = await standin.slash("vote start", {"from": 3, "hours": 2}, guild=guild,
                                user=people.bob)
    start_message = await start.answer()
    buttons = _buttons(start_message)
    for voter, position in BALLOTS:
        click = await standin.click(start_message, buttons[position - 1], user=voters[voter])
        await click.response()
    clock.advance(hours=2)
    (closed,) = await bot.services.votes.tick()
    assert closed.status == "announced"

    poll_start = await standin.slash("vote start", {"from": 3, "hours": 2, "style": "poll"},
                                     guild=guild, user=people.bob)
    posted = await poll_start.answer()
    note = await note_after(poll_start, posted)
    assert note.ephemeral and "2 hours" in note.content and "rounded up" in note.content
    assert posted.poll is not None and posted.components == []
    titles = [a["poll_media"]["text"] for a in posted.poll.answers]
    assert len(titles) == 3 and all(len(t) <= 55 for t in titles)
    for voter, position in BALLOTS:
        await standin.poll_vote(posted, voters[voter], position)
    status = await (await standin.slash("vote status", guild=guild, user=people.alice)).response()
    assert "2 votes" in status.embeds[0]["description"]  # live counts, read from the poll
    clock.advance(hours=2)
    (polled,) = await bot.services.votes.tick()
    assert polled.status == "announced"
    assert posted.poll.finalized
    button_result, poll_result = _announcements(standin, guild)
    assert poll_result.content == button_result.content
    assert poll_result.embeds[0]["description"] == button_result.embeds[0]["description"]
    assert "2 votes" in poll_result.embeds[0]["description"]
    assert not poll_result.pings.users and not poll_result.pings.everyone
    assert await bot.services.votes.tick() == []
    assert len(_announcements(standin, guild)) == 2


async def test_titles_that_shorten_alike_fall_back_to_buttons_and_the_organiser_hears_why(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, tmp_path: Path,
        bundled_papers: list[Paper]) -> None:
    stem = "Grokking Beyond Modular Arithmetic: A Study of Delayed Generalisation in "
    stem_zh = ("超越模运算的顿悟：关于延迟泛化现象在不同网络结构与不同训练设置之下的"
               "系统性实证研究与理论分析及其在实际模型中的意义，")
    twins = [replace(bundled_papers[n], title_en=stem + tail, title_zh=stem_zh + tail_zh)
             for n, tail, tail_zh in ((0, "Transformers", "以变换器为例"),
                                      (1, "Multilayer Perceptrons", "以多层感知机为例"))]
    assert len(stem_zh) > 55
    path = tmp_path / "twins.jsonl"
    path.write_text("".join(dumps(p) + "\n" for p in twins), encoding="utf-8")
    await load_catalog(bot.services.catalog.papers, path)
    for paper in twins:
        await suggest(standin, guild, people.alice, paper.id)
    start = await standin.slash("vote start", {"from": 2, "style": "poll"}, guild=guild,
                                user=people.bob, locale="zh-CN")
    start_message = await start.answer()
    why = await note_after(start, start_message)
    assert why.ephemeral and "缩短后无法区分" in why.content
    assert start_message.poll is None
    assert len(_buttons(start_message)) == 2
    assert not [r for r in standin.requests("POST") if r.status == 400]


async def test_the_live_tally_coalesces_clicks_and_ends_on_the_true_counts(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, clock: FakeClock,
        bundled_papers: list[Paper]) -> None:
    await _queue(standin, guild, people, bundled_papers[:3])
    start = await standin.slash("vote start", {"from": 3}, guild=guild, user=people.bob)
    message = await start.answer()
    buttons = _buttons(message)
    voters = [people.alice, people.bob, people.carol]
    clicks = [(voters[n % 3], n % 3 if n < 12 else (n + 1) % 3) for n in range(15)]
    for user, index in clicks:
        await (await standin.click(message, buttons[index], user=user)).response()
    await bot.background_done()
    edits = standin.requests("PATCH", f"/channels/{message.channel_id}/messages/{message.id}")
    assert 1 <= len(edits) <= 3 < len(clicks)
    assert all(r.status == 200 for r in edits)
    # the last clicks: alice -> 2, bob -> 3, carol -> 1
    assert _labels(standin.message(message.id)) == ["1 · 1", "2 · 1", "3 · 1"]
    closing = await standin.slash("vote close", guild=guild, user=people.bob)
    await closing.followup()
    final = standin.message(message.id)
    assert _labels(final) == ["1 · 1", "2 · 1", "3 · 1"]
    assert all(c.get("disabled") for c in final.walk_components() if c.get("type") == 2)


async def test_closing_a_poll_early_ends_it_and_announces_its_counts(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, clock: FakeClock,
        bundled_papers: list[Paper]) -> None:
    standin.set_clock(clock)
    await _queue(standin, guild, people, bundled_papers[:3])
    _, posted = await _poll_started(standin, guild, people)
    await standin.poll_vote(posted, people.carol, 3)
    closing = await standin.slash("vote close", guild=guild, user=people.bob)
    await closing.response()
    assert "Closed" in (await closing.followup()).content
    assert posted.poll is not None and posted.poll.finalized
    (announcement,) = _announcements(standin, guild)
    assert f"chose **{bundled_papers[2].title_en[:30]}" in announcement.content
    assert len([m for m in standin.messages(guild.channel("general")) if m.type == 46]) == 1
    assert standin.requests("POST", f"/channels/{posted.channel_id}/polls/{posted.id}/expire")


async def test_without_send_polls_the_vote_uses_buttons_and_says_why(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    general = guild.channel("general")
    general.overwrites.append(Overwrite.for_member(standin.bot_user,
                                                  deny=int(Permission.SEND_POLLS)))
    await _queue(standin, guild, people, bundled_papers[:3])
    start = await standin.slash("vote start", {"style": "poll"}, guild=guild, user=people.bob,
                                locale="zh-TW")
    start_message = await start.answer()
    why = await note_after(start, start_message)
    assert why.ephemeral and "無權在此頻道發起投票" in why.content
    assert start_message.poll is None
    assert len(_buttons(start_message)) == 3


async def _closed_with_the_polls_counts(standin: StandIn, guild: Guild, posted: Message,
                                        papers: list[Paper]) -> None:
    """`/vote close` ends the poll and announces carol's vote for the third paper."""
    assert posted.poll is not None
    assert posted.poll.finalized
    (announcement,) = _announcements(standin, guild)
    assert f"chose **{papers[2].title_en[:30]}" in announcement.content
    assert standin.requests("POST", f"/channels/{posted.channel_id}/polls/{posted.id}/expire")


async def test_a_close_between_the_polls_post_and_its_record_waits_for_the_record(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, clock: FakeClock,
        bundled_papers: list[Paper], monkeypatch: pytest.MonkeyPatch) -> None:
    """The flaky race, held open: the close reads the vote before the poll's id is recorded."""
    standin.set_clock(clock)
    await _queue(standin, guild, people, bundled_papers[:3])
    recorded, read = asyncio.Event(), asyncio.Event()
    set_message, live = VoteStore.set_message, VoteStore.live

    async def held(store: VoteStore, vote_id: int, message_id: int) -> None:
        await recorded.wait()
        await set_message(store, vote_id, message_id)

    async def seen(store: VoteStore, guild_id: int) -> Vote | None:
        vote = await live(store, guild_id)
        read.set()
        return vote

    monkeypatch.setattr(VoteStore, "set_message", held)
    monkeypatch.setattr(VoteStore, "live", seen)
    start, posted = await _poll_started(standin, guild, people)
    await standin.poll_vote(posted, people.carol, 3)
    closing = await standin.slash("vote close", guild=guild, user=people.bob)
    await closing.response()
    await read.wait()  # the close has the vote, with no poll recorded
    recorded.set()
    assert "Closed" in (await closing.followup()).content
    await start.followup()
    await _closed_with_the_polls_counts(standin, guild, posted, bundled_papers)


async def test_a_poll_whose_record_was_lost_is_found_by_its_marker_and_closed(
        standin: StandIn, settings: Settings, guild: Guild, people: People,
        bundled_papers: list[Paper], monkeypatch: pytest.MonkeyPatch) -> None:
    """The poll went out, then its id could not be saved (as after a crash): the close finds
    the poll in the channel by the vote's marker, ends it and announces its counts. The bot's
    clock is the stand-in's, as the search looks where the message ids say the poll went out."""
    clock = FakeClock(datetime.now(UTC))
    standin.set_clock(clock)
    paperclub = await start_paperclub(standin, settings, clock)
    try:
        await _queue(standin, guild, people, bundled_papers[:3])

        async def lost(store: VoteStore, vote_id: int, message_id: int) -> None:
            raise DiskFull("disk full: database or disk is full")

        with monkeypatch.context() as patched:
            patched.setattr(VoteStore, "set_message", lost)
            start, posted = await _poll_started(standin, guild, people)
            assert "can't save" in (await start.followup()).content
        assert posted.content.endswith("\n-# 🗳️ #1")
        await standin.poll_vote(posted, people.carol, 3)
        closing = await standin.slash("vote close", guild=guild, user=people.bob)
        await closing.response()
        assert "Closed" in (await closing.followup()).content
        await _closed_with_the_polls_counts(standin, guild, posted, bundled_papers)
    finally:
        await standin.stop_bot(paperclub)


async def _poll_started(standin: StandIn, guild: Guild,
                        people: People) -> tuple[InteractionHandle, Message]:
    """Bob's `/vote start` of a 24-hour poll on the queue's top 3: its answer and the poll."""
    start = await standin.slash("vote start", {"from": 3, "hours": 24, "style": "poll"},
                                guild=guild, user=people.bob)
    posted = await start.answer()
    assert posted.poll is not None
    return start, posted


async def test_poll_answers_are_the_titles_as_written(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    """Discord shows poll text as typed: no Markdown escaping (`ℓ\\_2` would show its
    backslash)."""
    written = ("ℓ_2 bounds for *sparse* ridge", "Why `__init__` & <T> matter", "A > B ~ C")
    added = [outcome.paper for outcome in await bot.services.catalog.add_papers(
        [replace(bundled_papers[0], title_en=text, title_zh="") for text in written])]
    await _queue(standin, guild, people, added)
    start = await standin.slash("vote start", {"from": 3, "style": "poll"}, guild=guild,
                                user=people.bob)
    start_message = await start.answer()
    assert start_message.poll is not None
    answers = {a["poll_media"]["text"] for a in start_message.poll.answers}
    assert answers == set(written)


async def test_a_poll_started_while_another_process_writes_is_posted_in_the_channel(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        settings: Settings, bundled_papers: list[Paper]) -> None:
    """The wait for the write lock defers privately; the poll still goes to the channel."""
    await _queue(standin, guild, people, bundled_papers[:3])
    other = sqlite3.connect(settings.database.path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        start = await standin.slash("vote start", {"from": 3, "style": "poll"}, guild=guild,
                                    user=people.bob)
        assert (await start.response()).type == CallbackType.DEFERRED_CHANNEL_MESSAGE
        other.execute("COMMIT")
        posted = await start.answer()
    finally:
        other.close()
    assert posted.poll is not None and not posted.ephemeral
    assert posted.id in {m.id for m in standin.messages(guild.channel("general"))}
    assert (await note_after(start, posted)).ephemeral
