"""A load writes its shadow index without FTS5 automerge, then merges it once before the switch."""

from __future__ import annotations

from bot.core.query import parse_query
from storage.database import Database
from storage.papers import SqlitePaperStore


async def test_a_loaded_index_goes_live_with_fts5s_usual_merge_settings(
        store: SqlitePaperStore, db: Database) -> None:
    settings = dict(await db.fetchall("SELECT k, v FROM paper_fts_config "
                                      "WHERE k IN ('automerge', 'crisismerge')"))
    assert settings == {"automerge": 4, "crisismerge": 16}
    assert await store.search(parse_query("grokking"))
