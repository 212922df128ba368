"""The contentless full-text index (SQLite migration 25): no stored copy of the index text, and
every write keeps FTS5's term counts exactly those of the stored papers (a row leaves the index
through FTS5's 'delete' command, given the text rebuilt from its stored row)."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

from bot.features.catalog.loader import load_catalog
from bot.features.papers.query import parse_query
from domain.index_text import index_tokens
from domain.paper import Links, Paper
from storage.papers.fts import index_row
from storage.papers.rows import PAPER_COLUMNS, paper_from_row
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database


def _term_counts(path: Path) -> tuple[Counter[str], Counter[str]]:
    """(papers per term as FTS5 counts them, papers per term of the stored papers' text)."""
    conn = sqlite3.connect(path)
    try:
        vocab = Counter(dict(conn.execute("SELECT term, doc FROM paper_vocab")))
        stored: Counter[str] = Counter()
        for row in conn.execute(f"SELECT {PAPER_COLUMNS} FROM papers p"):
            stored.update({t for text in index_row(paper_from_row(row))
                           for t in index_tokens(text)})
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()
    assert "paper_fts_content" not in tables
    return vocab, stored


async def test_loads_adds_and_rewrites_keep_the_index_equal_to_the_papers(
        tmp_path: Path, catalog_path: Path, bundled_papers: list[Paper]) -> None:
    path = tmp_path / "papers.db"
    db = await Database.open(path)
    try:
        store = SqlitePaperStore(db)
        await load_catalog(store, catalog_path)
        first = bundled_papers[0]
        filled = Paper(title_en=first.title_en, title_zh="", authors=first.authors,
                       summary_en="Zanzibarian abstracts replace nothing.",
                       links=Links(arxiv_id="2401.01234", arxiv_version=1))
        newer = Paper(title_en=first.title_en, title_zh="", authors=first.authors,
                      summary_en="Quokkalike wording instead.",
                      links=Links(arxiv_id="2401.01234", arxiv_version=2))
        await store.add_papers([filled, Paper(title_en="Brand new words", title_zh="",
                                              authors=("Ada Lovelace",))])
        await store.add_papers([newer])
        await load_catalog(store, catalog_path)  # a reload carries the added paper over
        vocab, stored = _term_counts(path)
        assert vocab == stored and stored["quokkalike"] == 1 and "zanzibarian" not in vocab
        hits = await store.search(parse_query("quokkalike"))
        assert [h.paper.title_en for h in hits] == [first.title_en]
        assert await store.search(parse_query("zanzibarian")) == []
    finally:
        await db.close()
