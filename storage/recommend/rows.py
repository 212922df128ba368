"""What the recommendation stores read: the one query over every signal table, and its rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.recommend import CatalogLoad, Signal, SignalKind, StoredFit, StoredVector
from storage.times import loaded

SIGNALS_SQL = """
SELECT user_id, paper_id, kind, at FROM (
    SELECT user_id, paper_id, 'bookmarked' AS kind, created_at AS at
    FROM bookmarks WHERE guild_id = {g}
    UNION ALL
    SELECT user_id, paper_id,
           CASE WHEN row_number() OVER (PARTITION BY paper_id ORDER BY created_at, id) = 1
                THEN 'suggested' ELSE 'supported' END,
           created_at
    FROM queue_support WHERE guild_id = {g}
    UNION ALL
    SELECT b.user_id, b.paper_id, 'voted', b.cast_at
    FROM vote_ballots b JOIN votes v ON v.id = b.vote_id WHERE v.guild_id = {g}
    UNION ALL
    SELECT NULL, paper_id, 'discussed', discussed_at FROM discussed WHERE guild_id = {g}
    UNION ALL
    SELECT presenter_id, paper_id, 'presented', discussed_at
    FROM discussed WHERE guild_id = {g} AND presenter_id IS NOT NULL
    UNION ALL
    SELECT user_id, paper_id, CASE verdict WHEN 'up' THEN 'liked' ELSE 'disliked' END, rated_at
    FROM paper_feedback WHERE guild_id = {g}
) AS s
WHERE paper_id IN (SELECT public_id FROM papers)
ORDER BY at {collate}, paper_id {collate}, kind {collate}, user_id
"""
"""Both backends' read of a server's signals; papers no longer in the catalog are left out,
so a removed paper leaves no dangling signal behind."""


def signal_from_row(row: Sequence[Any]) -> Signal:
    """A signal from `user_id, paper_id, kind, at`."""
    user = None if row[0] is None else int(row[0])
    return Signal(user, str(row[1]), SignalKind(row[2]), loaded(row[3]))


FIT_COLUMNS = "revision, catalog_version, papers, transformed, vocabulary"
CURRENT_FIT_SQL = (f"SELECT {FIT_COLUMNS} FROM recommend_vocabularies "
                   "WHERE vocabulary IS NOT NULL ORDER BY revision DESC LIMIT 1")
"""The newest finished fit (a fit being written has no vocabulary yet)."""
VECTORS_SQL = ("SELECT paper_id, content_hash, vector FROM paper_vectors "
               "WHERE revision = {0} AND paper_id {collate} > {1} "
               "ORDER BY paper_id {collate} LIMIT {2}")
"""A page of a fit's vectors in paper-id order (byte order on both backends)."""
CATALOG_HASHES_SQL = "SELECT public_id, content_hash FROM papers"
LOADS_SINCE_SQL = ("SELECT source, added + updated + removed FROM catalog_loads "
                   "WHERE id > {0} ORDER BY id")
UPSERT_VECTOR_SQL = ("INSERT INTO paper_vectors (revision, paper_id, content_hash, vector) "
                     "VALUES ({0}, {1}, {2}, {3}) ON CONFLICT (revision, paper_id) DO UPDATE "
                     "SET content_hash = excluded.content_hash, vector = excluded.vector")


def fit_from_row(row: Sequence[Any]) -> StoredFit:
    """A fit from `FIT_COLUMNS`."""
    return StoredFit(int(row[0]), int(row[1]), int(row[2]), int(row[3]), bytes(row[4]))


def vector_from_row(row: Sequence[Any]) -> StoredVector:
    """A vector from `paper_id, content_hash, vector`."""
    return StoredVector(str(row[0]), str(row[1]), bytes(row[2]))


def load_from_row(row: Sequence[Any]) -> CatalogLoad:
    """A load from `source, changed`."""
    return CatalogLoad(str(row[0]), int(row[1] or 0))
