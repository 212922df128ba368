"""Loading a catalog file into the store: parse, report bad records, upsert in one transaction."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bot.core.bibtex_reader import parse_bibtex
from bot.core.catalog_types import LoadCounts, LoadSource
from bot.core.listing import ListingParser, ParsedPaper, RecordError, RecordWarning
from bot.core.models import Paper
from bot.core.paper_merge import filled
from bot.core.records import parse_jsonl
from bot.services.catalog_files import CatalogFileError, CatalogFormat, LineReader, inspect_file
from storage.interfaces import PaperStore

MAX_REPORTED_ERRORS = 1000
"""At most this many rejected records, and as many warnings, are listed on a report."""
Progress = Callable[[int, int], None]
"""Called with (bytes read, total bytes) as the file is read."""
Parsed = Iterator[ParsedPaper | RecordError]

# bibtexparser logs each broken block; the load report lists them once, with their line.
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)


class StrictLoadError(Exception):
    """A bad record under `--strict`: nothing was loaded."""

    def __init__(self, path: Path, error: RecordError) -> None:
        super().__init__(f"{path}: line {error.line}: {error.reason} "
                         "(strict mode: nothing was loaded)")
        self.path = path
        self.error = error


@dataclass(slots=True)
class LoadReport:
    """The outcome of one load, for the CLI and the bot."""

    source: str
    format: CatalogFormat
    listing_query: str | None = None
    counts: LoadCounts = field(default_factory=LoadCounts)
    errors: list[RecordError] = field(default_factory=list)
    rejected: int = 0
    warnings: list[RecordWarning] = field(default_factory=list)
    """Things ignored in records that loaded (unknown fields, ...), at most MAX_REPORTED_ERRORS."""
    warned: int = 0
    """How many warnings there were in all."""

    @property
    def loaded(self) -> int:
        """Records that are now in the catalog from this file."""
        return self.counts.added + self.counts.updated + self.counts.unchanged


class _Records:
    """Iterates the parsed papers, collecting errors and enforcing strict mode."""

    def __init__(self, report: LoadReport, parsed: Iterator[ParsedPaper | RecordError],
                 strict: bool, reader: LineReader, progress: Progress | None,
                 listing: ListingParser) -> None:
        self._report = report
        self._listing = listing
        self.source = LoadSource(name=report.source)
        self._parsed = parsed
        self._strict = strict
        self._reader = reader
        self._progress = progress
        self.papers = 0

    def __iter__(self) -> Iterator[tuple[int, Paper]]:
        for item in self._parsed:
            if self._progress:
                self._progress(self._reader.bytes_read, self._reader.total_bytes)
            if isinstance(item, RecordError):
                if self._strict:
                    raise StrictLoadError(self._reader.path, item)
                self._report.rejected += 1
                self.source.rejected += 1
                if len(self._report.errors) < MAX_REPORTED_ERRORS:
                    self._report.errors.append(item)
                continue
            self.papers += 1
            self._note(item.warnings)
            yield item.line, item.paper
        self.source.listing_query = self._report.listing_query = self._listing.query
        if self.papers == 0:
            first = self._report.errors[0] if self._report.errors else None
            why = f" (first problem: line {first.line}: {first.reason})" if first else ""
            raise CatalogFileError(
                f"{self._reader.path}: no paper records found; this does not look like a "
                f"{self._report.format.value} catalog{why}"
            )

    def _note(self, warnings: tuple[RecordWarning, ...]) -> None:
        report = self._report
        report.warned += len(warnings)
        room = MAX_REPORTED_ERRORS - len(report.warnings)
        if warnings and room > 0:
            report.warnings.extend(warnings[:room])


async def load_catalog(
    store: PaperStore,
    path: Path,
    *,
    strict: bool = False,
    prune: bool = False,
    source: str | None = None,
    progress: Progress | None = None,
    fmt: CatalogFormat | None = None,
) -> LoadReport:
    """Load a listing, JSON Lines or BibTeX file (`fmt`, or told by `inspect_file`). Raises
    `CatalogFileError` or `StrictLoadError`.

    `source` names where the papers come from (what `prune` compares); by default it is the
    file's resolved path, so two files with the same name in different folders stay apart.
    A BibTeX entry for a paper already in the catalog only fills in what the paper lacks
    (`paper_merge.filled`): a reference manager's export never erases the catalog's Chinese
    title, summary or venue."""
    fmt = inspect_file(path, fmt)
    report = LoadReport(source=source or str(path.resolve()), format=fmt)
    reader = LineReader(path)
    listing = ListingParser()
    parsed: Parsed
    if fmt is CatalogFormat.LISTING:
        parsed = listing.parse(reader)
    elif fmt is CatalogFormat.JSONL:
        parsed = parse_jsonl(reader)
    else:
        parsed = _filled_in(parse_bibtex(reader), await _known(store, path))
    records = _Records(report, parsed, strict, reader, progress, listing)
    counts = await store.load(records, source=records.source, prune=prune)
    problems = [(line, f"same title as the record at line {first}")
                for line, first in counts.duplicates]
    problems += [(line, "its paper id collides with another paper's; change the title slightly")
                 for line in counts.id_collisions]
    problems += [(line, "its arXiv id belongs to another paper in the catalog or the file")
                 for line in counts.arxiv_conflicts]
    for line, reason in problems:
        report.rejected += 1
        if len(report.errors) < MAX_REPORTED_ERRORS:
            report.errors.append(RecordError(line, reason))
    report.errors.sort(key=lambda e: e.line)
    report.counts = counts
    return report


async def _known(store: PaperStore, path: Path) -> dict[str, Paper]:
    """The catalog's papers that a BibTeX file describes (a first, parse-only pass)."""
    def ids() -> list[str]:
        return [item.paper.id for item in parse_bibtex(LineReader(path))
                if isinstance(item, ParsedPaper)]

    found = {}
    for paper_id in dict.fromkeys(await asyncio.to_thread(ids)):
        paper = await store.get(paper_id)
        if paper is not None:
            found[paper_id] = paper
    return found


def _filled_in(parsed: Parsed, known: dict[str, Paper]) -> Parsed:
    for item in parsed:
        if isinstance(item, ParsedPaper) and item.paper.id in known:
            yield ParsedPaper(item.line, filled(known[item.paper.id], item.paper),
                              item.warnings)
        else:
            yield item
