"""Catalog loads: identity, idempotency, updates, duplicates, pruning, crash safety."""

from __future__ import annotations

import dataclasses
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.features.catalog.listing_writer import format_listing
from bot.features.catalog.loader import load_catalog
from bot.features.papers.query import parse_query
from domain.catalog import LoadSource
from domain.paper import Paper
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tools.synthetic_catalog import write_listing


async def test_bundled_load_counts_and_stats(store: SqlitePaperStore) -> None:
    assert await store.count() == 30
    stats = await store.stats()
    assert stats.papers == 30
    by_venue = {(v.conference, v.year, v.track): v.papers for v in stats.venues}
    assert by_venue == {("ICML", 2026, "main"): 16, ("ICML", 2026, "workshop"): 12,
                        ("ICMLCN", 2025, "main"): 1, ("MLMI", 2026, "main"): 1}
    assert stats.last_load_source is not None
    assert Path(stats.last_load_source).parts[-3:] == ("bot", "data", "icml2026.txt")


async def test_reloading_the_same_file_changes_nothing(store: SqlitePaperStore,
                                                       catalog_path: Path) -> None:
    before = [p async for p in store.iter_papers()]
    report = await load_catalog(store, catalog_path)
    assert (report.counts.added, report.counts.updated, report.counts.unchanged) == (0, 0, 30)
    assert [p async for p in store.iter_papers()] == before


async def test_every_field_survives_the_database(store: SqlitePaperStore,
                                                 bundled_papers: list[Paper]) -> None:
    stored = {p.id: p async for p in store.iter_papers()}
    assert stored == {p.id: p for p in bundled_papers}


async def test_updated_file_updates_in_place(store: SqlitePaperStore, tmp_path: Path,
                                             bundled_papers: list[Paper]) -> None:
    changed = list(bundled_papers)
    first = changed[0]
    # Same identity (case, spacing, punctuation differ), new summary.
    changed[0] = dataclasses.replace(
        first, title_en=first.title_en.upper() + "!", summary_zh="新的摘要。")
    path = tmp_path / "updated.txt"
    path.write_text("".join(format_listing(changed, "ICML")), encoding="utf-8")
    report = await load_catalog(store, path)
    assert (report.counts.added, report.counts.updated, report.counts.unchanged) == (0, 1, 29)
    assert await store.count() == 30
    paper = await store.get(first.id)
    assert paper is not None and paper.summary_zh == "新的摘要。"
    hits = await store.search(parse_query("新的摘要"))
    assert [h.paper.id for h in hits] == [first.id]
    old = await store.search(parse_query("Spectron"))
    assert old == []


async def test_duplicate_titles_in_one_file_are_rejected_with_lines(
        db: Database, tmp_path: Path, bundled_papers: list[Paper]) -> None:
    path = tmp_path / "dups.txt"
    path.write_text("".join(format_listing([*bundled_papers[:3], bundled_papers[1]], "ICML")),
                    encoding="utf-8")
    report = await load_catalog(SqlitePaperStore(db), path)
    assert report.counts.added == 3
    assert report.rejected == 1
    assert "same title as the record at line" in report.errors[0].reason


async def test_prune_removes_only_papers_missing_from_the_same_source(
        store: SqlitePaperStore, tmp_path: Path, bundled_papers: list[Paper],
        catalog_path: Path) -> None:
    path = tmp_path / catalog_path.name  # a new version of the bundled file, named as such
    path.write_text("".join(format_listing(bundled_papers[:20], "ICML")), encoding="utf-8")
    kept = await load_catalog(store, path, source=str(catalog_path.resolve()))
    assert kept.counts.removed == 0 and await store.count() == 30
    assert (await load_catalog(store, path, prune=True)).counts.removed == 0  # another file
    await load_catalog(store, catalog_path)
    pruned = await load_catalog(store, path, prune=True, source=str(catalog_path.resolve()))
    assert pruned.counts.removed == 10
    assert await store.count() == 20
    assert await store.search(parse_query(bundled_papers[25].title_en)) == [] or all(
        h.paper.id != bundled_papers[25].id
        for h in await store.search(parse_query(bundled_papers[25].title_en), limit=50))


async def test_an_exception_mid_load_keeps_the_previous_catalog(
        store: SqlitePaperStore, bundled_papers: list[Paper]) -> None:
    def exploding() -> object:
        for number, paper in enumerate(bundled_papers * 40, start=1):
            if number == 1100:
                raise RuntimeError("disk on fire")
            yield number, dataclasses.replace(paper, title_en=f"{paper.title_en} {number}")

    with pytest.raises(RuntimeError):
        await store.load(exploding(), source=LoadSource("x"))  # type: ignore[arg-type]
    assert await store.count() == 30
    assert await store.catalog_version() == 1


@pytest.mark.slow
def test_a_killed_import_leaves_the_previous_catalog_intact(tmp_path: Path,
                                                            catalog_path: Path) -> None:
    """SIGKILL the CLI in the middle of a big import: the old 30 papers are all still there."""
    db_path = tmp_path / "kill.db"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cli = [sys.executable, "-m", "bot"]
    subprocess.run([*cli, "import", "--db", str(db_path), str(catalog_path)], check=True,
                   env=env, capture_output=True)
    big = write_listing(tmp_path / "big.txt", 60_000, seed=7)
    wal = Path(f"{db_path}-wal")
    wal_before = wal.stat().st_size if wal.exists() else 0
    proc = subprocess.Popen([*cli, "import", "--db", str(db_path), str(big)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if wal.exists() and wal.stat().st_size > wal_before + 2_000_000:
            break  # well into writing the new papers
        time.sleep(0.01)
    assert proc.poll() is None, "import finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT count(*) FROM papers").fetchone()[0] == 30
        assert conn.execute("SELECT count(*) FROM paper_fts").fetchone()[0] == 30
        assert conn.execute("SELECT count(*) FROM catalog_loads").fetchone()[0] == 1


async def test_readers_see_the_last_committed_catalog_during_a_load(
        store: SqlitePaperStore, bundled_papers: list[Paper], tmp_path: Path) -> None:
    """WAL: while a load has written (not committed) 500 new papers, other readers see 30."""
    seen_during_load: list[int] = []

    def papers() -> object:
        for number in range(1, 1101):
            paper = bundled_papers[number % 30]
            if number == 1050:  # the first batch of 500 is written by now, uncommitted
                with sqlite3.connect(tmp_path / "test.db") as conn:
                    seen_during_load.append(conn.execute("SELECT count(*) FROM papers")
                                            .fetchone()[0])
            yield number, dataclasses.replace(paper, title_en=f"{paper.title_en} {number}")

    counts = await store.load(papers(), source=LoadSource("big"))  # type: ignore[arg-type]
    assert counts.added == 1100
    assert seen_during_load == [30]
    assert await store.count() == 1130


async def test_a_paper_id_collision_rejects_that_record_not_the_load(
        db: Database, bundled_papers: list[Paper], monkeypatch: pytest.MonkeyPatch) -> None:
    """Two titles with one public id: the second is reported, the rest still load."""
    import domain.paper

    monkeypatch.setattr(domain.paper, "PAPER_ID_CHARS", 1)  # 16 possible ids: collisions
    store = SqlitePaperStore(db)
    counts = await store.load(((n, p) for n, p in enumerate(bundled_papers, start=1)),
                              source=LoadSource("tiny ids"))
    assert counts.id_collisions
    assert counts.added + len(counts.id_collisions) == 30
    assert await store.count() == counts.added


async def test_migration_5_moves_old_ids_everywhere(tmp_path: Path,
                                                    bundled_papers: list[Paper]) -> None:
    """A database from before 64-bit ids gets them, in papers and in every reference."""
    from domain.paper import paper_id

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:  # the schema as version 4 left it, 10-char ids
        from storage.sqlite.migrations import MIGRATIONS

        for migration in MIGRATIONS[:4]:
            for statement in migration.statements:
                conn.execute(statement)
        conn.execute("PRAGMA user_version = 4")
        paper = bundled_papers[1]
        old = paper_id(paper.key)[:10]
        conn.execute(
            "INSERT INTO papers (id, public_id, title_key, title_en, title_zh, authors, "
            "affiliations, summary_zh, comments, journal_ref, track, honours, source, "
            "content_hash, added_at, updated_at) VALUES (1, ?, ?, ?, '', '[]', '[]', '', '', "
            "'', 'main', '[]', 's', 'h', 'now', 'now')", (old, paper.key, paper.title_en))
        conn.execute("INSERT INTO notifications VALUES (1, 2, ?, 'dm', 'now')", (old,))
        conn.execute("INSERT INTO digest_ledger (guild_id, local_date, status, nonce, paper_id, "
                     "claimed_at) VALUES (1, '2026-11-30', 'posted', 'n', ?, 'now')", (old,))
    db = await Database.open(path)
    await db.close()
    with sqlite3.connect(path) as conn:
        new = paper_id(paper.key)
        assert conn.execute("SELECT public_id FROM papers").fetchone()[0] == new
        assert conn.execute("SELECT paper_id FROM notifications").fetchone()[0] == new
        assert conn.execute("SELECT paper_id FROM digest_ledger").fetchone()[0] == new


async def test_duplicates_and_collisions_are_found_across_load_transactions(
        tmp_path: Path, bundled_papers: list[Paper], monkeypatch: pytest.MonkeyPatch) -> None:
    """The store looks up what this load already wrote (it keeps no title in memory): the
    same duplicates and id collisions whether the load takes one transaction or many."""
    import domain.paper
    import storage.papers.sqlite_loading

    monkeypatch.setattr(domain.paper, "PAPER_ID_CHARS", 1)  # 16 possible ids: collisions
    papers = [*bundled_papers, *bundled_papers[::7], *bundled_papers[:2]]
    outcomes = []
    for batch in (1000, 3):
        monkeypatch.setattr(storage.papers.sqlite_loading, "LOAD_BATCH", batch)
        db = await Database.open(tmp_path / f"{batch}.db")
        try:
            counts = await SqlitePaperStore(db).load(enumerate(papers, start=1),
                                                     source=LoadSource("x"))
            outcomes.append((counts.added, counts.duplicates, counts.id_collisions))
        finally:
            await db.close()
    assert outcomes[0] == outcomes[1]
    added, duplicates, collisions = outcomes[0]
    assert duplicates and collisions
    assert added + len(duplicates) + len(collisions) == len(papers)


def _fts_segments(path: Path) -> tuple[int, dict[str, int]]:
    """The live index's segment count (FTS5 keys a segment's pages by `id >> 37`) and its
    configuration options."""
    conn = sqlite3.connect(path)
    try:
        segments = conn.execute("SELECT count(DISTINCT id >> 37) FROM paper_fts_data "
                                "WHERE id >= 1 << 37").fetchone()[0]
        options = dict(conn.execute("SELECT k, v FROM paper_fts_config WHERE k != 'version'"))
    finally:
        conn.close()
    return int(segments), options


async def test_a_load_ends_with_one_index_segment_and_the_default_merges(
        tmp_path: Path, bundled_papers: list[Paper], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each load transaction writes index segments, merged lazily while the load runs; the
    load merges them into one before the switch (searches read one b-tree a term), and leaves
    FTS5's own defaults for the adds that follow."""
    import storage.papers.sqlite_loading

    found = []
    for batch, pages in ((1000, 2000), (2, 1)):
        monkeypatch.setattr(storage.papers.sqlite_loading, "LOAD_BATCH", batch)
        monkeypatch.setattr(storage.papers.sqlite_loading, "MERGE_PAGES", pages)
        db = await Database.open(tmp_path / f"{batch}.db")
        try:
            store = SqlitePaperStore(db)
            await store.load(enumerate(bundled_papers, start=1), source=LoadSource("x"))
            assert _fts_segments(tmp_path / f"{batch}.db") == (
                1, storage.papers.sqlite_loading.FTS_OPTIONS)
            found.append([[hit.paper.title_en for hit in await store.search(parse_query(q))]
                          for q in ("learning", "model", "学习", "Zhang")])
        finally:
            await db.close()
    assert found[0] == found[1] and any(found[0])
