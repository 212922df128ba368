"""Loading a catalog file into the store: parse, report bad records, build the next catalog."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bot.features.catalog.arxiv_jsonl import holds_arxiv_metadata
from bot.features.catalog.bibtex import parse_bibtex
from bot.features.catalog.files import CatalogFormat, LineReader, inspect_file
from bot.features.catalog.jsonl import parse_jsonl
from bot.features.catalog.listing import ParsedPaper, RecordError, RecordWarning
from bot.features.catalog.load_report import (
    MAX_REPORTED_ERRORS,
    LoadReport,
    Parsed,
    Progress,
    StrictLoadError,
)
from bot.features.catalog.pipeline import PROCESS_FROM_BYTES, prepared_batches
from bot.features.papers.store import PaperStore
from domain.catalog import LoadSource
from domain.paper import Paper
from domain.paper_merge import adds_only, filled, newer_version

# bibtexparser logs each broken block; the load report lists them once, with their line.
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)
__all__ = ["MAX_REPORTED_ERRORS", "LoadReport", "StrictLoadError", "load_catalog"]


async def load_catalog(
    store: PaperStore,
    path: Path,
    *,
    strict: bool = False,
    prune: bool = False,
    source: str | None = None,
    progress: Progress | None = None,
    fmt: CatalogFormat | None = None,
    process_from: int = PROCESS_FROM_BYTES,
    announce: bool = False,
) -> LoadReport:
    """Load a listing, JSON Lines or BibTeX file (`fmt`, or told by `inspect_file`). Raises
    `CatalogFileError` or `StrictLoadError`.

    `source` names where the papers come from (what `prune` compares); by default it is the
    file's resolved path, so two files with the same name in different folders stay apart.
    A BibTeX entry for a paper already in the catalog only fills in what the paper lacks
    (`paper_merge.filled`): a reference manager's export never erases the catalog's Chinese
    title, summary or venue.

    A listing or JSON Lines file of `process_from` bytes or more is parsed in a worker process
    (`catalog_pipeline`): the event loop keeps answering while a big catalog loads.
    `announce` records the added papers as unannounced in the load's commit (subscribers are
    told of them by `bot.features.notifications.announcements`)."""
    fmt = inspect_file(path, fmt)
    report = LoadReport(source=source or str(path.resolve()), format=fmt)
    parsed: Callable[[LineReader], Parsed] | None = None
    reading: Reading | None = None
    if fmt is CatalogFormat.BIBTEX:
        reading = parse_bibtex
    elif fmt is CatalogFormat.JSONL and holds_arxiv_metadata(path) and await store.count():
        reading = parse_jsonl  # arXiv's metadata is merged like papers added from arXiv
    if reading is not None:
        plan = await _plan(store, path, reading)
        parsed = functools.partial(_filled_in, plan=plan, reading=reading)
    origin = LoadSource(name=report.source)
    with _PROMPT_SWITCHES.held():
        async with contextlib.aclosing(prepared_batches(
                report, origin, path, strict=strict, progress=progress, parsed=parsed,
                process_from=process_from)) as batches:
            counts = await store.load_prepared(batches, source=origin, prune=prune,
                                               announce=announce)
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


LOAD_SWITCH_SECONDS = 0.001
"""The interpreter's thread switch interval while a load runs (Python's default is 5 ms)."""
NO_FULL_COLLECTIONS = 2**31 - 1
"""The cyclic garbage collector's oldest-generation threshold while a load runs: never reached."""


class _SwitchInterval:
    """While any load runs: the interpreter's thread switch interval is short, and the cyclic
    garbage collector runs no full collection; both are put back when the last load ends."""

    def __init__(self, seconds: float) -> None:
        self._seconds = seconds
        self._loads = 0
        self._saved_interval = 0.0
        self._saved_thresholds = (0, 0, 0)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """While a load's threads receive and write rows, the event loop waits about a
        millisecond for the GIL, not five: measured at 100k papers on two busy cores, stalls
        over 50 ms fell from 22 to 3 and p99 from 30 to 20 ms, papers/s unchanged.

        A load allocates rows fast enough to set off a full collection every few seconds, and
        a full collection walks every object the process holds with the GIL taken: every
        event-loop stall over 50 ms during a 100k reload in `bench interactions` was one
        (96–308 ms, growing with the heap). The rows a load allocates die young and hold no
        cycles, so the young generations' collections (a few ms) find what there is to find;
        the next full collection after the load finds the rest."""
        if not self._loads:
            self._saved_interval = sys.getswitchinterval()
            sys.setswitchinterval(self._seconds)
            self._saved_thresholds = gc.get_threshold()
            young, middle, _ = self._saved_thresholds
            gc.set_threshold(young, middle, NO_FULL_COLLECTIONS)
        self._loads += 1
        try:
            yield
        finally:
            self._loads -= 1
            if not self._loads:
                gc.set_threshold(*self._saved_thresholds)
                sys.setswitchinterval(self._saved_interval)


_PROMPT_SWITCHES = _SwitchInterval(LOAD_SWITCH_SECONDS)


Reading = Callable[[Iterable[tuple[int, str]]], Parsed]
"""A parser of numbered lines (`parse_bibtex`, `parse_jsonl`)."""


@dataclass
class _Plan:
    """What a first, parse-only pass over a BibTeX or arXiv file found: the catalog's papers
    it describes, and entries that repeat an earlier one's title only to add to it."""

    known: dict[str, Paper] = field(default_factory=dict)
    merged: dict[int, ParsedPaper] = field(default_factory=dict)
    """The first entry of a repeated title (by line), with what later entries added."""
    absorbed: set[int] = field(default_factory=set)
    """Lines of the later entries merged into an earlier one."""


async def _plan(store: PaperStore, path: Path, reading: Reading) -> _Plan:
    """The first pass (a second one only when some title is repeated in the file)."""
    def lines_by_id() -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        for item in reading(LineReader(path)):
            if isinstance(item, ParsedPaper):
                found.setdefault(item.paper.id, []).append(item.line)
        return found

    lines = await asyncio.to_thread(lines_by_id)
    plan = _Plan()
    repeated = {paper_id for paper_id, at in lines.items() if len(at) > 1}
    if repeated:
        await asyncio.to_thread(_merge_repeats, plan, path, repeated, reading)
    for paper_id in lines:
        paper = await store.get(paper_id)
        if paper is not None:
            plan.known[paper_id] = paper
    return plan


def _merge_repeats(plan: _Plan, path: Path, repeated: set[str], reading: Reading) -> None:
    """Merge each later entry of a repeated title that only adds to the first, as a second
    import of the entry would (`paper_merge.filled`); true conflicts are left for the store
    to reject with both lines."""
    first: dict[str, ParsedPaper] = {}
    for item in reading(LineReader(path)):
        if not isinstance(item, ParsedPaper) or item.paper.id not in repeated:
            continue
        base = first.setdefault(item.paper.id, item)
        if base is item or not adds_only(base.paper, item.paper):
            continue
        note = RecordWarning(item.line, f"same title as the entry at line {base.line}: "
                                        "merged into it (it only adds what that one lacks)")
        first[item.paper.id] = ParsedPaper(base.line, filled(base.paper, item.paper),
                                           (*base.warnings, *item.warnings, note))
        plan.absorbed.add(item.line)
    plan.merged = {item.line: item for item in first.values()}


def _merged(stored: Paper, incoming: Paper) -> Paper:
    """A known paper met again: a newer version of its arXiv id updates its arXiv facts;
    anything else only fills what it lacks."""
    links, was = incoming.links, stored.links
    if links.arxiv_id and links.arxiv_id == was.arxiv_id \
            and links.arxiv_version > was.arxiv_version:
        return newer_version(stored, incoming)
    return filled(stored, incoming)


def _filled_in(reader: LineReader, plan: _Plan, reading: Reading) -> Parsed:
    for item in reading(reader):
        if not isinstance(item, ParsedPaper):
            yield item
        elif item.line not in plan.absorbed:
            parsed = plan.merged.get(item.line, item)
            known = plan.known.get(parsed.paper.id)
            yield parsed if known is None else ParsedPaper(
                parsed.line, _merged(known, parsed.paper), parsed.warnings)
