"""The deferral the tree arms per command and the database runs before a write wait."""

from __future__ import annotations

import asyncio

from bot.client.write_wait import WriteWaitDeferral


async def test_an_armed_task_defers_once_and_other_tasks_not_at_all() -> None:
    deferral = WriteWaitDeferral()
    deferred: list[str] = []

    async def command(name: str) -> None:
        async def defer() -> None:
            deferred.append(name)

        deferral.arm(defer)
        await deferral()
        await deferral()  # a second wait in the same command: already deferred

    async def scheduler_tick() -> None:
        await deferral()  # armed nothing: waits as is

    await asyncio.gather(command("a"), scheduler_tick(), command("b"))
    assert sorted(deferred) == ["a", "b"]


async def test_a_failing_deferral_is_logged_not_raised() -> None:
    deferral = WriteWaitDeferral()

    async def broken() -> None:
        raise RuntimeError("interaction already answered")

    async def command() -> bool:
        deferral.arm(broken)
        await deferral()
        return True

    assert await asyncio.create_task(command())
