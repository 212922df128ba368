"""Exports of the group's records (history, queue, a reading list) as BibTeX or Markdown.

Pure formatting: entries in, text out. BibTeX is written with bibtexparser's model and writer,
values LaTeX-encoded (``&``, ``%``, ``_``, ``{`` … and accented letters) so that Zotero and
BibTeX read them back unchanged; citation keys are stable (first author's surname, year, first
title word) and deduplicated with ``a``, ``b``, … suffixes in entry order.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from bibtexparser.entrypoint import write_string
from bibtexparser.library import Library
from bibtexparser.middlewares import LatexEncodingMiddleware
from bibtexparser.model import Entry, Field
from pylatexenc.latexencode import UnicodeToLatexEncoder

from bot.core.models import Paper


class ExportWhat(StrEnum):
    """What `/export` and `paperclub export` write."""

    HISTORY = "history"
    QUEUE = "queue"
    BOOKMARKS = "bookmarks"


class ExportFormat(StrEnum):
    """The file format of an export."""

    BIBTEX = "bibtex"
    MARKDOWN = "markdown"

    @property
    def suffix(self) -> str:
        """The file name's extension."""
        return ".bib" if self is ExportFormat.BIBTEX else ".md"


@dataclass(frozen=True, slots=True)
class ExportEntry:
    """One exported paper: its record (None if it left the catalog) and the group's facts."""

    paper_id: str
    paper: Paper | None
    when: datetime
    presenter: str | None = None
    """The presenter's name (history only)."""
    notes: tuple[str, ...] = ()
    link: str | None = None
    """The discussion thread (history only)."""


@dataclass(frozen=True, slots=True)
class ExportText:
    """An export's text and how many of the entries it holds (fewer when it had to be cut)."""

    text: str
    kept: int
    total: int

    @property
    def data(self) -> bytes:
        """The file's bytes (UTF-8)."""
        return self.text.encode()


_WORD = re.compile(r"[a-z0-9]+")
_STOP_WORDS = frozenset({"a", "an", "the", "on", "of", "in", "for", "to", "and", "with"})


def _ascii(text: str) -> str:
    """Lowercase ASCII letters and digits only (accents dropped: `Müller` -> `muller`)."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return folded.lower()


def _surname(author: str) -> str:
    """The surname of `First Last` or `Last, First`."""
    author = author.strip()
    if "," in author:
        return author.split(",", 1)[0]
    parts = author.split()
    return parts[-1] if parts else ""


def base_key(paper: Paper | None, paper_id: str) -> str:
    """`surname` + `year` + first significant title word, e.g. `vaswani2017attention`."""
    if paper is None:
        return f"paper{paper_id}"
    surname = "".join(_WORD.findall(_ascii(_surname(paper.authors[0])))) if paper.authors else ""
    words = [w for w in _WORD.findall(_ascii(paper.title_en)) if w not in _STOP_WORDS]
    year = str(paper.venue.year) if paper.venue.year else ""
    key = f"{surname or 'anon'}{year}{words[0] if words else ''}"
    return key if key[0].isalpha() else f"k{key}"


def citation_keys(entries: Sequence[ExportEntry]) -> list[str]:
    """One key per entry, in order; repeats get `a`, `b`, … (the first keeps the plain key)."""
    seen: dict[str, int] = {}
    taken: set[str] = set()
    keys = []
    for entry in entries:
        key = base_key(entry.paper, entry.paper_id)
        if key in taken:
            n = seen.get(key, 0)
            while True:
                n += 1
                candidate = f"{key}{_suffix(n)}"
                if candidate not in taken:
                    break
            seen[key] = n
            key = candidate
        taken.add(key)
        keys.append(key)
    return keys


def _suffix(n: int) -> str:
    """1 -> a, 26 -> z, 27 -> aa."""
    letters = ""
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


_ENCODER = UnicodeToLatexEncoder(unknown_char_policy="keep", unknown_char_warning=False)


def _bib_fields(entry: ExportEntry) -> list[Field]:
    paper = entry.paper
    fields: list[Field] = []
    if paper is not None:
        fields.append(Field("title", paper.title_en))
        if paper.authors:
            fields.append(Field("author", " and ".join(paper.authors)))
        if paper.venue.year:
            fields.append(Field("year", str(paper.venue.year)))
        venue = paper.venue.badge()
        if venue:
            fields.append(Field("howpublished", venue))
        if paper.journal_ref:
            fields.append(Field("journal", paper.journal_ref))
    else:
        fields.append(Field("title", entry.paper_id))
    notes = [*entry.notes]
    if entry.presenter:
        notes.insert(0, f"Presented by {entry.presenter} on {entry.when:%Y-%m-%d}")
    if entry.link:
        fields.append(Field("url", entry.link))
    if notes:
        fields.append(Field("note", "; ".join(notes)))
    return fields


def bibtex(entries: Sequence[ExportEntry]) -> str:
    """A BibTeX file (one `@misc` per entry) that re-parses to the same titles."""
    library = Library()
    for key, entry in zip(citation_keys(entries), entries, strict=True):
        library.add(Entry("misc", key, _bib_fields(entry)))
    encode = LatexEncodingMiddleware(encoder=_ENCODER)
    return write_string(library, prepend_middleware=[encode])


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~@&])")
"""What can start emphasis, code, a link, HTML, a heading, a table cell, strike-through, a
mention or an entity (`-`, `.`, `(` are inert where the export puts text: after `1. ` or `> `)."""


def md(text: str) -> str:
    """Text made inert in Markdown: no emphasis, links, HTML or mention syntax."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split()))


@dataclass(frozen=True, slots=True)
class MarkdownLabels:
    """The words a Markdown export uses (in the reader's language)."""

    heading: str
    dated: Callable[[ExportEntry], str]
    """The entry's date line, e.g. `Discussed 2026-11-30, presented by Alice`."""
    thread: str
    gone: str


def markdown(entries: Sequence[ExportEntry], labels: MarkdownLabels,
             title_of: Callable[[Paper], str]) -> str:
    """A numbered list: title, authors, venue, date (and presenter), thread, notes quoted."""
    lines = [f"# {md(labels.heading)}", ""]
    for n, entry in enumerate(entries, start=1):
        paper = entry.paper
        if paper is None:
            lines.append(f"{n}. **{md(entry.paper_id)}** ({md(labels.gone)})")
        else:
            lines.append(f"{n}. **{md(title_of(paper))}**")
            if paper.authors:
                lines.append(f"   {md(', '.join(paper.authors))}")
            if paper.venue.badge():
                lines.append(f"   *{md(paper.venue.badge())}*")
        details = md(labels.dated(entry))
        if entry.link:
            details += f" · [{md(labels.thread)}]({entry.link})"
        lines.append(f"   {details}")
        for note in entry.notes:
            lines.extend(f"   > {md(line)}" for line in note.splitlines() if line.strip())
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def fit_export(entries: Sequence[ExportEntry], render: Callable[[Sequence[ExportEntry]], str],
               limit_bytes: int) -> ExportText:
    """The longest prefix of `entries` whose rendering fits in `limit_bytes` (UTF-8)."""
    text = render(entries)
    if len(text.encode()) <= limit_bytes:
        return ExportText(text, len(entries), len(entries))
    low, high = 0, len(entries) - 1  # low always fits (an empty export is tiny)
    while low < high:
        middle = (low + high + 1) // 2
        if len(render(entries[:middle]).encode()) <= limit_bytes:
            low = middle
        else:
            high = middle - 1
    return ExportText(render(entries[:low]), low, len(entries))
