"""Which tables hold per-server link tokens: a fixed set, so a table name in the stores' SQL is
never anything but one of these constants."""

from __future__ import annotations

from typing import Literal

LinkTable = Literal["calendar_links", "web_links"]
"""A table with `guild_id` (key), `token` (NULL once off) and `updated_at`."""
