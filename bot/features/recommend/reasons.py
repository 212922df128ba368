"""A recommendation's one-line reason in the reader's language."""

from __future__ import annotations

from bot.features.papers.results import titles_in_order
from bot.features.recommend.service import Recommended
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.text import to_traditional

TITLE_LIMIT = 80
WORD_SEPARATOR = {Lang.EN: ", ", Lang.ZH_HANS: "、", Lang.ZH_HANT: "、"}


def _short(text: str) -> str:
    return text if len(text) <= TITLE_LIMIT else text[: TITLE_LIMIT - 1] + "…"


def paper_title(rec: Recommended, lang: Lang) -> str:
    """The recommended paper's title as the reader reads titles."""
    return titles_in_order(rec.paper, lang is not Lang.EN, lang)[0]


LIKE_KEYS = {
    "bookmarked": "recommend.like.bookmarked", "suggested": "recommend.like.suggested",
    "supported": "recommend.like.supported", "voted": "recommend.like.voted",
    "discussed": "recommend.like.discussed", "presented": "recommend.like.presented",
    "liked": "recommend.like.liked"}
"""The reason's first half by the kind of signal the pick is like."""


def reason(rec: Recommended, lang: Lang) -> str:
    """`like *X* you bookmarked · shared words: a, b, c` (either part may be missing)."""
    parts = []
    if rec.like is not None and rec.pick.like_kind is not None:
        like_title = titles_in_order(rec.like, lang is not Lang.EN, lang)[0]
        parts.append(t(lang, LIKE_KEYS[rec.pick.like_kind.value],
                       title=_short(like_title)))
    if rec.pick.words:
        words = [to_traditional(w) if lang is Lang.ZH_HANT else w for w in rec.pick.words]
        parts.append(t(lang, "recommend.words", words=WORD_SEPARATOR[lang].join(words)))
    return " · ".join(parts)
