"""`/export` and `paperclub export`: the catalog (or a selection of it), a server's history,
queue or a member's reading list as a BibTeX or Markdown file (a server's cut to fit a size
limit)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.features.export.formats import (
    ExportEntry,
    ExportFormat,
    ExportText,
    ExportWhat,
    bibtex,
    fit_export,
)
from bot.features.export.markdown import MarkdownLabels, markdown
from bot.features.papers.card import generated_label, reader_summary
from bot.features.papers.lookup import PAPER_ID, PaperLookup
from bot.features.papers.query import parse_query
from bot.features.papers.results import titles_in_order
from bot.features.papers.search import SearchOutcome, SearchService
from bot.features.queue.service import QueueService
from bot.features.reading.bookmarks import BookmarkService
from bot.features.reading.history import HistoryService
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.paper import Paper

NameOf = Callable[[int | None], Awaitable[str]]
"""A member's display name from their id (None: a member who asked to be forgotten)."""


def thread_link(guild_id: int, thread_id: int | None) -> str | None:
    """The discussion thread's Discord link."""
    return None if thread_id is None else f"https://discord.com/channels/{guild_id}/{thread_id}"


@dataclass(frozen=True, slots=True)
class ExportFile:
    """The export's file name and text (with how many entries it holds of how many)."""

    filename: str
    content: ExportText


class ExportService:
    """Collects the records, then formats them (pure code in `bot.features.export.formats`)."""

    def __init__(self, history: HistoryService, queue: QueueService,
                 bookmarks: BookmarkService) -> None:
        self._history = history
        self._queue = queue
        self._bookmarks = bookmarks

    async def entries(self, guild_id: int, what: ExportWhat, *, user_id: int | None,
                      name_of: NameOf) -> list[ExportEntry]:
        """The records to export, in the order the matching command lists them."""
        if what is ExportWhat.HISTORY:
            return [ExportEntry(h.discussed.paper_id, h.paper, h.discussed.when,
                                presenter=await name_of(h.discussed.presenter_id)
                                if h.discussed.presenter_id is not None else None,
                                notes=(h.discussed.notes,) if h.discussed.notes else (),
                                link=thread_link(guild_id, h.discussed.thread_id))
                    for h in await self._history.entries(guild_id)]
        if what is ExportWhat.QUEUE:
            return [ExportEntry(q.item.paper_id, q.paper, q.item.suggested_at,
                                notes=tuple([f"{await name_of(s.user_id)}: {s.note}"
                                             for s in q.item.supporters if s.note]))
                    for q in await self._queue.entries(guild_id)]
        if user_id is None:
            raise ValueError("a reading list needs the member's id")
        return [m.exported() for m in await self._bookmarks.of_member(guild_id, user_id)]

    async def export(self, guild_id: int, what: ExportWhat, fmt: ExportFormat, lang: Lang, *,
                     user_id: int | None, name_of: NameOf, limit_bytes: int) -> ExportFile:
        """The file, cut to the longest prefix that fits in `limit_bytes`."""
        entries = await self.entries(guild_id, what, user_id=user_id, name_of=name_of)
        render = (bibtex if fmt is ExportFormat.BIBTEX
                  else _markdown_renderer(what, lang))
        return ExportFile(f"paperclub-{what}-{guild_id}{fmt.suffix}",
                          fit_export(entries, render, limit_bytes))


HEADINGS = {ExportWhat.HISTORY: "export.md.heading_history",
            ExportWhat.QUEUE: "export.md.heading_queue",
            ExportWhat.BOOKMARKS: "export.md.heading_bookmarks"}
DATED = {ExportWhat.HISTORY: "export.md.discussed", ExportWhat.QUEUE: "export.md.suggested",
         ExportWhat.BOOKMARKS: "export.md.bookmarked"}


def _markdown_renderer(what: ExportWhat, lang: Lang) -> Callable[[Sequence[ExportEntry]], str]:
    def dated(entry: ExportEntry) -> str:
        if entry.when is None:
            return ""
        day = f"{entry.when:%Y-%m-%d}"
        if entry.presenter:
            return t(lang, "export.md.presented", date=day, presenter=entry.presenter)
        return t(lang, DATED[what], date=day)

    def title_of(paper: Paper) -> str:
        return titles_in_order(paper, lang.chinese, lang)[0]

    labels = MarkdownLabels(heading=t(lang, HEADINGS[what]), dated=dated,
                            thread=t(lang, "export.md.thread"), gone=t(lang, "export.md.gone"))
    return lambda entries: markdown(entries, labels, title_of)


CATALOG_HEADING = "Reading list"


def catalog_text(papers: Sequence[Paper], fmt: ExportFormat, heading: str = CATALOG_HEADING,
                 ) -> str:
    """Catalog papers as BibTeX, or as a Markdown reading list in English (title linked to
    its page, authors, venue, the abstract's first sentence or else the Chinese summary's)."""
    entries = [ExportEntry(paper.id, paper) for paper in papers]
    if fmt is ExportFormat.BIBTEX:
        return bibtex(entries)
    labels = MarkdownLabels(heading=heading, dated=lambda _: "", thread="", gone="",
                            summary_of=_english_summary)
    return markdown(entries, labels, lambda paper: paper.title_en)


def _english_summary(paper: Paper) -> str:
    """The abstract, else an English summary generated here (labelled so), else the Chinese
    summary."""
    if paper.summary_en:
        return paper.summary_en
    text, made = reader_summary(paper, Lang.EN)
    if made is not None:
        return f"{generated_label(made, Lang.EN)}: {text}"
    return paper.summary_zh


@dataclass(frozen=True, slots=True)
class Selection:
    """Catalog papers chosen by id or by a search, in that order or best first."""

    papers: list[Paper]
    missing: list[str]
    """Asked-for ids that are not in the catalog."""
    outcome: SearchOutcome | None = None
    """How the search went (for `--query`)."""


async def select_by_ids(search: SearchService, ids: Sequence[str]) -> Selection:
    """The papers these references name exactly (a public id in any case, an arXiv id or link,
    a DOI, an exact title: `PaperLookup.identify`), each once, in order; never a search."""
    lookup = PaperLookup(search)
    papers: dict[str, Paper] = {}
    missing: list[str] = []
    for reference in dict.fromkeys(i.strip() for i in ids if i.strip()):
        named = (await lookup.identify(reference)).paper
        if named is None:
            missing.append(reference.lower() if PAPER_ID.fullmatch(reference.lower())
                           else reference)
        else:
            papers.setdefault(named.id, named)
    return Selection(list(papers.values()), missing)


async def select_by_query(search: SearchService, text: str, limit: int) -> Selection:
    """The papers `/paper` finds for `text` (same parser and search), best first."""
    outcome = await search.search(parse_query(text), limit=limit)
    return Selection([hit.paper for hit in outcome.hits], [], outcome)
