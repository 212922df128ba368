"""The contentless full-text indexes (SQLite migrations 25 and 26, the headline index): no stored
copy of the index text, and every write keeps FTS5's term counts exactly those of the stored
papers (a row leaves an index through FTS5's 'delete' command, given the text rebuilt from its
stored row)."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

from bot.features.catalog.loader import load_catalog
from bot.features.papers.query import parse_query
from domain.index_text import index_tokens
from domain.paper import Links, Paper
from storage.papers.fts import HEAD_TABLE, HEADLINE_COLUMNS, index_row
from storage.papers.rows import PAPER_COLUMNS, paper_from_row
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database


def _term_counts(path: Path, head: bool = False) -> tuple[Counter[str], Counter[str]]:
    """(papers per term as FTS5 counts them, papers per term of the stored papers' text), of
    the whole-paper index or with `head` of the headline index (`HEAD_TABLE`)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute(f"CREATE VIRTUAL TABLE temp.head_vocab USING fts5vocab "
                     f"(main, {HEAD_TABLE}, 'row')")
        vocab = Counter(dict(conn.execute(
            f"SELECT term, doc FROM {'temp.head_vocab' if head else 'paper_vocab'}")))
        stored: Counter[str] = Counter()
        for row in conn.execute(f"SELECT {PAPER_COLUMNS} FROM papers p"):
            columns = index_row(paper_from_row(row))
            stored.update({t for text in columns[:len(HEADLINE_COLUMNS) if head else None]
                           for t in index_tokens(text)})
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()
    assert "paper_fts_content" not in tables and f"{HEAD_TABLE}_content" not in tables
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
        head, stored_head = _term_counts(path, head=True)
        assert head == stored_head and head["brand"] == 1 and "quokkalike" not in head
        hits = await store.search(parse_query("quokkalike"))
        assert [h.paper.title_en for h in hits] == [first.title_en]
        assert await store.search(parse_query("zanzibarian")) == []
    finally:
        await db.close()
