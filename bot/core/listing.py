"""Parser for the bilingual paper listing format of the bundled catalog.

The first line is the listing's search query. Each record is, on lines of their own (blank lines
between them are ignored)::

    English title
    Chinese title
    Author One, Author Two
    机构 * English name（中文名） ； Other（其他） 纠错          (optional)
    AI总结 Chinese summary
    Comments free text                                        (optional)
    Journal ref free text                                     (optional)

The parser streams: it yields each record or error as soon as the record ends, so a file of a
million papers never sits in memory.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from bot.core.models import Affiliation, Paper
from bot.core.text import tidy
from bot.core.venue import derive_venue

AFFILIATIONS = "机构"
SUMMARY = "AI总结"
COMMENTS = "Comments"
JOURNAL_REF = "Journal ref"

MAX_TITLE_CHARS = 1000
MAX_FIELD_CHARS = 20_000

_LEADING_LABELS = (
    (AFFILIATIONS, re.compile(r"^机构\s*\*?\s*")),
    (SUMMARY, re.compile(r"^AI总结[\s:：]*")),
)
# Comments and Journal ref only count as labels after a record's summary, so that an English
# title such as "Comments on Attention" is still read as a title.
_TRAILING_LABELS = (
    (COMMENTS, re.compile(r"^Comments(?:\s+|\s*:\s*)")),
    (JOURNAL_REF, re.compile(r"^Journal ref(?:\s+|\s*:\s*)")),
)
_CORRECTION_LINK = re.compile(r"\s*纠错\s*$")
_AFFILIATION = re.compile(r"^(.*?)\s*[（(]([^（()）]*)[)）]\s*$")
_AUTHOR_SPLIT = re.compile(r"\s*[,，、;；]\s*|\s+and\s+")
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class ParsedPaper:
    """A record that parsed, with the line its English title is on."""

    line: int
    paper: Paper


@dataclass(frozen=True, slots=True)
class RecordError:
    """A record that did not parse: where it starts and why it was rejected."""

    line: int
    reason: str


@dataclass(slots=True)
class _Record:
    header: list[tuple[int, str]] = field(default_factory=list)
    labels: dict[str, tuple[int, str]] = field(default_factory=dict)
    problem: RecordError | None = None


def split_affiliations(text: str) -> tuple[Affiliation, ...]:
    """Split `A（甲） ； B（乙） 纠错` into affiliations with English and Chinese names."""
    text = _CORRECTION_LINK.sub("", text)
    result = []
    for raw in re.split(r"\s*[；;]\s*", text):
        part = tidy(raw)
        if not part:
            continue
        match = _AFFILIATION.match(part)
        if match and match.group(2).strip():
            result.append(Affiliation(en=tidy(match.group(1)), zh=tidy(match.group(2))))
        else:
            result.append(Affiliation(en=part))
    return tuple(result)


def split_authors(text: str) -> tuple[str, ...]:
    """Split an authors line on commas (ASCII or full-width) and a final `and`."""
    return tuple(name for name in (tidy(n) for n in _AUTHOR_SPLIT.split(text)) if name)


def _label_of(text: str, after_summary: bool) -> tuple[str, str] | None:
    labels = _LEADING_LABELS + _TRAILING_LABELS if after_summary else _LEADING_LABELS
    for name, pattern in labels:
        match = pattern.match(text)
        if match:
            return name, text[match.end() :]
    return None


class ListingParser:
    """Streaming parser; `query` holds the listing's first line once it has been read."""

    def __init__(self) -> None:
        self.query: str | None = None
        self._started = False

    def parse(self, lines: Iterable[tuple[int, str]]) -> Iterator[ParsedPaper | RecordError]:
        """Parse numbered lines (1-based) into papers and errors, in file order."""
        record = _Record()
        for number, raw in lines:
            text = raw.strip()
            if not text:
                continue
            label = _label_of(text, SUMMARY in record.labels)
            if label is None:
                if record.labels or record.problem:
                    yield from self._finish(record)
                    record = _Record()
                record.header.append((number, text))
                continue
            if not record.labels and not record.problem:
                yield from self._settle_header(record, number, label[0])
            if record.problem:
                continue
            name, value = label
            if name in record.labels:
                record.problem = RecordError(number, f"duplicate '{name}' line")
            else:
                record.labels[name] = (number, value)
        yield from self._finish(record, at_end=True)

    def _settle_header(self, record: _Record, number: int, label: str) -> Iterator[RecordError]:
        """At a record's first label, split off a listing query or an unfinished record."""
        header = record.header
        if not self._started and len(header) >= 4:
            self.query = header[0][1]
            del header[0]
        self._started = True
        if len(header) > 3:
            yield RecordError(header[0][0], f"record has no '{SUMMARY}' summary line")
            del header[:-3]
        if len(header) < 3:
            where = header[0][0] if header else number
            found = f"found {len(header)} line(s)" if header else "found none"
            record.problem = RecordError(
                where,
                f"expected English title, Chinese title and authors before '{label}'; {found}",
            )

    def _finish(self, record: _Record, at_end: bool = False) -> Iterator[ParsedPaper | RecordError]:
        if record.problem:
            yield record.problem
            return
        if not record.labels:
            if not record.header:
                return
            if at_end and not self._started and len(record.header) == 1:
                self.query = record.header[0][1]
                return
            yield RecordError(record.header[0][0], f"record has no '{SUMMARY}' summary line")
            return
        if SUMMARY not in record.labels:
            yield RecordError(record.header[0][0], f"record has no '{SUMMARY}' summary line")
            return
        yield _build(record)


def _build(record: _Record) -> ParsedPaper | RecordError:
    (line, title_en), (_, title_zh), (authors_line, authors_text) = record.header
    every = [*record.header, *record.labels.values()]
    for number, text in every:
        if not text.isprintable() and _SURROGATE.search(text):
            return RecordError(number, "line is not valid UTF-8")
        if len(text) > MAX_FIELD_CHARS:
            return RecordError(number, f"line is {len(text):,} characters long")
    if len(title_en) > MAX_TITLE_CHARS:
        return RecordError(line, f"English title is {len(title_en):,} characters long")
    authors = split_authors(authors_text)
    if not authors:
        return RecordError(authors_line, "authors line names no author")
    labels = {name: value for name, (_, value) in record.labels.items()}
    comments = tidy(labels.get(COMMENTS, ""))
    journal_ref = tidy(labels.get(JOURNAL_REF, ""))
    paper = Paper(
        title_en=tidy(title_en),
        title_zh=tidy(title_zh),
        authors=authors,
        affiliations=split_affiliations(labels.get(AFFILIATIONS, "")),
        summary_zh=tidy(labels[SUMMARY]),
        comments=comments,
        journal_ref=journal_ref,
        venue=derive_venue(comments, journal_ref),
    )
    if not paper.key:
        return RecordError(line, "English title has no letters or digits")
    return ParsedPaper(line, paper)
