"""Two paperclub processes on one database, both connected (a rolling restart: Discord sends
each interaction to both sessions of the shard, and the first answer wins): three Approve
clicks at once, each handled by both processes, give one decision, a review message that shows
it (edited directly when the winner's answer lost the race) and one DM to the proposer."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord
import pytest

from bot.features.corrections.views import review_embed, review_view
from bot.settings import Settings
from bot.shared.lang import Lang
from discord_standin import Guild, StandIn
from domain.corrections import Field, Proposal, Status, Target
from domain.paper import Paper
from tests.clocks import FakeClock, Ticker
from tests.e2e.harness import start_claim_owner
from tests.e2e.test_corrections import FIXED, _button, _dms, _review
from tests.group import People

Decide = Callable[..., Awaitable[Proposal | None]]


@pytest.fixture
def ticker() -> Ticker:
    return Ticker()


@pytest.fixture
async def standin(guild: Guild, ticker: Ticker) -> AsyncIterator[StandIn]:
    async with StandIn(guilds=[guild], clock=ticker) as server:
        yield server
        assert server.internal_errors == []
        assert server.unknown_requests == []


def _recorded(decide: Decide, outcomes: list[Proposal | None]) -> Decide:
    """`decide`, keeping each outcome (None: someone else decided first)."""

    async def recorded(*args: Any, **kwargs: Any) -> Proposal | None:
        outcome = await decide(*args, **kwargs)
        outcomes.append(outcome)
        return outcome

    return recorded


async def test_two_processes_decide_a_proposal_once(
        standin: StandIn, settings: Settings, guild: Guild, people: People,
        bundled_papers: list[Paper], clock: FakeClock,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    first = await start_claim_owner(standin, settings, clock, "first")
    set_up = await standin.slash("group corrections", {"channel": guild.channel("papers").id},
                                 guild=guild, user=people.bob)
    await set_up.reply()
    second = await start_claim_owner(standin, settings, clock, "second")
    decisions: dict[str, list[Proposal | None]] = {"first": [], "second": []}
    for name, process in (("first", first), ("second", second)):
        service = process.services.corrections
        monkeypatch.setattr(service, "decide", _recorded(service.decide, decisions[name]))
    try:
        paper = bundled_papers[5]
        submitted = await first.services.corrections.propose(
            guild.id, Target(paper.id, Field.TITLE_ZH), FIXED, "", people.alice.id)
        assert submitted.review_channel_id == guild.channel("papers").id
        made = submitted.proposal
        # the first process posts the review message (as `/corrections propose` does)
        channel = first.get_channel(guild.channel("papers").id)
        assert isinstance(channel, discord.TextChannel)
        posted = await channel.send(embed=review_embed(made, paper.title_en, Lang.EN),
                                    view=review_view(made))
        await first.services.corrections.set_review_message(made, channel.id, posted.id)
        review = _review(standin, guild)
        clicks = await asyncio.gather(*(standin.click(review, _button(review, "approve"),
                                                      user=people.bob) for _ in range(3)))
        answers = [await click.response() for click in clicks]
        # the winner's answer may lose to the other process's "already decided"
        assert sum("already decided" in (a.content or "") for a in answers) >= 2
        # every click reached both processes, and only one decision was made of six tries
        async with asyncio.timeout(5):
            while [len(tried) for tried in decisions.values()] != [3, 3]:
                await asyncio.sleep(0.01)
        assert sum(o is not None for tried in decisions.values() for o in tried) == 1
        told = await _dms(standin, people.alice)
        await asyncio.sleep(0.3)
        assert len(told) == 1 and "was approved" in told[0].content
        decided = await second.services.corrections.proposal(guild.id, made.id)
        assert decided.status is Status.APPROVED
        history = await second.services.corrections.history(guild.id, paper.id)
        assert [e.action.value for e in history] == ["proposed", "approved"]
        assert "Approved" in json.dumps(standin.message(review.id).embeds)
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    finally:
        await standin.stop_bot(second)
        await standin.stop_bot(first)
