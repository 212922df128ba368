"""In-memory fakes of the vote store and the vote announcer port."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from bot.client.own_posts import carries_marker
from bot.features.votes.delivery import PollCounts, VoteAnnouncement, VoteAnnouncer
from bot.features.votes.service import vote_marker
from bot.features.votes.store import VoteStore
from domain.digest import Lease
from domain.polls import VoteStyle
from domain.reasons import Reason
from domain.votes import BallotOutcome, Vote, VoteOption, VoteStatus
from tests.fakes import FakeChannels, lease_free

LIVE = (VoteStatus.OPEN, VoteStatus.CLAIMED)


class FakeVoteStore:
    """Votes, ballots and the close claimed once, as the SQLite store keeps them: one live
    vote a server, ballots only while open, `claimed` only from `open`, `announced` and
    `failed` only from `claimed`; `leases` keeps who holds each claimed close."""

    def __init__(self) -> None:
        self.votes: dict[int, Vote] = {}
        self.cast_ballots: dict[int, dict[int, str]] = {}
        self.leases: dict[int, Lease] = {}

    def _update(self, vote_id: int, **changes: Any) -> None:
        self.votes[vote_id] = replace(self.votes[vote_id], **changes)

    async def open(self, guild_id: int, channel_id: int, created_by: int, opened_at: datetime,
                   ends_at: datetime, options: Sequence[VoteOption], *,
                   style: VoteStyle = VoteStyle.BUTTONS) -> Vote | None:
        if await self.live(guild_id) is not None:
            return None
        vote = Vote(len(self.votes) + 1, guild_id, channel_id, created_by, opened_at, ends_at,
                    VoteStatus.OPEN, tuple(options), style=style)
        self.votes[vote.id] = vote
        self.cast_ballots[vote.id] = {}
        return vote

    async def set_message(self, vote_id: int, message_id: int) -> None:
        self._update(vote_id, message_id=message_id)

    async def get(self, vote_id: int) -> Vote | None:
        return self.votes.get(vote_id)

    async def live(self, guild_id: int) -> Vote | None:
        return next((v for v in self.votes.values()
                     if v.guild_id == guild_id and v.status in LIVE), None)

    async def latest(self, guild_id: int) -> Vote | None:
        return max((v for v in self.votes.values() if v.guild_id == guild_id),
                   key=lambda v: v.id, default=None)

    async def due(self, now: datetime) -> list[Vote]:
        return [v for v in self.votes.values()
                if v.status is VoteStatus.OPEN and v.ends_at <= now]

    async def unfinished(self) -> list[Vote]:
        return [v for v in self.votes.values() if v.status is VoteStatus.CLAIMED]

    async def cast(self, vote_id: int, user_id: int, paper_id: str,
                   at: datetime) -> BallotOutcome:
        vote = self.votes.get(vote_id)
        if vote is None or all(o.paper_id != paper_id for o in vote.options):
            return BallotOutcome.UNKNOWN
        if vote.status is not VoteStatus.OPEN:
            return BallotOutcome.CLOSED
        before = self.cast_ballots[vote_id].get(user_id)
        if before == paper_id:
            return BallotOutcome.SAME
        self.cast_ballots[vote_id][user_id] = paper_id
        return BallotOutcome.CAST if before is None else BallotOutcome.CHANGED

    async def ballots(self, vote_id: int) -> dict[int, str]:
        return dict(self.cast_ballots.get(vote_id, {}))

    async def claim(self, vote_id: int, winner: str, nonce: str, at: datetime, *,
                    early: bool, lease: Lease) -> bool:
        vote = self.votes.get(vote_id)
        if vote is None or vote.status is not VoteStatus.OPEN:
            return False
        self._update(vote_id, status=VoteStatus.CLAIMED, winner=winner, nonce=nonce,
                     closed_early=early, claimed_at=at)
        self.leases[vote_id] = lease
        return True

    async def hold(self, vote_id: int, lease: Lease, now: datetime) -> bool:
        vote = self.votes.get(vote_id)
        if vote is None or vote.status is not VoteStatus.CLAIMED \
                or not lease_free(self.leases.get(vote_id), lease, now):
            return False
        self.leases[vote_id] = lease
        return True

    async def mark_announced(self, vote_id: int, message_id: int, at: datetime) -> None:
        if self.votes[vote_id].status is VoteStatus.CLAIMED:
            self._update(vote_id, status=VoteStatus.ANNOUNCED, announcement_id=message_id)

    async def mark_failed(self, vote_id: int, reason: Reason, at: datetime) -> None:
        if self.votes[vote_id].status is VoteStatus.CLAIMED:
            self._update(vote_id, status=VoteStatus.FAILED, reason=reason)

    async def forget(self, user_id: int) -> int:
        count = 0
        for ballots in self.cast_ballots.values():
            count += ballots.pop(user_id, None) is not None
        for vote in list(self.votes.values()):
            if vote.created_by == user_id:
                self._update(vote.id, created_by=None)
        return count


@dataclass(frozen=True, slots=True)
class PollPost:
    """A poll message out in a channel: its text ends with the vote's marker."""

    channel_id: int
    message_id: int
    text: str
    at: datetime


class FakeAnnouncer:
    """Announcements land in `channels` (operation "announce"); greyed-out ballots are
    listed in `closed_ballots` (operation "close_ballot"), live tallies in `tallies`
    (operation "tally"); a poll vote's poll is `polls[vote id]` (votes per position), read and
    ended only through its recorded message, finalised by `end_poll` unless `counting`
    (Discord still counting); `post_poll` puts a poll message out, `find_poll` finds it."""

    def __init__(self, channels: FakeChannels) -> None:
        self.channels = channels
        self.closed_ballots: list[int] = []
        self.tallies: list[tuple[int, dict[int, int]]] = []
        self.polls: dict[int, dict[int, int]] = {}
        self.finalized: set[int] = set()
        self.counting = False
        self.poll_posts: list[PollPost] = []
        self.ended: list[int] = []

    async def announce(self, announcement: VoteAnnouncement, nonce: str) -> int:
        return await self.channels.send("announce", announcement.vote.channel_id, nonce,
                                        announcement.marker, announcement)

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        return await self.channels.find(channel_id, marker, nonce, since)

    async def show_tally(self, vote: Vote, counts: Mapping[int, int], *, closed: bool) -> None:
        await self.channels.call("close_ballot" if closed else "tally", vote.channel_id)
        if closed:
            self.closed_ballots.append(vote.id)
        self.tallies.append((vote.id, dict(counts)))

    def post_poll(self, vote: Vote) -> int:
        """The vote's poll goes out, as `/vote start` posts it; its message id."""
        post = PollPost(vote.channel_id, self.channels.new_id(),
                        "🗳️ Vote in the poll.\n-# " + vote_marker(vote.id), self.channels.clock())
        self.poll_posts.append(post)
        return post.message_id

    async def find_poll(self, vote: Vote, marker: str, since: datetime,
                        until: datetime) -> int | None:
        await self.channels.call("find_poll", vote.channel_id)
        return next((p.message_id for p in self.poll_posts if p.channel_id == vote.channel_id
                     and since < p.at < until and carries_marker(p.text, marker)), None)

    async def poll_counts(self, vote: Vote) -> PollCounts:
        await self.channels.call("poll_counts", vote.channel_id)
        if vote.message_id is None:  # nothing to read yet, as the Discord side answers
            return PollCounts(finalized=False)
        return PollCounts(vote.id in self.finalized, dict(self.polls.get(vote.id, {})))

    async def end_poll(self, vote: Vote) -> None:
        await self.channels.call("end_poll", vote.channel_id)
        if vote.message_id is None:
            return
        self.ended.append(vote.message_id)
        if not self.counting:
            self.finalized.add(vote.id)

    def announcements(self, channel_id: int) -> list[VoteAnnouncement]:
        """What was announced in a channel, oldest first."""
        return [p.body for p in self.channels.in_channel(channel_id)
                if isinstance(p.body, VoteAnnouncement)]


def _conforms(store: FakeVoteStore, announcer: FakeAnnouncer) -> tuple[VoteStore, VoteAnnouncer]:
    """mypy checks here that the fakes satisfy the protocols."""
    return store, announcer
