"""Reading BibTeX into papers (bibtexparser 2): title, authors, year, venue, arXiv id, DOI, URL
and abstract; each entry that cannot be a paper becomes an error with its line, the rest load.

The file is parsed in chunks of whole entries (cut before a line that starts a new `@` block),
so a file of any size streams in bounded memory and one unclosed brace costs at most its chunk's
entries up to the next block, never the rest of the file. `@string` macros carry across chunks;
citation keys are checked for duplicates across the whole file (case-insensitive, as BibTeX
does). Field values are LaTeX decoded to Unicode (`{\\"u}` -> `ü`, `$\\alpha$` -> `α`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace

from bibtexparser.entrypoint import parse_string
from bibtexparser.exceptions import BlockAbortedException, ParsingException
from bibtexparser.library import Library
from bibtexparser.middlewares import RemoveEnclosingMiddleware, ResolveStringReferencesMiddleware
from bibtexparser.middlewares.names import (
    InvalidNameError,
    parse_single_name_into_parts,
    split_multiple_persons_names,
)
from bibtexparser.model import (
    Block,
    DuplicateBlockKeyBlock,
    DuplicateFieldKeyBlock,
    Entry,
    ParsingFailedBlock,
    String,
)

from bot.features.catalog.latex_text import to_text
from bot.features.catalog.listing import (
    MAX_FIELD_CHARS,
    MAX_TITLE_CHARS,
    SURROGATE,
    ParsedPaper,
    RecordError,
    RecordWarning,
)
from bot.features.catalog.venue import derive_venue
from bot.features.export.formats import arxiv_only, bare_doi, is_web_url, proceedings_title
from domain.arxiv_ids import ArxivRef, find_arxiv_ids, parse_arxiv_id
from domain.paper import Links, Paper
from domain.text import tidy

CHUNK_CHARS = 256 * 1024
"""A chunk is cut before the first `@` line after this many characters."""
MAX_CHUNK_CHARS = 8 * 1024 * 1024
"""…and in any case after this many (a file with no `@` lines is not read whole)."""

_BLOCK_START = re.compile(r"\s*@")
_YEAR = re.compile(r"\d{4}")
_DATE_YEAR = re.compile(r"(\d{4})(?:-\d\d){0,2}")
_URL_MACRO = re.compile(r"^\\url\{(.*)\}$", re.DOTALL)
_LIMITS = {"title": MAX_TITLE_CHARS}


def _parse_stack() -> list[ResolveStringReferencesMiddleware | RemoveEnclosingMiddleware]:
    return [ResolveStringReferencesMiddleware(allow_inplace_modification=True),
            RemoveEnclosingMiddleware(allow_inplace_modification=True)]


def _one_line(text: str) -> str:
    return " ".join(text.split())


class BibtexReader:
    """Streams numbered lines of a BibTeX file into parsed papers and per-entry errors."""

    def __init__(self) -> None:
        self._strings: dict[str, String] = {}
        self._keys: dict[str, int] = {}

    def parse(self, lines: Iterable[tuple[int, str]]) -> Iterator[ParsedPaper | RecordError]:
        """Parse the file chunk by chunk, in file order."""
        chunk: list[str] = []
        first, size = 1, 0
        for number, text in lines:
            if chunk and (size >= MAX_CHUNK_CHARS
                          or (size >= CHUNK_CHARS and _BLOCK_START.match(text))):
                yield from self._chunk(first, "\n".join(chunk))
                chunk, size = [], 0
            if not chunk:
                first = number
            chunk.append(text)
            size += len(text) + 1
        if chunk:
            yield from self._chunk(first, "\n".join(chunk))

    def _chunk(self, first: int, text: str) -> Iterator[ParsedPaper | RecordError]:
        library = Library(blocks=list(self._strings.values()))
        known = len(library.blocks)
        try:
            parse_string(text, parse_stack=_parse_stack(), library=library)
        except ParsingException:  # the parser's own invariant broke: lose this chunk only
            yield RecordError(first, "not valid BibTeX (the parser gave up on this part)")
            return
        for block in library.blocks[known:]:
            yield from self._block(first, block)

    def _block(self, first: int, block: Block) -> Iterator[ParsedPaper | RecordError]:
        line = first + (block.start_line or 0)
        if isinstance(block, DuplicateBlockKeyBlock):
            block = block.ignore_error_block or block  # our own key check reports it
        if isinstance(block, String):
            if block.enclosing == "no-enclosing":
                block.value = concatenated(block.value, self._strings)
            self._strings.setdefault(block.key.casefold(), block)
        elif isinstance(block, Entry):
            yield self._entry(line, block)
        elif isinstance(block, DuplicateFieldKeyBlock):
            names = ", ".join(sorted(k.lower() for k in block.duplicate_keys))
            yield RecordError(line, f"field '{names}' is given twice")
        elif isinstance(block, ParsingFailedBlock):
            yield RecordError(line, f"not valid BibTeX: {_failure(block.error)}")

    def _entry(self, line: int, entry: Entry) -> ParsedPaper | RecordError:
        raw = entry.raw or ""
        bad = SURROGATE.search(raw)
        if bad:
            return RecordError(line + raw.count("\n", 0, bad.start()), "line is not valid UTF-8")
        key = entry.key.casefold()
        if key in self._keys:
            return RecordError(line, f"citation key '{entry.key}' is used again "
                                     f"(first at line {self._keys[key]})")
        self._keys[key] = line
        for item in entry.fields:
            if item.enclosing == "no-enclosing":
                item.value = concatenated(str(item.value), self._strings)
        try:
            paper, warnings = entry_paper(entry)
        except ValueError as exc:
            return RecordError(line, str(exc))
        return ParsedPaper(line, paper, tuple(RecordWarning(line, w) for w in warnings))


def parse_bibtex(lines: Iterable[tuple[int, str]]) -> Iterator[ParsedPaper | RecordError]:
    """Parse numbered lines of a BibTeX file; entries that fail become errors with their line."""
    return BibtexReader().parse(lines)


_MONTHS = {month[:3].casefold(): month for month in (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December")}
"""BibTeX's predefined `@string`s (`month = jan`)."""
_PIECE = re.compile(r'\s*(?:\{(?P<braced>(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}'
                    r'|"(?P<quoted>(?:[^"{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)"'
                    r"|(?P<name>[^\s#{}\"]+))\s*(?:#|$)")


def concatenated(value: str, strings: Mapping[str, String]) -> str:
    """A value written as `"Proc. Fifteenth Annual " # STOC` as the text BibTeX makes of it:
    each quoted or braced part as it is, each `@string` name as its text (a month as its name;
    an unknown name as itself); a value that is no such expression is returned unchanged."""
    parts, pos = [], 0
    while pos < len(value):
        match = _PIECE.match(value, pos)
        if match is None or match.end() == pos:
            return value
        name = match.group("name")
        if name is None:
            parts.append(match.group("braced") if match.group("braced") is not None
                         else match.group("quoted"))
        elif name.isdigit():
            parts.append(name)
        else:
            known = strings.get(name.casefold())
            parts.append(str(known.value) if known is not None
                         else _MONTHS.get(name.casefold(), name))
        pos = match.end()
    return "".join(parts)


def _failure(error: Exception) -> str:
    if isinstance(error, BlockAbortedException):
        return _one_line(error.abort_reason)
    return _one_line(str(error)) or type(error).__name__


def _fields(entry: Entry) -> dict[str, str]:
    """Field values by lower-case name, checked against the importers' length limits."""
    fields: dict[str, str] = {}
    for item in entry.fields:
        name = item.key.lower()
        if name in fields:
            raise ValueError(f"field '{name}' is given twice")
        value = item.value if isinstance(item.value, str) else str(item.value)
        limit = _LIMITS.get(name, MAX_FIELD_CHARS)
        if len(value) > limit:
            raise ValueError(f"'{name}' is {len(value):,} characters long (limit {limit:,})")
        fields[name] = value
    return fields


def _authors(text: str) -> tuple[str, ...]:
    """`Last, First and First Last and {Org Name} and others` as display names."""
    names: list[str] = []
    for raw in split_multiple_persons_names(text) if text.strip() else []:
        if raw.strip().casefold() == "others":
            continue
        try:
            parts = parse_single_name_into_parts(raw)
        except InvalidNameError as exc:
            raise ValueError(f"author '{to_text(raw)}' is not a name "
                             f"({_one_line(str(exc))})") from None
        name = to_text(parts.merge_first_name_first)
        if not name or {name.split()[0].casefold(), name.split()[-1].casefold()} & {"and"}:
            raise ValueError("'author' has an empty name (two 'and's in a row?)")
        names.append(name)
    return tuple(names)


def _year(fields: dict[str, str], warnings: list[str]) -> int | None:
    text = to_text(fields.get("year", ""))
    if _YEAR.fullmatch(text):
        return int(text)
    if text:
        warnings.append(f"year '{text}' is not a year; ignored")
    date = _DATE_YEAR.fullmatch(to_text(fields.get("date", "")))
    return int(date.group(1)) if date else None


_URL_ESCAPE = re.compile(r"\\([%_&#$~])")
"""`\\%7E`, `\\_`: LaTeX escapes that BibTeX files put in URLs and DOIs (`url`/`doi` are
verbatim for biblatex and hyperref, so the backslash is not part of the address)."""


def _url(value: str) -> str:
    match = _URL_MACRO.match(value.strip())
    return _URL_ESCAPE.sub(r"\1", tidy(match.group(1) if match else value))


_MENTIONS = ("journal", "journaltitle", "booktitle", "note", "howpublished")
"""Fields where Google Scholar, DBLP and hand-written entries name an arXiv preprint."""

def _arxiv(fields: dict[str, str], url: str, warnings: list[str]) -> tuple[str, int]:
    """The arXiv id (without version) and version from `eprint` (with `archivePrefix` or
    `eprinttype` arXiv, or none), Mendeley's `arxivid`, DBLP's `CoRR` volume `abs/…`, or
    an arXiv link or `arXiv:` id in the URL, journal, booktitle, note or howpublished."""
    prefix = tidy(fields.get("archiveprefix") or fields.get("eprinttype") or "").casefold()
    eprint = tidy(fields.get("eprint", "")) if prefix in {"", "arxiv"} else ""
    for candidate in filter(None, (eprint, tidy(fields.get("arxivid", "")))):
        ref = parse_arxiv_id(candidate.removeprefix("arXiv:").removeprefix("arxiv:"))
        if isinstance(ref, ArxivRef):
            return ref.id, ref.version or 0
        if prefix == "arxiv" and candidate == eprint:
            warnings.append(f"eprint '{candidate}' is not an arXiv id; ignored")
    volume = tidy(fields.get("volume", ""))
    if tidy(fields.get("journal", "")).casefold() == "corr" and volume.startswith("abs/"):
        ref = parse_arxiv_id(volume.removeprefix("abs/"))
        if isinstance(ref, ArxivRef):
            return ref.id, ref.version or 0
    for text in (url, *(to_text(fields.get(name, "")) for name in _MENTIONS)):
        linked = find_arxiv_ids(text).found if "arxiv" in text.casefold() else ()
        if linked:
            return linked[0].id, linked[0].version or 0
    return "", 0


def _journal_ref(fields: dict[str, str]) -> str:
    """Where the paper was published, '' when the entry only says it is on arXiv."""
    journal = to_text(fields.get("journal") or fields.get("journaltitle")
                      or fields.get("booktitle") or "")
    return "" if arxiv_only(journal) else journal


def entry_paper(entry: Entry) -> tuple[Paper, list[str]]:
    """The paper an entry describes, with warnings for what it ignored; ValueError if none."""
    fields = _fields(entry)
    warnings: list[str] = []
    if "title" not in fields:
        raise ValueError("entry has no title")
    title = to_text(fields["title"])
    journal_ref = _journal_ref(fields)
    comments = to_text(fields.get("note", ""))
    published_as = to_text(fields.get("howpublished", ""))
    venue = derive_venue("\n".join(filter(None, (comments, published_as))), journal_ref)
    year = _year(fields, warnings)
    if year:
        venue = replace(venue, year=year)
    written = not {"journal", "journaltitle"} & fields.keys()
    if journal_ref and written and journal_ref == proceedings_title(venue):
        journal_ref = ""  # the venue in the words an export writes: the venue says it all
    url = _url(fields.get("url", ""))
    if url and not is_web_url(url):
        warnings.append(f"url '{url[:80]}' is not an http(s) address; ignored")
        url = ""
    arxiv_id, version = _arxiv(fields, url, warnings)
    primary = to_text(fields.get("primaryclass", ""))
    paper = Paper(
        title_en=title,
        title_zh="",
        authors=_authors(fields.get("author", "")),
        comments=comments,
        journal_ref=journal_ref,
        venue=venue,
        summary_en=to_text(fields.get("abstract", "")),
        links=Links(arxiv_id=arxiv_id, arxiv_version=version,
                    doi=bare_doi(_url(fields.get("doi", ""))), url=url,
                    categories=(primary,) if primary else ()),
    )
    if not paper.key:
        raise ValueError("title has no letters or digits")
    return paper, warnings
