"""arXiv API answers (Atom 1.0 with the opensearch and arxiv namespaces) as plain data and `Paper`s.

Parsed with defusedxml (the standard library's parser with entity expansion, external entities
and DTDs refused), never with regular expressions. An answer that is not Atom at all (arXiv's
plain-text `Rate exceeded.`, an HTML error page) raises `NotAtom`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from bot.features.catalog.venue import derive_venue
from bot.features.papers.latex_display import latex_to_display
from domain.arxiv_ids import ArxivRef, parse_arxiv_id
from domain.paper import Affiliation, Links, Paper
from domain.text import tidy

ATOM = "{http://www.w3.org/2005/Atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
ARXIV = "{http://arxiv.org/schemas/atom}"
ERROR_ID_MARK = "/api/errors"
_ABS_MARKERS = ("/abs/",)


class NotAtom(ValueError):
    """The body is not an Atom feed; `body` keeps its first characters for the log."""

    def __init__(self, why: str, body: str) -> None:
        super().__init__(f"{why}: {body[:200]!r}")
        self.body = body


@dataclass(frozen=True, slots=True)
class ArxivEntry:
    """One paper as arXiv describes it; `title_raw` and `summary_raw` exactly as sent."""

    ref: ArxivRef
    title_raw: str
    summary_raw: str
    authors: tuple[str, ...]
    affiliations: tuple[str, ...] = ()
    comment: str = ""
    journal_ref: str = ""
    doi: str = ""
    abs_url: str = ""
    pdf_url: str = ""
    primary_category: str = ""
    categories: tuple[str, ...] = ()
    published: datetime | None = None
    updated: datetime | None = None

    @property
    def title(self) -> str:
        """The title for display: wrapping collapsed, LaTeX as Unicode."""
        return latex_to_display(self.title_raw)

    @property
    def summary(self) -> str:
        """The abstract for display: wrapping collapsed, LaTeX as Unicode."""
        return latex_to_display(self.summary_raw)

    def to_paper(self) -> Paper:
        """The catalog record: no Chinese title yet; venue derived from comment and journal ref."""
        comments, journal_ref = tidy(self.comment), tidy(self.journal_ref)
        return Paper(
            title_en=self.title, title_zh="", authors=self.authors,
            affiliations=tuple(Affiliation(a) for a in self.affiliations),
            comments=comments, journal_ref=journal_ref,
            venue=derive_venue(comments, journal_ref), summary_en=self.summary,
            links=Links(arxiv_id=self.ref.id, arxiv_version=self.ref.version or 0,
                        doi=self.doi, url=self.abs_url, pdf_url=self.pdf_url,
                        categories=self.categories, published=self.published,
                        updated=self.updated))


@dataclass(frozen=True, slots=True)
class AtomPage:
    """One answer: the entries, the search's total and position, or arXiv's error message."""

    entries: tuple[ArxivEntry, ...]
    total_results: int
    start_index: int = 0
    items_per_page: int = 0
    error: str = ""
    """arXiv's reason when the answer is an Error entry (`incorrect id format for 2401.999`)."""


def _text(element: Element | None) -> str:
    return "" if element is None or element.text is None else element.text


def _int(element: Element | None) -> int:
    text = _text(element).strip()
    return int(text) if text.isdigit() else 0


def _time(element: Element | None) -> datetime | None:
    text = _text(element).strip()
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def _ref(entry_id: str) -> ArxivRef | None:
    """`http://arxiv.org/abs/2401.01234v2` → 2401.01234, version 2."""
    for marker in _ABS_MARKERS:
        _, found, tail = entry_id.partition(marker)
        if found:
            parsed = parse_arxiv_id(tail.strip().rstrip("/"))
            return parsed if isinstance(parsed, ArxivRef) else None
    return None


def _https(href: str) -> str:
    """arXiv's own pages over HTTPS: the API still names them `http://arxiv.org/...`."""
    parts = urlsplit(href)
    host = (parts.hostname or "").lower()
    if parts.scheme.lower() == "http" and (host == "arxiv.org" or host.endswith(".arxiv.org")):
        return parts._replace(scheme="https").geturl()
    return href


def _entry(element: Element) -> ArxivEntry | None:
    ref = _ref(_text(element.find(f"{ATOM}id")).strip())
    if ref is None or not _text(element.find(f"{ATOM}title")).strip():
        return None
    authors: list[str] = []
    affiliations: dict[str, None] = {}
    for author in element.iter(f"{ATOM}author"):
        name = tidy(_text(author.find(f"{ATOM}name")))
        if name:
            authors.append(name)
        for affiliation in author.iter(f"{ARXIV}affiliation"):
            if tidy(_text(affiliation)):
                affiliations[tidy(_text(affiliation))] = None
    abs_url = pdf_url = ""
    for link in element.iter(f"{ATOM}link"):
        href = _https(link.get("href", ""))
        if link.get("title") == "pdf" or link.get("type") == "application/pdf":
            pdf_url = pdf_url or href
        elif link.get("rel") == "alternate":
            abs_url = abs_url or href
    primary = element.find(f"{ARXIV}primary_category")
    primary_term = primary.get("term", "") if primary is not None else ""
    terms = [c.get("term", "") for c in element.iter(f"{ATOM}category")]
    categories = tuple(dict.fromkeys(t for t in [primary_term, *terms] if t))
    return ArxivEntry(
        ref=ref, title_raw=_text(element.find(f"{ATOM}title")),
        summary_raw=_text(element.find(f"{ATOM}summary")), authors=tuple(authors),
        affiliations=tuple(affiliations), comment=_text(element.find(f"{ARXIV}comment")),
        journal_ref=_text(element.find(f"{ARXIV}journal_ref")),
        doi=tidy(_text(element.find(f"{ARXIV}doi"))), abs_url=abs_url, pdf_url=pdf_url,
        primary_category=primary_term, categories=categories,
        published=_time(element.find(f"{ATOM}published")),
        updated=_time(element.find(f"{ATOM}updated")))


def parse_atom(body: str | bytes) -> AtomPage:
    """Parse one API answer; raises `NotAtom` for anything but an Atom feed."""
    shown = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    try:
        root = fromstring(body, forbid_dtd=True)
    except (ParseError, DefusedXmlException) as exc:
        raise NotAtom(f"not XML ({exc})", shown) from None
    if root.tag != f"{ATOM}feed":
        raise NotAtom(f"not an Atom feed (root {root.tag})", shown)
    entries: list[ArxivEntry] = []
    error = ""
    for element in root.iter(f"{ATOM}entry"):
        if ERROR_ID_MARK in _text(element.find(f"{ATOM}id")):
            error = tidy(_text(element.find(f"{ATOM}summary"))) or "error"
            continue
        entry = _entry(element)
        if entry is not None:
            entries.append(entry)
    return AtomPage(
        entries=tuple(entries), total_results=_int(root.find(f"{OPENSEARCH}totalResults")),
        start_index=_int(root.find(f"{OPENSEARCH}startIndex")),
        items_per_page=_int(root.find(f"{OPENSEARCH}itemsPerPage")), error=error)
