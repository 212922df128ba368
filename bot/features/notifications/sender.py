"""The outbox's Discord side: one paced loop that leases units, sends them, and completes them.

Started at start-up (so a restart resumes what a crash or shutdown left), woken whenever
something is queued, and drained within a bound on a clean close; what is left is given back
for the next start. A DM refused with 50007 pauses that member's DMs at once, so a server with
thousands of closed DMs costs one failed request per member, never a retry loop; DMs are
paced, which keeps even failures far below Discord's 10,000 invalid requests per 10 minutes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid

import aiohttp
import discord

from bot.client.tree import member_langs
from bot.features.notifications.notices import (
    correction_outcome,
    guild_lang,
    mention_line,
    new_papers_message,
    pinging,
)
from bot.features.notifications.outbox import OutboxService
from bot.features.papers.card_view import escape, paper_message
from bot.shared.messages import t
from domain.outbox import OutboxKind, OutboxUnit
from domain.paper import Paper

log = logging.getLogger(__name__)

POLL_SECONDS = 5.0
"""How often an idle sender looks for units given back or left by a process that died."""
HALT_SECONDS = 5.0
"""How long stop() waits for the loop after interrupting a send (only database work left)."""


class PaperLeft(Exception):
    """The unit's paper is no longer in the catalog."""


def owner_name() -> str:
    """This process's name in the outbox: host, pid, and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class OutboxSender:
    """Sends the outbox, one unit at a time, `interval` seconds apart."""

    def __init__(self, client: discord.Client, outbox: OutboxService, *,
                 interval: float = 0.25, poll: float = POLL_SECONDS) -> None:
        self.client = client
        self.outbox = outbox
        self.interval = interval
        self.poll = poll
        self.owner = owner_name()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._draining = False
        self._halted = False
        self._stopped = False
        self._task: asyncio.Task[None] | None = None
        self._sending: asyncio.Future[None] | None = None
        self.refused_dms = 0
        """DMs Discord refused (closed DMs) since the start, for the metrics."""

    def start(self) -> None:
        """Start the loop (once, and never after stop(): a process that is closing leases
        nothing more): it first sends what earlier runs left."""
        if self._task is None and not self._stopped:
            self._task = asyncio.create_task(self._run(), name="outbox sender")

    def wake(self) -> None:
        """Something was queued: look now rather than at the next poll."""
        self._idle.clear()
        self._wake.set()

    async def idle(self) -> None:
        """Until nothing is due (units waiting for a retry are not due)."""
        if self._task is None or self._task.done():
            return
        self.wake()
        idle = asyncio.ensure_future(self._idle.wait())
        await asyncio.wait({idle, self._task}, return_when=asyncio.FIRST_COMPLETED)
        idle.cancel()

    async def stop(self, bound: float) -> None:
        """Send what is due for at most `bound` seconds, then interrupt the send in flight
        (never a database write) and give the rest back for the next start. Never raises."""
        self._stopped = True
        task, self._task = self._task, None
        if task is None:
            return
        self._draining = True
        self._wake.set()
        try:
            await asyncio.wait_for(asyncio.shield(task), bound)
        except TimeoutError:
            log.warning("closing with notifications still queued; the next start sends them")
            self._halted = True
            if self._sending is not None:
                self._sending.cancel()
            try:
                await asyncio.wait_for(asyncio.shield(task), HALT_SECONDS)
            except TimeoutError:
                task.cancel()
        except Exception:
            log.exception("the outbox sender failed")
        await asyncio.gather(task, return_exceptions=True)
        try:
            await self.outbox.release(self.owner)
        except Exception:
            log.exception("could not give back the outbox's units")

    async def _run(self) -> None:
        while not self._halted:
            self._wake.clear()
            try:
                unit = await self.outbox.claim(self.owner)
            except Exception:
                log.exception("could not read the outbox")
                unit = None
            if unit is None:
                if self._wake.is_set() and not self._draining:
                    continue  # woken while looking: look again
                self._idle.set()
                if self._draining:
                    return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.poll)
                continue
            try:
                await self._attempt(unit)
            except Exception:
                log.exception("could not finish %s", unit.key)
            if not self._halted:
                await asyncio.sleep(self.interval)

    async def _attempt(self, unit: OutboxUnit) -> None:
        self._sending = asyncio.ensure_future(self._send(unit))
        try:
            await self._sending
        except asyncio.CancelledError:
            if not self._halted:
                raise
            return  # interrupted by stop(): the unit is given back with the others
        except discord.Forbidden as exc:
            if exc.code == 50007 and unit.kind.is_dm:
                log.info("DMs to %s refused: paused", unit.entries[0].user_id)
                self.refused_dms += 1
                await self.outbox.refused_dm(unit, self.owner)
            else:
                log.warning("%s refused: %s", unit.key, exc)
                await self.outbox.failed(unit, self.owner, retryable=False)
        except discord.HTTPException as exc:
            log.warning("%s failed: %s", unit.key, exc)
            retryable = exc.status == 429 or exc.status >= 500
            await self.outbox.failed(unit, self.owner, retryable=retryable)
        except PaperLeft:
            await self.outbox.failed(unit, self.owner, retryable=False)
        except (OSError, aiohttp.ClientError) as exc:
            log.warning("%s failed: %s", unit.key, exc)
            await self.outbox.failed(unit, self.owner, retryable=True)
        else:
            await self.outbox.sent(unit, self.owner)
        finally:
            self._sending = None

    async def _paper(self, paper_id: str, guild_id: int) -> Paper:
        paper = await self.outbox.paper(paper_id, guild_id)
        if paper is None:
            raise PaperLeft(paper_id)
        return paper

    async def _send(self, unit: OutboxUnit) -> None:
        lang = guild_lang(self.client, unit.guild_id)
        first = unit.entries[0]
        if unit.kind is OutboxKind.MENTION:
            assert first.channel_id is not None
            user_ids = [entry.user_id for entry in unit.entries]
            channel = self.client.get_partial_messageable(first.channel_id,
                                                          guild_id=unit.guild_id)
            await channel.send(mention_line(user_ids, first.topics, lang), nonce=unit.nonce,
                               allowed_mentions=pinging(user_ids))
            return
        dm = await self.client.create_dm(discord.Object(id=first.user_id))
        langs = member_langs(self.client)  # a DM in the member's language, where seen
        lang = (langs.of(first.user_id) if langs is not None else None) or lang
        if unit.kind is OutboxKind.DIGEST_DM:
            embed, view = paper_message(await self._paper(first.paper_id, unit.guild_id), lang)
            view.stop()
            content = t(lang, "notify.digest_dm", topics=escape(", ".join(first.topics)),
                        link=first.link or "")
            await dm.send(content, embed=embed, nonce=unit.nonce,
                          allowed_mentions=discord.AllowedMentions.none())
            return
        guild = self.client.get_guild(unit.guild_id)
        name = guild.name if guild else t(lang, "notify.your_server")
        if unit.kind is OutboxKind.CORRECTION_DM:
            await dm.send(correction_outcome(first, name, lang), nonce=unit.nonce,
                          allowed_mentions=discord.AllowedMentions.none())
            return
        listed = [(paper, entry.topics) for entry in unit.entries
                  if (paper := await self.outbox.paper(entry.paper_id, unit.guild_id)) is not None]
        if not listed:
            raise PaperLeft(first.paper_id)
        await dm.send(new_papers_message(listed, name, lang), nonce=unit.nonce,
                      allowed_mentions=discord.AllowedMentions.none())
