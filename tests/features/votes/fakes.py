"""An in-memory fake of the vote announcer port."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from bot.client.own_posts import carries_marker
from bot.features.votes.delivery import PollCounts, VoteAnnouncement, VotePoster
from bot.features.votes.service import vote_marker
from domain.votes import Vote
from tests.fakes import FakeChannels


@dataclass(frozen=True, slots=True)
class PollPost:
    """A poll message out in a channel: its text ends with the vote's marker."""

    channel_id: int
    message_id: int
    text: str
    at: datetime


class FakeVotePoster:
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


def _conforms(announcer: FakeVotePoster) -> VotePoster:
    """mypy checks here that the fake satisfies its protocol."""
    return announcer
