"""Readiness: is this process doing its job? Every shard it runs is connected to Discord's
gateway, the database takes a write, and the scheduler has woken within two of its ticks.
Each failed condition is one sentence an operator can act on."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Protocol

from domain.storage_faults import StorageError


class Shard(Protocol):
    """What readiness asks of a discord.py shard (`ShardInfo`)."""

    def is_closed(self) -> bool:
        """Whether its gateway connection is down."""
        ...


class Gateway(Protocol):
    """What readiness asks of the bot's connection to Discord."""

    def is_ready(self) -> bool:
        """Whether every shard has been ready once."""
        ...

    @property
    def shards(self) -> Mapping[int, Shard]:
        """The shards this process runs, by id."""
        ...


CLOSE_WAIT_SECONDS = 15.0
"""How long closing waits for a database probe in flight before cancelling it."""
Probe = Callable[[], Coroutine[Any, Any, None]]
"""A small write to the database (it raises when the database does not take it)."""


class Readiness:
    """The readiness conditions, asked on each `/readyz`.

    The database probe runs as one task at a time: a request that finds it still running (a
    write lock held elsewhere) waits for the same one, up to `timeout`, and never cancels it
    mid-statement."""

    def __init__(self, gateway: Gateway, probe: Probe, *, tick_seconds: float,
                 timeout: float, now: Callable[[], float]) -> None:
        self.gateway = gateway
        self.probe = probe
        self.tick_seconds = tick_seconds
        self.timeout = timeout
        self.now = now
        self.last_tick = now()
        """When the scheduler last woke the bot (the start counts as one)."""
        self._probing: asyncio.Task[None] | None = None

    def ticked(self) -> None:
        """The scheduler woke the bot now."""
        self.last_tick = self.now()

    async def problems(self) -> list[str]:
        """Why this process is not ready (none: ready)."""
        problems = self._gateway_problems()
        since = self.now() - self.last_tick
        if since > 2 * self.tick_seconds:
            problems.append(f"the scheduler has not ticked for {since:.0f} s "
                            f"(it should every {self.tick_seconds:g} s)")
        if (database := await self._database_problem()) is not None:
            problems.append(database)
        return problems

    def _gateway_problems(self) -> list[str]:
        if not self.gateway.is_ready():
            return ["not connected to Discord's gateway yet"]
        down = [shard_id for shard_id, shard in sorted(self.gateway.shards.items())
                if shard.is_closed()]
        return [f"shard {shard_id} is not connected to Discord's gateway" for shard_id in down]

    async def _database_problem(self) -> str | None:
        if self._probing is None or self._probing.done():
            self._probing = asyncio.create_task(self.probe(), name="readiness: database probe")
        try:
            await asyncio.wait_for(asyncio.shield(self._probing), self.timeout)
        except TimeoutError:
            return f"the database did not take a write within {self.timeout:g} s"
        except StorageError as exc:
            return f"the database cannot be written: {' '.join(str(exc).split())}"
        return None

    async def close(self, wait: float = CLOSE_WAIT_SECONDS) -> None:
        """Let a probe still running end (SQLite's write wait bounds it), cancelling it after
        `wait` seconds (a PostgreSQL lock held elsewhere has no bound of its own)."""
        if self._probing is None or self._probing.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(self._probing), wait)
        except TimeoutError:
            self._probing.cancel()
        with contextlib.suppress(BaseException):
            await self._probing
