"""SIGKILL the real bot process at each step of a curator's decision: after the decision is
stored (the click's answer not given), while the proposer's DM is on its way (Discord took it,
its answer not yet back), and before the DM is sent; restart it. The proposer is told once and
the review message shows the decision, its buttons disabled."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.features.catalog.loader import load_catalog
from bot.features.corrections.views import review_embed, review_view
from bot.shared.lang import Lang
from discord_standin import Fault, Guild, Message, StandIn, User
from domain.corrections import Field, NewProposal, ReviewSettings, Target
from storage import backend as stores
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.e2e.test_announce_crash import _connected
from tests.e2e.test_corrections import _button
from tests.e2e.test_digest_crash import ROOT, _until
from tests.e2e.test_dm_crash import PacedBotProcess

pytestmark = pytest.mark.slow

# step -> (the route held back or failed, the fault (None: Discord takes the request and its
# answer is held back))
STEPS = {
    "decided, not answered": ("/interactions/*/*/callback", Fault.server_error(500)),
    "DM sent, not recorded": ("/channels/*/messages", None),
    "answered, DM not sent": ("/channels/*/messages", Fault.server_error(500)),
}


async def _review(standin: StandIn, bot: PacedBotProcess, guild: Guild,
                  proposer: User) -> Message:
    """A pending proposal and its review message in #papers, as `/corrections propose` left
    them."""
    papers = guild.channel("papers")
    db = await Database.open(bot.db_path)
    try:
        store = SqlitePaperStore(db)
        await load_catalog(store, ROOT / "bot" / "data" / "icml2026.txt")
        paper_id = (await store.paper_ids())[0]
        corrections = stores.CORRECTIONS.open(db)
        await corrections.set_review_settings(guild.id, ReviewSettings(papers.id, None))
        made = await corrections.propose(NewProposal(
            guild.id, Target(paper_id, Field.TITLE_ZH), "旧", "更准确的中文标题", "",
            proposer.id, datetime.now(UTC)))
        message = standin.world.create_message(papers, standin.bot_user, {
            "embeds": [review_embed(made, "A paper", Lang.EN).to_dict()],
            "components": review_view(made).to_components()})
        await corrections.set_review_message(made.id, papers.id, message.id)
    finally:
        await db.close()
    return message


def _shows_the_decision(standin: StandIn, review: Message) -> bool:
    message = standin.message(review.id)
    buttons = [c for c in message.walk_components() if c.get("type") == 2]
    return "Approved" in json.dumps(message.embeds) and all(b.get("disabled") for b in buttons)


@pytest.mark.parametrize("step", list(STEPS))
async def test_killed_at_each_step_of_a_decision_the_proposer_is_told_once(
        tmp_path: Path, step: str) -> None:
    proposer, curator = User("proposer"), User("curator")
    guild = Guild("Crash Group", channels=["papers"], members=[proposer, curator],
                  owner=curator)
    async with StandIn(guilds=[guild]) as standin:
        bot = PacedBotProcess(standin, tmp_path)
        review = await _review(standin, bot, guild, proposer)
        route, fault = STEPS[step]
        held = (standin.stall("POST", route) if fault is None else
                standin.fail("POST", route, fault, times=1000))
        await _connected(standin, bot)
        try:
            await standin.click(review, _button(review, "approve"), user=curator)

            async def reached() -> bool:
                return bool(standin.requests("POST", route.rsplit("*", 1)[-1]))

            await _until(reached, f"the bot to reach '{step}'")
            await bot.kill()
        finally:
            await bot.stop()
        standin.rest.faults.clear()
        if fault is None:
            held.release()  # type: ignore[union-attr]
        await _connected(standin, bot)
        try:
            async def settled() -> bool:
                return (_shows_the_decision(standin, review)
                        and bool(standin.messages(standin.dm_channel(proposer))))

            await _until(settled, "the decision shown and the proposer told", timeout=60)
            await asyncio.sleep(0.5)  # time for a wrong second DM to show up
        finally:
            await bot.stop()
        told = standin.messages(standin.dm_channel(proposer))
        assert len(told) == 1 and "was approved" in told[0].content, told
        assert _shows_the_decision(standin, review)
        assert "Traceback" not in bot.log.read_text(encoding="utf-8"), bot.log.read_text()
