"""Corrections (纠错) end to end through the stand-in: a member proposes through the form, a
curator approves or rejects on the review message, and `/paper` shows the server's corrected
card at once, after `/catalog reload` of the unchanged listing and after a restart; another
server never sees it."""

from __future__ import annotations

import asyncio
import json

from bot.client.bot import PaperclubBot
from bot.settings import Settings
from discord_standin import Guild, Message, StandIn, User
from domain.corrections import Field, Target
from domain.paper import Paper
from tests.clocks import FakeClock
from tests.e2e.harness import start_paperclub
from tests.group import People

FIXED = "更准确的中文标题"


async def _card_text(standin: StandIn, guild: Guild | None, paper: Paper, people: People) -> str:
    """Everything `/paper <id>` shows a Chinese reader, as one string."""
    handle = await standin.slash("paper", {"query": paper.id}, guild=guild, user=people.bob,
                                 locale="zh-CN")
    reply = await handle.reply()
    return json.dumps(reply.embeds, ensure_ascii=False)


async def test_an_approved_correction_shows_on_the_card_in_its_server_only(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper], settings: Settings, clock: FakeClock) -> None:
    paper = bundled_papers[0]
    service = bot.services.corrections
    submitted = await service.propose(
        guild.id, Target(paper.id, Field.TITLE_ZH), FIXED, "", people.alice.id)
    made = submitted.proposal
    assert FIXED not in await _card_text(standin, guild, paper, people)
    await service.decide(guild.id, made.id, approve=True, by=people.bob.id)
    assert FIXED in await _card_text(standin, guild, paper, people)
    by_words = await standin.slash("paper", {"query": paper.title_en}, guild=guild,
                                   user=people.bob, locale="zh-CN")
    assert FIXED in json.dumps((await by_words.reply()).embeds, ensure_ascii=False)
    reload = await standin.slash("catalog reload", guild=guild, user=people.bob)
    assert "30 unchanged" in (await reload.followup()).content
    assert FIXED in await _card_text(standin, guild, paper, people)
    assert FIXED not in await _card_text(standin, None, paper, people)  # a DM: no server
    other = await standin.add_guild(Guild("elsewhere", members=[people.bob]))
    assert FIXED not in await _card_text(standin, other, paper, people)
    await standin.stop_bot(bot)
    restarted = await start_paperclub(standin, settings, clock)
    try:
        assert FIXED in await _card_text(standin, guild, paper, people)
    finally:
        await standin.stop_bot(restarted)


def _review(standin: StandIn, guild: Guild) -> Message:
    """The latest review message in the curators' channel."""
    return standin.messages(guild.channel("papers"))[-1]


async def _dms(standin: StandIn, user: User) -> list[Message]:
    """The member's DMs, once at least one has come (the notice follows the click's answer)."""
    async with asyncio.timeout(5):
        while not (found := standin.messages(standin.dm_channel(user))):
            await asyncio.sleep(0.01)
    return found


def _button(message: Message, decision: str) -> str:
    (custom_id,) = [str(c["custom_id"]) for c in message.walk_components()
                    if c.get("type") == 2 and str(c["custom_id"]).endswith(decision)]
    return custom_id


async def _propose(standin: StandIn, guild: Guild, user: User, paper: Paper, field: str,
                   value: str, reason: str = "") -> tuple[str, str]:
    """Open the form, read its prefilled value, send it; (prefilled, the bot's answer)."""
    opened = await standin.slash("corrections propose", {"paper": paper.id, "field": field},
                                 guild=guild, user=user)
    await opened.response()
    assert opened.modal is not None
    (prefilled,) = [c.get("value", "") for row in opened.modal["components"]
                    for c in row["components"] if c["custom_id"] == "value"]
    sent = await standin.submit_modal(opened, {"value": value, "reason": reason})
    return str(prefilled), (await sent.reply()).content


async def test_propose_review_approve_once_and_trace(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    paper = bundled_papers[1]
    refused = await standin.slash("group corrections", {"channel": guild.channel("papers").id},
                                  guild=guild, user=people.alice)
    assert "Manage Server" in (await refused.reply()).content
    set_up = await standin.slash("group corrections", {"channel": guild.channel("papers").id},
                                 guild=guild, user=people.bob)
    assert "Proposals go to" in (await set_up.reply()).content
    hostile = (f"@everyone <@{people.bob.id}> **loud** ```x``` \ud800 " + "长" * 4000)
    prefilled, answer = await _propose(standin, guild, people.alice, paper, "title_zh", FIXED,
                                       hostile)
    assert prefilled == paper.title_zh
    assert "too long" in answer  # the reason is limited; nothing was stored
    prefilled, answer = await _propose(standin, guild, people.alice, paper, "title_zh", FIXED,
                                       hostile[:200])
    assert "sent to the curators" in answer
    review = _review(standin, guild)
    assert review.pings.everyone is False and not review.pings.users
    text = json.dumps(review.embeds, ensure_ascii=False)
    assert f"- {paper.title_zh}" in text and f"+ {FIXED}" in text
    assert "\\\\*\\\\*loud" in text and "```x```" not in text and "\ud800" not in text
    # a member is not a curator; two curators' clicks at once give one decision
    member_click = await standin.click(review, _button(review, "approve"), user=people.alice)
    assert "Only curators" in (await member_click.reply()).content
    clicks = await asyncio.gather(*(standin.click(review, _button(review, "approve"),
                                                  user=people.bob) for _ in range(3)))
    answers = [await click.response() for click in clicks]
    assert sum("already decided" in (a.content or "") for a in answers) == 2
    told = await _dms(standin, people.alice)
    await asyncio.sleep(0.2)  # a second notice would have come by now
    assert len(told) == 1 and len(await _dms(standin, people.alice)) == 1
    assert "was approved" in told[0].content
    assert FIXED in await _card_text(standin, guild, paper, people)
    listed = await standin.slash("corrections list", {"status": "approved"}, guild=guild,
                                 user=people.carol)
    assert FIXED in (await listed.reply()).content
    shown = await standin.slash("corrections show", {"correction": 1}, guild=guild,
                                user=people.carol)
    (card,) = (await shown.reply()).embeds
    assert "Approved" in json.dumps(card)
    assert paper.title_en in card["title"] and paper.id not in card["title"]
    history = await standin.slash("corrections history", {"paper": paper.id}, guild=guild,
                                  user=people.carol)
    assert "approved by" in (await history.reply()).content
    not_curator = await standin.slash("corrections revert", {"correction": 1}, guild=guild,
                                      user=people.alice)
    assert "Only curators" in (await not_curator.reply()).content
    reverted = await standin.slash("corrections revert", {"correction": 1, "reason": "上游已改"},
                                   guild=guild, user=people.bob)
    assert "withdrawn" in (await reverted.reply()).content
    assert FIXED not in await _card_text(standin, guild, paper, people)


async def test_a_rejected_proposal_changes_nothing_and_a_closed_dm_is_survived(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    paper = bundled_papers[2]
    await (await standin.slash("group corrections", {"channel": guild.channel("papers").id},
                               guild=guild, user=people.bob)).reply()
    _, answer = await _propose(standin, guild, people.carol, paper, "title_zh", "错的标题")
    assert "sent to the curators" in answer
    review = _review(standin, guild)
    rejected = await standin.click(review, _button(review, "reject"), user=people.bob)
    await rejected.response()
    assert "Rejected" in json.dumps(standin.message(review.id).embeds)
    assert "错的标题" not in await _card_text(standin, guild, paper, people)
    # carol's DMs are closed: she is told the next time she lists corrections, once
    told = ""
    async with asyncio.timeout(5):
        while "was not accepted" not in told:
            listed = await standin.slash("corrections list", guild=guild, user=people.carol)
            told = (await listed.reply()).content
    again = await standin.slash("corrections list", guild=guild, user=people.carol)
    assert "was not accepted" not in (await again.reply()).content
    assert standin.messages(standin.dm_channel(people.carol)) == []


async def test_forget_me_leaves_the_correction_by_a_former_member(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    paper = bundled_papers[3]
    service = bot.services.corrections
    made = (await service.propose(guild.id, Target(paper.id, Field.TITLE_ZH), FIXED, "",
                                  people.alice.id)).proposal
    await service.decide(guild.id, made.id, approve=True, by=people.bob.id)
    forgot = await standin.slash("forget-me", user=people.alice)
    assert "1 correction" in (await forgot.reply()).content
    shown = await standin.slash("corrections show", {"correction": made.id}, guild=guild,
                                user=people.bob)
    card = json.dumps((await shown.reply()).embeds)
    assert "a former member" in card and str(people.alice.id) not in card
    assert FIXED in await _card_text(standin, guild, paper, people)
    history = await standin.slash("corrections history", {"paper": paper.id}, guild=guild,
                                  user=people.bob)
    lines = ((await history.reply()).content or "").splitlines()
    assert lines[0].startswith("#") and "proposed by a former member" in lines[0]
    assert str(people.alice.id) not in "".join(lines) and f"<@{people.bob.id}>" in lines[1]


async def test_a_closed_dm_outcome_is_told_with_the_next_corrections_command(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    paper = bundled_papers[7]
    await (await standin.slash("group corrections", {"channel": guild.channel("papers").id},
                               guild=guild, user=people.bob)).reply()
    _, answer = await _propose(standin, guild, people.carol, paper, "title_zh", FIXED)
    assert "sent to the curators" in answer
    review = _review(standin, guild)
    await (await standin.click(review, _button(review, "approve"), user=people.bob)).response()
    # carol's DMs are closed (Discord refuses with 50007): her next /corrections show says so
    told = ""
    async with asyncio.timeout(30):
        while "was approved" not in told:
            shown = await standin.slash("corrections show", {"correction": 1}, guild=guild,
                                        user=people.carol)
            reply = await shown.reply()
            assert reply.embeds  # the card is answered either way
            told = reply.content or ""
    history = await standin.slash("corrections history", {"paper": paper.id}, guild=guild,
                                  user=people.carol)
    assert "was approved" not in ((await history.reply()).content or "")  # once
    assert standin.messages(standin.dm_channel(people.carol)) == []


async def test_the_outcome_dm_is_in_the_proposers_language(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    """Alice proposes from a zh-TW client; an English curator approves in an English server:
    her DM is in Traditional Chinese."""
    set_up = await standin.slash("group corrections", {"channel": guild.channel("papers").id},
                                 guild=guild, user=people.bob)
    await set_up.reply()
    opened = await standin.slash("corrections propose",
                                 {"paper": bundled_papers[2].id, "field": "title_zh"},
                                 guild=guild, user=people.alice, locale="zh-TW")
    await opened.response()
    sent = await standin.submit_modal(opened, {"value": FIXED, "reason": ""})
    await sent.reply()
    review = _review(standin, guild)
    click = await standin.click(review, _button(review, "approve"), user=people.bob)
    await click.response()
    (told,) = await _dms(standin, people.alice)
    assert "已通過" in told.content and "approved" not in told.content
