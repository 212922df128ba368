"""Terminal rendering of papers and catalog facts for the command line (rich)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from bot.core.catalog_types import CatalogStats
from bot.core.models import Paper
from bot.core.records import paper_to_dict
from bot.services.search import SearchOutcome


def search_table(outcome: SearchOutcome) -> Table:
    """Results best first: rank, id, title (both languages), authors, venue."""
    table = Table(show_lines=False, expand=False)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("id", no_wrap=True, style="cyan")
    table.add_column("title")
    table.add_column("authors")
    table.add_column("venue")
    for rank, hit in enumerate(outcome.hits, start=1):
        paper = hit.paper
        authors = ", ".join(paper.authors[:3]) + (" et al." if len(paper.authors) > 3 else "")
        table.add_row(
            str(rank),
            paper.id,
            f"{paper.title_en}\n[dim]{paper.title_zh}[/dim]",
            authors,
            paper.venue.badge(),
        )
    return table


def print_paper(console: Console, paper: Paper) -> None:
    """The full record, both languages."""
    venue = paper.venue
    console.print(f"[bold]{paper.title_en}[/bold]")
    console.print(paper.title_zh)
    console.print(f"[dim]id {paper.id}[/dim]\n")
    console.print(f"[bold]Authors 作者[/bold]  {', '.join(paper.authors)}")
    if paper.affiliations:
        console.print("[bold]Affiliations 机构[/bold]")
        for aff in paper.affiliations:
            console.print(f"  • {aff.en}" + (f"（{aff.zh}）" if aff.zh else ""))
    if venue.badge():
        console.print(f"[bold]Venue 会议[/bold]  {venue.badge()}")
    if venue.length():
        console.print(f"[bold]Length 篇幅[/bold]  {venue.length()}")
    if paper.summary_zh:
        console.print(f"\n[bold]AI总结[/bold]\n{paper.summary_zh}\n")
    if paper.comments:
        console.print(f"[bold]Comments[/bold]  {paper.comments}")
    if paper.journal_ref:
        console.print(f"[bold]Journal ref[/bold]  {paper.journal_ref}")


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
    """Search results as JSON-ready records, best first."""
    return [
        {"rank": rank, "score": round(hit.score, 6), **paper_to_dict(hit.paper)}
        for rank, hit in enumerate(outcome.hits, start=1)
    ]
