"""Parsing a catalog file and preparing its rows away from the bot's event loop.

A big file is parsed, and its index text built, in a worker process (`spawn`), which hands the
store prepared rows a thousand at a time through a pipe: the bot's interpreter only receives
and writes them, so parsing never holds its GIL. A small file (or a BibTeX one, which needs the
catalog to fill papers in) is read the same way in a worker thread: starting an interpreter
would cost more than it saves. Both produce the same messages, in file order.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import pickle
from collections.abc import AsyncGenerator, Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from multiprocessing.connection import Connection
from pathlib import Path

from bot.core.catalog_types import LoadSource
from bot.core.listing import ListingParser, RecordError, RecordWarning
from bot.core.records import parse_jsonl
from bot.services.catalog_files import CatalogFormat, LineReader
from bot.services.catalog_records import LoadReport, Parsed, Progress, Records
from storage.interfaces import PreparedPaper, prepare_papers

PROCESS_FROM_BYTES = 2 * 1024 * 1024
"""Files at least this big (about 4,000 papers) are parsed in a worker process."""
CHUNK = 1000
"""Papers a message: unpickling one holds the bot's GIL for a few milliseconds only."""


@dataclass(slots=True)
class Outcome:
    """What the parsing side found besides papers: the report's parts, sent at the end."""

    errors: list[RecordError] = field(default_factory=list)
    rejected: int = 0
    warnings: list[RecordWarning] = field(default_factory=list)
    warned: int = 0
    listing_query: str | None = None


@dataclass(frozen=True, slots=True)
class Chunk:
    """Prepared papers, and how far into the file they reach."""

    papers: list[PreparedPaper]
    bytes_read: int


Message = Chunk | Outcome | BaseException
"""Chunks in file order, then an `Outcome` (done) or the exception that ended the parse."""


def _messages(report: LoadReport, reader: LineReader, parsed: Parsed, listing: ListingParser,
              strict: bool) -> Iterator[Message]:
    records = iter(Records(report, parsed, strict, reader, listing))
    try:
        while batch := list(islice(records, CHUNK)):
            yield Chunk(prepare_papers(batch), reader.bytes_read)
    except Exception as exc:  # handed to the loading side, which raises it
        yield exc
        return
    yield Outcome(report.errors, report.rejected, report.warnings, report.warned,
                  report.listing_query)


def _file_messages(path: Path, fmt: CatalogFormat, strict: bool) -> Iterator[Message]:
    """The messages for a listing or JSON Lines file."""
    reader = LineReader(path)
    listing = ListingParser()
    parsed = listing.parse(reader) if fmt is CatalogFormat.LISTING else parse_jsonl(reader)
    yield from _messages(LoadReport(source="", format=fmt), reader, parsed, listing, strict)


def _worker(sender: Connection, path: Path, fmt: CatalogFormat, strict: bool) -> None:
    """The worker process: send every message, until the end or the loader hangs up."""
    with contextlib.suppress(BrokenPipeError, ConnectionResetError), sender:
        for message in _file_messages(path, fmt, strict):
            try:
                sender.send(message)
            except (pickle.PicklingError, TypeError, AttributeError) as exc:  # as it failed
                sender.send(RuntimeError(f"{message!r} (not sent: {exc})"))


class ParserStopped(RuntimeError):
    """The worker process ended without finishing (killed, or out of memory)."""


async def _from_process(path: Path, fmt: CatalogFormat,
                        strict: bool) -> AsyncGenerator[Message, None]:
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    worker = context.Process(target=_worker, args=(sender, path, fmt, strict),
                             name="paperclub-catalog-parser", daemon=True)
    try:
        await asyncio.to_thread(worker.start)
        sender.close()
        while True:
            try:
                message: Message = await asyncio.to_thread(receiver.recv)
            except EOFError:
                await asyncio.to_thread(worker.join)
                raise ParserStopped(f"the process parsing {path} stopped "
                                    f"(exit code {worker.exitcode})") from None
            yield message
    finally:  # the worker first: a receive still waiting then ends (EOF) before the close
        if worker.is_alive():
            worker.kill()
        if worker.pid is not None:
            await asyncio.to_thread(worker.join)
        receiver.close()


async def _from_thread(messages: Iterator[Message]) -> AsyncGenerator[Message, None]:
    while (message := await asyncio.to_thread(next, messages, None)) is not None:
        yield message


async def prepared_batches(
    report: LoadReport, source: LoadSource, path: Path, *, strict: bool,
    progress: Progress | None = None, parsed: Callable[[LineReader], Parsed] | None = None,
    process_from: int = PROCESS_FROM_BYTES,
) -> AsyncGenerator[list[PreparedPaper], None]:
    """The file's papers, prepared, for `PaperStore.load_prepared`. Once the file is read, the
    report gets its rejected records, warnings and listing query, and `source` the same counts.

    `parsed` reads the file in a thread with that parser (BibTeX); otherwise a listing or JSON
    Lines file (`report.format`) of `process_from` bytes or more is parsed in a worker process.
    Raises what ended the parse (`StrictLoadError`, `CatalogFileError`, ...)."""
    total = path.stat().st_size
    fmt = report.format
    messages: AsyncGenerator[Message, None]
    if parsed is not None:
        reader = LineReader(path)
        messages = _from_thread(_messages(LoadReport(report.source, fmt), reader,
                                          parsed(reader), ListingParser(), strict))
    elif total >= process_from:
        messages = _from_process(path, fmt, strict)
    else:
        messages = _from_thread(_file_messages(path, fmt, strict))
    async with contextlib.aclosing(messages):
        async for message in messages:
            if isinstance(message, BaseException):
                raise message
            if isinstance(message, Outcome):
                report.errors, report.rejected = list(message.errors), message.rejected
                report.warnings, report.warned = list(message.warnings), message.warned
                report.listing_query = source.listing_query = message.listing_query
                source.rejected = message.rejected
                return
            if progress:
                progress(message.bytes_read, total)
            yield message.papers
