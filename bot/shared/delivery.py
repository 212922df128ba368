"""The one failure of a side effect on Discord: what was refused, and whether to try again."""

from __future__ import annotations

from domain.reasons import Reason


class DeliveryFailed(Exception):
    """Discord refused a post, an edit, a DM or a thread; `reason` says why (shown in status).

    `retryable` failures (still rate limited after discord.py's own tries) are tried again.
    """

    def __init__(self, reason: Reason, code: int | None = None, *,
                 retryable: bool = False) -> None:
        super().__init__(reason.encode())
        self.reason = reason
        self.code = code
        self.retryable = retryable
