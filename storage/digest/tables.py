"""The digest's schema changes stated in this package (`storage.schema` holds its tables), under
the same forward-only rule."""

from __future__ import annotations

DIGEST_NOTICE_LEASE = (
    "ALTER TABLE digest_settings ADD COLUMN failure_notice_owner TEXT",
    "ALTER TABLE digest_settings ADD COLUMN failure_notice_lease_until TEXT",
)
"""Both backends' statements: the process giving the admins the pause note, until when (it is
marked given once the answer carrying it was sent)."""
