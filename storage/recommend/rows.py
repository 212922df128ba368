"""What both recommendation stores share: the one query over every signal table, and its rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.recommend import Signal, SignalKind
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
