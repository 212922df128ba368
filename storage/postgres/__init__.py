"""The PostgreSQL backend: the same store protocols (`storage.interfaces`) on a shared server.

`PgDatabase` owns the pool and the migrations; each `Pg*Store` mirrors its SQLite sibling.
`PORTED` names the stores that have a PostgreSQL implementation so far.
"""

from __future__ import annotations

PORTED = frozenset({"state", "digests", "subscriptions", "papers", "feeds"})
"""Stores with a PostgreSQL implementation; the others still need SQLite."""
