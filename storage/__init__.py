"""Persistence: the only package with SQL. Nothing here imports discord."""

from storage.database import Database, SchemaError
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
    "SubscriptionStore",
]
