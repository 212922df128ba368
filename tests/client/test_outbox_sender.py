"""The outbox sender's clean stop, on both backends: what the stopping process leased and will
not finish is given back, so the next process sends it at once rather than after the lease."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.features.notifications.outbox import OutboxService
from bot.features.notifications.sender import OutboxSender
from domain.outbox import OutboxEntry, OutboxKind, OutboxUnit
from tests.backends import Backend, enqueue

LEASE = 600.0
"""Long enough that a unit still leased after the stop could not be claimed in this test."""


class HeldChannel:
    """A channel whose sends Discord holds until the test lets them go."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.sent: list[str] = []

    async def send(self, content: str, **_: Any) -> None:
        self.started.set()
        await asyncio.Event().wait()  # never answered
        self.sent.append(content)


class FakeClient:
    """The two calls the sender makes for a follow-up mention."""

    def __init__(self, channel: HeldChannel) -> None:
        self.channel = channel

    def get_guild(self, guild_id: int) -> None:
        return None

    def get_partial_messageable(self, channel_id: int, **_: Any) -> HeldChannel:
        return self.channel


def _mention(n: int) -> OutboxUnit:
    return OutboxUnit(f"mention:10:p{n}", OutboxKind.MENTION,
                      (OutboxEntry(10, 100 + n, f"p{n}", ("grokking",), channel_id=5),))


def _service(backend: Backend) -> OutboxService:
    return OutboxService(backend.outbox(), backend.subscriptions(), backend.papers(),
                         lease_seconds=LEASE)


async def test_a_clean_stop_gives_back_the_send_it_interrupts(backend: Backend) -> None:
    await enqueue(backend.db, [_mention(1), _mention(2)])
    channel = HeldChannel()
    sender = OutboxSender(FakeClient(channel), _service(backend),  # type: ignore[arg-type]
                          interval=0.01, poll=0.05)
    sender.start()
    await asyncio.wait_for(channel.started.wait(), 5)

    await asyncio.wait_for(sender.stop(0.05), 10)

    assert channel.sent == []
    leased = await backend.rows("SELECT unit FROM outbox WHERE owner IS NOT NULL "
                                "OR lease_until IS NOT NULL")
    assert leased == []
    # The next process claims the interrupted unit at once, oldest first.
    unit = await _service(backend).claim("next")
    assert unit is not None and unit.key == "mention:10:p1" and unit.attempts == 2


async def test_a_sender_stopped_before_it_started_never_leases(backend: Backend) -> None:
    """A close during log-in (before `setup_hook` started the sender) must not let a later
    start lease units the closing process would never finish."""
    await enqueue(backend.db, [_mention(1)])
    channel = HeldChannel()
    sender = OutboxSender(FakeClient(channel), _service(backend),  # type: ignore[arg-type]
                          interval=0.01, poll=0.05)
    await sender.stop(0.05)
    sender.start()
    await asyncio.sleep(0.2)
    assert not channel.started.is_set()
    assert await backend.rows("SELECT unit FROM outbox WHERE owner IS NOT NULL") == []
