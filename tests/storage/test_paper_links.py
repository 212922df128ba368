"""English abstracts and arXiv links in the store: migration, identity rules, reloads."""

from __future__ import annotations

import dataclasses
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.features.catalog.jsonl import dumps
from bot.features.catalog.loader import load_catalog
from bot.features.papers.query import parse_query
from domain.catalog import AddStatus, LoadSource
from domain.paper import Links, Paper, paper_id
from domain.text import title_key
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from storage.sqlite.migrations import MIGRATIONS
from tests.backends import Backend

WHEN = datetime(2024, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)


def arxiv_paper(title: str = "Grokking Beyond Algorithmic Data", *, arxiv_id: str = "2401.01234",
                version: int = 1, abstract: str = "We study $\\alpha$-grokking.\n  Wrapped.",
                ) -> Paper:
    return Paper(
        title_en=title, title_zh="", authors=("Ada Lovelace", "Alan Turing"),
        summary_en=abstract,
        links=Links(arxiv_id=arxiv_id, arxiv_version=version, doi="10.1000/x.y",
                    url=f"https://arxiv.org/abs/{arxiv_id}v{version}",
                    pdf_url=f"https://arxiv.org/pdf/{arxiv_id}v{version}",
                    categories=("cs.LG", "stat.ML"), published=WHEN,
                    updated=WHEN + timedelta(days=version)),
    )


async def test_every_link_field_survives_the_database(backend: Backend) -> None:
    store = backend.papers()
    paper = dataclasses.replace(arxiv_paper(), links=dataclasses.replace(
        arxiv_paper().links, published=datetime(2024, 1, 2, 8, 0, tzinfo=timezone(
            timedelta(hours=5)))))
    [outcome] = await store.add_papers([paper])
    assert outcome.status is AddStatus.ADDED
    stored = await store.get(paper.id)
    assert stored == paper
    assert [p async for p in store.iter_papers()] == [paper]
    assert stored is not None and stored.links.published is not None
    assert stored.links.published.utcoffset() == timedelta(0)


async def test_an_arxiv_id_is_held_by_one_paper_only(db: Database) -> None:
    await SqlitePaperStore(db).add_papers([arxiv_paper()])
    with pytest.raises(sqlite3.IntegrityError, match="arxiv_id"):
        await db.execute(
            "INSERT INTO papers SELECT 2, 'p2', 'other', title_en, title_zh, authors, "
            "affiliations, summary_zh, comments, journal_ref, conference, year, track, "
            "workshop, honours, pages, figures, tables, source, source_line, content_hash, "
            "added_at, updated_at, summary_en, arxiv_id, arxiv_version, doi, url, pdf_url, "
            "categories, arxiv_published, arxiv_updated FROM papers WHERE id = 1")


async def test_versions_update_in_place_and_never_go_back(backend: Backend) -> None:
    store = backend.papers()
    first = await store.add_papers([arxiv_paper()])
    v2 = arxiv_paper(version=2, abstract="A better abstract.")
    again, newer, older, same = await store.add_papers(
        [arxiv_paper(), v2, arxiv_paper(version=1), v2])
    assert [o.status for o in (*first, again, newer, older, same)] == [
        AddStatus.ADDED, AddStatus.UNCHANGED, AddStatus.UPDATED, AddStatus.UNCHANGED,
        AddStatus.UNCHANGED]
    assert await store.count() == 1
    stored = await store.get(v2.id)
    assert stored == v2 == newer.paper == older.paper
    assert [h.paper.id for h in await store.search(parse_query("better abstract"))] == [v2.id]
    assert await store.search(parse_query("wrapped")) == []


async def test_a_retitled_version_keeps_the_title_and_the_public_id(backend: Backend) -> None:
    store = backend.papers()
    await store.add_papers([arxiv_paper()])
    cosmetic, renamed = arxiv_paper("GROKKING beyond algorithmic data!", version=2), \
        arxiv_paper("An Entirely New Name", version=3, abstract="v3")
    [first] = await store.add_papers([cosmetic])
    assert first.paper.title_en == cosmetic.title_en
    [second] = await store.add_papers([renamed])
    assert second.status is AddStatus.UPDATED
    assert second.paper.title_en == cosmetic.title_en
    assert second.paper.summary_en == "v3" and second.paper.links.arxiv_version == 3
    assert await store.get(arxiv_paper().id) == second.paper


async def test_a_listing_record_is_filled_never_duplicated(
        backend: Backend, bundled_papers: list[Paper], catalog_path: Path) -> None:
    store = backend.papers()
    await load_catalog(store, catalog_path)
    listed = bundled_papers[3]
    from_arxiv = arxiv_paper(listed.title_en.upper(), arxiv_id="2402.00001")
    version = await store.catalog_version()
    [outcome] = await store.add_papers([from_arxiv])
    assert outcome.status is AddStatus.FILLED
    assert await store.count() == len(bundled_papers)
    expected = dataclasses.replace(listed, summary_en=from_arxiv.summary_en,
                                   links=from_arxiv.links)
    assert outcome.paper == expected == await store.get(listed.id)
    assert await store.catalog_version() != version
    [again] = await store.add_papers([from_arxiv])
    assert again.status is AddStatus.UNCHANGED

    report = await load_catalog(store, catalog_path)  # the bundled file has no ids
    assert (report.counts.added, report.counts.updated) == (0, 0)
    assert await store.get(listed.id) == expected
    hits = await store.search(parse_query("alpha grokking wrapped"))
    assert [h.paper.id for h in hits] == [listed.id]


async def test_two_arxiv_papers_with_one_title_conflict(backend: Backend) -> None:
    store = backend.papers()
    await store.add_papers([arxiv_paper()])
    [outcome] = await store.add_papers([arxiv_paper(arxiv_id="2405.99999")])
    assert outcome.status is AddStatus.CONFLICT
    assert outcome.paper.links.arxiv_id == "2401.01234"
    assert await store.count() == 1


async def test_nothing_changed_leaves_the_catalog_version(backend: Backend) -> None:
    store = backend.papers()
    await store.add_papers([arxiv_paper()])
    version = await store.catalog_version()
    await store.add_papers([arxiv_paper()])
    assert await store.catalog_version() == version


async def test_a_load_rejects_an_arxiv_id_held_by_another_paper(backend: Backend) -> None:
    store = backend.papers()
    await store.add_papers([arxiv_paper()])
    other = arxiv_paper("Another Title")
    twins = [arxiv_paper("Third", arxiv_id="2403.00003"),
             arxiv_paper("Fourth", arxiv_id="2403.00003")]
    counts = await store.load(enumerate([other, *twins], start=1), source=LoadSource("f"))
    assert counts.arxiv_conflicts == [1, 3]
    assert counts.added == 1
    assert (await store.stats()).last_load_rejected == 2  # recorded alike on both backends
    assert sorted([p.title_en async for p in store.iter_papers()]) == [
        "Grokking Beyond Algorithmic Data", "Third"]


OLD_KEY = title_key("Old Paper")


async def test_an_old_database_gains_the_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    links = next(m for m in MIGRATIONS if "arXiv" in m.name)
    with sqlite3.connect(path) as conn:
        conn.create_function("paperclub_id", 1, paper_id)
        for migration in (m for m in MIGRATIONS if m.version < links.version):
            if "Traditional Chinese" in migration.name:
                continue  # rebuilds an index that is empty here
            for statement in migration.statements:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {links.version - 1}")
        conn.execute(
            "INSERT INTO papers (id, public_id, title_key, title_en, title_zh, authors, "
            "affiliations, summary_zh, comments, journal_ref, track, honours, source, "
            "content_hash, added_at, updated_at) VALUES (1, ?, ?, 'Old Paper', '', "
            "'[]', '[]', '旧的', '', '', 'unknown', '[]', 's', 'h', 'now', 'now')",
            (paper_id(OLD_KEY), OLD_KEY))
        conn.execute("INSERT INTO paper_fts (rowid, title_en, title_zh, authors, affiliations, "
                     "summary, venue) VALUES (1, 'Old Paper', '', '', '', '旧的', '')")
    db = await Database.open(path)
    try:
        store = SqlitePaperStore(db)
        old = await store.get(paper_id(OLD_KEY))
        assert old is not None and old.links == Links() and old.summary_en == ""
        assert [h.paper.title_en for h in await store.search(parse_query("old"))] == [
            "Old Paper"]
        [filled] = await store.add_papers([arxiv_paper("Old paper", abstract="English text")])
        assert filled.status is AddStatus.FILLED
        assert [h.paper.title_en for h in await store.search(parse_query("english"))] == [
            "Old Paper"]
    finally:
        await db.close()


async def test_json_lines_round_trip_through_the_database(db: Database, tmp_path: Path) -> None:
    papers = [arxiv_paper(), arxiv_paper("Second", arxiv_id="hep-th/9901001", version=0),
              Paper(title_en="No Links", title_zh="无", authors=("Q",))]
    lines = [dumps(p) + "\n" for p in papers]
    path = tmp_path / "in.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    store = SqlitePaperStore(db)
    report = await load_catalog(store, path)
    assert report.counts.added == 3 and report.errors == []
    assert [dumps(p) + "\n" async for p in store.iter_papers()] == lines
    assert [p async for p in store.iter_papers()] == papers


async def test_a_paper_is_found_by_its_arxiv_id_or_its_doi_in_any_case(backend: Backend) -> None:
    store = backend.papers()
    old_style = arxiv_paper("Knot Floer Homology and the Four-Ball Genus", arxiv_id="math/0309136")
    await store.add_papers([arxiv_paper(), dataclasses.replace(old_style, links=Links(
        arxiv_id="math/0309136", arxiv_version=2, doi="10.2140/GT.2003.7.615"))])
    found = await store.by_link(arxiv_id="math/0309136")
    assert found is not None and found.id == old_style.id
    by_doi = await store.by_link(doi="10.2140/gt.2003.7.615")
    assert by_doi is not None and by_doi.id == old_style.id
    assert await store.by_link(arxiv_id="math/0309137") is None
    assert await store.by_link(doi="10.2140/other") is None
    assert await store.by_link() is None
