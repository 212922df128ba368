"""The throwaway PostgreSQL (tools/throwaway_postgres.py): one start, `started_server()`, serves
the tests' session fixture and the benchmarks' `throwaway_server()`; as root (CI) it runs as the
`postgres` user; every database copied from its template is migrated; nothing is left behind."""

from __future__ import annotations

import os
from pathlib import Path

import asyncpg
import pytest

from storage.postgres.migrations import LATEST_VERSION
from tests.backends import NOT_RUN
from tools.throwaway_postgres import PostgresServer, find_binaries, throwaway_server


async def _check_running(server: PostgresServer) -> None:
    """A fresh database on the server is at the latest schema; as root, the server's files
    belong to the `postgres` user."""
    url = await server.fresh_database()
    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT max(version) FROM paperclub_schema") == LATEST_VERSION
    finally:
        await conn.close()
    await server.drop_database(url)
    if os.geteuid() == 0:
        assert server.directory.owner() == "postgres"


async def test_the_session_fixture_uses_the_shared_start(
        postgres_server: PostgresServer | None) -> None:
    """The fixture is `started_server()`: one server per pytest-xdist worker."""
    if postgres_server is None:
        pytest.skip(NOT_RUN)
    await _check_running(postgres_server)


async def test_the_benchmarks_start_the_same_way_and_leave_nothing_behind() -> None:
    if find_binaries() is None:
        pytest.skip(NOT_RUN)
    async with throwaway_server() as server:
        assert server is not None
        await _check_running(server)
        directory: Path = server.directory
        assert directory.is_dir()
    assert not directory.exists()
