"""In-memory fakes of the digest's Discord ports: the poster and the audience."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from bot.features.digest.delivery import Audience, DigestAudience, DigestPost, DigestPoster
from domain.paper import Paper
from storage.db import Db
from tests.fakes import FakeChannels


class FakeDigestPoster:
    """Posts land in `channels` (operation "send"); threads (operation "thread") are listed
    in `threads` as message id -> (thread id, name)."""

    def __init__(self, channels: FakeChannels) -> None:
        self.channels = channels
        self.threads: dict[int, tuple[int, str | None]] = {}

    async def send(self, post: DigestPost, nonce: str) -> int:
        return await self.channels.send("send", post.channel_id, nonce, post.marker, post)

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        return await self.channels.find(channel_id, marker, nonce, since)

    async def open_thread(self, guild_id: int, channel_id: int, message_id: int,
                          name: str | None) -> int:
        await self.channels.call("thread", channel_id)
        thread_id = self.channels.new_id()
        self.threads[message_id] = (thread_id, name)
        return thread_id

    def posts(self, channel_id: int) -> list[DigestPost]:
        """The papers of the day posted in a channel, oldest first."""
        return [p.body for p in self.channels.in_channel(channel_id)
                if isinstance(p.body, DigestPost)]


@dataclass(frozen=True, slots=True)
class Told:
    """One `after_digest` call: the post's followers queued."""

    guild_id: int
    local_date: date
    paper_id: str
    link: str
    reply_in: int


class FakeAudience:
    """Mentions `mention_ids` in every post; `after_digest` marks the ledger row's followers
    queued, as the notifier does in one transaction, and records the first call per post in
    `told` (a later one queues nothing)."""

    def __init__(self, db: Db, mention_ids: tuple[int, ...] = ()) -> None:
        self.db = db
        self.mention_ids = mention_ids
        self.told: list[Told] = []

    async def digest_audience(self, guild_id: int, paper: Paper, *,
                              mention: bool) -> Audience:
        return Audience(mention_ids=self.mention_ids if mention else ())

    async def after_digest(self, guild_id: int, local_date: date, paper: Paper,
                           audience: Audience, link: str, reply_in: int) -> None:
        if not await self.db.execute(
                "UPDATE digest_ledger SET followers_queued = 1 WHERE guild_id = $1 "
                "AND local_date = $2 AND followers_queued = 0", guild_id, local_date.isoformat()):
            return
        self.told.append(Told(guild_id, local_date, paper.id, link, reply_in))


def _conforms(poster: FakeDigestPoster,
              audience: FakeAudience) -> tuple[DigestPoster, DigestAudience]:
    """mypy checks here that the fakes satisfy the protocols."""
    return poster, audience
