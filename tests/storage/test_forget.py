"""`/forget-me` against the schema itself, on both backends: every integer column of the
migrated schema is classified as one that holds a member's id or one that never does (a new
column fails here until someone decides), each member column is filled through the stores as
the bot fills it, and after the wired `ForgetService` runs no column of any table still holds
or contains the member's id, while another member's records stay."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.wiring import forget_service
from domain.corrections import Field, NewProposal, ReviewSettings, Status, Target
from domain.group import Bookmark, ErasedKind
from domain.leases import Lease
from domain.outbox import OutboxEntry, OutboxKind, OutboxUnit
from domain.reasons import Reason, ReasonCode
from domain.recommend import Verdict
from domain.sessions import Place
from domain.subscriptions import Delivery, Subscription
from domain.votes import VoteOption
from storage.postgres.database import PgDatabase
from tests.backends import Backend, enqueue

MEMBER, OTHER = 987_654_321_987_654_321, 123_456_789_123_456_789
"""Two snowflake-sized ids that no other value of the test can contain."""
GUILD, CHANNEL = 10, 20
T0 = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)

MEMBER_COLUMNS = frozenset({"user_id", "presenter_id", "last_presenter", "created_by",
                            "proposed_by", "decided_by", "actor_id"})
"""Column names that hold a member's Discord id, in whichever table."""
NOT_MEMBER_COLUMNS = frozenset({
    # Discord ids of other things
    "guild_id", "channel_id", "message_id", "thread_id", "event_id", "voice_channel_id",
    "announcement_id", "organiser_role_id", "curator_role_id",
    # the database's own ids and references
    "id", "feed_id", "vote_id", "session_id", "paper_id", "correction_id",
    # counts, flags, numbers
    "added", "updated", "unchanged", "removed", "rejected", "attempts", "claims", "polls",
    "poll", "cycle", "cycle_size", "position", "support", "late", "followers_queued",
    "closed_early", "consecutive_failures", "enabled", "failure_notice_pending", "imported",
    "notice_pending", "prep_sheets", "mention_subscribers", "skip_discussed", "thread", "joined",
    "last_turn", "presented", "rotation_turn", "offset_minutes", "revision", "arxiv_version",
    "figures", "pages", "tables", "source_line", "year", "search_tokens", "head_tokens",
    "outcome_notified", "threshold", "catalog_version", "papers", "transformed", "docs",
    "prompt_version", "tokens", "requests", "review_shown",
    "version",  # PostgreSQL: the schema version table
})


async def _remember_everything(backend: Backend, user: int, vote_guild: int) -> None:
    """Give `user` a record in every store that keeps one, as the commands do (the vote in
    `vote_guild`: a server has one open vote at a time)."""
    subscriptions = backend.subscriptions()
    await subscriptions.add(Subscription(GUILD, user, "grokking", "grokking", Delivery.DM))
    await backend.execute("INSERT INTO notifications (guild_id, user_id, paper_id, via, "
                          "notified_at) VALUES (?, ?, ?, 'dm', ?)", GUILD, user, "p1",
                          T0.isoformat())
    await subscriptions.pause_dms(user, Reason(ReasonCode.DMS_CLOSED))
    await enqueue(backend.db, [OutboxUnit(
        f"dm:{GUILD}:p2:{user}", OutboxKind.DIGEST_DM,
        (OutboxEntry(GUILD, user, "p2", ("grokking",), link="https://x"),))])
    await backend.queue().suggest(GUILD, f"q{vote_guild}", user, "a note", T0)
    await backend.bookmarks().add(Bookmark(GUILD, user, "p1", T0))
    await backend.history().record_discussed(GUILD, "p1", T0, user, "notes", None)
    groups = backend.groups()
    await groups.volunteer(vote_guild, user)
    await groups.take_turn(vote_guild, user)
    await backend.sessions().create(GUILD, "p1", T0 + timedelta(days=7), user, Place(),
                                    CHANNEL)
    await backend.feeds().add_feed(GUILD, f"cat:math.GT AND au:{vote_guild}", CHANNEL, user, T0,
                                   limit=10)
    votes = backend.votes()
    vote = await votes.open(vote_guild, CHANNEL, user, T0, T0 + timedelta(hours=1),
                            [VoteOption(1, "p1", 1, T0)])
    assert vote is not None
    await votes.cast(vote.id, user, "p1", T0)
    await backend.recommendations().rate(GUILD, user, "p1", Verdict.UP, T0)
    await backend.similar().follow(GUILD, user, 90)
    corrections = backend.corrections()
    proposal = await corrections.propose(
        NewProposal(GUILD, Target("p1", Field.TITLE_ZH), "旧", "新", "", user, T0))
    await corrections.decide(GUILD, proposal.id, Status.APPROVED, user, T0, "", "旧")
    # a source change the member kept, its notice's message still to show the decision
    notices = backend.correction_notices()
    await corrections.set_review_settings(GUILD, ReviewSettings(CHANNEL))
    assert await notices.queue(proposal.id, "上游", "tseed", T0)
    assert await notices.claim(Lease("seed", T0 + timedelta(minutes=5)), T0) is not None
    assert await notices.posted(proposal.id, "seed", CHANNEL, 1)
    assert await notices.decide(GUILD, proposal.id, keep=True, by=user, at=T0) is not None


async def _holding(backend: Backend, columns: set[tuple[str, str]],
                   user: int) -> set[tuple[str, str]]:
    """Which of these columns hold `user` in some row."""
    found = set()
    for table, column in sorted(columns):
        if await backend.rows(f'SELECT 1 FROM "{table}" WHERE "{column}" = ? LIMIT 1', user):
            found.add((table, column))
    return found


async def _mentioning(backend: Backend, user: int) -> set[tuple[str, str]]:
    """Columns of any type, in any table, whose text contains `user`'s id."""
    if isinstance(backend.db, PgDatabase):
        columns = {(str(t), str(c)) for t, c in await backend.rows(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema()")}
        cast = '"{column}"::text'
    else:
        tables = [str(name) for (name,) in await backend.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        columns = {(table, str(row[1])) for table in tables
                   for row in await backend.rows(f"PRAGMA table_info('{table}')")}
        cast = 'CAST("{column}" AS TEXT)'
    found = set()
    for table, column in sorted(columns):
        where = cast.format(column=column)
        if await backend.rows(f'SELECT 1 FROM "{table}" WHERE {where} LIKE ? LIMIT 1',
                              f"%{user}%"):
            found.add((table, column))
    return found


async def test_every_integer_column_is_known_to_hold_a_member_or_not(backend: Backend) -> None:
    names = {column for _, column in await backend.integer_columns()}
    unknown = names - MEMBER_COLUMNS - NOT_MEMBER_COLUMNS
    assert not unknown, (f"new integer columns {sorted(unknown)}: add each to MEMBER_COLUMNS "
                         "(and make /forget-me reach it) or to NOT_MEMBER_COLUMNS")


async def test_forget_me_reaches_every_column_that_holds_a_member(backend: Backend) -> None:
    member_columns = {(table, column) for table, column in await backend.integer_columns()
                      if column in MEMBER_COLUMNS}
    await _remember_everything(backend, MEMBER, GUILD)
    await _remember_everything(backend, OTHER, GUILD + 1)
    # The seeding reaches every member column: a new one must be seeded here too.
    assert await _holding(backend, member_columns, MEMBER) == member_columns

    erased = await forget_service(backend.db).forget(MEMBER)

    assert await _holding(backend, member_columns, MEMBER) == set()
    assert await _mentioning(backend, MEMBER) == set()
    # Another member keeps every record; the member's sessions, feeds and votes stay, nameless.
    assert await _holding(backend, member_columns, OTHER) == member_columns
    assert erased == {ErasedKind.SUBSCRIPTIONS: 2, ErasedKind.NOTIFICATIONS: 1,
                      ErasedKind.BOOKMARKS: 1, ErasedKind.SUGGESTIONS: 1, ErasedKind.BALLOTS: 1,
                      ErasedKind.PRESENTATIONS: 3, ErasedKind.FEEDS: 1, ErasedKind.RATINGS: 1,
                      ErasedKind.CORRECTIONS: 1}
    session, = [s for s in await backend.sessions().scheduled_before(T0 + timedelta(days=8))
                if s.presenter_id is None]
    assert session.paper_id == "p1"
    assert sorted(feed.created_by for feed in await backend.feeds().feeds(GUILD)) == [0, OTHER]
    # The member's correction (the first, superseded by the other member's) stays, nameless.
    mine, theirs = sorted(await backend.corrections().proposals(GUILD), key=lambda p: p.id)
    assert (mine.proposed_by, mine.decided_by, mine.new_value) == (None, None, "新")
    assert (theirs.proposed_by, theirs.decided_by) == (OTHER, OTHER)
    assert await forget_service(backend.db).forget(MEMBER) == dict.fromkeys(erased, 0)
