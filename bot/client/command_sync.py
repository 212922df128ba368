"""Syncing slash commands only when they changed (a hash of the payload is kept in the DB)."""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Literal

import discord
from discord import app_commands

from bot.shared.sync_record import SyncRecord

log = logging.getLogger(__name__)

SyncTarget = Literal["guild", "global"]


async def command_payload(tree: app_commands.CommandTree[discord.Client],
                          guild: discord.abc.Snowflake | None) -> list[dict[str, object]]:
    """The JSON that `tree.sync(guild=...)` would send, translations included."""
    translator = tree.translator
    payload = []
    for command in tree.get_commands(guild=guild):
        if translator is not None:
            payload.append(await command.get_translated_payload(tree, translator))
        else:
            payload.append(command.to_dict(tree))
    return payload


async def sync_commands(tree: app_commands.CommandTree[discord.Client], record: SyncRecord, *,
                        target: SyncTarget, guild_id: int = 0, force: bool = False) -> bool:
    """Sync to the dev guild or globally; returns False when skipped as unchanged."""
    guild = discord.Object(id=guild_id) if target == "guild" else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    payload = await command_payload(tree, guild)
    digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
    key = f"command-sync:{target}:{guild_id if guild else 'all'}"
    if not force and await record.unchanged(key, digest):
        log.info("slash commands unchanged since the last sync (%s); not syncing", target)
        return False
    synced = await tree.sync(guild=guild)
    await record.remember(key, digest)
    log.info("synced %d slash commands (%s)", len(synced), target)
    return True
