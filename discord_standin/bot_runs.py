"""Bots started against a stand-in, each running `bot.start(token)` in a task of its own: the
in-process stand-in and the bench's client of an out-of-process one start and stop them alike."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

import discord


class BotRuns:
    """The started bots and their tasks."""

    def __init__(self) -> None:
        self._tasks: dict[discord.Client, asyncio.Task[None]] = {}

    def __iter__(self) -> Iterator[discord.Client]:
        """The bots started and not stopped (a copy: stopping them while iterating is fine)."""
        return iter(list(self._tasks))

    async def start(self, bot: discord.Client, token: str, *, timeout: float,
                    name: str) -> None:
        """Run `bot.start(token)` in a task and return once the bot is ready; a bot that
        stops or is not ready within `timeout` is closed again and its error raised."""
        task = asyncio.create_task(bot.start(token), name=name)
        self._tasks[bot] = task
        try:
            async with asyncio.timeout(timeout):
                while not bot.is_ready():
                    if task.done():
                        task.result()
                        raise RuntimeError("the bot stopped before it was ready")
                    await asyncio.sleep(0.005)
        except BaseException:
            with contextlib.suppress(Exception):
                await self.stop(bot)
            raise

    async def stop(self, bot: discord.Client) -> None:
        """Close `bot` and wait for its task; re-raises what the task raised."""
        task = self._tasks.pop(bot, None)
        await bot.close()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await task
