"""Persistence: the only package with SQL. Nothing here imports discord or `bot`: the store
protocols live beside their features (`bot/features/<feature>/store.py`), and each
`storage/<feature>/` implements one: once, in its `store.py`, over the one database API
(`storage.db`), or, for the stores not moved to it yet, once per backend, side by side."""

from storage.sqlite.database import Database
from storage.sqlite.errors import SchemaError, StorageError

__all__ = [
    "Database",
    "SchemaError",
    "StorageError",
]
