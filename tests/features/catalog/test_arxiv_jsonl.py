"""arXiv's own metadata in JSON Lines: the real sample, the snapshot's field names, identity."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.features.catalog.arxiv_jsonl import holds_arxiv_metadata
from bot.features.catalog.files import CatalogFormat, inspect_file
from bot.features.catalog.jsonl import read_record
from bot.features.catalog.loader import load_catalog
from bot.features.papers.query import parse_query
from domain.catalog import AddStatus
from domain.paper import Paper
from tests.backends import Backend
from tools.realworld import realworld

SAMPLE = realworld("arxiv-metadata", "arxiv-sample.jsonl")
needs_sample = pytest.mark.skipif(not SAMPLE.exists(),
                                  reason=f"the real arXiv sample is not at {SAMPLE}")

SNAPSHOT_RECORD = {  # arXiv's first paper as its public metadata snapshot writes it
    "id": "0704.0001", "submitter": "Pavel Nadolsky",
    "authors": "C. Bal\\'azs, E. L. Berger, P. M. Nadolsky, C.-P. Yuan",
    "title": "Calculation of prompt diphoton production cross sections at Tevatron and\n  LHC "
             "energies",
    "comments": "37 pages, 15 figures; published version", "journal-ref":
        "Phys.Rev.D76:013009,2007", "doi": "10.1103/PhysRevD.76.013009",
    "report-no": "ANL-HEP-PR-07-12", "categories": "hep-ph", "license": None,
    "abstract": "  A fully differential calculation in perturbative quantum chromodynamics is\n"
                "presented for the production of massive photon pairs.\n",
    "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"},
                 {"version": "v2", "created": "Tue, 24 Jul 2007 20:10:27 GMT"}],
    "update_date": "2008-11-13",
    "authors_parsed": [["Balázs", "C.", ""], ["Berger", "E. L.", ""],
                       ["Nadolsky", "P. M.", ""], ["Yuan", "C. -P.", ""]],
}


def _sample_lines(count: int) -> list[dict[str, object]]:
    with SAMPLE.open(encoding="utf-8") as handle:
        return [json.loads(next(handle)) for _ in range(count)]


def test_a_snapshot_record_reads_with_arxivs_field_names() -> None:
    paper, warnings = read_record(SNAPSHOT_RECORD)
    assert warnings == []
    assert paper.title_en == ("Calculation of prompt diphoton production cross sections at "
                              "Tevatron and LHC energies")
    assert paper.authors == ("C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C. -P. Yuan")
    assert paper.journal_ref == "Phys.Rev.D76:013009,2007"
    assert paper.venue.pages == 37 and paper.venue.figures == 15
    assert paper.summary_en.startswith("A fully differential calculation")
    links = paper.links
    assert (links.arxiv_id, links.arxiv_version, links.doi, links.categories) == (
        "0704.0001", 2, "10.1103/PhysRevD.76.013009", ("hep-ph",))
    assert links.published == datetime(2007, 4, 2, 19, 18, 42, tzinfo=UTC)
    assert links.updated == datetime(2008, 11, 13, tzinfo=UTC)


def test_authors_as_one_string_and_categories_as_a_list() -> None:
    record = {key: value for key, value in SNAPSHOT_RECORD.items() if key != "authors_parsed"}
    paper, _ = read_record({**record, "authors": "A. One, B. Tw\\\"o and C. Three",
                            "categories": ["cs.LG", "stat.ML"], "id": "2401.01234v3",
                            "versions": None, "colour": "red"})
    assert paper.authors == ("A. One", "B. Twö", "C. Three")
    assert paper.links.categories == ("cs.LG", "stat.ML")
    assert (paper.links.arxiv_id, paper.links.arxiv_version) == ("2401.01234", 3)
    assert read_record({**record, "colour": "red"})[1] == ["unknown field 'colour' ignored"]


@pytest.mark.parametrize("bad, reason", [
    ({"id": "not-an-id"}, "'id' is not an arXiv id"),
    ({"title": "  "}, "'title' is missing or empty"),
    ({"authors": 5}, "'authors' must be a string or a list of strings"),
    ({"update_date": "yesterday"}, "'update_date' must be a date"),
])
def test_bad_arxiv_fields_are_named(bad: dict[str, object], reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        read_record({**SNAPSHOT_RECORD, **bad})


@needs_sample
async def test_the_real_arxiv_sample_loads_every_paper(backend: Backend) -> None:
    store = backend.papers()
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    report = await load_catalog(store, SAMPLE)
    assert report.format is CatalogFormat.JSONL
    assert (report.counts.added, report.rejected, report.errors, report.warned) == (
        len(lines), 0, [], 0)
    first = json.loads(lines[0])
    [hit] = await store.search(parse_query(first["title"]), limit=1)
    paper = hit.paper
    assert paper.links.arxiv_id == first["arxiv_id"]
    assert paper.authors == tuple(first["authors"])
    assert paper.links.categories == tuple(first["categories"])
    assert paper.summary_en == first["abstract"]
    again = await load_catalog(store, SAMPLE)  # the same file again changes nothing
    assert (again.counts.added, again.counts.updated) == (0, 0)


@needs_sample
async def test_arxiv_records_follow_the_identity_rules(
        backend: Backend, tmp_path: Path, catalog_path: Path,
        bundled_papers: list[Paper]) -> None:
    """A listing paper met again as arXiv metadata is filled, never duplicated; a newer version
    of a real arXiv record updates it in place; an older one changes nothing."""
    store = backend.papers()
    await load_catalog(store, catalog_path)
    listed = bundled_papers[5]
    real = _sample_lines(2)
    as_arxiv = {**real[0], "arxiv_id": "2402.00001", "title": listed.title_en.upper()}
    path = tmp_path / "arxiv.jsonl"
    path.write_text(json.dumps(as_arxiv) + "\n" + json.dumps(real[1]) + "\n", encoding="utf-8")
    report = await load_catalog(store, path)
    assert (report.counts.added, report.counts.updated) == (1, 1)
    stored = await store.get(listed.id)
    assert stored is not None
    assert (stored.title_zh, stored.summary_zh) == (listed.title_zh, listed.summary_zh)
    assert (stored.links.arxiv_id, stored.summary_en) == ("2402.00001", real[0]["abstract"])
    assert await store.count() == len(bundled_papers) + 1

    newer = {**real[1], "id": f"{real[1]['arxiv_id']}v2", "abstract": "Revised."}
    del newer["arxiv_id"]
    [outcome] = await store.add_papers([read_record(newer)[0]])
    assert outcome.status is AddStatus.UPDATED and outcome.paper.summary_en == "Revised."
    [older] = await store.add_papers([read_record(real[1])[0]])
    assert older.status is AddStatus.UNCHANGED


def test_the_snapshots_file_name_is_read_as_json_lines(tmp_path: Path) -> None:
    """Kaggle names arXiv's snapshot `arxiv-metadata-oai-snapshot.json`: JSON Lines inside."""
    path = tmp_path / "arxiv-metadata-oai-snapshot.json"
    path.write_text(json.dumps(SNAPSHOT_RECORD) + "\n", encoding="utf-8")
    assert inspect_file(path) is CatalogFormat.JSONL
    assert holds_arxiv_metadata(path)
