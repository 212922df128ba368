"""Papers turned into the rows a load writes, with no database at hand.

Everything here is pure computation (stored values, content hash, full-text index text), so a
load can do it in another process and hand the store only prepared rows: the bot's event loop
then never shares the interpreter with parsing or index-text building. Both backends read the
same `PreparedPaper` (PostgreSQL turns `index` into its `tsvector`).

This is the one storage module the bot's services may import (the catalog pipeline prepares
rows in a worker process; `bot.features.papers.store.PaperStore` takes them), besides the
factory (`storage.backend`) that wiring uses. It holds no SQL and opens no database.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, NamedTuple

from domain.paper import Links, Paper, paper_id
from domain.paper_merge import keeping_added_facts
from domain.text import title_key
from storage.papers.fts import index_row
from storage.papers.rows import link_values, links_from_values, paper_from_row

PREPARED_BATCH = 1000
"""Papers handed over at a time (a store regroups them into its own transactions)."""
STORED_COLUMNS = (
    "title_en, title_zh, authors, affiliations, summary_zh, comments, journal_ref, conference, "
    "year, track, workshop, honours, pages, figures, tables, summary_en, arxiv_id, "
    "arxiv_version, doi, url, pdf_url, categories, arxiv_published, arxiv_updated"
)
"""The `papers` columns `paper_values` fills, in order (both backends write them)."""
_STRING = json.encoder.encode_basestring
_ASCII_STRING = json.encoder.encode_basestring_ascii


def json_strings(items: Iterable[str], *, ascii_only: bool = False) -> str:
    """`json.dumps(list(items), ensure_ascii=ascii_only)`, byte for byte, at a fraction of its
    cost (a load writes three such lists a paper)."""
    return "[" + ", ".join(map(_ASCII_STRING if ascii_only else _STRING, items)) + "]"


def json_pairs(pairs: Iterable[tuple[str, str]]) -> str:
    """`json.dumps([[a, b], ...], ensure_ascii=False)`, byte for byte."""
    return "[" + ", ".join(f"[{_STRING(a)}, {_STRING(b)}]" for a, b in pairs) + "]"


class PreparedPaper(NamedTuple):
    """One record of a load, ready to write (a tuple: cheap to pickle between processes)."""

    line: int
    """The line the record starts on (what a report names)."""
    public_id: str
    key: str
    """The title key: the paper's identity across loads."""
    arxiv_id: str
    honours: tuple[str, ...]
    values: tuple[Any, ...]
    """The stored columns (`STORED_COLUMNS`), in order."""
    digest: str
    """`content_hash(values)`: tells an updated record from an unchanged one."""
    index_text: tuple[str, ...]
    """The full-text index text, one string per `storage.papers.fts.COLUMNS`."""

    def paper(self) -> Paper:
        """The paper again, from its stored values."""
        return paper_from_row(self.values)


def paper_values(paper: Paper) -> tuple[Any, ...]:
    """A paper's stored columns (`STORED_COLUMNS`), in order."""
    v = paper.venue
    return (
        paper.title_en,
        paper.title_zh,
        json_strings(paper.authors),
        json_pairs((a.en, a.zh) for a in paper.affiliations),
        paper.summary_zh,
        paper.comments,
        paper.journal_ref,
        v.conference,
        v.year,
        v.track.value,
        v.workshop,
        json_strings(v.honours, ascii_only=True),
        v.pages,
        v.figures,
        v.tables,
        *link_values(paper),
    )


def content_hash(values: tuple[Any, ...]) -> str:
    """A digest of every stored field, to tell an updated record from an unchanged one."""
    joined = "\x1f".join([v if type(v) is str else "" if v is None else str(v)
                          for v in values])
    return hashlib.sha1(joined.encode(), usedforsecurity=False).hexdigest()


def prepare(line: int, paper: Paper) -> PreparedPaper:
    """Everything a load writes for one paper."""
    values = paper_values(paper)
    key = title_key(paper.title_en)
    return PreparedPaper(line, paper_id(key), key, paper.links.arxiv_id, paper.venue.honours,
                         values, content_hash(values), index_row(paper))


def prepare_papers(batch: Sequence[tuple[int, Paper]]) -> list[PreparedPaper]:
    """`prepare` for each (line, paper)."""
    return [prepare(line, paper) for line, paper in batch]


def kept_links(item: PreparedPaper, stored_links: Sequence[Any]) -> PreparedPaper:
    """A reloaded record keeping the English abstract and links an add stored (the bundled
    listing has none: a reload must not erase them)."""
    summary_en, links = links_from_values(stored_links)
    if not summary_en and links == Links():
        return item
    paper = item.paper()
    stored = dataclasses.replace(paper, summary_en=summary_en, links=links)
    merged = keeping_added_facts(paper, stored)
    return item if merged == paper else prepare(item.line, merged)


def _next_prepared(papers: Iterator[tuple[int, Paper]], size: int) -> list[PreparedPaper]:
    return prepare_papers(list(islice(papers, size)))


async def prepared_batches(papers: Iterable[tuple[int, Paper]],
                           size: int = PREPARED_BATCH) -> AsyncIterator[list[PreparedPaper]]:
    """Papers prepared `size` at a time in a worker thread: how a store loads plain papers."""
    iterator = iter(papers)
    while batch := await asyncio.to_thread(_next_prepared, iterator, size):
        yield batch
