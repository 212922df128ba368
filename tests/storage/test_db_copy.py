"""`paperclub db copy`: every table moves, an interrupted copy run again ends with no
duplicates, counts are verified, searches agree after the copy, schemas must match."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.features.catalog.loader import load_catalog
from bot.features.papers.query import parse_query
from domain.copy import TableCount
from domain.storage_faults import SchemaError
from storage.copy import copy_database
from storage.papers.postgres import PgPaperStore
from storage.papers.sqlite import SqlitePaperStore
from storage.postgres.database import PgDatabase
from storage.postgres.migrations import LATEST_VERSION, SQLITE_VERSION
from storage.sqlite.database import Database
from tools.throwaway_postgres import PostgresServer

QUERIES = ("grokking", "蒸馏", "attention", "learn", "diffusion model", "Vardi")
GUILD, USER = 111_000_000_000_000_001, 222_000_000_000_000_002
_STATE = (
    ("INSERT INTO bot_state (key, value, updated_at) VALUES (?, ?, ?)", ("k", "v", "t")),
    ("INSERT INTO digest_settings (guild_id, channel_id, local_time, timezone, enabled_since, "
     "updated_at) VALUES (?, ?, ?, ?, ?, ?)", (GUILD, 5, "09:00", "UTC", "t", "t")),
    ("INSERT INTO digest_ledger (guild_id, local_date, status, paper_id, nonce, claimed_at) "
     "VALUES (?, ?, ?, ?, ?, ?)", (GUILD, "2026-01-02", "posted", "p1", "n", "t")),
    ("INSERT INTO subscriptions (guild_id, user_id, topic, topic_key, delivery, created_at) "
     "VALUES (?, ?, ?, ?, ?, ?)", (GUILD, USER, "Diffusion", "diffusion", "dm", "t")),
    ("INSERT INTO notifications (guild_id, user_id, paper_id, via, notified_at) "
     "VALUES (?, ?, ?, ?, ?)", (GUILD, USER, "p1", "dm", "t")),
    ("INSERT INTO queue_support (guild_id, paper_id, user_id, note, created_at) "
     "VALUES (?, ?, ?, ?, ?)", (GUILD, "p1", USER, "", "t")),
    ("INSERT INTO votes (id, guild_id, channel_id, opened_at, ends_at, status) "
     "VALUES (?, ?, ?, ?, ?, ?)", (7, GUILD, 5, "t", "u", "open")),
    ("INSERT INTO vote_options (vote_id, position, paper_id, support, suggested_at) "
     "VALUES (?, ?, ?, ?, ?)", (7, 1, "p1", 2, "t")),
    ("INSERT INTO vote_ballots (vote_id, user_id, paper_id, cast_at) VALUES (?, ?, ?, ?)",
     (7, USER, "p1", "t")),
    ("INSERT INTO bookmarks (guild_id, user_id, paper_id, created_at) VALUES (?, ?, ?, ?)",
     (GUILD, USER, "p1", "t")),
    ("INSERT INTO discussed (guild_id, paper_id, discussed_at) VALUES (?, ?, ?)",
     (GUILD, "p1", "t")),
    ("INSERT INTO paper_feedback (guild_id, user_id, paper_id, verdict, rated_at) "
     "VALUES (?, ?, ?, ?, ?)", (GUILD, USER, "p1", "down", "t")),
    ("INSERT INTO outbox (unit, kind, guild_id, user_id, paper_id, topics, lease_until, "
     "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
     ("u", "mention", GUILD, USER, "p1", "[]", 12.5, "t")),
    ("INSERT INTO group_settings (guild_id, timezone, updated_at) VALUES (?, ?, ?)",
     (GUILD, "Asia/Taipei", "t")),
    ("INSERT INTO sessions (id, guild_id, paper_id, starts_at, channel_id, status, created_at, "
     "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (3, GUILD, "p1", "s", 5, "scheduled",
                                                     "t", "t")),
    ("INSERT INTO session_reminders (session_id, revision, offset_minutes, status, nonce, "
     "claimed_at) VALUES (?, ?, ?, ?, ?, ?)", (3, 1, 60, "posted", "n", "t")),
    ("INSERT INTO presenters (guild_id, user_id, joined) VALUES (?, ?, ?)", (GUILD, USER, 1)),
    ("INSERT INTO dm_pauses (user_id, reason, paused_at) VALUES (?, ?, ?)", (USER, "r", "t")),
    ("INSERT INTO add_policy (guild_id, who, curator_role_id, updated_at) VALUES (?, ?, ?, ?)",
     (GUILD, "curators", 9, "t")),
    ("INSERT INTO feeds (id, guild_id, query, channel_id, created_by, created_at) "
     "VALUES (?, ?, ?, ?, ?, ?)", (4, GUILD, "cat:cs.LG", 5, USER, "t")),
    ("INSERT INTO feed_queries (query, next_poll_at) VALUES (?, ?)", ("cat:cs.LG", "t")),
    ("INSERT INTO feed_seen (query, arxiv_id, poll) VALUES (?, ?, ?)",
     ("cat:cs.LG", "2401.01234", 1)),
    ("INSERT INTO feed_announcements (feed_id, poll, guild_id, channel_id, query, paper_ids, "
     "status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
     (4, 1, GUILD, 5, "cat:cs.LG", "[]", "pending", "t")),
    ("INSERT INTO calendar_links (guild_id, token, updated_at) VALUES (?, ?, ?)",
     (GUILD, "feed-token", "t")),
    ("INSERT INTO web_links (guild_id, token, updated_at) VALUES (?, ?, ?)",
     (GUILD, "page-token", "t")),
    ("INSERT INTO corrections (id, guild_id, paper_id, field, old_value, new_value, reason, "
     "proposed_by, created_at, status, source_value) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
     (3, GUILD, "p1", "title_zh", "旧", "新", "", 5, "t", "pending", "旧")),
    ("INSERT INTO correction_events (correction_id, action, actor_id, at, note) "
     "VALUES (?, ?, ?, ?, ?)", (3, "proposed", 5, "t", "")),
    ("INSERT INTO correction_review (guild_id, channel_id, updated_at) VALUES (?, ?, ?)",
     (GUILD, 5, "t")),
    ("INSERT INTO similar_subscriptions (guild_id, user_id, threshold, updated_at) "
     "VALUES (?, ?, ?, ?)", (GUILD, USER, 90, "t")),
    ("INSERT INTO correction_notices (correction_id, guild_id, old_source, new_source, token, "
     "status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
     (3, GUILD, "旧", "上游", "a1b2c3", "pending", "t")),
    ("INSERT INTO correction_notice_decisions (correction_id, guild_id, old_source, "
     "new_source, token, created_at, channel_id, message_id, attempts, action, decided_by, "
     "decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
     (3, GUILD, "旧", "上游", "d4e5f6", "t", 5, 6, 1, "kept", USER, "t")),
    ("INSERT INTO recommend_vocabularies (revision, catalog_version, papers, vocabulary, "
     "started_at) VALUES (?, ?, ?, ?, ?)", (2, 1, 30, b"PCRV\x00\x01", "t")),
    ("INSERT INTO paper_vectors (revision, paper_id, content_hash, vector) VALUES (?, ?, ?, ?)",
     (2, "p1", "h", b"\x05\x00\x00\x00\x00\x00\x80\x3f")),
    ("INSERT INTO paper_summaries (paper_id, lang, status, summary, model, updated_at) "
     "VALUES (?, ?, ?, ?, ?, ?)", ("p1", "zh-CN", "done", "本文研究图。", "m", "t")),
    ("INSERT INTO llm_usage (day, tokens, requests) VALUES (?, ?, ?)", ("2026-12-01", 900, 3)),
    ("INSERT INTO session_prep_sheets (session_id, status, questions, updated_at) "
     "VALUES (?, ?, ?, ?)", (3, "ready", "为什么？\nWhy?", "t")),
    ("INSERT INTO unannounced_papers (paper_id, added_at, owner, lease_until) "
     "VALUES (?, ?, ?, ?)", ("p1", "t", "bot", "t")),
    ("INSERT INTO paper_embeddings (paper_id, model, text_hash, scale, vector) "
     "VALUES (?, ?, ?, ?, ?)", ("p1", "usem3", "h", 0.0125, bytes([1, 255, 0, 127]))),
)


@pytest.fixture
def server(postgres_server: PostgresServer | None) -> PostgresServer:
    if postgres_server is None:
        pytest.skip("PostgreSQL not found: the PostgreSQL half of the contract suite was NOT run")
    return postgres_server


async def _group(path: Path, catalog_path: Path) -> Database:
    """A SQLite group: the bundled test catalog and a row in every other table."""
    db = await Database.open(path)
    await load_catalog(SqlitePaperStore(db), catalog_path)
    async with db.transaction() as tx:
        for sql, params in _STATE:
            await tx.execute(sql, *params)
    return db


async def _answers(store: SqlitePaperStore | PgPaperStore) -> list[list[tuple[str, float]]]:
    return [[(h.paper.id, h.score) for h in await store.search(parse_query(q), limit=10)]
            for q in QUERIES]


def _every_table_equal(counts: list[TableCount]) -> None:
    assert [c for c in counts if not c.ok] == []
    tables = {c.table for c in counts}
    assert {"papers", "paper_honours", "catalog_loads", "digest_ledger", "subscriptions",
            "queue_support", "vote_ballots", "session_reminders", "group_settings",
            "outbox"} <= tables
    assert all(c.source > 0 for c in counts), [c.table for c in counts if not c.source]


async def test_copy_to_postgresql_moves_every_table_and_searches_agree(
        tmp_path: Path, catalog_path: Path, server: PostgresServer) -> None:
    lite = await _group(tmp_path / "group.db", catalog_path)
    url = await server.fresh_database()
    pg = await PgDatabase.open(url)
    try:
        counts = await copy_database(lite, pg, batch=7)
        _every_table_equal(counts)
        assert await _answers(PgPaperStore(pg)) == await _answers(SqlitePaperStore(lite))
        assert any(await _answers(PgPaperStore(pg)))
        # the id sequences moved past the copied ids: new rows get new ids
        new = await pg.returning_one(
            "INSERT INTO votes (guild_id, channel_id, opened_at, ends_at, status) "
            "VALUES (1, 1, 't', 'u', 'announced') RETURNING id")
        assert new is not None and new[0] == 8
    finally:
        await lite.close()
        await pg.close()
        await server.drop_database(url)


class _Interrupted(Exception):
    pass


async def test_an_interrupted_copy_run_again_finishes_without_duplicates(
        tmp_path: Path, catalog_path: Path, server: PostgresServer) -> None:
    lite = await _group(tmp_path / "group.db", catalog_path)
    url = await server.fresh_database()
    pg = await PgDatabase.open(url)
    batches = 0

    async def killed_after_three(table: str, new: int, present: int) -> None:
        nonlocal batches
        batches += table == "papers"
        if batches == 3:  # in the middle of the papers, some other tables done or not
            raise _Interrupted(table)

    try:
        with pytest.raises(_Interrupted):
            await copy_database(lite, pg, batch=4, progress=killed_after_three)
        partial = int(await pg.fetch_value("SELECT count(*) FROM papers"))
        assert 0 < partial < 30
        _every_table_equal(await copy_database(lite, pg, batch=4))
        _every_table_equal(await copy_database(lite, pg, batch=4))  # and once more: idempotent
        assert await _answers(PgPaperStore(pg)) == await _answers(SqlitePaperStore(lite))
    finally:
        await lite.close()
        await pg.close()
        await server.drop_database(url)


async def test_copy_back_to_sqlite_rebuilds_the_fts5_index(
        tmp_path: Path, catalog_path: Path, server: PostgresServer) -> None:
    lite = await _group(tmp_path / "group.db", catalog_path)
    url = await server.fresh_database()
    pg = await PgDatabase.open(url)
    back = await Database.open(tmp_path / "back.db")
    try:
        await copy_database(lite, pg)
        _every_table_equal(await copy_database(pg, back, batch=5))
        assert await _answers(SqlitePaperStore(back)) == await _answers(SqlitePaperStore(lite))
    finally:
        await lite.close()
        await back.close()
        await pg.close()
        await server.drop_database(url)


async def test_different_schema_versions_are_refused(
        tmp_path: Path, catalog_path: Path, server: PostgresServer) -> None:
    lite = await _group(tmp_path / "group.db", catalog_path)
    url = await server.fresh_database()
    pg = await PgDatabase.open(url)
    try:
        await pg.execute("UPDATE paperclub_schema SET version = $1", max(
            v for v, mirrored in SQLITE_VERSION.items()  # PostgreSQL-only migrations
            if mirrored < SQLITE_VERSION[LATEST_VERSION]))  # mirror the same SQLite
        with pytest.raises(SchemaError, match="migrate both to the same version"):
            await copy_database(lite, pg)
        assert await pg.fetch_value("SELECT count(*) FROM papers") == 0
    finally:
        await lite.close()
        await pg.close()
        await server.drop_database(url)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "db", "copy", *args],
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "COLUMNS": "200"})


async def test_the_command_copies_verifies_and_refuses_in_one_line(
        tmp_path: Path, catalog_path: Path, server: PostgresServer) -> None:
    lite = await _group(tmp_path / "group.db", catalog_path)
    await lite.close()
    url = await server.fresh_database(migrated=False)
    try:
        done = _cli("--from", f"sqlite:{tmp_path / 'group.db'}", "--to", url)
        assert done.returncode == 0, done.stderr
        assert "papers" in done.stdout and "MISMATCH" not in done.stdout
        assert "copied" in done.stdout and "already there" not in done.stdout
        assert re.search(r"papers: \+[1-9]", done.stderr), done.stderr
        again = _cli("--from", f"sqlite:{tmp_path / 'group.db'}", "--to", url)
        assert again.returncode == 0, again.stderr  # a second run changes nothing
        assert re.search(r"^copied 0 new rows \(\d+ already there\)", again.stdout, re.M)
        assert re.search(r"papers: \+0 \(\d+ already there\)", again.stderr), again.stderr
        assert not re.search(r": \+[1-9]", again.stderr), again.stderr
        pg = await PgDatabase.open(url)
        await pg.execute("INSERT INTO bookmarks VALUES (1, 2, 'extra', 't')")
        mismatch = _cli("--from", f"sqlite:{tmp_path / 'group.db'}", "--to", url)
        assert mismatch.returncode == 1
        assert "bookmarks" in mismatch.stderr and "MISMATCH" in mismatch.stdout
        await pg.execute("UPDATE paperclub_schema SET version = 999")
        await pg.close()
        newer = _cli("--from", f"sqlite:{tmp_path / 'group.db'}", "--to", url)
        assert newer.returncode == 2
        assert "newer" in newer.stderr and len(newer.stderr.strip().splitlines()) == 1
    finally:
        await server.drop_database(url)
    for args, words in (
            (("--from", "mysql://x", "--to", url), "expected sqlite:PATH"),
            (("--from", f"sqlite:{tmp_path / 'none.db'}", "--to", url), "no such SQLite file"),
            (("--from", f"sqlite:{tmp_path / 'a.db'}", "--to", f"sqlite:{tmp_path / 'b.db'}"),
             "one of each")):
        bad = _cli(*args)
        assert bad.returncode == 2, bad.stderr
        assert words in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_every_postgresql_version_names_the_sqlite_schema_it_mirrors() -> None:
    from storage.postgres.migrations import MIGRATIONS
    assert {m.version for m in MIGRATIONS} <= set(SQLITE_VERSION)
    assert SQLITE_VERSION[LATEST_VERSION] == max(SQLITE_VERSION.values())


