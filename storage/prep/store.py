"""Prep sheets, written once over `storage.db` for both backends.

Each step is one conditional statement on the session's one row, so two processes never hold
the same sheet: generation is claimed by an upsert that takes the row only while no live lease
holds it (new, waiting past its next try, or claimed by a lease that ran out); posting is
claimed from `ready`, or taken over from a `posting` claim whose lease ran out (then the post
is searched for before it is sent again)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from domain.prep import PrepSheet, PrepStatus
from storage.db import Row, Store
from storage.times import loaded, stored

_COLUMNS = ("session_id, status, questions, lang, attempts, nonce, message_id, reason, "
            "post_claimed_at, model")
_LAPSED = "(owner IS NULL OR owner = $2 OR lease_until IS NULL OR lease_until <= $3)"
"""Held by nobody, by `$2` already, or by a lease that ran out at `$3`."""


class PrepStore(Store):
    """Rows of `session_prep_sheets`. Instants are datetimes, stored as sortable UTC text."""

    async def get(self, session_id: int) -> PrepSheet | None:
        row = await self._db.fetch_one(
            f"SELECT {_COLUMNS} FROM session_prep_sheets WHERE session_id = $1", session_id)
        return _sheet(row) if row else None

    async def claim_generation(self, session_id: int, owner: str, now: datetime,
                               lease_until: datetime) -> PrepSheet | None:
        row = await self._db.returning_one(
            "INSERT INTO session_prep_sheets (session_id, status, owner, lease_until, "
            "updated_at) VALUES ($1, 'claimed', $2, $3, $4) ON CONFLICT (session_id) "
            "DO UPDATE SET status = 'claimed', owner = excluded.owner, "
            "lease_until = excluded.lease_until, updated_at = excluded.updated_at "
            "WHERE (session_prep_sheets.status = 'waiting' "
            "AND session_prep_sheets.next_try <= $4) OR (session_prep_sheets.status = "
            "'claimed' AND session_prep_sheets.lease_until <= $4) "
            f"RETURNING {_COLUMNS}", session_id, owner, stored(lease_until), stored(now))
        return _sheet(row) if row else None

    async def ready(self, session_id: int, owner: str, questions: Sequence[str], *,
                    lang: str, model: str, now: datetime) -> bool:
        return bool(await self._db.execute(
            "UPDATE session_prep_sheets SET status = 'ready', questions = $3, lang = $4, "
            "model = $5, reason = '', owner = NULL, lease_until = NULL, next_try = NULL, "
            "updated_at = $6 WHERE session_id = $1 AND owner = $2 AND status = 'claimed'",
            session_id, owner, "\n".join(questions), lang, model, stored(now)))

    async def retry(self, session_id: int, owner: str, *, attempts: int, reason: str,
                    next_try: datetime | None, now: datetime) -> bool:
        return bool(await self._db.execute(
            "UPDATE session_prep_sheets SET status = $3, attempts = $4, reason = $5, "
            "next_try = $6, owner = NULL, lease_until = NULL, updated_at = $7 "
            "WHERE session_id = $1 AND owner = $2 AND status = 'claimed'",
            session_id, owner, "failed" if next_try is None else "waiting", attempts, reason,
            None if next_try is None else stored(next_try), stored(now)))

    async def claim_post(self, session_id: int, nonce: str, owner: str, now: datetime,
                         lease_until: datetime) -> PrepSheet | None:
        async with self._db.transaction() as tx:
            row = await tx.fetch_one(
                f"SELECT {_COLUMNS} FROM session_prep_sheets WHERE session_id = $1"
                + self._db.dialect.lock_rows(), session_id)
            if row is None or row[1] not in ("ready", "posting"):
                return None
            taken = await tx.execute(
                "UPDATE session_prep_sheets SET status = 'posting', "
                "nonce = COALESCE(NULLIF(nonce, ''), $4), owner = $2, "
                "lease_until = $5, post_claimed_at = COALESCE(post_claimed_at, $3), "
                "updated_at = $3 WHERE session_id = $1 AND (status = 'ready' OR "
                f"(status = 'posting' AND {_LAPSED}))",
                session_id, owner, stored(now), nonce, stored(lease_until))
            if not taken:
                return None
            again = await tx.fetch_one(
                f"SELECT {_COLUMNS} FROM session_prep_sheets WHERE session_id = $1",
                session_id)
        assert again is not None
        return _sheet(again, resumed=row[1] == "posting")

    async def hold_post(self, session_id: int, owner: str, now: datetime,
                        lease_until: datetime) -> bool:
        return bool(await self._db.execute(
            "UPDATE session_prep_sheets SET owner = $2, lease_until = $4 WHERE session_id = $1 "
            f"AND status = 'posting' AND {_LAPSED}",
            session_id, owner, stored(now), stored(lease_until)))

    async def finish_post(self, session_id: int, owner: str, *, message_id: int | None,
                          reason: str, now: datetime) -> bool:
        return bool(await self._db.execute(
            "UPDATE session_prep_sheets SET status = $3, message_id = $4, reason = $5, "
            "owner = NULL, lease_until = NULL, updated_at = $6 WHERE session_id = $1 "
            "AND owner = $2 AND status = 'posting'",
            session_id, owner, "posted" if message_id is not None else "failed", message_id,
            reason, stored(now)))


def _sheet(row: Row, *, resumed: bool = False) -> PrepSheet:
    return PrepSheet(
        session_id=int(row[0]), status=PrepStatus(row[1]),
        questions=tuple(q for q in str(row[2]).split("\n") if q), lang=str(row[3]),
        attempts=int(row[4]), nonce=str(row[5]), message_id=row[6], reason=str(row[7]),
        post_claimed_at=loaded(row[8]) if row[8] else None, model=str(row[9]),
        resumed=resumed)
