"""Atom written the way arXiv's API writes it: namespaces declared where used, titles and
abstracts wrapped across lines, LaTeX left as it is."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping
from datetime import datetime
from urllib.parse import urlencode
from xml.sax.saxutils import escape, quoteattr

from .records import StandinPaper

OPENSEARCH_NS = "http://a9.com/-/spec/opensearch/1.1/"
ARXIV_NS = "http://arxiv.org/schemas/atom"
SITE = "http://arxiv.org"
FEED_UPDATED = "2026-01-01T00:00:00-05:00"


def _wrap(text: str, *, indent: str) -> str:
    """arXiv's line wrapping: about 80 columns, continuation lines indented."""
    return f"\n{indent}".join(textwrap.wrap(" ".join(text.split()), 78)) or text


def _time(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _arxiv(tag: str, text: str) -> str:
    return f'    <arxiv:{tag} xmlns:arxiv="{ARXIV_NS}">{escape(text)}</arxiv:{tag}>\n'


def _author(name: str, affiliations: Iterable[str]) -> str:
    lines = [f"    <author>\n      <name>{escape(name)}</name>\n"]
    lines += [f'      <arxiv:affiliation xmlns:arxiv="{ARXIV_NS}">{escape(a)}'
              "</arxiv:affiliation>\n" for a in affiliations]
    return "".join(lines) + "    </author>\n"


def entry_xml(paper: StandinPaper, version: int) -> str:
    """One `<entry>` for `paper` at `version`."""
    versioned = f"{paper.id}v{version}"
    parts = [
        "  <entry>\n",
        f"    <id>{SITE}/abs/{versioned}</id>\n",
        f"    <updated>{_time(paper.updated or paper.published)}</updated>\n",
        f"    <published>{_time(paper.published)}</published>\n",
        f"    <title>{escape(_wrap(paper.title, indent='  '))}</title>\n",
        f"    <summary>  {escape(_wrap(paper.summary, indent=''))}\n</summary>\n",
        *(_author(a, paper.affiliations.get(a, ())) for a in paper.authors),
    ]
    if paper.doi:
        parts.append(_arxiv("doi", paper.doi))
        parts.append(f'    <link title="doi" href="http://dx.doi.org/{escape(paper.doi)}" '
                     'rel="related"/>\n')
    if paper.comment:
        parts.append(_arxiv("comment", _wrap(paper.comment, indent="  ")))
    if paper.journal_ref:
        parts.append(_arxiv("journal_ref", paper.journal_ref))
    parts += [
        f'    <link href="{SITE}/abs/{versioned}" rel="alternate" type="text/html"/>\n',
        f'    <link title="pdf" href="{SITE}/pdf/{versioned}" rel="related" '
        'type="application/pdf"/>\n',
        f'    <arxiv:primary_category xmlns:arxiv="{ARXIV_NS}" '
        f'term={quoteattr(paper.primary_category)} scheme="{ARXIV_NS}"/>\n',
        *(f'    <category term={quoteattr(c)} scheme="{ARXIV_NS}"/>\n' for c in paper.categories),
        "  </entry>\n",
    ]
    return "".join(parts)


def error_entry_xml(reason: str) -> str:
    """arXiv's Error entry: id under /api/errors, title `Error`, the reason as summary."""
    anchor = "_".join(reason.split())
    return (f"  <entry>\n    <id>{SITE}/api/errors#{escape(anchor)}</id>\n"
            f"    <title>Error</title>\n    <summary>{escape(reason)}</summary>\n"
            f"    <updated>{FEED_UPDATED}</updated>\n"
            f"    <link href={quoteattr(f'{SITE}/api/errors#{anchor}')} rel=\"alternate\" "
            'type="text/html"/>\n    <author>\n      <name>arXiv api core</name>\n'
            "    </author>\n  </entry>\n")


def feed_xml(params: Mapping[str, str], entries: Iterable[str], *, total: int, start: int,
             per_page: int) -> str:
    """A whole feed around already-written entries."""
    query = urlencode({k: params.get(k, "") for k in
                       ("search_query", "id_list", "start", "max_results")})
    title = "&".join(f"{k}={params.get(k, '')}" for k in
                     ("search_query", "id_list", "start", "max_results"))
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom">\n'
        f'  <link href={quoteattr(f"{SITE}/api/query?{query}")} rel="self" '
        'type="application/atom+xml"/>\n'
        f'  <title type="html">ArXiv Query: {escape(title)}</title>\n'
        f"  <id>{SITE}/api/standin</id>\n"
        f"  <updated>{FEED_UPDATED}</updated>\n"
        f'  <opensearch:totalResults xmlns:opensearch="{OPENSEARCH_NS}">{total}'
        "</opensearch:totalResults>\n"
        f'  <opensearch:startIndex xmlns:opensearch="{OPENSEARCH_NS}">{start}'
        "</opensearch:startIndex>\n"
        f'  <opensearch:itemsPerPage xmlns:opensearch="{OPENSEARCH_NS}">{per_page}'
        "</opensearch:itemsPerPage>\n"
        + "".join(entries) + "</feed>\n")
