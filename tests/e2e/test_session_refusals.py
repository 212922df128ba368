"""What Discord refuses about a session, a member or organiser can cause: a sentence and a way
forward in the reader's language, never Discord's bare status and code."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.client.bot import PaperclubBot
from bot.features.sessions.poster import MISSING_PERMISSIONS, event_failure
from bot.shared.lang import Lang
from bot.shared.messages import render_reason
from discord_standin import Guild, StandIn
from domain.paper import Paper
from tests.clocks import FakeClock
from tests.group import People


@pytest.mark.parametrize("in_discord", ["deleted", "ended"])
async def test_moving_a_session_whose_event_went_away_makes_a_new_event(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper], clock: FakeClock, in_discord: str) -> None:
    standin.set_clock(clock)
    scheduled = await standin.slash("session schedule", {
        "paper": bundled_papers[0].id, "when": "2026-12-03 18:00",
        "link": "https://meet.example.org/rg"}, guild=guild, user=people.bob)
    await scheduled.followup()
    (event,) = standin.scheduled_events(guild)
    if in_discord == "deleted":
        del standin.world.scheduled_events[int(event["id"])]
    else:
        event["status"] = 3  # completed
    moved = await standin.slash("session move", {"session": 1, "when": "2026-12-04 19:30"},
                                guild=guild, user=people.bob, locale="zh-CN")
    answer = (await moved.reply()).content
    assert "Discord" not in answer and "10070" not in answer and "180000" not in answer
    new = [e for e in standin.scheduled_events(guild) if e["status"] == 1]
    assert len(new) == 1 and new[0]["id"] != event["id"]
    assert datetime.fromisoformat(new[0]["scheduled_start_time"]) == datetime.fromisoformat(
        "2026-12-04T19:30:00+00:00")
    session, _ = await bot.services.sessions.session(guild.id, 1)
    assert session.event_id == int(new[0]["id"])
    cancelled = await standin.slash("session cancel", {"session": 1}, guild=guild,
                                    user=people.bob)
    await cancelled.reply()
    assert not [e for e in standin.scheduled_events(guild) if e["status"] == 1]


@pytest.mark.parametrize(("lang", "forward"), [(Lang.EN, "Create Events"),
                                               (Lang.ZH_HANS, "创建活动"),
                                               (Lang.ZH_HANT, "建立活動")])
def test_an_event_refused_for_permissions_says_which_to_give(lang: Lang, forward: str) -> None:
    response = cast(Any, SimpleNamespace(status=403, reason="Forbidden"))
    refused = discord.Forbidden(response, {"code": MISSING_PERMISSIONS,
                                           "message": "Missing Permissions"})
    text = render_reason(lang, event_failure(refused).reason)
    assert forward in text and "50013" not in text
