"""`pick:recommended`: the paper of the day is the group's best paper it has not seen.

The group profile of the recommend service ranks the catalog (everyone's signals, discussed
and voted papers weighted most; every paper someone signalled is already seen), leaving out
every paper ever posted as the paper of the day and those the server's settings exclude. Of
its best `CANDIDATES`, a recency prior picks: a paper's score gains `RECENCY_WEIGHT` (in the
model's standardised units) times 2^(-age / `HALF_LIFE_DAYS`), its age counted from its first
arXiv version (else 1 July of its venue's year; no date, no gain) to the day being posted.
Ties go to the smaller paper id, so the same state on the same day gives the same paper. With
no liked paper in the group, or nothing left to recommend, the cycle picks instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from bot.features.papers.store import PaperStore
from bot.features.recommend.model import Pick
from domain.paper import Paper

CANDIDATES = 50
"""How many of the model's best papers the recency prior re-ranks."""
RECENCY_WEIGHT = 1.0
HALF_LIFE_DAYS = 90.0


class GroupRanker(Protocol):
    """What the digest asks of the recommend service."""

    async def group_liked(self, guild_id: int) -> int:
        """How many papers the group likes."""
        ...

    async def group_picks(self, guild_id: int, *, exclude: Iterable[str],
                          limit: int) -> list[Pick]:
        """The group's best unseen papers, leaving out `exclude` too."""
        ...


@dataclass(frozen=True, slots=True)
class Recommendation:
    """The paper picked and the group's liked paper its reason names."""

    paper_id: str
    like: str | None
    score: float


def published_on(paper: Paper) -> date | None:
    """When a paper came out: its first arXiv version, else mid-year of its venue's year."""
    if paper.links.published is not None:
        return paper.links.published.date()
    return date(paper.venue.year, 7, 1) if paper.venue.year else None


def freshness(published: date | None, day: date) -> float:
    """1 for a paper out on `day`, halving every `HALF_LIFE_DAYS`; 0 without a date."""
    if published is None:
        return 0.0
    age = max(0, (day - published).days)
    return float(0.5 ** (age / HALF_LIFE_DAYS))


def ranked(candidates: Sequence[tuple[Pick, date | None]], day: date) -> list[Recommendation]:
    """The candidates by score plus recency prior, best first (ties: the smaller id)."""
    scored = sorted((-(pick.score + RECENCY_WEIGHT * freshness(published, day)), pick.paper_id,
                     pick.like) for pick, published in candidates)
    return [Recommendation(pid, like, round(-total, 6)) for total, pid, like in scored]


def best(candidates: Sequence[tuple[Pick, date | None]], day: date) -> Recommendation | None:
    """The candidate `ranked` puts first, None without candidates."""
    order = ranked(candidates, day)
    return order[0] if order else None


class RecommendedPicker:
    """Picks the group's paper of the day, or None when the cycle must pick."""

    def __init__(self, ranker: GroupRanker, papers: PaperStore) -> None:
        self.ranker = ranker
        self.papers = papers

    async def has_signals(self, guild_id: int) -> bool:
        """Whether the group likes any paper yet (else the cycle picks)."""
        return await self.ranker.group_liked(guild_id) > 0

    async def pick(self, guild_id: int, eligible: Iterable[str], posted: Iterable[str],
                   day: date) -> Recommendation | None:
        """The best eligible paper never posted here, for `day`."""
        allowed = set(eligible) - set(posted)
        if not allowed:
            return None
        exclude = set(await self.papers.paper_ids()) - allowed
        picks = await self.ranker.group_picks(guild_id, exclude=sorted(exclude),
                                              limit=CANDIDATES)
        found = [(pick, published_on(paper)) for pick in picks if pick.paper_id in allowed
                 and (paper := await self.papers.get(pick.paper_id)) is not None]
        return best(found, day)
