"""Exports of papers (the catalog, or the group's history, queue, a reading list) as BibTeX or
Markdown.

Pure formatting: entries in, text out. BibTeX is written with bibtexparser's model and writer,
text fields LaTeX-encoded (``&``, ``%``, ``_``, ``{`` … and accented letters; see
`bot.features.catalog.latex_text`)
so that Zotero, BibTeX and `paperclub import` read them back unchanged;
URLs and DOIs are written verbatim. Citation keys are stable (first author's surname, year,
first title word) and deduplicated with ``a``, ``b``, … suffixes in entry order.
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
from bibtexparser.model import Entry, Field

from bot.features.catalog.latex_text import to_latex
from domain.paper import Paper, Track, Venue


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
    when: datetime | None = None
    """When the group discussed, suggested or bookmarked it (None in a catalog export)."""
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


def abs_url(paper: Paper) -> str:
    """The paper's page: its arXiv abstract page when the id is known, else its URL ('')."""
    if paper.links.arxiv_id:
        return f"https://arxiv.org/abs/{paper.links.arxiv_id}"
    return paper.links.url


_BIB_UNSAFE = re.compile(r"[\s{}\\]")
_LINK_UNSAFE = re.compile(r"[\s{}\\()<>\[\]]")


def _percent(pattern: re.Pattern[str], text: str) -> str:
    return pattern.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), text)


def is_web_url(url: str) -> bool:
    """True for an http(s) URL (not `javascript:`, `file:` …)."""
    return url.lower().startswith(("https://", "http://"))


def safe_url(url: str) -> str:
    """An http(s) URL with what could end a Markdown link percent-encoded; '' for any other
    scheme."""
    return _percent(_LINK_UNSAFE, url) if is_web_url(url) else ""


def verbatim(value: str) -> str:
    """A URL or DOI as a BibTeX value: braces, backslashes and spaces percent-encoded."""
    return _percent(_BIB_UNSAFE, value)


def venue_phrase(venue: Venue) -> str:
    """`ICML 2026 Workshop on X, spotlight` / `ICML 2026, main track`: the venue in words that
    `derive_venue` reads back (BibTeX's `howpublished`)."""
    head = f"{venue.conference or ''} {venue.year or ''}".strip()
    if venue.track is Track.WORKSHOP:
        head = f"{head} Workshop on {venue.workshop}" if venue.workshop else f"{head} Workshop"
    parts = [head.strip(), "main track" if venue.track is Track.MAIN else "", *venue.honours]
    return ", ".join(part for part in parts if part)


_AND = re.compile(r"\sand\s", re.IGNORECASE)


def _bib_name(name: str) -> str:
    """A display name as one BibTeX name: braced when a comma or `and` would split it."""
    latex = to_latex(name)
    return f"{{{latex}}}" if "," in name or _AND.search(name) else latex


def _paper_fields(paper: Paper) -> list[Field]:
    links = paper.links
    text = [("title", paper.title_en),
            ("author", " and ".join(_bib_name(a) for a in paper.authors)),
            ("year", str(paper.venue.year or "")),
            ("howpublished", venue_phrase(paper.venue)),
            ("journal", paper.journal_ref)]
    fields = [Field(key, to_latex(value) if key != "author" else value)
              for key, value in text if value]
    if links.arxiv_id:
        version = f"v{links.arxiv_version}" if links.arxiv_version else ""
        fields += [Field("eprint", f"{links.arxiv_id}{version}"),
                   Field("archivePrefix", "arXiv")]
        if links.categories:
            fields.append(Field("primaryClass", to_latex(links.categories[0])))
    if links.doi:
        fields.append(Field("doi", verbatim(links.doi)))
    url = links.url or abs_url(paper)
    if is_web_url(url):
        fields.append(Field("url", verbatim(url)))
    if paper.summary_en:
        fields.append(Field("abstract", to_latex(paper.summary_en)))
    return fields


def _bib_fields(entry: ExportEntry) -> list[Field]:
    paper = entry.paper
    fields = _paper_fields(paper) if paper is not None else [Field("title",
                                                                   to_latex(entry.paper_id))]
    notes = [paper.comments] if paper is not None and paper.comments else []
    if entry.presenter and entry.when is not None:
        notes.append(f"Presented by {entry.presenter} on {entry.when:%Y-%m-%d}")
    notes += entry.notes
    if entry.link:
        notes.append(f"Discussion: {entry.link}")
    if notes:
        fields.append(Field("note", to_latex("; ".join(notes))))
    return fields


def bibtex(entries: Sequence[ExportEntry]) -> str:
    """A BibTeX file (one `@misc` per entry) that `paperclub import` reads back to the same
    papers (title, authors, year, venue, arXiv id, DOI, URL, abstract)."""
    library = Library()
    for key, entry in zip(citation_keys(entries), entries, strict=True):
        library.add(Entry("misc", key, _bib_fields(entry)))
    return write_string(library)


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|@])")
"""What can start emphasis, code, a link, HTML, a heading, a table cell or a mention (`-`,
`.`, `(` are inert where the export puts text: at the start of a list item's paragraph or
after `> `)."""
_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
"""An `&` that would start an entity (`&amp;`, `&#126;`); any other `&` is plain text."""


def md(text: str) -> str:
    """Text made inert in Markdown: no emphasis, links, HTML, entity or mention syntax. Only
    what needs it is escaped, so that no renderer shows a stray backslash: an `&` only before
    an entity (as `&amp;`), a `~` only when there are two, which GFM could strike through."""
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split()))
    text = _ENTITY.sub("&amp;", text)
    return text.replace("~", "\\~") if text.count("~") > 1 else text


@dataclass(frozen=True, slots=True)
class MarkdownLabels:
    """The words a Markdown export uses (in the reader's language)."""

    heading: str
    dated: Callable[[ExportEntry], str]
    """The entry's date line, e.g. `Discussed 2026-11-30, presented by Alice` ('': none)."""
    thread: str
    gone: str
    summary_of: Callable[[Paper], str] | None = None
    """The paper's summary, shown cut to one line (None: no summary line)."""


SUMMARY_CHARS = 200
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s")


def one_line(text: str, limit: int = SUMMARY_CHARS) -> str:
    """The first sentence of `text` when it fits in `limit` characters, else its first words
    up to the limit, with `…`."""
    text = " ".join(text.split())
    first = _SENTENCE_END.split(text, maxsplit=1)[0]
    if len(first) <= limit:
        return first
    cut = first[:limit - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(",;:") + "…"


def _md_title(paper: Paper, title: str) -> str:
    url = safe_url(abs_url(paper))
    return f"**[{md(title)}]({url})**" if url else f"**{md(title)}**"


_BLOCK_START = re.compile(r"^(?:[-+](?=\s|$)|\d{1,9}(?=[.)](?:\s|$)))")
"""What would turn a paragraph into a list item when it starts one (`- x`, `+ x`, `1. x`)."""


def md_paragraph(text: str) -> str:
    """`md`, and safe at the start of a paragraph too (a summary `1. First…` stays text)."""
    inert = md(text)
    start = _BLOCK_START.match(inert)
    if start is None:
        return inert
    at = start.end() if start.group().isdigit() else 0
    return inert[:at] + "\\" + inert[at:]


def _md_item(n: int, entry: ExportEntry, labels: MarkdownLabels,
             title_of: Callable[[Paper], str]) -> list[str]:
    """One numbered item: its title, then each detail as a paragraph of its own, indented to
    stay in the item (CommonMark: the marker's width; python-markdown: at least 4)."""
    paper = entry.paper
    if paper is None:
        head, parts = f"**{md(entry.paper_id)}** ({md(labels.gone)})", []
    else:
        head = _md_title(paper, title_of(paper))
        summary = labels.summary_of(paper) if labels.summary_of else ""
        parts = [md_paragraph(", ".join(paper.authors)) if paper.authors else "",
                 f"*{md(paper.venue.badge())}*" if paper.venue.badge() else "",
                 md_paragraph(one_line(summary)) if summary else ""]
    details = md_paragraph(labels.dated(entry))
    if entry.link:
        details += f" · [{md(labels.thread)}]({safe_url(entry.link)})"
    parts.append(details.removeprefix(" · "))
    quoted = [f"> {md(line)}" for note in entry.notes for line in note.splitlines()
              if line.strip()]
    parts.append("\n".join(quoted))
    marker = f"{n}. "
    indent = " " * max(4, len(marker))
    lines = [marker + head]
    for part in filter(None, parts):
        lines += ["", *(indent + line for line in part.splitlines())]
    return lines


def markdown(entries: Sequence[ExportEntry], labels: MarkdownLabels,
             title_of: Callable[[Paper], str]) -> str:
    """A numbered list: title (linked to its page when known), then as paragraphs of the item:
    authors, venue, a one-line summary, the date (and presenter) and thread, notes quoted."""
    lines = [f"# {md(labels.heading)}", ""]
    for n, entry in enumerate(entries, start=1):
        lines += [*_md_item(n, entry, labels, title_of), ""]
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
