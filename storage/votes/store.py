"""Votes on the next paper: the vote, its options, ballots, and the close claimed once.

At most one live vote per server (a partial unique index); the close is one conditional
`UPDATE … WHERE status = 'open'`, so of any number of processes closing a vote one wins; a
ballot reads the vote under a share lock (PostgreSQL; SQLite's transaction holds the write lock),
so it is either counted before the close or refused.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from domain.leases import Lease
from domain.polls import VoteStyle
from domain.reasons import Reason
from domain.votes import BallotOutcome, Vote, VoteOption, VoteStatus
from storage.db import Store
from storage.times import stored
from storage.votes.rows import (
    LIVE,
    OPTION_COLUMNS,
    VOTE_COLUMNS,
    option_from_row,
    vote_from_row,
)


class VoteStore(Store):
    """`votes`, `vote_options` and `vote_ballots`."""

    async def _votes(self, rows: Sequence[Any]) -> list[Vote]:
        """Votes from their rows, with every vote's options read in one query (one vote's by
        its id: the array costs SQLite a `json_each` scan, ~20 µs a read)."""
        if not rows:
            return []
        ids = [int(r[0]) for r in rows]
        which = ("= $1", ids[0]) if len(ids) == 1 else (
            self._dialect.in_array("$1"), self._dialect.array(ids))
        options: dict[int, list[VoteOption]] = defaultdict(list)
        for row in await self._db.fetch(
                f"SELECT vote_id, {OPTION_COLUMNS} FROM vote_options WHERE vote_id {which[0]} "
                "ORDER BY vote_id, position", which[1]):
            options[int(row[0])].append(option_from_row(row[1:]))
        return [vote_from_row(r, tuple(options[int(r[0])])) for r in rows]

    async def _one(self, sql: str, *args: Any) -> Vote | None:
        votes = await self._votes(await self._db.fetch(sql, *args))
        return votes[0] if votes else None

    async def open(self, guild_id: int, channel_id: int, created_by: int, opened_at: datetime,
                   ends_at: datetime, options: Sequence[VoteOption], *,
                   style: VoteStyle = VoteStyle.BUTTONS) -> Vote | None:
        """Open a vote (members vote with `style`); None when the server already has a live
        one."""
        async with self._db.transaction() as tx:
            vote_id = await tx.fetch_value(
                "INSERT INTO votes (guild_id, channel_id, created_by, opened_at, ends_at, "
                "status, style) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING "
                "RETURNING id", guild_id, channel_id, created_by, stored(opened_at),
                stored(ends_at), VoteStatus.OPEN.value, style.value)
            if vote_id is None:
                return None
            await tx.execute_many(
                f"INSERT INTO vote_options (vote_id, {OPTION_COLUMNS}) VALUES ($1, $2, $3, $4, $5)",
                [(vote_id, o.position, o.paper_id, o.support, stored(o.suggested_at))
                 for o in options])
        return await self.get(int(vote_id))

    async def set_message(self, vote_id: int, message_id: int) -> None:
        """Record the message that carries the vote's buttons."""
        await self._db.execute("UPDATE votes SET message_id = $1 WHERE id = $2",
                       message_id, vote_id)

    async def get(self, vote_id: int) -> Vote | None:
        """One vote by id."""
        return await self._one(f"SELECT {VOTE_COLUMNS} FROM votes WHERE id = $1", vote_id)

    async def live(self, guild_id: int) -> Vote | None:
        """The server's open or closing vote, if any."""
        return await self._one(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE guild_id = $1 AND status IN ($2, $3)",
            guild_id, *(status.value for status in LIVE))

    async def latest(self, guild_id: int) -> Vote | None:
        """The server's most recent vote of any status."""
        return await self._one(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE guild_id = $1 ORDER BY id DESC LIMIT 1",
            guild_id)

    async def due(self, now: datetime) -> list[Vote]:
        """Open votes whose deadline has passed, in every server."""
        return await self._votes(await self._db.fetch(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE status = $1 "
            f"AND ends_at{self._dialect.text_order} <= $2 ORDER BY id",
            VoteStatus.OPEN.value, stored(now)))

    async def unfinished(self) -> list[Vote]:
        """Closes claimed but never recorded as announced (a crash or an unanswered send)."""
        return await self._votes(await self._db.fetch(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE status = $1 ORDER BY id",
            VoteStatus.CLAIMED.value))

    async def cast(self, vote_id: int, user_id: int, paper_id: str,
                   at: datetime) -> BallotOutcome:
        """A member's ballot (a later click changes it) while the vote is open."""
        async with self._db.transaction() as tx:
            row = await tx.fetch_one(
                "SELECT v.status, o.paper_id IS NOT NULL, b.paper_id FROM votes v "
                "LEFT JOIN vote_options o ON o.vote_id = v.id AND o.paper_id = $1 "
                "LEFT JOIN vote_ballots b ON b.vote_id = v.id AND b.user_id = $2 "
                f"WHERE v.id = $3{self._dialect.lock_rows('SHARE', of='v')}",
                paper_id, user_id, vote_id)
            if row is None or not row[1]:
                return BallotOutcome.UNKNOWN
            if row[0] != VoteStatus.OPEN:
                return BallotOutcome.CLOSED
            if row[2] == paper_id:
                return BallotOutcome.SAME
            await tx.execute(
                "INSERT INTO vote_ballots (vote_id, user_id, paper_id, cast_at) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT (vote_id, user_id) DO UPDATE SET "
                "paper_id = excluded.paper_id, cast_at = excluded.cast_at",
                vote_id, user_id, paper_id, stored(at))
            return BallotOutcome.CAST if row[2] is None else BallotOutcome.CHANGED

    async def ballots(self, vote_id: int) -> dict[int, str]:
        """Member -> the paper they voted for."""
        rows = await self._db.fetch(
            "SELECT user_id, paper_id FROM vote_ballots WHERE vote_id = $1", vote_id)
        return {int(r[0]): str(r[1]) for r in rows}

    async def claim(self, vote_id: int, winner: str, nonce: str, at: datetime, *,
                    early: bool, lease: Lease) -> bool:
        """Close an open vote with its winner, before announcing, leased to `lease.owner`;
        False if already closed."""
        return await self._db.execute(
            "UPDATE votes SET status = $1, winner = $2, nonce = $3, closed_early = $4, "
            "claimed_at = $5, owner = $6, lease_until = $7 WHERE id = $8 AND status = $9",
            VoteStatus.CLAIMED.value, winner, nonce, int(early), stored(at), lease.owner,
            stored(lease.until), vote_id, VoteStatus.OPEN.value) > 0

    async def hold(self, vote_id: int, lease: Lease, now: datetime) -> bool:
        """Take or renew the lease on a claimed close: True when it is now `lease.owner`'s,
        False when it is no longer claimed or another owner's lease is live at `now` (a claim
        without a lease, from before leases, is anyone's)."""
        return await self._db.execute(
            "UPDATE votes SET owner = $1, lease_until = $2 WHERE id = $3 AND status = $4 "
            "AND (owner IS NULL OR owner = $1 OR lease_until IS NULL OR lease_until <= $5)",
            lease.owner, stored(lease.until), vote_id, VoteStatus.CLAIMED.value,
            stored(now)) > 0

    async def mark_announced(self, vote_id: int, message_id: int, at: datetime) -> None:
        """Record the announcement that was sent."""
        await self._db.execute(
            "UPDATE votes SET status = $1, announcement_id = $2, finished_at = $3 "
            "WHERE id = $4 AND status = $5",
            VoteStatus.ANNOUNCED.value, message_id, stored(at), vote_id,
            VoteStatus.CLAIMED.value)

    async def mark_failed(self, vote_id: int, reason: Reason, at: datetime) -> None:
        """Give up announcing (the channel is gone or closed to the bot); only a claimed
        close (a refusal answered late never undoes another process's announcement)."""
        await self._db.execute(
            "UPDATE votes SET status = $1, reason = $2, finished_at = $3 "
            "WHERE id = $4 AND status = $5",
            VoteStatus.FAILED.value, reason.encode(), stored(at), vote_id,
            VoteStatus.CLAIMED.value)

    async def forget(self, user_id: int) -> int:
        """Delete a member's ballots everywhere and their name on votes they opened."""
        async with self._db.transaction() as tx:
            ballots = await tx.execute("DELETE FROM vote_ballots WHERE user_id = $1", user_id)
            await tx.execute("UPDATE votes SET created_by = NULL WHERE created_by = $1", user_id)
            return ballots
