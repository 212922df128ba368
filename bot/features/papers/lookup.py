"""Turning what a member typed into one catalog paper: the one resolver of every command that
takes a paper (`/paper`, `/suggest`, `/bookmark`, `/queue remove`, `/session schedule`,
`/corrections propose` and `history`, the CLI's `show` and `similar`).

What names a paper exactly: its paperclub id (what autocomplete sends), an arXiv id or link
(any version, old-style `math/0309136` too), a DOI or doi.org link, or its exact title (English
or Chinese, Traditional or Simplified). Anything else is searched, and the search decides only
when it is unambiguous: a single paper matching every word as typed. A corrected or any-word
match, or several matches, are choices for the member to pick from, never taken silently.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.features.papers.query import QueryError, parse_query
from bot.features.papers.results import titles_in_order
from bot.features.papers.search import SearchService, Strategy
from bot.shared.lang import Lang
from bot.shared.messages import Refusal, t
from domain.arxiv_ids import ArxivRef, find_arxiv_ids
from domain.paper import PAPER_ID_CHARS, Paper, paper_id
from domain.text import clean, fold_chinese, title_key

PAPER_ID = re.compile(rf"[0-9a-f]{{{PAPER_ID_CHARS}}}")
DOI = re.compile(r"(?:(?:https?://)?(?:dx\.)?doi\.org/|doi:\s*)?(10\.\d{4,9}/[^\s`]+)",
                 re.IGNORECASE)
ARXIV_DOI = re.compile(r"10\.48550/arxiv\.(\S+)", re.IGNORECASE)
"""arXiv's own DOIs (`10.48550/arXiv.2401.01234`) name an arXiv id."""
MAX_CHOICES = 5
"""Papers offered when a reference is ambiguous (one more is searched, to know it is)."""


class Via(StrEnum):
    """How a reference named its paper."""

    ID = "id"
    ARXIV = "arxiv"
    DOI = "doi"
    TITLE = "title"
    SEARCH = "search"
    """The only paper matching every word as typed: unambiguous, but found by a search."""


@dataclass(frozen=True, slots=True)
class Resolved:
    """What a reference names: one paper (and how), or the choices, or nothing.

    `identifier` is set when the text was an id, an arXiv id or a DOI: if no paper is found,
    the reference is not in the catalog, and no search is tried."""

    paper: Paper | None = None
    via: Via | None = None
    choices: tuple[Paper, ...] = ()
    identifier: str = ""


class PaperChoices(Refusal):
    """Several papers (or a guess) fit what was typed: the member picks one by its id."""

    def __init__(self, text: str, choices: Sequence[Paper]) -> None:
        self.choices = tuple(choices)
        super().__init__("lookup.choose", q=text[:100])

    def text(self, lang: Lang, escape: Callable[[str], str] = str) -> str:
        """The question and one line per paper (its title in `lang`, and its id)."""
        lines = [t(lang, self.key, q=escape(str(self.fields["q"])))]
        lines += [t(lang, "lookup.choice", id=p.id,
                    title=escape(titles_in_order(p, lang.chinese, lang)[0][:150]))
                  for p in self.choices]
        return "\n".join(lines)


def arxiv_reference(text: str) -> ArxivRef | None:
    """The arXiv id when the whole text is one (`2401.01234v2`, `arXiv: math/0309136`, an
    arxiv.org link, arXiv's DOI); None otherwise."""
    text = re.sub(r"^arxiv\s*:\s*", "arXiv:", text.strip(), flags=re.IGNORECASE)
    arxiv_doi = ARXIV_DOI.fullmatch(doi_reference(text))
    if arxiv_doi:
        text = arxiv_doi.group(1)
    if len(text.split()) != 1:
        return None
    scan = find_arxiv_ids(text)
    return scan.found[0] if len(scan.found) == 1 and not scan.malformed else None


def doi_reference(text: str) -> str:
    """The DOI when the whole text is one (`10.1000/xyz`, `doi:…`, a doi.org link), else ''."""
    match = DOI.fullmatch(text.strip())
    return match.group(1).rstrip(".,;") if match else ""


def names_by_identifier(text: str) -> bool:
    """Whether `text` is a paperclub id, an arXiv id or link, or a DOI: `identify` then
    answers without a search, found or not (pure: no read)."""
    text = clean(text)
    return bool(PAPER_ID.fullmatch(text.lower()) or arxiv_reference(text) is not None
                or doi_reference(text))


class PaperLookup:
    """Resolves a `paper:` option (see the module's docstring for the rules)."""

    def __init__(self, search: SearchService) -> None:
        self._search = search

    async def by_id(self, paper_id: str, guild_id: int | None = None) -> Paper | None:
        """A paper by its public id (as the server `guild_id` sees it)."""
        return await self._search.paper(paper_id, guild_id)

    async def identify(self, text: str, guild_id: int | None = None) -> Resolved:
        """The paper an id, arXiv id, DOI or exact English title names, without a search, as
        the server `guild_id` sees it (one read of the paper, one of its corrections)."""
        text = clean(text)
        if PAPER_ID.fullmatch(text.lower()):
            found = await self._search.paper(text.lower(), guild_id)
            return Resolved(found, Via.ID if found else None, identifier=text.lower())
        ref = arxiv_reference(text)
        if ref is not None:
            found = await self._search.by_link(arxiv_id=ref.id, guild_id=guild_id)
            return Resolved(found, Via.ARXIV if found else None, identifier=ref.versioned)
        doi = doi_reference(text)
        if doi:
            found = await self._search.by_link(doi=doi, guild_id=guild_id)
            return Resolved(found, Via.DOI if found else None, identifier=doi)
        key = title_key(text)
        found = await self._search.paper(paper_id(key), guild_id) if key else None
        if found is not None and found.key == key:
            return Resolved(found, Via.TITLE)
        return Resolved()

    async def lookup(self, text: str, guild_id: int | None = None) -> Resolved:
        """`identify`, else a search: its only exact match, or up to `MAX_CHOICES` choices
        (as the server `guild_id` sees them)."""
        named = await self.identify(text, guild_id)
        if named.paper is not None or named.identifier:
            return named
        try:
            query = parse_query(text)
        except QueryError:
            return Resolved()
        if query.is_empty():
            return Resolved()
        outcome = await self._search.search(query, limit=MAX_CHOICES + 1, guild_id=guild_id)
        papers = [hit.paper for hit in outcome.hits]
        titled = _same_title(papers, text)
        if titled is not None:
            return Resolved(titled, Via.TITLE)
        if len(papers) == 1 and outcome.strategy is Strategy.EXACT:
            return Resolved(papers[0], Via.SEARCH)
        return Resolved(choices=tuple(papers[:MAX_CHOICES]))

    async def resolve(self, text: str, guild_id: int | None = None) -> Paper | None:
        """The paper `text` names exactly or unambiguously (as the server `guild_id` sees
        it); None when nothing matches.
        `PaperChoices` when several papers (or only a corrected guess) match; a `Refusal` for
        an id, arXiv id or DOI that is not in the catalog."""
        found = await self.lookup(text, guild_id)
        if found.choices:
            raise PaperChoices(text, found.choices)
        if found.paper is None and found.identifier:
            raise Refusal("lookup.not_in_catalog", ref=found.identifier[:100])
        return found.paper

    async def named(self, text: str, guild_id: int | None = None) -> Paper:
        """`resolve`, and a `Refusal` when nothing matches (the answer of every option that
        names a paper)."""
        found = await self.resolve(text, guild_id)
        if found is None:
            raise Refusal("group.no_paper", q=text[:100])
        return found

    async def many(self, paper_ids: list[str], guild_id: int | None = None) -> dict[str, Paper]:
        """The papers still in the catalog among these ids (as the server `guild_id` sees
        them: one read of their corrections)."""
        papers = await self._search.papers(list(dict.fromkeys(paper_ids)), guild_id)
        return {paper.id: paper for paper in papers}


def _same_title(papers: Sequence[Paper], text: str) -> Paper | None:
    """The one paper whose English or Chinese title is `text` (Chinese in either script)."""
    key = title_key(fold_chinese(text))
    same = [p for p in papers if key and key in (title_key(p.title_en),
                                                  title_key(fold_chinese(p.title_zh)))]
    return same[0] if len(same) == 1 else None
