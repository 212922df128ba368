"""Message nonces: Discord deduplicates a resend carrying the same nonce (`enforce_nonce`)."""

from __future__ import annotations

import hashlib

NONCE_LENGTH = 25
"""Discord accepts nonces of at most 25 characters."""


def nonce_of(key: str) -> str:
    """A nonce derived from `key`, so every retry of the same message carries the same one."""
    return hashlib.sha256(key.encode()).hexdigest()[:NONCE_LENGTH]
