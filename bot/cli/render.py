"""Terminal rendering of papers and catalog facts for the command line (rich)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bot.features.catalog.jsonl import paper_to_dict
from bot.features.papers.abstract_text import display_text
from bot.features.papers.results import matched_note
from bot.features.papers.search import SearchOutcome
from bot.shared.lang import Lang
from domain.catalog import CatalogStats
from domain.paper import Links, Paper

FIELD_PREVIEW_CHARS = 2000
"""`show` prints at most this much of a field; `show --json` prints the whole record."""
AFFILIATIONS_SHOWN = 20


def search_table(outcome: SearchOutcome) -> Table:
    """Results best first: rank, id, title (both languages, and the terms read in the other
    language when that is how the paper was found), authors, venue."""
    table = Table(show_lines=False, expand=False)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("id", no_wrap=True, style="cyan")
    table.add_column("title")
    table.add_column("authors")
    table.add_column("venue")
    for rank, hit in enumerate(outcome.hits, start=1):
        paper = hit.paper
        authors = ", ".join(paper.authors[:3]) + (" et al." if len(paper.authors) > 3 else "")
        note = matched_note(outcome.crossed.get(hit.id, ()), Lang.EN) or (
            "close in meaning" if hit.id in outcome.close else "")
        table.add_row(
            str(rank),
            paper.id,
            f"{paper.title_en}\n[dim]{paper.title_zh}[/dim]"
            + (f"\n[italic]{escape(note)}[/italic]" if note else ""),
            authors,
            paper.venue.badge(),
        )
    return table


def _json_hint(paper: Paper) -> str:
    return f"`paperclub show {paper.id} --json` prints it all"


def _cut(text: str, paper: Paper) -> str:
    """The text escaped for rich, cut to `FIELD_PREVIEW_CHARS` with a hint when longer."""
    if len(text) <= FIELD_PREVIEW_CHARS:
        return escape(text)
    rest = len(text) - FIELD_PREVIEW_CHARS
    return (escape(text[:FIELD_PREVIEW_CHARS])
            + f" [dim]… {rest:,} more characters; {_json_hint(paper)}[/dim]")


def _print_affiliations(console: Console, paper: Paper) -> None:
    console.print("[bold]Affiliations 机构[/bold]")
    for aff in paper.affiliations[:AFFILIATIONS_SHOWN]:
        console.print("  • " + _cut(aff.en + (f"（{aff.zh}）" if aff.zh else ""), paper))
    hidden = len(paper.affiliations) - AFFILIATIONS_SHOWN
    if hidden > 0:
        console.print(f"  [dim]… and {hidden:,} more; {_json_hint(paper)}[/dim]")


def print_paper(console: Console, paper: Paper) -> None:
    """The record in both languages; each long field is cut to `FIELD_PREVIEW_CHARS`."""
    venue = paper.venue
    console.print(f"[bold]{_cut(paper.title_en, paper)}[/bold]")
    console.print(_cut(paper.title_zh, paper))
    console.print(f"[dim]id {paper.id}[/dim]\n")
    console.print(f"[bold]Authors 作者[/bold]  {_cut(', '.join(paper.authors), paper)}")
    if paper.affiliations:
        _print_affiliations(console, paper)
    if venue.badge():
        console.print(f"[bold]Venue 会议[/bold]  {escape(venue.badge())}")
    if venue.length():
        console.print(f"[bold]Length 篇幅[/bold]  {venue.length()}")
    if paper.summary_en:
        abstract = _cut(display_text(paper.summary_en), paper)
        console.print(f"\n[bold]Abstract 摘要[/bold]\n{abstract}")
    if paper.summary_zh:
        console.print(f"\n[bold]AI总结[/bold]\n{_cut(paper.summary_zh, paper)}\n")
    if paper.comments:
        console.print(f"[bold]Comments[/bold]  {_cut(paper.comments, paper)}")
    if paper.journal_ref:
        console.print(f"[bold]Journal ref[/bold]  {_cut(paper.journal_ref, paper)}")
    _print_links(console, paper.links)


def _print_links(console: Console, links: Links) -> None:
    """Where the paper lives (arXiv id and categories, DOI, pages) and arXiv's dates."""
    if links.arxiv_id:
        categories = f"  [dim]{escape(' '.join(links.categories))}[/dim]" * bool(links.categories)
        console.print(f"[bold]arXiv[/bold]  {escape(links.versioned_id)}{categories}")
    if links.doi:
        console.print(f"[bold]DOI[/bold]  {escape(links.doi)}")
    pages = [links.abs_url, links.pdf_link, f"https://doi.org/{links.doi}" * bool(links.doi),
             links.url]
    shown = list(dict.fromkeys(url for url in pages if url))
    if shown:
        console.print("[bold]Links 链接[/bold]")
        for url in shown:
            console.print(f"  {escape(url)}", soft_wrap=True)
    for label, when in (("Published 发表", links.published), ("Updated 更新", links.updated)):
        if when is not None:
            console.print(f"[bold]{label}[/bold]  {when:%Y-%m-%d %H:%M} UTC")


def stats_table(stats: CatalogStats) -> Table:
    """Papers per conference, year and track."""
    table = Table(title=f"{stats.papers} papers, {stats.workshops} workshops")
    table.add_column("conference")
    table.add_column("year", justify="right")
    table.add_column("track")
    table.add_column("papers", justify="right")
    for venue in stats.venues:
        table.add_row(venue.conference or "-", str(venue.year or "-"), venue.track,
                      str(venue.papers))
    return table


def stats_dict(stats: CatalogStats) -> dict[str, Any]:
    """The stats as JSON-ready data."""
    return {
        "papers": stats.papers,
        "workshops": stats.workshops,
        "last_load_at": stats.last_load_at.isoformat() if stats.last_load_at else None,
        "last_load_source": stats.last_load_source,
        "venues": [
            {"conference": v.conference, "year": v.year, "track": v.track, "papers": v.papers}
            for v in stats.venues
        ],
    }


def hit_dicts(outcome: SearchOutcome) -> list[dict[str, Any]]:
    """Search results as JSON-ready records, best first; a paper found through the other
    language has `matched`, the terms read (`[{"source": "扩散模型", "target": "diffusion
    model"}]`); one found by meaning alone has `"close_in_meaning": true`."""
    return [
        {"rank": rank, "score": round(hit.score, 6), **paper_to_dict(hit.paper),
         **({"matched": [{"source": m.source, "target": m.target}
                         for m in outcome.crossed[hit.id]]} if hit.id in outcome.crossed else {}),
         **({"close_in_meaning": True} if hit.id in outcome.close else {})}
        for rank, hit in enumerate(outcome.hits, start=1)
    ]
