"""Adding papers by arXiv id or link: who may add in a server, and what an add did (plain data)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from domain.arxiv_ids import IdProblem
from domain.paper import Paper


class WhoAdds(StrEnum):
    """Who may add papers to the catalog from a server."""

    ANYONE = "anyone"
    """Every member."""
    CURATORS = "curators"
    """Manage Server, and members of the curator role when one is set (the default)."""
    MANAGERS = "managers"
    """Manage Server only, even when a curator role is set."""


@dataclass(frozen=True, slots=True)
class AddPolicy:
    """A server's rule for adding papers (defaults when never set)."""

    who: WhoAdds = WhoAdds.CURATORS
    curator_role_id: int | None = None

    def allows(self, *, manage_guild: bool, role_ids: Iterable[int]) -> bool:
        """Whether a member with these permissions and roles may add papers."""
        if self.who is WhoAdds.ANYONE or manage_guild:
            return True
        return (self.who is WhoAdds.CURATORS and self.curator_role_id is not None
                and self.curator_role_id in set(role_ids))

    @property
    def curators(self) -> int | None:
        """The role whose members may add besides Manage Server (None: nobody else)."""
        return self.curator_role_id if self.who is WhoAdds.CURATORS else None


class AddedStatus(StrEnum):
    """What asking for one id did."""

    ADDED = "added"
    UPDATED = "updated"
    FILLED = "filled"
    UNCHANGED = "unchanged"
    CONFLICT = "conflict"
    """Another arXiv paper already holds this title."""
    NOT_FOUND = "not_found"
    """arXiv does not know the id."""
    MALFORMED = "malformed"
    """Not a valid arXiv id (the text as written, and why)."""


IN_CATALOG = frozenset({AddedStatus.ADDED, AddedStatus.UPDATED, AddedStatus.FILLED,
                        AddedStatus.UNCHANGED, AddedStatus.CONFLICT})
"""Statuses that come with a paper in the catalog (for CONFLICT, the one holding the title)."""


@dataclass(frozen=True, slots=True)
class AddedItem:
    """One id or candidate from the text: what happened to it.

    `text` is the id (`2401.01234v2`) or, when malformed, the candidate as written; `paper` is
    set for the statuses in `IN_CATALOG`; `problem` for MALFORMED."""

    text: str
    status: AddedStatus
    paper: Paper | None = None
    problem: IdProblem | None = None


class ArxivTrouble(StrEnum):
    """Why nothing could be fetched."""

    BUSY = "busy"
    """arXiv kept throttling or could not be reached: try in a minute."""
    REJECTED = "rejected"
    """arXiv refused the request (400); `AddReport.reason` has its words."""


@dataclass(frozen=True, slots=True)
class AddReport:
    """Everything one request to add papers did, in the order the ids appeared."""

    items: tuple[AddedItem, ...] = ()
    trouble: ArxivTrouble | None = None
    reason: str = ""
    """arXiv's own words when it REJECTED the request."""
    unfetched: tuple[str, ...] = ()
    """The valid ids not fetched because of `trouble`."""

    @property
    def papers(self) -> list[Paper]:
        """The papers now in the catalog for the ids asked, in order, without repeats."""
        seen: dict[str, Paper] = {}
        for item in self.items:
            if item.paper is not None:
                seen.setdefault(item.paper.id, item.paper)
        return list(seen.values())

    @property
    def nothing_found(self) -> bool:
        """The text held no arXiv id or link at all."""
        return not self.items and not self.unfetched and self.trouble is None
