"""AI summaries and the work of making them, written once over `storage.db` for both backends.

A claim is one conditional upsert per paper: it takes a row only while no live lease holds it
(waiting past its next try, done or failed for text since changed, or claimed by a lease that
ran out), so two processes never hold the same paper; the candidates are read first, outside the
write transaction, newest first."""

from __future__ import annotations

from domain.summaries import (
    PROMPT_VERSION,
    Coverage,
    GeneratedSummary,
    SummaryJob,
    SummaryLang,
)
from storage.db import Row, Store

_CLAIMABLE = (
    "({s}.status IN ('done', 'failed') AND {s}.content_hash <> {hash})"
    " OR ({s}.status = 'waiting' AND {s}.next_try <= {now})"
    " OR ({s}.status = 'claimed' AND {s}.lease_until <= {now})")
"""A row another claim may take: its text changed, its next try is due, or its lease ran out."""


def _wanted(lang: SummaryLang) -> str:
    """Papers that want a summary in `lang` (`domain.summaries.wanted`): in English every paper
    with text, in Chinese those without the catalog's own Chinese summary."""
    some_text = "(p.summary_en <> '' OR p.summary_zh <> '')"
    return some_text if lang is SummaryLang.EN else f"p.summary_zh = '' AND {some_text}"


class SummaryStore(Store):
    """Rows of `paper_summaries` and `llm_usage`."""

    async def candidates(self, lang: SummaryLang, now: str, limit: int) -> list[SummaryJob]:
        return [_job(row, lang) for row in await self._candidates(lang, now, limit)]

    async def _candidates(self, lang: SummaryLang, now: str, limit: int) -> list[Row]:
        return await self._db.fetch(
            "SELECT p.public_id, p.content_hash, p.title_en, p.title_zh, p.summary_en, "
            "p.summary_zh, s.attempts, s.source_hash, s.status, s.content_hash "
            "FROM papers p LEFT JOIN paper_summaries s "
            "ON s.paper_id = p.public_id AND s.lang = $1 "
            f"WHERE {_wanted(lang)} AND (s.paper_id IS NULL OR "
            + _CLAIMABLE.format(s="s", hash="p.content_hash", now="$2")
            + ") ORDER BY p.added_at DESC, p.id DESC LIMIT $3", str(lang), now, limit)

    async def claim(self, lang: SummaryLang, owner: str, now: str, lease_until: str,
                    limit: int) -> list[SummaryJob]:
        rows = await self._candidates(lang, now, limit)
        claimed: list[SummaryJob] = []
        async with self._db.transaction() as tx:
            for row in rows:
                taken = await tx.execute(
                    "INSERT INTO paper_summaries (paper_id, lang, status, content_hash, owner, "
                    "lease_until, updated_at) VALUES ($1, $2, 'claimed', $3, $4, $5, $6) "
                    "ON CONFLICT (paper_id, lang) DO UPDATE SET status = 'claimed', "
                    "owner = excluded.owner, lease_until = excluded.lease_until, "
                    "updated_at = excluded.updated_at WHERE "
                    + _CLAIMABLE.format(s="paper_summaries", hash="excluded.content_hash",
                                        now="$6"),
                    row[0], str(lang), row[1], owner, lease_until, now)
                if taken:
                    claimed.append(_job(row, lang))
        return claimed

    async def finish(self, job: SummaryJob, owner: str, summary: GeneratedSummary,
                     now: str) -> bool:
        return bool(await self._db.execute(
            "UPDATE paper_summaries SET status = 'done', summary = $1, model = $2, "
            "prompt_version = $3, source_hash = $4, content_hash = $5, attempts = $6, "
            "reason = '', owner = NULL, lease_until = NULL, next_try = NULL, updated_at = $7 "
            "WHERE paper_id = $8 AND lang = $9 AND owner = $10 AND status = 'claimed'",
            summary.text, summary.model, PROMPT_VERSION, summary.source_hash, job.content_hash,
            job.attempts, now, job.paper_id, str(job.lang), owner))

    async def keep(self, job: SummaryJob, owner: str, now: str) -> bool:
        return bool(await self._db.execute(
            "UPDATE paper_summaries SET status = 'done', content_hash = $1, owner = NULL, "
            "lease_until = NULL, updated_at = $2 WHERE paper_id = $3 AND lang = $4 "
            "AND owner = $5 AND status = 'claimed'",
            job.content_hash, now, job.paper_id, str(job.lang), owner))

    async def retry(self, job: SummaryJob, owner: str, *, attempts: int, reason: str,
                    next_try: str | None, now: str) -> bool:
        return bool(await self._db.execute(
            "UPDATE paper_summaries SET status = $1, attempts = $2, reason = $3, "
            "next_try = $4, content_hash = $5, owner = NULL, lease_until = NULL, "
            "updated_at = $6 WHERE paper_id = $7 AND lang = $8 AND owner = $9 "
            "AND status = 'claimed'",
            "failed" if next_try is None else "waiting", attempts, reason, next_try,
            job.content_hash, now, job.paper_id, str(job.lang), owner))

    async def summaries_of(self, paper_ids: list[str]) -> dict[str, list[GeneratedSummary]]:
        dialect = self._db.dialect
        rows = await self._db.fetch(
            "SELECT paper_id, lang, summary, model, source_hash FROM paper_summaries "
            f"WHERE paper_id {dialect.in_array('$1')} AND status = 'done' ORDER BY 1, 2",
            dialect.array(paper_ids))
        found: dict[str, list[GeneratedSummary]] = {}
        for row in rows:
            if row[1] in SummaryLang._value2member_map_:
                found.setdefault(str(row[0]), []).append(GeneratedSummary(
                    SummaryLang(row[1]), str(row[2]), str(row[3]), str(row[4])))
        return found

    async def coverage(self) -> list[Coverage]:
        found = []
        for lang in SummaryLang:
            wanted = await self._db.fetch_value(
                f"SELECT COUNT(*) FROM papers p WHERE {_wanted(lang)}")
            counts: dict[str, int] = {str(row[0]): int(row[1]) for row in await self._db.fetch(
                "SELECT s.status, COUNT(*) FROM paper_summaries s JOIN papers p "
                f"ON p.public_id = s.paper_id WHERE s.lang = $1 AND {_wanted(lang)} "
                "GROUP BY s.status", str(lang))}
            found.append(Coverage(lang, int(wanted or 0), int(counts.get("done", 0)),
                                  int(counts.get("failed", 0))))
        return found

    async def reserve_tokens(self, day: str, tokens: int, budget: int) -> bool:
        async with self._db.transaction() as tx:
            await tx.lock("llm_usage")
            await tx.execute("INSERT INTO llm_usage (day, tokens, requests) VALUES ($1, 0, 0) "
                             "ON CONFLICT (day) DO NOTHING", day)
            return bool(await tx.execute(
                "UPDATE llm_usage SET tokens = tokens + $2, requests = requests + 1 "
                "WHERE day = $1 AND tokens + $2 <= $3", day, tokens, budget))

    async def settle_tokens(self, day: str, reserved: int, used: int) -> None:
        await self._db.execute("UPDATE llm_usage SET tokens = tokens - $2 + $3 WHERE day = $1",
                               day, reserved, used)

    async def tokens_on(self, day: str) -> int:
        value = await self._db.fetch_value("SELECT tokens FROM llm_usage WHERE day = $1", day)
        return int(value or 0)


def _job(row: Row, lang: SummaryLang) -> SummaryJob:
    """A claimed paper; its attempts start again when its text changed since the last try."""
    same_text = row[9] is not None and row[9] == row[1]
    return SummaryJob(
        paper_id=str(row[0]), lang=lang, content_hash=str(row[1]), title_en=str(row[2]),
        title_zh=str(row[3]), abstract_en=str(row[4]), abstract_zh=str(row[5]),
        attempts=int(row[6] or 0) if same_text else 0, previous_hash=str(row[7] or ""),
        previous_done=row[8] == "done")
