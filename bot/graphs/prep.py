"""The prep sheets' graph: with `[llm]` on, a service that shares the summaries' client and
daily token budget; with it off, nothing (no sheet is made, nothing is sent)."""

from __future__ import annotations

import discord

from bot.features.prep.poster import DiscordPrepPoster
from bot.features.prep.service import PrepParts, PrepService
from bot.graphs.summaries import RunningSummaries, Summaries
from bot.settings import Settings
from bot.shared.clock import Clock
from bot.shared.leases import Leaser
from domain.shards import Shards
from storage import backend as stores
from storage.backend import AnyDatabase


def prep_sheets_for(summaries: Summaries, db: AnyDatabase, settings: Settings,
                    client: discord.Client, *, clock: Clock, leases: Leaser,
                    shards: Shards) -> PrepService | None:
    """The prep sheets' service when `[llm]` is enabled, else None."""
    if not isinstance(summaries, RunningSummaries):
        return None
    parts = PrepParts(stores.PREP_SHEETS.open(db), stores.SESSIONS.open(db),
                      stores.GROUPS.open(db), stores.PAPERS.open(db), summaries.store)
    return PrepService(parts, summaries.client, DiscordPrepPoster(client), settings.llm,
                       clock=clock, leases=leases, shards=shards, view=summaries.view)
