"""Parsing a catalog file and preparing its rows away from the bot's event loop.

A big file is parsed, and its index text built, in a worker process (a fresh interpreter
running `main`), which hands the store prepared rows a thousand at a time through a pipe: the
bot's interpreter only receives and writes them, so parsing never holds its GIL. A small file
(or a BibTeX one, which needs the catalog to fill papers in) is read the same way in a worker
thread: starting an interpreter would cost more than it saves. Both produce the same messages,
in file order.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import subprocess
import sys
from collections.abc import AsyncGenerator, Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import IO, Any

from bot.features.catalog.files import CatalogFormat, LineReader
from bot.features.catalog.jsonl import parse_jsonl
from bot.features.catalog.listing import ListingParser, RecordError, RecordWarning
from bot.features.catalog.load_report import LoadReport, Parsed, Progress, Records
from domain.catalog import LoadSource
from storage.papers.prepared import PreparedPaper, prepare_papers

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

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as plain tuples: a third of the named tuples' cost to send, a fifth to
        receive."""
        return (_chunk, ([tuple(paper) for paper in self.papers], self.bytes_read))


def _chunk(rows: list[tuple[Any, ...]], bytes_read: int) -> Chunk:
    return Chunk(list(map(PreparedPaper._make, rows)), bytes_read)


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


_HEADER = 8
"""Bytes of the length before each pickled message on the worker's output."""
_PACKAGE_ROOT = Path(__file__).resolve().parents[3]
_WORKER = f"from {__name__} import main; main()"
"""Imported, not run as `__main__`: the messages' classes then unpickle in the bot."""


def main(argv: list[str] | None = None) -> None:
    """The worker process: `main()` with arguments PATH FORMAT strict|lenient writes
    every message, length-prefixed, to its standard output until the end or the loader hangs
    up. Anything else printed goes to standard error, so it cannot corrupt the stream."""
    path, fmt, strict = (argv or sys.argv[1:])[:3]
    output = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    with contextlib.suppress(BrokenPipeError), output:
        for message in _file_messages(Path(path), CatalogFormat(fmt), strict == "strict"):
            try:
                payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
            except (pickle.PicklingError, TypeError, AttributeError) as exc:
                payload = pickle.dumps(RuntimeError(f"{message!r} (not sent: {exc})"))
            output.write(len(payload).to_bytes(_HEADER, "little"))
            output.write(payload)


class ParserStopped(RuntimeError):
    """The worker process ended without finishing (killed, or out of memory)."""


def _read(stream: IO[bytes]) -> Message | None:
    """The next message, or None at the end of the stream."""
    header = stream.read(_HEADER)
    if len(header) < _HEADER:
        return None
    size = int.from_bytes(header, "little")
    payload = stream.read(size)
    if len(payload) < size:
        return None
    message: Message = pickle.loads(payload)  # noqa: S301 - written by our own worker
    return message


async def _from_process(path: Path, fmt: CatalogFormat,
                        strict: bool) -> AsyncGenerator[Message, None]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(_PACKAGE_ROOT),
                                                      env.get("PYTHONPATH")]))
    command = [sys.executable, "-c", _WORKER, str(path), fmt.value,
               "strict" if strict else "lenient"]
    worker = await asyncio.to_thread(
        subprocess.Popen, command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, env=env)
    stream = worker.stdout
    assert stream is not None
    try:
        while (message := await asyncio.to_thread(_read, stream)) is not None:
            yield message
        code = await asyncio.to_thread(worker.wait)
        raise ParserStopped(f"the process parsing {path} stopped (exit code {code})")
    finally:  # the worker first: a read still waiting then ends before the close
        if worker.poll() is None:
            worker.kill()
        await asyncio.to_thread(worker.wait)
        stream.close()


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
