"""Prep sheets, made and posted in the background: for each scheduled session of a server that
has them on, the questions are generated from `AHEAD` before the sheet is due (so retries fit
before it), and posted once in the session's thread `LEAD` before the session.

Generation is claimed and leased per session (one process asks the model), charged to the
summaries' daily token budget, and an answer the sanitiser discards is asked again later, at
most `MAX_ATTEMPTS` times, then recorded as failed (nothing is posted). Posting is claimed
before the message is sent (with a nonce and a footer marker) and recorded after; a claim left
by a crash is taken over when its lease runs out, and the thread is searched first. A session
moved before its sheet is due gets it at its new time; a cancelled or started one never."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol

from bot.features.digest.scheduler import HISTORY_MARGIN
from bot.features.group.store import GroupStore
from bot.features.papers.store import PaperStore
from bot.features.prep.questions import messages, questions
from bot.features.prep.store import PrepStore
from bot.features.sessions.store import SessionStore
from bot.features.summaries.llm_client import LlmBroken, LlmBusy
from bot.features.summaries.prompt import estimate_tokens, paper_source
from bot.features.summaries.sanitize import Discarded
from bot.features.summaries.worker import Completer, day_of
from bot.settings_llm import LlmSettings
from bot.shared.clock import Clock
from bot.shared.delivery import DeliveryFailed
from bot.shared.lang import Lang
from bot.shared.leases import Leaser
from bot.shared.server_view import ServerView, seen
from domain.nonce import nonce_of
from domain.paper import Paper
from domain.prep import AHEAD, LEAD, MAX_ATTEMPTS, PrepSheet, PrepStatus, due_at, marker
from domain.reasons import Reason, ReasonCode
from domain.sessions import Session
from domain.shards import ALL_SHARDS, Shards
from domain.summaries import SummaryLang
from domain.text import to_traditional

log = logging.getLogger(__name__)

RETRY_AFTER = timedelta(minutes=10)
"""The wait before a discarded answer's session is asked again (doubling each attempt)."""


class PrepOutcome(StrEnum):
    """What one session's turn did."""

    READY = "ready"
    DISCARDED = "discarded"
    FAILED = "failed"
    POSTED = "posted"
    NOT_POSTED = "not posted"


@dataclass(frozen=True, slots=True)
class PrepDone:
    """One session's sheet handled in a tick."""

    session_id: int
    outcome: PrepOutcome
    reason: str = ""


class PrepPoster(Protocol):
    """The Discord side of prep sheets (`bot.features.prep.poster`)."""

    def lang(self, guild_id: int) -> Lang:
        """The server's language."""
        ...

    async def post_sheet(self, session: Session, paper: Paper, sheet: PrepSheet,
                         mark: str) -> int:
        """Post the sheet in the session's thread (or channel) with `sheet.nonce` and `mark` in
        its footer; returns the message id, or raises `DeliveryFailed`."""
        ...

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        """Our post after `since` carrying `nonce` or `marker`, if any."""
        ...


class TokenBudget(Protocol):
    """The daily token budget the summaries keep (`bot.features.summaries.store`)."""

    async def reserve_tokens(self, day: str, tokens: int, budget: int) -> bool:
        """Count `tokens` against `day` if the day's total stays within `budget`."""
        ...

    async def settle_tokens(self, day: str, reserved: int, used: int) -> None:
        """Replace a reservation by what the request used."""
        ...


@dataclass(frozen=True, slots=True)
class PrepParts:
    """What prep sheets read and write."""

    sheets: PrepStore
    sessions: SessionStore
    groups: GroupStore
    papers: PaperStore
    budget: TokenBudget


class PrepService:
    """Every server's prep sheets, made with `client` and posted by `poster`."""

    def __init__(self, parts: PrepParts, client: Completer, poster: PrepPoster,
                 settings: LlmSettings, *, clock: Clock, leases: Leaser,
                 shards: Shards = ALL_SHARDS, view: ServerView | None = None) -> None:
        self._parts, self._client, self._poster = parts, client, poster
        self._settings, self._clock, self._leases = settings, clock, leases
        self._shards, self._view = shards, view
        self._resume_at: datetime | None = None
        """No generation before then (the budget is spent, or the endpoint asked to wait)."""

    async def tick(self) -> list[PrepDone]:
        """Generate and post what is due for every session starting within `LEAD + AHEAD`;
        one session's failure never holds another back."""
        now = self._clock()
        done: list[PrepDone] = []
        window = now + LEAD + AHEAD + timedelta(seconds=1)  # starts are kept to the second
        for session in await self._parts.sessions.scheduled_before(window):
            if session.starts_at <= now or session.problem is not None \
                    or not self._shards.owns(session.guild_id):
                continue  # started, or its thread is gone (its reminders stopped too)
            try:
                done += await self._session(session)
            except Exception:
                log.exception("prep sheet of session %s failed", session.id)
        if done:
            log.info("prep sheets: %s", ", ".join(f"#{d.session_id} {d.outcome}" for d in done))
        return done

    async def _session(self, session: Session) -> list[PrepDone]:
        if not (await self._parts.groups.settings(session.guild_id)).prep_sheets:
            return []
        done: list[PrepDone] = []
        sheet = await self._parts.sheets.get(session.id)
        if sheet is None or sheet.status in (PrepStatus.WAITING, PrepStatus.CLAIMED):
            if (made := await self._generate(session)) is not None:
                done.append(made)
            sheet = await self._parts.sheets.get(session.id)
        due = sheet is not None and sheet.status in (PrepStatus.READY, PrepStatus.POSTING) \
            and self._clock() >= due_at(session.starts_at)
        if due and (posted := await self._post(session)) is not None:
            done.append(posted)
        return done

    # -- generation ---------------------------------------------------------------------------

    async def _generate(self, session: Session) -> PrepDone | None:
        now = self._clock()
        if self._resume_at is not None and now < self._resume_at:
            return None
        owner = self._leases.owner
        lease_until = now + timedelta(seconds=self._settings.lease_seconds)
        claim = await self._parts.sheets.claim_generation(session.id, owner, now, lease_until)
        if claim is None:
            return None
        paper = await seen(self._view, session.guild_id,
                           await self._parts.papers.get(session.paper_id))
        if paper is None:
            return await self._discard(claim, "the paper left the catalog", final=True)
        lang = self._poster.lang(session.guild_id)
        asked = SummaryLang.ZH_CN if lang.chinese else SummaryLang.EN
        text = paper_source(paper)
        chat = messages(text, asked)
        day = day_of(now)
        reserved = sum(estimate_tokens(m["content"]) + 4 for m in chat) + \
            self._settings.max_answer_tokens
        if not await self._parts.budget.reserve_tokens(day, reserved,
                                                       self._settings.daily_token_budget):
            tomorrow = now.replace(hour=0, minute=0, second=0, microsecond=0) + \
                timedelta(days=1)
            await self._give_back(claim, "budget", tomorrow)
            return None
        try:
            answer = await self._client.complete(chat)
        except LlmBusy as busy:
            await self._parts.budget.settle_tokens(day, reserved, 0)
            await self._give_back(claim, f"busy: {busy}",
                                  now + timedelta(seconds=busy.retry_after))
            return None
        except LlmBroken as broken:  # what it cost is unknown: the reservation stays counted
            return await self._discard(claim, str(broken))
        await self._parts.budget.settle_tokens(day, reserved, answer.tokens or reserved)
        try:
            found = questions(answer.text, text, asked)
        except Discarded as why:
            return await self._discard(claim, str(why))
        if lang is Lang.ZH_HANT:
            found = tuple(to_traditional(question) for question in found)
        await self._parts.sheets.ready(session.id, owner, found, lang=lang.value,
                                       model=self._settings.model, now=self._clock())
        return PrepDone(session.id, PrepOutcome.READY)

    async def _give_back(self, claim: PrepSheet, reason: str, until: datetime) -> None:
        """Stop generating until `until` and release the claim unasked (no attempt counted)."""
        self._resume_at = max(until, self._resume_at or until)
        await self._parts.sheets.retry(claim.session_id, self._leases.owner,
                                       attempts=claim.attempts, reason=reason,
                                       next_try=self._resume_at, now=self._clock())

    async def _discard(self, claim: PrepSheet, reason: str, *, final: bool = False) -> PrepDone:
        """An answer not kept: asked again later, or failed after `MAX_ATTEMPTS`."""
        attempts = claim.attempts + 1
        now = self._clock()
        due = None if final or attempts >= MAX_ATTEMPTS else \
            now + RETRY_AFTER * 2 ** (attempts - 1)
        log.info("prep sheet of session %s discarded: %s (attempt %d)", claim.session_id,
                 reason, attempts)
        await self._parts.sheets.retry(claim.session_id, self._leases.owner, attempts=attempts,
                                       reason=reason, next_try=due, now=now)
        return PrepDone(claim.session_id,
                        PrepOutcome.FAILED if due is None else PrepOutcome.DISCARDED, reason)

    # -- posting ------------------------------------------------------------------------------

    async def _post(self, session: Session) -> PrepDone | None:
        """Claim, find or send, record; None when another process holds the post."""
        lease = self._leases.fresh()
        claim = await self._parts.sheets.claim_post(
            session.id, nonce_of(f"prep:{session.id}"), lease.owner, self._clock(),
            lease.until)
        if claim is None:
            return None
        mark = marker(session.id)
        try:
            paper = await seen(self._view, session.guild_id,
                               await self._parts.papers.get(session.paper_id))
            if paper is None:
                raise DeliveryFailed(Reason(ReasonCode.PAPER_LEFT_CATALOG))
            message_id = None
            if claim.resumed:
                if not await self._hold(session.id):
                    return None
                since = (claim.post_claimed_at or self._clock()) - HISTORY_MARGIN
                message_id = await self._poster.find(session.thread_id or session.channel_id,
                                                     mark, claim.nonce, since)
            if message_id is None:
                if not await self._hold(session.id):
                    return None
                message_id = await self._poster.post_sheet(session, paper, claim, mark)
        except DeliveryFailed as exc:
            reason = exc.reason.encode()
            log.warning("prep sheet of session %s not posted: %s", session.id, reason)
            await self._parts.sheets.finish_post(session.id, lease.owner, message_id=None,
                                                 reason=reason, now=self._clock())
            return PrepDone(session.id, PrepOutcome.NOT_POSTED, reason)
        await self._parts.sheets.finish_post(session.id, lease.owner, message_id=message_id,
                                             reason="", now=self._clock())
        return PrepDone(session.id, PrepOutcome.POSTED)

    async def _hold(self, session_id: int) -> bool:
        """Renew this process's lease on the post before a Discord call."""
        lease = self._leases.fresh()
        return await self._parts.sheets.hold_post(session_id, lease.owner, self._clock(),
                                                  lease.until)
