"""The migrations stated once, for both backends: one ordered list of steps (`STEPS`) after
each backend's shipped list (`storage.sqlite.migrations`, `storage.postgres.migrations`), each
step rendered per dialect and numbered by its place.

A step's statements are SQL whose column types are the tokens of `storage.dialect` (`{big}`,
`{rowid}`, `{serial}`, `{real}`, `{blob}`; any other brace is left alone), a `Table` to create,
or, where the dialects really differ, a function of the dialect. A step taken by one backend
alone names it (`only`). Its versions follow from its place: the first step is SQLite 27 and
PostgreSQL 20, and each later one the next version of each backend that takes it; PostgreSQL
names a step it shares "SQLite <n>: …", as its hand-written mirrors always did.

Add a migration by appending a step here: never edit, reorder or remove one that has shipped
(tests/storage/test_schema_unchanged.py pins every shipped migration of both backends; the
lead pins new ones at the merge that numbers them, `PAPERCLUB_WRITE_SCHEMA_GOLDEN=1`).

`SHIPPED` holds the shipped migrations both backends took alike, each with its two versions;
each backend's module adds the ones it alone took (`storage.sqlite.migrations`,
`storage.postgres.migrations`). They are pinned like the steps: never edit one.

`Versioned` applies them, alike on both backends.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ClassVar, Literal

from domain.storage_faults import SchemaError
from storage import schema
from storage.corrections import tables as corrections
from storage.db import OnTransactions, Tx
from storage.dialect import POSTGRES, SQLITE, Dialect, Migration, Table, add_columns
from storage.meaning.tables import PAPER_EMBEDDINGS
from storage.notifications.tables import commit_then_send
from storage.prep.tables import SESSION_PREP_SHEETS

Statement = str | Table | Callable[[Dialect], Iterable[str]]
"""SQL with type tokens, a table to create (with its indexes), or one dialect's statements."""
Backend = Literal["sqlite", "postgres"]

SQLITE_SHIPPED = 26
"""The last SQLite version written by hand in `storage.sqlite.migrations`; steps follow it."""
POSTGRES_SHIPPED = 19
"""The last PostgreSQL version written by hand in `storage.postgres.migrations`."""

_log = logging.getLogger(__name__)
_DIALECTS: dict[Backend, Dialect] = {"sqlite": SQLITE, "postgres": POSTGRES}
_TOKEN = re.compile(r"\{(big|rowid|serial|real|blob)\}")


@dataclass(frozen=True, slots=True)
class Step:
    """One migration stated once: what it does, and its statements in portable form."""

    name: str
    statements: tuple[Statement, ...]
    only: Backend | None = None
    """The one backend that takes it (a dialect's own index or search structure)."""

    def render(self, dialect: Dialect) -> tuple[str, ...]:
        """The statements in `dialect`."""
        return tuple(line for statement in self.statements
                     for line in _rendered(statement, dialect))


def _rendered(statement: Statement, dialect: Dialect) -> Iterable[str]:
    if isinstance(statement, Table):
        return statement.create(dialect)
    if isinstance(statement, str):
        types = dialect.types()
        return (_TOKEN.sub(lambda m: types[m.group(1)], statement),)
    return statement(dialect)


def _leases(dialect: Dialect) -> tuple[str, ...]:
    """A claimed reminder's and vote announcement's owner and lease (PostgreSQL adds both
    columns of a table in one statement)."""
    together = dialect is POSTGRES
    return (*add_columns("session_reminders", schema.LEASE, together=together),
            *add_columns("votes", schema.LEASE, together=together))


SHIPPED: tuple[tuple[int, int, Step], ...] = (
    (11, 2, Step("paper of the day may skip papers the server already discussed",
                 ("ALTER TABLE digest_settings ADD COLUMN skip_discussed INTEGER NOT NULL "
                  "DEFAULT 0",))),
    (13, 4, Step("who may add papers from arXiv, per server", (schema.ADD_POLICY,))),
    (15, 6, Step("claimed reminders and vote announcements are leased to the process "
                 "finishing them", (_leases,))),
    (16, 8, Step("a posted paper of the day records whether its DMs and follow-up mentions "
                 "are queued", (
                     "ALTER TABLE digest_ledger ADD COLUMN followers_queued INTEGER NOT NULL "
                     "DEFAULT 0",
                     # Rows finished before this version had their followers queued the old way.
                     "UPDATE digest_ledger SET followers_queued = 1 WHERE status <> 'claimed'"))),
    (17, 9, Step("recommendations: each member's 👍 / 👎 on papers, per server",
                 (schema.PAPER_FEEDBACK,))),
    (18, 10, Step("each server's calendar feed link (its token, or off)",
                  (schema.CALENDAR_LINKS,))),
    (19, 11, Step("corrections: proposals per server, their history, where curators review them",
                  (corrections.CORRECTIONS, corrections.CORRECTION_EVENTS,
                   corrections.CORRECTION_REVIEW))),
    (20, 12, Step("each server's read-only web page link (its token, or off)",
                  (schema.WEB_LINKS,))),
    (21, 13, Step("a vote records how members vote: buttons or a native Discord poll (whose "
                  "message is the vote's message)",
                  ("ALTER TABLE votes ADD COLUMN style TEXT NOT NULL DEFAULT 'buttons'",))),
    (22, 14, Step("corrections: the curators' notices that a source changed a corrected field, "
                  "and corrections applied from a file", (
                      corrections.CORRECTION_NOTICES,
                      "ALTER TABLE corrections ADD COLUMN imported INTEGER NOT NULL DEFAULT 0"))),
    (23, 15, Step("the paper of the day may be the group's recommended paper; members follow "
                  "papers like their bookmarks", (
                      "ALTER TABLE digest_settings ADD COLUMN pick TEXT NOT NULL DEFAULT 'cycle'",
                      "ALTER TABLE digest_ledger ADD COLUMN pick TEXT NOT NULL DEFAULT 'cycle'",
                      "ALTER TABLE digest_ledger ADD COLUMN pick_like TEXT",
                      schema.SIMILAR_SUBSCRIPTIONS))),
    (24, 16, Step("recommendation features kept with the catalog: each fit's vocabulary, every "
                  "paper's vector", (schema.RECOMMEND_VOCABULARIES, schema.PAPER_VECTORS))),
)
"""The shipped migrations both backends took alike: (SQLite version, PostgreSQL version, step)."""

STEPS: tuple[Step, ...] = (
    Step("nothing lost between commit and send: papers whose subscribers are not yet queued "
         "their DMs, correction outcomes through the outbox, review messages still to show "
         "their decision", (commit_then_send,)),
    Step("AI summaries per paper and language, and the tokens spent on them per day",
         (schema.PAPER_SUMMARIES, schema.LLM_USAGE)),
    Step("search by meaning: each catalog paper's sentence-encoder vector", (PAPER_EMBEDDINGS,)),
    Step("nothing lost between commit and send: a source-change notice's decision until its "
         "message shows it, the paper of the day's pause note until it was sent",
         (corrections.CORRECTION_NOTICE_DECISIONS,
          "ALTER TABLE digest_settings ADD COLUMN failure_notice_owner TEXT",
          "ALTER TABLE digest_settings ADD COLUMN failure_notice_lease_until TEXT")),
    Step("prep sheets: each session's discussion questions, and a server's switch for them",
         (SESSION_PREP_SHEETS,
          "ALTER TABLE group_settings ADD COLUMN prep_sheets INTEGER NOT NULL DEFAULT 1")),
)


@dataclass(frozen=True, slots=True)
class _Numbered:
    step: Step
    sqlite: int
    """The SQLite version after the step (the one before it, when SQLite does not take it)."""
    postgres: int


def _numbered(steps: tuple[Step, ...]) -> list[_Numbered]:
    versions = {"sqlite": SQLITE_SHIPPED, "postgres": POSTGRES_SHIPPED}
    found = []
    for step in steps:
        for backend in versions:
            versions[backend] += step.only in (None, backend)
        found.append(_Numbered(step, versions["sqlite"], versions["postgres"]))
    return found


def _migration(backend: Backend, n: _Numbered) -> Migration:
    shared = backend == "postgres" and n.step.only is None
    name = f"SQLite {n.sqlite}: {n.step.name}" if shared else n.step.name
    version = n.sqlite if backend == "sqlite" else n.postgres
    return Migration(version, name, n.step.render(_DIALECTS[backend]))


def migrations(backend: Backend, steps: tuple[Step, ...] = STEPS) -> tuple[Migration, ...]:
    """The steps `backend` takes, as its numbered migrations."""
    return tuple(_migration(backend, n) for n in _numbered(steps)
                 if n.step.only in (None, backend))


def every(backend: Backend, written: tuple[Migration, ...]) -> tuple[Migration, ...]:
    """All of `backend`'s migrations: the shipped ones (`written` for it alone, and `SHIPPED`),
    in order, then `STEPS`."""
    alike = (_migration(backend, _Numbered(step, lite, pg)) for lite, pg, step in SHIPPED)
    found = (*sorted((*written, *alike), key=lambda m: m.version), *migrations(backend))
    last_shipped = SQLITE_SHIPPED if backend == "sqlite" else POSTGRES_SHIPPED
    assert found[last_shipped - 1].version == last_shipped
    return found


def mirrored(steps: tuple[Step, ...] = STEPS) -> dict[int, int]:
    """The SQLite version each PostgreSQL version of the steps mirrors (`paperclub db copy`)."""
    return {n.postgres: n.sqlite for n in _numbered(steps) if n.step.only != "sqlite"}


class Versioned(OnTransactions):
    """What both databases do alike with their schema's version: refuse a newer one, and
    migrate, each migration in a transaction of its own. A backend says where the version is
    kept (`schema_version`, `_current`, `_record`)."""

    MIGRATIONS: ClassVar[tuple[Migration, ...]]

    async def schema_version(self) -> int:
        """The version recorded in the database (0 for an empty one)."""
        raise NotImplementedError

    async def _current(self, tx: Tx) -> int:
        """The version, read in a migration's transaction (taking what it needs first)."""
        raise NotImplementedError

    async def _record(self, tx: Tx, version: int) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def _ready(self, migrate: bool, failure: Callable[[BaseException], BaseException]
                     ) -> None:
        """The end of opening: a newer schema refused, the schema migrated (`migrate`); on any
        failure the database is closed and `failure(exc)` raised."""
        try:
            await self.check_version()
            if migrate:
                await self.migrate()
        except BaseException as exc:
            await self.close()
            raise failure(exc) from exc

    async def check_version(self) -> None:
        """Refuse a database written by a newer paperclub."""
        version, latest = await self.schema_version(), self.MIGRATIONS[-1].version
        if version > latest:
            raise SchemaError(f"database schema version {version} is newer than this paperclub "
                              f"understands ({latest}); upgrade paperclub or use another database")

    async def migrate(self, up_to: int | None = None) -> int:
        """Apply pending migrations (to version `up_to`, else all), each in its own
        transaction; returns the new version. A new database is created quietly (debug log);
        upgrading an existing one logs INFO."""
        latest = self.MIGRATIONS[-1].version
        fresh = await self.schema_version() == 0
        for migration in self.MIGRATIONS:
            if up_to is not None and migration.version > up_to:
                break
            async with self.transaction() as tx:
                current = await self._current(tx)
                if current > latest:
                    raise SchemaError(f"database schema version {current} is too new")
                if current >= migration.version:
                    continue
                _log.log(logging.DEBUG if fresh else logging.INFO,
                         "migrating database to version %d: %s", migration.version,
                         migration.name)
                for statement in migration.statements:
                    await tx.execute(statement)
                await self._record(tx, migration.version)
        return await self.schema_version()
