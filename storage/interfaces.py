"""What the bot needs from storage: narrow enough for a PostgreSQL implementation later."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from datetime import date, datetime
from typing import Protocol

from bot.core.catalog_types import CatalogStats, LoadCounts, LoadSource, SearchHit
from bot.core.digest_types import Claim, DigestConfig, LedgerEntry
from bot.core.models import Paper
from bot.core.query import SearchQuery
from bot.core.reasons import Reason
from bot.core.session_types import (
    Discussed,
    GroupSettings,
    Place,
    ReminderEntry,
    ReminderStatus,
    Session,
    SessionStatus,
    Volunteer,
)
from bot.core.subscription_types import AddResult, Delivery, Forgotten, Subscription


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

    async def get(self, public_id: str) -> Paper | None:
        """One paper by its public id."""
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
        """Claim the date before sending; None when a row already exists."""
        ...

    async def unfinished(self, guild_id: int) -> list[LedgerEntry]:
        """Claimed rows never marked posted or failed."""
        ...

    async def mark_posted(self, guild_id: int, local_date: date, message_id: int) -> None:
        """Record the sent message and reset the failure count."""
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
        """Add a topic unless it is a duplicate or over the member's limit."""
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
                             nonce: str) -> ReminderEntry | None:
        """Claim a reminder before sending it; None when a row already exists."""
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


class HistoryStore(Protocol):
    """What a server has discussed: the port `/session done` records through (the queue half
    owns `/history`; `storage.history.SqliteHistoryStore` is a minimal implementation)."""

    async def record_discussed(self, guild_id: int, paper_id: str, when: datetime,
                               presenter_id: int | None, notes: str | None,
                               thread_id: int | None) -> None:
        """Record that a server discussed a paper."""
        ...

    async def history(self, guild_id: int) -> list[Discussed]:
        """What a server has discussed, newest first."""
        ...
