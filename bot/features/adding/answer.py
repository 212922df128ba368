"""Answers to adding papers from arXiv: one line per id that needs a word, then the papers' cards
(one card, or a paged list when several), within Discord's limits."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.client.answers import title
from bot.client.cog_host import CogHost
from bot.client.respond import respond
from bot.features.papers.card import fit
from bot.features.papers.card_view import escape, send_card
from bot.features.papers.results_view import PaperPages, send_list
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.adding import AddedItem, AddedStatus, AddReport, ArxivTrouble
from domain.arxiv_ids import IdProblem

if TYPE_CHECKING:
    from bot.bundle import Services

SHOWN_LINES = 10
"""Status lines shown before "… and N more" (the message's text stays far below 2,000)."""
LINE_LIMIT = 180
LINE_KEYS = {AddedStatus.ADDED: "adding.line.added", AddedStatus.UPDATED: "adding.line.updated",
             AddedStatus.FILLED: "adding.line.filled",
             AddedStatus.UNCHANGED: "adding.line.unchanged",
             AddedStatus.CONFLICT: "adding.line.conflict",
             AddedStatus.NOT_FOUND: "adding.line.not_found"}
PROBLEM_KEYS = {IdProblem.TOO_FEW_DIGITS: "arxiv_id.too_few_digits",
                IdProblem.TOO_MANY_DIGITS: "arxiv_id.too_many_digits",
                IdProblem.BAD_MONTH: "arxiv_id.bad_month",
                IdProblem.BEFORE_NEW_SCHEME: "arxiv_id.before_new_scheme",
                IdProblem.UNKNOWN_ARCHIVE: "arxiv_id.unknown_archive",
                IdProblem.BAD_VERSION: "arxiv_id.bad_version",
                IdProblem.NOT_AN_ID: "arxiv_id.not_an_id"}


def item_line(item: AddedItem, lang: Lang) -> str:
    """`Added `2401.01234v2`: Title`, `… is not an arXiv id: why.`, in `lang`."""
    if item.status is AddedStatus.MALFORMED:
        assert item.problem is not None
        return t(lang, "adding.line.malformed", text=escape(fit(item.text, 60)),
                 why=t(lang, PROBLEM_KEYS[item.problem]))
    shown = title(item.paper, lang) if item.paper is not None else ""
    return t(lang, LINE_KEYS[item.status], id=escape(item.text), title=shown)


def report_text(report: AddReport, lang: Lang) -> str:
    """The text above the cards: what happened to each id, and arXiv's trouble if any."""
    lines = [fit(item_line(item, lang), LINE_LIMIT) for item in report.items]
    if len(lines) > SHOWN_LINES:
        lines = [*lines[:SHOWN_LINES], t(lang, "adding.more", n=len(lines) - SHOWN_LINES)]
    if report.trouble is ArxivTrouble.BUSY:
        lines.append(t(lang, "adding.busy"))
    elif report.trouble is ArxivTrouble.REJECTED:
        lines.append(t(lang, "adding.rejected", reason=escape(fit(report.reason, 300))))
    if report.nothing_found:
        lines.append(t(lang, "adding.none_found"))
    return "\n".join(lines)


async def answer_report(bot: CogHost, services: Services,
                        interaction: discord.Interaction, report: AddReport, lang: Lang) -> None:
    """The status lines with the added papers' card (one) or a paged list (several)."""
    text = report_text(report, lang) or None
    papers = report.papers
    if not papers:
        await respond(interaction, text)
        return
    if len(papers) == 1:
        await send_card(interaction, papers[0], lang, content=text)
        return
    source = PaperPages(tuple(p.id for p in papers), "arXiv", lang, services.search.papers,
                        heading=t(lang, "adding.found", n=len(papers)))
    await send_list(bot.lists, interaction, source, content=text)
