"""`paperclub db backup` while the bot runs and writes go on, `db restore`, `db check`, and a
bot started on the restored database: it answers, and today's paper of the day, posted before
the backup, is not posted again (tomorrow's is). On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.graphs.catalog import open_configured
from bot.settings import Settings, load_settings
from discord_standin import Guild, Message, StandIn
from storage import backend as stores
from tests.clocks import FakeClock
from tests.e2e.group_steps import answer
from tests.e2e.harness import e2e_environment, start_paperclub
from tests.group import People
from tools.throwaway_postgres import PostgresServer

STREAM_KEY = "stream."


@pytest.fixture(params=["sqlite", "postgres"])
async def databases(request: pytest.FixtureRequest, tmp_path: Path, people: People
                    ) -> AsyncIterator[tuple[Settings, Settings]]:
    """The running bot's settings, and those of the database the backup is restored into."""
    env = e2e_environment(tmp_path, people)
    if request.param == "sqlite":
        yield (load_settings(None, env),
               load_settings(None, {**env, "PAPERCLUB_DATABASE__PATH": str(tmp_path / "r.db")}))
        return
    server: PostgresServer | None = request.getfixturevalue("postgres_server")
    if server is None:
        pytest.skip("no PostgreSQL binaries here (see tools/throwaway_postgres.py)")
    running, restored = await server.fresh_database(), await server.fresh_database(
        migrated=False)
    yield (load_settings(None, {**env, "PAPERCLUB_DATABASE__URL": running}),
           load_settings(None, {**env, "PAPERCLUB_DATABASE__URL": restored}))
    for url in (running, restored):
        await server.drop_database(url)


def _cli_env(settings: Settings) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.upper().startswith("PAPERCLUB_") and k != "DISCORD_TOKEN"}
    env["PAPERCLUB_DATABASE__PATH"] = str(settings.database.path)
    if settings.database.postgres_url:
        env["PAPERCLUB_DATABASE__URL"] = settings.database.postgres_url
    return env


async def _paperclub(settings: Settings, *args: str) -> tuple[int, str]:
    """`paperclub ARGS` on `settings`' database, in a process of its own."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, env=_cli_env(settings),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    output, _ = await child.communicate()
    assert child.returncode is not None
    return child.returncode, output.decode()


async def _stream(settings: Settings, written: list[int], stop: asyncio.Event) -> None:
    """Another writer: one `bot_state` row after another, each its own transaction."""
    db = await open_configured(settings.database)
    state = stores.STATE.open(db)
    try:
        while not stop.is_set():
            await state.set(f"{STREAM_KEY}{len(written)}", "x")
            written.append(len(written))
            await asyncio.sleep(0)
    finally:
        await db.close()


def _posts(standin: StandIn, guild: Guild) -> list[Message]:
    return [m for m in standin.messages(guild.channel("papers")) if m.embeds]


async def test_a_backup_taken_under_writes_restores_to_a_bot_that_posts_once(
        standin: StandIn, guild: Guild, people: People, clock: FakeClock, tmp_path: Path,
        databases: tuple[Settings, Settings]) -> None:
    running, restored = databases
    bot = await start_paperclub(standin, running, clock)
    try:
        await answer(standin, "digest set", {"channel": guild.channel("papers").id,
                                             "time": "09:00", "timezone": "Europe/Berlin",
                                             "thread": False}, guild=guild, user=people.bob)
        await bot.digest_tick()  # 09:00 in Berlin: today's paper of the day
        assert len(_posts(standin, guild)) == 1
        written: list[int] = []
        stop = asyncio.Event()
        writer = asyncio.create_task(_stream(running, written, stop))
        while len(written) < 20:  # the stream is flowing
            await asyncio.sleep(0.01)
        before = len(written)
        code, output = await _paperclub(running, "db", "backup", str(tmp_path / "backup"))
        after = len(written)
        stop.set()
        await writer
        assert code == 0, output
        assert after > before, "no write went in while the backup ran"
    finally:
        await standin.stop_bot(bot)

    code, output = await _paperclub(restored, "db", "restore", str(tmp_path / "backup"))
    assert code == 0, output
    code, output = await _paperclub(restored, "db", "check")
    assert code == 0 and "integrity: ok" in output and "(current)" in output, output
    db = await open_configured(restored.database)
    try:
        keys = await _stream_keys(db)
    finally:
        await db.close()
    assert keys == set(range(len(keys))) and before <= len(keys) <= after  # one snapshot

    again = await start_paperclub(standin, restored, clock)  # its start's turn runs at once
    try:
        found = await answer(standin, "paper", {"query": "grokking"}, guild=guild,
                             user=people.alice)
        assert "Grokking" in found.embeds[0]["title"]
        await again.digest_tick()
        assert len(_posts(standin, guild)) == 1  # today's was in the backup: not again
        clock.advance(days=1)
        await again.digest_tick()
        assert len(_posts(standin, guild)) == 2  # and tomorrow's goes out, once
    finally:
        await standin.stop_bot(again)


async def _stream_keys(db: stores.AnyDatabase) -> set[int]:
    rows = await db.fetch("SELECT key FROM bot_state WHERE key LIKE 'stream.%'")
    return {int(str(row[0]).removeprefix(STREAM_KEY)) for row in rows}


async def test_cli_refusals_are_one_line_and_exit_2(tmp_path: Path, people: People) -> None:
    settings = load_settings(None, e2e_environment(tmp_path, people))
    code, output = await _paperclub(settings, "db", "backup", str(tmp_path / "b"))
    assert (code, output) == (2, f"paperclub: error: no such SQLite database: "
                                 f"{settings.database.path}\n")
    code, output = await _paperclub(settings, "db", "restore", str(tmp_path / "none"))
    assert (code, output.count("\n")) == (2, 1) and "no such backup file" in output
    (tmp_path / "junk").write_text("not a database")
    code, output = await _paperclub(settings, "db", "restore", str(tmp_path / "junk"))
    assert (code, output.count("\n")) == (2, 1) and "not a usable SQLite backup" in output
