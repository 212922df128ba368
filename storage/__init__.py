"""Persistence: the only package with SQL. Nothing here imports discord."""

from storage.interfaces import (
    DigestStore,
    OutboxStore,
    PaperStore,
    StateStore,
    SubscriptionStore,
)
from storage.sqlite.database import Database
from storage.sqlite.errors import SchemaError, StorageError

__all__ = [
    "Database",
    "DigestStore",
    "OutboxStore",
    "PaperStore",
    "SchemaError",
    "StateStore",
    "StorageError",
    "SubscriptionStore",
]
