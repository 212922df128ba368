"""What the summaries feature needs from storage (`storage/summaries/store.py`)."""

from __future__ import annotations

from typing import Protocol

from domain.summaries import Coverage, GeneratedSummary, SummaryJob, SummaryLang


class SummaryStore(Protocol):
    """Generated summaries, the claims on making them, and the tokens spent per day.

    Instants are `storage.times.stored` text; `owner` is a `bot.shared.leases` owner."""

    async def claim(self, lang: SummaryLang, owner: str, now: str, lease_until: str,
                    limit: int) -> list[SummaryJob]:
        """Up to `limit` papers, newest first, that need a summary in `lang` and that no live
        lease holds: each claimed for `owner` until `lease_until` (never two owners at once)."""
        ...

    async def candidates(self, lang: SummaryLang, now: str, limit: int) -> list[SummaryJob]:
        """Up to `limit` papers, newest first, that a claim in `lang` could take now (a read:
        nothing is claimed)."""
        ...

    async def keep(self, job: SummaryJob, owner: str, now: str) -> bool:
        """The summary made before stays (its text did not change): done again, if `owner`
        still holds the claim."""
        ...

    async def finish(self, job: SummaryJob, owner: str, summary: GeneratedSummary,
                     now: str) -> bool:
        """Store the summary if `owner` still holds the claim; whether it did."""
        ...

    async def retry(self, job: SummaryJob, owner: str, *, attempts: int, reason: str,
                    next_try: str | None, now: str) -> bool:
        """Give the claim back: waiting until `next_try`, or failed when that is None."""
        ...

    async def summaries_of(self, paper_ids: list[str]) -> dict[str, list[GeneratedSummary]]:
        """The finished summaries of these papers, by paper (papers without one left out)."""
        ...

    async def coverage(self) -> list[Coverage]:
        """Per language, how much of the catalog has a summary."""
        ...

    async def reserve_tokens(self, day: str, tokens: int, budget: int) -> bool:
        """Count `tokens` against `day` if the day's total stays within `budget`."""
        ...

    async def settle_tokens(self, day: str, reserved: int, used: int) -> None:
        """Replace a reservation by what the request used."""
        ...

    async def tokens_on(self, day: str) -> int:
        """Tokens counted against `day` (spent and reserved)."""
        ...
