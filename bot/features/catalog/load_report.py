"""One load's report, and the parsed records with their errors counted and strict mode kept."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.features.catalog.files import CatalogFileError, CatalogFormat, LineReader
from bot.features.catalog.listing import ListingParser, ParsedPaper, RecordError, RecordWarning
from domain.catalog import LoadCounts, LoadSource
from domain.paper import Paper

MAX_REPORTED_ERRORS = 1000
"""At most this many rejected records, and as many warnings, are listed on a report."""
Progress = Callable[[int, int], None]
"""Called with (bytes read, total bytes) as the file is read."""
Parsed = Iterator[ParsedPaper | RecordError]


class StrictLoadError(Exception):
    """A bad record under `--strict`: nothing was loaded."""

    def __init__(self, path: Path, error: RecordError) -> None:
        super().__init__(f"{path}: line {error.line}: {error.reason} "
                         "(strict mode: nothing was loaded)")
        self.path = path
        self.error = error

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole (it crosses from the worker process that parses)."""
        return (StrictLoadError, (self.path, self.error))


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


class Records:
    """Iterates the parsed papers, collecting errors and enforcing strict mode."""

    def __init__(self, report: LoadReport, parsed: Iterator[ParsedPaper | RecordError],
                 strict: bool, reader: LineReader, listing: ListingParser) -> None:
        self._report = report
        self._listing = listing
        self.source = LoadSource(name=report.source)
        self._parsed = parsed
        self._strict = strict
        self._reader = reader
        self.papers = 0

    def __iter__(self) -> Iterator[tuple[int, Paper]]:
        for item in self._parsed:
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
