"""Keeping the stand-in's records small during long runs, so that a figure measures the bot.

The stand-in keeps every interaction, message and request for tests to inspect. It shares the
bench's process (and heap) with the bot: thousands of lookups' records would make the bot's
garbage collections walk the stand-in's memory too."""

from __future__ import annotations

from bot.client.ui.live import MAX_LIVE_LISTS
from discord_standin import StandIn

FORGET_EVERY = 100
"""Lookups between two trims."""
KEEP = 2 * MAX_LIVE_LISTS
"""Interactions kept: every live result list can still edit its message."""


def trim_now_and_then(standin: StandIn, lookups_so_far: int) -> None:
    """Forget all but the last `KEEP` interactions every `FORGET_EVERY` lookups (call it
    between two timed lookups, after the stand-in has settled)."""
    if lookups_so_far % FORGET_EVERY == 0:
        standin.forget_history(keep=KEEP)
