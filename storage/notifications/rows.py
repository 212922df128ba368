"""Outbox columns and row decoding, shared by both backends' stores."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence, Set
from typing import Any

from domain.outbox import OutboxEntry, OutboxKind, OutboxUnit

ENTRY_COLUMNS = "guild_id, user_id, paper_id, topics, channel_id, link"


def unit_from_rows(rows: Sequence[Sequence[Any]]) -> OutboxUnit | None:
    """The unit a claim returned (`id, unit, kind, attempts, ENTRY_COLUMNS` rows sorted by id),
    or None for no rows."""
    if not rows:
        return None
    return OutboxUnit(str(rows[0][1]), OutboxKind(rows[0][2]),
                      tuple(entry_from_row(r[4:]) for r in rows),
                      attempts=max(int(r[3]) for r in rows))


def entry_from_row(row: Sequence[Any]) -> OutboxEntry:
    """An entry from its `ENTRY_COLUMNS`."""
    return OutboxEntry(int(row[0]), int(row[1]), str(row[2]), tuple(json.loads(row[3])),
                       row[4], row[5])


def announced_units(units: Iterable[OutboxUnit], held: Set[str]) -> list[OutboxUnit]:
    """The units with only their entries about papers in `held` (those left empty dropped)."""
    kept = [dataclasses.replace(unit, entries=tuple(e for e in unit.entries
                                                    if e.paper_id in held)) for unit in units]
    return [unit for unit in kept if unit.entries]
