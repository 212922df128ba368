"""`/paper`'s deadline keeper: defer when the answer cannot come within Discord's 3 seconds."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, cast

import discord

from bot.features.papers.cog import BUSY_LOOKUPS, Deadline


@dataclass
class _Response:
    deferred: list[bool] = field(default_factory=list)

    async def defer(self, *, ephemeral: bool, thinking: bool) -> None:
        self.deferred.append(ephemeral)


@dataclass
class _Interaction:
    created_at: datetime
    response: _Response = field(default_factory=_Response)
    extras: dict[str, object] = field(default_factory=dict)


def _interaction(age: timedelta = timedelta(0)) -> Any:
    return _Interaction(discord.utils.utcnow() - age)


async def _quick() -> str:
    return "found"


async def test_a_quick_answer_on_an_idle_bot_is_not_deferred() -> None:
    interaction = _interaction()
    assert await Deadline().answer(cast(discord.Interaction, interaction), _quick(),
                                   ephemeral=False) == "found"
    assert interaction.response.deferred == []


async def test_an_interaction_that_waited_in_a_busy_loop_is_deferred_before_the_work() -> None:
    interaction = _interaction(age=timedelta(seconds=2))
    started = asyncio.Event()

    async def work() -> str:
        started.set()
        assert interaction.response.deferred == [True]  # deferred before the search ran
        return "found"

    assert await Deadline().answer(cast(discord.Interaction, interaction), work(),
                                   ephemeral=True) == "found"
    assert started.is_set()


async def test_past_the_busy_mark_a_lookup_is_deferred_at_once() -> None:
    deadline = Deadline()
    release = asyncio.Event()

    async def slow() -> str:
        await release.wait()
        return "found"

    waiting = [_interaction() for _ in range(BUSY_LOOKUPS + 3)]
    tasks = [asyncio.ensure_future(deadline.answer(cast(discord.Interaction, i), slow(),
                                                   ephemeral=False)) for i in waiting]
    await asyncio.sleep(0)  # every lookup has started and is waiting for its search
    assert deadline.in_flight == len(waiting)
    deferred = [i for i in waiting if i.response.deferred]
    assert len(deferred) == 3 and deferred == waiting[BUSY_LOOKUPS:]
    release.set()
    assert await asyncio.gather(*tasks) == ["found"] * len(waiting)
    assert deadline.in_flight == 0
