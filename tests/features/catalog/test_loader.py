"""Loading files: formats, encodings, whole-file errors, strict mode, JSON Lines round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.features.catalog.files import CatalogFileError, CatalogFormat
from bot.features.catalog.jsonl import dumps, paper_from_dict, paper_to_dict
from bot.features.catalog.listing_writer import format_listing
from bot.features.catalog.loader import StrictLoadError, load_catalog
from domain.paper import Paper
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.realworld import BIBTEX, real


@pytest.fixture
def empty_store(db: Database) -> SqlitePaperStore:
    return SqlitePaperStore(db)


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


async def test_crlf_and_bom_load_like_the_original(empty_store: SqlitePaperStore,
                                                   catalog_path: Path, tmp_path: Path,
                                                   bundled_papers: list[Paper]) -> None:
    raw = catalog_path.read_bytes()
    path = _write(tmp_path, "windows.txt", b"\xef\xbb\xbf" + raw.replace(b"\n", b"\r\n"))
    report = await load_catalog(empty_store, path)
    assert report.listing_query == "ICML"
    assert report.rejected == 0
    assert {p.id: p async for p in empty_store.iter_papers()} == {p.id: p for p in bundled_papers}


@pytest.mark.parametrize(("name", "data", "message"), [
    ("empty.txt", b"", "empty"),
    ("blank.txt", b"\n\n  \r\n", "empty"),
    ("binary.bin", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
    ("utf16.txt", "ICML\n\nTitle".encode("utf-16"), "UTF-16"),
    ("data.csv", b"title,authors\nA,B\nC,D\n", "no paper records found"),
    ("data.json", b'{"papers": []}\n', "no paper records found"),
    ("query-only.txt", b"ICML\n", "no paper records found"),
])
async def test_whole_file_problems_have_clear_messages(
        empty_store: SqlitePaperStore, tmp_path: Path, name: str, data: bytes,
        message: str) -> None:
    path = _write(tmp_path, name, data)
    with pytest.raises(CatalogFileError, match=message):
        await load_catalog(empty_store, path)
    assert await empty_store.count() == 0
    assert await empty_store.catalog_version() == 0


async def test_missing_file_and_directory(empty_store: SqlitePaperStore, tmp_path: Path) -> None:
    with pytest.raises(CatalogFileError, match="no such file"):
        await load_catalog(empty_store, tmp_path / "nope.txt")
    with pytest.raises(CatalogFileError, match="directory"):
        await load_catalog(empty_store, tmp_path)


BAD_LISTING = """ICML

Good One

好一

Ann A

AI总结 好。

Broken Without Summary

坏

Bob B

Good Two

好二

Cat C

AI总结 也好。
"""


async def test_bad_records_are_reported_by_line_and_good_ones_load(
        empty_store: SqlitePaperStore, tmp_path: Path) -> None:
    path = _write(tmp_path, "mixed.txt", BAD_LISTING.encode())
    report = await load_catalog(empty_store, path)
    assert report.counts.added == 2
    assert report.rejected == 1
    assert [(e.line, "AI总结" in e.reason) for e in report.errors] == [(11, True)]


async def test_strict_mode_loads_nothing_on_a_bad_record(
        store: SqlitePaperStore, tmp_path: Path) -> None:
    path = _write(tmp_path, "mixed.txt", BAD_LISTING.encode())
    with pytest.raises(StrictLoadError, match=f"^{path}: line 11"):
        await load_catalog(store, path, strict=True)
    assert await store.count() == 30


async def test_ignored_fields_are_warnings_on_the_report(
        empty_store: SqlitePaperStore, tmp_path: Path) -> None:
    record = {"title_en": "A Paper", "title_zh": "论文", "authors": ["Ann"],
              "summary_zh": "摘要。"}
    lines = [json.dumps({**record, "colour": "red"}),
             json.dumps({**record, "title_en": "Another Paper"}),
             json.dumps({**record, "title_en": "Third", "venue": {"year": 2026, "x": 1}})]
    path = _write(tmp_path, "warned.jsonl", "\n".join(lines).encode())
    report = await load_catalog(empty_store, path, strict=True)
    assert (report.counts.added, report.rejected, report.warned) == (3, 0, 2)
    assert [(w.line, w.reason) for w in report.warnings] == [
        (1, "unknown field 'colour' ignored"), (3, "unknown field 'venue.x' ignored")]


async def test_jsonl_export_import_round_trips_exactly(
        store: SqlitePaperStore, db: Database, tmp_path: Path) -> None:
    exported = "".join([dumps(p) + "\n" async for p in store.iter_papers()])
    path = _write(tmp_path, "catalog.jsonl", exported.encode())
    other = await Database.open(tmp_path / "other.db")
    try:
        other_store = SqlitePaperStore(other)
        report = await load_catalog(other_store, path)
        assert report.format is CatalogFormat.JSONL
        assert report.counts.added == 30
        again = "".join([dumps(p) + "\n" async for p in other_store.iter_papers()])
        assert again == exported
    finally:
        await other.close()


async def test_jsonl_bad_lines_are_reported(empty_store: SqlitePaperStore, tmp_path: Path,
                                            bundled_papers: list[Paper]) -> None:
    good = dumps(bundled_papers[0])
    lines = [good, "{not json", '{"title_en": 5}', '["a list"]', '{"title_en": "X", "bogus": 1}',
             json.dumps({"title_en": "Minimal", "comments": "Accepted at ICML 2026"})]
    path = _write(tmp_path, "mixed.jsonl", ("\n".join(lines) + "\n").encode())
    report = await load_catalog(empty_store, path)
    assert report.counts.added == 3  # an unknown field is ignored with a warning (issue 9)
    assert [e.line for e in report.errors] == [2, 3, 4]
    papers = {p.title_en: p async for p in empty_store.iter_papers()}
    assert "X" in papers
    minimal = papers["Minimal"]
    assert (minimal.venue.conference, minimal.venue.year) == ("ICML", 2026)


def test_dict_round_trip_for_every_bundled_paper(bundled_papers: list[Paper]) -> None:
    for paper in bundled_papers:
        assert paper_from_dict(json.loads(json.dumps(paper_to_dict(paper)))) == paper


async def test_listing_export_reloads_unchanged(store: SqlitePaperStore, tmp_path: Path,
                                                bundled_papers: list[Paper]) -> None:
    path = _write(tmp_path, "icml2026.txt",
                  "".join(format_listing(bundled_papers, "ICML")).encode())
    report = await load_catalog(store, path)
    assert report.counts.unchanged == 30


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(junk=st.binary(max_size=400))
async def test_arbitrary_bytes_never_crash_the_loader(empty_store: SqlitePaperStore,
                                                      tmp_path: Path, junk: bytes) -> None:
    path = _write(tmp_path, "junk.txt", junk)
    try:
        report = await load_catalog(empty_store, path)
    except CatalogFileError as exc:
        assert str(exc)
    else:
        assert report.loaded >= 0


async def test_title_starting_with_comments_after_a_commented_record_loads_both(
        empty_store: SqlitePaperStore, tmp_path: Path) -> None:
    text = ("ICML\n\nPaper A\n\n论文A\n\nAnn A\n\nAI总结 摘要。\n\n"
            "Comments Accepted at ICML 2026\n\nComments on Paper A\n\n"
            "关于论文A的评论\n\nBob B\n\nAI总结 评论。\n")
    report = await load_catalog(empty_store, _write(tmp_path, "c.txt", text.encode()))
    assert (report.counts.added, report.rejected) == (2, 0)
    titles = {p.title_en: p.comments async for p in empty_store.iter_papers()}
    assert titles == {"Paper A": "Accepted at ICML 2026", "Comments on Paper A": ""}


async def test_prune_only_touches_papers_from_the_same_file(
        empty_store: SqlitePaperStore, bundled_papers: list[Paper], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p").mkdir()
    here, there = Path("rg.jsonl"), Path("p") / "rg.jsonl"
    here.write_text("".join(dumps(p) + "\n" for p in bundled_papers[:3]), encoding="utf-8")
    there.write_text("".join(dumps(p) + "\n" for p in bundled_papers[3:6]), encoding="utf-8")
    await load_catalog(empty_store, here)
    await load_catalog(empty_store, there)
    there.write_text(dumps(bundled_papers[3]) + "\n", encoding="utf-8")
    pruned = await load_catalog(empty_store, there, prune=True)
    assert pruned.counts.removed == 2
    assert await empty_store.count() == 4
    named = await load_catalog(empty_store, here, prune=True, source="group list")
    assert named.source == "group list" and named.counts.removed == 0
    here.write_text(dumps(bundled_papers[0]) + "\n", encoding="utf-8")
    again = await load_catalog(empty_store, tmp_path / "rg.jsonl", prune=True,
                               source="group list")
    assert again.counts.removed == 2 and await empty_store.count() == 2


async def test_a_gbk_file_is_told_to_be_saved_as_utf8(empty_store: SqlitePaperStore) -> None:
    """bibtexparser's own GBK-encoded Chinese test file."""
    path = real(BIBTEX / "bibtexparser" / "gbk_test.bib")
    with pytest.raises(CatalogFileError, match=r"GBK.*save the catalog as UTF-8"):
        await load_catalog(empty_store, path)
    assert await empty_store.count() == 0


async def test_latin1_accents_are_not_taken_for_gbk(empty_store: SqlitePaperStore,
                                                    tmp_path: Path) -> None:
    path = _write(tmp_path, "latin1.bib",
                  "@misc{a, title = {Fine}}\n@misc{b, title = {Müller}}\n".encode("latin-1"))
    report = await load_catalog(empty_store, path)
    assert report.counts.added == 1
    assert [(e.line, e.reason) for e in report.errors] == [(2, "line is not valid UTF-8")]


DUPLICATED = r"""@inproceedings{first, title = {Attention Is All You Need},
  author = {Vaswani, Ashish}, booktitle = {NeurIPS}, year = 2017}
@misc{again, title = {Attention is all you need}, eprint = {1706.03762},
  abstract = {The dominant sequence transduction models.}}
@misc{other, title = {Another Paper}, year = 2020}
@misc{clash, title = {ATTENTION IS ALL YOU NEED}, author = {Somebody, Else}}
"""


async def test_a_repeated_title_that_only_adds_is_merged_and_a_conflict_rejected(
        empty_store: SqlitePaperStore, tmp_path: Path) -> None:
    path = _write(tmp_path, "refs.bib", DUPLICATED.encode())
    report = await load_catalog(empty_store, path)
    assert report.counts.added == 2
    assert [(e.line, e.reason) for e in report.errors] == [
        (6, "same title as the record at line 1")]
    assert [w.line for w in report.warnings] == [3]
    papers = {p.title_en: p async for p in empty_store.iter_papers()}
    merged = papers["Attention Is All You Need"]
    assert merged.authors == ("Ashish Vaswani",) and merged.venue.year == 2017
    assert merged.links.arxiv_id == "1706.03762"
    assert merged.summary_en == "The dominant sequence transduction models."
