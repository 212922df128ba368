"""Persistence: the only package with SQL. Nothing here imports discord."""

from storage.database import Database, SchemaError
from storage.interfaces import (
    CatalogStats,
    LoadCounts,
    LoadSource,
    PaperStore,
    SearchHit,
)

__all__ = [
    "CatalogStats",
    "Database",
    "LoadCounts",
    "LoadSource",
    "PaperStore",
    "SchemaError",
    "SearchHit",
]
