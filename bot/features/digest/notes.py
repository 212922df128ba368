"""The paper of the day's note: where it stands in the cycle, or why it was recommended."""

from __future__ import annotations

from bot.features.papers.card import fit
from bot.features.papers.card_view import escape
from bot.features.papers.results import titles_in_order
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.paper import Paper

LIKE_TITLE_LIMIT = 80


def pick_note(lang: Lang, prefix: str, recommended: bool, like: Paper | None, position: int,
              size: int) -> str:
    """`{prefix}.note` ("7 of 30 in this cycle"), or `{prefix}.recommended` naming the
    group's liked paper the pick is closest to (`{prefix}.recommended_plain` without one)."""
    if not recommended:
        return t(lang, f"{prefix}.note", position=position, size=size)
    if like is None:
        return t(lang, f"{prefix}.recommended_plain")
    title = titles_in_order(like, lang.chinese, lang)[0]
    return t(lang, f"{prefix}.recommended", title=escape(fit(title, LIKE_TITLE_LIMIT)))
