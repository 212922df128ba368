"""The catalog bench's peer engine: tantivy (the Rust search engine's Python bindings).

Indexed from the same database file paperclub searches: each paper's text per full-text column
(`domain.index_text.index_columns`: the same fields, boilerplate left out, Traditional folded),
with CJK runs cut into overlapping bigrams, under tantivy's default tokenizer, and paperclub's
column weights as per-field boosts. A query's words are read by paperclub's own parser; every
word must match (in any field), a Latin word of 3+ letters is a prefix expanded to its
`PREFIX_CAP` most frequent completions from tantivy's term dictionary (each term scored with its
own idf), a CJK word is a phrase of its bigrams. When nothing matches, each Latin word of 4+
letters is retried as a fuzzy term (1 edit, 2 from 8 letters, a swap counting as one).

A bench-only dependency (the `bench` extra); nothing under `bot/` or `storage/` imports it.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import tantivy

from domain.index_text import index_columns
from domain.query import MIN_PREFIX_CHARS
from domain.text import cjk_bigrams, has_cjk
from storage.papers.fts import COLUMNS, WEIGHTS
from storage.papers.rows import PAPER_COLUMNS, paper_from_row

PREFIX_CAP = 32
"""Completions a prefix word expands to, most frequent first (as paperclub's cap)."""
WRITER_HEAP = 200_000_000
_FIELDS = tuple(zip(COLUMNS, WEIGHTS, strict=True))


def _read_batches(db_path: Path, size: int = 5000) -> Any:
    conn = sqlite3.connect(db_path)
    try:
        cursor = conn.execute(f"SELECT {PAPER_COLUMNS} FROM papers p ORDER BY p.id")
        while rows := cursor.fetchmany(size):
            yield [paper_from_row(row) for row in rows]
    finally:
        conn.close()


class Peer:
    """A tantivy index of one catalog, and its search."""

    def __init__(self, db_path: Path) -> None:
        self._dir = Path(tempfile.mkdtemp(prefix="paperclub-peer-"))
        builder = tantivy.SchemaBuilder()
        for name in COLUMNS:
            builder.add_text_field(name, stored=False)
        builder.add_text_field("title", stored=True, index_option="basic")
        self._schema = builder.build()
        self._index = tantivy.Index(self._schema, path=str(self._dir))
        writer = self._index.writer(WRITER_HEAP, 1)
        for papers in _read_batches(db_path):
            for paper in papers:
                doc = tantivy.Document()
                for name, text in zip(COLUMNS, index_columns(paper), strict=True):
                    doc.add_text(name, text)
                doc.add_text("title", paper.title_en)
                writer.add_document(doc)
        writer.commit()
        writer.wait_merging_threads()
        self._index.reload()
        self._searcher = self._index.searcher()

    def size_mb(self) -> float:
        """The index on disk."""
        return sum(p.stat().st_size for p in self._dir.rglob("*") if p.is_file()) / 1024 / 1024

    def close(self) -> None:
        """Remove the index directory."""
        shutil.rmtree(self._dir, ignore_errors=True)

    def _completions(self, prefix: str) -> list[str]:
        counts: dict[str, int] = {}
        for name in COLUMNS:
            for term, count in self._searcher.terms_with_prefix(name, prefix):
                counts[term] = counts.get(term, 0) + count
        ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        return [term for term, _ in ranked[:PREFIX_CAP]]

    def _fields(self, make: Any) -> tantivy.Query:
        """`make(field)` in every field, boosted by its weight, any of them."""
        return tantivy.Query.boolean_query([
            (tantivy.Occur.Should, tantivy.Query.boost_query(make(name), weight))
            for name, weight in _FIELDS])

    def _word(self, word: str, fuzzy: bool) -> tantivy.Query | None:
        schema, query = self._schema, tantivy.Query
        if has_cjk(word):
            grams: list[str | tuple[int, str]] = list(cjk_bigrams(word))
            if len(grams) == 1:
                return self._fields(lambda f: query.term_query(schema, f, word))
            return self._fields(lambda f: query.phrase_query(schema, f, grams))
        if fuzzy:
            if len(word) < 4:
                return None
            distance = 2 if len(word) >= 8 else 1
            return self._fields(lambda f: query.fuzzy_term_query(schema, f, word, distance, True))
        terms = self._completions(word) if len(word) >= MIN_PREFIX_CHARS else [word]
        if not terms:
            return None
        return self._fields(lambda f: query.boolean_query(
            [(tantivy.Occur.Should, query.term_query(schema, f, t)) for t in terms]))

    def _run(self, words: tuple[str, ...], limit: int, fuzzy: bool) -> list[str]:
        parts = [self._word(w, fuzzy) for w in words]
        if not parts or any(p is None for p in parts):
            return []
        query = tantivy.Query.boolean_query([(tantivy.Occur.Must, p) for p in parts if p])
        hits = self._searcher.search(query, limit).hits
        return [str(self._searcher.doc(address)["title"][0]) for _, address in hits]

    def search(self, words: tuple[str, ...], limit: int) -> list[str]:
        """The titles of the first `limit` papers for the query's words (lower-cased tokens)."""
        words = tuple(w.lower() for w in words)
        return self._run(words, limit, False) or self._run(words, limit, True)
