"""Search by meaning's table, added after the shared schema (`storage.schema`), stated once
for both backends under the same forward-only rule (SQLite 29 / PostgreSQL 22)."""

from __future__ import annotations

from storage.dialect import Table

PAPER_EMBEDDINGS = Table("paper_embeddings", (
    "paper_id TEXT PRIMARY KEY",
    "model TEXT NOT NULL",
    "text_hash TEXT NOT NULL",
    "scale {real} NOT NULL",
    "vector {blob} NOT NULL",
), without_rowid=True)
"""Each catalog paper's sentence-encoder vector (int8 codes and their scale), with the model
that embedded it and the hash of the text embedded (a model change or a moved text is embedded
again)."""
