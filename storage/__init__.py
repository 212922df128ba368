"""Persistence: the only package with SQL. Nothing here imports discord."""

from storage.database import Database
from storage.errors import SchemaError, StorageError
from storage.interfaces import (
    DigestStore,
    OutboxStore,
    PaperStore,
    StateStore,
    SubscriptionStore,
)

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
