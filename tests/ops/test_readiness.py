"""Readiness's conditions one by one, on a gateway and a clock of the test's own."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.ops.readiness import Readiness, Shard
from domain.storage_faults import DiskFull


@dataclass
class _Shard:
    closed: bool = False

    def is_closed(self) -> bool:
        return self.closed


@dataclass
class _Gateway:
    ready: bool = True
    running: dict[int, _Shard] = field(default_factory=lambda: {0: _Shard(), 1: _Shard()})

    def is_ready(self) -> bool:
        return self.ready

    @property
    def shards(self) -> Mapping[int, Shard]:
        return self.running


class _Seconds:
    def __init__(self) -> None:
        self.value = 1000.0

    def __call__(self) -> float:
        return self.value


async def _writes() -> None:
    return None


def _readiness(gateway: _Gateway, now: _Seconds) -> Readiness:
    return Readiness(gateway, _writes, tick_seconds=60, timeout=1.0, now=now)


async def test_ready_when_every_shard_is_up_the_database_writes_and_the_scheduler_ticks() -> None:
    assert await _readiness(_Gateway(), _Seconds()).problems() == []


async def test_not_ready_before_the_first_connection() -> None:
    readiness = _readiness(_Gateway(ready=False), _Seconds())
    assert await readiness.problems() == ["not connected to Discord's gateway yet"]


async def test_each_shard_that_is_down_is_named() -> None:
    gateway = _Gateway()
    gateway.running[1].closed = True
    assert await _readiness(gateway, _Seconds()).problems() == [
        "shard 1 is not connected to Discord's gateway"]


async def test_a_scheduler_silent_for_more_than_two_ticks_is_not_ready() -> None:
    now = _Seconds()
    readiness = _readiness(_Gateway(), now)
    now.value += 120  # two ticks: still fine
    assert await readiness.problems() == []
    now.value += 1
    assert await readiness.problems() == [
        "the scheduler has not ticked for 121 s (it should every 60 s)"]
    readiness.ticked()
    assert await readiness.problems() == []


async def test_a_database_that_refuses_the_write_is_named() -> None:
    async def full() -> None:
        raise DiskFull("disk full: database or disk is full")

    readiness = Readiness(_Gateway(), full, tick_seconds=60, timeout=1.0, now=_Seconds())
    assert await readiness.problems() == [
        "the database cannot be written: disk full: database or disk is full"]


async def test_closing_cancels_a_probe_stuck_behind_a_lock() -> None:
    import asyncio

    stuck = asyncio.Event()

    async def blocked() -> None:
        await stuck.wait()  # a PostgreSQL lock held elsewhere, never released

    readiness = Readiness(_Gateway(), blocked, tick_seconds=60, timeout=0.01, now=_Seconds())
    assert await readiness.problems() == ["the database did not take a write within 0.01 s"]
    assert await readiness.problems() == ["the database did not take a write within 0.01 s"]
    await readiness.close(wait=0.01)
    assert readiness._probing is not None and readiness._probing.cancelled()
