"""Exports of papers (the catalog, or the group's history, queue, a reading list): what is
exported, and BibTeX (Markdown is `bot.features.export.markdown`).

Pure formatting: entries in, text out. BibTeX is written with bibtexparser's model and writer
as biblatex-safe UTF-8: every character beyond ASCII as itself (names, titles, CJK alike), the
ASCII that LaTeX reads as markup escaped (``&``, ``%``, ``_``, ``{`` …; see
`bot.features.catalog.latex_text`), braces always balanced as BibTeX counts them, every
word of a title that holds a capital protected (``{LLM}``, ``{Europe}``, never a group that
starts with a backslash, which BibTeX case-changes), a name ending in `Jr.` written as
``Last, Jr., First``, so that Zotero, BibTeX, biber, pybtex and `paperclub import`
read them back unchanged; URLs and DOIs are written verbatim. The entry type follows what is known:
``@inproceedings`` (``booktitle``) for a conference or workshop, ``@article`` (``journal``) for a
journal ref, ``@misc`` otherwise (with ``eprint``/``archivePrefix``/``primaryClass`` for arXiv).
Exporting what an export imports gives the same bytes. Citation keys are stable (first
author's surname, year, first title word) and deduplicated with ``a``, ``b``, … suffixes in
entry order.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum

from bibtexparser.entrypoint import write_string
from bibtexparser.library import Library
from bibtexparser.model import Entry, Field

from bot.features.catalog.latex_text import to_latex
from bot.features.catalog.venue import derive_venue
from domain.paper import Paper, Track, Venue
from domain.text import tidy


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
    """The surname of `First Last`, `Last, First` or `First Last Jr.`."""
    author = author.strip()
    if (suffixed := _with_suffix(author)) is not None:
        return suffixed.split(",", 1)[0].split()[-1]
    if "," in author:
        return author.split(",", 1)[0]
    parts = author.split()
    return parts[-1] if parts else ""


def paper_year(paper: Paper) -> int | None:
    """The venue's year, else the year arXiv first published the paper (four digits, as
    BibTeX's `year` holds it; None when neither is known)."""
    year = paper.venue.year or (paper.links.published.year if paper.links.published else None)
    return year if year and 1000 <= year <= 9999 else None


def base_key(paper: Paper | None, paper_id: str) -> str:
    """`surname` + `year` + first significant title word, e.g. `vaswani2017attention`."""
    if paper is None:
        return f"paper{paper_id}"
    surname = "".join(_WORD.findall(_ascii(_surname(paper.authors[0])))) if paper.authors else ""
    words = [w for w in _WORD.findall(_ascii(paper.title_en)) if w not in _STOP_WORDS]
    year = str(paper_year(paper) or "")
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


_ARXIV_ONLY = re.compile(r"(?:arxiv(?:\s+(?:preprint|e-?prints?))?|preprint|e-?prints?|"
                         r"abs/|:|,|\s|\d{4}\.\d{4,5}(?:v\d+)?)*", re.IGNORECASE)


def arxiv_only(venue: str) -> bool:
    """True for a venue that only says "on arXiv" (`arXiv preprint arXiv:2111.00396`,
    `ArXiv e-prints`): no journal, and not exported as one."""
    return "arxiv" in venue.casefold() and _ARXIV_ONLY.fullmatch(venue) is not None


def clean(text: str) -> str:
    """Text as an export writes it and an import reads it back: tidied, NFC."""
    return unicodedata.normalize("NFC", tidy(text))


DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


def bare_doi(doi: str) -> str:
    """`10.1000/x` from `https://doi.org/10.1000/x` or `doi:10.1000/x`."""
    return DOI_PREFIX.sub("", doi.strip())


def venue_phrase(venue: Venue) -> str:
    """`ICML 2026 Workshop on X, spotlight` / `ICML 2026, main track`: the venue in words that
    `derive_venue` reads back (BibTeX's `howpublished`)."""
    head = f"{venue.conference or ''} {venue.year or ''}".strip()
    if venue.track is Track.WORKSHOP:
        head = f"{head} Workshop on {venue.workshop}" if venue.workshop else f"{head} Workshop"
    parts = [head.strip(), "main track" if venue.track is Track.MAIN else "", *venue.honours]
    return ", ".join(part for part in parts if part)


_AND = re.compile(r"\sand\s", re.IGNORECASE)
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
"""Generational suffixes: BibTeX reads them only in `von Last, Jr, First` form."""


def _with_suffix(name: str) -> str | None:
    """`Hans Müller Jr.` as `Müller, Jr., Hans`, the form in which BibTeX takes `Jr.` for the
    suffix and not the surname (as `Müller, Jr., Hans` is imported); None when `name` ends in
    no suffix or holds a comma (a name imported with one was braced, and is again)."""
    words = name.split()
    if len(words) < 3 or words[-1].casefold() not in _SUFFIXES or "," in name:
        return None
    rest = words[:-1]
    start = len(rest) - 1
    while start > 1 and rest[start - 1][:1].islower():  # `van der` belongs to the surname
        start -= 1
    return ", ".join(" ".join(part) for part in (rest[start:], words[-1:], rest[:start]))


def _bib_name(name: str) -> str:
    """A display name as one BibTeX name: `Last, Jr., First` when it ends in a suffix, else
    braced when a comma or `and` would split it, or when it is the word `others` (BibTeX's
    "et al.")."""
    name = clean(name)
    if (suffixed := _with_suffix(name)) is not None:
        return ", ".join(to_latex(part) for part in suffixed.split(", "))
    latex = to_latex(name)
    braced = "," in name or _AND.search(name) or name.strip().casefold() == "others"
    return f"{{{latex}}}" if braced else latex


_TITLE_WORD = re.compile(r"\S+")


def _protected(latex: str) -> str:
    """A brace group BibTeX keeps as written: doubled when the text starts with a backslash
    (`{\\$...}` would be a "special character", whose letters styles change case)."""
    return f"{{{{{latex}}}}}" if latex.startswith("\\") else f"{{{latex}}}"


def title_latex(title: str) -> str:
    """A title with each word that holds a capital (after the title's first letter, which
    every style keeps) brace-protected, so that styles that lower-case titles (plain, pandoc)
    keep `{LLM}`, `{Europe}`, `{ImageNet}` as typed."""
    parts, pos = [], 0
    for match in _TITLE_WORD.finditer(title):
        word = match.group()
        capitals = word[1:] if match.start() == 0 else word
        if not any(char.isupper() for char in capitals):
            continue
        parts += [to_latex(title[pos:match.start()]), _protected(to_latex(word))]
        pos = match.end()
    parts.append(to_latex(title[pos:]))
    return "".join(parts)


def imported_venue(comments: str, howpublished: str, published_in: str,
                   year: int | None) -> Venue:
    """The venue `paperclub import` derives from an entry's note, howpublished, journal or
    booktitle and year (see `bibtex_reader`)."""
    venue = derive_venue("\n".join(filter(None, (comments, howpublished))), published_in)
    return replace(venue, year=year) if year else venue


def _published_in(paper: Paper) -> str:
    """The journal or proceedings: the journal ref, else the conference or workshop."""
    journal = clean(paper.journal_ref)
    if journal and not arxiv_only(journal):
        return journal
    return proceedings_title(replace(paper.venue, year=paper_year(paper)))


def proceedings_title(venue: Venue) -> str:
    """`ICML 2026`, `ICML 2026 Workshop on X`: the booktitle an export writes for a venue
    with no journal ref ('' for no conference or workshop)."""
    if not venue.conference and venue.track is not Track.WORKSHOP:
        return ""
    return clean(venue_phrase(replace(venue, honours=(), track=(
        Track.WORKSHOP if venue.track is Track.WORKSHOP else Track.UNKNOWN))))


def _howpublished(paper: Paper, published_in: str) -> str:
    """The venue in words, when the entry's other fields do not give it back and these words
    do (never a bare year: the year has its own field). Re-exporting what an export imports
    takes the same choice, so the bytes stay the same."""
    comments, year = clean(paper.comments), paper_year(paper)
    wanted = replace(paper.venue, year=year)
    if imported_venue(comments, "", published_in, year) == wanted:
        return ""
    phrase = clean(venue_phrase(wanted))
    return phrase if imported_venue(comments, phrase, published_in, year) == wanted else ""


def _entry_type(venue: Venue, published_in: str) -> str:
    """`inproceedings` for a conference or workshop, `article` for a journal, else `misc`
    (decided on the venue an import reads back, so a re-export decides the same)."""
    if not published_in:
        return "misc"
    return "inproceedings" if venue.conference or venue.track is Track.WORKSHOP else "article"


def _paper_fields(paper: Paper) -> tuple[str, list[Field]]:
    links = paper.links
    year = paper_year(paper)
    published_in = _published_in(paper)
    howpublished = _howpublished(paper, published_in)
    kind = _entry_type(imported_venue(clean(paper.comments), howpublished, published_in, year),
                       published_in)
    fields = [Field("title", title_latex(clean(paper.title_en)))]
    if paper.authors:
        fields.append(Field("author", " and ".join(_bib_name(a) for a in paper.authors)))
    if year:
        fields.append(Field("year", str(year)))
    if published_in:
        fields.append(Field("booktitle" if kind == "inproceedings" else "journal",
                            to_latex(published_in)))
    if howpublished:
        fields.append(Field("howpublished", to_latex(howpublished)))
    if links.arxiv_id:
        version = f"v{links.arxiv_version}" if links.arxiv_version else ""
        fields += [Field("eprint", f"{links.arxiv_id}{version}"),
                   Field("archivePrefix", "arXiv")]
        if links.categories and clean(links.categories[0]):
            fields.append(Field("primaryClass", to_latex(clean(links.categories[0]))))
    if links.doi:
        fields.append(Field("doi", verbatim(bare_doi(links.doi))))
    url = links.url if is_web_url(links.url) else abs_url(replace(paper, links=replace(
        links, url="")))
    if url:
        fields.append(Field("url", verbatim(url)))
    if clean(paper.summary_en):
        fields.append(Field("abstract", to_latex(clean(paper.summary_en))))
    return kind, fields


def _bib_entry(key: str, entry: ExportEntry) -> Entry:
    paper = entry.paper
    kind, fields = (_paper_fields(paper) if paper is not None
                    else ("misc", [Field("title", to_latex(entry.paper_id))]))
    notes = [clean(paper.comments)] if paper is not None and clean(paper.comments) else []
    if entry.presenter and entry.when is not None:
        notes.append(f"Presented by {entry.presenter} on {entry.when:%Y-%m-%d}")
    notes += filter(None, map(tidy, entry.notes))
    if entry.link:
        notes.append(f"Discussion: {entry.link}")
    if notes:
        fields.append(Field("note", to_latex("; ".join(notes))))
    return Entry(kind, key, fields)


def bibtex(entries: Sequence[ExportEntry]) -> str:
    """A BibTeX file that `paperclub import` reads back to the same papers (title, authors,
    year, venue, arXiv id, DOI, URL, abstract), and that strict pybtex and bibtexparser read
    with the same fields whatever the texts hold."""
    library = Library()
    for key, entry in zip(citation_keys(entries), entries, strict=True):
        library.add(_bib_entry(key, entry))
    return write_string(library)


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
