"""Search: exact full-text first, then the query in the other language (`domain.crosslingual`),
then typo correction, then any-word, with "did you mean"; while the first page has room, the
papers nearest in meaning (`bot.features.meaning`), marked as such."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from bot.features.papers.fuzzy import Vocabulary
from bot.features.papers.overlay_search import merged
from bot.features.papers.results import UNFILTERED_CAP
from bot.features.papers.store import PaperStore
from bot.shared.ahead import ahead, drop
from bot.shared.server_view import ServerView, Shown, shown_by
from domain.catalog import SearchHit
from domain.crosslingual import Translation, cross_queries
from domain.paper import Paper
from domain.query import SearchQuery

if TYPE_CHECKING:  # numpy and the model stay unimported by a plain lexical search
    from bot.features.meaning.keeper import MeaningKeeper


class Strategy(StrEnum):
    """Which step of the search produced the hits."""

    EXACT = "exact"
    CROSS_LANGUAGE = "cross-language"
    CORRECTED = "corrected"
    ANY_WORD = "any-word"
    MEANING = "meaning"
    NONE = "none"


MEANING_ROOM = 10
"""Papers close in meaning join the first this many results (two pages of /paper), while
they have room."""


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """Hits best first, how they were found, and a suggestion when the query looked mistyped."""

    hits: list[SearchHit]
    strategy: Strategy
    did_you_mean: str | None = None
    unfiltered: int | None = None
    """With no hits under filters: how many papers the words alone find (at most
    `UNFILTERED_CAP` + 1)."""
    crossed: dict[str, tuple[Translation, ...]] = field(default_factory=dict)
    """The hits found only through the other language, by public id, with the terms read."""
    close: frozenset[str] = frozenset()
    """The hits found by meaning alone (after every lexical hit), by public id."""


@dataclass(frozen=True, slots=True)
class FirstAnswer:
    """A search answered in two steps (`SearchService.search_first`)."""

    outcome: SearchOutcome
    """The lexical tiers' outcome, to show at once."""
    later: Callable[[], Awaitable[SearchOutcome | None]] | None = None
    """The step adding the papers close in meaning (None: it would not run): the outcome
    with them, or None when none is close (the first outcome stands)."""


def _seen(hit: SearchHit, shown: Shown) -> SearchHit:
    """The hit with its paper, still built on first use, as the server sees it."""
    return SearchHit(hit.id, hit.score, lambda: shown(hit.paper))


def _kept(paper: Paper) -> Callable[[], Paper]:
    return lambda: paper


class SearchService:
    """The one search engine of paperclub, shared by the CLI, `/paper` and subscriptions."""

    def __init__(self, store: PaperStore, *, fuzzy_threshold: float = 75.0,
                 cross_language: bool = True, view: ServerView | None = None,
                 attach: Callable[[Sequence[str]], Awaitable[Shown]] | None = None,
                 meaning: MeaningKeeper | None = None) -> None:
        self._store = store
        self._attach = attach
        """What else a hit's paper carries when shown (the AI summaries made for it)."""
        self.meaning = meaning
        """The catalog's vectors (None: lexical search only)."""
        self._cross_language = cross_language
        """False: the query's own language only (the benchmark's baseline)."""
        self._view = view
        """Each server's corrections, applied to what a `guild_id` reader is given."""
        self._threshold = fuzzy_threshold
        self._vocabulary: Vocabulary | None = None
        self._vocabulary_version = -1
        self._refresh: asyncio.Task[None] | None = None
        self._check: asyncio.Task[None] | None = None

    async def prepare(self) -> None:
        """Start building the typo vocabulary (and warming the store's search up) in the
        background when it is missing or older than the catalog, and return at once: called at
        start and after every load or add, so the first typo search after a change finds it
        built (a build takes ~0.1 s at 100k)."""
        version = await self._store.catalog_version()
        if version != self._vocabulary_version:
            self._build(version)
        if self.meaning is not None:
            await self.meaning.prepare()

    async def vocabulary(self) -> Vocabulary:
        """The catalog's word list. Only a search before the very first build waits for it;
        otherwise the list at hand serves at once and whether the catalog changed (a load by
        another process) is checked after, in the background, starting a rebuild if so: the
        check cost a round trip on every typo search, and while a rebuild runs the previous
        list serves anyway."""
        if self._vocabulary is None:
            await asyncio.shield(self._build(await self._store.catalog_version()))
        elif self._check is None or self._check.done():
            self._check = asyncio.create_task(self.prepare())
        assert self._vocabulary is not None
        return self._vocabulary

    async def built(self) -> None:
        """Wait for the background check and build in flight, if any (tests and benchmarks)."""
        if self._check is not None:
            await asyncio.shield(self._check)
        if self._refresh is not None:
            await asyncio.shield(self._refresh)

    def _build(self, version: int) -> asyncio.Task[None]:
        """The background build in flight, or a new one for `version`."""
        if self._refresh is None or self._refresh.done():
            self._refresh = asyncio.create_task(self._rebuild(version))
        return self._refresh

    async def _rebuild(self, version: int) -> None:
        terms = await self._store.vocabulary()
        self._vocabulary = await asyncio.to_thread(Vocabulary, terms, self._threshold)
        self._vocabulary_version = version
        # after the vocabulary, which a failed warm-up must not hold back; after a load too,
        # which renames the tables (their compiled statements are then compiled again)
        await self._store.warm_up()

    async def close(self) -> None:
        """Stop a background check or rebuild, if one is running."""
        for task in (self._check, self._refresh):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self.meaning is not None:
            await self.meaning.close()

    async def paper(self, public_id: str, guild_id: int | None = None) -> Paper | None:
        """One paper by its public id (as the server `guild_id` sees it)."""
        paper = await self._store.get(public_id)
        return None if paper is None else (await self._shown(guild_id, [public_id]))(paper)

    async def _shown(self, guild_id: int | None, paper_ids: Sequence[str]) -> Shown:
        """The server's view of these papers (stored papers as they are outside a server)."""
        return await shown_by(self._view, guild_id, paper_ids)

    async def seen(self, guild_id: int | None, papers: Sequence[Paper]) -> list[Paper]:
        """Papers at hand as the server `guild_id` sees them (one read of corrections)."""
        shown = await self._shown(guild_id, [paper.id for paper in papers])
        return [shown(paper) for paper in papers]

    async def by_link(self, *, arxiv_id: str = "", doi: str = "",
                      guild_id: int | None = None) -> Paper | None:
        """One paper by its arXiv id (without version) or its DOI (as the server `guild_id`
        sees it)."""
        paper = await self._store.by_link(arxiv_id=arxiv_id, doi=doi)
        return None if paper is None else (await self._shown(guild_id, [paper.id]))(paper)

    async def count(self) -> int:
        """How many papers the catalog holds."""
        return await self._store.count()

    async def venue_names(self, text: str = "", limit: int = 25) -> list[str]:
        """Conference and workshop names containing `text`, for the `venue` option."""
        return await self._store.venue_names(text, limit)

    async def papers(self, public_ids: Sequence[str],
                     guild_id: int | None = None) -> list[Paper]:
        """Papers by public id, in that order, leaving out any no longer in the catalog (as
        the server `guild_id` sees them)."""
        found = [await self._store.get(public_id) for public_id in public_ids]
        shown = await self._shown(guild_id, public_ids)
        return [shown(paper) for paper in found if paper is not None]

    async def random(self, guild_id: int | None = None) -> Paper | None:
        """A random paper, or None for an empty catalog (as the server sees it)."""
        paper = await self._store.random()
        return None if paper is None else (await self._shown(guild_id, [paper.id]))(paper)

    async def search(
        self, query: SearchQuery, *, limit: int = 10, offset: int = 0,
        guild_id: int | None = None, papers: int | None = None, by_meaning: bool = False,
    ) -> SearchOutcome:
        """Run the query; fall back to corrected words, then to any word, when nothing matches.
        The hits' papers are as the server `guild_id` sees them, and its corrected papers are
        found by their corrected text, not by the words corrected away (`overlay_search`).
        `papers`: only the first that many hits need their paper (a result list's first
        page; the others' may be left unread, `domain.catalog.unread`); None: every hit's.
        `by_meaning`: papers close in meaning join the first page while it has room (the CLI
        and the web page; `/paper` through `search_first`; subscriptions and lookups stay
        lexical)."""
        outcome = await self._lexical(query, limit=limit, offset=offset, guild_id=guild_id,
                                      papers=papers)
        if by_meaning:
            outcome = await close_in_meaning(self, query, outcome, limit=limit, offset=offset,
                                             guild_id=guild_id)
        return await _attached(self._attach, outcome, papers)

    async def search_first(self, query: SearchQuery, *, limit: int = 10,
                           guild_id: int | None = None, papers: int | None = None
                           ) -> FirstAnswer:
        """`search(by_meaning=True)` in two steps, for an answer that is edited later
        (`/paper`): the lexical outcome now, and the step adding the papers close in meaning
        (`FirstAnswer.later`) only when it would run (the first page has room, nothing is
        filtered, the meaning keeper can answer). What `later` finds is exactly what
        `search(by_meaning=True)` would have answered."""
        lexical = await self._lexical(query, limit=limit, offset=0, guild_id=guild_id,
                                      papers=papers)
        outcome = await _attached(self._attach, lexical, papers)
        if meaning_room(self, query, lexical, limit=limit, offset=0) <= 0:
            return FirstAnswer(outcome)

        async def later() -> SearchOutcome | None:
            joined = await close_in_meaning(self, query, lexical, limit=limit, offset=0,
                                            guild_id=guild_id)
            return await _attached(self._attach, joined, papers) if joined.close else None

        return FirstAnswer(outcome, later)

    async def _lexical(self, query: SearchQuery, *, limit: int, offset: int,
                       guild_id: int | None, papers: int | None) -> SearchOutcome:
        """`search` by words alone, before anything is attached: the server's corrections
        applied."""
        if self._view is None or guild_id is None:
            return await self._search(query, limit=limit, offset=offset, papers=papers)
        reading = ahead(self._view.corrected(guild_id))  # its reads overlap the search's
        try:
            outcome = await self._search(query, limit=limit, offset=offset, papers=papers)
        except BaseException:
            drop(reading)
            raise
        corrected = {paper.id: paper for paper in await reading}
        if not corrected:
            return outcome
        if papers is not None and len(outcome.hits) > papers:  # merging reads every paper
            outcome = await self._search(query, limit=limit, offset=offset)
        if outcome.strategy in (Strategy.EXACT, Strategy.CROSS_LANGUAGE):
            hits, crossed = merged(outcome.hits, query, corrected, limit=limit,
                                   insert=offset == 0, crossed=outcome.crossed)
            return replace(outcome, hits=hits, crossed=crossed)
        # the index had no exact match: a corrected paper that matches is one (no fallback)
        exact, crossed = merged([], query, corrected, limit=limit, insert=offset == 0)
        if exact:
            same = any(hit.id not in crossed for hit in exact)
            return SearchOutcome(exact, Strategy.EXACT if same else Strategy.CROSS_LANGUAGE,
                                 crossed=crossed)
        # a typo-corrected or any-word page: the server's corrections shown, nothing moved
        return replace(outcome, hits=[_seen(hit, lambda p: corrected.get(p.id, p))
                                      for hit in outcome.hits])

    async def _search(self, query: SearchQuery, *, limit: int, offset: int,
                      papers: int | None = None) -> SearchOutcome:
        if query.is_empty():
            return SearchOutcome([], Strategy.NONE)
        wanted = max(0, limit) + max(0, offset)
        read = None if papers is None else max(0, offset) + max(0, papers)
        hits, crossed = await self.exact(query, limit=wanted, papers=read)
        page = hits[max(0, offset):wanted]
        if page or not (query.words or query.filters.author) or offset:
            same = any(hit.id not in crossed for hit in hits)
            strategy = Strategy.EXACT if same else Strategy.CROSS_LANGUAGE
            return SearchOutcome(page, strategy if page else Strategy.NONE,
                                 crossed={h.id: crossed[h.id] for h in page if h.id in crossed})
        vocabulary = await self.vocabulary()
        # the words and the author's names alike (`author:vardy` → `author:"vardi"`)
        corrected = replace(query.with_words(vocabulary.correct_words(query.words)),
                            filters=replace(query.filters,
                                            author=vocabulary.correct_words(query.filters.author)))
        did_you_mean = corrected.describe() if corrected != query else None
        if corrected != query:
            hits = await self._store.search(corrected, limit=limit, papers=papers)
            if hits:
                return SearchOutcome(hits, Strategy.CORRECTED, did_you_mean)
        if len(query.words) > 1:
            hits = await self._store.search(corrected, any_word=True, limit=limit,
                                            papers=papers)
            if hits:
                return SearchOutcome(hits, Strategy.ANY_WORD, did_you_mean)
        return SearchOutcome([], Strategy.NONE, did_you_mean, await self._unfiltered(query))

    async def exact(self, query: SearchQuery, *, limit: int, papers: int | None = None
                    ) -> tuple[list[SearchHit], dict[str, tuple[Translation, ...]]]:
        """The exact search's first `limit` hits: the query's own, then, while room is left,
        those of its spellings in the other language (`cross_queries`, an OR after every
        same-language tier, so an exact-title or same-language hit always ranks first), each
        with the terms translated to find it; the first `papers` with their papers read (a
        hit among the first `papers` of the whole list is among the first of its own
        search's)."""
        hits = await self._store.search(query, limit=limit, papers=papers)
        crossed: dict[str, tuple[Translation, ...]] = {}
        seen = {hit.id for hit in hits}
        tried = cross_queries(query) if self._cross_language and len(hits) < limit else []
        for cross in tried:
            for hit in await self._store.search(cross.query, limit=limit, papers=papers):
                if hit.id not in seen:
                    seen.add(hit.id)
                    hits.append(hit)
                    crossed[hit.id] = cross.translations
            if len(hits) >= limit:
                break
        return hits[:limit], crossed

    async def _unfiltered(self, query: SearchQuery) -> int | None:
        """How many papers the words find without the filters; None when nothing is filtered."""
        if query.filters.is_empty() or not query.words:
            return None
        bare = SearchQuery(words=query.words)
        return len(await self._store.search(bare, limit=UNFILTERED_CAP + 1, papers=0))


def meaning_room(search: SearchService, query: SearchQuery, outcome: SearchOutcome, *,
                 limit: int, offset: int) -> int:
    """How many papers close in meaning may join `outcome` (0: the step would not run): the
    room left in the first `MEANING_ROOM` after its firm hits (every lexical tier but
    any-word), for an unfiltered query with words, on the first page, when the meaning keeper
    can answer now (its vectors read and its query encoder loaded)."""
    firm = [] if outcome.strategy is Strategy.ANY_WORD else outcome.hits
    room = min(limit, MEANING_ROOM) - len(firm)
    if (search.meaning is None or offset or room <= 0 or not query.words
            or not query.filters.is_empty() or not search.meaning.answers()):
        return 0
    return room


async def _attached(attach: Callable[[Sequence[str]], Awaitable[Shown]] | None,
                    outcome: SearchOutcome, papers: int | None) -> SearchOutcome:
    """The outcome with what its first `papers` hits' papers carry when shown (`attach`: their
    AI summaries)."""
    if attach is None or not outcome.hits:
        return outcome
    shown = len(outcome.hits) if papers is None else min(papers, len(outcome.hits))
    attached = await attach([hit.id for hit in outcome.hits[:shown]])
    return replace(outcome, hits=[_seen(hit, attached) if at < shown else hit
                                  for at, hit in enumerate(outcome.hits)])


async def close_in_meaning(search: SearchService, query: SearchQuery, outcome: SearchOutcome,
                           *, limit: int, offset: int, guild_id: int | None) -> SearchOutcome:
    """`search`'s outcome with the papers nearest the query's words in meaning after its firm
    hits (every lexical tier but any-word), while the first `MEANING_ROOM` have room, and
    before any-word hits, which only share a word with the query (a filtered query stays
    lexical): none unless the nearest reaches the model's bar (`MeaningKeeper.close_to`)."""
    room = meaning_room(search, query, outcome, limit=limit, offset=offset)
    if room <= 0 or search.meaning is None:
        return outcome
    weak = outcome.strategy is Strategy.ANY_WORD
    firm = [] if weak else outcome.hits
    near = await search.meaning.close_to(" ".join(query.phrase or query.words), room,
                                         exclude=[hit.id for hit in firm])
    if not near:
        return outcome
    found = await search.papers([pid for pid, _ in near], guild_id)
    if not found:
        return outcome
    score, close = dict(near), frozenset(p.id for p in found)
    rest = [hit for hit in outcome.hits if hit.id not in close] if weak else []
    hits = [*firm, *(SearchHit(p.id, -score[p.id], _kept(p)) for p in found), *rest]
    return replace(outcome, hits=hits[:max(limit, len(firm))], close=close,
                   strategy=outcome.strategy if firm else Strategy.MEANING)
