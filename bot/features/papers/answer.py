"""`/paper`'s answer to a search by words, given at once and completed in the background.

The lexical tiers answer first (a card, a list, or "no match"). When the papers close in
meaning may join (`SearchService.search_first`), that step runs after the answer is sent and
the same message is edited once, to what an inline search by meaning would have shown: the
close papers after the firm hits, marked, in the same order. When the words found nothing the
first answer says so and that papers close in meaning are being looked for; it becomes their
card or list, or today's "no match" (with its "did you mean") when none is close. A single
lexical hit that gains close papers becomes a list (a card has no room for them, and the
firm hit stays first). A list is edited only while its first page is on screen; one turned
past it, or showing a card, holds the new results and shows them at the next turn; one no
longer live (expired or evicted) or whose whole list was searched since is left as it is.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from bot.client.respond import SentAnswer, respond, sending
from bot.client.ui.live import LiveLists
from bot.features.papers.card import fit
from bot.features.papers.card_view import escape, paper_message
from bot.features.papers.results import PER_PAGE, matched_note, no_match_message
from bot.features.papers.results_view import PaperFetch, PaperPages, ResultList, WholeList
from bot.features.papers.search import SearchOutcome, Strategy
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.query import SearchQuery

log = logging.getLogger(__name__)

FIRST_ANSWER = 2 * PER_PAGE
"""Results `/paper`'s first answer holds; one more is searched for, to know whether the list
goes on. The rest (up to the cog's `RESULT_LIMIT`) are searched when a page past them is
turned to: most lists are never turned past their second page, and ranking 50 took 1.4 times
as long as 11 (median 1.20 against 0.84 ms over `bench interactions`' 1,000 lookups at 100k
papers)."""


@dataclass(frozen=True, slots=True)
class Asked:
    """A `/paper` search, as its answers need it."""

    parsed: SearchQuery
    text: str
    """The query as typed ('' when only options were given)."""
    lang: Lang
    fetch: PaperFetch
    """Papers by id, as the server sees them."""
    whole: WholeList
    """The whole list, searched when a page past the first answer is turned to."""

    def shown_query(self, outcome: SearchOutcome) -> str:
        """The query as an answer names it."""
        if not outcome.hits and outcome.unfiltered is not None:
            return " ".join(self.parsed.words)
        return self.text or self.parsed.describe()


@dataclass(slots=True)
class Reply:
    """What a message shows: its text, its embed and controls, and the list behind them."""

    content: str | None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    results: ResultList | None = None
    pages: PaperPages | None = None
    """The results the list holds as sent (it may hold others later)."""


def note_for(outcome: SearchOutcome, lang: Lang) -> str:
    """The line above the results: the corrected words shown, or "some of the words"."""
    notes = [t(lang, "results.corrected", s=escape(outcome.did_you_mean))
             if outcome.did_you_mean else "",
             t(lang, "results.any_word") if outcome.strategy is Strategy.ANY_WORD else ""]
    return "\n".join(n for n in notes if n)


def pages_for(outcome: SearchOutcome, asked: Asked) -> PaperPages:
    """The list of `outcome`'s first answer (the rest searched when turned to)."""
    held = outcome.hits[:FIRST_ANSWER]
    return PaperPages(tuple(h.id for h in held), asked.shown_query(outcome), asked.lang,
                      asked.fetch, matched=dict(outcome.crossed), close=outcome.close,
                      more=asked.whole if len(outcome.hits) > FIRST_ANSWER else None)


async def reply_for(interaction: discord.Interaction, outcome: SearchOutcome,
                    asked: Asked) -> Reply:
    """One match: its card. Several: a paged list (not live yet). None: suggestions."""
    lang = asked.lang
    if not outcome.hits:
        return Reply(no_match_message(asked.shown_query(outcome), outcome.did_you_mean, lang,
                                      escape, filters=asked.parsed.filters,
                                      unfiltered=outcome.unfiltered))
    note = note_for(outcome, lang)
    if len(outcome.hits) == 1:
        crossed = matched_note(outcome.crossed.get(outcome.hits[0].id, ()), lang) or (
            t(lang, "results.close_in_meaning") if outcome.close else "")
        embed, view = paper_message(outcome.hits[0].paper, lang,
                                    note="\n".join(filter(None, (note, escape(crossed)))))
        return Reply(None, embed, view)
    pages = pages_for(outcome, asked)
    results = ResultList.of(interaction, pages)
    embed, view = await results.render([h.paper for h in outcome.hits[:PER_PAGE]])
    return Reply(note or None, embed, view, results, pages)


def looking(asked: Asked) -> Reply:
    """The first answer when the words found nothing but papers close in meaning are looked
    for."""
    query = asked.text or asked.parsed.describe()
    return Reply(t(asked.lang, "results.looking", q=escape(fit(query, 200))))


async def send_reply(lists: LiveLists, interaction: discord.Interaction, reply: Reply, *,
                     ephemeral: bool) -> SentAnswer:
    """Answer `interaction` with `reply` (its list live in `lists` before it is sent)."""
    if reply.results is not None:
        lists.add(reply.results.key, reply.results)
    if reply.view is None:
        message = await respond(interaction, reply.content, embed=reply.embed,
                                ephemeral=ephemeral)
    else:
        with sending(reply.view) as view:
            message = await respond(interaction, reply.content, embed=reply.embed, view=view,
                                    ephemeral=ephemeral)
    sent = SentAnswer.of(interaction, message)
    if reply.results is not None:
        reply.results.message = sent
    return sent


async def edit_reply(lists: LiveLists, sent: SentAnswer, reply: Reply) -> None:
    """Show `reply` in the message `sent`, in place of what it showed (its list live in
    `lists`)."""
    if reply.results is not None:
        lists.add(reply.results.key, reply.results)
        reply.results.message = sent
    embeds = [reply.embed] if reply.embed is not None else []
    content = reply.content or ""  # '' clears the text: Discord may read null as "as it is"
    if reply.view is None:
        await sent.edit(content=content, embeds=embeds, view=None)
        return
    with sending(reply.view) as view:
        await sent.edit(content=content, embeds=embeds, view=view)


Later = Callable[[], Awaitable[SearchOutcome | None]]


async def join_close(lists: LiveLists, interaction: discord.Interaction, asked: Asked,
                     first: SearchOutcome, shown: Reply, sent: Awaitable[SentAnswer],
                     later: Later) -> bool:
    """Run the step by meaning while the first answer (`first`, shown as `shown`) is sent,
    then edit its message (`sent`, cancelled when it could not be sent) once to include the
    papers close in meaning, or, after "looking…", to "no match" when none is close; whether
    it was edited. A failure of the step is logged and taken as nothing close; an edit Discord
    refuses (the message deleted meanwhile) is logged."""
    try:
        joined = await later()
    except Exception:
        log.exception("/paper: papers close in meaning could not be looked for")
        joined = None
    try:
        message = await sent
    except asyncio.CancelledError:
        if (task := asyncio.current_task()) is not None and task.cancelling():
            raise  # this step itself is being cancelled (the bot closing)
        return False  # the first answer was never sent
    try:
        return await _edited(lists, interaction, asked, first, shown, message, joined)
    except discord.HTTPException as exc:
        log.info("/paper: could not add the papers close in meaning: %s", exc)
        return False


async def _edited(lists: LiveLists, interaction: discord.Interaction, asked: Asked,
                  first: SearchOutcome, shown: Reply, sent: SentAnswer,
                  joined: SearchOutcome | None) -> bool:
    """`join_close`'s edit, once the step by meaning found `joined` (None: nothing close)."""
    if joined is None:
        if first.hits:
            return False  # nothing close: the first answer stands
        await edit_reply(lists, sent, await reply_for(interaction, first, asked))
        return True
    held = shown.results
    if held is None or shown.pages is None:  # a card, or "looking…"
        await edit_reply(lists, sent, await reply_for(interaction, joined, asked))
        return True
    if lists.peek(held.key) is not held:  # no longer live: its controls answer nothing
        return False
    return await held.grow(shown.pages, pages_for(joined, asked),
                           content=note_for(joined, asked.lang),
                           at_hand=[h.paper for h in joined.hits[:PER_PAGE]])
