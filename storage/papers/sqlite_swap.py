"""The catalog's next generation: shadow tables built in short transactions, then one switch.

A load writes the whole new catalog into `papers_next`, `paper_honours_next`, `paper_fts_next`
and `paper_fts_head_next` (created from the live tables' own schema, so migrations stay the one
source of truth), in bounded transactions that let other writers in between. The switch drops the
live tables, renames the shadows into place and recreates their indexes in one short transaction.
A load that dies leaves the live catalog untouched; its leftover shadows are dropped by the
next load. One load at a time: a slot in `bot_state` names the process holding it.
"""

from __future__ import annotations

import os
import re

from domain.storage_faults import CatalogLoadRunning
from storage.db import Tx
from storage.times import utc_timestamp

LIVE = ("papers", "paper_honours", "paper_fts", "paper_fts_head")
"""Live tables, parents first."""
SUFFIX = "_next"
SLOT_KEY = "catalog_load"
_CREATE = re.compile(r'^(CREATE\s+(?:VIRTUAL\s+)?TABLE\s+)("?)(\w+)\2', re.IGNORECASE)
_REFERENCES = re.compile(r'(REFERENCES\s+)("?)papers\2(?=\s*\()', re.IGNORECASE)


def shadow(table: str) -> str:
    """The shadow name of a live table."""
    return table + SUFFIX


def _shadow_sql(sql: str) -> str:
    sql = _CREATE.sub(lambda m: f"{m.group(1)}{m.group(3)}{SUFFIX}", sql, count=1)
    return _REFERENCES.sub(lambda m: f"{m.group(1)}papers{SUFFIX}", sql)


async def _schema(tx: Tx, sql: str, params: tuple[str, ...]) -> list[str]:
    return [str(row[0]) for row in await tx.fetch(sql, *params)]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def ensure_free(tx: Tx) -> None:
    """`CatalogLoadRunning` while a live process holds the load slot: a write to the live
    catalog then would be lost at the switch. Call inside a transaction."""
    value = str(await tx.fetch_value("SELECT value FROM bot_state WHERE key = ?", SLOT_KEY))
    holder = int(value) if value.isdigit() else 0
    if holder and _alive(holder):
        raise CatalogLoadRunning(f"the catalog is being reloaded by process {holder}; "
                                 "try again when that load has finished")


async def claim(tx: Tx) -> None:
    """Take the load slot (`CatalogLoadRunning` if a live process holds it), drop a dead
    load's shadows and create fresh ones. Call inside a transaction."""
    await ensure_free(tx)
    await tx.execute(
        "INSERT INTO bot_state (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) "
        "DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        SLOT_KEY, str(os.getpid()), utc_timestamp())
    await drop_shadows(tx)
    placeholders = ",".join("?" * len(LIVE))
    for sql in await _schema(tx, f"SELECT sql FROM sqlite_master WHERE type = 'table' AND "
                                   f"name IN ({placeholders})", LIVE):
        await tx.execute(_shadow_sql(sql))


async def drop_shadows(tx: Tx) -> None:
    """Drop any shadow tables (children first). Call inside a transaction."""
    for table in reversed(LIVE):
        await tx.execute(f"DROP TABLE IF EXISTS {shadow(table)}")


async def release(tx: Tx) -> None:
    """Give up the load slot and drop the shadows. Call inside a transaction."""
    await drop_shadows(tx)
    await tx.execute("DELETE FROM bot_state WHERE key = ? AND value = ?", SLOT_KEY,
                     str(os.getpid()))


async def switch(tx: Tx) -> None:
    """Put the shadows in place of the live tables, with the live tables' indexes, and give
    up the slot. Call inside a transaction: readers see the old catalog or the new one."""
    placeholders = ",".join("?" * len(LIVE))
    indexes = await _schema(tx, f"SELECT sql FROM sqlite_master WHERE type = 'index' AND "
                                  f"sql IS NOT NULL AND tbl_name IN ({placeholders})", LIVE)
    for table in reversed(LIVE):
        await tx.execute(f"DROP TABLE {table}")
    for table in LIVE:
        await tx.execute(f"ALTER TABLE {shadow(table)} RENAME TO {table}")
    for sql in indexes:
        await tx.execute(sql)
    await tx.execute("DELETE FROM bot_state WHERE key = ?", SLOT_KEY)
