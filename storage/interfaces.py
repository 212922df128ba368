"""What the bot needs from storage: narrow enough for a PostgreSQL implementation later."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Sequence
from datetime import date, datetime
from typing import Protocol

from bot.core.adding_types import AddPolicy, WhoAdds
from bot.core.catalog_types import (
    ADD_SOURCE,
    AddOutcome,
    CatalogStats,
    LoadCounts,
    LoadSource,
    SearchHit,
)
from bot.core.digest_types import Claim, DigestConfig, Lease, LedgerEntry
from bot.core.feed_types import Announcement, Feed, FeedAdded, PausedFeed, PollClaim
from bot.core.group_types import Bookmark, Discussed, QueueItem, SuggestOutcome
from bot.core.models import Paper
from bot.core.outbox_types import OutboxUnit
from bot.core.query import SearchQuery
from bot.core.reasons import Reason
from bot.core.session_types import (
    GroupSettings,
    Place,
    ReminderEntry,
    ReminderStatus,
    Session,
    SessionStatus,
    Volunteer,
)
from bot.core.shards import ALL_SHARDS, Shards
from bot.core.subscription_types import AddResult, Delivery, Forgotten, Subscription
from bot.core.vote_types import BallotOutcome, Vote, VoteOption
from storage.prepared import PreparedPaper, prepare_papers

__all__ = ["PreparedPaper", "prepare_papers"]
"""Re-exported for services: what a load prepares (in a worker process) and hands a store."""


class PaperStore(Protocol):
    """Catalog persistence and search."""

    async def load(
        self,
        papers: Iterable[tuple[int, Paper]],
        *,
        source: LoadSource,
        prune: bool = False,
    ) -> LoadCounts:
        """Upsert papers (line, paper) in one transaction; `prune` removes the source's others."""
        ...

    async def load_prepared(
        self,
        batches: AsyncIterable[Sequence[PreparedPaper]],
        *,
        source: LoadSource,
        prune: bool = False,
    ) -> LoadCounts:
        """`load` of papers already prepared (`prepare_papers`, e.g. in another process): the
        store only classifies and writes. `source` is read once the batches are exhausted."""
        ...

    async def add_papers(self, papers: Sequence[Paper], *,
                         source: str = ADD_SOURCE) -> list[AddOutcome]:
        """Add a few papers in one transaction, one outcome each, in order: a known arXiv id
        updates in place when the version is newer (else unchanged); a record with the same
        normalised title gains the id, links and abstract it lacks (never a duplicate);
        anything else is added. `CatalogLoadRunning` while a load is being built."""
        ...

    async def get(self, public_id: str) -> Paper | None:
        """One paper by its public id."""
        ...

    async def by_link(self, *, arxiv_id: str = "", doi: str = "") -> Paper | None:
        """The paper with this arXiv id (without version) or this DOI (any case), if any."""
        ...

    async def search(
        self, query: SearchQuery, *, any_word: bool = False, limit: int = 10, offset: int = 0
    ) -> list[SearchHit]:
        """Ranked papers matching every word (or any word), and all filters."""
        ...

    async def random(self) -> Paper | None:
        """A random paper, or None for an empty catalog."""
        ...

    async def workshop_names(self, prefix: str = "", limit: int = 10) -> list[str]:
        """Workshop names containing `prefix`, most papers first."""
        ...

    async def venue_names(self, text: str = "", limit: int = 25) -> list[str]:
        """Conference and workshop names containing `text`, most papers first."""
        ...

    async def paper_ids(self, track: str | None = None) -> list[str]:
        """Public ids of every paper, or of those on one track (main / workshop)."""
        ...

    async def count(self) -> int:
        """Number of papers."""
        ...

    async def stats(self) -> CatalogStats:
        """Totals per venue and the last load."""
        ...

    async def vocabulary(self) -> list[tuple[str, int]]:
        """Indexed words with the number of papers that contain each."""
        ...

    async def catalog_version(self) -> int:
        """A number that changes whenever the catalog changes (for caches)."""
        ...

    def iter_papers(self) -> AsyncIterator[Paper]:
        """Every paper, in a stable order."""
        ...


class StateStore(Protocol):
    """Named values kept between runs."""

    async def get(self, key: str) -> str | None:
        """The stored value, or None."""
        ...

    async def set(self, key: str, value: str) -> None:
        """Store or replace a value."""
        ...


class DigestStore(Protocol):
    """Paper-of-the-day settings per server and the exactly-once ledger."""

    async def save_config(self, config: DigestConfig) -> None:
        """Create or replace a server's settings (re-enabling it and clearing failures)."""
        ...

    async def config(self, guild_id: int) -> DigestConfig | None:
        """A server's settings, or None."""
        ...

    async def active_configs(self) -> list[DigestConfig]:
        """Servers whose digest is on and not paused."""
        ...

    async def disable(self, guild_id: int) -> bool:
        """Turn a server's digest off; False if it had none."""
        ...

    async def take_failure_notice(self, guild_id: int) -> Reason | None:
        """The pause reason if admins have not been told yet; marks them told."""
        ...

    async def last_handled(self, guild_id: int) -> date | None:
        """The latest local date with a ledger row (any status)."""
        ...

    async def entry(self, guild_id: int, local_date: date) -> LedgerEntry | None:
        """The ledger row for a date, or None."""
        ...

    async def claim(self, guild_id: int, local_date: date, claim: Claim) -> LedgerEntry | None:
        """Claim the date before sending, leased to its owner; None when a row already exists."""
        ...

    async def hold(self, guild_id: int, local_date: date, lease: Lease, now: datetime) -> bool:
        """Take or renew the lease on a row; False while another owner's lease is live."""
        ...

    async def reclaim_failed(self, guild_id: int, local_date: date,
                             claim: Claim) -> LedgerEntry | None:
        """Claim a FAILED date again; None unless the row is still FAILED."""
        ...

    async def unfinished(self, guild_id: int) -> list[LedgerEntry]:
        """Claimed rows never marked posted or failed."""
        ...

    async def mark_posted(self, guild_id: int, local_date: date, message_id: int) -> None:
        """Record the sent message and reset the failure count."""
        ...

    async def mark_skipped(self, guild_id: int, local_date: date, reason: Reason) -> None:
        """A claimed date that will not be posted after all, with the reason."""
        ...

    async def mark_thread(self, guild_id: int, local_date: date, thread_id: int | None,
                          reason: Reason | None = None) -> None:
        """Record the discussion thread (or why there is none)."""
        ...

    async def mark_failed(self, guild_id: int, local_date: date, reason: Reason) -> bool:
        """Record a failure; True when it paused the digest."""
        ...

    async def record_skips(self, guild_id: int, dates: Iterable[date], reason: Reason) -> int:
        """Record dates that will not be posted; returns how many rows were new."""
        ...

    async def current_cycle(self, guild_id: int) -> int:
        """The highest cycle a paper was claimed in (1 for a new server)."""
        ...

    async def claimed_in_cycle(self, guild_id: int, cycle: int) -> set[str]:
        """Papers claimed (posted or being posted) in a cycle."""
        ...

    async def recent(self, guild_id: int, limit: int = 7) -> list[LedgerEntry]:
        """The latest ledger rows, newest first."""
        ...


class SubscriptionStore(Protocol):
    """Topic subscriptions, the notification ledger and paused DM delivery."""

    async def add(self, subscription: Subscription) -> AddResult:
        """Add a topic unless over the member's limit; a followed topic gets the new delivery
        (DELIVERY_CHANGED) or stays (DUPLICATE)."""
        ...

    async def remove(self, guild_id: int, user_id: int, topic_key: str) -> bool:
        """Remove one topic; False if the member had no such topic."""
        ...

    async def of_member(self, guild_id: int, user_id: int) -> list[Subscription]:
        """A member's topics in a server, oldest first."""
        ...

    async def in_guild(self, guild_id: int) -> list[Subscription]:
        """Every subscription in a server."""
        ...

    async def guilds_with_subscriptions(self) -> list[int]:
        """Servers that have at least one subscription."""
        ...

    async def topic_counts(self, guild_id: int) -> list[tuple[str, int]]:
        """Topics with how many members follow each, most followed first."""
        ...

    async def followers(self, guild_id: int, topic_key: str) -> list[int]:
        """Members of a server following one topic."""
        ...

    async def record_notifications(self, guild_id: int, pairs: Iterable[tuple[int, str]],
                                   via: Delivery) -> set[tuple[int, str]]:
        """Claim (member, paper) notifications; returns only those never claimed before."""
        ...

    async def notified(self, guild_id: int, paper_id: str) -> set[int]:
        """Members already told about a paper in a server."""
        ...

    async def dm_pause(self, user_id: int) -> Reason | None:
        """Why a member's DM delivery is paused, or None."""
        ...

    async def paused_dm_users(self, user_ids: Iterable[int]) -> set[int]:
        """Which of these members have DM delivery paused."""
        ...

    async def pause_dms(self, user_id: int, reason: Reason) -> None:
        """Stop DMs to a member."""
        ...

    async def resume_dms(self, user_id: int) -> bool:
        """Allow DMs again; False if they were not paused."""
        ...

    async def forget(self, user_id: int) -> Forgotten:
        """Delete every record of a member, in every server."""
        ...


class QueueStore(Protocol):
    """The suggestion queue of each server."""

    async def suggest(self, guild_id: int, paper_id: str, user_id: int, note: str,
                      at: datetime) -> SuggestOutcome:
        """Queue a paper, or add the member's +1 when it is queued already."""
        ...

    async def queue(self, guild_id: int) -> list[QueueItem]:
        """A server's queue: most supported first, then oldest."""
        ...

    async def item(self, guild_id: int, paper_id: str) -> QueueItem | None:
        """One queued paper, or None."""
        ...

    async def remove(self, guild_id: int, paper_id: str) -> bool:
        """Take a paper off a server's queue; False if it was not queued."""
        ...

    async def withdraw(self, guild_id: int, paper_id: str, user_id: int) -> bool:
        """Take back one member's +1; False if they had none."""
        ...

    async def forget(self, user_id: int) -> int:
        """Anonymise a member's suggestions everywhere; how many."""
        ...


class VoteStore(Protocol):
    """Votes on the next paper and the exactly-once close."""

    async def open(self, guild_id: int, channel_id: int, created_by: int, opened_at: datetime,
                   ends_at: datetime, options: Sequence[VoteOption]) -> Vote | None:
        """Open a vote; None when the server already has a live one."""
        ...

    async def set_message(self, vote_id: int, message_id: int) -> None:
        """Record the message that carries the vote's buttons."""
        ...

    async def get(self, vote_id: int) -> Vote | None:
        """One vote by id."""
        ...

    async def live(self, guild_id: int) -> Vote | None:
        """The server's open or closing vote, if any."""
        ...

    async def latest(self, guild_id: int) -> Vote | None:
        """The server's most recent vote of any status."""
        ...

    async def due(self, now: datetime) -> list[Vote]:
        """Open votes whose deadline has passed, in every server."""
        ...

    async def unfinished(self) -> list[Vote]:
        """Closes claimed but never recorded as announced."""
        ...

    async def cast(self, vote_id: int, user_id: int, paper_id: str,
                   at: datetime) -> BallotOutcome:
        """A member's ballot (a later click changes it) while the vote is open."""
        ...

    async def ballots(self, vote_id: int) -> dict[int, str]:
        """Member -> the paper they voted for."""
        ...

    async def claim(self, vote_id: int, winner: str, nonce: str, at: datetime, *,
                    early: bool, lease: Lease) -> bool:
        """Close an open vote with its winner, before announcing, leased to `lease.owner`;
        False if already closed."""
        ...

    async def hold(self, vote_id: int, lease: Lease, now: datetime) -> bool:
        """Take or renew the lease on a claimed close: True when it is now `lease.owner`'s,
        False when it is no longer claimed or another owner's lease is live at `now`."""
        ...

    async def mark_announced(self, vote_id: int, message_id: int, at: datetime) -> None:
        """Record the announcement that was sent."""
        ...

    async def mark_failed(self, vote_id: int, reason: Reason, at: datetime) -> None:
        """Give up announcing (the channel is gone or closed to the bot); only a claimed
        close."""
        ...

    async def forget(self, user_id: int) -> int:
        """Delete a member's ballots everywhere; how many."""
        ...


class BookmarkStore(Protocol):
    """Each member's reading list, per server."""

    async def add(self, guild_id: int, user_id: int, paper_id: str, at: datetime) -> bool:
        """Bookmark a paper; False if it already was."""
        ...

    async def remove(self, guild_id: int, user_id: int, paper_id: str) -> bool:
        """Drop a bookmark; False if there was none."""
        ...

    async def of_member(self, guild_id: int, user_id: int) -> list[Bookmark]:
        """A member's reading list in a server, newest first."""
        ...

    async def forget(self, user_id: int) -> int:
        """Delete a member's bookmarks in every server; how many."""
        ...


class HistoryStore(Protocol):
    """What each server discussed; `/session done` calls `record_discussed`."""

    async def record_discussed(self, guild_id: int, paper_id: str, when: datetime,
                               presenter_id: int | None, notes: str,
                               thread_id: int | None) -> None:
        """Remember that a server discussed a paper."""
        ...

    async def history(self, guild_id: int) -> list[Discussed]:
        """A server's discussions, newest first."""
        ...

    async def discussed_ids(self, guild_id: int) -> set[str]:
        """The ids of every paper the server has discussed."""
        ...

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from the discussions they presented; how many."""
        ...


class OutboxStore(Protocol):
    """Notifications waiting to be sent, each unit leased to one process at a time."""

    async def enqueue(self, units: Iterable[OutboxUnit]) -> int:
        """Queue units, leaving out members told or queued before; returns rows queued."""
        ...

    async def queue_followers(self, guild_id: int, local_date: date, paper_id: str,
                              told: Iterable[int], units: Iterable[OutboxUnit]) -> int | None:
        """One transaction across the ledger and the outbox: mark a posted paper of the day's
        followers queued, record `told` as pinged and queue `units`; None (nothing written)
        when they were queued before, so a post's followers are queued exactly once."""
        ...

    async def claim(self, owner: str, now: float, lease_until: float,
                    shards: Shards = ALL_SHARDS) -> OutboxUnit | None:
        """Lease the oldest claimable unit (never leased, released, or lease expired) of a
        server on `shards`, in one atomic statement."""
        ...

    async def complete(self, key: str, owner: str) -> int:
        """Delete a sent unit and record its members as told, if `owner` still holds it."""
        ...

    async def retry_later(self, key: str, owner: str, not_before: float) -> None:
        """Give a unit back, claimable again from `not_before`."""
        ...

    async def drop(self, key: str, owner: str) -> int:
        """Delete a unit Discord refused for good; nobody is recorded as told."""
        ...

    async def drop_dms(self, user_id: int) -> int:
        """Delete every DM queued for a member."""
        ...

    async def release(self, owner: str) -> int:
        """Give back every unit `owner` holds."""
        ...

    async def pending(self) -> int:
        """How many rows wait to be sent."""
        ...


class GroupStore(Protocol):
    """Reading-group settings per server and the presenter rotation."""

    async def settings(self, guild_id: int) -> GroupSettings:
        """A server's settings (defaults when never set)."""
        ...

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        """The role whose members organise (None: only Manage Server)."""
        ...

    async def set_timezone(self, guild_id: int, zone: str | None) -> None:
        """The server's time zone for sessions when it has no paper of the day."""
        ...

    async def set_reminders(self, guild_id: int, offsets: Sequence[int]) -> None:
        """Minutes before each session that reminders go out."""
        ...

    async def volunteers(self, guild_id: int) -> list[Volunteer]:
        """The server's rotation, in the order members volunteered."""
        ...

    async def volunteer(self, guild_id: int, user_id: int) -> bool:
        """Join the rotation; False if already in it."""
        ...

    async def forget(self, user_id: int) -> int:
        """Take a member out of every server's presenter rotation; how many places."""
        ...

    async def withdraw(self, guild_id: int, user_id: int) -> bool:
        """Leave the rotation; False if not in it."""
        ...

    async def rotation(self, guild_id: int) -> tuple[int, int | None]:
        """The turns taken so far and the last presenter."""
        ...

    async def take_turn(self, guild_id: int, presenter_id: int) -> int:
        """Advance the rotation: `presenter_id` presents at the new turn (returned)."""
        ...

    async def skip_turn(self, guild_id: int, user_id: int) -> bool:
        """Move a volunteer to the back of the rotation; False if not a volunteer."""
        ...

    async def swap(self, guild_id: int, first: int, second: int) -> bool:
        """Exchange two volunteers' places; False unless both are volunteers."""
        ...


class AddPolicyStore(Protocol):
    """Who may add papers from arXiv, per server."""

    async def policy(self, guild_id: int) -> AddPolicy:
        """A server's rule (the default when never set)."""
        ...

    async def set_policy(self, guild_id: int, who: WhoAdds, curator_role_id: int | None) -> None:
        """Replace a server's rule."""
        ...


class SessionStore(Protocol):
    """Sessions and their exactly-once reminder ledger."""

    async def create(self, guild_id: int, paper_id: str, starts_at: datetime,
                     presenter_id: int | None, place: Place, channel_id: int) -> Session:
        """A new scheduled session (its Discord ids are recorded later)."""
        ...

    async def get(self, guild_id: int, session_id: int) -> Session | None:
        """One of a server's sessions."""
        ...

    async def of_guild(self, guild_id: int, status: SessionStatus,
                       limit: int = 25) -> list[Session]:
        """A server's sessions with one status, soonest first."""
        ...

    async def scheduled_before(self, until: datetime) -> list[Session]:
        """Every server's scheduled sessions starting before `until` (reminder candidates)."""
        ...

    async def delete(self, guild_id: int, session_id: int) -> None:
        """Forget a session that never reached Discord."""
        ...

    async def set_discord(self, session_id: int, *, event_id: int | None,
                          message_id: int | None, thread_id: int | None) -> None:
        """Record the scheduled event, the announcement and its thread."""
        ...

    async def move(self, session_id: int, starts_at: datetime) -> None:
        """A new start; the new revision gets its own reminders."""
        ...

    async def finish(self, session_id: int, status: SessionStatus,
                     notes: str | None = None) -> None:
        """Cancel a session or mark it done (with notes)."""
        ...

    async def report_problem(self, session_id: int, reason: Reason) -> bool:
        """Record why reminders stopped; True the first time (the organisers are told once)."""
        ...

    async def take_problems(self, guild_id: int) -> list[Session]:
        """Sessions whose problem the organisers have not been told about; marks them told."""
        ...

    async def reminders(self, session_id: int, revision: int) -> list[ReminderEntry]:
        """Every ledger row of one session revision."""
        ...

    async def claim_reminder(self, session_id: int, revision: int, offset_minutes: int,
                             nonce: str, *, lease: Lease) -> ReminderEntry | None:
        """Claim a reminder before sending it, leased to `lease.owner`; None when a row
        already exists."""
        ...

    async def hold_reminder(self, entry: ReminderEntry, lease: Lease, now: datetime) -> bool:
        """Take or renew the lease on a claimed reminder: True when it is now `lease.owner`'s,
        False when it is no longer claimed or another owner's lease is live at `now`."""
        ...

    async def finish_reminder(self, entry: ReminderEntry, status: ReminderStatus, *,
                              message_id: int | None = None,
                              reason: Reason | None = None) -> None:
        """Record a claimed reminder as posted (with its message) or failed (with why)."""
        ...

    async def skip_reminders(self, session_id: int, revision: int,
                             skips: Iterable[tuple[int, Reason]]) -> int:
        """Record reminders that will not be posted; returns how many rows were new."""
        ...


class FeedStore(Protocol):
    """Servers' arXiv feeds, one poll schedule per distinct query, the ids each query has seen
    and the exactly-once (feed, poll) announcement ledger."""

    async def add_feed(self, guild_id: int, query: str, channel_id: int | None,
                       created_by: int, now: datetime, *, limit: int) -> FeedAdded:
        """Follow a canonical query (due for a poll at once if new); a paused feed with that
        query resumes, an active one is a duplicate; at most `limit` feeds a server."""
        ...

    async def feeds(self, guild_id: int) -> list[Feed]:
        """A server's feeds, oldest first, with their query's last poll."""
        ...

    async def remove_feed(self, guild_id: int, feed_id: int) -> Feed | None:
        """Stop following; None if the feed is not the server's."""
        ...

    async def due_queries(self, now: datetime) -> list[str]:
        """Queries due for a poll that at least one active feed follows."""
        ...

    async def claim_poll(self, query: str, now: datetime, next_at: datetime) -> PollClaim | None:
        """Take a due query's poll and schedule the next at `next_at`, in one atomic
        statement; None when it is not due (another process or tick took it)."""
        ...

    async def seen_ids(self, query: str, arxiv_ids: Sequence[str]) -> set[str]:
        """Which of these arXiv ids the query has seen."""
        ...

    async def record_poll(self, query: str, poll: int, found: Sequence[tuple[str, str]],
                          now: datetime) -> int:
        """Mark (arXiv id, paper id) pairs seen, newest first, and, in the same transaction,
        owe the ones not seen before to every active feed of the query with a channel (one
        announcement per feed and poll). Returns the announcements created."""
        ...

    async def poll_failed(self, query: str, reason: Reason, now: datetime) -> None:
        """Record why a poll found nothing."""
        ...

    async def open_announcements(self, now: datetime) -> list[tuple[int, int, int]]:
        """(feed, poll, server) of pending announcements and of claims whose lease expired."""
        ...

    async def claim_announcement(self, feed_id: int, poll: int, lease: Lease,
                                 now: datetime) -> Announcement | None:
        """Claim an open announcement in one atomic statement; None if another holds it."""
        ...

    async def hold_announcement(self, feed_id: int, poll: int, lease: Lease,
                                now: datetime) -> bool:
        """Take or renew the lease on a claimed announcement: True when it is now
        `lease.owner`'s, False when it is no longer claimed or another owner's lease is live
        at `now`."""
        ...

    async def mark_announced(self, feed_id: int, poll: int, message_id: int,
                             now: datetime) -> None:
        """Record the sent post."""
        ...

    async def release_announcement(self, feed_id: int, poll: int) -> None:
        """Give a claim back after a transient failure (tried again at the next tick)."""
        ...

    async def mark_announce_failed(self, feed_id: int, poll: int, reason: Reason,
                                   now: datetime, *, pause: bool) -> bool:
        """Record a post that will not be sent; `pause` pauses the feed and owes its admins
        a notice. True when this paused it."""
        ...

    async def take_notices(self, guild_id: int) -> list[PausedFeed]:
        """Paused feeds the admins have not heard of, marked told in one atomic statement."""
        ...
