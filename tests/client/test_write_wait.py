"""The deferral the tree arms per command and the database runs before a write wait."""

from __future__ import annotations

import asyncio
import gc
import weakref

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



async def test_a_deferral_is_forgotten_when_its_task_ends() -> None:
    """A task the command starts (a view's timeout) copies its context: once the command's
    task is over, that copy neither keeps the deferral (and its interaction) nor runs it."""
    deferral = WriteWaitDeferral()
    deferred: list[str] = []
    command_over = asyncio.Event()
    held: list[weakref.ref[Interaction]] = []

    async def later() -> None:  # started by the command, outlives it
        await command_over.wait()
        await deferral()

    async def command() -> asyncio.Task[None]:
        interaction = Interaction()
        held.append(weakref.ref(interaction))

        async def defer() -> None:
            deferred.append(repr(interaction))

        deferral.arm(defer)
        return asyncio.create_task(later())

    child = await asyncio.create_task(command())
    await asyncio.sleep(0)  # the command task's done callbacks
    gc.collect()
    assert held[0]() is None and not child.done()
    command_over.set()
    await child
    assert deferred == []


class Interaction:
    """Stands for the interaction a command's deferral holds."""
