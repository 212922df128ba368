"""Writing papers back in the listing format (for exports and synthetic catalogs)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from bot.features.catalog.listing import AFFILIATIONS, COMMENTS, JOURNAL_REF, SUMMARY
from domain.paper import Affiliation, Paper


def authors_text(authors: Iterable[str]) -> str:
    """The authors line."""
    return ", ".join(authors)


def affiliations_text(affiliations: Iterable[Affiliation]) -> str:
    """The `机构` line's value: `A（甲） ； B 纠错`."""
    parts = [f"{a.en}（{a.zh}）" if a.zh else a.en for a in affiliations]
    return " ； ".join(parts) + " 纠错"


def paper_lines(paper: Paper) -> list[str]:
    """The record's non-blank lines, in the order the listing format uses."""
    lines = [paper.title_en, paper.title_zh, authors_text(paper.authors)]
    if paper.affiliations:
        lines.append(f"{AFFILIATIONS} * {affiliations_text(paper.affiliations)}")
    lines.append(f"{SUMMARY} {paper.summary_zh}")
    if paper.comments:
        lines.append(f"{COMMENTS} {paper.comments}")
    if paper.journal_ref:
        lines.append(f"{JOURNAL_REF} {paper.journal_ref}")
    return lines


def format_listing(papers: Iterable[Paper], query: str) -> Iterator[str]:
    """The whole listing, line by line (each with its newline), blank lines between."""
    yield f"{query}\n"
    for paper in papers:
        for line in paper_lines(paper):
            yield "\n"
            yield f"{line}\n"
