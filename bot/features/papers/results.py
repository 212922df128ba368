"""Result lists, autocomplete labels and no-match messages: pure text, within Discord limits."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from bot.features.papers.card import DESCRIPTION_LIMIT, fit
from bot.features.papers.venue_label import chinese_for, venue_badge
from bot.shared.lang import Lang
from bot.shared.messages import t, tn
from domain.crosslingual import Translation
from domain.paper import Paper, Track
from domain.query import Filters

CHOICE_NAME_LIMIT = 100
SELECT_LABEL_LIMIT = 100
SELECT_DESCRIPTION_LIMIT = 100
PER_PAGE = 5

def titles_in_order(paper: Paper, chinese_first: bool, lang: Lang) -> tuple[str, str]:
    """(first, second) title for a reader or typist of Chinese or English; the Chinese title in
    Traditional characters for a zh-TW reader."""
    title_zh = chinese_for(paper.title_zh, lang)
    if chinese_first and title_zh:
        return title_zh, paper.title_en
    return paper.title_en, title_zh


def choice_name(paper: Paper, chinese_first: bool, lang: Lang) -> str:
    """An autocomplete choice: the title in the typed language, at most 100 characters."""
    first, second = titles_in_order(paper, chinese_first, lang)
    label = f"{first} — {second}" if second else first
    if len(first) >= CHOICE_NAME_LIMIT - 12:
        label = first
    return fit(label, CHOICE_NAME_LIMIT) or paper.id  # Discord refuses an empty name


def matched_note(translations: Sequence[Translation], lang: Lang) -> str:
    """Why a paper found through the other language is there: `matched 扩散模型 → diffusion
    model` ('' for a paper the query's own words found); the Chinese in Traditional for zh-TW
    readers."""
    if not translations:
        return ""
    terms = ", ".join(map(str, translations))
    return t(lang, "results.matched", terms=chinese_for(terms, lang))


def option_label(paper: Paper, lang: Lang) -> tuple[str, str]:
    """Select-menu label and description for a paper (each at most 100 characters)."""
    first, _ = titles_in_order(paper, lang.chinese, lang)
    authors = ", ".join(paper.authors[:3]) + (" …" if len(paper.authors) > 3 else "")
    badge = venue_badge(paper.venue, lang)
    description = f"{authors} · {badge}" if badge else authors
    label = fit(first, SELECT_LABEL_LIMIT) or paper.id  # Discord refuses an empty label
    return label, fit(description, SELECT_DESCRIPTION_LIMIT)


@dataclass(frozen=True, slots=True)
class ResultPage:
    """One page of a result list."""

    heading: str
    body: str
    footer: str
    papers: tuple[Paper, ...]
    first: int = 0
    """Position of `papers[0]` in the whole list (0-based)."""


def page_count(total: int, per_page: int = PER_PAGE) -> int:
    """Pages needed for `total` results (at least 1)."""
    return max(1, -(-total // per_page))


def result_page(shown: Sequence[Paper], page: int, total: int, query: str, lang: Lang,
                escape: Callable[[str], str], per_page: int = PER_PAGE,
                heading: str | None = None,
                matched: Mapping[str, Sequence[Translation]] | None = None,
                more: bool = False, close: Collection[str] = ()) -> ResultPage:
    """Page `page` (0-based) of a list of `total` results, given the papers on that page:
    numbered titles with authors and venue, and for a paper found through the other language
    the terms read (`matched`, by paper id); headed "N papers match “query”" unless
    `heading`. `more`: the list goes on past these `total` (not searched yet): "More than N
    papers match", "Page 1 of 2+"."""
    pages = page_count(total, per_page)
    page = min(max(page, 0), pages - 1)
    shown = tuple(shown[:per_page])
    lines = []
    for number, paper in enumerate(shown, start=page * per_page + 1):
        first, second = titles_in_order(paper, lang.chinese, lang)
        authors = ", ".join(paper.authors[:3]) + (" et al." if len(paper.authors) > 3 else "")
        badge = venue_badge(paper.venue, lang)
        entry = f"**{number}. {escape(fit(first, 300))}**"
        if second:
            entry += f"\n{escape(fit(second, 200))}"
        entry += f"\n{escape(fit(authors, 200))}" + (f" · {escape(badge)}" if badge else "")
        if note := matched_note((matched or {}).get(paper.id, ()), lang):
            entry += f"\n*{escape(fit(note, 200))}*"
        if paper.id in close:
            entry += f"\n*{t(lang, 'results.close_in_meaning')}*"
        lines.append(entry)
    body = fit("\n\n".join(lines), DESCRIPTION_LIMIT)
    found, footer = ("results.found_more", "results.page_more") if more else (
        "results.found", "results.page")
    heading = fit(heading or t(lang, found, n=total, q=escape(fit(query, 100))), 256)
    return ResultPage(heading, body, t(lang, footer, page=page + 1, pages=pages), shown,
                      first=page * per_page)


UNFILTERED_CAP = 100
"""Matches counted without the filters, at most (more are "more than 100")."""


def describe_filters(filters: Filters, lang: Lang, escape: Callable[[str], str]) -> str:
    """The filters in words: `workshop papers · papers by vardi`."""
    parts: list[str] = []
    if filters.track is not None:
        parts.append(t(lang, "filter.main" if filters.track is Track.MAIN else "filter.workshop"))
    if filters.venue:
        parts.append(t(lang, "filter.venue", venue=escape(fit(filters.venue, 100))))
    if filters.author:
        parts.append(t(lang, "filter.author", author=escape(" ".join(filters.author))))
    if filters.honour:
        honour = filters.honour if lang is Lang.EN else t(lang, f"card.honour.{filters.honour}")
        parts.append(t(lang, "filter.honour", honour=honour))
    if filters.year is not None:
        parts.append(t(lang, "filter.year", year=filters.year))
    return " · ".join(parts)


def no_match_message(query: str, did_you_mean: str | None, lang: Lang,
                     escape: Callable[[str], str], *, filters: Filters | None = None,
                     unfiltered: int | None = None) -> str:
    """What to say when nothing matched: the query (and the filters that narrowed it, with the
    matches found without them), a suggestion, and a hint."""
    if filters is not None and unfiltered is not None:
        lines = [t(lang, "results.none_filtered", q=escape(fit(query, 200)),
                   filters=describe_filters(filters, lang, escape))]
        if unfiltered is not None:
            lines.append(t(lang, "results.unfiltered_many", n=UNFILTERED_CAP)
                         if unfiltered > UNFILTERED_CAP
                         else tn(lang, "results.unfiltered", unfiltered))
    else:
        lines = [t(lang, "results.none", q=escape(fit(query, 200)))]
    if did_you_mean:
        lines.append(t(lang, "results.did_you_mean", s=escape(fit(did_you_mean, 200))))
    lines.append(t(lang, "results.hint"))
    return "\n".join(lines)
