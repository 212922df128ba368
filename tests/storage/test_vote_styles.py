"""A vote's style on both backends: a poll vote keeps its style and its poll's message, and its
close is claimed once like a button vote's."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from domain.leases import Lease
from domain.polls import VoteStyle
from domain.votes import VoteOption, VoteStatus
from tests.backends import Backend

T0 = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


async def test_a_poll_vote_keeps_its_style_and_message_and_is_claimed_once(
        backend: Backend) -> None:
    votes = backend.votes()
    options = [VoteOption(1, "aaa", 1, T0), VoteOption(2, "bbb", 2, T0)]
    poll = await votes.open(1, 5, 10, T0, T0 + timedelta(hours=2), options,
                            style=VoteStyle.POLL)
    buttons = await votes.open(2, 6, 10, T0, T0 + timedelta(hours=2), options)
    assert poll is not None and buttons is not None
    assert (poll.style, buttons.style) == (VoteStyle.POLL, VoteStyle.BUTTONS)
    await votes.set_message(poll.id, 4242)
    stored = await votes.get(poll.id)
    assert stored is not None and (stored.style, stored.message_id) == (VoteStyle.POLL, 4242)
    assert [v.style for v in await votes.due(T0 + timedelta(hours=2))] == [VoteStyle.POLL,
                                                                           VoteStyle.BUTTONS]
    claims = await asyncio.gather(*(
        votes.claim(poll.id, "bbb", "n", T0, early=False,
                    lease=Lease(f"p{n}", T0 + timedelta(minutes=5))) for n in range(4)))
    assert sorted(claims) == [False, False, False, True]
    (unfinished,) = await votes.unfinished()
    assert (unfinished.id, unfinished.style, unfinished.winner) == (poll.id, VoteStyle.POLL,
                                                                    "bbb")
    await votes.mark_announced(poll.id, 99, T0)
    latest = await votes.latest(1)
    assert latest is not None and (latest.status, latest.style) == (VoteStatus.ANNOUNCED,
                                                                    VoteStyle.POLL)
