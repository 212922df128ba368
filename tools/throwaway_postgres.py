"""A throwaway PostgreSQL server for the test run and the benchmarks: initdb into a temporary
directory, a Unix socket in that directory (no TCP port), stopped and removed at exit.

initdb and postgres refuse to run as root; as root (CI) the server runs as the `postgres`
system user (`runuser -u postgres --`). A migrated template database is made once; each test
gets its own database copied from it (`CREATE DATABASE … TEMPLATE`), so tests stay independent
and cheap.

`started_server()` is the one way to start it: the tests' session fixture (one server per
pytest-xdist worker) and, through `throwaway_server()`, the benchmarks.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import itertools
import os
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg

from storage.postgres.database import PgDatabase

SEARCH_PATH = ("/usr/local/bin", "/usr/lib/postgresql/15/bin", "/usr/local/pgsql/bin")
TEMPLATE = "paperclub_template"
_SERVER_USER = "postgres"


def find_binaries() -> Path | None:
    """The directory holding initdb, pg_ctl and postgres, or None."""
    found = shutil.which("initdb")
    candidates = [Path(found).parent] if found else []
    candidates += [Path(p) for p in SEARCH_PATH]
    for directory in candidates:
        if all((directory / name).exists() for name in ("initdb", "pg_ctl", "postgres")):
            return directory
    return None


class PostgresServer:
    """One server for the whole test session; `url(name)` connects to a database on it."""

    def __init__(self, binaries: Path) -> None:
        self._bin = binaries
        self._dir = Path(tempfile.mkdtemp(prefix="paperclub-pg-"))
        self._data = self._dir / "data"
        self._as_root = os.geteuid() == 0
        self._names = itertools.count(1)
        self._running = False

    def _run(self, *args: str | Path) -> None:
        command = [str(a) for a in args]
        if self._as_root:
            command = ["runuser", "-u", _SERVER_USER, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True,  # noqa: S603
                              check=False)
        if done.returncode:
            raise RuntimeError(f"{command[-len(args)]} failed ({done.returncode}): "
                               f"{(done.stderr or done.stdout).strip()[-2000:]}")

    def start(self) -> None:
        """initdb, then start the server on a socket in the temporary directory."""
        if self._as_root:
            shutil.chown(self._dir, _SERVER_USER, _SERVER_USER)
        self._run(self._bin / "initdb", "-D", self._data, "-U", _SERVER_USER, "--auth=trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        options = (f"-k {self._dir} -c listen_addresses='' -F -c synchronous_commit=off "
                   "-c full_page_writes=off -c max_connections=200")
        self._run(self._bin / "pg_ctl", "-D", self._data, "-o", options, "-l",
                  self._dir / "server.log", "-w", "-t", "60", "start")
        self._running = True
        atexit.register(self.stop)

    def stop(self) -> None:
        """Stop the server (immediately: nothing in it is kept) and remove its directory."""
        if self._running:
            self._running = False
            with contextlib.suppress(RuntimeError):
                self._run(self._bin / "pg_ctl", "-D", self._data, "-m", "immediate", "-w",
                          "stop")
        shutil.rmtree(self._dir, ignore_errors=True)

    @property
    def directory(self) -> Path:
        """The temporary directory: the data, the socket and the log (removed by `stop`)."""
        return self._dir

    def url(self, database: str = "postgres") -> str:
        """A URL for one database on this server (over the Unix socket)."""
        return f"postgresql://{_SERVER_USER}@/{database}?host={self._dir}"

    async def make_template(self) -> None:
        """Create the migrated template database every test database is copied from."""
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f"CREATE DATABASE {TEMPLATE}")
        finally:
            await admin.close()
        db = await PgDatabase.open(self.url(TEMPLATE))
        await db.close()

    async def fresh_database(self, *, migrated: bool = True) -> str:
        """A new database (a copy of the migrated template, or empty); returns its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        template = TEMPLATE if migrated else "template0"
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
        finally:
            await admin.close()
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        """Drop a test database (its connections are closed first)."""
        name = urlsplit(url).path.lstrip("/")
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await admin.close()


@contextlib.contextmanager
def started_server() -> Iterator[PostgresServer | None]:
    """A started server with its migrated template database, stopped and removed at the end;
    None where no PostgreSQL binaries exist. Synchronous (the template is made on an event
    loop of its own, in a worker thread), so a session fixture can use it as well as an
    event loop (`throwaway_server`)."""
    binaries = find_binaries()
    if binaries is None:
        yield None
        return
    server = PostgresServer(binaries)
    try:
        server.start()
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, server.make_template()).result()
        yield server
    finally:
        server.stop()


@contextlib.asynccontextmanager
async def throwaway_server() -> AsyncIterator[PostgresServer | None]:
    """`started_server()` for a running event loop (started in a worker thread, so the loop
    keeps running meanwhile)."""
    with contextlib.ExitStack() as stack:
        yield await asyncio.to_thread(stack.enter_context, started_server())
