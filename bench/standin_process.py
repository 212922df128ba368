"""The Discord stand-in in a process of its own, for benches that time the bot alone.

`StandInProcess` starts `python -m discord_standin` (one guild, one member), points this
process's discord.py at it, starts and stops bots against it, and runs batches of `/paper`
lookups through its control API: the stand-in injects each interaction and times the bot's
first callback in its own process, so neither its JSON, websocket and HTTP work nor the bench's
bookkeeping shares the bot's interpreter and event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import aiohttp
import discord

from bot.client.endpoints import set_discord_endpoints
from discord_standin import BotRuns

ROOT = Path(__file__).resolve().parent.parent
START_SECONDS = 30.0
TOKEN = "standin-token"  # the stand-in accepts any token


@dataclass(frozen=True, slots=True)
class Answer:
    """One lookup as the stand-in saw it: callback type (None: none in time) and its times."""

    type: int | None
    inject_ms: float
    """From the stand-in's call until INTERACTION_CREATE was sent."""
    answer_ms: float
    """From INTERACTION_CREATE sent until the bot's first callback arrived."""
    seen_ms: float | None = None
    """From INTERACTION_CREATE sent until the answer the member sees (the followup after a
    deferral); None when it never came."""

    @property
    def round_trip_ms(self) -> float:
        """Both: from deciding to send the interaction until its answer."""
        return self.inject_ms + self.answer_ms


@dataclass(frozen=True, slots=True)
class Batch:
    """A batch's answers in order, its wall time and the stand-in process's CPU time in it."""

    answers: list[Answer]
    seconds: float
    standin_cpu_seconds: float


class StandInProcess:
    """`async with StandInProcess() as standin:` a running stand-in in a child process."""

    def __init__(self, member: str = "reader") -> None:
        self.member = member
        self._proc: asyncio.subprocess.Process | None = None
        self._session: aiohttp.ClientSession | None = None
        self._bots = BotRuns()
        self.control = self.guild_id = self.user_id = ""

    async def __aenter__(self) -> StandInProcess:
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "discord_standin", "--member", self.member, cwd=ROOT,
            stdout=asyncio.subprocess.PIPE)
        try:
            assert self._proc.stdout is not None
            line = await asyncio.wait_for(self._proc.stdout.readline(), START_SECONDS)
            if not line:
                raise RuntimeError("python -m discord_standin stopped before it was ready")
            where = json.loads(line)
        except BaseException:
            await self._end()
            raise
        set_discord_endpoints(where["rest_base"], where["gateway_url"])
        self.control = where["control"]
        self.guild_id = where["guilds"][0]["id"]
        self.user_id = where["users"][self.member]
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None))
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        for bot in self._bots:
            with contextlib.suppress(Exception):
                await self.stop_bot(bot)
        if self._session is not None:
            with contextlib.suppress(aiohttp.ClientError):
                await self._session.post(f"{self.control}/stop")
            await self._session.close()
        await self._end()

    async def _end(self) -> None:
        if self._proc is None or self._proc.returncode is not None:
            return
        try:
            await asyncio.wait_for(self._proc.wait(), 10)
        except TimeoutError:
            self._proc.kill()  # our own child, by its handle
            await self._proc.wait()

    @property
    def returncode(self) -> int | None:
        """The stand-in process's exit status once it has ended."""
        return None if self._proc is None else self._proc.returncode

    async def start_bot(self, bot: discord.Client, timeout: float = 60.0) -> None:
        """Start `bot` against the stand-in and return once it is ready."""
        await self._bots.start(bot, TOKEN, timeout=timeout, name="bench-bot")

    async def stop_bot(self, bot: discord.Client) -> None:
        """Close `bot` and wait for it."""
        await self._bots.stop(bot)

    async def lookups(self, queries: Sequence[str], *, in_flight: int = 1,
                      keep: int | None = None, timeout: float = 30.0) -> Batch:
        """`/paper query:…` for each query, `in_flight` at once (one at a time: each after the
        previous answer's requests ended).
        `keep`: then forget all but that many interactions (the stand-in's records)."""
        assert self._session is not None, "use `async with StandInProcess()`"
        body = {"command": "paper", "options": [{"query": q} for q in queries],
                "guild": self.guild_id, "user": self.user_id, "in_flight": in_flight,
                "keep": keep, "timeout": timeout}
        async with self._session.post(f"{self.control}/interactions", json=body) as response:
            if response.status != 200:
                raise RuntimeError(f"stand-in refused the batch: {await response.text()}")
            data = await response.json()
        answers = [Answer(r["type"], r["inject_ms"], r["answer_ms"], r["seen_ms"])
                   for r in data["results"]]
        return Batch(answers, float(data["seconds"]), float(data["cpu_seconds"]))

    async def problems(self) -> list[str]:
        """The stand-in's internal errors and unknown requests, as text."""
        assert self._session is not None, "use `async with StandInProcess()`"
        async with self._session.get(f"{self.control}/problems") as response:
            data = await response.json()
        return ([f"stand-in internal error: {e}" for e in data["internal_errors"]]
                + [f"unknown request: {r}" for r in data["unknown_requests"]])
