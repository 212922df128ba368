"""Issue 26: a load sends each paper's `tsvector` in its binary form; PostgreSQL must store
exactly the value the literal gives, for real papers and for the ones the literal caps."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from bot.features.catalog.arxiv_jsonl import read_arxiv_record
from bot.features.catalog.loader import load_catalog
from domain.catalog import LoadSource
from domain.paper import Paper
from storage.papers.fts import index_row
from storage.papers.postgres import PgPaperStore
from storage.papers.postgres_vectors import (
    MAX_POSITIONS_PER_LEXEME,
    tsvector_for_copy,
    tsvector_literal,
)
from storage.postgres.database import PgDatabase
from tools.realworld import realworld

SAMPLE = realworld("arxiv-metadata", "arxiv-sample.jsonl")
_DIFFERING = ("SELECT count(*) FROM unnest($1::tsvector[], $2::text[]) u (sent, literal) "
              "WHERE sent IS DISTINCT FROM literal::tsvector")
_STORED_AS_LITERAL = (
    "SELECT count(*), count(*) FILTER (WHERE p.search IS DISTINCT FROM u.literal::tsvector) "
    "FROM unnest($1::text[], $2::text[]) u (public_id, literal) "
    "JOIN papers p ON p.public_id = u.public_id")


def _edge_cases(papers: list[Paper]) -> list[Paper]:
    """A word past PostgreSQL's 256 positions per lexeme, Traditional characters and mixed
    scripts, a lone CJK character, and a paper too long for positions (capped)."""
    base = papers[0]
    return [
        dataclasses.replace(base, title_en="Repeats " + "echo " * 300,
                            summary_zh="回声 " * 300),
        dataclasses.replace(base, title_en="Traditional 深度學習 and Grokking 模型",
                            title_zh="繁體中文：深度學習與語言模型", summary_zh="學"),
        dataclasses.replace(base, title_en="Capped paper", summary_zh="词语 " * 20_000),
    ]


def _arxiv_papers(count: int) -> list[Paper]:
    """The first `count` papers of the real arXiv sample."""
    with SAMPLE.open(encoding="utf-8") as handle:
        return [read_arxiv_record(json.loads(next(handle)))[0] for _ in range(count)]


async def test_the_binary_form_is_the_literals_value(
        postgres_url: str, bundled_papers: list[Paper]) -> None:
    """Sent in binary form, every uncapped paper's `tsvector` equals its literal's, with the
    same token counts; a capped paper has no binary form (its literal is sent)."""
    papers = bundled_papers + _edge_cases(bundled_papers)
    if SAMPLE.exists():
        papers += _arxiv_papers(2000)
    sent, literals = [], []
    for paper in papers:
        literal, total, head = tsvector_literal(index_row(paper))
        binary, capped, *counts = tsvector_for_copy(index_row(paper))
        if paper.title_en == "Capped paper":
            assert binary is None and capped == literal
            continue
        assert binary is not None and capped is None and counts == [total, head]
        sent.append(binary)
        literals.append(literal)
    db = await PgDatabase.open(postgres_url, pool_size=1)
    try:
        async with db.transaction(binary_tsvector=True) as tx:
            differing = await tx.fetch_value(_DIFFERING, sent, literals)
            repeats = await tx.fetch_value(
                "SELECT length(array_to_string(positions, ',')) - length(replace("
                "array_to_string(positions, ','), ',', '')) + 1 FROM unnest($1::tsvector) "
                "WHERE lexeme = 'echo'", sent[len(bundled_papers)])
        plain = await db.fetch_value("SELECT 'word:1'::tsvector")
    finally:
        await db.close()
    assert len(sent) >= len(bundled_papers) + 2
    assert differing == 0
    assert repeats == MAX_POSITIONS_PER_LEXEME
    assert plain == "'word':1"  # the binary form was this transaction's only


@pytest.mark.slow
async def test_a_load_and_a_reload_store_what_the_literals_give(
        postgres_url: str, bundled_papers: list[Paper], tmp_path: Path) -> None:
    """New papers are copied straight into `papers`, stored ones upserted through the staging
    table, a capped one as its literal: each stored vector is its literal's value."""
    papers = bundled_papers + _edge_cases(bundled_papers)
    db = await PgDatabase.open(postgres_url, pool_size=1)
    store = PgPaperStore(db)
    try:
        counts = await store.load(enumerate(papers, 1), source=LoadSource("listing"))
        changed = [dataclasses.replace(p, summary_zh=p.summary_zh + " 新增") for p in papers]
        again = await store.load(enumerate(changed, 1), source=LoadSource("listing"))
        ids = [p.id for p in changed]
        literals = [tsvector_literal(index_row(p))[0] for p in changed]
        stored, differing = (await db.fetch(_STORED_AS_LITERAL, ids, literals))[0]
        if SAMPLE.exists():
            path = tmp_path / "arxiv.jsonl"
            with SAMPLE.open(encoding="utf-8") as handle:
                path.write_text("".join(next(handle) for _ in range(1000)), encoding="utf-8")
            await load_catalog(store, path)
            real = _arxiv_papers(1000)
            rows = await db.fetch(_STORED_AS_LITERAL, [p.id for p in real],
                                        [tsvector_literal(index_row(p))[0] for p in real])
            assert tuple(rows[0]) == (len(real), 0)
    finally:
        await db.close()
    assert counts.added == len(papers) and again.updated == len(papers)
    assert (stored, differing) == (len(papers), 0)
