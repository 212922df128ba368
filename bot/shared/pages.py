"""Paged lists of prepared entries (the queue, a reading list, the history) as plain text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.features.papers.card import DESCRIPTION_LIMIT, fit
from bot.features.papers.results import page_count
from bot.shared.lang import Lang
from bot.shared.messages import t

PER_PAGE = 5
TITLE_LIMIT = 256


@dataclass(frozen=True, slots=True)
class TextPage:
    """One page: a heading, the entries joined, and `Page n of m`."""

    heading: str
    body: str
    footer: str


def text_pages(heading: str, entries: Sequence[str], lang: Lang, *, empty: str,
               per_page: int = PER_PAGE) -> list[TextPage]:
    """Entries `per_page` at a time, each page within an embed description's limit."""
    pages = page_count(len(entries), per_page)
    result = []
    for page in range(pages):
        shown = entries[page * per_page : (page + 1) * per_page]
        body = "\n\n".join(shown) if shown else empty
        result.append(TextPage(fit(heading, TITLE_LIMIT), fit(body, DESCRIPTION_LIMIT),
                               t(lang, "results.page", page=page + 1, pages=pages)))
    return result
