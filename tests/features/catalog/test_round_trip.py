"""Whatever paperclub writes it reads back unchanged (issue 9, item 5): JSON Lines from
`paperclub export` and listings from the listing writer, titles beginning with field words
included."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.features.catalog.bibtex import parse_bibtex
from bot.features.catalog.files import LineReader
from bot.features.catalog.jsonl import dumps, parse_jsonl
from bot.features.catalog.listing import ListingParser, ParsedPaper
from bot.features.catalog.listing_writer import format_listing
from bot.features.catalog.venue import derive_venue
from bot.features.export.formats import ExportEntry, bibtex
from domain.paper import Affiliation, Links, Paper, Track, Venue
from domain.text import tidy
from tests.features.export.test_formats import assert_strict_parsers_agree
from tests.realworld import BIBTEX, bib_files

FIELD_WORDS = ["Comments", "Comments:", "Journal ref", "Journal ref:", "AI总结", "AI总结：",
               "机构", "机构 *"]
LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -:.'()&?"
HAN = "的论文模型学习深度注意力机构总结评论大语言推理"


def _text(alphabet: str, min_size: int = 1, max_size: int = 40) -> st.SearchStrategy[str]:
    return st.text(alphabet, min_size=min_size, max_size=max_size).map(tidy).filter(bool)


def _prefixed(words: list[str], rest: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    prefix = st.sampled_from(["", *(f"{w} " for w in words)])
    return st.builds(lambda p, r: tidy(p + r), prefix, rest)


latin = _text(LATIN)
han = _text(HAN + "，：")
names = _text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ .-'").filter(lambda n: " and " not in n)
title_en = _prefixed(FIELD_WORDS, latin.filter(lambda t: any(c.isalnum() for c in t)))
title_zh = _prefixed(["AI总结：", "机构", "AI总结"], _text(HAN))
affiliation = st.builds(Affiliation, _text(LATIN.replace("(", "").replace(")", "")),
                        st.sampled_from(["", "大学", "研究院"]))
summary = st.one_of(st.just(""), _text(HAN + LATIN).filter(lambda s: s[0] not in " :："))
note = st.one_of(st.just(""), _prefixed(FIELD_WORDS, _text(LATIN + HAN)),
                 st.sampled_from(["Accepted at ICML 2026", "ICML 2026 Workshop on Agents",
                                  "Proceedings of ICML 2026, PMLR 267", "12 pages, 3 figures"]))


@st.composite
def listing_papers(draw: st.DrawFn) -> Paper:
    """A paper as a listing can hold it: a Chinese title with Han characters, the venue derived."""
    comments, journal_ref = draw(note), draw(note)
    return Paper(
        title_en=draw(title_en), title_zh=draw(title_zh),
        authors=tuple(draw(st.lists(names, min_size=1, max_size=4))),
        affiliations=tuple(draw(st.lists(affiliation, max_size=3))),
        summary_zh=draw(summary), comments=comments, journal_ref=journal_ref,
        venue=derive_venue(comments, journal_ref),
    )


venues = st.builds(
    Venue, conference=st.one_of(st.none(), latin), year=st.one_of(st.none(), st.integers(0, 3000)),
    track=st.sampled_from(list(Track)), workshop=st.one_of(st.none(), latin),
    honours=st.lists(latin.map(str.lower), max_size=2).map(tuple),
    pages=st.one_of(st.none(), st.integers(0, 999)),
    figures=st.one_of(st.none(), st.integers(0, 99)), tables=st.none(),
)
any_text = st.text(max_size=60).map(tidy)
ZONES = [UTC, timezone(timedelta(hours=5, minutes=30)), timezone(-timedelta(hours=8))]
times = st.one_of(st.none(), st.datetimes(
    min_value=datetime(1991, 1, 1), max_value=datetime(2100, 1, 1),
    timezones=st.sampled_from(ZONES)))
links = st.builds(
    Links, arxiv_id=st.one_of(st.just(""), st.sampled_from(["2401.01234", "hep-th/9901001"])),
    arxiv_version=st.integers(0, 30), doi=any_text, url=any_text, pdf_url=any_text,
    categories=st.lists(_text("abcdefghijklmnopqrstuvwxyzAZ.-"), max_size=4).map(tuple),
    published=times, updated=times,
)
raw_abstract = st.one_of(st.just(""), st.text(max_size=200),
                         st.just("We prove $\\alpha \\to \\infty$.\n  Wrapped\tline. "))
exported_papers = st.builds(
    Paper, title_en=title_en, title_zh=any_text, authors=st.lists(names, max_size=4).map(tuple),
    affiliations=st.lists(st.builds(Affiliation, any_text.filter(bool), any_text),
                          max_size=3).map(tuple),
    summary_zh=any_text, comments=any_text, journal_ref=any_text, venue=venues,
    summary_en=raw_abstract, links=links,
)


def _papers(items: Sequence[object]) -> list[Paper]:
    assert all(isinstance(i, ParsedPaper) for i in items), items
    return [i.paper for i in items if isinstance(i, ParsedPaper)]


@settings(max_examples=300, deadline=None)
@given(st.lists(listing_papers(), min_size=1, max_size=6))
def test_written_listing_reads_back_the_same_papers(papers: list[Paper]) -> None:
    text = "".join(format_listing(papers, "ICML"))
    parser = ListingParser()
    items = list(parser.parse(enumerate(text.splitlines(), start=1)))
    assert _papers(items) == papers
    assert parser.query == "ICML"


@settings(max_examples=300, deadline=None)
@given(st.lists(exported_papers, min_size=1, max_size=6))
def test_exported_json_lines_read_back_the_same_papers(papers: list[Paper]) -> None:
    lines = [dumps(paper) for paper in papers]
    items = list(parse_jsonl(enumerate(lines, start=1)))
    assert _papers(items) == papers
    assert [dumps(paper) for paper in _papers(items)] == lines  # times in UTC, text unchanged
    assert all(isinstance(i, ParsedPaper) and i.warnings == () for i in items)


def _bib_papers(text: str) -> list[Paper]:
    items = list(parse_bibtex(enumerate(text.splitlines(), start=1)))
    assert all(isinstance(i, ParsedPaper) for i in items), items
    return [i.paper for i in items if isinstance(i, ParsedPaper)]


def _bib_export(papers: Sequence[Paper]) -> str:
    return bibtex([ExportEntry(paper.id, paper) for paper in papers])


def _distinct(papers: list[Paper]) -> list[Paper]:
    """One paper per title key and arXiv id, as a catalog holds them."""
    keys: set[str] = set()
    kept = []
    for paper in papers:
        if paper.key in keys or (paper.links.arxiv_id and paper.links.arxiv_id in keys):
            continue
        keys |= {paper.key, paper.links.arxiv_id} - {""}
        kept.append(paper)
    return kept


@settings(max_examples=150, deadline=None)
@given(st.lists(exported_papers, min_size=1, max_size=6).map(_distinct))
def test_a_bibtex_export_reimported_exports_the_same_bytes(papers: list[Paper]) -> None:
    first = _bib_export(papers)
    again = _bib_papers(first)
    assert [p.id for p in again] == [p.id for p in papers]
    assert _bib_export(again) == first


def _catalog_of(path: Path) -> list[Paper]:
    """The papers one import of a real file gives (one per title, as the catalog keeps)."""
    items = parse_bibtex(LineReader(path))
    return _distinct([i.paper for i in items if isinstance(i, ParsedPaper)])


@pytest.mark.parametrize("path", bib_files(), ids=lambda p: str(p.relative_to(BIBTEX)))
def test_every_real_file_exports_stably_and_strict_parsers_agree(path: Path) -> None:
    """Each real BibTeX file of the corpus, imported then exported: strict pybtex and
    bibtexparser read the export alike, and exporting its import gives the same bytes."""
    papers = _catalog_of(path)
    first = _bib_export(papers)
    assert_strict_parsers_agree(first)
    again = _bib_papers(first)
    def facts(paper: Paper) -> tuple[object, ...]:
        links = paper.links
        return paper.title_en, paper.authors, links.arxiv_id, links.arxiv_version, links.doi

    assert list(map(facts, again)) == list(map(facts, papers))  # `Ba{\~n}{\'o}n` stays Bañón
    assert _bib_export(again) == first


def test_the_bundled_catalog_exports_stably(bundled_papers: list[Paper]) -> None:
    first = _bib_export(bundled_papers)
    assert_strict_parsers_agree(first)
    assert _bib_export(_bib_papers(first)) == first


@settings(max_examples=100, deadline=None)
@given(st.lists(exported_papers, min_size=1, max_size=6).map(_distinct))
def test_strict_parsers_agree_on_any_catalog_export(papers: list[Paper]) -> None:
    assert_strict_parsers_agree(_bib_export(papers))
