"""Votes on the next paper: the vote, its options, ballots, and the close claimed once."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from domain.digest import Lease
from domain.polls import VoteStyle
from domain.reasons import Reason
from domain.votes import BallotOutcome, Vote, VoteOption, VoteStatus
from storage.sqlite.database import Database
from storage.times import stored
from storage.votes.rows import (
    LIVE,
    OPTION_COLUMNS,
    VOTE_COLUMNS,
    option_from_row,
    vote_from_row,
)


class SqliteVoteStore:
    """At most one live (open or claimed) vote per server, enforced by a unique index."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def _options(self, vote_id: int) -> tuple[VoteOption, ...]:
        rows = await self._db.fetchall(
            f"SELECT {OPTION_COLUMNS} FROM vote_options WHERE vote_id = ? ORDER BY position",
            (vote_id,))
        return tuple(option_from_row(r) for r in rows)

    async def _votes(self, rows: Sequence[Any]) -> list[Vote]:
        return [vote_from_row(r, await self._options(r[0])) for r in rows]

    async def open(self, guild_id: int, channel_id: int, created_by: int, opened_at: datetime,
                   ends_at: datetime, options: Sequence[VoteOption], *,
                   style: VoteStyle = VoteStyle.BUTTONS) -> Vote | None:
        """Open a vote (members vote with `style`); None when the server already has a live
        one."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT OR IGNORE INTO votes (guild_id, channel_id, created_by, opened_at, "
                "ends_at, status, style) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, created_by, stored(opened_at), stored(ends_at),
                 VoteStatus.OPEN, style.value))
            if cursor.rowcount == 0:
                return None
            vote_id = cursor.lastrowid
            await conn.executemany(
                "INSERT INTO vote_options (vote_id, position, paper_id, support, suggested_at) "
                "VALUES (?, ?, ?, ?, ?)",
                [(vote_id, o.position, o.paper_id, o.support, stored(o.suggested_at))
                 for o in options])
        return await self.get(int(vote_id or 0))

    async def set_message(self, vote_id: int, message_id: int) -> None:
        """Record the message that carries the vote's buttons."""
        async with self._db.transaction() as conn:
            await conn.execute("UPDATE votes SET message_id = ? WHERE id = ?",
                               (message_id, vote_id))

    async def get(self, vote_id: int) -> Vote | None:
        """One vote by id."""
        rows = await self._db.fetchall(f"SELECT {VOTE_COLUMNS} FROM votes WHERE id = ?", (vote_id,))
        votes = await self._votes(rows)
        return votes[0] if votes else None

    async def live(self, guild_id: int) -> Vote | None:
        """The server's open or closing vote, if any."""
        rows = await self._db.fetchall(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE guild_id = ? AND status IN (?, ?)",
            (guild_id, *LIVE))
        votes = await self._votes(rows)
        return votes[0] if votes else None

    async def latest(self, guild_id: int) -> Vote | None:
        """The server's most recent vote of any status."""
        rows = await self._db.fetchall(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE guild_id = ? ORDER BY id DESC LIMIT 1",
            (guild_id,))
        votes = await self._votes(rows)
        return votes[0] if votes else None

    async def due(self, now: datetime) -> list[Vote]:
        """Open votes whose deadline has passed, in every server."""
        rows = await self._db.fetchall(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE status = ? AND ends_at <= ? ORDER BY id",
            (VoteStatus.OPEN, stored(now)))
        return await self._votes(rows)

    async def unfinished(self) -> list[Vote]:
        """Closes claimed but never recorded as announced (a crash or an unanswered send)."""
        rows = await self._db.fetchall(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE status = ? ORDER BY id", (VoteStatus.CLAIMED,))
        return await self._votes(rows)

    async def cast(self, vote_id: int, user_id: int, paper_id: str,
                   at: datetime) -> BallotOutcome:
        """A member's ballot (a later click changes it) while the vote is open."""
        async with self._db.transaction() as conn:
            async with conn.execute(
                "SELECT v.status, o.paper_id IS NOT NULL, b.paper_id FROM votes v "
                "LEFT JOIN vote_options o ON o.vote_id = v.id AND o.paper_id = ? "
                "LEFT JOIN vote_ballots b ON b.vote_id = v.id AND b.user_id = ? "
                "WHERE v.id = ?", (paper_id, user_id, vote_id)) as cursor:
                row = await cursor.fetchone()
            if row is None or not row[1]:
                return BallotOutcome.UNKNOWN
            if row[0] != VoteStatus.OPEN:
                return BallotOutcome.CLOSED
            if row[2] == paper_id:
                return BallotOutcome.SAME
            await conn.execute(
                "INSERT OR REPLACE INTO vote_ballots (vote_id, user_id, paper_id, cast_at) "
                "VALUES (?, ?, ?, ?)", (vote_id, user_id, paper_id, stored(at)))
            return BallotOutcome.CAST if row[2] is None else BallotOutcome.CHANGED

    async def ballots(self, vote_id: int) -> dict[int, str]:
        """Member -> the paper they voted for."""
        rows = await self._db.fetchall(
            "SELECT user_id, paper_id FROM vote_ballots WHERE vote_id = ?", (vote_id,))
        return {int(r[0]): str(r[1]) for r in rows}

    async def claim(self, vote_id: int, winner: str, nonce: str, at: datetime, *,
                    early: bool, lease: Lease) -> bool:
        """Close an open vote with its winner, before announcing, leased to `lease.owner`;
        False if already closed."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE votes SET status = ?, winner = ?, nonce = ?, closed_early = ?, "
                "claimed_at = ?, owner = ?, lease_until = ? WHERE id = ? AND status = ?",
                (VoteStatus.CLAIMED, winner, nonce, int(early), stored(at), lease.owner,
                 stored(lease.until), vote_id, VoteStatus.OPEN))
            return cursor.rowcount > 0

    async def hold(self, vote_id: int, lease: Lease, now: datetime) -> bool:
        """Take or renew the lease on a claimed close: True when it is now `lease.owner`'s,
        False when it is no longer claimed or another owner's lease is live at `now` (a claim
        without a lease, from before leases, is anyone's)."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE votes SET owner = ?, lease_until = ? WHERE id = ? AND status = ? "
                "AND (owner IS NULL OR owner = ? OR lease_until IS NULL OR lease_until <= ?)",
                (lease.owner, stored(lease.until), vote_id, VoteStatus.CLAIMED, lease.owner,
                 stored(now)))
            return cursor.rowcount > 0

    async def mark_announced(self, vote_id: int, message_id: int, at: datetime) -> None:
        """Record the announcement that was sent."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE votes SET status = ?, announcement_id = ?, finished_at = ? "
                "WHERE id = ? AND status = ?",
                (VoteStatus.ANNOUNCED, message_id, stored(at), vote_id, VoteStatus.CLAIMED))

    async def mark_failed(self, vote_id: int, reason: Reason, at: datetime) -> None:
        """Give up announcing (the channel is gone or closed to the bot); only a claimed
        close (a refusal answered late never undoes another process's announcement)."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE votes SET status = ?, reason = ?, finished_at = ? "
                "WHERE id = ? AND status = ?",
                (VoteStatus.FAILED, reason.encode(), stored(at), vote_id, VoteStatus.CLAIMED))

    async def forget(self, user_id: int) -> int:
        """Delete a member's ballots everywhere and their name on votes they opened."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute("DELETE FROM vote_ballots WHERE user_id = ?", (user_id,))
            await conn.execute("UPDATE votes SET created_by = NULL WHERE created_by = ?",
                               (user_id,))
            return cursor.rowcount
