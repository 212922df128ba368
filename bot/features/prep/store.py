"""What prep sheets need from storage (`storage/prep/store.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from domain.prep import PrepSheet


class PrepStore(Protocol):
    """Each session's prep sheet: its generation, claimed and leased, and its one post."""

    async def get(self, session_id: int) -> PrepSheet | None:
        """The session's sheet, if any work on it began."""
        ...

    async def claim_generation(self, session_id: int, owner: str, now: datetime,
                               lease_until: datetime) -> PrepSheet | None:
        """Claim generating the sheet for `owner` until `lease_until`: a new sheet, one waiting
        past its next try, or one whose claim's lease ran out; None otherwise."""
        ...

    async def ready(self, session_id: int, owner: str, questions: Sequence[str], *,
                    lang: str, model: str, now: datetime) -> bool:
        """Store the questions if `owner` still holds the claim; whether it did."""
        ...

    async def retry(self, session_id: int, owner: str, *, attempts: int, reason: str,
                    next_try: datetime | None, now: datetime) -> bool:
        """Give the claim back: waiting until `next_try`, or failed when that is None."""
        ...

    async def claim_post(self, session_id: int, nonce: str, owner: str, now: datetime,
                         lease_until: datetime) -> PrepSheet | None:
        """Claim posting a ready sheet with `nonce` (or take over a posting claim whose lease
        ran out, `resumed`, keeping its first nonce), leased to `owner`; None when there is
        nothing this owner may post."""
        ...

    async def hold_post(self, session_id: int, owner: str, now: datetime,
                        lease_until: datetime) -> bool:
        """Renew (or take over a lapsed) posting claim; False once it is another's or done."""
        ...

    async def finish_post(self, session_id: int, owner: str, *, message_id: int | None,
                          reason: str, now: datetime) -> bool:
        """Record the post (its message), or that it failed (`message_id` None, with why)."""
        ...
